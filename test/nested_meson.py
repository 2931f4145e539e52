#!/usr/bin/env python3
"""nested_meson.py DIR: writes DIR/meson, a script that runs the Meson now
configuring this build (MESONINTROSPECT, which Meson sets for run_command,
names it), so that the tests which configure and test whole projects run
that Meson, not whichever `meson` is first on PATH (test/meson.build puts
DIR first on their PATH). Prints the command.

nested_meson.py --check VERSION (a test, with that PATH): the `meson` found
on PATH is the script and reports VERSION, the outer Meson's."""
import os
import shlex
import shutil
import subprocess
import sys

if sys.argv[1] == '--check':
    found = shutil.which('meson')
    got = subprocess.run(['meson', '--version'], capture_output=True, text=True).stdout.strip()
    print('meson on PATH: %s, version %s (this build is configured by Meson %s)' % (found, got, sys.argv[2]))
    if not found or os.path.basename(os.path.dirname(found)) != 'nested-meson' or got != sys.argv[2]:
        sys.exit('FAIL: the tests that run Meson would not run the Meson configuring this build')
    sys.exit(0)

cmd = shlex.split(os.environ.get('MESONINTROSPECT', ''))
if len(cmd) < 2 or cmd[-1] != 'introspect':
    sys.exit('nested_meson.py: MESONINTROSPECT is %r, not "MESON... introspect" (run it from run_command)'
             % os.environ.get('MESONINTROSPECT'))
cmd = cmd[:-1]
os.makedirs(sys.argv[1], exist_ok=True)
path = os.path.join(sys.argv[1], 'meson')
with open(path + '.tmp', 'w') as fh:
    fh.write('#!/bin/sh\nexec %s "$@"\n' % ' '.join(shlex.quote(c) for c in cmd))
os.chmod(path + '.tmp', 0o755)
os.replace(path + '.tmp', path)
print(' '.join(cmd))
