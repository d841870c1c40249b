#!/bin/sh
# The VS Code extension: its TypeScript typechecks, it bundles (esbuild) and
# packages to a .vsix (@vscode/vsce, offline), and its edit client
# (src/edit.ts) passes test/test_edit.ts against sb-lsp and the demo model
# from Node. npm ci installs the pinned tools (package-lock.json) once.
# Run from the repository root:  BUILD=build editors/vscode/test/run.sh
set -eu
. editors/test/fixtures.sh
command -v npm >/dev/null || { echo "vscode test: npm is not installed" >&2; exit 1; }
cd editors/vscode
# --ignore-scripts: nothing is downloaded or built at install (esbuild's
# binary comes as its own npm package)
[ node_modules/.package-lock.json -nt package-lock.json ] ||
    npm ci --ignore-scripts --no-audit --no-fund
npm run --silent typecheck
npm run --silent bundle
npm run --silent package
npm run --silent test
