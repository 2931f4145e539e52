#!/usr/bin/env python3
"""A stand-in C compiler for numpy_format.py: succeeds for every program
but those CPUD_STUB_FAIL names (a space-separated list of file names), so
the extras' results do not depend on this machine's compiler."""
import os
import sys

fail = os.environ.get('CPUD_STUB_FAIL', '').split()
progs = [a for a in sys.argv[1:] if a.endswith('.c')]
sys.exit(1 if any(os.path.basename(p) in fail for p in progs) else 0)
