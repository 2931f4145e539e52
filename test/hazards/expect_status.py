#!/usr/bin/env python3
"""expect_status.py STATUS PROGRAM [ARG...]: runs PROGRAM (through the
build's exe wrapper, if any) and passes when it exits with STATUS; 77 is
passed on as a skip. For negative controls that must fail in a known way."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # test/
import exe_wrapper  # noqa: E402  (test/exe_wrapper.py)

want, prog = int(sys.argv[1]), sys.argv[2]
r = subprocess.run(exe_wrapper.command() + [prog] + sys.argv[3:], capture_output=True, text=True)
sys.stdout.write(r.stdout + r.stderr)
print('%s: exit status %d (expected %d)' % (os.path.basename(prog), r.returncode, want))
sys.exit(77 if r.returncode == 77 else 0 if r.returncode == want else 1)
