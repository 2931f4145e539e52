#!/usr/bin/env python3
"""Configure time of a consumer project: cold `meson setup` (a new build
directory) and warm `meson setup --reconfigure`, median of N runs each,
next to a bare C/C++ project's, for docs/performance.md.

  configure_time.py [--reps N] [SOURCE_TREE]   (default: this checkout)

The consumer is two lines: `project('c', 'c', 'cpp')` and
`subproject('cpudispatch')`, with SOURCE_TREE linked as
subprojects/cpudispatch; it is configured with cpu-dispatch=max and with
the seed's NumPy option strings. SOURCE_TREE may be a `git worktree` of an
older commit, for before/after figures."""
import os
import statistics
import subprocess
import sys
import tempfile
import time

args = sys.argv[1:]
reps = 3
if '--reps' in args:
    i = args.index('--reps')
    reps = int(args[i + 1])
    del args[i:i + 2]
tree = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
CASES = {
    'bare C/C++ project': None,
    'cpu-dispatch=max': ['-Dcpudispatch:cpu-dispatch=max'],
    'NumPy strings (seed)': ['-Dcpudispatch:cpu-baseline=sse sse2 sse3', '-Dcpudispatch:cpu-dispatch=ssse3 sse41'],
}


def timed(cmd):
    t = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit('%s failed:\n%s%s' % (' '.join(cmd), r.stdout[-2000:], r.stderr[-2000:]))
    return time.perf_counter() - t


with tempfile.TemporaryDirectory() as tmp:
    print('| consumer | cold `meson setup` s | warm `--reconfigure` s |')
    print('|---|---|---|')
    for label, opts in CASES.items():
        src = os.path.join(tmp, 'src-' + str(len(label)))
        os.makedirs(os.path.join(src, 'subprojects'))
        with open(os.path.join(src, 'meson.build'), 'w') as fh:
            fh.write("project('c', 'c', 'cpp')\n" + ("subproject('cpudispatch')\n" if opts is not None else ''))
        os.symlink(tree, os.path.join(src, 'subprojects', 'cpudispatch'))
        build = os.path.join(tmp, 'b')
        cold, warm = [], []
        for _ in range(reps):
            subprocess.run(['rm', '-rf', build])
            cold.append(timed(['meson', 'setup', build, src] + (opts or [])))
        for _ in range(reps):
            warm.append(timed(['meson', 'setup', '--reconfigure', build, src]))
        print('| %s | %.2f | %.2f |' % (label, statistics.median(cold), statistics.median(warm)))
