#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""expect_abort.py LINE PROGRAM [ARG...]: runs PROGRAM (through the build's
exe wrapper, if any) and passes when it aborts (SIGABRT; under Wine, abort()'s
exit status 3) after printing exactly one line to stderr that starts with
LINE (qemu-user's own line about the signal aside). For what a call with no
kernel does (docs/typed.md)."""
import os
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # test/
import exe_wrapper  # noqa: E402  (test/exe_wrapper.py)

want, prog = sys.argv[1], sys.argv[2]
r = subprocess.run(exe_wrapper.command() + [prog] + sys.argv[3:], capture_output=True, text=True)
sys.stdout.write(r.stdout + r.stderr)
aborted = r.returncode in (-signal.SIGABRT, 128 + signal.SIGABRT, 3)
# qemu-user (a cross build's wrapper) reports the signal itself on stderr:
# "qemu: uncaught target signal 6 (Aborted) - core dumped"; not the program's.
lines = [l for l in r.stderr.splitlines() if not l.startswith('qemu: uncaught target signal')]
one_line = len(lines) == 1 and lines[0].startswith(want)
print('%s: exit status %d (%s), stderr %d line(s) (%s)' % (
    os.path.basename(prog), r.returncode, 'aborted' if aborted else 'did not abort', len(lines),
    'as documented' if one_line else 'want one starting %r' % want))
sys.exit(0 if aborted and one_line else 1)
