#!/usr/bin/env bash
#
# Nightly backup of the wiki: the Postgres database and the uploads
# directory, packed into one dated folder, then copied to the backup host.
# Keeps the last KEEP_DAYS local backups.
#
# Usage: wiki-backup.sh [--no-upload] [--keep DAYS]
#
# Reads /etc/wiki-backup.conf if present (shell syntax, sourced).

CONFIG=/etc/wiki-backup.conf

DB_NAME=wiki
DB_USER=wiki
UPLOADS_DIR=/srv/wiki/uploads
BACKUP_ROOT=/var/backups/wiki
REMOTE=backup@vault.internal:/backups/wiki
KEEP_DAYS=14
UPLOAD=1

if [ -r "$CONFIG" ]; then
    # shellcheck source=/dev/null
    . "$CONFIG"
fi

log() {
    printf '%s %s\n' "$(date '+%Y-%m-%d %H:%M:%S')" "$*"
}

usage() {
    sed -n 's/^# Usage: //p' "$0"
}

parse_args() {
    while [ $# -gt 0 ]; do
        case "$1" in
            --no-upload)
                UPLOAD=0
                ;;
            --keep)
                KEEP_DAYS=$2
                shift
                ;;
            -h|--help)
                usage
                exit 0
                ;;
            *)
                usage >&2
                exit 2
                ;;
        esac
        shift
    done
}

dump_database() {
    local target=$1
    log "dumping database $DB_NAME"
    pg_dump --username="$DB_USER" --format=plain --no-owner "$DB_NAME" \
        | gzip -9 > "$target/db.sql.gz"
}

archive_uploads() {
    local target=$1
    log "archiving $UPLOADS_DIR"
    tar -C "$(dirname "$UPLOADS_DIR")" -czf "$target/uploads.tar.gz" \
        "$(basename "$UPLOADS_DIR")"
}

write_manifest() {
    local target=$1
    cd "$target"
    sha256sum db.sql.gz uploads.tar.gz > SHA256SUMS
    {
        echo "host: $(hostname)"
        echo "date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
        echo "database: $DB_NAME"
        echo "uploads: $UPLOADS_DIR"
    } > MANIFEST
    cd - > /dev/null
}

upload() {
    local target=$1
    log "copying $(basename "$target") to $REMOTE"
    rsync -a --partial "$target" "$REMOTE/"
}

# Dated folders sort by name, so everything but the newest KEEP_DAYS
# entries can go.
rotate() {
    local old
    old=$(ls -1d "$BACKUP_ROOT"/20* 2> /dev/null | sort | head -n -"$KEEP_DAYS")
    for dir in $old; do
        log "removing old backup $dir"
        rm -rf "$dir"
    done
}

main() {
    parse_args "$@"

    local stamp target
    stamp=$(date '+%Y-%m-%d_%H%M')
    target=$BACKUP_ROOT/$stamp

    mkdir -p "$target"
    dump_database "$target"
    archive_uploads "$target"
    write_manifest "$target"

    if [ "$UPLOAD" -eq 1 ]; then
        upload "$target"
    fi

    rotate
    log "backup complete: $target ($(du -sh "$target" | cut -f1))"
}

main "$@"
