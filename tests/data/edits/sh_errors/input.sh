#!/bin/bash
# backup.sh — copies a directory into a dated, compressed archive and keeps
# the newest few archives.

SRC="$1"
DEST="${2:-/var/backups/site}"
KEEP="${KEEP:-7}"
STAMP="$(date +%Y-%m-%d_%H%M%S)"
NAME="$(basename "$SRC")"
ARCHIVE="$DEST/$NAME-$STAMP.tar.gz"

log() {
    echo "[$(date +%H:%M:%S)] $*"
}

make_archive() {
    log "archiving $SRC to $ARCHIVE"
    mkdir -p "$DEST"
    tar -czf "$ARCHIVE.part" -C "$(dirname "$SRC")" "$NAME"
    mv "$ARCHIVE.part" "$ARCHIVE"
}

verify_archive() {
    log "verifying $ARCHIVE"
    tar -tzf "$ARCHIVE" > /dev/null
}

prune_old() {
    log "keeping the newest $KEEP archives"
    ls -1t "$DEST"/"$NAME"-*.tar.gz | tail -n +"$((KEEP + 1))" | while read -r old; do
        log "removing $old"
        rm -f "$old"
    done
}

report() {
    local size
    size="$(du -h "$ARCHIVE" | cut -f1)"
    log "done: $ARCHIVE ($size)"
}

make_archive
verify_archive
prune_old
report
