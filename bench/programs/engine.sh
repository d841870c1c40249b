#!/usr/bin/env bash
# Step cost per row count of the engine on a synthetic Qwen2.5-7B-shaped
# Q4_K_M model (4,677,120,000 tensor bytes, as llama.cpp's own file).
# usage: bench/programs/engine.sh   (env: BUILD=build DEVICE=cuda MODEL=/tmp/sb-7b-q4_k_m.gguf)
set -euo pipefail
BUILD=${BUILD:-build} DEVICE=${DEVICE:-cuda} MODEL=${MODEL:-/tmp/sb-7b-q4_k_m.gguf}
[ -f "$MODEL" ] || "$BUILD/sb" mkmodel --shape 7b --quant q4_k_m --seed 1 -o "$MODEL"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "date: $(date -u +%Y-%m-%d)"
"$BUILD/engine_steps" "$MODEL" --device "$DEVICE" --depth 0 --depth 4096 --reps 10
