#!/usr/bin/env python3
"""Runs the grammar cases of list_cases.txt that apply to this build's arch
through tools/cpudispatch_gen.py (without --register: the cases are no
dispatch sources of the build).

  list_test.py GEN_SCRIPT TARGETS_TXT CASES_TXT

Exit 77 only when the file has no case for the arch."""
import os
import subprocess
import sys
import tempfile

gen, cfg, cases_path = sys.argv[1:4]
facts = [line.split() for line in open(cfg) if line.strip() and not line.startswith('#')]
arch = next(w[1] for w in facts if w[0] == 'arch')
targets = {w[1] for w in facts if w[0] == 'target'}
# A build with -Ddisable-optimization=true: every list is just "baseline"
# (docs/quickstart.md), so list cases expect that and notes do not apply.
disabled = any(w[0] == 'disable-optimization' and w[1] == '1' for w in facts)


def gen_run(*args):
    return subprocess.run([sys.executable, gen, '--config', cfg] + list(args), capture_output=True, text=True)


def check(wanted, expected):
    """None if the generator does as expected, else what it did instead."""
    flags = wanted.startswith('--flags ')
    if expected.startswith('note: '):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, 'k.dispatch.h')
            r = gen_run('--header', out, 'k', wanted)
            text = open(out).read() if r.returncode == 0 else ''
        comment = text.split('*/')[0]
        return None if expected[6:] in comment else 'header comment:\n%s%s' % (comment, r.stderr)
    r = gen_run('--flags', wanted[8:]) if flags else gen_run('--list', 'k', wanted)
    if expected.startswith('error: '):
        lines = r.stderr.strip().splitlines()
        ok = (r.returncode == 1 and len(lines) == 1 and lines[0].startswith('cpudispatch: ')
              and all(part in lines[0] for part in expected[7:].split(' ... ')))
        return None if ok else 'status %d, stdout %r, stderr %r' % (r.returncode, r.stdout, r.stderr)
    got = ' '.join(r.stdout.split()) or '(none)'
    return None if r.returncode == 0 and got == expected else 'status %d: %s %s' % (r.returncode, got, r.stderr)


def applies(conds, expected):
    """Whether a case applies to this build: its !NAME conditions hold and
    every target its expected list names was enabled."""
    if any(c.startswith('!') and c[1:] in targets for c in conds):
        return False
    if expected.startswith(('error: ', 'note: ')):
        return True
    names = expected.split() if not expected.startswith('-') else \
        [a.split('=')[1] for a in expected.split() if a.startswith('-DCPUD_TARGET=')]
    members = [m for n in names if n not in ('baseline', '(none)') for m in n.split('__')]
    return all(m in targets for m in members)


ran = skipped = xfailed = 0
failures = []
cases = 0
for number, line in enumerate(open(cases_path), 1):
    if not line.strip() or line.startswith('#'):
        continue
    head, wanted, expected = [f.strip() for f in line.split('|')]
    words = head.split()
    if words[0] != arch:
        continue
    cases += 1
    conds = words[1:]
    xfail = 'xfail' in conds
    if disabled and expected.startswith('note: '):
        skipped += 1
        continue
    if disabled and not expected.startswith(('error: ', '-')):
        expected = 'baseline'
    elif not applies(conds, expected):
        print('n/a  line %d: %s (needs a target this build did not enable)' % (number, wanted))
        skipped += 1
        continue
    why = check(wanted, expected)
    if xfail and why is None:
        failures.append('line %d: %r now gives %r: remove its xfail mark' % (number, wanted, expected))
    elif xfail:
        print('XFAIL line %d: %r: expected %r; known, not yet fixed' % (number, wanted, expected))
        xfailed += 1
    elif why is not None:
        failures.append('line %d: %r: expected %r, got %s' % (number, wanted, expected, why))
    else:
        ran += 1

print('%s: %d cases, %d passed, %d known failures (xfail), %d not applicable' % (arch, cases, ran, xfailed,
                                                                                 skipped))
if not cases:
    print('no cases for %s in %s' % (arch, cases_path))
    sys.exit(77)
if failures:
    print('\n'.join('FAIL ' + f for f in failures))
    sys.exit(1)
