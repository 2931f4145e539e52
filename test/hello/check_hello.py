#!/usr/bin/env python3
"""Runs a hello program and checks its "all:" and "highest:" lines against an
oracle that does not use cpudispatch: the CPU flags in /proc/cpuinfo with
the test's own CPUID reader (test/cpu_facts.py), or $CPUD_TEST_CPU_FLAGS,
for emulated CPUs whose flags /proc does not show."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import cpu_facts  # noqa: E402  (test/cpu_facts.py)
import exe_wrapper  # noqa: E402  (test/exe_wrapper.py)

# cpuinfo flags each target of the seed example needs (its implied features).
NEEDS = {
    'SSE42': 'sse sse2 pni ssse3 sse4_1 popcnt sse4_2',
    'AVX512F': 'sse sse2 pni ssse3 sse4_1 popcnt sse4_2 avx f16c fma avx2 avx512f',
}


def cpu_flags():
    env = os.environ.get('CPUD_TEST_CPU_FLAGS')
    if env:
        return set(env.split())
    flags = cpu_facts.host_flags(quiet=True)
    if not flags:
        sys.exit('no flags line in /proc/cpuinfo')
    return flags


def main():
    # Cross builds run the program through the exe wrapper (qemu).
    wrapper = exe_wrapper.command()
    out = subprocess.run(wrapper + sys.argv[1:], capture_output=True, text=True)
    sys.stdout.write(out.stdout)
    sys.stderr.write(out.stderr)
    if out.returncode != 0:
        sys.exit('program failed with status %d' % out.returncode)
    lines = dict(l.split(':', 1) for l in out.stdout.splitlines() if ':' in l)
    compiled = lines['compiled'].split()
    x86 = [t for t in compiled if t != 'baseline']
    if x86 and not os.environ.get('CPUD_TEST_CPU_FLAGS') and os.path.basename(wrapper[0] if wrapper else '').startswith(
            'qemu-'):
        # 32-bit x86 under qemu-user's default model: /proc/cpuinfo and this
        # machine's CPUID reader describe the host, not the emulated CPU.
        print('SKIP: the program runs under %s, whose CPU this machine\'s flags do not describe; '
              'tools/qemu-matrix.py runs this test under each model with CPUD_TEST_CPU_FLAGS' % wrapper[0])
        sys.exit(77)
    # Off x86 the seed's targets are names of another arch: only baseline.
    have = cpu_flags() if x86 else set()
    runnable = [t for t in compiled if t == 'baseline' or set(NEEDS[t].split()) <= have]
    got_all = lines['all'].split()
    got_best = lines['highest'].split()
    errors = []
    if got_all != runnable:
        errors.append('all: expected %s, got %s' % (runnable, got_all))
    if got_best != runnable[:1]:
        errors.append('highest: expected %s, got %s' % (runnable[:1], got_best))
    if 'baseline' not in compiled:
        errors.append('baseline missing from compiled targets %s' % compiled)
    if errors:
        sys.exit('\n'.join(errors))
    print('ok: %d runnable of %d compiled' % (len(runnable), len(compiled)))


if __name__ == '__main__':
    main()
