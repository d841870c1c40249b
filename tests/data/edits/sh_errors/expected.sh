#!/bin/bash
# backup.sh — copies a directory into a dated, compressed archive and keeps
# the newest few archives.

set -euo pipefail

SRC="${1:-}"
DEST="${2:-/var/backups/site}"
KEEP="${KEEP:-7}"
STAMP="$(date +%Y-%m-%d_%H%M%S)"
NAME="$(basename "$SRC")"
ARCHIVE="$DEST/$NAME-$STAMP.tar.gz"

log() {
    echo "[$(date +%H:%M:%S)] $*"
}

die() {
    echo "backup.sh: $*" >&2
    exit 1
}

if [ -z "$SRC" ]; then
    die "usage: backup.sh SRC [DEST]"
fi
if [ ! -d "$SRC" ]; then
    die "no such directory: $SRC"
fi
case "$KEEP" in
    ''|*[!0-9]*) die "KEEP must be a number, got '$KEEP'" ;;
esac

make_archive() {
    log "archiving $SRC to $ARCHIVE"
    mkdir -p "$DEST" || die "cannot create $DEST"
    if ! tar -czf "$ARCHIVE.part" -C "$(dirname "$SRC")" "$NAME"; then
        rm -f "$ARCHIVE.part"
        die "tar failed for $SRC"
    fi
    mv "$ARCHIVE.part" "$ARCHIVE"
}

verify_archive() {
    log "verifying $ARCHIVE"
    tar -tzf "$ARCHIVE" > /dev/null || die "archive $ARCHIVE is corrupt"
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
