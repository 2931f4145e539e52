#!/usr/bin/env python3
"""Env-variable warnings are printed once per process, not once per copy of
the runtime: twin_main loads two shared libraries, each with its own copy,
and both read the same variable.

  warn_once.py ENV_PREFIX TWIN_MAIN TWIN_MAIN_UNSHARED

No symbol is shared: each copy finds the record through the ELF note the
first loaded copy announces it by (src/runtime/print_once.c).
TWIN_MAIN_UNSHARED is the negative control: the same libraries with a
runtime built without that note (CPUD__UNSHARED_WARNINGS), so each copy
keeps its own record and prints its warnings. On Windows the record is a
named shared-memory section of the process, and there is no such control.
"""
import collections
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # test/
import exe_wrapper  # noqa: E402  (test/exe_wrapper.py)

WRAPPER = exe_wrapper.command()


def warnings_of(prefix, exe):
    # Names foreign or retired on every arch we build for, so each copy has
    # at least one warning to give.
    env = dict(os.environ, **{prefix + '_DISABLE_CPU_FEATURES': 'avx512_knl rvv'})
    env.pop(prefix + '_ENABLE_CPU_FEATURES', None)
    p = subprocess.run(WRAPPER + [exe], env=env, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit('%s exited %d:\n%s%s' % (exe, p.returncode, p.stdout, p.stderr))
    return collections.Counter(l for l in p.stderr.splitlines() if l.startswith('cpudispatch: warning:'))


def main():
    prefix, exe, control = sys.argv[1:4]
    # Windows (PE): the record is a named section of the process, not a
    # note: no control to build that way.
    windows = exe.endswith('.exe')
    once, twice = warnings_of(prefix, exe), None if windows else warnings_of(prefix, control)
    ok = True
    if not once:
        print('FAIL: %s printed no env warning at all' % exe)
        ok = False
    for line, n in once.items():
        print('%d x %s' % (n, line))
        if n != 1:
            print('FAIL: printed %d times, once expected' % n)
            ok = False
    if windows:
        print('no control on Windows: each DLL\'s copy finds the record by the process id, not by binding')
    elif not twice or any(n != 2 for n in twice.values()):
        print('FAIL: the control without the note should print each warning twice (once per copy), printed: %s'
              % dict(twice))
        ok = False
    else:
        print('control (no note, each copy its own record): every warning printed twice, as expected')
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
