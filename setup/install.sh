#!/bin/sh
# setup/install.sh — from a fresh clone on Debian 12 or Ubuntu 24.04 to the
# main job, in one command: installs the packages setup/check.sh finds
# missing (apt-get, through sudo unless run as root), builds (make), and
# runs a real edit with the demo model, showing the diff and the speed
# with speculation off and on (make demo). Run `make check` after it for
# the tests. Safe to run again: it installs only what is missing.
#
# node and npm: where node comes from NodeSource, its nodejs package
# already holds npm and conflicts with Debian's npm package, so npm is
# installed only when it is still missing after nodejs.
#
# usage: setup/install.sh   (env: JOBS, parallel build jobs, default nproc)
set -eu
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
apt_install() {
    echo "== installing: $*"
    as_root env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

missing=$(setup/check.sh --packages build test)
if [ -n "$missing" ]; then
    echo "== apt-get update"
    as_root apt-get update -qq
    # without a compiler the headers could not be checked: check again
    case " $missing " in *" build-essential "*)
        apt_install build-essential
        missing=$(setup/check.sh --packages build test) ;;
    esac
    others=""
    for p in $missing; do
        case $p in nodejs|npm) ;; *) others="$others $p" ;; esac
    done
    [ -z "$others" ] || apt_install $others
    command -v node >/dev/null 2>&1 || apt_install nodejs
    command -v npm >/dev/null 2>&1 || apt_install npm
fi
setup/check.sh build test
echo "== node $(node --version), npm $(npm --version)"

echo "== build"
make -j"${JOBS:-$(nproc)}"
echo "== the main job: an edit with the demo model (make demo)"
make demo
