#!/usr/bin/env python3
"""Every symbol the runtime's objects define for others carries the build's
namespace (include/cpudispatch/namespace.h): two libraries made with
cpudispatch, linked statically into one program, never share one. And the
header's list is the runtime's: no line for a symbol nothing defines.

  namespaced.py NM NAMESPACE NAMESPACE_H LIBCPUDISPATCH.a SYSTEM

Names that are no C identifier are the toolchain's own, the same in every
copy (i686's __x86.get_pc_thunk.bx, MinGW's .refptr.NAME): not counted.
The printed-lines table and its note are ELF's (SYSTEM windows has none).
"""
import re
import subprocess
import sys

nm, ns, header, lib, system = sys.argv[1:6]
ELF_ONLY = {'cpud__printed_table', 'cpud__printed_table_note'}
out = subprocess.run([nm, '-g', '--defined-only', lib], capture_output=True, text=True, check=True).stdout
# Thread-local variables under emulated TLS (MinGW) are defined as
# __emutls_v.NAME (and __emutls_t.NAME, its initial value): NAME is theirs.
defined = sorted({re.sub(r'^__emutls_[vt]\.', '', l.split()[-1]) for l in out.splitlines() if len(l.split()) == 3})
defined = [s for s in defined if re.match(r'^[A-Za-z_]\w*$', s)]
listed = re.findall(r'^#define (cpud\w+) CPUD__NS\(\1\)$', open(header).read(), re.M)
bad = [s for s in defined if not s.startswith(ns + '__')]
stale = [n for n in listed if ns + '__' + n not in defined and not (system == 'windows' and n in ELF_ONLY)]
print('%d symbols defined, all behind %s__' % (len(defined), ns) if not bad else '')
for s in bad:
    print('FAIL: %s defines %s outside the namespace: add "#define %s CPUD__NS(%s)" to namespace.h' % (lib, s, s, s))
for n in stale:
    print('FAIL: namespace.h maps %s, which the runtime does not define' % n)
sys.exit(1 if bad or stale or not defined else 0)
