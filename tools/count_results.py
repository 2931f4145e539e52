#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Adds up meson's per-test results (meson-logs/testlog.json) of several
build directories and prints the closing line 'N passed, N failed, N skipped'.
Exit status 1 if any test failed or no test ran."""
import json
import os
import sys

passed = failed = skipped = 0
for build in sys.argv[1:]:
    path = os.path.join(build, 'meson-logs', 'testlog.json')
    if not os.path.exists(path):
        print('%s: no test log (the build or the test run did not happen)' % build)
        failed += 1
        continue
    with open(path) as fh:
        for line in fh:
            result = json.loads(line)['result']
            if result in ('OK', 'EXPECTEDFAIL'):
                passed += 1
            elif result == 'SKIP':
                skipped += 1
            else:
                failed += 1
print('%d passed, %d failed, %d skipped' % (passed, failed, skipped))
sys.exit(1 if failed or not passed else 0)
