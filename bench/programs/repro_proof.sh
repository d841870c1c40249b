#!/usr/bin/env bash
# The cross-machine proof (bench/RESULTS.md), one command per device call, from the
# repository root (README: "A GPU machine without the build's -dev packages"
# says how to carry BUILD there; this needs build-gpu/sb and build-gpu/sb-lsp:
# `make BUILD=build-gpu build-gpu/sb build-gpu/sb-lsp`). Prints every hash;
# writes them to $OUT/hashes-<mode>.txt for the next call (or the development
# VM) to compare. Tried end to end on the CPU with
#   SHAPE=tiny GPU=cpu TOKENS=64 BUILD=build \
#   BENCH_ARGS="--only new-01-py-expense-report --max-tokens 16" \
#   bench/programs/repro_proof.sh export
#
# usage: bench/programs/repro_proof.sh export   (first device call)
#          - a synthetic SHAPE (7b) Q4_K_M model, made here (the same bytes
#            everywhere: sb mkmodel --seed 1);
#          - sb generate of TOKENS (256) tokens, speculation on, on the GPU
#            and on this machine's CPU: the two SHA-256 must be equal;
#          - one edit through sb-lsp on the GPU with a session log, replayed
#            on the CPU (sb replay --device cpu): identical, chain intact;
#          - sb warmup --export on the GPU ($OUT/warmup.json), and sb verify
#            --device cpu of it: the GPU's fingerprint is the CPU's bits;
#          - sb bench on the GPU without a table (unless SKIP_BENCH=1): the
#            SHA-256 of every task.
#        bench/programs/repro_proof.sh import TABLE [HASHES]   (a later call: a fresh
#          machine): the model again, sb warmup --import TABLE (must print
#          "0 measurements"), sb bench --warmup TABLE, every task's SHA-256
#          compared with HASHES (the export call's hashes file).
#        bench/programs/repro_proof.sh hashes   (e.g. on the development VM's CPU):
#          the generate hash only, on DEVICES (default "cpu").
# env: BUILD (build-gpu), OUT (/tmp/sb-repro), SHAPE (7b), TOKENS (256),
#      GPU (cuda; "cpu" runs the whole flow on the CPU, to try the script
#      with SHAPE=tiny), SKIP_BENCH, BENCH_ARGS (more sb bench options, e.g.
#      --only A,B), EDIT_TOKENS (64). sb bench runs the tasks with the
#      model's own vocabulary (it refuses --vocab beside -m).
# Exit 1 at the first hash that differs or check that fails.
set -uo pipefail
BUILD=${BUILD:-build-gpu}
OUT=${OUT:-/tmp/sb-repro}
SHAPE=${SHAPE:-7b}
TOKENS=${TOKENS:-256}
GPU=${GPU:-cuda}
EDIT_TOKENS=${EDIT_TOKENS:-64}
SB="$BUILD/sb"
MODEL="$OUT/$SHAPE-q4_k_m.gguf"
mode=${1:-}
case $mode in
export|import|hashes) ;;
*) sed -n '2,34p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
mkdir -p "$OUT"
HASHES="$OUT/hashes-$mode.txt"
: > "$HASHES"

fail() { echo "repro_proof: $*" >&2; exit 1; }
note() { echo "$*" | tee -a "$HASHES"; }
sha_of() { sed -n 's/.*sha256=\([0-9a-f]*\).*/\1/p' "$1" | tail -n 1; }

machine() {
    note "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    note "engine: $("$SB" --version)"
    note "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
    command -v nvidia-smi > /dev/null &&
        note "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
}

make_model() {
    [ -f "$MODEL" ] || "$SB" mkmodel --shape "$SHAPE" --quant q4_k_m --seed 1 \
        --threads "$(nproc)" --quiet -o "$MODEL" || fail "mkmodel failed"
    note "model: $MODEL sha256 $(sha256sum "$MODEL" | cut -d' ' -f1)"
}

# sb generate on DEVICE: TOKENS tokens (EOS ignored), speculation on.
generate() { # DEVICE
    local log="$OUT/generate-$1.txt"
    "$SB" generate -m "$MODEL" --device "$1" --quiet --ignore-eos -n "$TOKENS" \
        -p "$(cat bench/edits/*/input.* 2>/dev/null | head -c 600)" > /dev/null 2> "$log" ||
        { cat "$log" >&2; fail "generate on $1 failed"; }
    note "generate $1: $(tail -n 1 "$log" | grep -o ' tokens=[0-9]*' | head -1) sha256=$(sha_of "$log")"
}

# ---- an editor in bash: one edit through sb-lsp --stdio, logged ----------

lsp_send() { printf 'Content-Length: %d\r\n\r\n%s' "${#1}" "$1" >&"${LSP[1]}"; }
# One message's body into MSG (LC_ALL=C: lengths are bytes).
lsp_read() {
    local line len=0
    while IFS= read -r -t 600 line <&"${LSP[0]}"; do
        line=${line%$'\r'}
        [ -z "$line" ] && break
        case $line in Content-Length:*) len=${line#Content-Length: } ;; esac
    done
    [ "$len" -gt 0 ] || return 1
    IFS= read -r -t 600 -N "$len" MSG <&"${LSP[0]}"
}
# Reads until the response to request ID, answering the server's requests.
lsp_await() { # ID
    while lsp_read; do
        if [[ $MSG != *'"method"'* && $MSG =~ \"id\":$1[,}] ]]; then return 0; fi
        if [[ $MSG =~ \"method\":\"(workspace/applyEdit|window/workDoneProgress/create)\".*\"id\":([0-9]+) ||
              $MSG =~ \"id\":([0-9]+).*\"method\":\"(workspace/applyEdit|window/workDoneProgress/create)\" ]]; then
            local id=${BASH_REMATCH[2]}
            [[ $id =~ ^[0-9]+$ ]] || id=${BASH_REMATCH[1]}
            lsp_send "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"applied\":true}}"
        fi
    done
    return 1
}
# A small C file as a JSON string.
doc_json() {
    printf 'static int add(int a, int b) {\\n    return a + b;\\n}\\n\\n'
    printf 'int twice(int x) {\\n    return add(x, x);\\n}\\n'
}

lsp_edit() { # DEVICE LOG
    export LC_ALL=C
    rm -f "$2"
    coproc LSP { SB_MODEL="$MODEL" SB_DEVICE="$1" SB_LOG="$2" SB_MAX_TOKENS="$EDIT_TOKENS" \
                 "$BUILD/sb-lsp" --stdio 2> "$OUT/sb-lsp.err"; }
    local uri="file://$OUT/add.c"
    lsp_send '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}'
    lsp_await 1 || fail "sb-lsp did not initialize"
    lsp_send '{"jsonrpc":"2.0","method":"initialized","params":{}}'
    lsp_send "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":{\"uri\":\"$uri\",\"languageId\":\"c\",\"version\":1,\"text\":\"$(doc_json)\"}}}"
    lsp_send "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"workspace/executeCommand\",\"params\":{\"command\":\"sonicboom.edit\",\"arguments\":[{\"uri\":\"$uri\",\"instruction\":\"rename add to sum\"}]}}"
    lsp_await 2 || fail "sb-lsp did not answer the edit"
    lsp_send '{"jsonrpc":"2.0","id":3,"method":"shutdown"}'
    lsp_await 3
    lsp_send '{"jsonrpc":"2.0","method":"exit"}'
    wait "$LSP_PID" 2> /dev/null
    [ -s "$2" ] || { cat "$OUT/sb-lsp.err" >&2; fail "sb-lsp logged nothing"; }
}

replay() { # LOG DEVICE
    "$SB" replay "$1" --device "$2" > "$OUT/replay-$2.txt" 2>&1
    local rc=$?
    cat "$OUT/replay-$2.txt"
    note "replay of the $GPU log on $2: exit $rc, $(grep -o 'identical ([0-9]* tokens, sha256 [0-9a-f]*' "$OUT/replay-$2.txt" | head -1)"
    [ $rc -eq 0 ] || fail "replay on $2 differs (exit $rc)"
}

bench_hashes() { # TAG [--warmup TABLE]
    local tag=$1; shift
    "$SB" bench --device "$GPU" -m "$MODEL" "$@" ${BENCH_ARGS:-} \
        --json "$OUT/bench-$tag.json" --plots none --results none \
        > "$OUT/bench-$tag.txt" 2> "$OUT/bench-$tag.err" ||
        { tail -5 "$OUT/bench-$tag.err" >&2; fail "sb bench ($tag) failed"; }
    # per task: its name, then the output SHA-256 with speculation off and on
    awk -F'"' '/"name":/ {name=$4} /"sha256":/ && name != "" {s[name]=s[name] " " $4}
               END {for (n in s) print "bench " n s[n]}' "$OUT/bench-$tag.json" |
        sort | tee -a "$HASHES"
}

case $mode in
export)
    machine
    make_model
    generate "$GPU"
    generate cpu
    [ "$(grep "generate $GPU" "$HASHES" | grep -o 'sha256=.*')" = \
      "$(grep 'generate cpu' "$HASHES" | grep -o 'sha256=.*')" ] ||
        fail "the $GPU and cpu hashes differ"
    note "generate: $GPU = cpu"
    lsp_edit "$GPU" "$OUT/edits-$GPU.jsonl"
    replay "$OUT/edits-$GPU.jsonl" cpu
    "$SB" warmup -m "$MODEL" --device "$GPU" --export "$OUT/warmup.json" | tee -a "$HASHES" ||
        fail "warmup --export failed"
    "$SB" verify -m "$MODEL" --device cpu --fingerprint "$OUT/warmup.json" | tee -a "$HASHES" ||
        fail "the CPU's bits are not the table's"
    [ "${SKIP_BENCH:-0}" = 1 ] || bench_hashes export
    ;;
import)
    table=${2:?give the table of the export call}
    machine
    make_model
    "$SB" warmup -m "$MODEL" --device "$GPU" --import "$table" | tee -a "$HASHES" ||
        fail "the table was refused"
    grep -q ' 0 measurements' "$HASHES" || fail "the import measured"
    [ "${SKIP_BENCH:-0}" = 1 ] || bench_hashes import --warmup "$table"
    if [ -n "${3:-}" ]; then
        diff <(grep '^bench ' "$3") <(grep '^bench ' "$HASHES") ||
            fail "bench hashes differ from $3's"
        note "bench: every task's hash equals $3's"
    fi
    ;;
hashes)
    machine
    make_model
    for d in ${DEVICES:-cpu}; do generate "$d"; done
    ;;
esac
echo "hashes: $HASHES"
