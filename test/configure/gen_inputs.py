#!/usr/bin/env python3
"""Bad and odd inputs of src/build_side/cpudispatch_gen.py, against this build's real
configuration file: each error is one clear line and exit status 1, never a
traceback, and no header written.   gen_inputs.py GEN_SCRIPT TARGETS_TXT

The generator runs as the loop of docs/quickstart.md runs it (`SOURCE
WANTED` pairs, every source of the loop in one run), with --out-dir a
temporary folder, or with the variables Meson's run_command() sets. Also
what one run for many sources must keep: each word names its source, one
bad source writes nothing for the others, a rerun redoes only the sources
whose inputs changed (and every source whose file changed), and the kernel
names several sources make with their own macros come from one
preprocessor run, each source's own."""
import json
import os
import re
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
        wrote = {n: open(os.path.join(d, n)).read() for n in os.listdir(d) if n != CACHE}
        if where is not False and r.returncode != 0 and os.path.exists(os.path.join(d, CACHE)):
            wrote[CACHE] = 'written by a run that failed'
    return r, wrote


CACHE = '.cpudispatch-gen-cache.json'


def listed(r):
    """The targets of the printed words LIBRARY:ARG|...:SOURCE (LIBRARY k_TARGET)."""
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
# them CPUD_TARGET=TARGET, ':', the source as given.
for w in r.stdout.split():
    parts = w.split(':')
    lib, args = parts[0], parts[1].split('|') if len(parts) == 3 else []
    t = lib[len('k_'):]
    if len(parts) != 3 or not lib.startswith('k_') or '-DCPUD_TARGET=' + t not in args or '' in args \
            or parts[2] != 'k.dispatch.c':
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

# --- several sources in one run ----------------------------------------------
def run_many(pairs, d, extra=()):
    args = [x for p in pairs for x in p]
    return subprocess.run([sys.executable, gen, '--config', cfg, '--out-dir', d] + list(extra) + args,
                          capture_output=True, text=True,
                          env={k: v for k, v in os.environ.items() if k not in MESON_VARS})


def redone(d):
    with open(os.path.join(d, CACHE)) as fh:
        return json.load(fh).get('last_redone')


expect_error('k.dispatch.c', 'baseline', 'the arguments are pairs', extra=['j.dispatch.c'])
expect_error('a b/k.dispatch.c', 'baseline', 'its path holds whitespace or ":"')
expect_error('c:/src/k.dispatch.c', 'baseline', 'its path holds whitespace or ":"')
with tempfile.TemporaryDirectory() as d:
    for what, pairs, needle in [
            ('one name twice', [('a/k.dispatch.c', 'baseline'), ('b/k.dispatch.cpp', 'baseline')],
             'dispatch sources "a/k.dispatch.c" and "b/k.dispatch.cpp" have one name, "k"'),
            ('a bad list after a good one', [('j.dispatch.c', 'baseline'), ('k.dispatch.c', 'baseline avx3')],
             'dispatch source "k": unknown target "avx3"')]:
        r = run_many(pairs, d)
        if r.returncode != 1 or needle not in r.stderr or r.stdout or os.listdir(d):
            failures.append('%s: expected status 1, %r and nothing written, got %d %r %r %s'
                            % (what, needle, r.returncode, r.stderr, r.stdout, os.listdir(d)))
if targets:
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, 'src')
        os.makedirs(src)
        # Two sources whose kernel names come from their own macros, of one
        # macro name with other bodies; a third with a literal name that
        # includes a file of its own.
        texts = {'ma.dispatch.c': '#include "ma.dispatch.h"\n#define K(T) int CPUD_FN(ma_##T)(void) { return 1; }\n'
                                  'K(f32)\nK(f64)\n',
                 'mb.dispatch.cpp': '#include "mb.dispatch.h"\n#define K(T) int CPUD_FN(mb_##T##_x)(void);\nK(u8)\n',
                 'mc.dispatch.c': '#include "mc.dispatch.h"\n#define K(T) int CPUD_FN(mc_##T)(void);\nK(i8)\n',
                 'lit.dispatch.c': '#include "lit.dispatch.h"\n#include "lit_part.h"\nint CPUD_FN(lit)(void);\n',
                 'lit_part.h': '/* none yet */\n'}
        for n, t in texts.items():
            with open(os.path.join(src, n), 'w') as fh:
                fh.write(t)
        log = os.path.join(d, 'cpp.log')
        # The preprocessor behind a wrapper that counts its runs.
        cc = ['--cc=sh', '--cc=-c', '--cc=echo run >> %s; exec cc "$@"' % log, '--cc=sh']
        cxx = [a.replace('--cc=', '--cxx=').replace('exec cc', 'exec c++') for a in cc]
        pairs = [(os.path.join(src, 'ma.dispatch.c'), 'baseline ' + targets[0]),
                 (os.path.join(src, 'mb.dispatch.cpp'), 'baseline'),
                 (os.path.join(src, 'mc.dispatch.c'), 'baseline'),
                 (os.path.join(src, 'lit.dispatch.c'), 'baseline ' + targets[-1])]
        out = os.path.join(d, 'out')
        r = run_many(pairs, out, cc + cxx)
        words = r.stdout.split()
        heads = {n: open(os.path.join(out, n + '.dispatch.h')).read() for n in ('ma', 'mb', 'mc', 'lit')
                 if os.path.exists(os.path.join(out, n + '.dispatch.h'))}
        runs = open(log).read().count('run') if os.path.exists(log) else 0
        by_source = [w.split(':')[2] for w in words]
        if r.returncode != 0 or by_source != sorted(by_source, key=[p[0] for p in pairs].index) \
                or [w.split(':')[0] for w in words] != ['ma_baseline', 'ma_' + targets[0], 'mb_baseline',
                                                        'mc_baseline', 'lit_baseline', 'lit_' + targets[-1]]:
            failures.append('three sources in one run: words %r, stderr %r' % (words, r.stderr))
        elif sorted(heads) != ['lit', 'ma', 'mb', 'mc']:
            failures.append('three sources in one run: headers %s' % sorted(heads))
        else:
            names = {n: re.findall(r'#define CPUD__SOURCE_OF_(\w+) ', h) for n, h in heads.items()}
            if names != {'ma': ['ma_f32', 'ma_f64'], 'mb': ['mb_u8_x'], 'mc': ['mc_i8'], 'lit': ['lit']}:
                failures.append('kernel names per source: %s' % names)
            # One C run for ma and mc, one C++ run for mb: never one per source.
            if runs != 2:
                failures.append('the macros of three sources (C, C++, C) took %d preprocessor runs, expected 2'
                                % runs)
        # A rerun: nothing redone; one list changed: that source alone; a
        # file one source includes changed: that source alone, its new name
        # in its header.
        r2 = run_many(pairs, out, cc + cxx)
        if r2.returncode != 0 or r2.stdout != r.stdout or redone(out) != []:
            failures.append('an unchanged rerun: redone %r, words the same: %s' % (redone(out), r2.stdout == r.stdout))
        pairs[1] = (pairs[1][0], 'baseline ' + targets[0])
        r3 = run_many(pairs, out, cc + cxx)
        if r3.returncode != 0 or redone(out) != ['mb'] or 'mb_' + targets[0] not in r3.stdout:
            failures.append('one list changed: redone %r (expected mb alone), %r' % (redone(out), r3.stderr))
        with open(os.path.join(src, 'lit_part.h'), 'w') as fh:
            fh.write('int CPUD_FN(lit_more)(void);\n')
        r4 = run_many(pairs, out, cc + cxx)
        lit_h = open(os.path.join(out, 'lit.dispatch.h')).read()
        if r4.returncode != 0 or redone(out) != ['lit'] or 'lit_more_baseline ' not in lit_h:
            failures.append('an included file changed: redone %r (expected lit alone), its name in the header: %s'
                            % (redone(out), 'lit_more_baseline ' in lit_h))
        # A file the preprocessor refuses beside another of its language:
        # the other keeps its names (the run is redone file by file).
        with open(os.path.join(src, 'ma.dispatch.c'), 'a') as fh:
            fh.write('#if\n#endif\n')
        with open(os.path.join(src, 'mc.dispatch.c'), 'a') as fh:
            fh.write('K(i16)\n')
        r5 = run_many(pairs, out, cc + cxx)
        mc_h = open(os.path.join(out, 'mc.dispatch.h')).read()
        if r5.returncode != 0 or sorted(redone(out)) != ['ma', 'mc'] or 'mc_i16_baseline ' not in mc_h:
            failures.append('a file the preprocessor refuses: the other source lost its names (redone %r, %r)'
                            % (redone(out), r5.stderr))
if failures:
    print('\n'.join('FAIL: ' + f for f in failures))
    sys.exit(1)
print('PASS')
