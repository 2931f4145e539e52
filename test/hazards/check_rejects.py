#!/usr/bin/env python3
"""check_rejects.py KIND -- CHECK_ARGS... -- LIB...: runs cpudispatch-check
(`--stamp` mode: the libraries in the order given) and expects it to fail.

  KIND static-init: LIBs are built from static_init.dispatch.cpp (or, on
                    Windows, crt_init.dispatch.c); every
                    target library and no baseline library must be named.
  KIND clash:       LIBs are the clash fixture's two target-only builds,
                    checked with --no-rename: the shared inline function
                    must be named, with both libraries and what is missing.
  KIND namespace:   LIBs are unmapped.dispatch.c's builds: every one must be
                    named, with its unmapped_add_TARGET symbol, as outside
                    the build's namespace, and the way out (CPUD_FN).
  KIND order:       LIBs are hazard.dispatch.cpp's builds, targets first; the
                    message must name a shared inline function, the library
                    whose copy would be kept and the baseline library.
"""
import os
import re
import subprocess
import sys
import tempfile

args = sys.argv[1:]
kind = args[0]
second = args.index('--', 2)
check, libs = [sys.executable] + args[2:second], args[second + 1:]
with tempfile.TemporaryDirectory() as d:
    out = ['--archive', os.path.join(d, 'lib.a')] if kind == 'clash' else ['--stamp', os.path.join(d, 'stamp')]
    r = subprocess.run(check + out + libs, capture_output=True, text=True)
print(r.stderr, end='')
errors = []
if r.returncode != 1:
    errors.append('expected exit status 1, got %d' % r.returncode)
base = [l for l in libs if l.endswith('_baseline.a')]
targets = [l for l in libs if l not in base]
if kind == 'static-init':
    for lib in targets:
        if os.path.basename(lib) + '(' not in r.stderr:
            errors.append('no complaint about %s' % lib)
    # ELF: .init_array; PE/COFF (MinGW): .ctors, or the C runtime's table.
    if not re.search(r'\.(init_array|ctors) holds a static initialiser|\.CRT\$XC\w* holds a start-up function',
                     r.stderr):
        errors.append('the message does not say what is wrong')
    if any(os.path.basename(l) + '(' in r.stderr for l in base):
        errors.append('baseline code was rejected too')
elif kind == 'namespace':
    for lib in libs:
        target = os.path.basename(lib)[len('libunmapped_'):-len('.a')]
        want = 'defines unmapped_add_%s outside this build\'s namespace' % target
        if os.path.basename(lib) + '(' not in r.stderr or want not in r.stderr:
            errors.append('no complaint about %s (%s)' % (lib, want))
    if 'Name it CPUD_FN(unmapped_add)' not in r.stderr:
        errors.append('the message does not say how to name the kernel')
elif kind == 'clash':
    # Ordering alone: the X86_V3 copy would serve AVX512_SKX code.
    want = ['clash_built_for() is defined in libclash_a_X86_V3.a (X86_V3) and libclash_b_AVX512_SKX.a (AVX512_SKX)',
            'without CX16 LAHF X86_V2 BMI BMI2 LZCNT MOVBE X86_V3', 'No link order makes one copy safe',
            'were not renamed per target: --no-rename']
    for w in want:
        if w not in r.stderr:
            errors.append('the message lacks "%s"' % w)
else:
    # Some inline or template function both builds define (which ones are
    # emitted out of line depends on the optimisation level), kept from the
    # first library, a target build, with the baseline library among the
    # libraries it would serve.
    first = os.path.basename(libs[0])
    want = [') is defined in ' + first, os.path.basename(base[0]) + ' (baseline)',
            'the linker keeps the copy of ' + first]
    for w in want:
        if w not in r.stderr:
            errors.append('the message lacks "%s"' % w)
if errors:
    sys.exit('\n'.join(errors))
print('PASS: rejected (%s), %d libraries' % (kind, len(libs)))
