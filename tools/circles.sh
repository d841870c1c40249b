#!/usr/bin/env bash
# circles.sh — no circles between the product's folders or files, and no
# folder reaching into another's private header (docs/architecture.md,
# "Folders"). `make test` runs it first (the check-circles target), so CI
# fails on a new one.
#
#   tools/circles.sh              problems, then a summary line
#   tools/circles.sh -v           also the folder graph
#   tools/circles.sh --files DIR  also the file graph inside DIR (say kernels/cuda)
#   tools/circles.sh --root DIR --allow FILE   another tree (its tests)
#
# The graph: file A -> file B when A #includes B, or names a function or
# file-scope variable that B defines (and A does not), directly or through
# a macro A uses. A folder is a top-level folder; the folder graph is the
# file graph's arrows between folders. It fails (exit 1) on
#   - a cycle: files that reach each other (a cycle between folders is one
#     between their files), printed with the names on each arrow;
#   - a private header included from outside its folder: a header is
#     private to the folder its second line names ("private to D/"), else
#     to its own folder, unless it is the folder's public face (its second
#     line says so, or it is named for its folder: base/base.h). Tests and
#     the benchmark programs (bench/programs/, which time one internal
#     piece alone) may include private headers;
#   - a stale line in the exception list (tools/circles.allow): the arrows
#     still to be removed, `symbol FILE NAME` (naming FILE's NAME makes no
#     arrow) and `include FILE HEADER`. The list only shrinks: a line that
#     nothing needs any more must go.
# Tests, tools, editors, the demo's files and the benchmark's data are not
# read. It reads the sources as text (no compiler, no build), so the CUDA
# files are checked on a machine without CUDA too; the parsing is in
# tools/circles.awk.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/.."
allow=
verbose=0
files_of=
while [ $# -gt 0 ]; do
    case "$1" in
    -v) verbose=1 ;;
    --files) files_of="${2:?--files needs a folder}"; files_of="${files_of%/}"; shift ;;
    --root) root="${2:?--root needs a folder}"; shift ;;
    --allow) allow="${2:?--allow needs a file}"; shift ;;
    *) echo "circles: unknown argument '$1' (see the comment at the top of tools/circles.sh)" >&2
       exit 2 ;;
    esac
    shift
done
[ -n "$allow" ] || allow="$here/circles.allow"
allow="$(cd "$(dirname "$allow")" && pwd)/$(basename "$allow")"
cd "$root"

# every C, CUDA and header file of the product, in a stable order
mapfile -t sources < <(find . \( -path ./tests -o -path ./tools -o -path ./editors \
        -o -path ./grammars -o -path './build*' -o -path ./bench/realedits \
        -o -path ./bench/edits -o -path ./bench/results -o -path ./models -o -name node_modules \
        -o -path ./.git \) -prune -o -type f \
        \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \) -print |
    sed 's|^\./||' | LC_ALL=C sort)
[ ${#sources[@]} -gt 0 ] || { echo "circles: no C sources under $root" >&2; exit 2; }

exec awk -v allow="$allow" -v allow_name="${allow#"$(pwd -P)"/}" -v verbose="$verbose" -v files_of="$files_of" \
    -v debug="${CIRCLES_DEBUG:-}" -f "$here/circles.awk" "${sources[@]}"
