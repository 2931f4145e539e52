#!/usr/bin/env python3
"""startup_order_control.py INFO PROGRAM: PROGRAM (startup_order_main.cpp)
under qemu's qemu64 model (SSE2, nothing above: below any raised
baseline) must exit 69 with the start-up check's message before its own
static initialiser runs; with the check skipped
(PREFIX_SKIP_CPU_BASELINE_CHECK=1), the negative control, the initialiser
runs on that CPU and reports it (exit 1). Windows builds run in Wine under
qemu (WINELOADERNOEXEC keeps Wine inside the emulator). Exit 77 when the
build's baseline is the arch's floor (no model lacks it) or off x86_64."""
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # test/
import exe_wrapper  # noqa: E402  (test/exe_wrapper.py)

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tools'))
from wine import IN_QEMU_ENV, WINE, keep_wineserver  # noqa: E402  (tools/wine.py)

info, prog, prefix = sys.argv[1], sys.argv[2], sys.argv[3]
windows = prog.endswith('.exe')
native = exe_wrapper.command()
data = json.loads(subprocess.run(native + [info, '--json'], capture_output=True, text=True, check=True).stdout)
if data['arch'] != 'x86_64':
    print('SKIP: the control runs x86_64 code under qemu64')
    sys.exit(77)
if set(data['baseline']) <= {'SSE', 'SSE2'}:
    print('SKIP: the baseline (%s) is the arch\'s floor: no model lacks it' % ' '.join(data['baseline']))
    sys.exit(77)
if not shutil.which('qemu-x86_64') or (windows and not os.path.exists(WINE)):
    print('SKIP: qemu-x86_64%s is not installed' % (' or Wine' if windows else ''))
    sys.exit(77)
if windows:
    err = keep_wineserver()
    if err:
        sys.exit('FAIL: ' + err)
wrapper = ['qemu-x86_64', '-cpu', 'qemu64'] + ([WINE] if windows else [])
env = dict(os.environ, **IN_QEMU_ENV)
env.pop(prefix + '_SKIP_CPU_BASELINE_CHECK', None)
failures = []
r = subprocess.run(wrapper + [prog], capture_output=True, text=True, env=env)
out = r.stdout + ''.join(l for l in r.stderr.splitlines(True) if "TCG doesn't support" not in l)
print('qemu64: status %d: %s' % (r.returncode, out.strip()[:200]))
refusal = re.search(r'^cpudispatch: \S+ \S+ in this program was built for', out, re.M)  # PROJECT VERSION
if r.returncode != 69 or not refusal or 'FAIL' in out:
    failures.append('under qemu64 the start-up check must refuse first (status 69), got %d' % r.returncode)
env[prefix + '_SKIP_CPU_BASELINE_CHECK'] = '1'
r = subprocess.run(wrapper + [prog], capture_output=True, text=True, env=env)
print('control, check skipped: status %d: %s' % (r.returncode, r.stdout.strip()))
if r.returncode != 1 or 'a static initialiser of the program ran on a CPU below its baseline' not in r.stdout:
    failures.append('the control (check skipped) should let the initialiser run and exit 1, got %d' % r.returncode)
for f in failures:
    print('FAIL:', f)
sys.exit(1 if failures else 0)
