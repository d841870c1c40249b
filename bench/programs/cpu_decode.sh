#!/usr/bin/env bash
# CPU decode speed of a synthetic 0.5b-shape Q4_K_M model vs the memory floor.
# Every decode step streams all tensor bytes once (the tied embedding is the
# LM head), so the floor is read bandwidth / tensor bytes.
# usage: bench/programs/cpu_decode.sh   (env: BUILD=build THREADS=2 TOKENS=32 SHAPE=0.5b)
set -euo pipefail
BUILD=${BUILD:-build} THREADS=${THREADS:-2} TOKENS=${TOKENS:-32} SHAPE=${SHAPE:-0.5b}
model=$BUILD/bench/$SHAPE-q4_k_m.gguf
mkdir -p "$BUILD/bench"
[ -f "$model" ] || "$BUILD/sb" mkmodel --shape "$SHAPE" --quant q4_k_m --seed 1 -o "$model"
bytes=$("$BUILD/sb" info "$model" | awk '$1 == "total" {print $3}')
bw=$("$BUILD/membw" "$THREADS" | sed -n 's/.*read_GB_s=\([0-9.]*\).*/\1/p')
line=$("$BUILD/sb" generate -m "$model" -p "def parse_line(s):" -n "$TOKENS" \
        --threads "$THREADS" --ignore-eos --quiet --speculation off 2>&1 >/dev/null | tail -1)
tps=$(sed -n 's/.*decode_tok_s=\([0-9.]*\).*/\1/p' <<<"$line")
echo "machine: $(nproc) cores, $(date -u +%Y-%m-%d)"
echo "model: $model ($bytes tensor bytes), threads=$THREADS"
echo "$line"
awk -v b="$bytes" -v bw="$bw" -v t="$tps" 'BEGIN {
    floor = bw * 1e9 / b;
    printf "memory read %.2f GB/s -> floor %.1f tok/s; measured %.2f tok/s = %.1f%% of the floor\n",
           bw, floor, t, 100 * t / floor }'
