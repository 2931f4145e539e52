#!/usr/bin/env python3
"""Runs the grammar cases of list_cases.txt that apply to this build's arch
through src/build_side/cpudispatch_gen.py, as the loop of docs/quickstart.md runs it
(`GEN SOURCE WANTED`, for a source k.dispatch.c), writing the header into a
temporary folder (--out-dir) and without --register: the cases are no
dispatch sources of the build.

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
LIB = 'k_'  # the words' LIBRARY is NAME_TARGET, NAME k


def gen_run(wanted):
    """(completed process, the header's text or '') of the generator on
    k.dispatch.c with the list `wanted`."""
    with tempfile.TemporaryDirectory() as d:
        r = subprocess.run([sys.executable, gen, '--config', cfg, '--out-dir', d, 'k.dispatch.c', wanted],
                           capture_output=True, text=True)
        out = os.path.join(d, 'k.dispatch.h')
        return r, open(out).read() if os.path.exists(out) else ''


def printed(r):
    """The printed words as (target, [arg...]); None if one is malformed
    (LIBRARY:ARG|...:SOURCE, SOURCE the one given)."""
    out = []
    for w in r.stdout.split():
        parts = w.split(':')
        if len(parts) != 3 or not parts[0].startswith(LIB) or parts[2] != 'k.dispatch.c':
            return None
        out.append((parts[0][len(LIB):], parts[1].split('|')))
    return out


def check(wanted, expected):
    """None if the generator does as expected, else what it did instead."""
    r, text = gen_run(wanted)
    if expected.startswith('note: '):
        comment = text.split('*/')[0] if r.returncode == 0 else ''
        return None if expected[6:] in comment else 'header comment:\n%s%s' % (comment, r.stderr)
    if expected.startswith('error: '):
        lines = r.stderr.strip().splitlines()
        ok = (r.returncode == 1 and len(lines) == 1 and lines[0].startswith('cpudispatch: ')
              and all(part in lines[0] for part in expected[7:].split(' ... ')) and r.stdout == '' and not text)
        return None if ok else 'status %d, stdout %r, stderr %r' % (r.returncode, r.stdout, r.stderr)
    got = printed(r)
    if r.returncode != 0 or got is None:
        return 'status %d: %r %s' % (r.returncode, r.stdout, r.stderr)
    if expected.startswith('-'):
        # ARGS: the arguments of the list's one target (a group's merge is a
        # single target's).
        if len(got) != 1:
            return 'one target expected, got %s' % ' '.join(t for t, _ in got)
        return None if got[0][1] == expected.split() else 'arguments %s' % ' '.join(got[0][1])
    # The header names the same targets, highest interest first.
    listed = ' '.join(t for t, _ in got) or '(none)'
    names = [t for t, _ in got if t != 'baseline']
    in_header = 'TARGET_NAMES "%s"' % ' '.join(list(reversed(names)) + (['baseline'] if 'baseline' in listed.split()
                                                                          else []))
    if in_header not in text:
        return 'the header does not name the printed targets (%s) in its TARGET_NAMES' % listed
    return None if listed == expected else 'status %d: %s %s' % (r.returncode, listed, r.stderr)


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
