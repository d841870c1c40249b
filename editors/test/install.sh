#!/bin/sh
# make install into a scratch prefix: the files land where the READMEs say;
# the installed sb-lsp, given no model, finds the installed demo model
# (the Neovim plugin from the installed tree makes a real edit through it,
# equal to sb edit's output); make uninstall removes every file.
set -eu
. editors/test/fixtures.sh
P="$SB_T/prefix"
make --no-print-directory -s install PREFIX="$P" BUILD="$BUILD"
S="$P/share/sonicboom"
for f in bin/sb bin/sb-lsp share/sonicboom/sonicboom-demo.gguf \
         share/sonicboom/editors/nvim/lua/sonicboom/init.lua \
         share/sonicboom/editors/nvim/lua/sonicboom/preview.lua \
         share/sonicboom/editors/emacs/sonicboom.el \
         share/sonicboom/editors/vscode/sonicboom.vsix; do
    [ -f "$P/$f" ] || { echo "install: $P/$f is missing" >&2; exit 1; }
done
echo "ok - make install: programs, demo model, editor plugins"
# no model named anywhere: the server must find $S/sonicboom-demo.gguf
env -u SB_MODEL -u SB_TEST_MODEL SB_LSP="$P/bin/sb-lsp" SB_TEST_MODE=edits \
    nvim --headless -u NONE -i NONE -n --cmd "set rtp^=$S/editors/nvim" \
    -c "luafile $ROOT/editors/nvim/test/test_edit.lua" > "$SB_T/install-nvim.log" 2>&1 ||
    { cat "$SB_T/install-nvim.log" >&2; echo "install: the installed plugin and server failed" >&2; exit 1; }
grep -oE '(ok|FAIL) - .*' "$SB_T/install-nvim.log" | sed 's/^ok - /ok - installed: /'
make --no-print-directory -s uninstall PREFIX="$P" BUILD="$BUILD"
left=$(find "$P" -type f | head -n 5)
[ -z "$left" ] || { echo "uninstall left files: $left" >&2; exit 1; }
[ ! -e "$S" ] || { echo "uninstall left $S" >&2; exit 1; }
echo "ok - make uninstall: nothing left"
