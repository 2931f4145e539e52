#!/usr/bin/env python3
"""Installs the build into a temporary DESTDIR, builds test/install/tiny.c
against it with pkg-config and the C compiler alone, and runs it: the
installed headers, library and .pc file are enough, the baseline flags come
from the .pc file, and the start-up check runs before main.

  install_test.py BUILD_DIR TINY_C CC
"""
import glob
import os
import shlex
import subprocess
import sys
import tempfile

build, tiny, cc = sys.argv[1], sys.argv[2], shlex.split(sys.argv[3])
failures = []
with tempfile.TemporaryDirectory() as dest:
    subprocess.run(['meson', 'install', '-C', build, '--destdir', dest, '--no-rebuild', '--quiet'], check=True)
    pcs = glob.glob(os.path.join(dest, '**', 'cpudispatch.pc'), recursive=True)
    if len(pcs) != 1:
        sys.exit('expected one installed cpudispatch.pc, found %s' % pcs)
    env = dict(os.environ, PKG_CONFIG_PATH=os.path.dirname(pcs[0]), PKG_CONFIG_SYSROOT_DIR=dest)
    flags = subprocess.run(['pkg-config', '--cflags', '--libs', 'cpudispatch'], env=env, capture_output=True,
                           text=True, check=True).stdout.split()
    print('pkg-config:', ' '.join(flags))
    exe = os.path.join(dest, 'tiny')
    r = subprocess.run(cc + [tiny, '-o', exe] + flags, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit('building tiny.c failed:\n' + r.stderr)
    r = subprocess.run([exe], capture_output=True, text=True)
    print(r.stdout, end='')
    if r.returncode != 0 or 'main reached' not in r.stdout:
        failures.append('tiny failed: status %d %s' % (r.returncode, r.stderr))
    # The start-up constructor came along (whole archive): a bad environment
    # variable stops the program before main.
    bad = subprocess.run([exe], capture_output=True, text=True,
                         env=dict(os.environ, CPUDISPATCH_ENABLE_CPU_FEATURES='nosuchfeature'))
    if bad.returncode != 78 or 'main reached' in bad.stdout:
        failures.append('start-up check did not run before main: status %d, stdout %r' % (bad.returncode, bad.stdout))
    # Every public header, and the license.
    src_inc = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                           'include', 'cpudispatch')
    inst = glob.glob(os.path.join(dest, '**', 'include', 'cpudispatch'), recursive=True)
    have = set(os.listdir(inst[0])) if len(inst) == 1 else set()
    lacking = sorted(set(os.listdir(src_inc)) - have)
    if lacking:
        failures.append('headers of include/cpudispatch not installed: %s' % ' '.join(lacking))
    else:
        print('installed: all %d headers of include/cpudispatch' % len(os.listdir(src_inc)))
    if not glob.glob(os.path.join(dest, '**', 'licenses', 'cpudispatch', 'LICENSE'), recursive=True):
        failures.append('LICENSE not installed under share/licenses/cpudispatch')
    info = glob.glob(os.path.join(dest, '**', 'bin', 'cpudispatch-info'), recursive=True)
    if len(info) != 1 or subprocess.run(info + ['--json'], capture_output=True).returncode != 0:
        failures.append('installed cpudispatch-info missing or failing: %s' % info)
if failures:
    sys.exit('\n'.join(failures))
print('PASS')
