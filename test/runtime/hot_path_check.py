#!/usr/bin/env python3
"""The caller of CPUD_DISPATCH_CALL_CACHED keeps the first call's selection
out of line (docs/api.md, "The cached dispatcher"): in hot_path_api's code
there is no call into the runtime (cpud__register, cpud__epoch, the usable
masks: those belong to the cold helper), and with GCC on x86_64 no
callee-saved register is pushed either (GCC moves the call's set-up into the
cold part; Clang 14 saves the arguments in the prologue all the same, as it
does for any lazily set function pointer). The control, built with
CPUD__INLINE_COLD_PATH (the selection inline), must show the runtime calls
and, with GCC on x86_64, the pushes: else this check proves nothing.

  hot_path_check.py OBJDUMP COMPILER_ID CPU_FAMILY LIB CONTROL_LIB PROGRAM
"""
import re
import subprocess
import sys

objdump, compiler, family, lib, control, program = sys.argv[1:7]
RUNTIME = re.compile(r'cpud__(register|epoch|usable_slow|process_mask|have_slow|init)\b')


def body(path):
    """hot_path_api's instructions and relocations (objdump -dr)."""
    out = subprocess.run([objdump, '-dr', '--no-show-raw-insn', path], capture_output=True, text=True,
                         check=True).stdout
    lines, inside = [], False
    for l in out.splitlines():
        if re.match(r'^[0-9a-f]+ <', l):
            inside = re.match(r'^[0-9a-f]+ <hot_path_api>:', l) is not None
            continue
        if inside and l.strip():
            lines.append(l.strip())
    return lines


failures = []
p = subprocess.run([program], capture_output=True, text=True)
print(p.stdout.strip())
if p.returncode != 0:
    failures.append('the program calling hot_path_api failed (status %d)' % p.returncode)
pushes_matter = compiler == 'gcc' and family == 'x86_64'
for path, is_control in ((lib, False), (control, True)):
    code = body(path)
    calls = [l for l in code if RUNTIME.search(l)]
    pushes = [l for l in code if re.search(r'\bpush', l)]
    what = 'control (selection inline)' if is_control else 'hot_path_api'
    print('%s: %d instructions/relocations, %d runtime calls, %d pushes' % (what, len(code), len(calls),
                                                                             len(pushes)))
    if not code:
        failures.append('%s: no hot_path_api in %s' % (what, path))
    elif is_control:
        if not calls or (pushes_matter and not pushes):
            failures.append('control: the inline selection should show runtime calls%s in the caller: the check '
                            'proves nothing' % (' and pushes' if pushes_matter else ''))
    else:
        if calls:
            failures.append('hot_path_api calls into the runtime itself: %s' % calls)
        if pushes_matter and pushes:
            failures.append('hot_path_api saves registers on its hot path: %s' % pushes)
for f in failures:
    print('FAIL: ' + f)
sys.exit(1 if failures else 0)
