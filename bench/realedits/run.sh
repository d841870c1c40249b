#!/usr/bin/env bash
# The drafter benchmark (make bench-drafter): every drafter on every task
# set, priced by two step-cost tables, with sb draftsim --tasks. No model
# runs: draftsim takes each task's expected file as the model's answer and
# reads the model for its vocabulary only (give one with the real Qwen
# vocabulary: make bench-drafter passes build/tokref/tiny-vocab.gguf).
#
# usage: bench/realedits/run.sh MODEL [SET...]
#   SET: a folder of tasks (default: bench/realedits/heldout,
#        bench/realedits/tune, bench/edits)
# env:   BUILD (default build), TABLES (default: the built-in H200 table and
#        bench/costs/goal-curve.txt; "default" names the built-in one)
#
# Prints one Markdown table per cost table: per set and drafter, tokens per
# step and the projected speedup over plain decoding (total plain cost over
# total speculative cost), then the perfect drafter's cap under the same
# table. "ngram best" is the best of the n-gram lookup at max-draft 8, 16
# and 63 (it always drafts max-draft tokens).
set -euo pipefail

build=${BUILD:-build}
sb=$build/sb
model=${1:?usage: bench/realedits/run.sh MODEL [SET...]}
shift
sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(bench/realedits/heldout bench/realedits/tune bench/edits)
read -r -a tables <<< "${TABLES:-default bench/costs/goal-curve.txt}"
[ -x "$sb" ] || { echo "run.sh: $sb not built (make)" >&2; exit 1; }
[ -f "$model" ] || { echo "run.sh: no model '$model'" >&2; exit 1; }

# "key=value" out of draftsim's total line
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }

# total line of one run: tokens_per_step projected_speedup perfect_speedup
total() {
    local set=$1 table=$2; shift 2
    local cost=()
    [ "$table" = default ] || cost=(--cost-table "$table")
    local line
    line=$("$sb" draftsim -m "$model" --tasks "$set" "${cost[@]}" "$@" | tail -n 1)
    echo "$(field tokens_per_step <<< "$line") $(field projected_speedup <<< "$line")" \
         "$(field perfect_speedup <<< "$line") $(field tasks <<< "$line")"
}

for table in "${tables[@]}"; do
    if [ "$table" = default ]; then
        echo "### Cost table: built-in default ($("$sb" draftsim --help | sed -n 's/^Default step costs (\(.*\)), ms by rows:$/\1/p'))"
    else
        echo "### Cost table: $table"
    fi
    echo
    echo "| set | tasks | copy (default) | copy-plain | ngram best | default / copy-plain | default / ngram best | perfect cap |"
    echo "|---|---|---|---|---|---|---|---|"
    for set in "${sets[@]}"; do
        read -r c_tps c_x cap n <<< "$(total "$set" "$table" --drafter copy)"
        read -r p_tps p_x _ _ <<< "$(total "$set" "$table" --drafter copy-plain)"
        best_x=0 best_tps=0 best_d=0
        for d in 8 16 63; do
            read -r g_tps g_x _ _ <<< "$(total "$set" "$table" --drafter ngram --max-draft $d)"
            if awk "BEGIN{exit !($g_x > $best_x)}"; then
                best_x=$g_x best_tps=$g_tps best_d=$d
            fi
        done
        awk -v set="$set" -v n="$n" -v ct="$c_tps" -v cx="$c_x" -v pt="$p_tps" \
            -v px="$p_x" -v gt="$best_tps" -v gx="$best_x" -v gd="$best_d" -v cap="$cap" \
            'BEGIN { printf "| %s | %d | %.2f (%.2fx) | %.2f (%.2fx) | %.2f (%.2fx, max-draft %d) | %.3f | %.2f | %.2fx |\n",
                     set, n, ct, cx, pt, px, gt, gx, gd, cx / px, cx / gx, cap }'
    done
    echo
done
echo "Cells: tokens per step (projected speedup over plain decoding); totals over each set."
