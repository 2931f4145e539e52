#!/usr/bin/env python3
"""run_model.py MODEL EXPECT PROGRAM: runs PROGRAM under `qemu-x86_64 -cpu
MODEL` (MODEL 'native': directly) and checks the outcome: EXPECT 'ok' (exit
0) or 'sigill' (killed by SIGILL: the negative control, proving the fixture
really executes target code where a careless link puts it)."""
import os
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # test/
import exe_wrapper  # noqa: E402  (test/exe_wrapper.py)

model, expect, prog = sys.argv[1], sys.argv[2], sys.argv[3]
# 'native' in a cross build: the build's exe wrapper (qemu at its default CPU).
native = exe_wrapper.command() + [prog]
cmd = native if model == 'native' else ['qemu-x86_64', '-cpu', model, prog]
r = subprocess.run(cmd, capture_output=True, text=True)
sys.stdout.write(r.stdout)
err = '\n'.join(l for l in r.stderr.splitlines() if "TCG doesn't support" not in l)
sys.stderr.write(err + ('\n' if err else ''))
got = 'ok' if r.returncode == 0 else 'sigill' if r.returncode == -signal.SIGILL else 'status %d' % r.returncode
print('%s on %s: %s (expected %s)' % (prog.split('/')[-1], model, got, expect))
sys.exit(0 if got == expect else 1)
