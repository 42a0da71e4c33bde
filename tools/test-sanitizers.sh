#!/usr/bin/env bash
# Builds everything with AddressSanitizer + UndefinedBehaviorSanitizer (GCC, -O1, in
# build-asan/) and runs the whole ctest suite on it, plus the fuzz harnesses over their seed
# corpus (tests/fuzz/). Any sanitizer report fails the test that triggered it.
# Usage: bash tools/test-sanitizers.sh [extra cmake -D options]
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
flags="-O1 -g1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
# Warnings are errors in the Release build (tools/build.sh); here GCC's -O1 + sanitizer
# instrumentation gives false -Wmaybe-uninitialized reports inside libstdc++ (std::regex), so
# warnings stay warnings.
# -g1: line tables for the sanitizers' reports, without the full debug info that made the
# build (and its links) slow. The benchmarks are left out here (figures, not checks). Unity
# batches (as in tools/build.sh) halve the compile time. The Python module is left out too: an
# instrumented extension can only be loaded into Debian's uninstrumented python3 with libasan
# preloaded; the Release build runs its pytest tests.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPARALLAX_WERROR=OFF \
  -DPARALLAX_BUILD_BENCHMARKS=OFF -DPARALLAX_BUILD_PYTHON=OFF \
  -DCMAKE_UNITY_BUILD="${PARALLAX_UNITY:-ON}" -DCMAKE_UNITY_BUILD_BATCH_SIZE=16 \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
  "${launcher[@]}" "$@" >/dev/null
cmake --build build-asan -j "$jobs"

# Leaks: real leak detection for our own code; the suppressions only cover allocations made
# inside Qt, fontconfig and the platform plugins, which keep caches alive until exit on purpose.
export LSAN_OPTIONS="suppressions=$PWD/tests/fuzz/lsan.supp:print_suppressions=0"
export ASAN_OPTIONS="detect_leaks=1:check_initialization_order=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export QT_QPA_PLATFORM=offscreen
ctest --test-dir build-asan --output-on-failure -j "$jobs"
