#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Test time per suite over every configuration of a run of
tools/run-tests.sh: the durations in each build directory's
meson-logs/testlog.json, summed by suite (a test in several suites counts
in each), with how many tests ran. For test/README.md's table.

  tools/suite_times.py [BUILD_ROOT]      (default: build-tests/)"""
import glob
import json
import os
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                                          'build-tests')
seconds, counts = {}, {}
logs = sorted(glob.glob(os.path.join(root, '**', 'meson-logs', 'testlog.json'), recursive=True))
for log in logs:
    with open(log, encoding='utf-8') as fh:
        for line in fh:
            t = json.loads(line)
            suites = t.get('suite') or [t['name'].split(' / ')[0].split(':')[-1]]
            names = [n for s in suites for n in s.split(':')[-1].split('+')]
            for s in names:
                seconds[s] = seconds.get(s, 0.0) + t.get('duration', 0.0)
                counts[s] = counts.get(s, 0) + 1
print('%d logs under %s' % (len(logs), root))
for s in sorted(seconds, key=lambda k: -seconds[k]):
    print('%-16s %7.0f s  %4d tests' % (s, seconds[s], counts[s]))
