#!/usr/bin/env bash
# Sets up, builds and opens Parallax on a bundled sample run (or on the run given).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
tools/build.sh
run="${1:-sample-logs/imbalance}"
exec build/bin/parallax "$run"
