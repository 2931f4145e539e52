#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Before and after in one run: the benchmarks a runtime change must not make
# worse (P1: the dispatched call and the pointer from get() against a direct
# call; the guards; P2: start-up; typed dispatch), built in release from a
# commit ("before") and from the working tree ("after"), run alternately
# ROUNDS times on the same machine. Prints the median of each round's
# medians per benchmark and version.
#
#   tools/bench-ab.sh COMMIT [ROUNDS]      (ROUNDS default 3)
#
# The builds live in $CPUD_AB_DIR (default /tmp/cpud-ab); rerunning reuses
# them (ninja rebuilds what changed).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
old=${1:?usage: tools/bench-ab.sh COMMIT [ROUNDS]}
rounds=${2:-3}
dir=${CPUD_AB_DIR:-/tmp/cpud-ab}
mkdir -p "$dir"
if [ ! -d "$dir/old-src" ]; then
  git -C "$root" worktree add -f --detach "$dir/old-src" "$old" >/dev/null
else
  git -C "$dir/old-src" checkout -q --detach "$old"
fi
progs="bench/bench_call_cost bench/bench_typed bench/bench_startup"
for v in old new; do
  src=$root
  [ $v = old ] && src=$dir/old-src
  [ -d "$dir/$v" ] || meson setup "$dir/$v" "$src" -Dbuildtype=release -Dtests=disabled >/dev/null
  ninja -C "$dir/$v" $progs >/dev/null
done
call='^BM_direct$|^BM_cpudispatch_dispatched$|^BM_cpudispatch_pointer$|guard'
typed='^BM_direct$|BM_op_cached|BM_rank_uncached|BM_intern_hit|BM_depth_table'
start='^BM_startup'
for r in $(seq "$rounds"); do
  for v in old new; do
    for spec in "bench_call_cost:$call" "bench_typed:$typed" "bench_startup:$start"; do
      prog=${spec%%:*} filter=${spec#*:}
      "$dir/$v/bench/$prog" --benchmark_filter="$filter" --benchmark_repetitions=5 \
        --benchmark_report_aggregates_only=true --benchmark_format=json \
        >"$dir/$v.$prog.$r.json" 2>/dev/null
    done
  done
done
python3 - "$dir" "$rounds" <<'PY'
import json, statistics, sys
d, rounds = sys.argv[1], int(sys.argv[2])
res = {}
for v in ('old', 'new'):
    for prog in ('bench_call_cost', 'bench_typed', 'bench_startup'):
        for r in range(1, rounds + 1):
            for b in json.load(open('%s/%s.%s.%d.json' % (d, v, prog, r)))['benchmarks']:
                if b.get('aggregate_name') == 'median':
                    res.setdefault((prog, b['run_name']), {}).setdefault(v, []).append(b['cpu_time'])
print('| benchmark | before (ns) | after (ns) | after / before | rounds before | rounds after |')
print('|---|---|---|---|---|---|')
for (prog, name), by in res.items():
    o, n = statistics.median(by['old']), statistics.median(by['new'])
    print('| %s %s | %.2f | %.2f | %.3f | %s | %s |' % (prog.replace('bench_', ''), name, o, n, n / o,
          ' / '.join('%.2f' % x for x in by['old']), ' / '.join('%.2f' % x for x in by['new'])))
PY
