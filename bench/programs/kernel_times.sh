#!/usr/bin/env bash
# kernel_times.sh — where one step's time goes, kernel by kernel, on the
# GPU machine: Nsight Compute times each launch of one step alone
# (serialised, graphs off, clocks as they are: --clock-control none) and
# this prints, per kernel, its launches, microseconds, DRAM bytes read and
# the bandwidth they were read at, then the step's second layer launch by
# launch. The lab for one kernel: change it, carry the build, rerun, compare
# its line. Kernel times add up to more than a graphed step (engine_steps),
# whose launches overlap; the ratio between builds is what to read.
#
# usage: OUT=DIR bench/programs/kernel_times.sh ENGINE_STEPS MODEL [ROWS]
#   ENGINE_STEPS  a built bench/programs/engine_steps; MODEL a GGUF;
#   ROWS          the step's rows (default 1), at KV depth 0.
# Writes DIR/kernel_times.csv (ncu's) and prints the tables. Environment
# passes through (SB_CUDA_MMVQ=0 ... times the other kernel choices).
set -uo pipefail
[ $# -ge 2 ] || { sed -n '2,16p' "$0" >&2; exit 2; }
steps=$1 model=$2 rows=${3:-1}
out=${OUT:?set OUT to a folder for the logs}
mkdir -p "$out"
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
[ -x "$ncu" ] || { echo "kernel_times: ncu not found" >&2; exit 1; }
csv=$out/kernel_times.csv
SB_CUDA_GRAPHS=0 "$ncu" --clock-control none --csv --launch-count 3000 \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum \
    "$steps" "$model" --device cuda --depth 0 --reps 1 --rows "$rows" > "$csv" 2> "$out/ncu.err" ||
    { tail -5 "$out/ncu.err" >&2; exit 1; }
grep -m1 'copy bandwidth' "$csv" || true
# Every field of ncu's CSV is quoted; numbers carry thousands separators.
# A step starts with the embedding kernel: the last one's launches are the
# step measured (the ones before are the weights' repacking and warm steps).
awk -v rows="$rows" '
function num(s) { gsub(/,/, "", s); return s + 0 }
function short(n) { sub(/^void /, "", n); sub(/\(.*$/, "", n); return n }
/^"/ {
    line = substr($0, 2, length($0) - 2)
    n = split(line, f, "\",\"")
    if (f[1] == "ID") { for (i = 1; i <= n; i++) col[f[i]] = i; next }
    id = f[col["ID"]] + 0
    name[id] = short(f[col["Kernel Name"]])
    m = f[col["Metric Name"]]; u = f[col["Metric Unit"]]; v = num(f[col["Metric Value"]])
    if (m == "gpu__time_duration.sum") us[id] = v / (u == "ns" ? 1000 : u == "ms" ? 0.001 : 1)
    if (m == "dram__bytes_read.sum")
        mb[id] = v * (u == "byte" ? 1e-6 : u == "Kbyte" ? 1e-3 : u == "Mbyte" ? 1 : 1e3)
    if (id > last) last = id
    if (name[id] ~ /embed/) start[id] = 1
}
END {
    first = -1
    for (i = 0; i <= last; i++) if (start[i]) first = i
    if (first < 0) { print "kernel_times: no step found (no embedding launch)"; exit 1 }
    total = 0
    for (i = first; i <= last; i++) {
        k = name[i]; cnt[k]++; t[k] += us[i]; b[k] += mb[i]; total += us[i]
        if (!(k in seen)) { seen[k] = 1; order[++nk] = k }
    }
    printf "one step of %d row(s): %d launches, %.1f us of kernel time\n", rows, last - first + 1, total
    printf "| kernel | launches | us | %% of step | MB read | GB/s |\n|---|---|---|---|---|---|\n"
    for (j = 1; j <= nk; j++) {
        k = order[j]
        printf "| %s | %d | %.1f | %.1f | %.1f | %.0f |\n", k, cnt[k], t[k], 100 * t[k] / total, b[k], (t[k] > 0 ? b[k] * 1e3 / t[k] : 0)
    }
    # the second layer: from the second attention norm on, one line a launch
    seen_norm = 0
    for (i = first; i <= last; i++) {
        if (name[i] ~ /rmsnorm/) seen_norm++
        if (seen_norm == 3) { from = i; break }
    }
    if (from) {
        printf "\nlayer 1, launch by launch:\n"
        for (i = from; i <= last; i++) {
            if (i > from && name[i] ~ /rmsnorm/ && ++again == 2) break
            printf "  %-44s %8.2f us %8.2f MB %6.0f GB/s\n", name[i], us[i], mb[i], (us[i] > 0 ? mb[i] * 1e3 / us[i] : 0)
        }
    }
}' "$csv"
