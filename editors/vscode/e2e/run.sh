#!/bin/sh
# make test-vscode-e2e: the extension in a real VS Code (code-server 4.99,
# VS Code 1.99) in headless Chromium, against sb-lsp and the demo model
# (e2e.mjs). Not part of CI: it needs node 20 exactly, Chromium and a
# from-source build of code-server's native modules (setup.sh; a few
# minutes the first time). Run from the repository root:
#     BUILD=build editors/vscode/e2e/run.sh [preview|apply]
# (preview: the Refactor Preview's test alone; apply: the others).
set -eu
. editors/test/fixtures.sh
CHROMIUM=${CHROMIUM:-$(command -v chromium || true)}
[ -n "$CHROMIUM" ] || { echo "vscode e2e: apt-get install chromium" >&2; exit 1; }
export CHROMIUM
make --no-print-directory -s "editors/vscode/sonicboom.vsix" BUILD="$BUILD"
editors/vscode/e2e/setup.sh
rm -rf "$SB_T/vscode-e2e"
CODE_SERVER="$ROOT/editors/vscode/e2e/node_modules/.bin/code-server" \
VSIX="$ROOT/editors/vscode/sonicboom.vsix" \
    node editors/vscode/e2e/e2e.mjs "$@"
