#!/usr/bin/env python3
"""Builds and tests examples/universal from scratch through the release wrap
(tools/make-wrap.py), as a user would. The example writes one float dot
product twice, with Google Highway's static dispatch (dot_hwy) and with
std::experimental::simd (dot_stdx), each in a dispatch source compiled once
per target; its test prints, per kernel, the build that ran and what the
library compiled it for: "dot_hwy ran on X86_V3 (Highway AVX2, 8 lanes): ...".

  - GCC release build: `meson test` passes with each kernel on the build this
    CPU selects; the benchmark runs; under cpudispatch:each_target and
    each_cpu (every qemu-x86_64 model) the test passes and each kernel ran on
    exactly the builds the CPUs select (test/cpu_facts.py is the oracle);
  - Clang debug build (libstdc++'s <experimental/simd> under Clang; nothing
    inlined, so every template is a weak copy per target, which the kernels
    archive must keep apart): the same under each_cpu;
  - with --cross, an aarch64 cross build under qemu-aarch64: the same under
    each_target (qemu's default CPU) and each_cpu (cortex-a53 ... max,sve256=on);
and every line's library target and lane count is the one the build's
flags give (Highway SSE4 / AVX2 / AVX3 / NEON / SVE / SVE_256; native_simd
4, 8, 16 lanes). Exit 77 (skipped), with the reason, where a compiler finds
no Highway headers or no <experimental/simd> (the example's configure
says so).   run_universal.py ROOT [--cross]
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import cpu_facts  # noqa: E402  (test/cpu_facts.py)
import release_wrap  # noqa: E402  (test/release_wrap.py)

root = sys.argv[1]
with_cross = '--cross' in sys.argv[2:]
failures, skips = [], []
started = time.monotonic()

# Each kernel's dispatch list (examples/universal/meson.build), highest
# first, with what a CPU needs for each build, in /proc/cpuinfo spelling.
# X86_V4 is x86-64-v4: x86-64-v3 and AVX-512 F CD BW DQ VL, the set
# cpu_facts keeps for AVX512_SKX. SVE_256 runs only where SVE vectors are
# 32 bytes (the models' sve_vl= word).
N = cpu_facts.X86_NEEDS
LISTS = {
    'x86_64': {'dot_hwy': [('X86_V4', N['AVX512_SKX']), ('X86_V3', N['X86_V3']), ('SSE42', N['SSE42'])],
               'dot_stdx': [('AVX512_SKX', N['AVX512_SKX']), ('AVX2__FMA3', N['AVX2__FMA3']), ('SSE42', N['SSE42'])]},
    'aarch64': {'dot_hwy': [('SVE_256', {'sve', 'sve_vl=32'}), ('SVE', {'sve'})], 'dot_stdx': []},
}
# What each build compiles to: the library's target and lanes of float.
# Highway's x86-64 baseline is SCALAR (1 lane) with GCC < 12.3, EMU128
# (4 lanes) otherwise; an SVE build has as many lanes as the CPU's vectors.
STYLES = {
    'x86_64': {'dot_hwy': {'baseline': {('SCALAR', 1), ('EMU128', 4)}, 'SSE42': {('SSE4', 4)},
                           'X86_V3': {('AVX2', 8)}, 'X86_V4': {('AVX3', 16)}},
               'dot_stdx': {'baseline': {('native_simd<float>', 4)}, 'SSE42': {('native_simd<float>', 4)},
                            'AVX2__FMA3': {('native_simd<float>', 8)}, 'AVX512_SKX': {('native_simd<float>', 16)}}},
    'aarch64': {'dot_hwy': {'baseline': {('NEON', 4)}, 'SVE_256': {('SVE_256', 8)},
                            'SVE': {('SVE', int(w.split('=')[1]) // 4) for f in cpu_facts.models('aarch64').values()
                                    for w in f if w.startswith('sve_vl=')}},
                'dot_stdx': {'baseline': {('native_simd<float>', 4)}}},
}
LINE = re.compile(r'^(dot_hwy|dot_stdx) ran on (\S+) \((?:Highway|stdx) (\S+), (\d+) lanes\): (.*)$', re.M)


def sh(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        failures.append('$ %s\n%s' % (' '.join(cmd), (r.stdout + r.stderr)[-3000:]))
    return r


def picked(arch, kernel, flags):
    return next((t for t, need in LISTS[arch][kernel] if need <= flags), 'baseline')


def test_output(b, setup=None):
    """stdout of every test of `meson test [--setup cpudispatch:SETUP]`."""
    log = os.path.join(b, 'meson-logs', 'testlog%s.json' % ('-cpudispatch_' + setup if setup else ''))
    if not os.path.exists(log):
        return ''
    return ''.join((json.loads(line).get('stdout') or '') + '\n' for line in open(log))


def check_lines(name, arch, out):
    """{kernel: {build that ran}} from the test's lines; each line's library
    target and lane count must be the ones its build compiles to."""
    seen = {k: set() for k in LISTS[arch]}
    for kernel, target, style, lanes, rest in LINE.findall(out):
        seen[kernel].add(target)
        if (style, int(lanes)) not in STYLES[arch][kernel].get(target, ()):
            failures.append('%s: %s on %s compiled for %s with %s lanes, expected one of %s'
                            % (name, kernel, target, style, lanes, STYLES[arch][kernel].get(target)))
        if 'within' not in rest:
            failures.append('%s: %s on %s: %s' % (name, kernel, target, rest))
    return seen


def build(src, name, opts, env=None):
    """Configures and builds; False (with a skip reason) where the example's
    configure finds no Highway or <experimental/simd>."""
    b = os.path.join(tmp, 'build-' + name)
    e = dict(os.environ, **(env or {}))
    r = subprocess.run(['meson', 'setup', b, src, '--wrap-mode=nodownload'] + opts,
                       capture_output=True, text=True, env=e)
    missing = re.search(r'universal: <\S+> not found: .*', r.stdout + r.stderr)
    if r.returncode != 0 and missing:
        skips.append('%s: %s' % (name, missing.group(0)))
        return None
    if r.returncode != 0:
        failures.append('%s: meson setup failed:\n%s' % (name, (r.stdout + r.stderr)[-3000:]))
        return None
    if sh(['ninja', '-C', b]).returncode != 0:
        return None
    return b


def run_tests(b, name, arch, host_flags, setups):
    """The example's test plainly (the build this CPU, or qemu's default CPU,
    selects) and under each setup: it passes, and each kernel ran on exactly
    the builds the CPUs select."""
    models = cpu_facts.models(arch)
    want = {None: {k: {picked(arch, k, host_flags)} for k in LISTS[arch]},
            # every build of the kernel's list this CPU has, one run each
            'each_target': {k: {'baseline'} | {t for t, need in LISTS[arch][k] if need <= host_flags}
                            for k in LISTS[arch]},
            'each_cpu': {k: {picked(arch, k, f) for f in models.values()} for k in LISTS[arch]}}
    for setup in [None] + setups:
        r = sh(['meson', 'test', '-C', b, '--print-errorlogs'] + (['--setup', 'cpudispatch:' + setup] if setup else []))
        seen = check_lines(name, arch, test_output(b, setup))
        label = '%s: meson test%s' % (name, ' --setup cpudispatch:' + setup if setup else '')
        print('[%s] %s' % (label, ', '.join('%s ran on %s' % (k, ' '.join(sorted(v))) for k, v in seen.items())))
        if r.returncode == 0 and seen != want[setup]:
            failures.append('%s: the kernels ran on %s, expected %s' % (label, seen, want[setup]))


with tempfile.TemporaryDirectory() as tmp:
    # The example with the release wrap in place of its [wrap-git].
    src = os.path.join(tmp, 'universal')
    error = release_wrap.example(root, 'universal', src)
    if error:
        failures.append(error)
    host = cpu_facts.host_flags(quiet=True)

    b = build(src, 'gcc-release', [])
    if b:
        run_tests(b, 'gcc-release', 'x86_64', host, ['each_target', 'each_cpu'])
        out = sh([os.path.join(b, 'bench'), '1']).stdout
        print('[gcc-release: bench 1]\n' + out, end='')
        if len(re.findall(r' ns per call ', out)) != 2:
            failures.append('gcc-release: bench printed no time per kernel:\n' + out)
    print('[%.0f s]' % (time.monotonic() - started))
    b = build(src, 'clang-debug', ['-Dbuildtype=debug'], {'CC': 'clang', 'CXX': 'clang++'})
    if b:
        run_tests(b, 'clang-debug', 'x86_64', host, ['each_cpu'])
    print('[%.0f s]' % (time.monotonic() - started))
    if with_cross:  # qemu-aarch64's default CPU is the "max" model
        b = build(src, 'gcc-aarch64', ['--cross-file', os.path.join(root, 'cross', 'aarch64-linux-gnu.txt')])
        if b:
            run_tests(b, 'gcc-aarch64', 'aarch64', cpu_facts.models('aarch64')['max'], ['each_target', 'each_cpu'])
        print('[%.0f s]' % (time.monotonic() - started))

if failures:
    print('\n'.join('FAIL: ' + f for f in failures))
    sys.exit(1)
if skips:
    print('\n'.join('SKIP: ' + s for s in skips))
    sys.exit(77)
print('PASS')
