#!/usr/bin/env python3
"""Configure cost against the number of dispatch sources, for
docs/performance.md ("Configure time and the number of dispatch sources").

  configure_scaling.py [--reps N] [--sizes 1,8,32] [--shim-sleep S] [--load N] [--no-build] [TREE]

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
(its shebang), as a pyenv user's Debian Meson does. Beside each size, what
Meson alone spends on those targets: a project with the very same
static_library() calls (names, sources, arguments, read back from the
cpudispatch consumer's build with `meson introspect`, made by the
snippet's second loop from a file of the same words) and no cpudispatch.

--load N keeps N busy processes running meanwhile (a loaded machine, as
the issue that asked for this was measured on).

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
    opts = {'reps': 3, 'sizes': [1, 8, 32], 'sleep': 0.25, 'build': True, 'tree': None, 'load': 0}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ('--reps', '--sizes', '--shim-sleep', '--load') and i + 1 < len(argv):
            v = argv[i + 1]
            try:
                if a in ('--reps', '--load'):
                    opts[a[2:]] = int(v)
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


def write_plain(build, dest):
    """A project with the static libraries of a configured consumer's
    build (BUILD), and no cpudispatch: the loop's words (read back with
    `meson introspect`: each library's name, source and the arguments the
    loop gave it) in a file, and the snippet's second loop over them, so
    that what is left is what Meson itself spends on those targets."""
    import json
    targets = json.loads(subprocess.run(['meson', 'introspect', '--targets', build], capture_output=True,
                                        text=True, check=True).stdout)
    libs = [t for t in targets if t['type'] == 'static library' and t['subproject'] is None]
    os.makedirs(os.path.join(dest, 'src'))
    words = []
    for t in libs:
        src = os.path.relpath(t['target_sources'][0]['sources'][0], os.path.dirname(t['defined_in']))
        # What the loop gave (the word's arguments, cpud['target']'s), not
        # what Meson adds to every compile itself.
        args = [a for a in t['target_sources'][0]['parameters'] if a.startswith('-m') or a.startswith('-DCPUD')
                or a in ('-fno-lto', '-fvisibility=hidden')]
        with open(os.path.join(dest, src), 'a') as fh:
            fh.write('int x_%s(void) { return 0; }\n' % t['name'])
        words.append('%s:%s:%s' % (t['name'], '|'.join(args), src))
    with open(os.path.join(dest, 'words.txt'), 'w') as fh:
        fh.write('\n'.join(words) + '\n')
    with open(os.path.join(dest, 'meson.build'), 'w') as fh:
        fh.write("project('bench', 'c')\n"
                 "kernel_libs = []\n"
                 "foreach t : import('fs').read('words.txt').split()\n"
                 "  kernel_libs += static_library(t.split(':')[0], t.split(':')[2], "
                 "c_args: t.split(':')[1].split('|'), cpp_args: t.split(':')[1].split('|'))\n"
                 "endforeach\n"
                 "kernels = custom_target('kernels', input: kernel_libs, output: 'libkernels.a', "
                 "command: ['ar', 'rcs', '@OUTPUT@', '@INPUT@'])\n")
    return len(libs)


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


def measure(tmp, tree, n, env, reps, plain=None):
    """(cold, warm, edit) lists of seconds for one consumer under env; for
    plain (a folder), the plain project written from its build instead."""
    src = os.path.join(tmp, 'c%d' % n)
    if not os.path.isdir(src):
        write_consumer(src, tree, n, {})
    build = os.path.join(tmp, 'b%d' % n)
    if plain:
        shutil.rmtree(build, ignore_errors=True)
        run(['meson', 'setup', build, src], env)
        count = write_plain(build, plain)
        src, n = plain, 0
        build = os.path.join(tmp, 'plainb')
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
    if plain:
        return cold, warm, [], count
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
        load = [subprocess.Popen([sys.executable, '-c', 'while True: pass']) for _ in range(o['load'])]
        try:
            # Alternately, so that a slower stretch of the machine falls on all.
            for n in sizes:
                for name, env in envs.items():
                    res[(n, name)] = measure(tmp, o['tree'], n, env, o['reps'])
                if n:
                    res[(n, 'plain')] = measure(tmp, o['tree'], n, envs['clean'], o['reps'],
                                                plain=os.path.join(tmp, 'plain%d' % n))
        finally:
            for p in load:
                p.kill()
        print('TREE %s; %d runs each, median (best), seconds; Meson %s; %d CPUs%s' % (
            o['tree'], o['reps'], subprocess.run(['meson', '--version'], capture_output=True, text=True).stdout.strip(),
            os.cpu_count() or 0, ', %d busy processes beside' % o['load'] if o['load'] else ''))
        print()
        print('| consumer | PATH | cold `meson setup` | × bare | warm `--reconfigure` | one list edited, `--reconfigure` |')
        print('|---|---|---|---|---|---|')
        bare = {name: statistics.median(res[(0, name)][0]) for name in envs}
        for n in sizes:
            for name in list(envs) + (['plain'] if n else []):
                if name == 'plain':
                    cold, warm, _, count = res[(n, name)]
                    print('| the same %d libraries, plain Meson (no cpudispatch) | clean | %s | %.2f | %s | — |'
                          % (count, fmt(cold), statistics.median(cold) / bare['clean'], fmt(warm)))
                    continue
                cold, warm, edit = res[(n, name)]
                ratio = statistics.median(cold) / bare[name]
                label = 'bare C project' if n == 0 else '%d dispatch source%s' % (n, '' if n == 1 else 's')
                print('| %s | %s | %s | %.2f | %s | %s |' % (label, name, fmt(cold), ratio, fmt(warm), fmt(edit)))
        if 8 in sizes and 32 in sizes:
            print()
            for name in list(envs) + ['plain']:
                slope = (statistics.median(res[(32, name)][0]) - statistics.median(res[(8, name)][0])) / 24
                wslope = (statistics.median(res[(32, name)][1]) - statistics.median(res[(8, name)][1])) / 24
                print('%s: cold configure per source from 8 to 32 sources: %.1f ms; warm: %.1f ms'
                      % ('plain Meson, the same libraries' if name == 'plain' else 'PATH ' + name, slope * 1000,
                         wslope * 1000))
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
