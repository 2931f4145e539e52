#!/usr/bin/env python3
"""Build-time check of the libraries a dispatch loop produced.

  cpudispatch_check.py STAMP LIB...

Every object compiled for a dispatch target carries a `.cpud_target` section
(cpudispatch_config.h puts it there). In those objects it rejects:
  - static initialisers (.init_array / .ctors / .preinit_array): they run at
    load time on every CPU, before any dispatch, compiled for the target;
  - link-time-optimisation bytecode (.gnu.lto_*): the linker could inline
    target code into callers that run on any CPU.
On success it writes STAMP (so the build re-runs it only when a library
changes); on failure it names each offending object and exits 1.
"""
import os
import re
import subprocess
import sys

BAD = ('.init_array', '.ctors', '.preinit_array')
# Constructors a sanitizer adds to every object (they only call the
# sanitizer's runtime initialiser): not the program's static initialisers.
SANITIZER_CTOR = re.compile(r'^(\.text\.)?(\w+\.module_ctor|_GLOBAL__sub_I_00099_\d+_.*)$')


def sections_by_object(lib):
    out = subprocess.run(['readelf', '-S', '-W', lib], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit('cpudispatch check: readelf cannot read %s: %s' % (lib, out.stderr.strip()))
    objs, current = {}, os.path.basename(lib)
    for line in out.stdout.splitlines():
        m = re.match(r'^File: (.*)$', line)
        if m:
            current = m.group(1)
            objs.setdefault(current, set())
            continue
        m = re.match(r'^\s*\[\s*\d+\]\s+(\S+)', line)
        if m:
            objs.setdefault(current, set()).add(m.group(1))
    return objs


def init_functions(lib):
    """Object -> functions its .init_array/.ctors relocations point at."""
    out = subprocess.run(['readelf', '-r', '-W', lib], capture_output=True, text=True)
    funcs, current, in_init = {}, os.path.basename(lib), False
    for line in out.stdout.splitlines():
        m = re.match(r'^File: (.*)$', line)
        if m:
            current, in_init = m.group(1), False
            continue
        m = re.match(r"^Relocation section '\.rela?(\.\S+)'", line)
        if m:
            in_init = any(m.group(1) == b or m.group(1).startswith(b + '.') for b in BAD)
            continue
        if in_init:
            fields = line.split()
            if len(fields) >= 5 and re.match(r'^[0-9a-f]+$', fields[0]):
                funcs.setdefault(current, []).append(fields[4])
    return funcs


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    stamp, libs = sys.argv[1], sys.argv[2:]
    problems, targets = [], 0
    for lib in libs:
        inits = None
        for obj, secs in sections_by_object(lib).items():
            if '.cpud_target' not in secs:
                continue
            targets += 1
            for sec in BAD:
                if sec in secs or any(s.startswith(sec + '.') for s in secs):
                    if inits is None:
                        inits = init_functions(lib)
                    if inits.get(obj) and all(SANITIZER_CTOR.match(f) for f in inits[obj]):
                        continue
                    problems.append('%s: %s holds a static initialiser, which would run at load time on every '
                                    'CPU, before any dispatch, as code built for the target. Move it to baseline '
                                    'code, or make it constant (constexpr / constinit).' % (obj, sec))
            if any(s.startswith('.gnu.lto_') for s in secs):
                problems.append('%s: contains LTO bytecode; dispatch targets must be built with -fno-lto' % obj)
    if problems:
        sys.stderr.write('cpudispatch check failed:\n' + ''.join('  ' + p + '\n' for p in problems))
        sys.exit(1)
    with open(stamp, 'w') as fh:
        fh.write('%d target objects checked in %d libraries\n' % (targets, len(libs)))


if __name__ == '__main__':
    main()
