#!/usr/bin/env bash
# Configures and builds a Release build in build/ (incremental when it already exists).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
# Unity batches of 16 sources: a clean build (what CI does) takes about half the CPU time, since
# Qt's and Catch's headers are parsed once per batch. For quick incremental work on a few files,
# configure your own build directory without it (or PARALLAX_UNITY=OFF bash tools/build.sh).
unity=${PARALLAX_UNITY:-ON}
if [ ! -f build/build.ninja ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPARALLAX_WERROR=ON \
    -DCMAKE_UNITY_BUILD="$unity" -DCMAKE_UNITY_BUILD_BATCH_SIZE=16 "$@"
fi
cmake --build build -j "$jobs"
