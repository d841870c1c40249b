#!/bin/sh
# make test-editors: every editor plugin end to end against the real sb-lsp
# with the demo model on the CPU, then `make install` / `make uninstall`.
# The expected texts are computed once, with sb edit (fixtures.sh).
set -eu
BUILD=${BUILD:-build}
export BUILD
. editors/test/fixtures.sh
passed=0 failed=0
for t in editors/nvim/test/run.sh editors/emacs/test/run.sh \
         editors/vscode/test/run.sh editors/test/install.sh; do
    echo "== $t"
    if "$t"; then passed=$((passed + 1)); else echo "FAILED: $t"; failed=$((failed + 1)); fi
done
echo "editors: $passed passed, $failed failed"
[ $failed -eq 0 ]
