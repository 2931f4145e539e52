#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The whole performance comparison in one command: a release build with the
# peers' packages (Highway, cpu_features), then bench/report.py, whose
# Markdown tables go to stdout and to build-bench/performance.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${CPUD_BENCH_BUILD:-$root/build-bench}
"$root/tools/install-deps.sh"   # includes the peers: libhwy-dev, libcpu-features-dev
[ -d "$dir" ] || meson setup "$dir" "$root" -Dbuildtype=release -Dtests=disabled >/dev/null
ninja -C "$dir" >/dev/null
python3 "$root/bench/report.py" "$dir" --repetitions "${CPUD_BENCH_REPS:-5}" | tee "$dir/performance.md"
