#!/usr/bin/env python3
"""The build options' "-NAME" and the DISABLE variable's NAME turn off the
same features (docs/options.md, "Removing a feature or group"): for every
feature of the build's arch, and for the hand-pinned lines of
removal_cases.txt (x86_64 names) through both parsers.

  check_removal.py SOURCE_ROOT REMOVAL_EXE    exit 0 pass, 1 fail
REMOVAL_EXE (test/grammar/removal.cpp) runs under $MESON_EXE_WRAPPER."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # test/
import exe_wrapper  # noqa: E402  (test/exe_wrapper.py)

root, exe = sys.argv[1], sys.argv[2]
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(root, 'src', 'build_side'))
import cpudispatch_grammar as grammar  # noqa: E402
from cpudispatch_model import Model  # noqa: E402

features = os.path.join(root, 'src', 'features')
wrapper = exe_wrapper.command()
p = subprocess.run(wrapper + [exe], capture_output=True, text=True)
lines = p.stdout.splitlines()
if p.returncode != 0 or not lines or not lines[0].startswith('arch '):
    print('FAIL: %s exited %d: %s' % (exe, p.returncode, p.stderr.strip()))
    sys.exit(1)
env = {}
for line in lines[1:]:
    name, _, rest = line.partition(':')
    env[name] = rest.split()
failures = []


def options_off(arch, name):
    """What "max -NAME" in cpu-dispatch leaves out of "max"."""
    got = grammar.parse_option(arch, 'dispatch', 'max -' + name, {'DETECT': [], 'NATIVE': []}, arch.names,
                               lambda note: None)
    return [n for n in arch.names if n not in got]


host = Model.from_tables(features, lines[0].split()[1])
if sorted(env) != sorted(host.names):
    failures.append('the variable parser knows %s, the table %s' % (sorted(env), sorted(host.names)))
for n in host.names:
    opt = options_off(host, n)
    if env.get(n) != opt:
        failures.append('%s: DISABLE turns off %s; "-%s" removes %s' % (n, env.get(n), n.lower(), opt))
print('%s: %d names compared, options and variable' % (host.arch, len(host.names)))

x86 = Model.from_tables(features, 'x86_64')
cases = 0
for line in open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'removal_cases.txt')):
    if not line.strip() or line.startswith('#'):
        continue
    name, _, rest = line.partition(' -> ')
    off_part, _, on_part = rest.partition(';')
    want_off, want_on = off_part.split()[1:], on_part.split()[1:]
    got = {'options': options_off(x86, name)}
    if host.arch == 'x86_64':
        got['variable'] = env[x86.token[name.upper()]]
    for parser, off in got.items():
        if not set(want_off) <= set(off) or set(want_on) & set(off):
            failures.append('%s: %s turns off %s; expected among them %s and none of %s'
                            % (parser, name, ' '.join(off), ' '.join(want_off), ' '.join(want_on)))
    cases += 1
print('removal_cases.txt: %d cases (options%s)' % (cases, ', variable' if host.arch == 'x86_64' else ''))
if failures or cases == 0:
    print('\n'.join('FAIL: ' + f for f in failures))
    sys.exit(1)
print('PASS')
