#!/usr/bin/env python3
"""This CPU replayed from its own dump: `cpudispatch-info --json --cpu-dump`
on the output of `cpuid -r -1` (Debian package cpuid) must give the same
features, detected set and selections as `cpudispatch-info --json` live.
Not under an emulator: `cpuid` reads the host, the program would read the
model.

  self_dump_test.py PATH/TO/cpudispatch-info PATH/TO/cpuid
"""
import json
import subprocess
import sys
import tempfile

INFO, CPUID = sys.argv[1], sys.argv[2]
dump = subprocess.run([CPUID, '-r', '-1'], capture_output=True, text=True, check=True).stdout
with tempfile.NamedTemporaryFile('w', suffix='.txt') as fh:
    fh.write(dump)
    fh.flush()
    replay = subprocess.run([INFO, '--json', '--cpu-dump', fh.name], capture_output=True, text=True)
live = subprocess.run([INFO, '--json'], capture_output=True, text=True, check=True)
a, b = json.loads(live.stdout), json.loads(replay.stdout)
failures = ['%s differs: live %r, from the dump %r' % (k, a[k], b[k])
            for k in ('features', 'detected', 'masked', 'functions') if a[k] != b[k]]
if replay.returncode != live.returncode:
    failures.append('status %d from the dump, %d live' % (replay.returncode, live.returncode))
for f in failures:
    print('FAIL:', f)
print('%d features compared, %d usable; %d failures'
      % (len(a['features']), sum(a['features'].values()), len(failures)))
sys.exit(1 if failures else 0)
