#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""NumPy 1.26's own dispatch sources on stock Meson with cpudispatch: applies
the port to a copy of a NumPy checkout, configures it with an upstream
Meson, and (by step) builds it, runs NumPy's dispatch and SIMD tests, and
compares the configure with the fork's (docs/porting-from-numpy.md,
"Building NumPy itself"). Not part of CI: CI has no NumPy source.

  numpy-port.py --numpy SRC --meson MESON_PY --work DIR [--fork FORK_MESON_PY]
                [--steps port,configure,build,compare,fork-build,test,bench] [--jobs N]
                [--cross aarch64]

SRC: a NumPy 1.26 checkout with its submodules' files
(numpy/core/src/npysort/x86-simd-sort, numpy/core/src/umath/svml); it is
copied (DIR/src) and never changed. MESON_PY: an upstream Meson's meson.py
(NumPy 1.26 asks for >= 1.2.99). FORK_MESON_PY: the fork's meson.py, for
`compare` (it configures the untouched checkout, DIR/fork, and diffs every
dispatch header, the baseline and dispatch names and each object's flags)
and `fork-build` (builds and installs that configure, DIR/fork-dest): then
`test` runs NumPy's tests on both builds, and each run must fail only where
the fork's build fails (NumPy's feature tests compare __cpu_features__
with /proc/cpuinfo, which a mask makes disagree, on either build). Steps
run in the order port, configure, build, compare, fork-build, test, bench
(a few dispatched loops' times on both builds, in turn).

--cross aarch64: both configures cross-compile for aarch64 with
cross/aarch64-linux-gnu.txt and a Python of the build machine that reports
aarch64's configuration (DIR/python-aarch64: Debian's multiarch
libpython3.11-dev:arm64 has the headers and _sysconfigdata__aarch64-linux-gnu;
apt-get install it after dpkg --add-architecture arm64). Step test then
needs --host-python, an aarch64 Python 3.11 binary (Debian's
python3.11-minimal:arm64, unpacked with dpkg -x: its stdlib is the
multiarch packages'), which it runs under qemu-aarch64 with each
--qemu-cpu model (default max); bench is refused.

What `port` does to the copy, by pattern (nothing of NumPy's text is kept
in this repository): meson_cpu/meson.build becomes tools/numpy_port/
meson_cpu.build; each multi_targets call of numpy/core/meson.build becomes
the generator's loop (tools/numpy_port/rewrite.py); the Cython version
check accepts Debian 12's cython3 (0.29.32, which NumPy's check refuses
for want of 0.29.34); subprojects/ gets cpudispatch's release wrap
(tools/make-wrap.py: git HEAD of this repository).
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(HERE, 'numpy_port'))
import rewrite  # noqa: E402  (tools/numpy_port/rewrite.py)

CYTHON_CHECK = re.compile(r"(cy\.version\(\)\.version_compare\(')>=0\.29\.34('\))")
STEPS = ['port', 'configure', 'build', 'compare', 'fork-build', 'test', 'bench']
# The calls of NumPy 1.26.4's numpy/core/meson.build.
EXPECTED_SITES = 5
TESTS = ['numpy/core/tests/test_cpu_dispatcher.py', 'numpy/core/tests/test_cpu_features.py',
         'numpy/core/tests/test_simd.py', 'numpy/core/tests/test_umath.py']


def say(*a):
    print('numpy-port:', *a, flush=True)


def run(cmd, **kw):
    say('$', ' '.join(cmd))
    r = subprocess.run(cmd, **kw)
    if r.returncode != 0:
        sys.exit('numpy-port: %s failed (%d)' % (cmd[0], r.returncode))
    return r


def port(a):
    src = os.path.join(a.work, 'src')
    shutil.rmtree(src, ignore_errors=True)
    shutil.copytree(a.numpy, src, ignore=shutil.ignore_patterns('.git'), symlinks=True)
    for sub in ('numpy/core/src/npysort/x86-simd-sort/src', 'numpy/core/src/umath/svml/linux'):
        if not os.path.isdir(os.path.join(src, sub)):
            sys.exit('numpy-port: %s has no %s: fetch the submodules first' % (a.numpy, sub))
    shutil.copyfile(os.path.join(HERE, 'numpy_port', 'meson_cpu.build'), os.path.join(src, 'meson_cpu', 'meson.build'))
    core = os.path.join(src, 'numpy', 'core', 'meson.build')
    text, n = rewrite.rewrite(open(core).read())
    if n != EXPECTED_SITES or 'multi_targets' in re.sub(r'#.*', '', text):
        sys.exit('numpy-port: rewrote %d multi_targets calls of %s, expected %d and none left' % (n, core,
                                                                                               EXPECTED_SITES))
    open(core, 'w').write(text)
    top = os.path.join(src, 'meson.build')
    t, k = CYTHON_CHECK.subn(r"\g<1>>=0.29.32\g<2>", open(top).read())
    if k != 1:
        sys.exit('numpy-port: the Cython version check of %s is not where 1.26 has it' % top)
    open(top, 'w').write(t)
    subs = os.path.join(src, 'subprojects')
    os.makedirs(subs, exist_ok=True)
    run([sys.executable, os.path.join(ROOT, 'tools', 'make-wrap.py'), subs, '--allow-dirty'])
    say('ported: %d multi_targets calls, meson_cpu/meson.build, the Cython check, subprojects/cpudispatch.wrap' % n)


CROSS = {'aarch64': ('aarch64-linux-gnu', 'cross/aarch64-linux-gnu.txt')}


def cross_files(a):
    """The configure's --cross-file arguments for --cross (none without)."""
    if not a.cross:
        return []
    triple, ours = CROSS[a.cross]
    data = '_sysconfigdata__' + triple
    libdir = '/usr/lib/python%d.%d' % sys.version_info[:2]
    if not os.path.exists(os.path.join(libdir, data + '.py')):
        sys.exit('numpy-port: no %s/%s.py: dpkg --add-architecture %s && apt-get update && apt-get install '
                 'libpython%d.%d-dev:%s' % ((libdir, data, 'arm64') + sys.version_info[:2] + ('arm64',)))
    wrapper = os.path.join(a.work, 'python-' + a.cross)
    # The build machine's Python, reporting the host's configuration
    # (extension suffix, include paths) to Meson's python module; the
    # scripts NumPy runs at build time run on it as they are.
    open(wrapper, 'w').write('#!/bin/sh\nexport _PYTHON_SYSCONFIGDATA_NAME=%s _PYTHON_HOST_PLATFORM=linux-%s\n'
                             'exec %s "$@"\n' % (data, a.cross, sys.executable))
    os.chmod(wrapper, 0o755)
    ini = os.path.join(a.work, 'cross-python.ini')
    # Cython writes C for any machine, but Meson takes a cross build's
    # compilers from the cross file alone.
    cython = shutil.which('cython3') or shutil.which('cython') or 'cython3'
    open(ini, 'w').write("[binaries]\npython = '%s'\npython3 = '%s'\ncython = '%s'\n" % (wrapper, wrapper, cython))
    return ['--cross-file', os.path.join(ROOT, ours), '--cross-file', ini]


def configure(a, meson, src, build, extra=()):
    shutil.rmtree(build, ignore_errors=True)
    run([sys.executable, meson, 'setup', build, src, '-Dallow-noblas=true', '--buildtype=release']
        + cross_files(a) + list(a.meson_option) + list(extra))


def site_dir(dest):
    got = glob.glob(os.path.join(dest, '**', 'numpy', '__init__.py'), recursive=True)
    if not got:
        sys.exit('numpy-port: no numpy/__init__.py under %s' % dest)
    return os.path.dirname(os.path.dirname(got[0]))


def build(a):
    b = os.path.join(a.work, 'build')
    run(['ninja', '-C', b] + (['-j', str(a.jobs)] if a.jobs else []))
    dest = os.path.join(a.work, 'dest')
    shutil.rmtree(dest, ignore_errors=True)
    run([sys.executable, a.meson, 'install', '-C', b, '--destdir', dest, '--quiet'])
    say('installed under', site_dir(dest))


def numpy_env(a):
    env = dict(os.environ, PYTHONPATH=site_dir(os.path.join(a.work, 'dest')))
    for k in ('NPY_DISABLE_CPU_FEATURES', 'NPY_ENABLE_CPU_FEATURES'):
        env.pop(k, None)
    return env


def attrs(a, env):
    code = ('import json, numpy.core._multiarray_umath as m; '
            'print(json.dumps([m.__cpu_baseline__, m.__cpu_dispatch__, m.__cpu_features__]))')
    r = subprocess.run(a.python + ['-c', code], capture_output=True, text=True, env=env, cwd=a.work)
    if r.returncode != 0:
        sys.exit('numpy-port: importing the built NumPy failed: %s' % r.stderr[-2000:])
    return json.loads(r.stdout)


def pytest(a, site, env, cwd):
    """(exit status, the last line, the failing tests' ids from numpy/ on)."""
    tests = [os.path.join(site, t) for t in TESTS]
    r = subprocess.run(a.python + ['-m', 'pytest', '-q', '-rf', '-p', 'no:cacheprovider'] + tests, env=env,
                       cwd=cwd, capture_output=True, text=True)
    lines = r.stdout.strip().splitlines() or ['']
    failed = sorted(re.sub(r'^.*?(numpy/)', r'\1', l.split()[1]) for l in lines if l.startswith('FAILED '))
    return r.returncode, lines[-1], failed


def test(a):
    """test_on, on this machine's Python, or on --host-python under each
    of the qemu models (--cross)."""
    if not a.cross:
        a.python = [sys.executable]
        return test_on(a, '')
    if not a.host_python:
        sys.exit('numpy-port: step test of a --cross build needs --host-python (an %s Python)' % a.cross)
    bad = []
    for model in a.qemu_cpu or ['max']:
        a.python = ['qemu-' + a.cross, '-cpu', model, a.host_python]
        bad += test_on(a, 'qemu %s: ' % model, stop=False)
    if bad:
        sys.exit('numpy-port: NumPy\'s tests failed in: %s' % ', '.join(bad))


def test_on(a, where, stop=True):
    """NumPy's dispatch and SIMD tests, plainly and with every compiled
    target this CPU has on top (NumPy's NPY_DISABLE_CPU_FEATURES switching
    off all above it); with the fork's build installed (step fork-build),
    the same runs of it, and each run's failures must be the fork's."""
    builds = [('cpudispatch', os.path.join(a.work, 'dest'))]
    if os.path.isdir(os.path.join(a.work, 'fork-dest')):
        builds.append(('fork', os.path.join(a.work, 'fork-dest')))
    env = numpy_env(a)
    base, dispatch, features = attrs(a, env)
    say(where + '__cpu_baseline__:', ' '.join(base))
    say(where + '__cpu_dispatch__:', ' '.join(dispatch))
    here = [d for d in dispatch if features.get(d)]
    say(where + 'this CPU has:', ' '.join(here))
    runs = [('plain', None)] + [('top %s' % d, ' '.join(here[i + 1:])) for i, d in enumerate(here) if here[i + 1:]]
    bad = []
    for name, disable in runs:
        got = {}
        for who, dest in builds:
            e = dict(env, PYTHONPATH=site_dir(dest))
            if disable:
                e['NPY_DISABLE_CPU_FEATURES'] = disable
            rc, last, failed = pytest(a, site_dir(dest), e, a.work)
            got[who] = failed
            say('%s%-16s %-11s %s%s' % (where, name, who, last, (' [%s]' % ' '.join(failed)) if failed else ''))
        if disable:
            say('%16s NPY_DISABLE_CPU_FEATURES="%s"' % ('', disable))
        mine = got['cpudispatch']
        if (name == 'plain' and mine) or ('fork' in got and mine != got['fork']) or ('fork' not in got and mine):
            bad.append(name)
    bad = [where + b for b in bad]
    if bad and stop:
        sys.exit('numpy-port: NumPy\'s tests failed%s in: %s' % (
            '' if len(builds) == 1 else ' otherwise than the fork\'s build', ', '.join(bad)))
    if not bad:
        say('%sNumPy\'s tests: %d runs%s' % (where, len(runs), ', each failing as the fork\'s build fails'
                                             if len(builds) > 1 else ', all passing'))
    return bad


BENCH = r"""
import json, sys, timeit
import numpy as np
out = {}
for dt in ('float32', 'float64'):
    x = np.random.default_rng(1).random(1 << 20).astype(dt) + 1
    y = x[::-1].copy()
    for name, stmt in (('add', lambda: np.add(x, y)), ('sqrt', lambda: np.sqrt(x)), ('sort', lambda: np.sort(x)),
                       ('argmax', lambda: np.argmax(x))):
        t = timeit.Timer(stmt)
        n = max(1, int(0.05 / min(t.repeat(3, 1))))
        out['%s %s' % (name, dt)] = min(t.repeat(7, n)) / n
print(json.dumps(out))
"""


def bench(a):
    """A few dispatched loops on both builds, in turn, the same run: the
    best of 7 per round, the median of the rounds' bests."""
    builds = [('cpudispatch', os.path.join(a.work, 'dest')), ('fork', os.path.join(a.work, 'fork-dest'))]
    if not os.path.isdir(builds[1][1]):
        sys.exit('numpy-port: bench needs the fork\'s build: run step fork-build first')
    got = {who: [] for who, _ in builds}
    for _ in range(3):
        for who, dest in builds:
            env = dict(numpy_env(a), PYTHONPATH=site_dir(dest))
            r = subprocess.run([sys.executable, '-c', BENCH], env=env, cwd=a.work, capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit('numpy-port: bench failed on %s: %s' % (who, r.stderr[-1000:]))
            got[who].append(json.loads(r.stdout))
    say('%-16s %12s %12s %7s' % ('loop (2^20)', 'cpudispatch', 'fork', 'ratio'))
    for k in got['cpudispatch'][0]:
        med = {w: sorted(run[k] for run in got[w])[1] for w in got}
        say('%-16s %10.1f us %10.1f us %7.3f' % (k, med['cpudispatch'] * 1e6, med['fork'] * 1e6,
                                                med['cpudispatch'] / med['fork']))


def fork_build(a):
    """Builds and installs the fork's configure of step compare."""
    fb = os.path.join(a.work, 'fork-build')
    if not os.path.isdir(fb):
        sys.exit('numpy-port: fork-build needs the fork\'s configure: run step compare first')
    run(['ninja', '-C', fb] + (['-j', str(a.jobs)] if a.jobs else []))
    dest = os.path.join(a.work, 'fork-dest')
    shutil.rmtree(dest, ignore_errors=True)
    run([sys.executable, a.fork, 'install', '-C', fb, '--destdir', dest, '--quiet'])


def flag_sets(build):
    out = {}
    for c in json.load(open(os.path.join(build, 'compile_commands.json'))):
        m = re.search(r'lib(\w+?)(?:\.dispatch\.h)?_(baseline|[A-Z0-9_]+?)\.a\.p/', c['output'])
        if not m or c['output'].startswith('subprojects'):  # cpudispatch's own demo
            continue
        words = c['command'].split()
        key = '%s %s %s' % (m.group(1), m.group(2), os.path.basename(c['file']))
        out[key] = sorted(set(w for w in words if w.startswith('-m') or w.startswith('-DNPY_')))
    return out


def compare(a):
    if not a.fork:
        sys.exit('numpy-port: compare needs --fork FORK_MESON_PY')
    fb = os.path.join(a.work, 'fork-build')
    fork_src = os.path.join(a.work, 'fork')
    shutil.rmtree(fork_src, ignore_errors=True)
    shutil.copytree(a.numpy, fork_src, ignore=shutil.ignore_patterns('.git'), symlinks=True)
    top = os.path.join(fork_src, 'meson.build')
    text = CYTHON_CHECK.sub(r"\g<1>>=0.29.32\g<2>", open(top).read())
    open(top, 'w').write(text)
    configure(a, a.fork, fork_src, fb)
    ob = os.path.join(a.work, 'build')
    strip = lambda t: [l for l in t.splitlines() if not (l.startswith('/*') or l.startswith(' *'))]
    diffs = 0
    for h in sorted(glob.glob(os.path.join(fb, 'numpy', 'core', '*.dispatch.h'))):
        mine = os.path.join(ob, 'numpy', 'core', os.path.basename(h))
        same = os.path.exists(mine) and strip(open(h).read()) == strip(open(mine).read())
        diffs += not same
        say('header %-36s %s' % (os.path.basename(h), 'same' if same else 'DIFFERS'))
    for which in ('baseline', 'dispatch'):
        pat = re.compile(r'#define NPY_WITH_CPU_%s\s+"([^"]*)"' % which.upper())
        got = [pat.search(open(os.path.join(b, 'meson_cpu', 'npy_cpu_dispatch_config.h')).read())
               for b in (fb, ob)]
        f, o = [g.group(1).split() if g else None for g in got]
        say('%s names: fork %s; cpudispatch %s%s' % (which, ' '.join(f or []), ' '.join(o or []),
                                                      '' if f == o else ' (differ: fork only %s, ours only %s)'
                                                      % (sorted(set(f or []) - set(o or [])),
                                                         sorted(set(o or []) - set(f or [])))))
    f, o = flag_sets(fb), flag_sets(ob)
    for k in sorted(set(f) | set(o)):
        if k not in f or k not in o:
            diffs += 1
            say('object %s: only in %s' % (k, 'the fork\'s build' if k in f else 'cpudispatch\'s'))
        elif f[k] != o[k]:
            diffs += 1
            say('object %s: fork only %s; cpudispatch only %s' % (k, sorted(set(f[k]) - set(o[k])),
                                                                  sorted(set(o[k]) - set(f[k]))))
    say('%d objects compared, %d differences' % (len(set(f) & set(o)), diffs))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--numpy', required=True)
    ap.add_argument('--meson', required=True, help='an upstream Meson\'s meson.py')
    ap.add_argument('--work', required=True)
    ap.add_argument('--fork', help='the fork\'s meson.py (compare)')
    ap.add_argument('--steps', default='port,configure,build,test')
    ap.add_argument('--jobs', type=int, default=0)
    ap.add_argument('--meson-option', action='append', default=[], help='passed to both configures (-Dcpu-...)')
    ap.add_argument('--cross', choices=sorted(CROSS), help='cross-compile both builds (bench refused)')
    ap.add_argument('--host-python', help='with --cross: the host arch\'s Python binary, for step test')
    ap.add_argument('--qemu-cpu', action='append', default=[], help='with --cross: a qemu model step test runs '
                    'under (repeat; default max)')
    a = ap.parse_args()
    a.python = [sys.executable]
    a.numpy, a.work, a.meson = os.path.abspath(a.numpy), os.path.abspath(a.work), os.path.abspath(a.meson)
    a.fork = a.fork and os.path.abspath(a.fork)
    os.makedirs(a.work, exist_ok=True)
    steps = a.steps.split(',')
    for s in steps:
        if s not in STEPS:
            sys.exit('numpy-port: unknown step "%s" (%s)' % (s, ', '.join(STEPS)))
    if a.cross and 'bench' in steps:
        sys.exit('numpy-port: step bench times the build on this machine, which a --cross %s build is not for'
                 % a.cross)
    if 'port' in steps:
        port(a)
    if 'configure' in steps:
        configure(a, a.meson, os.path.join(a.work, 'src'), os.path.join(a.work, 'build'))
    if 'build' in steps:
        build(a)
    if 'compare' in steps:
        compare(a)
    if 'fork-build' in steps:
        fork_build(a)
    if 'test' in steps:
        test(a)
    if 'bench' in steps:
        bench(a)


if __name__ == '__main__':
    main()
