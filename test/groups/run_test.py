#!/usr/bin/env python3
"""cpudispatch-run with the group targets of grouped.dispatch.cpp.

  run_test.py CPUDISPATCH_RUN GROUPED_PROGRAM TARGETS_TXT "TARGETS" [build-machine]

TARGETS: the targets cpudispatch_gen printed a word for, in its order (T of
each word grouped_T:...); TARGETS_TXT: the build's facts (unknown and
uncompiled groups are made of its targets).
--list-targets shows the groups in their place; --target runs the program
with the group as its best target in every spelling (77 and "this CPU
lacks it" where the CPU lacks a member); an unknown member is 65, a group
no source was compiled for 66; --each-target runs every group. A cross
build runs both programs through MESON_EXE_WRAPPER, except a runner of the
build machine (`build-machine`: a Windows build's, which starts Wine)."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # test/
import exe_wrapper  # noqa: E402  (test/exe_wrapper.py)

run_exe, prog, targets_txt, listed = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4].split()
facts = [line.split() for line in open(targets_txt) if line.strip() and not line.startswith('#')]
enabled = [w[1] for w in facts if w[0] == 'target']
closure = {w[1]: set(w[2:]) for w in facts if w[0] == 'feature'}
wrapper = exe_wrapper.command()
run_wrapper = [] if sys.argv[5:6] == ['build-machine'] else wrapper
groups = [t for t in listed if '__' in t]
failures = []
ran = []


def run(*args):
    r = subprocess.run(run_wrapper + [run_exe] + list(args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    return r.returncode, r.stdout


status, out = run('--list-targets')
compiled = out.split()
mine = [t for t in compiled if t in listed]
if status != 0 or mine != listed:
    failures.append('--list-targets: expected %s in this order among %s (status %d)' % (listed, compiled, status))

for g in groups:
    members = g.split('__')
    for spelling in (g, '+'.join(members), '+'.join(reversed(members)), '+'.join(reversed(members)).lower()):
        status, out = run('--target', spelling, '--', *(wrapper + [prog]))
        if status == 77 and 'this CPU lacks it' in out:
            print('--target %s: skipped, this CPU lacks a member of %s' % (spelling, g))
        elif status != 0 or 'selected: %s\nC: %s\n' % (g, g) not in out:
            failures.append('--target %s: expected %s selected, got status %d:\n%s' % (spelling, g, status, out))
        else:
            ran.append(spelling)

if groups:
    bad = groups[0].split('__')[0] + '+NOSUCH'
    status, out = run('--target', bad, '--', 'true')
    if status != 65 or 'unknown target "%s"' % bad not in out:
        failures.append('--target %s: expected 65, got %d: %s' % (bad, status, out))
    else:
        ran.append('%s: 65' % bad)
# A group of two enabled targets, neither implied by the other, that no
# source asked for.
spare = next(('__'.join((b, a)) for i, a in enumerate(enabled) for b in enabled[i + 1:]
              if a not in closure[b] and b not in closure[a] and '__'.join((b, a)) not in compiled), None)
if spare:
    status, out = run('--target', spare.replace('__', '+'), '--', 'true')
    if status != 66 or 'no dispatch source of this build was compiled for %s' % spare not in out:
        failures.append('--target %s: expected 66, got %d: %s' % (spare, status, out))
    else:
        ran.append('%s: 66' % spare.replace('__', '+'))

# --each-target: each group's run selects that group (its banner is
# followed by the program's line), or is skipped for want of a member.
status, out = run('--each-target', '--', *(wrapper + [prog]))
if status not in (0, 77):
    failures.append('--each-target: status %d:\n%s' % (status, out))
for g in groups:
    if 'cpudispatch-run: %s skipped: this CPU lacks it' % g in out:
        continue
    banner = 'cpudispatch-run: == target %s ==\nselected: %s\n' % (g, g)
    if banner not in out or 'cpudispatch-run: %s ok' % g not in out:
        failures.append('--each-target did not run %s as the best target:\n%s' % (g, out))
    else:
        ran.append('each-target ' + g)

print('groups of the source: %s; ran: %s' % (' '.join(groups) or '(none)', ', '.join(ran) or '(nothing)'))
if failures:
    print('\n'.join('FAIL ' + f for f in failures))
    sys.exit(1)
if not ran:
    sys.exit(77)
