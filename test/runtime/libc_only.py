#!/usr/bin/env python3
"""The runtime library needs only libc: no C++ runtime symbols (operator new,
exceptions, RTTI, guarded statics), so C programs link it as they are, and
every symbol it defines is hidden (the process-wide record of printed env
warnings is found through an ELF note); on Windows none is exported. Usage: libc_only.py NM LIBRARY"""
import re
import subprocess
import sys

nm, lib = sys.argv[1], sys.argv[2]
undef = subprocess.run([nm, '-u', lib], capture_output=True, text=True, check=True).stdout.split()
own = set(subprocess.run([nm, '--defined-only', '-g', lib], capture_output=True, text=True,
                         check=True).stdout.split())
bad = [s for s in undef if s not in own and (s.startswith('_Z') or s.startswith('__cxa') or s.startswith('__gxx')
                                             or 'stdc++' in s)]
with open(lib, 'rb') as fh:
    coff = b'\x7fELF' not in fh.read(4096)
if coff:
    # PE/COFF (Windows): a DLL exports only what an object asks for with an
    # "-export:" linker directive (.drectve, from dllexport); none may.
    # (binutils' objdump reads PE/COFF on any host.)
    d = subprocess.run(['objdump', '-s', '-j', '.drectve', lib], capture_output=True, text=True).stdout
    visible = re.findall(r'-export:\S+', ''.join(l[43:] for l in d.splitlines()).replace(' ', ''))
    # Windows' own DLLs (kernel32: the shared warning record) are the C
    # library's peers there; their imports are __imp_ symbols.
else:
    dyn = subprocess.run(['readelf', '-sW', lib], capture_output=True, text=True, check=True).stdout
    # None: even the process-wide record of printed env warnings is found
    # through an ELF note, not a symbol (print_once.c).
    visible = [l.split()[-1] for l in dyn.splitlines() if re.search(r'\b(GLOBAL|WEAK)\s+DEFAULT\s+\d+', l)]
if bad or visible:
    print('C++ runtime symbols needed:', bad)
    print('symbols not hidden:', visible)
    sys.exit(1)
print('PASS: %d undefined symbols, all from libc or the library itself' % len(undef))
