#!/bin/sh
# sonicboom.el end to end in Emacs batch (editors/emacs/test/test-edit.el),
# under eglot and under lsp-mode: real edits with the demo model through
# sb-lsp, then cancel and a buffer changed mid-edit against a held server.
# Run from the repository root:  BUILD=build editors/emacs/test/run.sh
set -eu
. editors/test/fixtures.sh
command -v emacs >/dev/null || { echo "emacs test: emacs is not installed" >&2; exit 1; }
command -v tmux >/dev/null || { echo "emacs test: tmux is not installed" >&2; exit 1; }
echo "emacs: $(emacs --version | head -n 1)"
status=0
# the files byte-compile without a warning (in a scratch copy: no .elc here)
mkdir -p "$SB_T/elc" && cp "$ROOT"/editors/emacs/*.el "$SB_T/elc/"
if (cd "$SB_T/elc" && emacs --batch -Q \
        --eval '(add-to-list (quote package-directory-list) "/usr/share/emacs/site-lisp/elpa")' \
        -f package-initialize --eval '(setq byte-compile-error-on-warn t)' -L . \
        -f batch-byte-compile sonicboom.el sonicboom-preview.el sonicboom-eglot.el sonicboom-lsp.el) \
        2>"$SB_T/elc.log"; then
    echo "ok - emacs: sonicboom*.el byte-compile without warnings"
else
    status=1; cat "$SB_T/elc.log" >&2
fi
for backend in ${SB_EMACS_BACKENDS:-eglot lsp}; do
    for mode in edits held preview; do
        SB_TEST_BACKEND=$backend SB_TEST_MODE=$mode \
            emacs --batch -Q -L "$ROOT/editors/emacs" \
            -l "$ROOT/editors/emacs/test/test-edit.el" 2>"$SB_T/emacs-$backend-$mode.log" ||
            { status=1; tail -n 30 "$SB_T/emacs-$backend-$mode.log" >&2; }
    done
done
# The mode line as the user sees it: a terminal Emacs (batch renders no
# mode line) in a tmux pane (editors/test/screen.sh), against a held server;
# the test reads the pane itself (tmux capture-pane) and writes its lines to
# a file, a terminal Emacs having no stdout of its own.
. editors/test/screen.sh
for backend in ${SB_EMACS_BACKENDS:-eglot lsp}; do
    out="$SB_T/emacs-$backend-screen.out" rc="$SB_T/emacs-$backend-screen.rc"
    rm -f "$out" "$rc"
    screen_start emacs-screen 220 30 "SB_TEST_BACKEND=$backend SB_TEST_MODE=screen \
        SB_TEST_OUT='$out' emacs -nw -Q -L '$ROOT/editors/emacs' \
        -l '$ROOT/editors/emacs/test/test-edit.el' 2>'$SB_T/emacs-$backend-screen.log'; \
        echo \$? > '$rc'"
    # a guard against a hung Emacs (the test's own waits end sooner)
    i=0; while [ ! -e "$rc" ] && [ $i -lt 1500 ]; do sleep 0.1; i=$((i + 1)); done
    screen_stop emacs-screen
    cat "$out" 2>/dev/null || true
    [ "$(cat "$rc" 2>/dev/null)" = 0 ] ||
        { status=1; echo "FAIL - emacs: $backend mode line test (exit $(cat "$rc" 2>/dev/null || echo none))"; }
done
exit $status
