#!/usr/bin/env python3
"""check_rejects.py CHECK_SCRIPT -- LIB...: runs cpudispatch-check on libraries
built from static_init.dispatch.cpp and expects it to fail, naming every
target object and no baseline object."""
import os
import subprocess
import sys
import tempfile

sep = sys.argv.index('--')
check, libs = [sys.executable] + sys.argv[1:sep], sys.argv[sep + 1:]
with tempfile.TemporaryDirectory() as d:
    r = subprocess.run(check + [os.path.join(d, 'stamp')] + libs, capture_output=True, text=True)
print(r.stderr, end='')
errors = []
if r.returncode != 1:
    errors.append('expected exit status 1, got %d' % r.returncode)
targets = [l for l in libs if not l.endswith('_baseline.a')]
for lib in targets:
    if os.path.basename(lib) not in r.stderr:
        errors.append('no complaint about %s' % lib)
if '.init_array holds a static initialiser' not in r.stderr:
    errors.append('the message does not say what is wrong')
if any(os.path.basename(l) in r.stderr for l in libs if l.endswith('_baseline.a')):
    errors.append('baseline code was rejected too')
if errors:
    sys.exit('\n'.join(errors))
print('PASS: rejected %d target libraries' % len(targets))
