#!/usr/bin/env bash
# Rebuilds tasks of bench/realedits from their Debian source packages and
# compares them with the committed files: for each task, the package
# version its meta.json names is fetched with `apt-get source`, unpacked
# without its patches, and the quilt series is applied in order up to the
# named patch: input.EXT is the file (meta.json "source_file") before that
# patch, expected.EXT after it.
#
# usage: bench/realedits/fetch.sh TASK_DIR...
#   e.g. bench/realedits/fetch.sh bench/realedits/heldout/*
# needs: apt-get with deb-src lines for Debian 12 (bookworm), dpkg-source,
#        patch; the network. WORK (default /tmp/sb-realedits) holds the
#        downloads. Prints "same" or "DIFFERENT" per task; exit 1 if any
#        task differs or cannot be rebuilt. Not part of make check.
set -uo pipefail

work=${WORK:-/tmp/sb-realedits}
mkdir -p "$work"
status=0

# The value of a string or number field of a flat meta.json.
meta() { sed -n "s/^ *\"$2\": *\"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p" "$1/meta.json"; }

# Unpacks PKG VERSION once into $work/PKG_VERSION/tree (patches not applied).
unpack() {
    local pkg=$1 ver=$2 dir="$work/${1}_$2"
    [ -d "$dir/tree" ] && return 0
    mkdir -p "$dir" && (cd "$dir" && apt-get source -q --download-only "$pkg=$ver" >/dev/null 2>&1) ||
        { echo "fetch.sh: apt-get source $pkg=$ver failed (deb-src configured?)" >&2; return 1; }
    (cd "$dir" && dpkg-source -q --skip-patches -x ./*.dsc tree >/dev/null 2>&1) ||
        { echo "fetch.sh: cannot unpack $pkg $ver" >&2; return 1; }
}

# Applies series entries 1..N-1 to a copy of the tree, writes the file
# before and after entry N to $out.before and $out.after.
replay() {
    local tree=$1 n=$2 file=$3 out=$4 copy
    copy=$(mktemp -d "$work/replay.XXXXXX")
    cp -a "$tree/." "$copy/"
    local i=0 ok=1
    while read -r name opt; do
        i=$((i + 1))
        local level=1
        case "${opt:-}" in -p*) level=${opt#-p} ;; esac
        [ $i -eq "$n" ] && cp "$copy/$file" "$out.before"
        if ! (cd "$copy" && patch -p"$level" -f -s --no-backup-if-mismatch \
                < "debian/patches/$name" >/dev/null 2>&1); then
            ok=0
            break
        fi
        if [ $i -eq "$n" ]; then
            cp "$copy/$file" "$out.after"
            break
        fi
    done < <(sed -e 's/[[:space:]]#.*//' -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' \
                 "$copy/debian/patches/series")
    rm -rf "$copy"
    [ $ok -eq 1 ] && [ -f "$out.after" ]
}

for task in "$@"; do
    pkg=$(meta "$task" package) ver=$(meta "$task" version)
    n=$(meta "$task" series_index) file=$(meta "$task" source_file)
    in=$(ls "$task"/input.* 2>/dev/null | head -n 1)
    ex=$(ls "$task"/expected.* 2>/dev/null | head -n 1)
    if [ -z "$pkg" ] || [ -z "$n" ] || [ -z "$in" ] || [ -z "$ex" ]; then
        echo "$task: not a task of bench/realedits" >&2
        status=1
        continue
    fi
    out="$work/$(basename "$task")"
    if unpack "$pkg" "$ver" && replay "$work/${pkg}_$ver/tree" "$n" "$file" "$out" &&
        cmp -s "$out.before" "$in" && cmp -s "$out.after" "$ex"; then
        echo "$task: same"
    else
        echo "$task: DIFFERENT (or not rebuilt)"
        status=1
    fi
done
exit $status
