#!/usr/bin/env python3
"""Bad and odd inputs of tools/cpudispatch_gen.py, against this build's real
configuration file: each error is one clear line and exit status 1, never a
traceback.   gen_inputs.py GEN_SCRIPT TARGETS_TXT"""
import os
import subprocess
import sys
import tempfile

gen, cfg = sys.argv[1], sys.argv[2]
failures = []


def run(*args, config=cfg):
    return subprocess.run([sys.executable, gen, '--config', config] + list(args), capture_output=True, text=True)


def expect_error(args, needle, config=cfg):
    r = run(*args, config=config)
    lines = r.stderr.strip().splitlines()
    if r.returncode != 1 or len(lines) != 1 or not lines[0].startswith('cpudispatch: ') or needle not in lines[0]:
        failures.append('%s: expected one line with %r and status 1, got %d: %r' % (args, needle, r.returncode,
                                                                                     r.stderr))


expect_error(['--list', 'my-kernel', 'baseline'], 'dispatch source name "my-kernel" must be a C identifier')
expect_error(['--list', 'k', 'baseline avx3'], 'dispatch source "k": unknown target "avx3"')
expect_error(['--list', 'k', 'baseline'], 'cannot read the configuration', config='/nonexistent/targets.txt')

# One list serves every arch: names of the others are ignored, spelling and
# separators do not matter, and the order written does not either.
arch = [l.split()[1] for l in open(cfg) if l.startswith('arch ')][0]
targets = [l.split()[1] for l in open(cfg) if l.startswith('target ')]
foreign = [l.split()[1] for l in open(cfg) if l.startswith('foreign ')]
r = run('--list', 'k', ' '.join(foreign[:5]))
if r.returncode != 0 or r.stdout.split():
    failures.append('only names of other arches: expected an empty list, got %r %r' % (r.stdout, r.stderr))
if len(targets) >= 2:
    a, b = targets[0], targets[-1]
    one = run('--list', 'k', 'baseline %s %s' % (a, b)).stdout.split()
    two = run('--list', 'k', '%s,%s ,  BASELINE' % (b.lower(), a.lower())).stdout.split()
    if one != two or one != ['baseline', a, b]:  # baseline, then ascending interest
        failures.append('order/case/separators changed the list: %s vs %s' % (one, two))
with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, 'k.dispatch.h')
    r = run('--header', out, 'k', 'baseline ' + ' '.join(targets[-1:] + foreign[:1]))
    text = open(out).read() if r.returncode == 0 else ''
    if foreign and 'target, ignored on %s' % arch not in text:
        failures.append('the header does not note the ignored name of another arch')
# Retired names (NumPy's AVX512_KNL, ...) are ignored with a note, as in the
# cpu-dispatch option and the env variables: never an error.
retired = [l.split()[1] for l in open(cfg) if l.startswith('retired ')]
if retired:
    r = run('--list', 'k', 'baseline ' + retired[0].lower())
    if r.returncode != 0 or r.stdout.split() != ['baseline'] or 'is retired on %s; ignored' % arch not in r.stderr:
        failures.append('retired name %s: expected it ignored with a note, got %d %r %r'
                        % (retired[0], r.returncode, r.stdout, r.stderr))
# --register records a source's list for cpudispatch-run; two projects'
# sources of the same name in one configure keep both lists.
if len(targets) >= 2:
    with tempfile.TemporaryDirectory() as d:
        run('--list', '--register', d, 'k', 'baseline ' + targets[0])
        run('--list', '--register', d, 'k', targets[-1])
        got = open(os.path.join(d, 'k.txt')).read().split()
        if got != ['baseline', targets[0], targets[-1]]:
            failures.append('--register twice for "k": expected both lists kept, got %r' % got)
if failures:
    print('\n'.join('FAIL: ' + f for f in failures))
    sys.exit(1)
print('PASS')
