#!/usr/bin/env python3
"""check_abort.py PREFIX "TARGETS" C_PROGRAM CXX_PROGRAM: with every compiled
target masked off (PREFIX_DISABLE_CPU_FEATURES), each program, whose
dispatch source has no baseline build, must abort (SIGABRT; on Windows
status 3) after one line
naming its function; unmasked, each must exit 0 where the CPU has a target.
Exit 77 when the baseline build stands in (the baseline covers a target)."""
import os
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # test/
import exe_wrapper  # noqa: E402  (test/exe_wrapper.py)

prefix, targets, progs = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
if 'baseline' in targets:
    print('SKIP: this build compiles a baseline build of the sources (%s)' % ' '.join(targets))
    sys.exit(77)
wrapper = exe_wrapper.command()
errors = []
for prog in progs:
    windows = prog.endswith('.exe')
    fn = os.path.basename(prog)[:-len('_main.exe' if windows else '_main')] + '_sum'
    want = ('cpudispatch: no compiled target of %s can run on this CPU and it has no baseline build; '
            'add "baseline" to its target list' % fn)
    env = dict(os.environ, **{prefix + '_DISABLE_CPU_FEATURES': ' '.join(targets)})
    env.pop(prefix + '_ENABLE_CPU_FEATURES', None)
    r = subprocess.run(wrapper + [prog], env=env, capture_output=True, text=True)
    lines = [l for l in r.stderr.splitlines() if l.startswith('cpudispatch:') and 'warning' not in l]
    print('%s masked: status %d, stderr %r' % (fn, r.returncode, r.stderr.strip()))
    # Windows' abort() ends the process with status 3.
    if r.returncode not in ((3,) if windows else (-signal.SIGABRT, 128 + signal.SIGABRT, 134)):
        errors.append('%s: expected %s with every target masked, got status %d'
                      % (fn, 'abort() (status 3)' if windows else 'SIGABRT', r.returncode))
    if lines != [want]:
        errors.append('%s: expected the one line %r, got %r' % (fn, want, lines))
    if 'sum ' in r.stdout:
        errors.append('%s: a call returned although no target could run: %r' % (fn, r.stdout))
    r = subprocess.run(wrapper + [prog], capture_output=True, text=True)
    print('%s unmasked: status %d, %s' % (fn, r.returncode, (r.stdout + r.stderr).strip()))
    if r.returncode != 0 and 'no compiled target' not in r.stderr:
        errors.append('%s: unmasked run failed: %d %s' % (fn, r.returncode, r.stderr))
if errors:
    sys.exit('FAIL:\n' + '\n'.join(errors))
print('PASS')
