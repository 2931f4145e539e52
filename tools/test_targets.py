#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Prints the ninja targets the tests of the given suites need, one a line
(what `meson test --suite ...` would rebuild), so that a configuration that
runs only some suites builds only what they run.

  test_targets.py BUILD_DIR --suite NAME [--suite NAME ...]

Reads the build's introspection files (meson-info/intro-tests.json and
intro-targets.json). Exit 1 when a suite matches no test: the caller then
builds everything rather than nothing."""
import json
import os
import sys

build = sys.argv[1]
rest = sys.argv[2:]
suites = {rest[i + 1] for i in range(0, len(rest) - 1, 2) if rest[i] == '--suite'}
info = os.path.join(build, 'meson-info')
with open(os.path.join(info, 'intro-tests.json'), encoding='utf-8') as f:
    tests = json.load(f)
with open(os.path.join(info, 'intro-targets.json'), encoding='utf-8') as f:
    files = {t['id']: t['filename'] for t in json.load(f)}
wanted = [t for t in tests if suites & {s.split(':', 1)[-1] for s in t['suite']}]
seen = {s for t in wanted for s in t['suite']}
if not wanted or not all(any(x.split(':', 1)[-1] == s for x in seen) for s in suites):
    sys.exit(1)
out = set()
for t in wanted:
    for d in t.get('depends', []):
        for path in files.get(d, []):
            out.add(os.path.relpath(path, build).replace(os.sep, '/'))
print('\n'.join(sorted(out)))
