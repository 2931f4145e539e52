#!/usr/bin/env python3
"""A C project needs only a C compiler (issue 29): a C-only consumer built
through the release wrap on a machine where no C++ compiler can be found.

  run_c_only.py --list                       case names
  run_c_only.py SOURCE_ROOT CASE             run one case: exit 0 pass,
                                             1 fail, 77 skip (a tool missing,
                                             or not an x86_64 host)

Each case packs a release wrap of git HEAD (make-wrap.py), copies
test/c_only/fixture (`project(..., 'c')`: one C dispatch source with a
baseline build and SSE42 AVX2 AVX512_SKX, the docs' snippet and library
recipe verbatim but for the sources, a program, a C test program and the
library's static and shared halves, each registered with test()) and
builds it with one C compiler, twice: build A with the default baseline
(one buildtype), build B with -Dcpudispatch:cpu-baseline=x86_v3 (the other
buildtype). Every Meson, ninja and test command runs where no C++ compiler
exists:

  - CXX unset, PATH a directory of links to every program of the caller's
    PATH except the C++ compilers (any name with "++": c++, g++, clang++,
    x86_64-linux-gnu-g++-12, ...);
  - a native file with `[binaries] c = CC` and `cpp = '/nonexistent/c++'`.

Checks (each a named assertion; FAIL lines say which and why):

  no-c++           no c++/g++/clang++ on that PATH, CXX unset; control: a
                   project with add_languages('cpp', required: true) fails
                   to configure under those conditions, under each of the
                   two alone too, and configures with the caller's
                   environment (where that has a C++ compiler);
  docs-blocks      the fixture holds docs/quickstart.md's snippet and
                   snippet-use line and docs/libraries.md's recipe verbatim
                   (sources aside);
  configure/build  A and B configure (no Meson warning) and build with
                   `ninja -j2` with no compiler warning; every compile
                   command of the build (cpudispatch's included) compiles a
                   .c file with the C compiler, and every target's sources
                   are C;
  meson-test       `meson test` passes; app dispatched to the best target
                   this CPU has (its flags: test/cpu_facts.py);
  each-target      `meson test --setup cpudispatch:each_target` passes and
                   every test ran once per compiled target this CPU has
                   (cpudispatch-run's "T ok" lines, and the target each
                   program reports it ran, from meson's JSON log), the
                   others skipped as "this CPU lacks it";
  each-cpu         `meson test --setup cpudispatch:each_cpu` passes, every
                   qemu model of src/run/qemu-models.txt ran each test, and
                   each program ran the best target that model has;
  env              PREFIX_DISABLE_CPU_FEATURES=nosuch (PREFIX: the project's
                   name, CPUDISPATCH_C_ONLY_FIXTURE): status 78, no
                   output but the documented one line (docs/runtime.md);
                   DISABLE=AVX2: the programs select below AVX2 (SSE42
                   where this CPU has it);
  startup          build B under qemu-x86_64 -cpu Nehalem: status 69 and the
                   documented one-line message, for the program and the
                   programs of each library half; under -cpu Haswell:
                   status 0. Negative control: the same run with
                   PREFIX_SKIP_CPU_BASELINE_CHECK=1 dies of SIGILL;
  no-c++-runtime   `readelf -d` of every program and shared library of A
                   and B (cpudispatch-run and libfoo.so included) shows no
                   libstdc++, libc++ or libgcc_s in NEEDED. Control: a
                   throwaway program with a C++ object linked by g++ (with
                   the caller's environment, outside the no-C++ build) is
                   flagged by the same check.
"""
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # nothing written into the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'consumer'))
import cpu_facts  # noqa: E402  (test/cpu_facts.py)
import doc_blocks  # noqa: E402  (test/doc_blocks.py)
import messages  # noqa: E402  (test/messages.py)
import run_consumer  # noqa: E402  (test/consumer/run_consumer.py: check_snippet, make_project)

# Build A (default baseline) and build B (x86_v3 baseline) take the two
# buildtypes, the other way round for the other compiler.
CASES = {
    'gcc': dict(cc='gcc', buildtypes=('debug', 'release')),
    'clang': dict(cc='clang', buildtypes=('release', 'debug')),
}
# The fixture's dispatch source's targets, in ascending interest (baseline
# first), as the docs promise the order; what each needs comes from facts
# about the CPUs (test/cpu_facts.py), not from cpudispatch's tables.
TARGETS = ['baseline', 'SSE42', 'AVX2', 'AVX512_SKX']
# Build B's: the x86_v3 baseline holds SSE42 and AVX2, so the baseline
# build stands in for them (docs/quickstart.md).
TARGETS_V3 = ['baseline', 'AVX512_SKX']
NEEDS = dict(cpu_facts.X86_NEEDS)
NEEDS['X86_V3'] = cpu_facts.X86_V3
MODEL_FLAGS = cpu_facts.models('x86_64')
TESTS = ['app', 'test_dot', 'use_static', 'use_shared']
PROGRAMS = ['app', 'use_static', 'use_shared']  # run by hand: env, start-up
# What each program prints about the target that ran.
RAN = {'app': r'^dot: (\S+) \(ran:', 'test_dot': r'^test_dot: (\S+) ok', 'use_static': r'^foo_dot: (\S+) \(ok\)',
       'use_shared': r'^foo_dot: (\S+) \(ok\)'}
NO_CXX = '/nonexistent/c++'
# C++ compilers: c++, g++-12, clang++, x86_64-linux-gnu-g++, nvc++, Intel's
# icpc/icpx; not binutils' c++filt (a demangler, which a C-only machine
# has and cpudispatch-check uses).
CXX_NAME = re.compile(r'\+\+(-[\d.]+)?$|^icp[cx]$')
CXX_RUNTIME = re.compile(r'^(libstdc\+\+|libc\+\+|libc\+\+abi|libgcc_s)\.so')
PROJECT, VERSION = 'cpudispatch-c-only-fixture', '1.0'  # the fixture's project()
PREFIX = messages.env_prefix(PROJECT)  # its variables' prefix (the default: the project's name)
ENV_MSG = re.compile(r'^cpudispatch: %s_DISABLE_CPU_FEATURES: unknown CPU feature "nosuch"; valid names on '
                     r'x86_64: (\S+ )*AVX2 (\S+ ?)*$' % PREFIX)
STARTUP_MSG = messages.refusal(PROJECT, VERSION)  # groups: arch, baseline, lacking
SIGILL = (-signal.SIGILL, 128 + signal.SIGILL)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def show(cmd):
    print('$ ' + ' '.join(shlex.quote(a) for a in cmd))


def best(targets, flags):
    """The target dispatch must pick on a CPU with these flags."""
    return next(t for t in reversed(targets) if NEEDS[t] <= flags)


def can_run(targets, flags):
    return [t for t in targets if NEEDS[t] <= flags]


def strip_qemu(text):
    # qemu warns about model features TCG lacks; not the program's words.
    return '\n'.join(l for l in text.splitlines() if "TCG doesn't support" not in l)


def needed(path):
    """The NEEDED entries of an ELF file's dynamic section (readelf -d)."""
    p = run(['readelf', '-d', '-W', path])
    return re.findall(r'\(NEEDED\)\s+Shared library: \[([^\]]+)\]', p.stdout)


def elf_kind(path):
    """'exec' or 'dyn' for an ELF program or shared library, else None."""
    try:
        with open(path, 'rb') as fh:
            head = fh.read(18)
    except OSError:
        return None
    if len(head) < 18 or head[:4] != b'\x7fELF' or head[5] != 1:  # little-endian
        return None
    return {2: 'exec', 3: 'dyn'}.get(int.from_bytes(head[16:18], 'little'))


def cxx_runtime_needed(path):
    return [n for n in needed(path) if CXX_RUNTIME.match(n)]


class Case(run_consumer.Case):
    """fail, sh and make_project (the fixture copied, with the release wrap
    in its subprojects/) are test/consumer's."""

    def __init__(self, root, name, tmp):
        self.root, self.name, self.c, self.tmp = root, name, CASES[name], tmp
        self.fixture = os.path.join(root, 'test', 'c_only', 'fixture')
        self.proj = os.path.join(tmp, 'proj')
        self.builds = {'A': os.path.join(tmp, 'build-a'), 'B': os.path.join(tmp, 'build-b')}
        self.failures = []
        self.passed = []
        self.host = None
        self.cc_path = shutil.which(self.c['cc'])
        self.env = None  # the no-C++ environment (no_cxx_env)
        self.native = os.path.join(tmp, 'no-cxx.ini')

    def missing(self):
        need = [self.c['cc'], 'meson', 'ninja', 'git', 'qemu-x86_64', 'readelf', 'ar', 'objcopy']
        return [n for n in need if not shutil.which(n)]

    def check(self, name, ok, msg):
        """A named assertion: PASS, or FAIL with the message."""
        if ok:
            self.passed.append(name)
            print('  PASS %s' % name)
        else:
            self.fail('%s: %s' % (name, msg))
        return ok

    # -- the environment without C++ ------------------------------------------
    def no_cxx_env(self):
        """PATH: links to every program of the caller's PATH but the C++
        compilers; no CXX; a native file naming the C compiler and a C++
        compiler that does not exist."""
        bindir = os.path.join(self.tmp, 'bin')
        os.makedirs(bindir)
        hidden = set()
        for d in os.environ.get('PATH', '').split(os.pathsep):
            if not d or not os.path.isdir(d):
                continue
            for e in os.scandir(d):
                if CXX_NAME.search(e.name):
                    hidden.add(e.name)
                    continue
                dst = os.path.join(bindir, e.name)
                if not os.path.lexists(dst) and os.access(e.path, os.X_OK) and not e.is_dir():
                    os.symlink(e.path, dst)
        env = {k: v for k, v in os.environ.items()
               if k not in ('CC', 'CXX', 'CFLAGS', 'CXXFLAGS', 'CPPFLAGS', 'LDFLAGS', 'OBJCXX')
               and not k.startswith(('CPUDISPATCH_', PREFIX + '_'))}
        env['PATH'] = bindir
        with open(self.native, 'w') as fh:
            fh.write("[binaries]\nc = '%s'\ncpp = '%s'\n" % (self.cc_path, NO_CXX))
        self.env = env
        print('  PATH=%s: %d programs linked, %d C++ compiler names left out (%s)'
              % (bindir, len(os.listdir(bindir)), len(hidden), ' '.join(sorted(hidden)[:8])
                 + (' ...' if len(hidden) > 8 else '')))
        found = [n for n in ('c++', 'g++', 'clang++') if shutil.which(n, path=bindir)]
        self.check('no-c++ PATH', not found and 'CXX' not in env,
                   'a C++ compiler is still reachable: %s' % (found or 'CXX=' + env.get('CXX', '')))

    def control_add_languages(self):
        """add_languages('cpp', required: true) fails under the conditions
        (and under each alone), and succeeds in the caller's environment
        where that has a C++ compiler: the conditions are what hides it."""
        probe = os.path.join(self.tmp, 'cxx-probe')
        os.makedirs(probe)
        with open(os.path.join(probe, 'meson.build'), 'w') as fh:
            fh.write("project('cxx-probe', 'c')\nadd_languages('cpp', required: true)\n")
        caller = {k: v for k, v in os.environ.items() if k not in ('CC', 'CXX')}
        only_native = os.path.join(self.tmp, 'only-cpp.ini')
        with open(only_native, 'w') as fh:
            fh.write("[binaries]\ncpp = '%s'\n" % NO_CXX)
        runs = [('both', self.env, ['--native-file', self.native], False),
                ('the PATH alone', self.env, [], False),
                ('the native file alone', caller, ['--native-file', only_native], False)]
        has_cxx = any(shutil.which(n) for n in ('c++', 'g++', 'clang++'))
        if has_cxx:
            runs.append(('the caller\'s environment', caller, [], True))
        else:
            print('  (no C++ compiler in the caller\'s environment: the positive control is not run)')
        for i, (what, env, extra, ok) in enumerate(runs):
            b = os.path.join(self.tmp, 'cxx-probe-build-%d' % i)
            p = run(['meson', 'setup', b, probe] + extra, env=env)
            out = p.stdout + p.stderr
            print('  control: add_languages(\'cpp\', required: true) under %s -> %s'
                  % (what, 'configured' if p.returncode == 0 else 'failed (%s)' % next(
                      (l.strip() for l in out.splitlines() if 'ERROR' in l), 'status %d' % p.returncode)))
            self.check('no-c++ control (%s)' % what, (p.returncode == 0) == ok,
                       'add_languages(\'cpp\', required: true) %s under %s:\n%s'
                       % ('failed' if ok else 'configured', what, out[-1500:]))

    # -- the docs' blocks ----------------------------------------------------
    def check_blocks(self):
        problems = ['docs/quickstart.md: ' + p for p in run_consumer.check_snippet(self.root, self.fixture)]
        have = open(os.path.join(self.fixture, 'meson.build')).read().splitlines()
        try:
            recipe = doc_blocks.block(os.path.join(self.root, 'docs', 'libraries.md'), 'library')
            norm = lambda l: re.sub(r"^(foo = library\('foo', ).*?(, foo_kernels, )", r'\1SOURCES\2', l)
            at = [i for i, l in enumerate(have) if l == recipe[0]]
            if not at or [norm(l) for l in have[at[0]:at[0] + len(recipe)]] != [norm(l) for l in recipe]:
                problems.append('the fixture lacks docs/libraries.md\'s recipe block verbatim (its sources aside)')
        except ValueError as e:
            problems.append(str(e))
        self.check('docs-blocks', not problems, '; '.join(problems))

    # -- configure and build ----------------------------------------------------
    def configure_and_build(self, which, buildtype, extra):
        b = self.builds[which]
        tag = '%s (%s, %s%s)' % (which, self.c['cc'], buildtype, ', ' + ' '.join(extra) if extra else '')
        cmd = ['meson', 'setup', b, self.proj, '--wrap-mode=nodownload', '--buildtype=' + buildtype,
               '--native-file', self.native] + extra
        show(cmd)
        t = time.time()
        p = run(cmd, env=self.env)
        print('  configure: %.1f s' % (time.time() - t))
        out = p.stdout + p.stderr
        if not self.check('configure %s' % tag, p.returncode == 0,
                          'meson setup failed (status %d):\n%s' % (p.returncode, out[-4000:])):
            return False
        warned = [l for l in out.splitlines() if 'WARNING' in l]
        self.check('configure %s: no Meson warning' % tag, not warned, '\n'.join(warned))
        cmd = ['ninja', '-C', b, '-j2']
        show(cmd)
        t = time.time()
        p = run(cmd, env=self.env)
        print('  build: %.1f s' % (time.time() - t))
        if not self.check('build %s' % tag, p.returncode == 0,
                          'ninja failed (status %d):\n%s' % (p.returncode, (p.stdout + p.stderr)[-4000:])):
            return False
        # GCC and Clang write "FILE:LINE:COL: warning:" (and "warning:" alone
        # for a driver's warning).
        warnings = list(dict.fromkeys(l for l in p.stdout.splitlines() if re.search(r'\bwarning:', l)))
        self.check('build %s: no compiler warning' % tag, not warnings, '\n'.join(warnings))
        self.check_c_only(b, tag)
        return True

    def check_c_only(self, b, tag):
        """Every compile command compiles a .c file with the C compiler, and
        every target of the build (cpudispatch's included) has only C
        sources."""
        problems = []
        with open(os.path.join(b, 'compile_commands.json')) as fh:
            commands = json.load(fh)
        for e in commands:
            words = shlex.split(e['command'])
            exe = words[1] if os.path.basename(words[0]) in ('ccache', 'sccache') else words[0]
            if not e['file'].endswith('.c') or os.path.basename(exe) != os.path.basename(self.cc_path):
                problems.append('%s compiled by %s' % (e['file'], exe))
        p = run(['meson', 'introspect', '--targets', b], env=self.env)
        langs = {}
        for t in json.loads(p.stdout or '[]'):
            for s in t.get('target_sources', []):
                if s.get('language') not in (None, 'c', 'unknown'):
                    langs.setdefault(s['language'], []).append(t['name'])
        problems += ['%s sources in %s' % (lang, ' '.join(sorted(set(ts)))) for lang, ts in langs.items()]
        self.check('c-only %s: %d compile commands, all .c by %s' % (tag, len(commands), self.c['cc']),
                   p.returncode == 0 and commands and not problems,
                   'not C only: %s' % ('; '.join(problems[:20]) or p.stderr.strip() or 'no compile commands'))

    # -- meson test and the setups --------------------------------------------
    def meson_test(self, setup=None):
        b = self.builds['A']
        cmd = ['meson', 'test', '-C', b, '--print-errorlogs', '--num-processes', '2']
        cmd += ['--setup', setup] if setup else []
        show(cmd)
        t = time.time()
        p = run(cmd, env=self.env)
        print('  %.1f s' % (time.time() - t))
        log = os.path.join(b, 'meson-logs', 'testlog%s.json' % ('-' + setup.replace(':', '_') if setup else ''))
        tests = {}
        if os.path.exists(log):
            for line in open(log):
                r = json.loads(line)
                tests[r['name']] = r
        return p, tests

    def ran(self, test, out):
        return re.findall(RAN[test], out, re.M)

    def check_plain_test(self):
        p, tests = self.meson_test()
        ok = p.returncode == 0 and sorted(tests) == sorted(TESTS) and all(r['result'] == 'OK' for r in tests.values())
        self.check('meson-test', ok, 'meson test: status %d, tests %s\n%s' % (
            p.returncode, {n: r['result'] for n, r in tests.items()}, (p.stdout + p.stderr)[-3000:]))
        want = best(TARGETS, self.host)
        got = {n: self.ran(n, tests[n].get('stdout') or '') for n in tests}
        self.check('meson-test: each program ran %s (this CPU\'s best)' % want,
                   all(got.get(n) == [want] for n in TESTS), 'the programs ran %s' % got)

    def check_each_target(self):
        p, tests = self.meson_test('cpudispatch:each_target')
        want = can_run(TARGETS, self.host)
        lacks = [t for t in TARGETS if t not in want]
        problems = []
        if p.returncode != 0:
            problems.append('meson test --setup cpudispatch:each_target: status %d\n%s'
                            % (p.returncode, (p.stdout + p.stderr)[-3000:]))
        for n in TESTS:
            r = tests.get(n)
            if not r:
                problems.append('%s is not in the log' % n)
                continue
            err, out = r.get('stderr') or '', r.get('stdout') or ''
            oks = re.findall(r'^cpudispatch-run: (\S+) ok$', err, re.M)
            skipped = re.findall(r'^cpudispatch-run: (\S+) skipped: this CPU lacks it$', err, re.M)
            if r['result'] != 'OK' or oks != want or skipped != lacks:
                problems.append('%s: %s, ok under [%s], skipped [%s]; expected ok under [%s], skipped [%s]'
                                % (n, r['result'], ' '.join(oks), ' '.join(skipped), ' '.join(want), ' '.join(lacks)))
            if self.ran(n, out) != want:
                problems.append('%s reported running [%s], expected [%s]' % (n, ' '.join(self.ran(n, out)),
                                                                           ' '.join(want)))
            # Its closing line names what it ran and, where this CPU lacks
            # some, what it skipped.
            line = 'cpudispatch-run: ok under targets %s%s' % (' '.join(want),
                                                               '; skipped: ' + ' '.join(lacks) if lacks else '')
            if line not in err.splitlines():
                problems.append('%s: no "%s" line' % (n, line))
        print('  each_target: this CPU runs %s%s' % (' '.join(want), '; lacks ' + ' '.join(lacks) if lacks else ''))
        self.check('each-target: passes, every test ran each of %s' % ' '.join(want), not problems,
                   '\n'.join(problems))

    def check_each_cpu(self):
        p, tests = self.meson_test('cpudispatch:each_cpu')
        models = list(MODEL_FLAGS)
        want = [best(TARGETS, MODEL_FLAGS[m]) for m in models]
        problems = []
        if p.returncode != 0:
            problems.append('meson test --setup cpudispatch:each_cpu: status %d\n%s'
                            % (p.returncode, (p.stdout + p.stderr)[-3000:]))
        for n in TESTS:
            r = tests.get(n)
            if not r:
                problems.append('%s is not in the log' % n)
                continue
            err, out = r.get('stderr') or '', r.get('stdout') or ''
            oks = re.findall(r'^cpudispatch-run: (\S+) ok$', err, re.M)
            if r['result'] != 'OK' or oks != models:
                problems.append('%s: %s, ok under [%s], expected [%s]' % (n, r['result'], ' '.join(oks),
                                                                       ' '.join(models)))
            if self.ran(n, out) != want:
                problems.append('%s ran [%s] under [%s], expected [%s]' % (n, ' '.join(self.ran(n, out)),
                                                                         ' '.join(models), ' '.join(want)))
        print('  each_cpu: %s' % ', '.join('%s -> %s' % mw for mw in zip(models, want)))
        self.check('each-cpu: passes under %s, each on its best target' % ' '.join(models), not problems,
                   '\n'.join(problems))

    # -- runs by hand ---------------------------------------------------------
    def launch(self, which, exe, model=None, env_extra=None):
        env = dict(self.env)
        env.update(env_extra or {})
        cmd = (['qemu-x86_64', '-cpu', model] if model else []) + [os.path.join(self.builds[which], exe)]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)
            return p.returncode, p.stdout, strip_qemu(p.stderr)
        except subprocess.TimeoutExpired:
            return 124, '', 'timed out'

    def check_env(self):
        for exe in PROGRAMS:
            rc, out, err = self.launch('A', exe, env_extra={PREFIX + '_DISABLE_CPU_FEATURES': 'nosuch'})
            lines = err.splitlines()
            if exe == 'use_shared':
                # The runtime is libfoo.so's: a library never ends its host
                # for a variable; one line, and its baseline builds.
                self.check('env: %s with DISABLE=nosuch warns once and runs the baseline build' % exe,
                           rc == 0 and len(lines) == 1 and ENV_MSG.match(lines[0].replace(
                               '; only the baseline builds run', '')) and self.ran(exe, out) == ['baseline'],
                           'status %d (expected 0), stdout %r, stderr %r' % (rc, out, err[-600:]))
                continue
            self.check('env: %s with DISABLE=nosuch exits 78 with one line' % exe,
                       rc == 78 and not out and len(lines) == 1 and ENV_MSG.match(lines[0]),
                       'status %d (expected 78), stdout %r, stderr %r (expected one line matching %r)'
                       % (rc, out, err[-600:], ENV_MSG.pattern))
        flags = self.host - {'avx2'}
        want = best(TARGETS, flags)
        for exe in PROGRAMS:
            rc, out, err = self.launch('A', exe, env_extra={PREFIX + '_DISABLE_CPU_FEATURES': 'AVX2'})
            got = self.ran(exe, out)
            self.check('env: %s with DISABLE=AVX2 selects %s' % (exe, want),
                       rc == 0 and got == [want] and TARGETS.index(want) < TARGETS.index('AVX2'),
                       'status %d, ran %s, expected [%s]; stdout %r stderr %r' % (rc, got, want, out, err[-300:]))

    def check_startup(self):
        # B's baseline is x86_v3: Nehalem lacks AVX2 and the rest of it.
        for exe in PROGRAMS:
            rc, out, err = self.launch('B', exe, 'Nehalem')
            lines = err.splitlines()
            m = STARTUP_MSG.match(lines[0]) if len(lines) == 1 else None
            self.check('startup: %s (x86_v3 baseline) under Nehalem exits 69 with one line' % exe,
                       rc == 69 and not out and m and 'X86_V3' in m.group(2).split()
                       and 'AVX2' in m.group(3).split(),
                       'status %d (expected 69), stdout %r, stderr %r (expected one line matching %r, naming '
                       'X86_V3 in the baseline and AVX2 as lacking)' % (rc, out, err[-800:], STARTUP_MSG.pattern))
            rc, out, err = self.launch('B', exe, 'Haswell')
            got = self.ran(exe, out)
            self.check('startup: %s (x86_v3 baseline) under Haswell runs (baseline build)' % exe,
                       rc == 0 and got == [best(TARGETS_V3, MODEL_FLAGS['Haswell'])],
                       'status %d, ran %s; stdout %r stderr %r' % (rc, got, out, err[-300:]))
        if cpu_facts.X86_V3 <= self.host:
            rc, out, err = self.launch('B', 'app')
            want = best(TARGETS_V3, self.host)
            self.check('startup: app (x86_v3 baseline) runs natively on %s' % want,
                       rc == 0 and self.ran('app', out) == [want], 'status %d; stdout %r stderr %r' % (rc, out, err))
        # Negative control: the same runs without the check die of SIGILL.
        for exe in ('app', 'use_shared'):
            rc, out, err = self.launch('B', exe, 'Nehalem', {PREFIX + '_SKIP_CPU_BASELINE_CHECK': '1'})
            print('  control: %s under Nehalem with %s_SKIP_CPU_BASELINE_CHECK=1 -> %d%s'
                  % (exe, PREFIX, rc, ' (SIGILL)' if rc in SIGILL else ''))
            self.check('startup control: %s without the check dies of SIGILL under Nehalem' % exe, rc in SIGILL,
                       'status %d, stdout %r, stderr %r: the x86_v3 build does not need what Nehalem lacks, so '
                       'the 69 proves nothing' % (rc, out, err[-300:]))

    # -- no C++ runtime in what was linked ----------------------------------------
    def check_needed(self):
        found = {}
        for which, b in self.builds.items():
            for d, dirs, files in os.walk(b):
                dirs[:] = [x for x in dirs if x not in ('meson-private', 'meson-logs', 'meson-info')]
                for f in files:
                    path = os.path.join(d, f)
                    if not os.path.islink(path) and elf_kind(path):
                        found[os.path.join(which, os.path.relpath(path, b))] = cxx_runtime_needed(path)
        names = {os.path.basename(p) for p in found}
        expected = {'app', 'test_dot', 'use_static', 'use_shared', 'libfoo.so', 'cpudispatch-run'}
        self.check('no-c++-runtime: every program and shared library found',
                   expected <= names, 'missing from the builds: %s (found %s)' % (
                       ' '.join(sorted(expected - names)), ' '.join(sorted(found))))
        bad = {p: n for p, n in found.items() if n}
        print('  readelf -d: %d programs and shared libraries: %s' % (len(found), ' '.join(sorted(found))))
        self.check('no-c++-runtime: no libstdc++/libc++/libgcc_s in NEEDED (%d files)' % len(found), not bad,
                   '; '.join('%s needs %s' % (p, ' '.join(n)) for p, n in sorted(bad.items())))

    def control_needed(self):
        """A throwaway C++ program linked by g++ in the caller's environment:
        the check must flag its libstdc++ (and libgcc_s, which throwing
        needs)."""
        d = os.path.join(self.tmp, 'cxx-control')
        os.makedirs(d)
        src, exe = os.path.join(d, 'throw.cpp'), os.path.join(d, 'throw')
        with open(src, 'w') as fh:
            fh.write('#include <stdexcept>\n#include <string>\n'
                     'int main(int argc, char **) {\n'
                     '  try { if (argc > 5) throw std::runtime_error("x"); }\n'
                     '  catch (const std::exception &e) { return (int)std::string(e.what()).size(); }\n'
                     '  return 0;\n}\n')
        cxx = shutil.which('g++') or shutil.which('c++')
        if cxx:
            p = run([cxx, src, '-o', exe])
        else:
            # No C++ compiler here at all: link the C++ runtime's shared
            # libraries into a C program instead.
            with open(src[:-4] + '.c', 'w') as fh:
                fh.write('int main(void) { return 0; }\n')
            cxx = shutil.which('cc') or self.cc_path
            p = run([cxx, src[:-4] + '.c', '-o', exe, '-Wl,--no-as-needed', '-l:libstdc++.so.6', '-l:libgcc_s.so.1'])
        if p.returncode:
            print('  control: cannot link a C++ program here (%s): the readelf control is not run'
                  % p.stderr.strip()[-300:])
            return
        got = cxx_runtime_needed(exe)
        print('  control: a C++ program linked by %s needs %s -> flagged %s'
              % (os.path.basename(cxx), ' '.join(needed(exe)), ' '.join(got) or 'nothing'))
        self.check('no-c++-runtime control: the check flags libstdc++ and libgcc_s of a C++ program',
                   any(n.startswith('libstdc++') for n in got) and any(n.startswith('libgcc_s') for n in got),
                   'the check flagged %s in %s (NEEDED %s)' % (got, exe, needed(exe)))

    def go(self):
        t0 = time.time()
        self.host = cpu_facts.host_flags(self.c['cc'])
        self.check_blocks()
        if not self.make_project():
            return
        self.no_cxx_env()
        self.control_add_languages()
        bt_a, bt_b = self.c['buildtypes']
        if self.configure_and_build('A', bt_a, []):
            self.check_plain_test()
            self.check_each_target()
            self.check_each_cpu()
            self.check_env()
        if self.configure_and_build('B', bt_b, ['-Dcpudispatch:cpu-baseline=x86_v3']):
            self.check_startup()
        self.check_needed()
        self.control_needed()
        print('%s: %.1f s' % (self.name, time.time() - t0))


def main():
    if sys.argv[1:] == ['--list']:
        print('\n'.join(CASES))
        return 0
    if len(sys.argv) != 3 or sys.argv[2] not in CASES:
        sys.exit('usage: run_c_only.py --list | SOURCE_ROOT CASE (CASE: %s)' % ' '.join(CASES))
    root, name = os.path.abspath(sys.argv[1]), sys.argv[2]
    if os.uname().machine != 'x86_64':
        print('SKIP: %s needs an x86_64 host (its targets and qemu models are x86)' % name)
        return 77
    with tempfile.TemporaryDirectory(prefix='cpud-c-only-') as tmp:
        case = Case(root, name, tmp)
        missing = case.missing()
        if missing:
            print('SKIP: %s needs %s' % (name, ' '.join(missing)))
            return 77
        print('%s: C compiler %s, no C++ compiler; build A %s (default baseline), build B %s (x86_v3 baseline)'
              % (name, case.cc_path, *case.c['buildtypes']))
        case.go()
    if case.failures:
        print('%d check(s) passed, %d failed:' % (len(case.passed), len(case.failures)))
        print('\n'.join('  FAIL ' + f.splitlines()[0] for f in case.failures))
        return 1
    print('PASS (%d checks)' % len(case.passed))
    return 0


if __name__ == '__main__':
    sys.exit(main())
