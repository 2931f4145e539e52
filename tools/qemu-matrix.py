#!/usr/bin/env python3
"""Runs a build's CPU-dependent test suites under emulated CPU models.

  qemu-matrix.py [--below M1,M2] BUILD_DIR [MODEL ...]
      (default models: every model listed below for the build's arch)

--below names the models that lack part of the build's baseline: there
every compiled test program must refuse to start with the baseline message
and exit status 69 (Python-driven tests are reported as skipped there).

Every test of the suites seed, runtime and isa (from `meson introspect
--tests`) runs once per model: compiled test programs under
`qemu-ARCH -cpu MODEL`, Python-driven tests natively with
MESON_EXE_WRAPPER set so that the programs they start run under the model.
CPUD_TEST_CPU_FLAGS carries the model's features in /proc/cpuinfo spelling
(qemu-user shows the host's /proc/cpuinfo), written here from what those CPU
generations have, not from cpudispatch's tables: detection and selection are
checked against it. Results go to BUILD_DIR/qemu-<MODEL>/meson-logs/testlog.json
(one JSON object per test, as meson writes), which tools/count_results.py reads.
"""
import json
import os
import subprocess
import sys
import time

SUITES = ('seed', 'runtime', 'isa')
CORE2 = 'sse sse2 pni cx16 lahf_lm ssse3'
AA_V82 = 'fp asimd fphp asimdhp'
# arch -> (qemu binary, sysroot for cross builds, {model: features}).
ARCHES = {
    'x86_64': ('qemu-x86_64', None, {
        'qemu64': 'sse sse2 pni cx16 lahf_lm',
        'core2duo': CORE2,
        'Nehalem': CORE2 + ' sse4_1 sse4_2 popcnt',
        'SandyBridge': CORE2 + ' sse4_1 sse4_2 popcnt avx aes pclmulqdq',
        'Haswell': CORE2 + ' sse4_1 sse4_2 popcnt avx aes pclmulqdq f16c fma avx2 bmi1 bmi2 abm movbe',
    }),
    'aarch64': ('qemu-aarch64', '/usr/aarch64-linux-gnu', {
        'cortex-a53': 'fp asimd',
        'cortex-a76': AA_V82 + ' asimddp',
        'a64fx': AA_V82 + ' sve',
        'max': AA_V82 + ' asimddp asimdfhm sve sve2',
    }),
    'ppc64le': ('qemu-ppc64le', '/usr/powerpc64le-linux-gnu', {
        'power8': 'vsx arch_2_07',
        'power9': 'vsx arch_2_07 arch_3_00',
        'power10': 'vsx arch_2_07 arch_3_00 arch_3_1',
    }),
    # qemu 7.2 cannot start the named z models under TCG; "max" with facilities
    # switched off stands in. It never reports VXRS_EXT2 in AT_HWCAP, so VXE2
    # cannot be shown detected here (docs/testing.md).
    's390x': ('qemu-s390x', '/usr/s390x-linux-gnu', {
        'max,vx=off,vxeh=off,vxeh2=off': '',
        'max,vxeh=off,vxeh2=off': 'vx',
        'max,vxeh2=off': 'vx vxe',
        'max': 'vx vxe',
    }),
    'riscv64': ('qemu-riscv64', '/usr/riscv64-linux-gnu', {
        'rv64': '',
        'rv64,v=true,vlen=256,elen=64,vext_spec=v1.0': 'v',
    }),
}


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
    r = subprocess.run(wrapper + [info, '--json'], capture_output=True, text=True)
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


BASELINE_MSG = 'cpudispatch: this program was built for'
EXIT_BASELINE = 69


def main():
    args = sys.argv[1:]
    below = set()
    if args and args[0] == '--below':
        below = set(args[1].split(','))
        args = args[2:]
    sys.argv = [sys.argv[0]] + args
    build = sys.argv[1]
    arch = build_arch(build)
    if arch not in ARCHES:
        print('no emulated models for', arch)
        return 0
    qemu, sysroot, table = ARCHES[arch]
    models = sys.argv[2:] or list(table)
    tests = list(tests_of(build))
    failed = 0
    for model in models:
        wrapper = [qemu, '-cpu', model] + (['-L', sysroot] if sysroot and os.uname().machine != arch else [])
        logdir = os.path.join(build, 'qemu-' + model.replace(',', '_').replace('=', '-'), 'meson-logs')
        os.makedirs(logdir, exist_ok=True)
        counts = {'OK': 0, 'FAIL': 0, 'SKIP': 0}
        with open(os.path.join(logdir, 'testlog.json'), 'w') as log:
            for t in tests:
                env = dict(os.environ, **t['env'])
                # Always set, even when empty (a model with none of the features).
                env['CPUD_TEST_CPU_FLAGS'] = table[model] or '-'

                cmd = list(t['cmd'])
                scripted = os.path.basename(cmd[0]).startswith('python')
                if scripted:
                    env['MESON_EXE_WRAPPER'] = ' '.join(wrapper)
                else:
                    cmd = wrapper + cmd
                if model in below and scripted:
                    counts['SKIP'] += 1
                    log.write(json.dumps({'name': '%s@%s' % (t['name'], model), 'result': 'SKIP'}) + '\n')
                    print('%-46s SKIP  (below the baseline: scripted test)' % ('%s@%s' % (t['name'], model)))
                    continue
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
                counts[result] += 1
                name = '%s@%s' % (t['name'], model)
                skipped_cases = out.count('[  SKIPPED ]') // 2  # gtest prints each skip twice
                note = ' (%d gtest cases skipped)' % skipped_cases if skipped_cases else ''
                print('%-46s %-5s %6.2fs%s' % (name, result, time.time() - start, note))
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
