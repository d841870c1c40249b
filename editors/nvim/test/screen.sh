#!/bin/sh
# The Neovim plugin as a user sees it: a terminal Neovim in a tmux pane
# (editors/test/screen.sh), set up as the README says (test_screen.lua),
# and typed into: lines 26-35 of ring.c selected, the code action menu of
# 0.7 (`:'<,'>lua vim.lsp.buf.range_code_action()`), "Edit with an
# instruction…" chosen by its number, the instruction typed. The edit must
# start and finish with no key pressed after the instruction: no "Press
# ENTER" on the screen, the buffer equal to sb edit's, "done" shown.
# Run from the repository root after fixtures.sh (run.sh does).
set -eu
. editors/test/fixtures.sh
. editors/test/screen.sh
S=nvim-screen
out="$SB_T/nvim-screen.out"
mkdir -p "$SB_T/screen" && cp "$SB_T/ring.c" "$SB_T/screen/ring.c" && rm -f "$out"
fail() { echo "FAIL - nvim screen: code action route: $1"; screen_text $S >&2; screen_stop $S; exit 1; }
screen_start $S 120 40 "SB_TEST_OUT='$out' nvim -u NONE -i NONE -n \
    --cmd 'set rtp^=$ROOT/editors/nvim' -c 'luafile $ROOT/editors/nvim/test/test_screen.lua' \
    2>'$SB_T/nvim-screen.log'"
i=0
until grep -q '^ready' "$out" 2>/dev/null; do
    i=$((i + 1)); [ $i -le 600 ] || fail "the server never attached"; sleep 0.1
done
screen_keys $S 26G V 35G :
screen_wait $S "^:'<,'>" || fail "no command line"
screen_keys $S "lua vim.lsp.buf.range_code_action()" Enter
screen_wait $S '^[0-9]+: .*instruction' || fail "no code action menu"
n=$(screen_text $S | sed -n 's/^\([0-9]*\): .*instruction.*/\1/p' | head -n 1)
screen_keys $S "$n" Enter
screen_wait $S '^SonicBoom: *$' || fail "no instruction prompt"
screen_keys $S "$INSTR_MID" Enter
# no key is pressed from here on until the preview: the edit must run and
# end by itself
i=0
until grep -q '^review' "$out"; do
    if screen_text $S | grep -q 'Press ENTER'; then fail '"Press ENTER" waits on the screen'; fi
    i=$((i + 1)); [ $i -le 1200 ] || fail "the edit did not end"; sleep 0.1
done
grep -q '^review [0-9]' "$out" || fail "no preview: $(sed -n 's/^review //p' "$out")"
# the preview on the screen: the hint, and a line the edit brings (the
# first line of sb edit's output that ring.c lacks) though the buffer
# does not have it yet
screen_wait $S 'to review' 50 || fail "no \"to review\" on the screen"
new=$(grep -vxF -f "$SB_T/ring.c" "$SB_T/ring.expected" | sed -n 's/^ *//; 1p')
i=0
until screen_text $S | grep -qF -- "$new"; do
    i=$((i + 1)); [ $i -le 50 ] || fail "the new line \"$new\" is not on the screen"; sleep 0.1
done
! screen_text $S | grep -q 'Press ENTER' || fail '"Press ENTER" on the screen'
screen_keys $S gA
i=0
until grep -q '^done' "$out"; do
    i=$((i + 1)); [ $i -le 100 ] || fail "gA did not close the preview"; sleep 0.1
done
result=$(sed -n 's/^done //p' "$out")
[ "$result" = equal ] || fail "the buffer differs from sb edit: $result"
screen_wait $S 'preview done' 50 || fail "no \"preview done\" on the screen"
screen_stop $S
echo "ok - nvim screen: code action route on a terminal: no Press ENTER; the preview shows the new lines; gA makes the buffer equal sb edit"
