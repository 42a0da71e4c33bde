#!/usr/bin/env bash
# Configures and builds a Release build in build/ (incremental when it already exists).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
if [ ! -f build/build.ninja ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPARALLAX_WERROR=ON "$@"
fi
cmake --build build -j "$jobs"
