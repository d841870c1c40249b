#!/usr/bin/env bash
# Packs the GPU machine's binaries of build folder BUILD (sb, engine_steps,
# and tests/gpu/test_cuda_backend with lib/libcmocka.so.0 where built),
# stripped, into ARCHIVE (.tar.xz) for bench/gpu_session.sh: the three
# binaries are ~50 MB as built, too large to carry to the device as they are.
# usage: bench/gpu_pack.sh BUILD ARCHIVE
set -euo pipefail
build=$1 archive=$2
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/tests/gpu" "$stage/lib"
strip -o "$stage/sb" "$build/sb"
strip -o "$stage/engine_steps" "$build/engine_steps"
if [ -x "$build/tests/gpu/test_cuda_backend" ]; then
    strip -o "$stage/tests/gpu/test_cuda_backend" "$build/tests/gpu/test_cuda_backend"
    cp "$build/lib/libcmocka.so.0" "$stage/lib/"
fi
mkdir -p "$(dirname "$archive")"
tar -cJf "$archive" -C "$stage" .
ls -la "$archive"
