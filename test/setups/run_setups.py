#!/usr/bin/env python3
"""cpudispatch's test setups, the way a consumer uses them: test/setups/fixture
(a C test and, where gtest is found, a gtest-protocol test of its own), with
cpudispatch from a release wrap (tools/make-wrap.py, --wrap-mode=nodownload),
configured once and reconfigured with each planted fault:

  none     plain `meson test`, `--setup cpudispatch:each_target` and
           `--setup cpudispatch:each_cpu` pass, naming every target and model;
  wrong    one target's build alone returns a wrong sum (AVX2; ASIMDDP):
           plain `meson test` passes where a higher target hides it (an
           AVX-512 host; qemu's default aarch64 CPU, which has SVE),
           each_target fails naming that target in the test log, each_cpu
           fails naming exactly the models whose best target it is (Haswell;
           cortex-a76), target_<T> and cpu_<model> fail, a lower target and
           model pass;
  helper   baseline code compiled above the baseline (-mavx2; +sve):
           each_cpu fails naming the models that lack it, killed by SIGILL,
           and a model that has it passes;
  none     again: the fault removed, every setup passes.
Windows (mingw) only, a baseline this machine lacks (XOP): every test
program refuses to start under Wine, status 69 and the one-line message.

  run_setups.py SOURCE_ROOT CASE   (CASE: x86_64 native, aarch64
  cross-built and run under qemu-aarch64, mingw cross-built for Windows
  with MinGW-w64 GCC and run under Wine, natively and inside qemu-x86_64;
  exit 0 pass, 1 fail, 77 skip)
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import cpu_facts  # noqa: E402  (test/cpu_facts.py)

root, case = os.path.abspath(sys.argv[1]), sys.argv[2]
here = os.path.dirname(os.path.abspath(__file__))
failures = []

CASES = {
    'x86_64': {
        'cross': None, 'qemu': 'qemu-x86_64', 'dispatch': 'sse42 avx2 avx512_skx',
        'wrong': 'AVX2', 'lower_target': 'SSE42', 'wrong_models': ['Haswell'], 'lower_model': 'Nehalem',
        'helper_args': ['-mavx2', '-O3'], 'helper_needs': 'avx2', 'gtest': True,
        'died': r'killed by SIGILL',
    },
    'aarch64': {
        'cross': 'aarch64-linux-gnu', 'qemu': 'qemu-aarch64', 'dispatch': 'asimdhp asimddp sve',
        'wrong': 'ASIMDDP', 'lower_target': 'ASIMDHP', 'wrong_models': ['cortex-a76'], 'lower_model': 'cortex-a53',
        'helper_args': ['-march=armv8.2-a+sve', '-O3'], 'helper_needs': 'sve', 'gtest': False,
        'died': r'killed by SIGILL',
    },
}
# Windows: cpudispatch-run is a build-machine program there, and the tests
# reach it as `wine64 TEST.exe`; a program that dies of an illegal
# instruction ends with status 29 under Wine (0xC000001D's low byte).
CASES['mingw'] = dict(CASES['x86_64'], cross='x86_64-w64-mingw32', died=r'exit 29: STATUS_ILLEGAL_INSTRUCTION under Wine')
C = CASES[case]


def sh(cmd, cwd=None):
    env = {k: v for k, v in os.environ.items() if not re.match(r'^\w+_(DISABLE|ENABLE)_CPU_FEATURES$', k)}
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env)


def meson_test(build, setup=None, extra=('--no-suite', 'slow')):
    r = sh(['meson', 'test', '-C', build, '--print-errorlogs'] + (['--setup', setup] if setup else []) + list(extra))
    out = r.stdout + r.stderr
    # Passing tests' output is only in meson's log: what the test log shows.
    log = os.path.join(build, 'meson-logs', 'testlog%s.json' % ('-' + setup.replace(':', '_') if setup else ''))
    if os.path.exists(log):
        for line in open(log):
            t = json.loads(line)
            out += '\n%s\n%s\n' % (t.get('stdout') or '', t.get('stderr') or '')
    return r.returncode, out


def host_hides(target):
    """True when a plain run's best target is above `target` (so a plain
    `meson test` never runs its build)."""
    if case == 'aarch64':
        return True  # qemu-aarch64's default CPU ("max") has SVE
    return cpu_facts.X86_NEEDS['AVX512_SKX'] <= cpu_facts.host_flags(quiet=True)


def expect(build, setup, ok, needles=(), what=''):
    rc, out = meson_test(build, setup)
    label = '%s %s: meson test%s' % (case, what, ' --setup ' + setup if setup else '')
    print('%-72s -> %s' % (label, 'pass' if rc == 0 else 'fail (%d)' % rc))
    if (rc == 0) != ok:
        failures.append('%s: expected %s, got status %d\n%s' % (label, 'a pass' if ok else 'a failure', rc,
                                                                out[-3000:]))
        return
    for n in needles:
        if not re.search(n, out):
            failures.append('%s: the log does not say %r\n%s' % (label, n, out[-3000:]))


def configure(b, **opts):
    args = ['-D%s=%s' % kv for kv in opts.items()]
    r = sh(['meson', 'configure', b] + args)
    if r.returncode != 0:
        failures.append('meson configure %s: %s' % (' '.join(args), r.stdout + r.stderr))
    return r.returncode == 0


def run_case(tmp):
    proj = os.path.join(tmp, 'fixture')
    shutil.copytree(os.path.join(here, 'fixture'), proj)
    sub = os.path.join(proj, 'subprojects')
    os.makedirs(sub)
    r = sh([sys.executable, os.path.join(root, 'tools', 'make-wrap.py'), sub, '--allow-dirty'])
    if r.returncode != 0:
        failures.append('make-wrap.py: ' + r.stdout + r.stderr)
        return
    b = os.path.join(tmp, 'b')
    cross = ['--cross-file', os.path.join(root, 'cross', C['cross'] + '.txt')] if C['cross'] else []
    if case == 'mingw':
        err = cpu_facts.keep_wineserver()
        if err:
            failures.append(err)
            return
    r = sh(['meson', 'setup', b, proj, '--wrap-mode=nodownload', '-Dcpudispatch:cpu-dispatch=' + C['dispatch']]
           + cross)
    if r.returncode != 0:
        failures.append('meson setup: ' + (r.stdout + r.stderr)[-3000:])
        return
    if not os.path.isdir(os.path.join(sub, 'cpudispatch-' + open(os.path.join(sub, 'cpudispatch.wrap')).read()
                                      .split('directory = cpudispatch-')[1].split()[0])):
        failures.append('the release wrap was not unpacked into subprojects/')
    tests = sh(['meson', 'test', '-C', b, '--list']).stdout.split()
    if C['gtest'] and not any(t.endswith('sum-gtest') for t in tests):
        failures.append('the gtest-protocol test is not defined (is libgtest-dev installed?): %s' % tests)
    # Every setup the docs name exists (on aarch64: the arch-neutral ones),
    # but those they say do not ("... says "Unknown test setup"": a group).
    documented, absent = set(), set()
    for doc in ('README.md', 'docs/quickstart.md', 'docs/testing-your-code.md', 'docs/testing.md'):
        text = open(os.path.join(root, doc)).read()
        documented |= set(re.findall(r'--setup cpudispatch:(\w+)', text))
        absent |= set(re.findall(r'--setup cpudispatch:(\w+)` says "Unknown test setup"', text))
    for name in sorted(documented):
        if case == 'aarch64' and name not in ('each_target', 'each_cpu'):
            continue
        r = subprocess.run(['meson', 'test', '-C', b, '--list', '--setup', 'cpudispatch:' + name],
                           capture_output=True, text=True)
        if name in absent and (r.returncode == 0 or 'Unknown test setup' not in r.stdout + r.stderr):
            failures.append('the docs say --setup cpudispatch:%s is an "Unknown test setup"; this build has it, '
                            'or says otherwise: %s' % (name, (r.stdout + r.stderr)[-500:]))
        elif name not in absent and r.returncode != 0:
            failures.append('the docs name --setup cpudispatch:%s; this build has no such setup' % name)
    all_models = cpu_facts.models('aarch64' if case == 'aarch64' else 'x86_64')
    names = list(all_models)
    lacking = [m for m, f in all_models.items() if C['helper_needs'] not in f]
    having = [m for m, f in all_models.items() if C['helper_needs'] in f]
    slow_done = False
    for fault in ('none', 'wrong', 'helper', 'none'):
        if not configure(b, wrong=C['wrong'] if fault == 'wrong' else '',
                         helper_args=','.join(C['helper_args']) if fault == 'helper' else '[]'):
            continue
        if fault == 'none':
            expect(b, None, True, what=fault)
            expect(b, 'cpudispatch:each_target', True, [r'cpudispatch-run: ok under targets baseline %s %s'
                                                        % (C['lower_target'], C['wrong'])], what=fault)
            expect(b, 'cpudispatch:each_cpu', True, [r'cpudispatch-run: ok under models %s\n' % ' '.join(names)],
                   what=fault)
        elif fault == 'wrong':
            if host_hides(C['wrong']):
                expect(b, None, True, what=fault)  # the point of the setups: the best target hides the bug
            expect(b, 'cpudispatch:each_target', False,
                   [r'%s FAILED \(exit 1\)' % C['wrong'], r'FAILED under targets %s\n' % C['wrong'],
                    r'%s ok' % C['lower_target']], what=fault)
            expect(b, 'cpudispatch:target_' + C['wrong'], False, what=fault)
            expect(b, 'cpudispatch:target_' + C['lower_target'], True, what=fault)
            expect(b, 'cpudispatch:each_cpu', False,
                   [r'%s FAILED \(exit 1\)' % m for m in C['wrong_models']]
                   + [r'FAILED under models %s\n' % ' '.join(C['wrong_models']), r'%s ok' % C['lower_model']],
                   what=fault)
            expect(b, 'cpudispatch:cpu_' + C['wrong_models'][0].replace('-', '_'), False, what=fault)
        else:
            expect(b, 'cpudispatch:each_cpu', False,
                   [r'%s FAILED \(%s\)' % (m, C['died']) for m in lacking]
                   + [r'FAILED under models %s\n' % ' '.join(lacking)] + [r'%s ok' % m for m in having],
                   what=fault)
            expect(b, 'cpudispatch:cpu_' + lacking[0].replace('-', '_'), False, what=fault)
            expect(b, 'cpudispatch:cpu_' + having[0].replace('-', '_'), True, what=fault)
        if fault == 'none' and not slow_done:
            slow_done = True
            timeouts_and_once(b)
    if case != 'aarch64':  # cpudispatch-run runs here directly
        stale_record(b, proj)
    if case == 'mingw':  # last: it rebuilds everything (cpudispatch-run too) for XOP
        impossible_baseline(b)


def impossible_baseline(b):
    """-Dcpudispatch:cpu-baseline=xop where the CPU has no XOP: under Wine,
    each program's start-up check exits 69 with its message, before any of
    the program's code (the fixture's tests would pass otherwise)."""
    if 'xop' in cpu_facts.host_flags(quiet=True):
        print('%s: this CPU has XOP: no impossible baseline to try' % case)
        return
    if not configure(b, **{'cpudispatch:cpu-baseline': 'xop'}):
        return
    # The fixture's project: cpudispatch-setups-fixture.
    want = [r'cpudispatch: cpudispatch-setups-fixture in this program was built for x86_64 CPUs with .*XOP.* '
            r'\(its baseline\), but this CPU lacks XOP\b', r'exit status 69']
    expect(b, None, False, want, what='cpu-baseline=xop')
    configure(b, **{'cpudispatch:cpu-baseline': 'min'})


def timeouts_and_once(b):
    """Suite slow: `sleeper` (1.2 s of a 2 s timeout) passes under each_target
    and each_cpu, which run it several times and scale the timeout by the
    runs they can make; `once` (CPUDISPATCH_RUN=once) runs once under each.
    The control: each_target with the timeout multiplier forced to 1 (-t 1)
    times the sleeper out where it runs it twice or more."""
    runs = os.path.join(b, 'once-runs.txt')
    count = lambda: len(open(runs).read().split()) if os.path.exists(runs) else 0
    many = 0
    for setup in ('cpudispatch:each_target', 'cpudispatch:each_cpu'):
        before = count()
        rc, out = meson_test(b, setup, ['--suite', 'slow'])
        if setup.endswith('each_target'):
            many = len(set(re.findall(r'cpudispatch-run: == target (\S+) ==', out)))
        label = '%s: meson test --suite slow --setup %s' % (case, setup)
        print('%-72s -> %s, once ran %d time(s)' % (label, 'pass' if rc == 0 else 'fail (%d)' % rc, count() - before))
        if rc != 0:
            failures.append('%s: the sleeper or the once test failed (status %d)\n%s' % (label, rc, out[-3000:]))
        if count() - before != 1 or 'CPUDISPATCH_RUN=once: the command runs once, as it is' not in out:
            failures.append('%s: the test marked CPUDISPATCH_RUN=once ran %d times' % (label, count() - before))
    rc, out = meson_test(b, 'cpudispatch:each_target', ['--suite', 'slow', '-t', '1'])
    print('%s: control, each_target with -t 1 -> %s (%d runs of the sleeper)' % (case, rc, many))
    if many >= 2 and (rc == 0 or 'TIMEOUT' not in out):
        failures.append('control: with the timeout multiplier forced to 1 the sleeper (%d runs) should time out'
                        % many)
    elif many < 2:
        print('  (one target runs here: the control cannot time out, not asserted)')


def stale_record(b, proj):
    """A dispatch source renamed or removed since the last configure leaves
    its record (what --each-target iterates over) behind only until the next
    configure: plant one, see cpudispatch-run read it, reconfigure, see it go."""
    dirs = glob.glob(os.path.join(b, 'subprojects', 'cpudispatch-*', 'src', 'run', 'sources'))
    exe = glob.glob(os.path.join(b, 'subprojects', 'cpudispatch-*', 'src', 'run', 'cpudispatch-run'))
    if len(dirs) != 1 or len(exe) != 1:
        failures.append('cannot find the wrap build\'s src/run/sources and cpudispatch-run: %s %s' % (dirs, exe))
        return
    before = sh([exe[0], '--list-targets']).stdout.split()
    with open(os.path.join(dirs[0], 'renamed_away.txt'), 'w') as fh:
        fh.write('baseline SSE41\n')
    planted = sh([exe[0], '--list-targets']).stdout.split()
    r = sh(['meson', 'setup', '--reconfigure', b, proj])
    after = sh([exe[0], '--list-targets']).stdout.split()
    print('%s stale record: --list-targets %s; with a planted record %s; after reconfiguring %s'
          % (case, ' '.join(before), ' '.join(planted), ' '.join(after)))
    if 'SSE41' in before or 'SSE41' not in planted:
        failures.append('the planted record should add SSE41 to --list-targets: %s -> %s' % (before, planted))
    if r.returncode != 0 or after != before:
        failures.append('after a reconfigure, --list-targets should be %s again, got %s\n%s'
                        % (before, after, (r.stdout + r.stderr)[-2000:]))


def main():
    need = [C['qemu']] + ([C['cross'] + '-gcc'] if C['cross'] else []) + ([cpu_facts.WINE] if case == 'mingw' else [])
    missing = [n for n in need if not shutil.which(n)]
    if missing:
        print('SKIP: not installed: ' + ' '.join(missing))
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        run_case(tmp)
    if failures:
        print('\n'.join('FAIL: ' + f for f in failures))
        return 1
    print('PASS')
    return 0


if __name__ == '__main__':
    sys.exit(main())
