#!/usr/bin/env python3
"""cpudispatch's test setups, the way a consumer uses them: test/setups/fixture
(cpudispatch as its subproject, a C test and a gtest-protocol test of its own)
configured once, then reconfigured with each planted bug:

  none           plain `meson test`, `--setup cpudispatch:each_target` and
                 `--setup cpudispatch:each_cpu` all pass;
  avx2-wrong     the AVX2 build alone returns a wrong sum: plain `meson test`
                 passes on a host with AVX-512 (it never runs the AVX2 build),
                 each_target fails naming AVX2 in the test log, each_cpu
                 fails naming Haswell (the model whose best target is AVX2),
                 and the target_AVX2 / cpu_Haswell setups fail;
  baseline-avx2  baseline code compiled with -mavx2: each_cpu fails naming
                 Nehalem (killed by SIGILL), and cpu_Nehalem fails.

  run_setups.py SOURCE_ROOT   (exit 0 pass, 1 fail, 77 skip: no qemu-x86_64)
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

root = os.path.abspath(sys.argv[1])
here = os.path.dirname(os.path.abspath(__file__))
failures = []


def sh(cmd, cwd=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith('CPUDISPATCH_')}
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env)


def meson_test(build, setup=None):
    r = sh(['meson', 'test', '-C', build, '--print-errorlogs'] + (['--setup', setup] if setup else []))
    out = r.stdout + r.stderr
    # Passing tests' output is only in meson's log: what the test log shows.
    log = os.path.join(build, 'meson-logs', 'testlog%s.json' % ('-' + setup.replace(':', '_') if setup else ''))
    if os.path.exists(log):
        for line in open(log):
            t = json.loads(line)
            out += '\n%s\n%s\n' % (t.get('stdout') or '', t.get('stderr') or '')
    return r.returncode, out


def has_avx512_skx():
    flags = set()
    for line in open('/proc/cpuinfo'):
        if line.startswith('flags'):
            flags = set(line.split(':', 1)[1].split())
            break
    return {'avx512f', 'avx512cd', 'avx512bw', 'avx512dq', 'avx512vl', 'avx2', 'fma'} <= flags


def expect(build, setup, ok, needles=(), what=''):
    rc, out = meson_test(build, setup)
    label = '%s: meson test%s' % (what, ' --setup ' + setup if setup else '')
    print('%-60s -> %s' % (label, 'pass' if rc == 0 else 'fail (%d)' % rc))
    if (rc == 0) != ok:
        failures.append('%s: expected %s, got status %d\n%s' % (label, 'a pass' if ok else 'a failure', rc,
                                                                out[-3000:]))
        return
    for n in needles:
        if not re.search(n, out):
            failures.append('%s: the log does not say %r\n%s' % (label, n, out[-3000:]))


def main():
    if not shutil.which('qemu-x86_64'):
        print('SKIP: qemu-x86_64 is not installed')
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        proj = os.path.join(tmp, 'fixture')
        shutil.copytree(os.path.join(here, 'fixture'), proj)
        os.makedirs(os.path.join(proj, 'subprojects'))
        os.symlink(root, os.path.join(proj, 'subprojects', 'cpudispatch'))
        b = os.path.join(tmp, 'b')
        r = sh(['meson', 'setup', b, proj, '-Dcpudispatch:cpu-dispatch=sse42 avx2 avx512_skx'])
        if r.returncode != 0:
            print(r.stdout + r.stderr)
            return 1
        for bug in ('none', 'avx2-wrong', 'baseline-avx2', 'none'):
            r = sh(['meson', 'configure', b, '-Dbug=' + bug])
            if r.returncode != 0:
                failures.append('meson configure -Dbug=%s: %s' % (bug, r.stdout + r.stderr))
                continue
            if bug == 'none':
                expect(b, None, True, what=bug)
                expect(b, 'cpudispatch:each_target', True,
                       [r'cpudispatch-run: ok under targets baseline SSE42 AVX2'], what=bug)
                expect(b, 'cpudispatch:each_cpu', True,
                       [r'cpudispatch-run: ok under models qemu64 core2duo Nehalem SandyBridge Haswell'], what=bug)
            elif bug == 'avx2-wrong':
                if has_avx512_skx():
                    # The point of the setups: the host's best target hides the bug.
                    expect(b, None, True, what=bug)
                expect(b, 'cpudispatch:each_target', False,
                       [r'AVX2 FAILED \(exit 1\)', r'FAILED under targets AVX2\n', r'SSE42 ok'], what=bug)
                expect(b, 'cpudispatch:target_AVX2', False, what=bug)
                expect(b, 'cpudispatch:target_SSE42', True, what=bug)
                expect(b, 'cpudispatch:each_cpu', False,
                       [r'Haswell FAILED \(exit 1\)', r'FAILED under models Haswell\n', r'Nehalem ok'], what=bug)
                expect(b, 'cpudispatch:cpu_Haswell', False, what=bug)
            else:
                expect(b, 'cpudispatch:each_cpu', False,
                       [r'Nehalem FAILED \(killed by SIGILL\)', r'Haswell ok'], what=bug)
                expect(b, 'cpudispatch:cpu_Nehalem', False, what=bug)
                expect(b, 'cpudispatch:cpu_Haswell', True, what=bug)
    if failures:
        print('\n'.join('FAIL: ' + f for f in failures))
        return 1
    print('PASS')
    return 0


if __name__ == '__main__':
    sys.exit(main())
