#!/usr/bin/env python3
"""Runs a build's CPU-dependent test suites under emulated x86 CPU models.

  qemu-matrix.py BUILD_DIR [MODEL ...]      (default: qemu64 core2duo Nehalem SandyBridge Haswell)

Every test of the suites seed, runtime and isa (from `meson introspect
--tests`) runs once per model: compiled test programs under
`qemu-x86_64 -cpu MODEL`, Python-driven tests natively with
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
MODELS = {
    'qemu64': 'sse sse2 pni cx16 lahf_lm',
    'core2duo': CORE2,
    'Nehalem': CORE2 + ' sse4_1 sse4_2 popcnt',
    'SandyBridge': CORE2 + ' sse4_1 sse4_2 popcnt avx aes pclmulqdq',
    'Haswell': CORE2 + ' sse4_1 sse4_2 popcnt avx aes pclmulqdq f16c fma avx2 bmi1 bmi2 abm movbe',
}


def tests_of(build):
    out = subprocess.run(['meson', 'introspect', '--tests', build], capture_output=True, text=True, check=True)
    for t in json.loads(out.stdout):
        suites = {s.split(':', 1)[-1] for s in t['suite']}
        if suites & set(SUITES):
            yield t


def main():
    build = sys.argv[1]
    models = sys.argv[2:] or list(MODELS)
    tests = list(tests_of(build))
    failed = 0
    for model in models:
        wrapper = ['qemu-x86_64', '-cpu', model]
        logdir = os.path.join(build, 'qemu-' + model, 'meson-logs')
        os.makedirs(logdir, exist_ok=True)
        counts = {'OK': 0, 'FAIL': 0, 'SKIP': 0}
        with open(os.path.join(logdir, 'testlog.json'), 'w') as log:
            for t in tests:
                env = dict(os.environ, **t['env'])
                env['CPUD_TEST_CPU_FLAGS'] = MODELS[model]
                cmd = list(t['cmd'])
                if os.path.basename(cmd[0]).startswith('python'):
                    env['MESON_EXE_WRAPPER'] = ' '.join(wrapper)
                else:
                    cmd = wrapper + cmd
                start = time.time()
                try:
                    r = subprocess.run(cmd, env=env, cwd=t.get('workdir') or build, capture_output=True,
                                       text=True, timeout=600)
                    rc, out = r.returncode, r.stdout + r.stderr
                except subprocess.TimeoutExpired:
                    rc, out = -1, 'timed out'
                result = 'OK' if rc == 0 else 'SKIP' if rc == 77 else 'FAIL'
                counts[result] += 1
                name = '%s@%s' % (t['name'], model)
                print('%-46s %-5s %6.2fs' % (name, result, time.time() - start))
                if result == 'FAIL':
                    failed += 1
                    print('\n'.join('    ' + l for l in out.splitlines()[-25:]))
                log.write(json.dumps({'name': name, 'result': result, 'returncode': rc}) + '\n')
        print('== %s: %d ok, %d failed, %d skipped' % (model, counts['OK'], counts['FAIL'], counts['SKIP']))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
