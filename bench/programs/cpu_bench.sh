#!/usr/bin/env bash
# CPU speed side by side with llama.cpp's CPU build of the same files
# (make bench-cpu): the 0.5b-shape Q4_K_M model (1-row decode, a ~64-token
# prefill, the 64-row step against the 1-row step) and the demo model at a
# ~600-token context (decode and prefill). Each figure is the median of
# REPS runs, with the smallest and largest beside it.
#
# usage: bench/programs/cpu_bench.sh
#   env: BUILD=build THREADS=2 REPS=3
#        LLAMA_BENCH=/path/to/llama-bench  (optional: llama.cpp's columns;
#                                          never built here, see RESULTS.md)
#        BASE_BUILD=/path/to/other/build   (optional: a "before" column from
#                                          that folder's sb and engine_steps)
set -euo pipefail
BUILD=${BUILD:-build} THREADS=${THREADS:-2} REPS=${REPS:-3}
LLAMA_BENCH=${LLAMA_BENCH:-} BASE_BUILD=${BASE_BUILD:-}
out=$BUILD/bench
mkdir -p "$out"

# ---- models and prompts ----------------------------------------------------
vocab=$BUILD/tokref/tokenizer.json
q05=$out/0.5b-q4_k_m-vocab.gguf
if [ ! -f "$q05" ]; then
    [ -f "$vocab" ] || { echo "cpu_bench: $vocab is missing (make $vocab)" >&2; exit 1; }
    "$BUILD/sb" mkmodel --shape 0.5b --quant q4_k_m --seed 1 --vocab "$vocab" --quiet -o "$q05"
fi
demo=models/sonicboom-demo.gguf
# Fixed prompts (C source; their token counts are reported).
p64=bench/cpu/prompt64.txt p600=bench/cpu/prompt600.txt

# ---- measuring ---------------------------------------------------------------
# median, min and max of the numbers on stdin: "med (min–max)"
stats() {
    sort -g | awk '{v[NR] = $1} END {
        if (NR == 0) { print "-"; exit }
        printf "%.2f (%.2f–%.2f)", v[int((NR + 1) / 2)], v[1], v[NR] }'
}
# KEY=value from sb generate's summary line
field() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p"; }

# sb generate REPS times; prints the summary lines
sb_runs() { # SB MODEL PROMPT N
    for _ in $(seq "$REPS"); do
        "$1" generate -m "$2" -f "$3" -n "$4" --threads "$THREADS" --ignore-eos \
            --speculation off --quiet 2>&1 >/dev/null | tail -1
    done
}
# ms of one step of ROWS rows at depth 0, REPS times
step_runs() { # ENGINE_STEPS MODEL ROWS
    for _ in $(seq "$REPS"); do
        "$1" "$2" --device cpu --depth 0 --reps 3 --threads "$THREADS" --rows "$3" |
            sed -n 's/.* rows: \([0-9.]*\) ms/\1/p'
    done
}
# llama-bench tokens/s for one test: "med (min–max)" over its REPS samples
llama_runs() { # MODEL ARGS...
    local m=$1; shift
    "$LLAMA_BENCH" -m "$m" -t "$THREADS" -r "$REPS" -o json "$@" 2>/dev/null |
        python3 -c 'import json,sys
for t in json.load(sys.stdin):
    print(*t["samples_ts"], sep="\n")' | stats
}

# One build's figures into files under $out/NAME/ (one number a line).
measure() { # NAME SB ENGINE_STEPS
    local d=$out/$1
    rm -rf "$d" && mkdir -p "$d"
    sb_runs "$2" "$q05" "$p64" 32 > "$d/q05.txt"
    field decode_tok_s < "$d/q05.txt" > "$d/q05_tg"
    field prefill_tok_s < "$d/q05.txt" > "$d/q05_pp"
    field prompt_tokens < "$d/q05.txt" | head -1 > "$d/q05_n"
    step_runs "$3" "$q05" 1 > "$d/q05_s1"
    step_runs "$3" "$q05" 64 > "$d/q05_s64"
    sb_runs "$2" "$demo" "$p600" 64 > "$d/demo.txt"
    field decode_tok_s < "$d/demo.txt" > "$d/demo_tg"
    field prefill_tok_s < "$d/demo.txt" > "$d/demo_pp"
    field prompt_tokens < "$d/demo.txt" | head -1 > "$d/demo_n"
    { echo "0.5b: $(grep -o 'sha256=[0-9a-f]*' "$d/q05.txt" | sort -u | tr '\n' ' ')"
      echo "demo: $(grep -o 'sha256=[0-9a-f]*' "$d/demo.txt" | sort -u | tr '\n' ' ')"; } > "$d/sha"
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "load before: $(uptime | sed 's/.*load average/load average/')"
echo "threads: $THREADS, runs per figure: $REPS (median (min–max))"
make_steps() { [ -x "$1/engine_steps" ] || { echo "cpu_bench: $1/engine_steps missing" >&2; exit 1; }; }
make_steps "$BUILD"
measure new "$BUILD/sb" "$BUILD/engine_steps"
if [ -n "$BASE_BUILD" ]; then
    make_steps "$BASE_BUILD"
    measure base "$BASE_BUILD/sb" "$BASE_BUILD/engine_steps"
fi
n64=$(cat "$out/new/q05_n") n600=$(cat "$out/new/demo_n")
lt=() # llama.cpp columns, in the table's row order
if [ -n "$LLAMA_BENCH" ]; then
    lt+=("$(llama_runs "$q05" -p 0 -n 32)")
    lt+=("$(llama_runs "$q05" -p "$n64" -n 0)")
    lt+=("-" "-" "-")
    lt+=("$(llama_runs "$demo" -p 0 -n 64 -d "$n600")")
    lt+=("$(llama_runs "$demo" -p "$n600" -n 0)")
fi
echo "load after: $(uptime | sed 's/.*load average/load average/')"
echo "thread pool round trip: $("$BUILD/pool_rtt" "$THREADS" | sed 's/^pool_rtt: //')"

# ---- the table ---------------------------------------------------------------
ratio() { # "a (..)" "b (..)" -> a/b
    awk -v a="${1%% *}" -v b="${2%% *}" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2fx", a / b; else print "-" }'
}
rows=("0.5b q4_k_m: decode, 1 row, tok/s|q05_tg"
      "0.5b q4_k_m: prefill of $n64 tokens, tok/s|q05_pp"
      "0.5b q4_k_m: 1-row step, ms|q05_s1"
      "0.5b q4_k_m: 64-row step, ms|q05_s64"
      "0.5b q4_k_m: 64-row step / 1-row step|ratio"
      "demo: decode at $n600 tokens of context, tok/s|demo_tg"
      "demo: prefill of $n600 tokens, tok/s|demo_pp")
head="| figure | sb |"; rule="|---|---|"
[ -n "$BASE_BUILD" ] && { head+=" sb before |"; rule+="---|"; }
[ -n "$LLAMA_BENCH" ] && { head+=" llama.cpp | sb / llama.cpp |"; rule+="---|---|"; }
echo; echo "$head"; echo "$rule"
for i in "${!rows[@]}"; do
    label=${rows[$i]%%|*} key=${rows[$i]##*|}
    if [ "$key" = ratio ]; then
        new=$(ratio "$(stats < "$out/new/q05_s64")" "$(stats < "$out/new/q05_s1")")
        base=$([ -n "$BASE_BUILD" ] && ratio "$(stats < "$out/base/q05_s64")" "$(stats < "$out/base/q05_s1")" || true)
    else
        new=$(stats < "$out/new/$key")
        base=$([ -n "$BASE_BUILD" ] && stats < "$out/base/$key" || true)
    fi
    line="| $label | $new |"
    [ -n "$BASE_BUILD" ] && line+=" $base |"
    if [ -n "$LLAMA_BENCH" ]; then
        line+=" ${lt[$i]} | $(ratio "$new" "${lt[$i]}") |"
    fi
    echo "$line"
done
echo
echo "output hashes (must not change between builds):"
cat "$out/new/sha"
if [ -n "$BASE_BUILD" ]; then
    if cmp -s "$out/new/sha" "$out/base/sha"; then echo "before: the same"
    else echo "before: DIFFERENT"; cat "$out/base/sha"; exit 1; fi
fi
[ -n "$LLAMA_BENCH" ] || echo "(llama.cpp's columns: LLAMA_BENCH=/path/to/llama-bench)"
