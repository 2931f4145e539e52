#!/usr/bin/env python3
"""NumPy's own tests of its environment variables (class TestEnvPrivation of
numpy/_core/tests/test_cpu_features.py, NumPy 2.4), replayed against
cpudispatch-info: each case states what NumPy does and checks what we do,
and every deviation is one docs/porting-from-numpy.md lists with its
reason ("Environment variables").

  numpy_env_replay.py PATH/TO/cpudispatch-info PREFIX

On the CPU that runs it (the variables are applied to it at start-up), as
NumPy's tests pick their features from the machine: x86_64 builds; exit 0
pass, 1 fail, 77 skip (another arch; fewer than two dispatch targets this
CPU can run, or none it cannot, as NumPy's tests skip; or every case ran
and passed but the CPU offers no usable target implying another, so two
deviations could not be shown: qemu64)."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # test/
import exe_wrapper  # noqa: E402  (test/exe_wrapper.py)

INFO, PREFIX = sys.argv[1:3]
DIS, EN = PREFIX + '_DISABLE_CPU_FEATURES', PREFIX + '_ENABLE_CPU_FEATURES'
WRAPPER = exe_wrapper.command()
failures = []


def run(env_vars):
    env = {k: v for k, v in os.environ.items() if k not in (DIS, EN)}
    env.update(env_vars)
    p = subprocess.run(WRAPPER + [INFO, '--json'], env=env, capture_output=True, text=True)
    p.stderr = ''.join(l for l in p.stderr.splitlines(True) if "TCG doesn't support" not in l)
    return p


def usable(p):
    d = json.loads(p.stdout)
    return [t for t in d['dispatch'] if d['features'][t]]


def case(name, numpy_does, env_vars, check):
    p = run(env_vars)
    problem = check(p)
    here = problem or (p.stderr.strip()[:150] or 'status 0, usable %s' % ' '.join(usable(p)))
    print('%-34s NumPy: %s\n%-34s here:  %s' % (name, numpy_does, '', here))
    if problem:
        failures.append('%s: %s (status %d, stderr %r)' % (name, problem, p.returncode, p.stderr.strip()[:300]))


def error_naming(*needles, absent=()):
    """Exit status 78 and one line on stderr naming each needle."""
    def check(p):
        lines = p.stderr.strip().splitlines()
        if p.returncode != 78 or len(lines) != 1 or not lines[0].startswith('cpudispatch: '):
            return 'expected status 78 and one "cpudispatch: " line'
        missing = [n for n in needles if n not in lines[0]]
        extra = [a for a in absent if a in lines[0]]
        if missing or extra:
            return 'the line should name %s%s' % (' '.join(needles), ' and not ' + ' '.join(extra) if extra else '')
        return None
    return check


def selects(want):
    def check(p):
        if p.returncode != 0:
            return 'expected status 0'
        got = usable(p)
        return None if sorted(got) == sorted(want) else 'usable dispatch targets %s, expected %s' % (got, want)
    return check


plain = run({})
if plain.returncode != 0:
    print('cpudispatch-info failed: %s' % plain.stderr)
    sys.exit(1)
info = json.loads(plain.stdout)
if info['arch'] != 'x86_64':
    print('SKIP: the replay spells x86_64 names; this build is for %s' % info['arch'])
    sys.exit(77)
have = usable(plain)
lack = [t for t in info['dispatch'] if not info['features'][t]]
if len(have) < 2 or not lack or not info['baseline']:
    # As NumPy's tests skip without dispatchable features on the machine.
    print('SKIP: needs two dispatch targets this CPU can run, one it cannot and a baseline; this build dispatches '
          '%s, this CPU can run %s' % (' '.join(info['dispatch']) or 'nothing', ' '.join(have) or 'none of them'))
    sys.exit(77)
low = [t for t in reversed(info['dispatch']) if t in have][0]  # dispatch lists highest first
bad, base = ('AVX512F' if 'AVX512F' in lack else lack[-1]), info['baseline'][0]
closure = {}  # what each usable target implies among the usable ones (from ENABLE of it alone)
for t in have:
    p = run({EN: t})
    closure[t] = usable(p) if p.returncode == 0 else []

# test_runtime_feature_selection
case('enable-one', 'only that feature is dispatched', {EN: low}, selects([low]))
case('enable-all', 'exactly those features', {EN: ','.join(have)}, selects(have))
# test_both_enable_disable_set
case('both-set', 'ImportError "Both ... cannot be set simultaneously"', {EN: 'feature', DIS: 'feature'},
     error_naming(DIS, EN, 'both set'))
case('both-set-other', 'the same', {EN: 'feature', DIS: 'same'}, error_naming(DIS, EN, 'both set'))
# test_variable_too_long: NumPy counts the terminating NUL (1024 bytes are
# "1025, only 1024 accepted"); here at most 1024 bytes are.
case('too-long-1024', 'RuntimeError "Length ... is 1025, only 1024 accepted"', {EN: 't' * 1024},
     error_naming('unknown CPU feature'))
case('too-long-1025', 'RuntimeError (length)', {EN: 't' * 1025}, error_naming('1025 bytes long', '1024'))
# test_impossible_feature_disable
case('disable-baseline', 'RuntimeError "You cannot disable CPU feature ..."', {DIS: base},
     error_naming('cannot disable ' + base))
# test_impossible_feature_enable
case('enable-unsupported', 'RuntimeError "You cannot enable CPU features (X) ..."', {EN: bad},
     error_naming('cannot enable ' + bad))
case('enable-unsupported-then-bogus', 'the X error (Foobar only warns)', {EN: bad + ', Foobar'},
     error_naming('cannot enable ' + bad))
case('enable-unsupported-then-baseline', 'the same error, naming only X', {EN: bad + ', ' + base},
     error_naming('cannot enable ' + bad, absent=(base + ':',)))
# A long repeated unsupported name: NumPy 2.4 copies each unsupported name
# into a buffer the size of its dispatch list, with no bound check.
case('enable-unsupported-repeated', 'writes past its buffer', {EN: ' '.join([bad] * (1000 // (len(bad) + 1)))},
     error_naming('cannot enable ' + bad))

# Deviations (docs/porting-from-numpy.md), each shown. Names are read left
# to right and the first problem is the one line: an unknown name before
# the unsupported one is what is reported (NumPy: a warning, then X).
case('bogus-then-unsupported', 'ImportWarning for Foobar, then the X error', {EN: 'Foobar, ' + bad},
     error_naming('unknown CPU feature "Foobar"'))
case('unknown-alone', 'ImportWarning, the name ignored', {DIS: 'AVX512FX'}, error_naming('unknown CPU feature'))
implies = [t for t in have if t != low and len(closure[t]) > 1]
shown = bool(implies)
if implies:
    t = implies[0]
    case('enable-keeps-implied', 'only %s stays dispatched' % t, {EN: t}, selects(closure[t]))
    if t not in closure[t]:
        failures.append('ENABLE=%s should keep %s itself: %s' % (t, t, closure[t]))
    below = [x for x in closure[t] if x != t]
    if not below:
        failures.append('%s implies no other usable target here: the case shows nothing' % t)
    d = below[0] if below else low
    case('disable-drops-implying', '%s alone is disabled' % d, {DIS: d},
         selects([x for x in have if d not in closure[x]]))

if failures:
    print('\n'.join('FAIL: ' + f for f in failures))
    sys.exit(1)
if not shown:
    print('SKIP: every case above passed, but this CPU has no usable dispatch target that implies another, so '
          'enable-keeps-implied and disable-drops-implying could not be shown')
    sys.exit(77)
print('PASS')
