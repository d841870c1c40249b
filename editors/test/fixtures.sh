# fixtures.sh — sourced by each editor's test script: the files every editor
# test edits, and what `sb edit` makes of them, computed now (never stored:
# the expected text follows the engine and the model).
#
# In:  BUILD (default build), the repository root as the current directory;
#      SB_T may name a folder already prepared (editors/test/run_all.sh
#      prepares once for all editors).
# Out: SB_T holding
#        peek.c, ring.c      copies of models/demo/ring.c's ring_peek and of
#                            the whole file
#        peek.expected       sb edit of all of peek.c with INSTR_WHOLE
#        ring.expected       ring.c with lines 26..35 replaced by sb edit of
#                            those lines alone with INSTR_MID, as sb-lsp
#                            edits a selection
#      and exported SB_LSP, SB_TEST_MODEL, INSTR_WHOLE, INSTR_MID.
# The demo model on the CPU takes a few seconds for each of these edits.

BUILD=${BUILD:-build}
ROOT=$(pwd)
export SB_LSP="$ROOT/$BUILD/sb-lsp"
export SB_TEST_MODEL="$ROOT/models/sonicboom-demo.gguf"
export INSTR_WHOLE="Rename ring_peek to ring_front."
export INSTR_MID="Rename ring_write to ring_put everywhere."

for f in "$ROOT/$BUILD/sb" "$SB_LSP" "$SB_TEST_MODEL"; do
    [ -e "$f" ] || { echo "editors test: $f is missing (make first)" >&2; exit 1; }
done

if [ -z "${SB_T:-}" ] || [ ! -e "$SB_T/ready" ]; then
    if [ -z "${SB_T:-}" ]; then
        SB_T=$(mktemp -d /tmp/sb-editors-XXXXXX)
        # made here: removed when the script that sourced this ends
        trap 'rm -rf "$SB_T"' EXIT
    fi
    export SB_T
    cp models/demo/ring.c "$SB_T/ring.c"
    sed -n 49,55p models/demo/ring.c > "$SB_T/peek.c"
    sed -n 26,35p models/demo/ring.c > "$SB_T/mid.c"
    sb_edit() { # FILE INSTRUCTION OUT
        "$ROOT/$BUILD/sb" edit -m "$SB_TEST_MODEL" --language c --threads 2 \
            --file "$1" --instruction "$2" > "$3" 2> "$3.log" ||
            { cat "$3.log" >&2; echo "editors test: sb edit failed" >&2; exit 1; }
    }
    sb_edit "$SB_T/peek.c" "$INSTR_WHOLE" "$SB_T/peek.expected"
    sb_edit "$SB_T/mid.c" "$INSTR_MID" "$SB_T/mid.expected"
    { head -n 25 "$SB_T/ring.c"; cat "$SB_T/mid.expected"; tail -n +36 "$SB_T/ring.c"; } \
        > "$SB_T/ring.expected"
    # an edit that changes nothing would make the tests prove nothing
    if cmp -s "$SB_T/peek.c" "$SB_T/peek.expected" ||
       cmp -s "$SB_T/ring.c" "$SB_T/ring.expected"; then
        echo "editors test: the model leaves a test file unchanged; choose" \
             "another instruction in editors/test/fixtures.sh" >&2
        exit 1
    fi
    touch "$SB_T/ready"
fi
export SB_T
