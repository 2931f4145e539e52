#!/usr/bin/env python3
"""Runs npyt_main (a NumPy-style dispatch source and its caller, built by the
generator's NumPy format): the pick follows the CPU and the masks, and the
sum is right whatever runs.   npyt_run.py PROGRAM ENV_PREFIX

Natively: the plain run picks one of the targets; masking AVX512F leaves
AVX512_SKX out, masking FMA3 as well leaves AVX2 where the plain run had an
AVX2 build, masking SSE42 leaves the baseline build. Under qemu-user
(where installed): core2duo runs the baseline build, Nehalem SSE42, Haswell
FMA3__AVX2; and the control, the highest target run untested on Nehalem,
dies of an illegal instruction, so the pick is what saves the day."""
import os
import shutil
import subprocess
import sys

prog, prefix = os.path.abspath(sys.argv[1]), sys.argv[2]
failures = []
TARGETS = ['AVX512_SKX', 'FMA3__AVX2', 'AVX2', 'SSE42', 'baseline']


def run(cmd, disable=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith(prefix + '_')}
    if disable:
        env[prefix + '_DISABLE_CPU_FEATURES'] = disable
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    return r.returncode, r.stdout.split(), r.stderr.strip()


def check(cond, what):
    print('%s: %s' % ('ok' if cond else 'FAIL', what))
    if not cond:
        failures.append(what)


rc, out, err = run([prog])
plain = out[0] if out else None
check(rc == 0 and plain in TARGETS and out[1:] == ['5050'], 'plain run: %s (%s %s)' % (plain, rc, err))
rc, out, _ = run([prog], 'AVX512F')
check(rc == 0 and out[:1] != ['AVX512_SKX'] and out[1:] == ['5050'], 'AVX512F masked: %s' % out)
rc, out, _ = run([prog], 'AVX512F FMA3')
want = 'AVX2' if plain in ('AVX512_SKX', 'FMA3__AVX2', 'AVX2') else plain
check(rc == 0 and out == [want, '5050'], 'AVX512F and FMA3 masked: %s, expected %s' % (out, want))
rc, out, _ = run([prog], 'SSE42')
check(rc == 0 and out == ['baseline', '5050'], 'SSE42 masked (and all that implies it): %s' % out)

qemu = shutil.which('qemu-x86_64')
if qemu:
    for model, want in (('core2duo', 'baseline'), ('Nehalem', 'SSE42'), ('Haswell', 'FMA3__AVX2')):
        rc, out, err = run([qemu, '-cpu', model, prog])
        check(rc == 0 and out == [want, '5050'], 'qemu %s: %s, expected %s (%s)' % (model, out, want, err[-200:]))
    rc, out, err = run([qemu, '-cpu', 'Nehalem', prog, 'force'])
    check(rc not in (0, 1), 'control: the highest target forced on Nehalem dies (status %d)' % rc)
else:
    print('SKIP: no qemu-x86_64: the CPU models were not run')
print('%d failure(s)' % len(failures))
sys.exit(1 if failures else 0)
