#!/usr/bin/env python3
"""The whole comparison in one run: call cost, start-up cost and CPUID counts,
kernel throughput, build cost. Prints Markdown tables (docs/performance.md
holds the last run's).

  report.py BUILD_DIR [--repetitions N] [--quick]

BUILD_DIR is a configured and built cpudispatch (tools/bench.sh makes a
release build). Medians of N repetitions (default 10); --quick is for CI.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def args():
    a = sys.argv[1:]
    build = a[0]
    reps = int(a[a.index('--repetitions') + 1]) if '--repetitions' in a else 10
    return build, reps, '--quick' in a


BUILD, REPS, QUICK = args()


def bench(exe, extra=()):
    cmd = [os.path.join(BUILD, 'bench', exe), '--benchmark_format=json',
           '--benchmark_repetitions=%d' % (1 if QUICK else REPS), '--benchmark_report_aggregates_only=true']
    if QUICK:
        cmd.append('--benchmark_min_time=0.001')
    out = subprocess.run(cmd + list(extra), capture_output=True, text=True, check=True).stdout
    data = json.loads(out)
    rows = {}
    for b in data['benchmarks']:
        if b.get('aggregate_name', 'median') == 'median' or QUICK:
            rows[b['run_name']] = b
    return rows, data['context']


def table(head, rows):
    print('| ' + ' | '.join(head) + ' |')
    print('|' + '---|' * len(head))
    for r in rows:
        print('| ' + ' | '.join(str(x) for x in r) + ' |')
    print()


def call_cost():
    rows, ctx = bench('bench_call_cost')
    print('## Call cost (same trivial kernel in another TU; median ns per call, ratio to the direct call)\n')
    print('machine: %s, %d CPUs, %.0f MHz\n' % (ctx.get('host_name', '?'), ctx['num_cpus'], ctx['mhz_per_cpu']))
    direct = rows['BM_direct']['real_time']
    names = {
        'BM_direct': 'direct call (baseline)',
        'BM_cpudispatch_dispatched': '**cpudispatch** `CPUD_DISPATCH` call',
        'BM_cpudispatch_pointer': '**cpudispatch** pointer from `get()`',
        'BM_gcc_target_clones_ifunc': 'compiler multiversioning: `target_clones` ifunc (GCC; Clang 14: the same ifunc by hand)',
        'BM_cpudispatch_inline_variant': 'variant: the slot loaded inline, an indirect call (`CPUD_DISPATCH_CALL_STUB=0`)',
        'BM_cpudispatch_stub_variant': 'variant: a direct call to a stub that jumps through the slot (`CPUD_DISPATCH_CALL_STUB=1`)',
        'BM_seq_load_then_call_reg': 'sequence: `mov slot(%rip),%rax; call *%rax` (x86_64 asm)',
        'BM_seq_call_mem_indirect': 'sequence: `call *slot(%rip)` (x86_64 asm)',
        'BM_seq_direct_call_to_jmp_stub': 'sequence: `call stub`, stub `jmp *slot(%rip)` (PLT shape; x86_64 asm)',
        'BM_check_chain_per_call': 'feature-check chain per call (NumPy/OpenCV style)',
        'BM_highway_dynamic_dispatch': 'Highway `HWY_DYNAMIC_DISPATCH`',
        'BM_shared_direct': 'shared library: exported direct function (PLT)',
        'BM_shared_dispatched': 'shared library: exported function making the dispatched call',
        'BM_shared_pointer': 'shared library: selected pointer fetched once',
        'BM_cpudispatch_guard_in_this_thread': '**cpudispatch** call in a thread holding a guard (per-call selection)',
        'BM_cpudispatch_guard_in_another_thread': '**cpudispatch** call while another thread holds a guard',
        'BM_check_chain_per_call_guard_in_this_thread': 'feature-check chain per call, in a thread holding a guard',
        'BM_cpudispatch_guard_scope': 'constructing and destroying a guard (not a call)',
    }
    table(['variant', 'ns', 'ratio'], [(names.get(k, k), '%.2f' % v['real_time'], '%.3f' % (v['real_time'] / direct))
                                        for k, v in rows.items()])


def small_inputs():
    rows, ctx = bench('bench_small_input')
    print('## Small inputs: how an API function reaches the kernel (median ns per call, ratio to the direct call)\n')
    print('The same kernel (bench/small.dispatch.c, its baseline build, so every way runs the same code), called '
          'from a library\'s API function in another translation unit; each call\'s result seeds the next. '
          'machine: %s, %d CPUs.\n' % (ctx.get('host_name', '?'), ctx['num_cpus']))
    names = [('BM_small_direct', 'direct call'),
             ('BM_small_cached', '`CPUD_DISPATCH_CALL_CACHED` (C; the first call\'s selection out of line)'),
             ('BM_small_cached_inline', 'the same with the selection inline (before issue 41)'),
             ('BM_small_own', 'a library\'s own dispatcher: a pointer set by a noinline init on first use'),
             ('BM_small_cxx', '`CPUD_DISPATCH` (C++)')]
    sizes = sorted({int(k.split('/')[1]) for k in rows if k.startswith('BM_small_')})
    out = []
    for key, label in names:
        cells = []
        for n in sizes:
            t, d = rows.get('%s/%d' % (key, n)), rows.get('BM_small_direct/%d' % n)
            cells.append('%.2f (%.3f)' % (t['real_time'], t['real_time'] / d['real_time']) if t and d else 'n/a')
        out.append([label] + cells)
    table(['call'] + ['%d B' % n for n in sizes], out)
    counts = small_call_instructions()
    if counts:
        print('Instructions each API function executes per call at 16 B, itself (the kernel\'s not counted), '
              'counted by callgrind over %d calls each (`bench_small_calls`; exact, whatever else the machine '
              'does):\n' % SMALL_CALLS)
        table(['call', 'instructions per call'],
              [(label, '%.1f' % counts[fn]) for fn, label in SMALL_FUNCTIONS if fn in counts])
    else:
        print('(valgrind not found: no instruction counts.)\n')


SMALL_CALLS = 100000
SMALL_FUNCTIONS = [('bench_small_direct', 'direct call'),
                   ('bench_small_cached', '`CPUD_DISPATCH_CALL_CACHED`, the selection out of line'),
                   ('bench_small_cached_inline', 'the same with the selection inline (before issue 41)'),
                   ('bench_small_own', 'a library\'s own lazily set pointer'),
                   ('bench_small_cxx', '`CPUD_DISPATCH` (C++), with its call stub')]


def small_call_instructions():
    """{API function: instructions it executes per call (self), at 16 B}."""
    if not shutil.which('valgrind') or not shutil.which('callgrind_annotate'):
        return {}
    exe = os.path.join(BUILD, 'bench', 'bench_small_calls')
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'cg.out')
        subprocess.run(['valgrind', '--tool=callgrind', '--callgrind-out-file=' + out, exe, str(SMALL_CALLS)],
                       capture_output=True, check=True)
        text = subprocess.run(['callgrind_annotate', '--threshold=100', out], capture_output=True, text=True,
                              check=True).stdout
    counts = {}
    for line in text.splitlines():
        m = re.match(r'^\s*([\d,]+) .*?:(\S+?)(\(.*)? \[', line)
        if m and m.group(2) in dict(SMALL_FUNCTIONS):
            counts[m.group(2)] = int(m.group(1).replace(',', '')) / SMALL_CALLS
    # The C++ API function calls the dispatcher's stub (one more frame).
    stub = re.search(r'^\s*([\d,]+) .*dispatcher<[^\n]*small_hash[^\n]*::call_stub', text, re.M)
    if stub and 'bench_small_cxx' in counts:
        counts['bench_small_cxx'] += int(stub.group(1).replace(',', '')) / SMALL_CALLS
    return counts


def startup():
    rows, _ = bench('bench_startup')
    counts = {}
    exe = os.path.join(BUILD, 'bench', 'bench_cpuid_count')
    if os.path.exists(exe):
        out = subprocess.run([exe], capture_output=True, text=True).stdout
        counts = {m.group(1): int(m.group(2)) for m in re.finditer(r'cpuid_per_init (\S+) (\d+)', out)}
    print('## Start-up cost (median per initialisation) and CPUID executions\n')
    print('CPUID counted exactly with Linux CPUID faulting (`bench/cpuid_count.cpp`).\n')
    names = {'BM_startup': ('cpudispatch: detect + env parse + baseline check', 'cpudispatch'),
             'BM_startup_with_env_mask': ('cpudispatch, with a DISABLE mask to parse', 'cpudispatch'),
             'BM_cpu_features_GetX86Info': ('google/cpu_features `GetX86Info()`', 'cpu_features_GetX86Info'),
             'BM_libgcc_builtin_cpu_init': ('libgcc `__builtin_cpu_init()` + `supports`', 'libgcc_builtin_cpu_init')}
    table(['initialisation', 'µs', 'CPUID executed'],
          [(names[k][0], '%.2f' % (v['real_time'] / 1000), counts.get(names[k][1], '?')) for k, v in rows.items()
           if k in names])
    if 'cpudispatch_without_glibc_copy' in counts:
        print('cpudispatch without glibc\'s copy of the CPUID leaves (other C libraries): %d CPUID.\n'
              % counts['cpudispatch_without_glibc_copy'])
    if 'cpudispatch_every_row' in counts:
        print('cpudispatch reading every row of the table (the first `cpud_detected_mask()`): %d CPUID.\n'
              % counts['cpudispatch_every_row'])
    if not counts:
        print('CPUID faulting is not available on this machine: no counts (bench_cpuid_count exits 77).\n')


def kernels():
    rows, ctx = bench('bench_kernels')
    ghz = ctx['mhz_per_cpu'] / 1000.0
    stream = max(rows.get(k, {}).get('bytes_per_second', 0) for k in
                 ('BM_stream_read_memchr', 'BM_stream_read_scalar8')) / 1e9
    print('## Kernel throughput (GB/s, median; speed-up over the baseline build)\n')
    print('L1 = 16 KiB, L2 = 256 KiB, DRAM = 256 MiB of input. Reference single-thread read bandwidth '
          '(best of glibc memchr and an 8-sum scalar loop over 256 MiB, neither using cpudispatch): '
          '**%.1f GB/s** = %.2f bytes/cycle at the nominal %.2f GHz. Bytes/cycle below use that clock.\n'
          % (stream, stream / ghz, ghz))
    by = {}
    for name, b in rows.items():
        parts = name.split('/')
        if len(parts) == 3:
            by.setdefault((parts[0], parts[2]), {})[parts[1]] = b['bytes_per_second'] / 1e9
    out = []
    for (kernel, size), t in sorted(by.items(), key=lambda kv: (kv[0][0], ['L1', 'L2', 'DRAM'].index(kv[0][1]))):
        base = t.get('baseline', 0)
        targets = [k for k in t if k not in ('dispatched', 'native-march')]
        cells = ' '.join('%s %.1f (×%.2f)' % (k, t[k], t[k] / base) for k in targets)
        native = t.get('native-march')
        ratio = '%.3f' % (t['dispatched'] / native) if native else 'n/a'
        extra = ' = %.1f B/cycle' % (t['dispatched'] / ghz)
        if size == 'DRAM' and stream:
            extra += ', %.2f× the reference read loop' % (t['dispatched'] / stream)
        out.append((kernel, size, cells, '%.1f%s' % (t['dispatched'], extra), '%.1f' % native if native else 'n/a',
                    ratio))
    table(['kernel', 'size', 'each target (GB/s, ×baseline)', 'dispatched', '-march=native', 'dispatched / native'],
          out)


def build_cost():
    print('## Build cost\n')
    tmp = tempfile.mkdtemp(prefix='cpud-bench-')
    try:
        proj = os.path.join(tmp, 'proj')
        shutil.copytree(os.path.join(ROOT, 'test', 'configure', 'fixture'), proj)
        for f in ('sum.dispatch.c', 'scale.dispatch.cpp', 'main.cpp'):
            shutil.copy(os.path.join(ROOT, 'examples', 'consumer', 'src', f), os.path.join(proj, 'src', f))
        os.makedirs(os.path.join(proj, 'subprojects'))
        os.symlink(ROOT, os.path.join(proj, 'subprojects', 'cpudispatch'))
        b = os.path.join(tmp, 'b')
        t0 = time.time()
        subprocess.run(['meson', 'setup', b, proj], check=True, capture_output=True)
        cold = time.time() - t0
        t0 = time.time()
        subprocess.run(['meson', 'setup', '--reconfigure', b, proj], check=True, capture_output=True)
        warm = time.time() - t0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print('Consumer project with cpudispatch as a subproject (every feature test of cpu-dispatch=max): '
          'cold `meson setup` **%.1f s**, warm reconfigure **%.1f s** (Meson caches the checks).\n' % (cold, warm))
    rows = []
    for obj in sorted(glob.glob(os.path.join(BUILD, 'src', 'demo', 'libcpud_demo_kernels_*.a.p', '*.o'))):
        target = re.search(r'kernels_(\w+)\.a\.p', obj).group(1)
        rel = os.path.relpath(obj, BUILD)
        os.remove(obj)
        t0 = time.time()
        subprocess.run(['ninja', '-C', BUILD, rel], check=True, capture_output=True)
        secs = time.time() - t0
        size = subprocess.run(['size', obj], capture_output=True, text=True, check=True).stdout.split('\n')[1].split()
        rows.append((target, '%.2f' % secs, size[0]))
    table(['demo kernels built for', 'compile s (one object)', 'text bytes'], rows)
    lib = os.path.join(BUILD, 'src', 'runtime', 'libcpudispatch.a')
    total = subprocess.run(['size', '-t', lib], capture_output=True, text=True, check=True).stdout.splitlines()[-1]
    info = os.path.join(BUILD, 'src', 'info', 'cpudispatch-info')
    print('Runtime `libcpudispatch.a`: %s bytes of text, %s of data, %s of bss (all objects); '
          '`cpudispatch-info` %d bytes on disk.\n' % (*total.split()[:3], os.path.getsize(info)))


if __name__ == '__main__':
    for part in (call_cost, small_inputs, startup, kernels, build_cost):
        part()
