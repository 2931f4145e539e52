#!/usr/bin/env bash
# The whole performance comparison in one command: a release build with the
# peers' packages (Highway, cpu_features), then bench/report.py, whose
# Markdown tables go to stdout and to build-bench/performance.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${CPUD_BENCH_BUILD:-$root/build-bench}
"$root/tools/install-deps.sh"
pkgs=(libhwy-dev libcpu-features-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
[ -d "$dir" ] || meson setup "$dir" "$root" -Dbuildtype=release -Dtests=disabled >/dev/null
ninja -C "$dir" >/dev/null
python3 "$root/bench/report.py" "$dir" --repetitions "${CPUD_BENCH_REPS:-5}" | tee "$dir/performance.md"
