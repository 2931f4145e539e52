#!/usr/bin/env python3
"""cpudispatch-run's own contract: the statuses and one-line messages of
docs/testing-your-code.md, what each mode sets in the environment, and how
it reports runs.

  run_cli.py CPUDISPATCH_RUN TARGETS_TXT ENV_PREFIX [WINE WINDOWS_PROGRAM]

With WINE (a Windows build: cpudispatch-run is a build-machine program that
starts Wine) the --cpu cases are Wine's, and WINDOWS_PROGRAM (a .exe that
exits 0 and prints) is run through it as it is."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

run_exe, targets_txt, prefix = sys.argv[1:4]
wine, windows_program = (sys.argv[4:6] + [None, None])[:2]
DIS, EN = prefix + '_DISABLE_CPU_FEATURES', prefix + '_ENABLE_CPU_FEATURES'
failures = []


def run(args, env_extra=None, path=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith(prefix + '_')}
    env.update(env_extra or {})
    if path is not None:
        env['PATH'] = path
    return subprocess.run([run_exe] + args, capture_output=True, text=True, env=env)


def expect(args, status, needle, one_line=True, **kw):
    r = run(args, **kw)
    lines = r.stderr.strip().splitlines()
    ok = r.returncode == status and needle in r.stderr
    if one_line:
        ok = ok and len(lines) == 1 and lines[0].startswith('cpudispatch-run: ') and r.stdout == ''
    print('%-70s -> %d %s' % (' '.join(args)[:70], r.returncode, 'ok' if ok else 'WRONG'))
    if not ok:
        failures.append('%s: expected status %d and %s%r, got %d:\n%s%s'
                        % (args, status, 'one line with ' if one_line else '', needle, r.returncode, r.stdout,
                           r.stderr))
    return r


feature_names = [l.split()[1] for l in open(targets_txt) if l.startswith('feature ')]
arch = [l.split()[1] for l in open(targets_txt) if l.startswith('arch ')][0]
compiled = run(['--list-targets']).stdout.split()
models = run(['--list-cpus']).stdout.split()
if not compiled or compiled[0] != 'baseline':
    failures.append('--list-targets should start with baseline: %r' % compiled)

# Bad input: one line, a distinct status each.
expect([], 64, 'no mode given')
expect(['--zap', '--', 'true'], 64, 'unknown argument "--zap"')
expect(['--each-target'], 64, 'no command given after --')
expect(['--target'], 64, '--target needs a value')
expect(['--each-target', '--', 'true'], 64, 'CPUDISPATCH_RUN="twice": the one value is once',
       env_extra={'CPUDISPATCH_RUN': 'twice'})
# CPUDISPATCH_RUN=once: one run, as it is, under either each_* mode.
for mode in ('--each-target', '--each-cpu'):
    r = run([mode, '--', 'true'], env_extra={'CPUDISPATCH_RUN': 'once'})
    print('%-70s -> %d' % ('CPUDISPATCH_RUN=once %s -- true' % mode, r.returncode))
    if r.returncode != 0 or 'CPUDISPATCH_RUN=once: the command runs once, as it is' not in r.stderr \
            or '== target' in r.stderr or '== cpu' in r.stderr:
        failures.append('CPUDISPATCH_RUN=once %s: expected one plain run, got %d %r' % (mode, r.returncode,
                                                                                      r.stderr))
expect(['--target', 'avx9', '--', 'true'], 65, 'unknown target "avx9"; valid names on %s: baseline ' % arch)
expect(['--cpu', 'Pentium9', '--', 'true'], 65, 'unknown CPU model "Pentium9"; models for %s: %s'
       % (arch, ' '.join(models)))
absent = [f for f in feature_names if f not in compiled]
if absent:
    expect(['--target', absent[-1], '--', 'true'], 66,
           'no dispatch source of this build was compiled for %s; compiled targets: %s'
           % (absent[-1], ' '.join(compiled)))

# --target: the env it sets, whatever the caller had set; status passthrough.
show = ['sh', '-c', 'echo "D=${%s-unset} E=${%s-unset}"' % (DIS, EN)]
top = compiled[-1]
# A group target (AVX512_SKX__VPCLMULQDQ) names its members, highest first.
members = lambda t: t.split('__')
# The highest compiled target this CPU runs (the baseline if none).
runs_here = [t for t in compiled[1:] if run(['--target', t, '--', 'true']).returncode == 0]
best = runs_here[-1] if runs_here else None
if best:
    # A caller's ENABLE that keeps `best` usable is replaced by best's own.
    r = run(['--target', best, '--'] + show, env_extra={EN: ' '.join(m for t in runs_here for m in members(t))})
    if r.returncode != 0 or r.stdout.strip() != 'D=unset E=%s' % ' '.join(members(best)):
        failures.append('--target %s should set only %s=%s, got %d %r %r'
                        % (best, EN, ' '.join(members(best)), r.returncode, r.stdout, r.stderr))
every = list(dict.fromkeys(m for t in compiled[1:] for m in members(t)))  # each feature once
r = run(['--target', 'baseline', '--'] + show)
if r.stdout.strip() != 'D=%s E=unset' % ' '.join(every) and len(compiled) > 1:
    failures.append('--target baseline should disable every compiled target, got %r' % r.stdout)
r = run(['--target', 'baseline', '--', 'sh', '-c', 'exit 3'])
if r.returncode != 3:
    failures.append('--target: the command exit status 3 should pass through, got %d' % r.returncode)
r = run(['--target', 'baseline', '--', 'sh', '-c', 'kill -ILL $$'])
if r.returncode != 128 + 4:
    failures.append('--target: a command killed by SIGILL should give 132, got %d' % r.returncode)

# --each-target: one line per target, the failing one named, 77 when all skip.
if len(compiled) > 1:
    bad = compiled[1]
    r = run(['--each-target', '--', 'sh', '-c', 'test "${%s-}" != %s' % (EN, bad)])
    if (r.returncode != 1 or 'cpudispatch-run: %s FAILED (exit 1)' % bad not in r.stderr
            or 'FAILED under targets %s\n' % bad not in r.stderr or 'baseline ok' not in r.stderr):
        failures.append('--each-target should fail naming only %s:\n%s' % (bad, r.stderr))
r = run(['--each-target', '--', 'sh', '-c', 'exit 77'])
if r.returncode != 77 or 'every target was skipped' not in r.stderr:
    failures.append('--each-target with every run skipped should exit 77:\n%s' % r.stderr)

# --each-target: on stdout too, each run's output follows its own banner
# ("# cpudispatch-run: ...", a TAP comment); a single run's stdout is the
# program's alone (the --target and --cpu cases around compare it whole).
r = run(['--each-target', '--', 'sh', '-c', 'echo "out: ${%s-baseline}"' % EN])
out = r.stdout.splitlines()
ran = [l.split('== target ', 1)[1].rstrip(' =') for l in out if '== target ' in l]
want = []
for t in ran:
    want += ['# cpudispatch-run: == target %s ==' % t,
             'out: %s' % ('baseline' if t == 'baseline' else ' '.join(members(t))), '# cpudispatch-run: %s ok' % t]
# (a target this CPU lacks is a "skipped" line of its own, and the summary
# then names it after the ones that ran)
body = [l for l in out if not re.match(r'# cpudispatch-run: \S+ skipped: ', l)]
if (r.returncode != 0 or not ran or body[:-1] != want
        or not body[-1].startswith('# cpudispatch-run: ok under targets %s' % ' '.join(ran))):
    failures.append('--each-target stdout should hold each run\'s banner, output and outcome in order:\n%s\nwanted:\n%s'
                    % (r.stdout, '\n'.join(want)))

# A mask already in the environment stays in force: a target it leaves
# unusable is skipped, naming the variable; the others run.
if best:
    off = members(best)[0]
    r = run(['--each-target', '--', 'sh', '-c', 'exit 0'], env_extra={DIS: off})
    line = 'cpudispatch-run: %s skipped: %s=%s leaves it unusable' % (best, DIS, off)
    if r.returncode != 0 or line not in r.stderr or 'baseline ok' not in r.stderr:
        failures.append('--each-target under %s=%s should skip %s:\n%s' % (DIS, off, best, r.stderr))
    expect(['--target', best, '--', 'true'], 77, '%s skipped: %s=%s leaves it unusable' % (best, DIS, off),
           env_extra={DIS: off})
    r = run(['--each-target', '--', 'true'], env_extra={DIS: 'nosuchfeature'})
    if r.returncode != 78 or 'unknown CPU feature "nosuchfeature"' not in r.stderr:
        failures.append('--each-target under %s=nosuchfeature should stop as a program would (78):\n%s'
                        % (DIS, r.stderr))

# --cpu: qemu missing is a skip with one line; status 69 (below the baseline)
# is a skip; the model runs the program.
with tempfile.TemporaryDirectory() as empty:
    expect(['--cpu', models[0], '--', '/bin/true'], 77, 'is not installed', path=empty)
# --cpu: what runs under the model, seen through a stand-in qemu that prints
# its arguments. A program of the build's arch is wrapped; a command that is
# already this arch's qemu (a cross build's exe_wrapper) gets -cpu MODEL last
# before its program (qemu-user takes the last -cpu); a script runs as it is,
# with MESON_EXE_WRAPPER naming the model.
with tempfile.TemporaryDirectory() as d:
    fake = os.path.join(d, 'qemu-' + arch)
    script = os.path.join(d, 'scripted-test')
    for path, body in ((fake, 'echo "qemu: $*"'), (script, 'echo "script: $MESON_EXE_WRAPPER"')):
        with open(path, 'w') as fh:
            fh.write('#!/bin/sh\n%s\n' % body)
        os.chmod(path, 0o755)
    m = models[0]
    on_path = d + ':' + os.environ.get('PATH', '')
    cases = (([run_exe, '-x'], 'qemu: -cpu %s %s -x' % (m, run_exe)),
             ([fake, '-L', '/s', '-strace', '--E', 'A=1', '-cpu', 'other', run_exe, '-x'],
              'qemu: -L /s -strace --E A=1 -cpu other -cpu %s %s -x' % (m, run_exe)),
             ([fake, '-L', '/s', '--', run_exe], 'qemu: -L /s -cpu %s -- %s' % (m, run_exe)),
             ([script], 'script: qemu-%s -cpu %s' % (arch, m)),
             # a bare name is looked up on PATH: qemu-user does not search it
             (['true'], 'qemu: -cpu %s %s' % (m, shutil.which('true', path=on_path))))
    env_extra = None
    if wine:
        # Windows: Wine's launcher (the exe_wrapper) or a .exe as it is runs
        # as Wine's own program inside qemu; Wine must stay in the emulator
        # and start no debugger (a caller's DLL overrides are kept); a
        # script's programs get the same wrapper.
        exe = os.path.join(d, 'app.exe')
        with open(exe, 'w') as fh:
            fh.write('MZ not run')
        os.chmod(exe, 0o755)
        with open(script, 'w') as fh:
            fh.write('#!/bin/sh\necho "script: $MESON_EXE_WRAPPER|$WINELOADERNOEXEC|$WINEDLLOVERRIDES"\n')
        env_extra = {'WINEDLLOVERRIDES': 'mscoree=d'}
        cases = ((['wine', exe, '-x'], 'qemu: -cpu %s %s %s -x' % (m, wine, exe)),
                 ([os.path.join(d, 'wine64'), exe], 'qemu: -cpu %s %s %s' % (m, wine, exe)),
                 ([exe, '-x'], 'qemu: -cpu %s %s %s -x' % (m, wine, exe)),
                 ([script], 'script: qemu-%s -cpu %s %s|1|mscoree=d;winedbg.exe=d' % (arch, m, wine)))
    for cmd, want in cases:
        r = run(['--cpu', m, '--'] + cmd, path=on_path, env_extra=env_extra)
        if r.stdout.strip() != want:
            failures.append('--cpu %s -- %s: expected %r, got %r\n%s' % (m, ' '.join(cmd), want, r.stdout.strip(),
                                                                          r.stderr))

if wine:
    # A Windows program as it is: run under Wine, natively.
    r = run(['--target', 'baseline', '--', windows_program])
    if r.returncode != 0 or not r.stdout.strip():
        failures.append('--target baseline -- %s should run it under Wine (status 0, output), got %d:\n%s%s'
                        % (windows_program, r.returncode, r.stdout, r.stderr))
    # Wine ends a program killed by an exception with its code's low byte.
    r = run(['--each-target', '--', 'sh', '-c', 'exit 29'])
    if 'baseline FAILED (exit 29: STATUS_ILLEGAL_INSTRUCTION under Wine)' not in r.stderr:
        failures.append('status 29 should be described as an illegal instruction under Wine:\n%s' % r.stderr)

if shutil.which('qemu-' + arch):  # the host arch's qemu-user (native builds, and Windows builds here)
    r = run(['--cpu', models[0], '--', '/bin/sh', '-c', 'exit 69'])
    if r.returncode != 77 or 'skipped: below this build\'s baseline' not in r.stderr:
        failures.append('--cpu: status 69 should be reported as a skip (77):\n%s' % r.stderr)
    r = run(['--cpu', models[0], '--', 'true'])
    if r.returncode != 0:
        failures.append('--cpu %s -- true (found on PATH) should exit 0, got %d:\n%s' % (models[0], r.returncode, r.stderr))
    r = run(['--each-cpu', '--', '/bin/sh', '-c', 'exit 0'])
    if r.returncode != 0 or 'ok under models %s' % ' '.join(models) not in r.stderr:
        failures.append('--each-cpu should run every model:\n%s' % r.stderr)
    # cpudispatch-run itself on the lowest model: the highest compiled target
    # is one that CPU lacks: --target skips (77), --each-target says so.
    if len(compiled) > 1:
        low = ['qemu-' + arch, '-cpu', models[0], run_exe]
        env = {k: v for k, v in os.environ.items() if not k.startswith(prefix + '_')}
        r = subprocess.run(low + ['--target', compiled[-1], '--', '/bin/true'], capture_output=True, text=True,
                           env=env)
        if r.returncode != 77 or '%s skipped: this CPU lacks it' % compiled[-1] not in r.stderr:
            failures.append('--target %s on %s should be a skip (77):\n%s' % (compiled[-1], models[0], r.stderr))
        r = subprocess.run(low + ['--each-target', '--', '/bin/true'], capture_output=True, text=True, env=env)
        if (r.returncode != 0 or '%s skipped: this CPU lacks it' % compiled[-1] not in r.stderr
                or 'baseline ok' not in r.stderr):
            failures.append('--each-target on %s should skip %s and run the baseline:\n%s'
                            % (models[0], compiled[-1], r.stderr))

if failures:
    print('\n'.join('FAIL: ' + f for f in failures))
    sys.exit(1)
print('PASS')
