#!/usr/bin/env python3
"""src/build_side/cpudispatch_probe.py compiles the feature test programs together,
as one unit with the union of their flags, and each alone only when that
fails: its results must be those of compiling each alone (--strict).

  probe_modes.py PROBE [ARG...]

PROBE ARGs: the configure's probe command (compilers, --table FEATURES_DIR
ARCH); the requests: every feature of that table, its test program with
the feature and all it implies. Both modes run with an empty cache and must agree. The control:
the highest feature whose program does not compile alone with the lowest
feature's set (a table error: a program needing more than its features)
must come out "yes" together, or the comparison could not see what the
together mode would hide. Exit 0 pass, 1 fail."""
import os
import subprocess
import sys
import tempfile

probe = sys.argv[1:]
if '--cache' in probe:
    i = probe.index('--cache')
    del probe[i:i + 2]
i = probe.index('--table')
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(probe[0])))
from cpudispatch_model import Model  # noqa: E402  (beside the probe)
model = Model.from_tables(probe[i + 1], probe[i + 2])
tests = [(n, model.test_path[n], model.closure[n] + [n]) for n in model.names]  # (name, file, [features])
if not tests:
    print('SKIP: %s has no feature table: nothing to probe' % model.arch)
    sys.exit(77)


def run(items, strict):
    args = []
    for key, path, feats in items:
        args += ['--test', key, path, '--'] + feats + ['---']
    with tempfile.TemporaryDirectory() as d:
        cmd = [sys.executable] + probe[:1] + (['--strict'] if strict else []) + ['--cache', os.path.join(d, 'c.json')]
        r = subprocess.run(cmd + probe[1:] + args, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit('the probe failed (%d):\n%s' % (r.returncode, r.stderr))
    out = dict(l.split('\t', 1) for l in r.stdout.strip().split('\n'))
    return out, int(out.pop('@stats').split()[1])


failures = []
alone, n_alone = run(tests, True)
together, n_together = run(tests, False)
print('%d test programs: alone %d compiler runs, together %d (of which one unit of every program)'
      % (len(tests), n_alone, n_together))
for name, _, _ in tests:
    if alone[name] != together[name]:
        failures.append('%s: alone %s, together %s' % (name, alone[name], together[name]))
print('results: %s' % ' '.join('%s=%s' % (n, alone[n]) for n, _, _ in tests))

ok = [t for t in tests if alone[t[0]] == 'yes']
if len(ok) < 3:
    failures.append('fewer than three features compile here (%d): no control possible' % len(ok))
else:
    low = ok[0]
    cands = [('control-' + t[0], t[1], low[2]) for t in ok[1:]]
    c_alone, _ = run(ok + cands, True)
    needs_more = [c for c in cands if c_alone[c[0]] == 'no']
    if not needs_more:
        failures.append('no feature\'s program fails with %s\'s flags alone: no control possible' % low[0])
    else:
        control = needs_more[-1]
        high = next(t for t in ok if t[1] == control[1])
        # The unit holds each program once: the control replaces that
        # feature's own request, and another program carries its features
        # (so its flags stay in the union).
        carrier = next(t for t in ok[1:] if t is not high)
        unit = [t for t in ok if t is not high and t is not carrier]
        unit += [control, (carrier[0], carrier[1], carrier[2] + high[2])]
        c_together, _ = run(unit, False)
        print('control: %s\'s program with %s\'s features (%s): alone no, together %s'
              % (high[0], low[0], ' '.join(low[2]), c_together[control[0]]))
        if c_together[control[0]] != 'yes':
            failures.append('the control should compile together (it does not alone)')
if failures:
    print('\n'.join('FAIL: ' + f for f in failures))
    sys.exit(1)
print('PASS')
