#!/usr/bin/env python3
"""Every symbol the runtime's objects define for others carries the build's
namespace (include/cpudispatch/namespace.h): two libraries made with
cpudispatch, linked statically into one program, never share one. And the
header's list is the runtime's: no line for a symbol nothing defines.

  namespaced.py NM NAMESPACE NAMESPACE_H LIBCPUDISPATCH.a
"""
import re
import subprocess
import sys

nm, ns, header, lib = sys.argv[1:5]
out = subprocess.run([nm, '-g', '--defined-only', lib], capture_output=True, text=True, check=True).stdout
defined = sorted({l.split()[-1] for l in out.splitlines() if len(l.split()) == 3})
listed = re.findall(r'^#define (cpud\w+) CPUD__NS\(\1\)$', open(header).read(), re.M)
bad = [s for s in defined if not s.startswith(ns + '__')]
stale = [n for n in listed if ns + '__' + n not in defined]
print('%d symbols defined, all behind %s__' % (len(defined), ns) if not bad else '')
for s in bad:
    print('FAIL: %s defines %s outside the namespace: add "#define %s CPUD__NS(%s)" to namespace.h' % (lib, s, s, s))
for n in stale:
    print('FAIL: namespace.h maps %s, which the runtime does not define' % n)
sys.exit(1 if bad or stale or not defined else 0)
