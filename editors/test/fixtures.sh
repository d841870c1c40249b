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
#        peek.first          peek.c with only the first hunk of diff(1)
#                            between peek.c and peek.expected applied
#        peek.rest           peek.expected with that hunk alone undone
#                            (the previews' accept-hunk and reject-hunk
#                            tests: an oracle that is not the plugins' own)
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
    lines() { # FILE FROM TO: lines FROM..TO (1-based; none when TO < FROM)
        [ "$3" -lt "$2" ] || sed -n "$2,$3p" "$1"
    }
    first_hunk() { # OLD NEW FIRST REST
        # diff's normal format: "A1[,A2]{a,c,d}B1[,B2]"; "a" adds after
        # line A1, "d" deletes with B1 the line before
        h=$(diff "$1" "$2" | grep -m 1 -E '^[0-9]') ||
            { echo "editors test: $1 and $2 do not differ" >&2; exit 1; }
        op=$(echo "$h" | tr -d '0-9,')
        a=${h%%[acd]*} b=${h#*[acd]}
        a1=${a%,*} a2=${a#*,} b1=${b%,*} b2=${b#*,}
        [ "$op" != a ] || { a1=$((a1 + 1)); a2=$((a1 - 1)); }
        [ "$op" != d ] || { b1=$((b1 + 1)); b2=$((b1 - 1)); }
        na=$(wc -l < "$1") nb=$(wc -l < "$2")
        { lines "$1" 1 $((a1 - 1)); lines "$2" "$b1" "$b2"; lines "$1" $((a2 + 1)) "$na"; } > "$3"
        { lines "$2" 1 $((b1 - 1)); lines "$1" "$a1" "$a2"; lines "$2" $((b2 + 1)) "$nb"; } > "$4"
    }
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
    first_hunk "$SB_T/peek.c" "$SB_T/peek.expected" "$SB_T/peek.first" "$SB_T/peek.rest"
    touch "$SB_T/ready"
fi
export SB_T
