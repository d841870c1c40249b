#!/usr/bin/env bash
# One call on a GPU machine that lacks the build's -dev packages: the CUDA
# tests, then the step-cost table of each build given, on one synthetic
# 7b-shape Q4_K_M model. Binaries come prebuilt (README: "A GPU machine
# without the build's -dev packages"), packed by bench/programs/gpu_pack.sh as
# DIR.tar.xz archives of sb, engine_steps and (optionally) the GPU tests
# with lib/libcmocka.so.0.
#
# usage: bench/programs/gpu_session.sh NAME=ARCHIVE... (env: OUT, the log folder;
#        MODEL, the model file (made by the first build's sb mkmodel when
#        absent; default /tmp/sb-7b-q4_k_m.gguf);
#        STEPS="--depth 0 --depth 4096 --reps 20" engine_steps' options;
#        PROFILE=1 also runs each build's table with SB_CUDA_PROFILE=1;
#        VARIANTS="mmvq0:SB_CUDA_MMVQ=0 split:SB_CUDA_ATTN=split,SB_CUDA_GRAPHS=0"
#        extra tables of the first build under those settings (the
#        SB_CUDA_* switches, docs/environment.md "Kernel switches", which
#        engine_steps reads once at start);
#        NCU="REGEX:SKIP:COUNT ..." Nsight Compute reports of those kernel
#        launches of the first build, with NCU_SECTIONS="SpeedOfLight ..."
#        in place of the default sections and NCU_ENV="SB_CUDA_MMVQ=16 ..."
#        in its environment;
#        LAB="--all" kernel_lab's lines (bench/programs/kernel_lab.cu) with
#        those options, for each build that packed it; LAB_ONLY=1 runs only
#        those, no tests or tables;
#        PREFILL_CHUNKS="64 256 512 1024" times a prefill of PREFILL_TOKENS
#        (default 3946) prompt tokens at each of those chunk sizes, for each
#        build (engine_steps --prefill, one session made for the largest
#        chunk), to $OUT/prefill.txt; and checks that the first build's sb
#        generate gives one output hash at every one of those chunks
#        (--chunk, the same long prompt); PREFILL_ONLY=1 skips the step
#        tables)
# The first build's tests run first; a failure stops the run.
set -uo pipefail
OUT=${OUT:-/tmp/sb-gpu-out}
STEPS=${STEPS:---depth 0 --depth 4096 --reps 20}
MODEL=${MODEL:-/tmp/sb-7b-q4_k_m.gguf}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee "$OUT/gpu.txt"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')" | tee -a "$OUT/gpu.txt"

first=""
for spec in "$@"; do
    name=${spec%%=*} archive=${spec#*=}
    mkdir -p "/tmp/sb-$name" && tar -xJf "$archive" -C "/tmp/sb-$name" || exit 1
    [ -n "$first" ] || first=$name
done

# test_cuda_oracle links the toolkit's libcublas: found through its rpath
# (/usr/local/cuda/lib64) or wherever the machine keeps it.
cublas_dir=$(dirname "$(find / -name 'libcublas.so.13*' -not -path '/proc/*' 2>/dev/null | head -1)")
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$cublas_dir"
for t in test_cuda_backend test_cuda_oracle; do
    [ "${LAB_ONLY:-0}" = 1 ] && break
    [ -x "/tmp/sb-$first/tests/gpu/$t" ] || continue
    echo "== $t ($first)"
    "/tmp/sb-$first/tests/gpu/$t" >> "$OUT/test-gpu.txt" 2>&1
    rc=$?
    tail -25 "$OUT/test-gpu.txt"
    [ $rc -eq 0 ] || { echo "$t FAILED (rc $rc)"; exit 1; }
done

[ -f "$MODEL" ] || "/tmp/sb-$first/sb" mkmodel --shape 7b --quant q4_k_m --seed 1 \
    --threads "$(nproc)" -o "$MODEL" >> "$OUT/errors.log" 2>&1 || { cat "$OUT/errors.log"; exit 1; }

# Every table goes whole to $OUT/steps.txt (stderr to $OUT/errors.log), its
# main lines to stdout.
table() { # NAME LABEL [ENV...]
    local name=$1 label=$2; shift 2
    echo "== $label" | tee -a "$OUT/steps.txt"
    env "$@" "/tmp/sb-$name/engine_steps" "$MODEL" --device cuda $STEPS > "$OUT/table.tmp" \
        2>> "$OUT/errors.log"
    cat "$OUT/table.tmp" >> "$OUT/steps.txt"
    grep -E '^\| (ms|x 1|weights|ours)|^session|floor' "$OUT/table.tmp"
    rm -f "$OUT/table.tmp"
}
# LAB="...": kernel_lab of each build (bench/programs/kernel_lab.cu), whole
# to $OUT/lab-NAME.txt and stdout.
for spec in "$@"; do
    name=${spec%%=*}
    [ -n "${LAB:-}" ] && [ -x "/tmp/sb-$name/kernel_lab" ] || continue
    echo "== kernel_lab $LAB ($name)"
    "/tmp/sb-$name/kernel_lab" "$MODEL" $LAB 2>&1 | tee "$OUT/lab-$name.txt"
done
[ "${LAB_ONLY:-0}" = 1 ] && exit 0
# PREFILL_CHUNKS="64 256 ...": prefill speed by chunk size, then the hash of
# one generation at each chunk, which must be the same (docs/determinism.md).
if [ -n "${PREFILL_CHUNKS:-}" ]; then
    chunk_args=$(for c in $PREFILL_CHUNKS; do printf -- '--chunk %s ' "$c"; done)
    for spec in "$@"; do
        name=${spec%%=*}
        echo "== prefill ($name)" | tee -a "$OUT/prefill.txt"
        "/tmp/sb-$name/engine_steps" "$MODEL" --device cuda --prefill "${PREFILL_TOKENS:-3946}" \
            $chunk_args 2>> "$OUT/errors.log" | tee -a "$OUT/prefill.txt"
    done
    prompt=$(seq 1 700 | tr '\n' ' ') # 2,692 tokens: the default context (4096) holds it
    hashes=""
    for c in $PREFILL_CHUNKS; do
        h=$("/tmp/sb-$first/sb" generate -m "$MODEL" --device cuda --chunk "$c" -n 32 --quiet \
            -p "$prompt" 2>&1 | grep -o 'sha256=[0-9a-f]*')
        echo "generate --chunk $c: ${h:-FAILED}" | tee -a "$OUT/prefill.txt"
        [ -n "$h" ] || exit 1
        hashes="$hashes $h"
    done
    [ "$(tr ' ' '\n' <<< "$hashes" | sort -u | grep -c .)" = 1 ] ||
        { echo "prefill chunks gave different outputs"; exit 1; }
fi
[ "${PREFILL_ONLY:-0}" = 1 ] && exit 0
for spec in "$@"; do table "${spec%%=*}" "${spec%%=*}"; done
for v in ${VARIANTS:-}; do table "$first" "$first, ${v%%:*}" $(tr , " " <<< "${v#*:}"); done
if [ "${PROFILE:-0}" = 1 ]; then
    for spec in "$@"; do
        name=${spec%%=*}
        SB_CUDA_PROFILE=1 "/tmp/sb-$name/engine_steps" "$MODEL" --device cuda --depth 0 \
            --depth 4096 --reps 5 > /dev/null 2>> "$OUT/profile.txt"
    done
fi
# NCU="KERNEL_REGEX:SKIP:COUNT ...": Nsight Compute on those launches (graphs
# off: launches counted from the first step of engine_steps) of the
# first build (clocks left as they are), one report file each.
NCU_BIN=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
NCU_SECTIONS=${NCU_SECTIONS:-SpeedOfLight MemoryWorkloadAnalysis ComputeWorkloadAnalysis Occupancy WarpStateStats SchedulerStats LaunchStats}
NCU_SECTIONS=$(for s in $NCU_SECTIONS; do printf -- '--section %s ' "$s"; done)
i=0
for k in ${NCU:-}; do
    IFS=: read -r rx skip count <<< "$k"
    i=$((i + 1))
    env SB_CUDA_GRAPHS=0 ${NCU_ENV:-} timeout 240 "$NCU_BIN" --clock-control none -k "regex:$rx" \
        --launch-skip "$skip" --launch-count "$count" $NCU_SECTIONS \
        "/tmp/sb-$first/engine_steps" "$MODEL" --device cuda --depth 0 --reps 1 \
        > "$OUT/ncu-$i.txt" 2>&1 || echo "ncu $k: rc $?"
done
