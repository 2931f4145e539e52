#!/usr/bin/env python3
"""Runs the call-cost and start-up benchmarks (--benchmark_repetitions, medians)
and prints the ratios the project promises: dispatched / direct <= 1.02 and
start-up <= 10 us.   report.py BUILD_DIR [REPETITIONS]"""
import json
import os
import subprocess
import sys

build = sys.argv[1]
reps = sys.argv[2] if len(sys.argv) > 2 else '10'


def medians(exe):
    out = subprocess.run([os.path.join(build, 'bench', exe), '--benchmark_format=json',
                          '--benchmark_repetitions=' + reps, '--benchmark_report_aggregates_only=true'],
                         capture_output=True, text=True, check=True).stdout
    data = json.loads(out)
    return {b['run_name']: b for b in data['benchmarks'] if b.get('aggregate_name') == 'median'}, data['context']


calls, ctx = medians('bench_call_cost')
start, _ = medians('bench_startup')
direct = calls['BM_direct']['real_time']
print('machine: %s, %d CPUs @ %.0f MHz' % (ctx.get('host_name', '?'), ctx['num_cpus'], ctx['mhz_per_cpu']))
print('%-26s %10s %8s' % ('benchmark (median)', 'ns', 'ratio'))
for name in ('BM_direct', 'BM_dispatched', 'BM_pointer'):
    t = calls[name]['real_time']
    print('%-26s %10.3f %8.3f' % (name, t, t / direct))
for name, b in start.items():
    print('%-26s %10.1f  (%.2f us, %d CPUID per init)' % (name, b['real_time'], b['real_time'] / 1000,
                                                          b.get('cpuid_per_init', 0)))
