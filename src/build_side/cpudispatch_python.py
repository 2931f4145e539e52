#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs one of cpudispatch's scripts on the Python that runs Meson.

meson.build finds this file with find_program() (cpud_python), and every
script Meson runs for cpudispatch, at configure time (configure, the
generator), at build time (the check) and at install time, goes through it:

  cpudispatch_python.py SCRIPT ARG...    SCRIPT as __main__, with ARGs
  cpudispatch_python.py -c CODE ARG...   CODE, with ARGs

in this same process (no second interpreter starts).

This file has no execute bit, on purpose (src/build_side/cpudispatch_configure.py
warns when it has one). Meson, from 1.0.1 to 1.12 at least, runs a script it
finds that is not executable through the interpreter named by its first line,
and for `python3` it puts the Python running Meson in its place (Meson's
programs.py, _shebang_to_cmd): no look-up on PATH, so a pyenv shim (a shell
script that forks several processes before its Python starts) or a
virtualenv's python3 first on PATH is never started, and the scripts run
on the same Python as Meson. find_program('python3') would take PATH's;
import('python').find_installation() starts an introspection process at
every configure (docs/performance.md, "Configure time").
"""
import os
import sys


def main():
    if len(sys.argv) < 2 or (sys.argv[1] == '-c' and len(sys.argv) < 3):
        sys.exit('usage: cpudispatch_python.py SCRIPT ARG... | -c CODE ARG...')
    if sys.argv[1] == '-c':
        name, code = '<string>', sys.argv[2]
        sys.argv = ['-c'] + sys.argv[3:]
    else:
        name = sys.argv[1]
        with open(name, 'rb') as fh:
            code = fh.read()
        sys.argv = sys.argv[1:]
        # As `python3 SCRIPT` sets it: the script's folder first on the path.
        sys.path[0] = os.path.dirname(os.path.abspath(name))
    main_module = type(sys)('__main__')
    main_module.__file__ = name
    sys.modules['__main__'] = main_module
    exec(compile(code, name, 'exec'), main_module.__dict__)


if __name__ == '__main__':
    main()
