#!/usr/bin/env python3
"""Bad and odd inputs of tools/cpudispatch_gen.py, against this build's real
configuration file: each error is one clear line and exit status 1, never a
traceback, and no header written.   gen_inputs.py GEN_SCRIPT TARGETS_TXT

The generator runs as the loop of docs/quickstart.md runs it (`SOURCE
WANTED`), with --out-dir a temporary folder, or with the variables Meson's
run_command() sets."""
import os
import subprocess
import sys
import tempfile

gen, cfg = sys.argv[1], sys.argv[2]
failures = []
MESON_VARS = ('MESON_BUILD_ROOT', 'MESON_SUBDIR', 'MESON_SOURCE_ROOT')


def run(source, wanted, config=cfg, out_dir=None, extra=(), env=None):
    """(completed process, {file name: text} of what it wrote in out_dir)."""
    with tempfile.TemporaryDirectory() as d:
        where = d if out_dir is None else out_dir
        args = list(extra) + ([] if where is False else ['--out-dir', where])
        e = {k: v for k, v in os.environ.items() if k not in MESON_VARS}
        e.update(env or {})
        r = subprocess.run([sys.executable, gen, '--config', config] + args + [source, wanted], capture_output=True,
                           text=True, env=e)
        wrote = {n: open(os.path.join(d, n)).read() for n in os.listdir(d)}
    return r, wrote


def listed(r):
    """The targets of the printed words LIBRARY:ARG|... (LIBRARY k_TARGET)."""
    return [w.split(':', 1)[0][len('k_'):] for w in r.stdout.split()]


def expect_error(source, wanted, needle, **kw):
    r, wrote = run(source, wanted, **kw)
    lines = r.stderr.strip().splitlines()
    if r.returncode != 1 or len(lines) != 1 or not lines[0].startswith('cpudispatch: ') or needle not in lines[0]:
        failures.append('%s %r: expected one line with %r and status 1, got %d: %r' % (source, wanted, needle,
                                                                                       r.returncode, r.stderr))
    elif r.stdout or wrote:
        failures.append('%s %r: an error, yet it printed %r and wrote %s' % (source, wanted, r.stdout, sorted(wrote)))


expect_error('src/my-kernel.dispatch.c', 'baseline',
             'dispatch source "src/my-kernel.dispatch.c": its name "my-kernel" (the file name up to the first dot) '
             'must be a C identifier')
expect_error('k.dispatch.c', 'baseline avx3', 'dispatch source "k": unknown target "avx3"')
expect_error('k.dispatch.c', 'baseline', 'cannot read the configuration', config='/nonexistent/targets.txt')
# Not through run_command() and no --out-dir: nowhere to write the header.
expect_error('k.dispatch.c', 'baseline', 'not run by Meson', out_dir=False)

# One list serves every arch: names of the others are ignored, spelling and
# separators do not matter, and the order written does not either.
arch = [l.split()[1] for l in open(cfg) if l.startswith('arch ')][0]
targets = [l.split()[1] for l in open(cfg) if l.startswith('target ')]
foreign = [l.split()[1] for l in open(cfg) if l.startswith('foreign ')]
r, wrote = run('k.dispatch.c', ' '.join(foreign[:5]))
if r.returncode != 0 or r.stdout.split() or sorted(wrote) != ['k.dispatch.h']:
    failures.append('only names of other arches: expected an empty list and a header, got %r %r %s'
                    % (r.stdout, r.stderr, sorted(wrote)))
if len(targets) >= 2:
    a, b = targets[0], targets[-1]
    one = listed(run('k.dispatch.c', 'baseline %s %s' % (a, b))[0])
    two = listed(run('src/k.dispatch.cpp', '%s,%s ,  BASELINE' % (b.lower(), a.lower()))[0])
    if one != two or one != ['baseline', a, b]:  # baseline, then ascending interest
        failures.append('order/case/separators/the source\'s folder changed the list: %s vs %s' % (one, two))
r, wrote = run('k.dispatch.c', 'baseline ' + ' '.join(targets[-1:] + foreign[:1]))
text = wrote.get('k.dispatch.h', '')
if foreign and 'target, ignored on %s' % arch not in text:
    failures.append('the header does not note the ignored name of another arch')
# Each word: LIBRARY (NAME_TARGET), ':', the arguments joined by '|', one of
# them CPUD_TARGET=TARGET.
for w in r.stdout.split():
    lib, sep, args = w.partition(':')
    t = lib[len('k_'):]
    if not sep or not lib.startswith('k_') or '-DCPUD_TARGET=' + t not in args.split('|') or '' in args.split('|'):
        failures.append('malformed word %r' % w)
# Run by Meson's run_command(): the header goes to the calling meson.build's
# build folder, $MESON_BUILD_ROOT/$MESON_SUBDIR; unchanged text is not
# rewritten (nothing rebuilds for nothing).
with tempfile.TemporaryDirectory() as d:
    env = {'MESON_BUILD_ROOT': d, 'MESON_SUBDIR': os.path.join('sub', 'dir')}
    r, _ = run('k.dispatch.c', 'baseline', out_dir=False, env=env)
    path = os.path.join(d, 'sub', 'dir', 'k.dispatch.h')
    if r.returncode != 0 or not os.path.exists(path):
        failures.append('under run_command()\'s variables: expected %s, got %d %r' % (path, r.returncode, r.stderr))
    else:
        os.utime(path, (1, 1))
        run('k.dispatch.c', 'baseline', out_dir=False, env=env)
        if os.stat(path).st_mtime != 1:
            failures.append('an unchanged header was rewritten')
# A flag the loop's split would break (':' or '|' in it; whitespace cannot
# reach the file): an error naming it, not a word the loop misreads.
if targets:
    with tempfile.TemporaryDirectory() as d:
        bad = os.path.join(d, 'targets.txt')
        with open(bad, 'w') as fh:
            for line in open(cfg):
                fh.write(line.rstrip('\n') + (' -Dx=a:b' if line.split()[:2] == ['target-flags', targets[0]] else '')
                         + '\n')
        expect_error('k.dispatch.c', targets[0], 'flag "-Dx=a:b" of %s holds whitespace' % targets[0], config=bad)
# Retired names (NumPy's AVX512_KNL, ...) are ignored with a note, as in the
# cpu-dispatch option and the env variables: never an error.
retired = [l.split()[1] for l in open(cfg) if l.startswith('retired ')]
if retired:
    r, _ = run('k.dispatch.c', 'baseline ' + retired[0].lower())
    if r.returncode != 0 or listed(r) != ['baseline'] or 'is retired on %s; ignored' % arch not in r.stderr:
        failures.append('retired name %s: expected it ignored with a note, got %d %r %r'
                        % (retired[0], r.returncode, r.stdout, r.stderr))
# --register records a source's list for cpudispatch-run; two projects'
# sources of the same name in one configure keep both lists.
if len(targets) >= 2:
    with tempfile.TemporaryDirectory() as d:
        run('k.dispatch.c', 'baseline ' + targets[0], extra=['--register', d])
        run('other/k.dispatch.cpp', targets[-1], extra=['--register', d])
        got = open(os.path.join(d, 'k.txt')).read().split()
        if got != ['baseline', targets[0], targets[-1]]:
            failures.append('--register twice for "k": expected both lists kept, got %r' % got)
if failures:
    print('\n'.join('FAIL: ' + f for f in failures))
    sys.exit(1)
print('PASS')
