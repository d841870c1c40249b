#!/bin/sh
# setup/check.sh — is everything the build needs installed? Checks each
# entry of setup/packages.txt in the given groups and, for whatever is
# missing, names the Debian package that provides it, then exits 1. `make`
# runs it before compiling anything, so a missing library is reported by
# package name instead of as a compiler error.
#
# usage: setup/check.sh [--packages] GROUP...     (GROUP: build, test)
#   --packages  print the missing packages' names, one line, and exit 0
#               (setup/install.sh installs them)
# env:   CC, the compiler that checks headers and libraries (default: cc)
set -eu
here=$(dirname "$0")
list_only=0
if [ "${1:-}" = "--packages" ]; then list_only=1; shift; fi
[ $# -gt 0 ] || { echo "usage: $0 [--packages] GROUP..." >&2; exit 2; }
cc=${CC:-cc}

# has KIND NAME: whether the entry is present on this machine.
has() {
    case $1 in
    tool)
        if [ "$2" = cc ]; then command -v "$cc" >/dev/null 2>&1
        else command -v "$2" >/dev/null 2>&1; fi ;;
    header)
        # cmocka.h needs these before it, as every test includes them
        printf '#include <stdarg.h>\n#include <stddef.h>\n#include <stdint.h>\n#include <setjmp.h>\n#include <%s>\n' "$2" |
            "$cc" -E -x c - >/dev/null 2>&1 ;;
    lib)
        # prints an absolute path only when the linker would find the file
        case $("$cc" -print-file-name="$2" 2>/dev/null) in /*) true ;; *) false ;; esac ;;
    file)
        [ -e "$2" ] ;;
    *)
        echo "$0: unknown kind '$1' in $here/packages.txt" >&2; exit 2 ;;
    esac
}

missing="" packages=""
while read -r group kind name package; do
    case $group in ''|'#'*) continue ;; esac
    want=0
    for g in "$@"; do [ "$g" = "$group" ] && want=1; done
    [ $want = 1 ] || continue
    # without a compiler, headers and libraries cannot be checked: the
    # compiler's own entry (build-essential) says what to install
    if [ "$kind" = header ] || [ "$kind" = lib ]; then
        command -v "$cc" >/dev/null 2>&1 || continue
    fi
    has "$kind" "$name" && continue
    missing="$missing
  $kind $name: install $package"
    case " $packages " in *" $package "*) ;; *) packages="${packages:+$packages }$package" ;; esac
done < "$here/packages.txt"

if [ $list_only = 1 ]; then
    echo "$packages"
    exit 0
fi
[ -z "$packages" ] && exit 0
{
    echo "setup/check.sh: this machine lacks what the build needs ($*):$missing"
    echo "Install them:  sudo apt-get install $packages"
    echo "or run setup/install.sh, which also copes with node from NodeSource."
} >&2
exit 1
