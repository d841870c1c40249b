#!/usr/bin/env bash
# Packs the GPU machine's binaries of build folder BUILD (sb, engine_steps,
# and where built kernel_lab (make BUILD=... kernel-lab) and
# tests/gpu/test_cuda_backend and test_cuda_oracle with lib/libcmocka.so.0),
# stripped, into ARCHIVE (.tar.xz) for bench/programs/gpu_session.sh: the three
# binaries are ~50 MB as built, too large to carry to the device as they are.
# usage: bench/programs/gpu_pack.sh BUILD ARCHIVE
set -euo pipefail
build=$1 archive=$2
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/tests/gpu" "$stage/lib"
strip -o "$stage/sb" "$build/sb"
strip -o "$stage/engine_steps" "$build/engine_steps"
[ ! -x "$build/kernel_lab" ] || strip -o "$stage/kernel_lab" "$build/kernel_lab"
for t in test_cuda_backend test_cuda_oracle; do
    [ -x "$build/tests/gpu/$t" ] || continue
    strip -o "$stage/tests/gpu/$t" "$build/tests/gpu/$t"
done
[ ! -f "$build/lib/libcmocka.so.0" ] || cp "$build/lib/libcmocka.so.0" "$stage/lib/"
mkdir -p "$(dirname "$archive")"
tar -cJf "$archive" -C "$stage" .
ls -la "$archive"
