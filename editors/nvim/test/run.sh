#!/bin/sh
# The Neovim plugin end to end (editors/nvim/test/test_edit.lua): real edits
# with the demo model through sb-lsp, then cancel and a buffer changed
# mid-edit against a held server (these with the preview off); the preview
# (preview, accept-hunk, reject-hunk, accept-all, preview-stale); then the
# code action route typed into a
# terminal Neovim under tmux (screen.sh). Run from the repository root:
#     BUILD=build editors/nvim/test/run.sh
set -eu
. editors/test/fixtures.sh
command -v nvim >/dev/null || { echo "nvim test: nvim is not installed" >&2; exit 1; }
echo "nvim: $(nvim --version | head -n 1)"
status=0
for mode in edits held preview; do
    # -u NONE: no user config; the plugin comes from this tree only
    # Neovim's own messages (undo, "Workspace edit") share stdout with no
    # newline: one line per test is picked out of the log
    log="$SB_T/nvim-$mode.log"
    SB_TEST_MODE=$mode nvim --headless -u NONE -i NONE -n \
        --cmd "set rtp^=$ROOT/editors/nvim" \
        -c "luafile $ROOT/editors/nvim/test/test_edit.lua" > "$log" 2>&1 ||
        { status=1; tail -n 30 "$log" >&2; }
    grep -oE '(ok|FAIL) - .*|[0-9]+ passed, [0-9]+ failed' "$log" || true
done
# the screen as the user sees it, in a terminal Neovim under tmux
command -v tmux >/dev/null || { echo "nvim test: tmux is not installed" >&2; exit 1; }
editors/nvim/test/screen.sh || status=1
exit $status
