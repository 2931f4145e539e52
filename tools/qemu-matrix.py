#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs a build's CPU-dependent test suites under emulated CPU models.

  qemu-matrix.py [--below M1,M2] [--models M1,M2] BUILD_DIR [MODEL ...]
      (default models: every model listed below for the build's arch)

--below names the models that lack part of the build's baseline: there
every compiled test program must refuse to start with the baseline message
and exit status 69 (Python-driven tests are reported as skipped there).

Every test of the suites seed, runtime and isa (from `meson introspect
--tests`) runs once per model (the recorded-CPU replays of suite cpus under
the first model alone: their answers do not depend on the CPU), as many at
once as there are CPUs (those meson may not run in parallel alone): compiled test programs under
`qemu-ARCH -cpu MODEL`, Python-driven tests natively with
MESON_EXE_WRAPPER set so that the programs they start run under the model.
A Windows (MinGW) build's programs run in Wine under the same qemu models.
CPUD_TEST_CPU_FLAGS carries the model's features in /proc/cpuinfo spelling
(qemu-user shows the host's /proc/cpuinfo), from src/run/qemu-models.txt (the
one list of models, written from what those CPU generations have, not from
cpudispatch's tables): detection and selection are checked against it. Results go to BUILD_DIR/qemu-<MODEL>/meson-logs/testlog.json
(one JSON object per test, as meson writes), which tools/count_results.py reads.
"""
import concurrent.futures
import json
import os
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qemu_models import read_models  # noqa: E402  (tools/qemu_models.py)
from wine import IN_QEMU_ENV, WINE, keep_wineserver  # noqa: E402  (tools/wine.py)

SUITES = ('seed', 'runtime', 'isa')
ARCHES = read_models()


def build_arch(build):
    with open(os.path.join(build, 'include', 'cpudispatch_targets.txt')) as fh:
        for line in fh:
            if line.startswith('arch '):
                return line.split()[1]
    sys.exit('cannot tell the arch of ' + build)


def tests_of(build):
    out = subprocess.run(['meson', 'introspect', '--tests', build], capture_output=True, text=True, check=True)
    for t in json.loads(out.stdout):
        suites = {s.split(':', 1)[-1] for s in t['suite']}
        if suites & set(SUITES):
            yield t


def write_summary(build, model, wrapper, logdir, arch):
    """What this model exercised, for docs/testing.md's table
    (tools/matrix-table.py renders it)."""
    info = os.path.join(build, 'src', 'info', 'cpudispatch-info')
    if not os.path.exists(info) and os.path.exists(info + '.exe'):
        info += '.exe'
    env = dict(os.environ, **IN_QEMU_ENV)
    env.update(sysroot_env(wrapper, ARCHES[arch][1], env))
    r = subprocess.run(wrapper + [info, '--json'], capture_output=True, text=True, env=env)
    data = json.loads(r.stdout) if r.returncode == 0 else {}
    results = [json.loads(l) for l in open(os.path.join(logdir, 'testlog.json'))]
    isa = {x['name'].split('@')[0][4:]: x['result'] for x in results
           if x['name'].startswith('isa-') and not x['name'].split('@')[0].endswith('-runtime')}
    summary = {
        'arch': arch, 'model': model, 'order': list(ARCHES[arch][2]).index(model),
        'compiler': data.get('compiler', '?'),
        'detected': data.get('detected', []),
        'selected': sorted({f['selected'] for f in data.get('functions', {}).values()}),
        'targets_run': [t for t, res in isa.items() if res == 'OK'],
        'targets_absent': [t for t, res in isa.items() if res == 'SKIP'],
        'ok': sum(x['result'] == 'OK' for x in results), 'failed': sum(x['result'] == 'FAIL' for x in results),
    }
    with open(os.path.join(os.path.dirname(logdir), 'summary.json'), 'w') as fh:
        json.dump(summary, fh)


def sysroot_env(wrapper, sysroot, env):
    """The sysroot's libraries first where qemu-user runs with one (it hands
    the environment to the program): a host's ld.so.cache may list libraries
    of the arch from another glibc build (i386 ones on x86_64), which hang
    with the sysroot's loader (cross/i686-linux-gnu.txt)."""
    if '-L' not in wrapper:
        return {}
    return {'LD_LIBRARY_PATH': os.pathsep.join([os.path.join(sysroot, 'lib')] +
                                               ([env['LD_LIBRARY_PATH']] if env.get('LD_LIBRARY_PATH') else []))}


# The start-up check's line (docs/runtime.md): 'cpudispatch: PROJECT VERSION in this program was built for ...'.
BASELINE_MSG = ' in this program was built for '
EXIT_BASELINE = 69


def main():
    args = sys.argv[1:]
    below, only = set(), None
    while args and args[0] in ('--below', '--models'):
        if args[0] == '--below':
            below = set(args[1].split(','))
        else:
            only = args[1].split(',')
        args = args[2:]
    sys.argv = [sys.argv[0]] + args
    build = sys.argv[1]
    arch = build_arch(build)
    if arch not in ARCHES:
        print('no emulated models for', arch)
        return 0
    qemu, sysroot, table = ARCHES[arch]
    models = sys.argv[2:] or only or list(table)
    tests = list(tests_of(build))
    # A Windows build (MinGW): its programs run in Wine, and Wine itself
    # under qemu-user, which then emulates the model for the Windows code
    # too. WINELOADERNOEXEC keeps Wine from re-executing itself outside qemu.
    windows = any(c.endswith('.exe') for t in tests for c in t['cmd'][:1])
    # The recorded-CPU replays (suite cpus) do not depend on the CPU that
    # runs them: a Windows build's run under Wine in meson test alone (about
    # a hundred Wine starts per model saved), a Linux build's under the first
    # model too, the lowest (5 to 10 s a model; cpudispatch-info itself runs
    # under every model in suite runtime).
    replays = [t for t in tests if 'cpus' in {x.split(':', 1)[-1] for x in t['suite']}]
    tests = [t for t in tests if t not in replays]
    if windows:
        keep_wineserver()
        replays = []
    failed = 0
    for model in models:
        run = (replays if model == models[0] else []) + tests
        wrapper = [qemu, '-cpu', model] + (['-L', sysroot] if sysroot and os.uname().machine != arch else [])
        if windows:
            wrapper += [WINE]
        logdir = os.path.join(build, 'qemu-' + model.replace(',', '_').replace('=', '-'), 'meson-logs')
        os.makedirs(logdir, exist_ok=True)
        counts = {'OK': 0, 'FAIL': 0, 'SKIP': 0}

        def run_one(t):
            """(name, result, returncode, output, seconds) of one test."""
            name = '%s@%s' % (t['name'], model)
            env = dict(os.environ, **t['env'])
            if windows:
                env.update(IN_QEMU_ENV)
            # Always set, even when empty (a model with none of the features).
            env['CPUD_TEST_CPU_FLAGS'] = ' '.join(sorted(table[model])) or '-'
            env.update(sysroot_env(wrapper, sysroot, env))
            cmd = list(t['cmd'])
            scripted = os.path.basename(cmd[0]).startswith('python')
            if scripted:
                env['MESON_EXE_WRAPPER'] = ' '.join(wrapper)
            else:
                cmd = wrapper + cmd
            if model in below and scripted:
                return name, 'SKIP', None, '(below the baseline: scripted test)', 0.0
            start = time.time()
            try:
                r = subprocess.run(cmd, env=env, cwd=t.get('workdir') or build, capture_output=True,
                                   text=True, timeout=600)
                rc, out = r.returncode, r.stdout + r.stderr
            except subprocess.TimeoutExpired:
                rc, out = -1, 'timed out'
            result = 'OK' if rc == 0 else 'SKIP' if rc == 77 else 'FAIL'
            if model in below:
                # Must refuse to start: the message and the documented status.
                result = 'OK' if rc == EXIT_BASELINE and BASELINE_MSG in out else 'FAIL'
            return name, result, rc, out, time.time() - start

        # As meson test runs them: as many at once as there are CPUs, those
        # marked is_parallel: false alone, after the others.
        together = [t for t in run if t.get('is_parallel', True)]
        alone = [t for t in run if not t.get('is_parallel', True)]
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            results = list(pool.map(run_one, together))
        results += [run_one(t) for t in alone]
        with open(os.path.join(logdir, 'testlog.json'), 'w') as log:
            for name, result, rc, out, secs in results:
                counts[result] += 1
                if rc is None:
                    print('%-46s SKIP  %s' % (name, out))
                    log.write(json.dumps({'name': name, 'result': 'SKIP'}) + '\n')
                    continue
                skipped_cases = out.count('[  SKIPPED ]') // 2  # gtest prints each skip twice
                note = ' (%d gtest cases skipped)' % skipped_cases if skipped_cases else ''
                print('%-46s %-5s %6.2fs%s' % (name, result, secs, note))
                if result == 'FAIL':
                    failed += 1
                    print('\n'.join('    ' + l for l in out.splitlines()[-25:]))
                log.write(json.dumps({'name': name, 'result': result, 'returncode': rc}) + '\n')
        print('== %s: %d ok, %d failed, %d skipped' % (model, counts['OK'], counts['FAIL'], counts['SKIP']))
        if model not in below:
            write_summary(build, model, wrapper, logdir, arch)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
