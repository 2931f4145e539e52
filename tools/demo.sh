#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The main demo: installs what it needs, builds cpudispatch, and shows which
# compiled target each demo kernel selected on this machine.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${CPUD_DEMO_BUILD:-$root/build-demo}
"$root/tools/install-deps.sh"
[ -d "$dir" ] || meson setup "$dir" "$root" --buildtype=debugoptimized >/dev/null
ninja -C "$dir" >/dev/null
sed -n '/cpudispatch baseline/,/^$/p;/cpudispatch dispatch/,/^$/p' "$dir/meson-logs/meson-log.txt" | tail -n 20 || true
echo "--- cpudispatch-info: this machine, this build, the demo kernels' selections"
"$dir/src/info/cpudispatch-info"
echo "--- demo kernels: every target this CPU can run, and its speed-up over the baseline build"
"$dir/src/demo/cpudispatch-demo"
echo "--- seed example (C): targets that can run here, and the one selected"
"$dir/test/hello/hello"
echo "--- seed example (C++)"
"$dir/test/hello/hello_cxx"
