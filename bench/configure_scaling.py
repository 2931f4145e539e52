#!/usr/bin/env python3
"""Configure cost against the number of dispatch sources, for
docs/performance.md ("Configure time and the number of dispatch sources").

  configure_scaling.py [--reps N] [--sizes 1,8,32] [--shim-sleep S] [--no-build] [TREE]

TREE (default: this checkout; a `git worktree` of an older commit gives
before/after figures) is linked as subprojects/cpudispatch of generated C
consumers: a bare project (`project('bench', 'c')` and one executable, no
cpudispatch) and one per size N with N dispatch sources, each asking for
`baseline SSE42 AVX2 AVX512_SKX`, written with TREE's own docs/quickstart.md
loop verbatim (its sources dict replaced). Each consumer is measured twice in
one run, alternately:

  - PATH clean: /usr/local/bin:/usr/bin:/bin;
  - PATH shim: a `python3` first on PATH that sleeps S seconds (0.25) and
    then runs /usr/bin/python3, standing for pyenv's shim;

and for each: cold (a new build directory, `meson setup`), warm (`meson setup
--reconfigure` with nothing changed) and edit (one source's target list
changed in meson.build, then `meson setup --reconfigure`), median of N runs
(3), the best in brackets. Meson itself always runs on /usr/bin/python3
(its shebang), as a pyenv user's Debian Meson does.

After the figures, unless --no-build: for each size, what the edit redoes
(PATH clean): the consumer is built, one list edited, reconfigured, and
`ninja -n` lists what would rebuild; the headers the reconfigure rewrote are
counted by their times.
"""
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

CLEAN_PATH = '/usr/local/bin:/usr/bin:/bin'
WANT = 'baseline SSE42 AVX2 AVX512_SKX'
EDITED = 'baseline SSE42 AVX2 X86_V3 AVX512_SKX'


def usage(msg):
    sys.exit('configure_scaling.py: %s\n%s' % (msg, __doc__.split('\n\n')[1]))


def parse(argv):
    opts = {'reps': 3, 'sizes': [1, 8, 32], 'sleep': 0.25, 'build': True, 'tree': None}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ('--reps', '--sizes', '--shim-sleep') and i + 1 < len(argv):
            v = argv[i + 1]
            try:
                if a == '--reps':
                    opts['reps'] = int(v)
                elif a == '--sizes':
                    opts['sizes'] = [int(x) for x in v.split(',')]
                else:
                    opts['sleep'] = float(v)
            except ValueError:
                usage('%s takes a number, not %r' % (a, v))
            i += 2
        elif a == '--no-build':
            opts['build'] = False
            i += 1
        elif not a.startswith('-') and opts['tree'] is None:
            opts['tree'] = a
            i += 1
        else:
            usage('unknown argument %r' % a)
    here = os.path.dirname(os.path.abspath(__file__))
    opts['tree'] = os.path.abspath(opts['tree'] or os.path.join(here, '..'))
    return opts


def loop_block(tree):
    """TREE's docs/quickstart.md snippet: its lines, and the index of the
    line holding the sources dict (`foreach src, want : {...}`)."""
    with open(os.path.join(tree, 'docs', 'quickstart.md'), encoding='utf-8') as fh:
        text = fh.read()
    inner = text.split('<!-- snippet:start -->', 1)[1].split('<!-- snippet:end -->', 1)[0]
    lines = [l for l in inner.strip().splitlines() if not l.startswith('```')]
    at = next(i for i, l in enumerate(lines) if re.match(r'\s*foreach src, want : \{.*\}\s*$', l))
    return lines, at


def write_consumer(dest, tree, n, lists):
    """A C consumer with n dispatch sources (n == 0: the bare project,
    without cpudispatch); lists: source index -> its target list."""
    os.makedirs(os.path.join(dest, 'src'))
    with open(os.path.join(dest, 'src', 'main.c'), 'w') as fh:
        if n:
            fh.write('#include "k0.dispatch.h"\nCPUD_DISPATCH_DECLARE(int k0, (const int *, int))\n'
                     'int main(void) { int v[3] = {1, 2, 3}; return CPUD_DISPATCH_CALL(k0, (v, 3)) == 6 ? 0 : 1; }\n')
        else:
            fh.write('int main(void) { return 0; }\n')
    for i in range(n):
        with open(os.path.join(dest, 'src', 'k%d.dispatch.c' % i), 'w') as fh:
            fh.write('#include "k%d.dispatch.h"\n'
                     'int CPUD_FN(k%d)(const int *p, int n) { int s = 0; for (int i = 0; i < n; i++) s += p[i]; '
                     'return s; }\n' % (i, i))
    text = "project('bench', 'c')\n"
    if n:
        os.makedirs(os.path.join(dest, 'subprojects'))
        os.symlink(tree, os.path.join(dest, 'subprojects', 'cpudispatch'))
        lines, at = loop_block(tree)
        d = ', '.join("'src/k%d.dispatch.c': '%s'" % (i, lists.get(i, WANT)) for i in range(n))
        lines[at] = re.sub(r'\{.*\}', lambda _: '{' + d + '}', lines[at])
        text += '\n'.join(lines) + '\n'
        text += "app = executable('app', 'src/main.c', link_with: kernels, dependencies: dependency('cpudispatch'))\n"
    else:
        text += "app = executable('app', 'src/main.c')\n"
    with open(os.path.join(dest, 'meson.build'), 'w') as fh:
        fh.write(text)


def run(cmd, env, cwd=None):
    t = time.perf_counter()
    r = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit('%s failed (%d):\n%s%s' % (' '.join(cmd), r.returncode, r.stdout[-3000:], r.stderr[-3000:]))
    return time.perf_counter() - t


def set_list(src, tree, n, lists):
    """Rewrites src/meson.build with these lists (the sources are kept)."""
    tmp = src + '.new'
    write_consumer(tmp, tree, n, lists)
    shutil.copy(os.path.join(tmp, 'meson.build'), os.path.join(src, 'meson.build'))
    shutil.rmtree(tmp)


def measure(tmp, tree, n, env, reps):
    """(cold, warm, edit) lists of seconds for one consumer under env."""
    src = os.path.join(tmp, 'c%d' % n)
    if not os.path.isdir(src):
        write_consumer(src, tree, n, {})
    build = os.path.join(tmp, 'b%d' % n)
    cold, warm, edit = [], [], []
    for r in range(reps):
        shutil.rmtree(build, ignore_errors=True)
        cold.append(run(['meson', 'setup', build, src], env))
        warm.append(run(['meson', 'setup', '--reconfigure', build, src], env))
        if n:
            set_list(src, tree, n, {0: EDITED if r % 2 == 0 else WANT})
            edit.append(run(['meson', 'setup', '--reconfigure', build, src], env))
    if n:
        set_list(src, tree, n, {})
    shutil.rmtree(build, ignore_errors=True)
    return cold, warm, edit


def redone(tmp, tree, n, env):
    """What editing source 0's list redoes: (headers rewritten, compile
    commands ninja would run, compile commands of a full build)."""
    src = os.path.join(tmp, 'r%d' % n)
    write_consumer(src, tree, n, {})
    build = os.path.join(tmp, 'rb%d' % n)
    run(['meson', 'setup', build, src], env)
    full = subprocess.run(['ninja', '-C', build, '-n'], env=env, capture_output=True, text=True).stdout
    run(['ninja', '-C', build], env)
    headers = [os.path.join(build, 'k%d.dispatch.h' % i) for i in range(n)]
    before = {h: os.stat(h).st_mtime_ns for h in headers}
    time.sleep(0.05)
    set_list(src, tree, n, {0: EDITED})
    run(['meson', 'setup', '--reconfigure', build, src], env)
    rewritten = [h for h in headers if os.stat(h).st_mtime_ns != before[h]]
    plan = subprocess.run(['ninja', '-C', build, '-n'], env=env, capture_output=True, text=True).stdout
    compiles = lambda out: [l for l in out.splitlines() if re.search(r'Compiling C object', l)]
    again = compiles(plan)
    return rewritten, again, compiles(full)


def fmt(xs):
    return '%.2f (%.2f)' % (statistics.median(xs), min(xs)) if xs else '—'


def main():
    o = parse(sys.argv[1:])
    with tempfile.TemporaryDirectory() as tmp:
        shim_dir = os.path.join(tmp, 'shim')
        os.makedirs(shim_dir)
        with open(os.path.join(shim_dir, 'python3'), 'w') as fh:
            fh.write('#!/bin/sh\n# stands for a pyenv shim: a slow start, then a Python\nsleep %s\n'
                     'exec /usr/bin/python3 "$@"\n' % o['sleep'])
        os.chmod(os.path.join(shim_dir, 'python3'), 0o755)
        envs = {'clean': dict(os.environ, PATH=CLEAN_PATH),
                'shim': dict(os.environ, PATH=shim_dir + ':' + CLEAN_PATH)}
        for e in envs.values():
            e.pop('PYTHONPATH', None)
        sizes = [0] + o['sizes']
        res = {}
        # Alternately, so that a slower stretch of the machine falls on both.
        for n in sizes:
            for name, env in envs.items():
                res[(n, name)] = measure(tmp, o['tree'], n, env, o['reps'])
        print('TREE %s; %d runs each, median (best), seconds; Meson %s' % (
            o['tree'], o['reps'], subprocess.run(['meson', '--version'], capture_output=True, text=True).stdout.strip()))
        print()
        print('| consumer | PATH | cold `meson setup` | × bare | warm `--reconfigure` | one list edited, `--reconfigure` |')
        print('|---|---|---|---|---|---|')
        for n in sizes:
            for name in envs:
                cold, warm, edit = res[(n, name)]
                ratio = statistics.median(cold) / statistics.median(res[(0, name)][0])
                label = 'bare C project' if n == 0 else '%d dispatch source%s' % (n, '' if n == 1 else 's')
                print('| %s | %s | %s | %.2f | %s | %s |' % (label, name, fmt(cold), ratio, fmt(warm), fmt(edit)))
        if 8 in sizes and 32 in sizes:
            print()
            for name in envs:
                slope = (statistics.median(res[(32, name)][0]) - statistics.median(res[(8, name)][0])) / 24
                wslope = (statistics.median(res[(32, name)][1]) - statistics.median(res[(8, name)][1])) / 24
                print('PATH %s: cold configure per source from 8 to 32 sources: %.1f ms; warm: %.1f ms'
                      % (name, slope * 1000, wslope * 1000))
        if o['build']:
            print()
            print('| consumer | headers rewritten by the edit\'s reconfigure | C compiles then | C compiles of a full build |')
            print('|---|---|---|---|')
            for n in o['sizes']:
                rewritten, again, full = redone(tmp, o['tree'], n, envs['clean'])
                print('| %d dispatch source%s | %s | %d (%s) | %d |' % (
                    n, '' if n == 1 else 's', ' '.join(os.path.basename(h) for h in rewritten) or 'none', len(again),
                    ', '.join(sorted({re.sub(r'.*Compiling C object (\S+?)\.p/.*', r'\1', l) for l in again})) or '-',
                    len(full)))


if __name__ == '__main__':
    main()
