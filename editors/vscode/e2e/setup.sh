#!/bin/sh
# Installs code-server and playwright-core (pinned in package-lock.json) into
# editors/vscode/e2e/node_modules without downloading anything but npm
# packages. code-server's own postinstall fetches ripgrep from outside the
# npm registry and builds node-pty with npx; here its steps are done by hand
# instead: VS Code's server dependencies without install scripts, the native
# modules it loads built from source, Debian's ripgrep in place of the
# downloaded one, the two symlinks its script makes.
# Needs: node 20 (code-server 4.99 runs on no other), build-essential,
# python3, libkrb5-dev, ripgrep; the test needs chromium.
set -eu
cd "$(dirname "$0")"
major=$(node --version | sed 's/^v\([0-9]*\).*/\1/')
[ "$major" = 20 ] || { echo "vscode e2e: code-server 4.99 needs node 20, not $(node --version)" >&2; exit 1; }
for tool in rg make g++ python3; do
    command -v $tool >/dev/null || { echo "vscode e2e: $tool is missing (apt-get install ripgrep build-essential python3)" >&2; exit 1; }
done
[ -f /usr/include/gssapi/gssapi.h ] || { echo "vscode e2e: apt-get install libkrb5-dev" >&2; exit 1; }
[ ! -e node_modules/.sonicboom-setup ] || [ node_modules/.sonicboom-setup -ot package-lock.json ] || exit 0

npm ci --ignore-scripts --no-audit --no-fund
# argon2 (code-server's password hashing) from source: its prebuilt binary
# would come from outside npm
npm rebuild argon2 --build-from-source
cd node_modules/code-server/lib/vscode
npm install --omit=dev --ignore-scripts --no-audit --no-fund
npm rebuild kerberos @parcel/watcher @vscode/spdlog native-watchdog @vscode/deviceid
mkdir -p node_modules/@vscode/ripgrep/bin
ln -sf "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
ln -sfn node_modules node_modules.asar
(cd bin/remote-cli && ln -sfn code-linux.sh code-server)
(cd bin/helpers && ln -sfn browser-linux.sh browser.sh)
(cd extensions && npm install --omit=dev --ignore-scripts --no-audit --no-fund)
cd ../../../..
touch node_modules/.sonicboom-setup
