#!/usr/bin/env python3
"""The environment-variable rules through a real program (cpudispatch-info):
exit status, the one-line message on stderr, and the effect on selection.

  env_cli_test.py PATH/TO/cpudispatch-info PREFIX [cpudispatch_targets.txt]
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # test/
import exe_wrapper  # noqa: E402  (test/exe_wrapper.py)

INFO, PREFIX = sys.argv[1], sys.argv[2]
CONFIG = sys.argv[3] if len(sys.argv) > 3 else None  # cpudispatch_targets.txt
DIS, EN = PREFIX + '_DISABLE_CPU_FEATURES', PREFIX + '_ENABLE_CPU_FEATURES'
EXIT_ENV = 78
WRAPPER = exe_wrapper.command()
failures = []


def run(env_vars, args=('--json',)):
    env = {k: v for k, v in os.environ.items() if k not in (DIS, EN)}
    env.update(env_vars)
    p = subprocess.run(WRAPPER + [INFO] + list(args), env=env, capture_output=True, text=True)
    # Under an emulator (MESON_EXE_WRAPPER) qemu may warn about CPU model
    # features it cannot emulate: not the program's output.
    p.stderr = ''.join(l for l in p.stderr.splitlines(True) if "TCG doesn't support" not in l)
    return p


def check(cond, what, p=None):
    if not cond:
        failures.append(what + ('' if p is None else '\n  status %s\n  stderr: %s' % (p.returncode, p.stderr.strip())))


def expect_error(env_vars, needle, *other_forms):
    p = run(env_vars)
    check(p.returncode == EXIT_ENV, '%s: exit status %d expected' % (env_vars, EXIT_ENV), p)
    lines = p.stderr.strip().splitlines()
    check(len(lines) == 1 and lines[0].startswith('cpudispatch: ') and
          any(n in lines[0] for n in (needle,) + other_forms),
          '%s: one line with "%s" expected' % (env_vars, '" or "'.join((needle,) + other_forms)), p)
    check(p.stdout == '', '%s: nothing on stdout expected' % env_vars, p)


def info(env_vars=None):
    p = run(env_vars or {})
    check(p.returncode == 0, '%s: exit status 0 expected' % env_vars, p)
    return json.loads(p.stdout), p.stderr


base, _ = info()
arch = base['arch']
detected = set(base['detected'])
functions = base['functions']
check(set(base) >= {'arch', 'baseline', 'dispatch', 'features', 'functions'}, 'JSON keys')
check(all(f['selected'] in f['compiled'] for f in functions.values()), 'selected is one of compiled')

# The demo typed operator: its kernels in table order, each selecting what
# the plain dispatched functions select (the same target lists), and the
# cache entries of the three resolutions cpudispatch-info makes.
ops = base.get('operators', {})
check(list(ops) == ['sum'], 'operators listed: %s' % list(ops))
if 'sum' in ops:
    kernels = ops['sum']['kernels']
    check([(k['function'], k['types']) for k in kernels] ==
          [('cpud_demo_sum_any_i64', '(int64)'), ('cpud_demo_sum_any_f32', '(float32)'),
           ('cpud_demo_sum_any_f64', '(float64)')], 'operator kernels: %s' % kernels)
    check(all(k['selected'] == functions['cpud_demo_sum_f32']['selected'] and
              k['compiled'] == functions['cpud_demo_sum_f32']['compiled'] for k in kernels),
          'operator kernels select as the dispatched functions do: %s' % kernels)
    cache = {c['args']: (c['kernel'], c['conversions']) for c in ops['sum']['cache']}
    check(cache == {'(float32)': ('cpud_demo_sum_any_f32', 'exact'), '(int32)': ('cpud_demo_sum_any_i64', 'promote'),
                    '(float16)': (None, 'ambiguous')}, 'operator cache: %s' % cache)

expect_error({DIS: 'x', EN: 'y'}, 'are both set')
expect_error({DIS: 'a' * 1025}, '1025 bytes long; at most 1024')
# An arch without a feature table (nothing dispatched) says so instead.
expect_error({DIS: 'no_such_feature'}, 'unknown CPU feature "no_such_feature"; '
             + ('valid names on %s: ' % arch if base['features'] else "%s has no CPU features in cpudispatch's tables" % arch))
expect_error({EN: 'NoSuchFeature'}, 'unknown CPU feature "NoSuchFeature"')
# A terminal escape and UTF-8 in the value reach stderr escaped (issue 15).
# A Windows program's getenv() gives the value in the ANSI code page (Wine
# takes it from the Unix locale: cp1252 in CI), so "\u00e9" is one byte there.
expect_error({EN: 'avx\x1b[31m\u00e9'}, 'unknown CPU feature "avx\\x1b[31m\\xc3\\xa9"',
             *(['unknown CPU feature "avx\\x1b[31m\\xe9"'] if INFO.endswith('.exe') else []))
p = run({EN: 'avx\x1b[31m'})
check('\x1b' not in p.stderr, 'a raw escape byte reached stderr', p)
if base['baseline']:
    b = base['baseline'][-1]
    expect_error({DIS: b.lower()}, 'cannot disable %s: it is part of this build\'s baseline' % b)
missing = [f for f, on in base['features'].items() if not on and f not in detected]
if missing:
    expect_error({EN: missing[-1]}, 'cannot enable %s: this CPU (or its operating system) does not support it'
                 % missing[-1])

# Every compiled target the CPU has: disable everything above it, so it is
# the one selected; and ENABLE names alone select it too (with its implied
# features kept on).
fn = functions['cpud_demo_sum_f32']
for i, target in enumerate(fn['compiled']):
    if target != 'baseline' and target not in detected:
        continue
    above = [t for t in fn['compiled'][:i] if t in detected]
    if above:
        got, err = info({DIS: ', '.join(a.lower() for a in above)})
        check(got['functions']['cpud_demo_sum_f32']['selected'] == target,
              'DISABLE %s should select %s, got %s' % (above, target, got['functions']['cpud_demo_sum_f32']))
        check(all(not got['features'][a] for a in above), 'DISABLE %s left some usable' % above)
        check(all(k['selected'] == target for k in got['operators']['sum']['kernels']),
              'DISABLE %s: the operator kernels should select %s: %s' % (above, target, got['operators']))
    if target != 'baseline':
        got, err = info({EN: target.lower()})
        check(got['functions']['cpud_demo_sum_f32']['selected'] == target,
              'ENABLE %s should select it, got %s' % (target, got['functions']['cpud_demo_sum_f32']))
        check(got['features'][target], 'ENABLE %s: the feature itself usable' % target)
        # Higher-interest targets cannot be implied by a lower one: masked.
        check(all(not got['features'][a] and a in got['masked'] for a in above),
              'ENABLE %s left a higher target usable: %s' % (target, above))

# A level or group also turns off what it adds (issue 15): after
# DISABLE=x86_v3 nothing x86-64-v3 adds stays usable, no AVX-512 either, and
# every function selects a target below them.
if arch == 'x86_64' and 'X86_V3' in detected and 'X86_V3' not in base['baseline']:
    for level, gone in (('x86_v3', ['AVX', 'F16C', 'FMA3', 'AVX2', 'BMI', 'BMI2', 'LZCNT', 'MOVBE', 'X86_V3',
                                    'AVX512F', 'AVX512_SKX', 'X86_V4']),
                        ('x86_v4', ['AVX512F', 'AVX512CD', 'AVX512BW', 'AVX512DQ', 'AVX512VL', 'AVX512_SKX',
                                    'X86_V4'])):
        got, err = info({DIS: level})
        on = [g for g in gone if got['features'].get(g)]
        check(not on, 'DISABLE=%s left usable: %s' % (level, on))
        check(all(g in got['masked'] for g in gone if g in detected), 'DISABLE=%s: masked %s' % (level, got['masked']))
        sel = {f: v['selected'] for f, v in got['functions'].items()}
        check(not set(sel.values()) & set(gone), 'DISABLE=%s still selects %s' % (level, sel))

# Names of another arch: warning, ignored; a name that is not a dispatch target: warning.
foreign = 'AVX2' if arch in ('aarch64', 'arm') else 'ASIMDDP'  # (ASIMDDP is both Arm arches' name)
got, err = info({DIS: foreign})
check('is not a feature of %s; ignored' % arch in err and got['features'] == base['features'],
      'foreign name should warn and change nothing: %r' % err)
# ENABLE of that foreign name alone changes nothing either (it must not switch
# every target off).
got, err = info({EN: foreign})
check('is not a feature of %s; ignored' % arch in err and got['features'] == base['features'],
      'ENABLE of only a foreign name should change nothing: %r' % err)

# A value naming nothing is unset: no "both set" error beside a real value,
# no effect alone.
for blank in (' ', ',', ' ,\t\n'):
    got, err = info({EN: blank})
    check(got['features'] == base['features'] and 'warning' not in err,
          'ENABLE=%r should change nothing: %r' % (blank, err))
top = [t for t in fn['compiled'] if t != 'baseline' and t in detected]
if top:
    got, err = info({DIS: ' ', EN: top[-1]})
    check(got['functions']['cpud_demo_sum_f32']['selected'] == top[-1],
          'a blank DISABLE beside ENABLE=%s should select it, got %s' % (top[-1], got['functions']))

# The warnings compare a name with what this program's dispatch sources were
# compiled for (ELF: the records every generated header leaves), not with
# the build's cpu-dispatch set (docs/runtime.md): a feature of the build's
# set that no compiled target needs changes nothing, and says so; one a
# compiled target needs says nothing. Windows keeps no record: there the
# build's set is compared, and such a feature is not warned about.
if CONFIG:
    sys.dont_write_bytecode = True
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'src', 'build_side'))
    import cpudispatch_grammar as grammar
    from cpudispatch_model import Model
    cfg = Model.load(CONFIG)
    needs = set()
    for f in base['functions'].values():
        for t in f['compiled']:
            for m in grammar.members(cfg, t) if t != 'baseline' else []:
                needs |= {m} | set(cfg.closure[m])
    spare = [d for d in base['dispatch'] if d not in needs and d not in base['baseline']]
    windows = INFO.endswith('.exe')
    if spare:
        got, err = info({DIS: spare[0]})
        said = '%s: %s is not a target any dispatch source of this program was compiled for; it changes nothing' % (
            DIS, spare[0])
        if windows:
            check('warning' not in err, 'DISABLE=%s (in the build\'s set; Windows keeps no record): no warning '
                  'expected, got %r' % (spare[0], err))
        else:
            check(said in err, 'DISABLE=%s (compiled by no source of this program): expected %r, got %r'
                  % (spare[0], said, err))
        sel = lambda d: {k: v['selected'] for k, v in d['functions'].items()}
        check(sel(got) == sel(base), 'DISABLE=%s changed a selection: %r, was %r' % (spare[0], sel(got), sel(base)))
        print('DISABLE=%s: %s' % (spare[0], err.strip() or 'no warning'))
    else:
        print('every feature of the build\'s dispatch set is needed by a compiled target: nothing to compare')
    used = [t for t in fn['compiled'] if t != 'baseline']
    if used:
        got, err = info({DIS: used[-1]})
        check('changes nothing' not in err, 'DISABLE=%s (a compiled target) should not warn: %r' % (used[-1], err))

if failures:
    print('\n'.join('FAIL: ' + f for f in failures))
    sys.exit(1)
print('PASS: %d compiled targets checked on %s' % (len(fn['compiled']), arch))
