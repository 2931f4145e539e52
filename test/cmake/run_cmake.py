#!/usr/bin/env python3
"""The CMake front end (docs/cmake.md) as a consumer meets it: a project's
CMakeLists.txt takes cpudispatch's release tarball (tools/make-wrap.py,
git HEAD) by FetchContent, and its Meson build of the same sources is the
reference.

  run_cmake.py --list               case names
  run_cmake.py SOURCE_ROOT CASE     exit 0 pass, 1 fail, 77 skip (a tool
                                    missing, or not an x86_64 host)

Cases:
  consumer       examples/consumer (C and C++ sources), GCC, Ninja,
                 Release;
  c-only         test/c_only/fixture (C alone: a program, a test program,
                 the library's static and shared halves), Clang, Unix
                 Makefiles, Debug; then the same with
                 -DCPUD_CPU_BASELINE=x86_v3, whose programs refuse a CPU
                 below it; and bad options;
  cross-aarch64  examples/consumer for aarch64 (cross/aarch64-linux-gnu.cmake),
                 its tests under qemu-aarch64;
  install        the release tarball unpacked, built and installed by CMake
                 as its own project (GCC, Ninja), and by Meson;
  per-isa        examples/per-isa-files (one dispatch source including the
                 per-ISA file its flags allow), GCC, Unix Makefiles, Release;
  two-libraries  test/multilib's alpha (C, x86_v3 baseline) built and
                 installed by CMake, beta (C, the default baseline) by Meson,
                 both static, linked into one program by a plain cc.

Checks (FAIL lines name which and why):
  docs-block     (consumer) docs/cmake.md's quick start is the lines
                 between the example's quick-start markers, word for word;
  same-as-meson  the dispatch headers CMake's build writes are the Meson
                 build's, byte for byte (the Meson build of the same
                 project through the release wrap, configured with the same
                 compiler), and every per-target object has the same -m, -D
                 and -f arguments in both compile_commands.json but for
                 what each build system adds to every compile (Meson's
                 -D_FILE_OFFSET_BITS=64 and colour flags, CMake's -DNDEBUG
                 in Release);
  plain          ctest -L cpudispatch_plain passes; each program ran the
                 best target this CPU has (its flags: test/cpu_facts.py);
  each-target    ctest -L cpudispatch_each_target passes and each program
                 ran once per compiled target this CPU has;
  each-cpu       ctest -L cpudispatch_each_cpu passes and each program ran
                 under every qemu model of src/run/qemu-models.txt, on that
                 model's best target;
  baseline       (c-only) with CPUD_CPU_BASELINE=x86_v3 every program,
                 static and shared library shapes, runs on Haswell and
                 refuses Nehalem with the start-up check's message and
                 status 69, never an illegal instruction;
  installed      (install) CMake installs what Meson installs: every
                 header, libcpudispatch.a, cpudispatch-run, the license, and a
                 cpudispatch.pc with the same Cflags and Libs (Meson's
                 cpudispatch-info, a C++ program, aside); and a CMake package;
  pkg-config     (install) test/install/tiny.c built by cc and pkg-config
                 alone against CMake's install runs, and its start-up check
                 runs before main (a bad PREFIX_ENABLE_CPU_FEATURES: 78);
  find-package   (install) the same program built by a CMake project with
                 find_package(cpudispatch 0.6) and cpudispatch::cpudispatch;
  one-program    (two-libraries) in both link orders: natively and under
                 Haswell each library's own result from its own best target;
                 under Nehalem status 69 with alpha's line (never SIGILL);
                 BETA_DISABLE_CPU_FEATURES=AVX2 on Haswell moves beta alone;
                 the control, both built with one namespace: alpha's call
                 reaches beta's kernel and Nehalem ends in SIGILL;
  bad-options    (c-only) an unknown feature in CPUD_CPU_BASELINE and a
                 CPUD_MODE outside its choices stop configure with one
                 message naming the variable, the token and the valid names;
                 cpudispatch_embed() of no target, of a name that is no
                 cpudispatch_add_sources() call, or of no name, naming it.
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

sys.dont_write_bytecode = True
TEST_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TEST_DIR)
import cpu_facts  # noqa: E402  (test/cpu_facts.py)
import doc_blocks  # noqa: E402  (test/doc_blocks.py)
import messages  # noqa: E402  (test/messages.py)
import release_wrap  # noqa: E402  (test/release_wrap.py)

CASES = ['consumer', 'c-only', 'cross-aarch64', 'install', 'two-libraries', 'per-isa']
NEEDS = dict(cpu_facts.X86_NEEDS)
NEEDS['X86_V3'] = cpu_facts.X86_V3
NEEDS['SSE41'] = cpu_facts.SSE42 - {'sse4_2', 'popcnt'}  # as test/example/run_per_isa.py
# What each program prints of the target that ran, per project.
PROGRAMS = {
    'consumer': {'app': [r'^sum  \(C\):   (\S+)$', r'^axpy \(C\+\+\): (\S+)$']},
    'per-isa': {'hex_test': [r'^hex_encode: (\S+) ', r'^hex_decode: (\S+) ']},
    'c-only': {'app': [r'^dot: (\S+) \(ran:'], 'test_dot': [r'^test_dot: (\S+) ok'],
               'use_static': [r'^foo_dot: (\S+) \(ok\)'], 'use_shared': [r'^foo_dot: (\S+) \(ok\)']},
}
# Each source's targets, ascending (the projects' lists, on x86_64).
TARGETS = {
    'consumer': [['baseline', 'SSE42', 'AVX2', 'AVX512_SKX'], ['baseline', 'AVX2__FMA3', 'X86_V3']],
    'c-only': [['baseline', 'SSE42', 'AVX2', 'AVX512_SKX']],
    'per-isa': [['baseline', 'SSE41', 'AVX2'], ['baseline', 'SSE41', 'AVX2']],
}
# What each build system adds to every compile, not cpudispatch's.
OWN_FLAGS = {'-D_FILE_OFFSET_BITS=64', '-fcolor-diagnostics', '-fdiagnostics-color=always', '-DNDEBUG'}
SIGILL = (-signal.SIGILL, 128 + signal.SIGILL)


def run(cmd, **kw):
    print('$ ' + ' '.join(shlex.quote(a) for a in cmd))
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def best(targets, flags):
    return next(t for t in reversed(targets) if NEEDS[t] <= flags)


class Case:
    def __init__(self, root, name, tmp):
        self.root, self.name, self.tmp = root, name, tmp
        self.failures, self.passed = [], []
        self.project = {'c-only': 'c-only', 'two-libraries': 'c-only', 'per-isa': 'per-isa'}.get(name, 'consumer')
        self.src = {'consumer': os.path.join(root, 'examples', 'consumer'),
                    'per-isa': os.path.join(root, 'examples', 'per-isa-files'),
                    'c-only': os.path.join(root, 'test', 'c_only', 'fixture')}[self.project]
        self.cc, self.cxx = ('clang', 'clang++') if name == 'c-only' else ('gcc', 'g++')
        self.generator = 'Unix Makefiles' if name in ('c-only', 'per-isa') else 'Ninja'
        self.buildtype = 'Debug' if name == 'c-only' else 'Release'
        self.env = {k: v for k, v in os.environ.items() if k not in ('CFLAGS', 'CXXFLAGS', 'LDFLAGS', 'CC', 'CXX')}

    def check(self, name, ok, msg):
        if ok:
            self.passed.append(name)
            print('  PASS %s' % name)
        else:
            print('FAIL: %s: %s' % (name, msg))
            self.failures.append(name)
        return ok

    def missing(self):
        need = ['cmake', 'meson', 'ninja', 'make', 'git', 'readelf', 'objcopy', 'pkg-config', self.cc]
        if self.name == 'cross-aarch64':
            need += ['aarch64-linux-gnu-gcc', 'aarch64-linux-gnu-g++', 'qemu-aarch64']
        else:
            need += ['qemu-x86_64'] + ([self.cxx] if self.project == 'consumer' else [])
        if self.name == 'per-isa':
            need = [n for n in need if n != self.cxx]
        return [n for n in need if not shutil.which(n)]

    # -- the release and the projects ---------------------------------------
    def release(self):
        """The Meson copy of the project with its release wrap; the tarball
        CMake's FetchContent takes."""
        rel = os.path.relpath(self.src, self.root)
        self.meson_proj = os.path.join(self.tmp, 'meson-proj')
        if self.project in ('consumer', 'per-isa'):
            err = release_wrap.example(self.root, os.path.basename(self.src), self.meson_proj)
        else:
            shutil.copytree(self.src, self.meson_proj)
            os.makedirs(os.path.join(self.meson_proj, 'subprojects'))
            p = run([sys.executable, os.path.join(self.root, 'tools', 'make-wrap.py'),
                     os.path.join(self.meson_proj, 'subprojects'), '--allow-dirty'])
            err = None if p.returncode == 0 else p.stdout + p.stderr
        if err:
            return self.check('release', False, err)
        pf = os.path.join(self.meson_proj, 'subprojects', 'packagefiles')
        self.tarball = os.path.join(pf, [f for f in os.listdir(pf) if f.endswith('.tar.xz')][0])
        # The CMake project: the same sources, alone.
        self.cmake_proj = os.path.join(self.tmp, 'cmake-proj')
        shutil.copytree(self.src, self.cmake_proj, ignore=shutil.ignore_patterns('subprojects', 'meson.build'))
        print('  %s from %s' % (rel, os.path.basename(self.tarball)))
        return True

    def cmake(self, build, extra=()):
        cmd = ['cmake', '-S', self.cmake_proj, '-B', build, '-G', self.generator,
               '-DCPUDISPATCH_RELEASE=' + self.tarball, '-DCMAKE_BUILD_TYPE=' + self.buildtype,
               '-DCMAKE_EXPORT_COMPILE_COMMANDS=ON'] + list(extra)
        if self.name == 'cross-aarch64':
            cmd.append('-DCMAKE_TOOLCHAIN_FILE=' + os.path.join(self.root, 'cross', 'aarch64-linux-gnu.cmake'))
        else:
            cmd += ['-DCMAKE_C_COMPILER=' + self.cc] + (['-DCMAKE_CXX_COMPILER=' + self.cxx]
                                                       if self.project == 'consumer' else [])
        return run(cmd, env=self.env)

    def build(self, build):
        return run(['cmake', '--build', build, '-j', '2'], env=self.env)

    # -- same as the Meson build ---------------------------------------------
    def meson_setup(self):
        build = os.path.join(self.tmp, 'meson-build')
        env = dict(self.env, CC=self.cc, CXX=self.cxx)
        cmd = ['meson', 'setup', build, self.meson_proj, '--wrap-mode=nodownload',
               '--buildtype=' + ('debug' if self.buildtype == 'Debug' else 'release')]
        if self.name == 'cross-aarch64':
            cmd += ['--cross-file', os.path.join(self.root, 'cross', 'aarch64-linux-gnu.txt')]
        p = run(cmd, env=env)
        return build if p.returncode == 0 else self.check('meson-setup', False, (p.stdout + p.stderr)[-3000:])

    @staticmethod
    def target_flags(build):
        """{library of a dispatch target: its -m/-D/-f/-U arguments} from
        compile_commands.json (Meson: NAME.a.p/, CMake: NAME.dir/)."""
        out = {}
        with open(os.path.join(build, 'compile_commands.json')) as fh:
            for e in json.load(fh):
                args = e.get('arguments') or shlex.split(e['command'])
                if '.dispatch.' not in e['file'] or 'cpudispatch' in e['file']:
                    continue
                m = re.search(r'(?:^|[/ ])(?:lib)?([A-Za-z0-9_]+?)(?:\.a\.p|\.dir)/', e.get('output', '') + ' ' +
                              ' '.join(args))
                if m:
                    out[m.group(1)] = sorted(a for a in args if re.match(r'-[mDfU]', a) and a not in OWN_FLAGS)
        return out

    def check_same_as_meson(self, cbuild):
        mbuild = self.meson_setup()
        if not mbuild:
            return
        headers = sorted(f for f in os.listdir(mbuild) if f.endswith('.dispatch.h'))
        differ = [h for h in headers if not os.path.exists(os.path.join(cbuild, h)) or
                  open(os.path.join(mbuild, h)).read() != open(os.path.join(cbuild, h)).read()]
        self.check('same-as-meson: the dispatch headers (%s)' % ' '.join(headers), headers and not differ,
                   'differ or missing in the CMake build: %s' % differ)
        mf, cf = self.target_flags(mbuild), self.target_flags(cbuild)
        diff = ['%s: %s' % (lib, sorted(set(mf.get(lib, [])) ^ set(cf.get(lib, []))))
                for lib in sorted(set(mf) | set(cf)) if mf.get(lib) != cf.get(lib)]
        self.check('same-as-meson: %d per-target objects, the same flags and defines' % len(mf),
                   mf and not diff, 'Meson %s, CMake %s; differences: %s' % (sorted(mf), sorted(cf), diff))

    # -- ctest ---------------------------------------------------------------
    def ctest(self, build, label):
        return run(['ctest', '--test-dir', build, '-L', label, '-V', '--timeout', '600'], env=self.env) \
            if self.ctest_has_test_dir() else run(['ctest', '-L', label, '-V'], env=self.env, cwd=build)

    @staticmethod
    def ctest_has_test_dir():
        v = subprocess.run(['ctest', '--version'], capture_output=True, text=True).stdout
        m = re.search(r'(\d+)\.(\d+)', v)
        return bool(m) and (int(m.group(1)), int(m.group(2))) >= (3, 20)

    @staticmethod
    def per_test(out):
        """ctest -V output split by test number: {number: text}."""
        parts = {}
        for line in out.splitlines():
            m = re.match(r'^(\d+): (.*)$', line)
            if m:
                parts.setdefault(m.group(1), []).append(m.group(2))
        return {k: '\n'.join(v) for k, v in parts.items()}

    def ran(self, text):
        """What each source reported running, per program, in order."""
        return {prog: [re.findall(p, text, re.M) for p in pats] for prog, pats in PROGRAMS[self.project].items()}

    def by_program(self, out):
        tests = {}
        for text in self.per_test(out).values():
            m = re.search(r'^Test command: .*?/([A-Za-z_]+)"?\s*$', text, re.M)
            if m and m.group(1) in PROGRAMS[self.project]:
                tests[m.group(1)] = text
        return tests

    def check_ctest(self, build, host):
        targets = TARGETS[self.project]
        plain = self.ctest(build, 'cpudispatch_plain')
        tests = self.by_program(plain.stdout)
        want = [[best(t, host)] for t in targets]
        got = {p: [r[:1] for r in self.ran(tests.get(p, ''))[p]] for p in PROGRAMS[self.project]}
        self.check('plain: ctest passes, each program ran this CPU\'s best (%s)' % ' '.join(w[0] for w in want),
                   plain.returncode == 0 and all(g == want for g in got.values()),
                   'status %d, ran %s\n%s' % (plain.returncode, got, plain.stdout[-2000:]))

        each = self.ctest(build, 'cpudispatch_each_target')
        tests = self.by_program(each.stdout)
        problems = []
        for prog in PROGRAMS[self.project]:
            text = tests.get(prog, '')
            oks = re.findall(r'^cpudispatch-run: (\S+) ok$', text, re.M)
            # Every compiled target this CPU has, each once (a target of
            # one source runs the others' best below it).
            compiled = []
            for t in targets:
                compiled += [x for x in t if x not in compiled]
            runnable = [t for t in compiled if NEEDS[t] <= host]
            if sorted(oks) != sorted(runnable):
                problems.append('%s: ok under %s, expected %s' % (prog, oks, runnable))
        self.check('each-target: ctest passes, every program ran once per compiled target this CPU has',
                   each.returncode == 0 and tests and not problems,
                   'status %d; %s\n%s' % (each.returncode, problems, each.stdout[-3000:]))

    def check_each_cpu(self, build, arch):
        models = cpu_facts.models(arch)
        each = self.ctest(build, 'cpudispatch_each_cpu')
        tests = self.by_program(each.stdout)
        problems = []
        for prog in PROGRAMS[self.project]:
            text = tests.get(prog, '')
            oks = re.findall(r'^cpudispatch-run: (\S+) ok$', text, re.M)
            if oks != list(models):
                problems.append('%s: ok under %s, expected %s' % (prog, oks, list(models)))
            if arch == 'x86_64':
                want = [[best(t, models[m]) for m in models] for t in TARGETS[self.project]]
                got = self.ran(text)[prog]
                if got != want:
                    problems.append('%s ran %s under %s, expected %s' % (prog, got, list(models), want))
        self.check('each-cpu: ctest passes under %s%s' % (' '.join(models), ', each program on the model\'s best '
                                                          'target' if arch == 'x86_64' else ''),
                   each.returncode == 0 and tests and not problems,
                   'status %d; %s\n%s' % (each.returncode, problems, each.stdout[-3000:]))

    # -- c-only extras -------------------------------------------------------
    def check_baseline(self):
        build = os.path.join(self.tmp, 'cmake-v3')
        p = self.cmake(build, ['-DCPUD_CPU_BASELINE=x86_v3'])
        if not self.check('baseline: configure with -DCPUD_CPU_BASELINE=x86_v3', p.returncode == 0,
                          (p.stdout + p.stderr)[-3000:]):
            return
        p = self.build(build)
        if not self.check('baseline: build', p.returncode == 0, (p.stdout + p.stderr)[-3000:]):
            return
        refusal = messages.refusal('cpudispatch-c-only-fixture', '1.0')
        problems = []
        for prog in PROGRAMS['c-only']:
            exe = os.path.join(build, prog)
            ok = subprocess.run(['qemu-x86_64', '-cpu', 'Haswell', exe], capture_output=True, text=True)
            low = subprocess.run(['qemu-x86_64', '-cpu', 'Nehalem', exe], capture_output=True, text=True)
            lines = [l for l in low.stderr.splitlines() if "TCG doesn't support" not in l]
            if ok.returncode != 0:
                problems.append('%s on Haswell: status %d %s' % (prog, ok.returncode, ok.stderr[-300:]))
            if low.returncode != 69 or len(lines) != 1 or not refusal.match(lines[0]) or low.stdout:
                problems.append('%s on Nehalem: status %d%s, stderr %r, stdout %r' % (
                    prog, low.returncode, ' (an illegal instruction)' if low.returncode in SIGILL else '',
                    low.stderr[-300:], low.stdout[-200:]))
        self.check('baseline: every program (static and shared library shapes) runs on Haswell and refuses '
                   'Nehalem with the start-up message, status 69', not problems, '\n'.join(problems))
        # The control: with the check skipped, the x86_v3 code runs on
        # Nehalem and dies of an illegal instruction.
        skip = messages.env_prefix('cpudispatch-c-only-fixture') + '_SKIP_CPU_BASELINE_CHECK'
        ctl = subprocess.run(['qemu-x86_64', '-cpu', 'Nehalem', os.path.join(build, 'use_static')],
                             capture_output=True, text=True, env=dict(self.env, **{skip: '1'}))
        self.check('baseline control: with %s=1 use_static dies of SIGILL on Nehalem' % skip,
                   ctl.returncode in SIGILL, 'status %d %r' % (ctl.returncode, ctl.stderr[-300:]))
        # The library installed and linked alone by a plain cc: libfoo.a
        # holds the kernels and the runtime, libfoo.so its own copy.
        dest = os.path.join(self.tmp, 'v3-dest')
        p = run(['cmake', '--install', build, '--prefix', dest], env=self.env)
        use = os.path.join(self.cmake_proj, 'src', 'use.c')
        plain = {'static': ['-l:libfoo.a'], 'shared': ['-lfoo', '-Wl,-rpath,' + os.path.join(dest, 'lib')]}
        problems = [] if p.returncode == 0 else ['cmake --install: %s' % (p.stdout + p.stderr)[-1500:]]
        exes = []
        for kind, libs in plain.items():
            exe = os.path.join(self.tmp, 'use_plain_' + kind)
            b = run([self.cc, use, '-o', exe, '-L' + os.path.join(dest, 'lib')] + libs)
            if b.returncode != 0:
                problems.append('cc %s: %s' % (kind, b.stderr[-800:]))
                continue
            exes.append(exe)
        # And by find_package(foo): the package the fixture's install(EXPORT)
        # wrote names no cpudispatch target, and its programs need none.
        config = os.path.join(dest, 'lib', 'cmake', 'foo', 'fooConfig.cmake')
        text = open(config).read() if os.path.exists(config) else ''
        if not text or 'cpudispatch' in text:
            problems.append('%s: %s' % (config, 'missing' if not text else 'names cpudispatch'))
        pkg, pkg_build = os.path.join(self.tmp, 'use-pkg'), os.path.join(self.tmp, 'use-pkg-build')
        shutil.rmtree(pkg, ignore_errors=True)
        shutil.rmtree(pkg_build, ignore_errors=True)
        os.makedirs(pkg)
        with open(os.path.join(pkg, 'CMakeLists.txt'), 'w') as fh:
            fh.write('cmake_minimum_required(VERSION 3.16)\nproject(use_pkg LANGUAGES C)\n'
                     'find_package(foo CONFIG REQUIRED)\n'
                     'foreach(k static shared)\n'
                     '  add_executable(use_pkg_${k} "%s")\n'
                     '  target_link_libraries(use_pkg_${k} PRIVATE foo::foo_${k})\n'
                     'endforeach()\n' % use)
        for cmd in (['cmake', '-S', pkg, '-B', pkg_build, '-G', self.generator, '-DCMAKE_C_COMPILER=' + self.cc,
                     '-DCMAKE_PREFIX_PATH=' + dest],
                    ['cmake', '--build', pkg_build]):
            b = run(cmd, env=self.env)
            if b.returncode != 0:
                problems.append('%s: %s' % (' '.join(cmd[:2]), (b.stdout + b.stderr)[-1500:]))
                break
        else:
            exes += [os.path.join(pkg_build, 'use_pkg_' + k) for k in ('static', 'shared')]
        for exe in exes:
            kind = os.path.basename(exe)
            ok = subprocess.run(['qemu-x86_64', '-cpu', 'Haswell', exe], capture_output=True, text=True)
            low = subprocess.run(['qemu-x86_64', '-cpu', 'Nehalem', exe], capture_output=True, text=True)
            lines = [l for l in low.stderr.splitlines() if "TCG doesn't support" not in l]
            if ok.returncode != 0 or low.returncode != 69 or len(lines) != 1 or not refusal.match(lines[0]):
                problems.append('%s: Haswell status %d; Nehalem status %d%s %r' % (
                    kind, ok.returncode, low.returncode, ' (an illegal instruction)' if low.returncode in SIGILL
                    else '', low.stderr[-300:]))
        self.check('baseline: the installed libfoo.a and libfoo.so linked by a plain %s and through '
                   'find_package(foo): Haswell runs, Nehalem refused (69)' % self.cc, len(exes) == 4 and not problems,
                   '\n'.join(problems))

    def check_bad_options(self):
        cases = [('-DCPUD_CPU_BASELINE=min avx3', r'CPUD_CPU_BASELINE: unknown CPU feature "AVX3".*valid names '
                  r'on x86_64: .*AVX2'),
                 ('-DCPUD_MODE=nosuch', r'CPUD_MODE: "nosuch" is not one of program, library, init'),
                 ('-DCPUD_FIXTURE_BAD_EMBED=foo_static;nosuch',
                  r'cpudispatch_embed\(foo_static nosuch\): "nosuch" is not the NAME of a cpudispatch_add_sources'
                  r'\(\) call; the calls so far: kernels'),
                 ('-DCPUD_FIXTURE_BAD_EMBED=nosuch;kernels', r'cpudispatch_embed\(nosuch\): no target "nosuch"'),
                 ('-DCPUD_FIXTURE_BAD_EMBED=foo_static', r'cpudispatch_embed\(foo_static\): name the '
                  r'cpudispatch_add_sources\(\) calls')]
        for arg, want in cases:
            build = os.path.join(self.tmp, 'cmake-bad')
            shutil.rmtree(build, ignore_errors=True)
            p = self.cmake(build, [arg])
            text = re.sub(r'\s+', ' ', p.stdout + p.stderr)
            self.check('bad-options: %s stops configure naming it' % arg,
                       p.returncode != 0 and re.search(want, text, re.I | re.S),
                       'status %d, output: %s' % (p.returncode, text[-1500:]))

    def check_docs_block(self):
        block, begin, stop = {'consumer': ('cmake-snippet', '# --- the CMake quick start', '# --- end of the quick'),
                              'c-only': ('cmake-library', '  # --- library recipe', '  # --- end of library')}[self.name]
        doc = doc_blocks.block(os.path.join(self.root, 'docs', 'cmake.md'), block)
        with open(os.path.join(self.src, 'CMakeLists.txt')) as fh:
            text = fh.read().splitlines()
        start = next((i for i, l in enumerate(text) if l.startswith(begin)), None)
        end = next((i for i, l in enumerate(text) if l.startswith(stop)), None)
        example = text[start + 1:end] if start is not None and end is not None else None
        self.check('docs-block: docs/cmake.md\'s block %s is %s\'s' % (block, os.path.relpath(self.src, self.root)),
                   example is not None and doc == example, 'docs:\n%s\nexample:\n%s' % (
                       '\n'.join(doc), '\n'.join(example or ['(no quick-start markers)'])))

    # -- install -------------------------------------------------------------
    def installed_files(self, dest):
        got = {}
        for d, _, files in os.walk(dest):
            for f in files:
                rel = os.path.relpath(os.path.join(d, f), dest)
                # lib/ or lib/x86_64-linux-gnu/ (Meson's Debian libdir): the
                # same place to pkg-config and the linker.
                got[re.sub(r'^usr/local/lib/[a-z0-9_]+-linux-gnu/', 'usr/local/lib/', rel)] = os.path.join(d, f)
        return got

    @staticmethod
    def pc_fields(path):
        with open(path) as fh:
            text = fh.read()
        return {k: v.strip() for k, v in re.findall(r'^(Cflags|Libs|Name|Version):(.*)$', text, re.M)}

    def check_install(self):
        import tarfile
        if not self.release():
            return
        with tarfile.open(self.tarball) as t:
            t.extractall(self.tmp)
        tree = os.path.join(self.tmp, os.path.basename(self.tarball)[:-len('.tar.xz')])
        cb, cdest = os.path.join(self.tmp, 'cmake-build'), os.path.join(self.tmp, 'cmake-dest')
        steps = [['cmake', '-S', tree, '-B', cb, '-G', 'Ninja', '-DCMAKE_INSTALL_PREFIX=/usr/local',
                  '-DCMAKE_C_COMPILER=gcc', '-DCMAKE_CXX_COMPILER=g++'], ['cmake', '--build', cb, '-j', '2'], ['cmake', '--install', cb]]
        for cmd in steps:
            p = run(cmd, env=dict(self.env, DESTDIR=cdest))
            if not self.check('cmake: %s' % ' '.join(cmd[:2]), p.returncode == 0, (p.stdout + p.stderr)[-3000:]):
                return
        mb, mdest = os.path.join(self.tmp, 'meson-build'), os.path.join(self.tmp, 'meson-dest')
        for cmd in (['meson', 'setup', mb, tree, '--prefix=/usr/local', '-Dtests=disabled', '-Dbenchmarks=disabled'],
                    ['meson', 'install', '-C', mb, '--destdir', mdest, '--quiet']):
            p = run(cmd, env=dict(self.env, CC='gcc', CXX='g++'))
            if not self.check('meson: %s' % ' '.join(cmd[:2]), p.returncode == 0, (p.stdout + p.stderr)[-3000:]):
                return
        cf, mf = self.installed_files(cdest), self.installed_files(mdest)
        meson_only = sorted(f for f in mf if f not in cf)
        cmake_only = sorted(f for f in cf if f not in mf and '/cmake/cpudispatch/' not in f)
        pc = 'usr/local/lib/pkgconfig/cpudispatch.pc'
        same_pc = pc in cf and pc in mf and self.pc_fields(cf[pc]) == self.pc_fields(mf[pc])
        self.check('installed: CMake installs the %d files Meson does, cpudispatch.pc\'s Cflags and Libs the same'
                   % len(mf), not meson_only and not cmake_only and same_pc,
                   'only Meson: %s; only CMake: %s; pc: CMake %s, Meson %s' % (
                       meson_only, cmake_only, pc in cf and self.pc_fields(cf[pc]), pc in mf and self.pc_fields(mf[pc])))
        # The two installed cpudispatch-info programs: the same report of
        # this machine, the same build (baseline, targets, each demo
        # kernel's selection), plainly and with a mask.
        info = 'usr/local/bin/cpudispatch-info'
        problems = []
        for extra in ({}, {'CPUDISPATCH_DISABLE_CPU_FEATURES': 'AVX2'}):
            got = {}
            for who, files in (('CMake', cf), ('Meson', mf)):
                r = subprocess.run([files.get(info, '/nonexistent'), '--json'], capture_output=True, text=True,
                                   env=dict(self.env, **extra)) if info in files else None
                got[who] = (r.returncode, r.stdout) if r else (None, '')
            if got['CMake'] != got['Meson'] or got['CMake'][0] != 0 or '"cpu"' not in got['CMake'][1]:
                problems.append('%s: CMake %s, Meson %s' % (extra or 'plain', got['CMake'], got['Meson']))
        self.check('installed: cpudispatch-info --json of both installs prints the same, plainly and with '
                   'CPUDISPATCH_DISABLE_CPU_FEATURES=AVX2', not problems, '\n'.join(problems)[-3000:])
        tiny = os.path.join(self.root, 'test', 'install', 'tiny.c')
        env = dict(self.env, PKG_CONFIG_PATH=os.path.dirname(cf.get(pc, cdest)), PKG_CONFIG_SYSROOT_DIR=cdest)
        flags = run(['pkg-config', '--cflags', '--libs', 'cpudispatch'], env=env).stdout.split()
        exe = os.path.join(self.tmp, 'tiny')
        p = run(['gcc', tiny, '-o', exe] + flags)
        self.check_tiny('pkg-config: tiny.c built by gcc %s' % ' '.join(flags), p, exe)
        proj = os.path.join(self.tmp, 'find-package')
        os.makedirs(proj)
        with open(os.path.join(proj, 'CMakeLists.txt'), 'w') as fh:
            fh.write('cmake_minimum_required(VERSION 3.16)\nproject(tiny C)\n'
                     'find_package(cpudispatch 0.6 REQUIRED)\nadd_executable(tiny %s)\n'
                     'target_link_libraries(tiny PRIVATE cpudispatch::cpudispatch)\n' % tiny)
        fb = os.path.join(self.tmp, 'find-package-build')
        p = run(['cmake', '-S', proj, '-B', fb, '-G', 'Ninja', '-DCMAKE_C_COMPILER=gcc',
                 '-DCMAKE_PREFIX_PATH=' + os.path.join(cdest, 'usr', 'local')], env=self.env)
        if p.returncode == 0:
            p = self.build(fb)
        self.check_tiny('find-package: tiny.c built by find_package(cpudispatch 0.6)', p, os.path.join(fb, 'tiny'))

    def check_tiny(self, what, build, exe):
        if not self.check(what + ': builds', build.returncode == 0, (build.stdout + build.stderr)[-3000:]):
            return
        ok = subprocess.run([exe], capture_output=True, text=True)
        bad = subprocess.run([exe], capture_output=True, text=True,
                             env=dict(self.env, CPUDISPATCH_ENABLE_CPU_FEATURES='nosuchfeature'))
        self.check(what + ': runs; its start-up check runs before main (78)',
                   ok.returncode == 0 and 'main reached' in ok.stdout and bad.returncode == 78
                   and 'main reached' not in bad.stdout,
                   'status %d %r; with a bad variable: status %d %r %r' % (ok.returncode, ok.stdout, bad.returncode,
                                                                          bad.stdout, bad.stderr))

    # -- two libraries, two build systems, one program ------------------------
    def check_two_libraries(self):
        sys.path.insert(0, os.path.join(TEST_DIR, 'multilib'))
        import run_multilib as ml
        b = ml.Builder(self.root, self.tmp)
        alpha = b.project('alpha')
        beta_prefix = b.build('beta', 'cm', 'static')
        if alpha is None or beta_prefix is None:
            return self.check('two-libraries: the projects', False, 'making or building them failed (above)')
        with open(os.path.join(ml.HERE, 'library', 'CMakeLists.txt')) as fh:
            text = fh.read()
        for k, v in {'@NAME@': 'alpha', '@VERSION@': ml.LIBS['alpha']['version'], '@EXT@': 'c',
                     '@CMAKE_CXX@': ''}.items():
            text = text.replace(k, v)
        with open(os.path.join(alpha, 'CMakeLists.txt'), 'w') as fh:
            fh.write(text)
        pf = os.path.join(alpha, 'subprojects', 'packagefiles')
        tarball = os.path.join(pf, [f for f in os.listdir(pf) if f.endswith('.tar.xz')][0])

        def alpha_by_cmake(tag, extra=()):
            build, prefix = os.path.join(self.tmp, 'alpha-cmake' + tag), os.path.join(self.tmp, 'alpha-prefix' + tag)
            for cmd in (['cmake', '-S', alpha, '-B', build, '-G', 'Ninja', '-DCMAKE_C_COMPILER=gcc',
                         '-DCMAKE_BUILD_TYPE=Release', '-DCPUDISPATCH_RELEASE=' + tarball,
                         '-DCPUD_CPU_BASELINE=' + ml.LIBS['alpha']['baseline'], '-DCMAKE_INSTALL_PREFIX=' + prefix]
                        + list(extra), ['cmake', '--build', build], ['cmake', '--install', build]):
                p = run(cmd, env=self.env)
                if not self.check('two-libraries: alpha%s by %s' % (tag, ' '.join(cmd[:2])), p.returncode == 0,
                                  (p.stdout + p.stderr)[-3000:]):
                    return None
            return prefix
        prefix = alpha_by_cmake('')
        if prefix is None:
            return
        env = dict(self.env, PKG_CONFIG_PATH=os.path.join(beta_prefix, 'lib', 'pkgconfig'))
        beta_libs = run(['pkg-config', '--libs', '--static', 'beta'], env=env).stdout.split()
        libs = {'alpha': [os.path.join(prefix, 'lib', 'libalpha.a')], 'beta': beta_libs}
        refusal = messages.refusal('alpha', ml.LIBS['alpha']['version'])
        host = cpu_facts.host_flags()
        haswell = cpu_facts.models('x86_64')['Haswell']
        for order in (['alpha', 'beta'], ['beta', 'alpha']):
            exe = os.path.join(self.tmp, 'main-' + '-'.join(order))
            cmd = ['gcc', '-O2', '-DLIBS(X)=' + ' '.join('X(%s)' % l for l in order),
                   os.path.join(ml.HERE, 'program', 'main.c'), '-o', exe] + libs[order[0]] + libs[order[1]]
            p = run(cmd)
            if not self.check('one-program (%s): links' % ' '.join(order), p.returncode == 0, p.stderr[-2000:]):
                continue
            problems = []

            def expect(where, flags, env_extra=None, off=None):
                cmd = ([] if where == 'native' else ['qemu-x86_64', '-cpu', where]) + [exe]
                r = subprocess.run(cmd, capture_output=True, text=True, env=dict(self.env, **(env_extra or {})))
                want = sorted('%s: %d %s' % (l, 1000 + ml.LIBS[l]['add'],
                                            ml.best(l, 'x86_64', flags, (off or {}).get(l, ())))
                              for l in order)
                got = sorted(r.stdout.splitlines())
                if r.returncode != 0 or got != want:
                    problems.append('%s%s: status %d, %s; expected %s' % (where, ' %s' % env_extra if env_extra
                                                                          else '', r.returncode, got, want))
            if not ml.below('alpha', 'x86_64', host):
                expect('native', host)
            expect('Haswell', haswell)
            expect('Haswell', haswell, {'BETA_DISABLE_CPU_FEATURES': 'AVX2'}, {'beta': ('AVX2', 'AVX512_SKX')})
            low = subprocess.run(['qemu-x86_64', '-cpu', 'Nehalem', exe], capture_output=True, text=True)
            lines = [l for l in low.stderr.splitlines() if "TCG doesn't support" not in l]
            if low.returncode != 69 or len(lines) != 1 or not refusal.match(lines[0]):
                problems.append('Nehalem: status %d%s, %r' % (low.returncode, ' (SIGILL)' if low.returncode in SIGILL
                                                              else '', low.stderr[-300:]))
            self.check('one-program (%s): each library its own result and best target (native, Haswell, '
                       'BETA_DISABLE_CPU_FEATURES=AVX2 moving beta alone); Nehalem refused with alpha\'s line (69)'
                       % ' '.join(order), not problems, '\n'.join(problems))

        # The control: both built with one namespace (CPUD_NAMESPACE and
        # -Dcpudispatch:namespace), the two runtimes and kernel names are
        # one; the archive linked first serves both, so alpha's call reaches
        # beta's kernel, and under Nehalem beta's check (baseline min) lets
        # alpha's x86_v3 code run into SIGILL. The namespace per build is
        # what the case above relies on.
        same_prefix = alpha_by_cmake('-same-ns', ['-DCPUD_NAMESPACE=shared_ns'])
        beta_same = b.build('beta', 'cm-same-ns', 'static', ['-Dcpudispatch:namespace=shared_ns'])
        if same_prefix is None or beta_same is None:
            return self.check('control: the one-namespace builds', False, 'making or building them failed (above)')
        env = dict(self.env, PKG_CONFIG_PATH=os.path.join(beta_same, 'lib', 'pkgconfig'))
        exe = os.path.join(self.tmp, 'main-control')
        p = run(['gcc', '-O2', '-DLIBS(X)=X(beta) X(alpha)', os.path.join(ml.HERE, 'program', 'main.c'), '-o', exe]
                + run(['pkg-config', '--libs', '--static', 'beta'], env=env).stdout.split()
                + [os.path.join(same_prefix, 'lib', 'libalpha.a')])
        if not self.check('control: one namespace, beta then alpha, links', p.returncode == 0, p.stderr[-2000:]):
            return
        where = [] if cpu_facts.X86_V3 <= host else ['qemu-x86_64', '-cpu', 'Haswell']
        r = subprocess.run(where + [exe], capture_output=True, text=True, env=self.env)
        low = subprocess.run(['qemu-x86_64', '-cpu', 'Nehalem', exe], capture_output=True, text=True, env=self.env)
        self.check('control: one namespace: alpha\'s call reaches beta\'s kernel (%s), and under Nehalem the '
                   'program dies of SIGILL' % ('natively' if not where else 'under Haswell'),
                   r.returncode == 0 and 'alpha: 1002' in r.stdout and 'alpha: 1001' not in r.stdout
                   and low.returncode in SIGILL,
                   'run: status %d %r; Nehalem: status %d %r' % (r.returncode, r.stdout, low.returncode,
                                                                   low.stderr[-300:]))

    # -- the case ------------------------------------------------------------
    def run(self):
        if self.name == 'two-libraries':
            return self.check_two_libraries()
        if self.name == 'install':
            return self.check_install()
        if self.name in ('consumer', 'c-only'):
            self.check_docs_block()
        if not self.release():
            return
        build = os.path.join(self.tmp, 'cmake-build')
        p = self.cmake(build)
        if not self.check('configure (%s, %s, %s)' % (self.generator, self.cc, self.buildtype), p.returncode == 0,
                          (p.stdout + p.stderr)[-3000:]):
            return
        p = self.build(build)
        if not self.check('build', p.returncode == 0, (p.stdout + p.stderr)[-3000:]):
            return
        self.check_same_as_meson(build)
        if self.name == 'cross-aarch64':
            each = self.ctest(build, 'cpudispatch_plain|cpudispatch_each_target')
            self.check('plain and each-target under qemu-aarch64: ctest passes', each.returncode == 0,
                       each.stdout[-3000:])
            self.check_each_cpu(build, 'aarch64')
            return
        host = cpu_facts.host_flags()
        self.check_ctest(build, host)
        self.check_each_cpu(build, 'x86_64')
        if self.name == 'c-only':
            self.check_baseline()
            self.check_bad_options()


def main():
    if sys.argv[1:] == ['--list']:
        print('\n'.join(CASES))
        return 0
    if len(sys.argv) != 3 or sys.argv[2] not in CASES:
        print('usage: run_cmake.py --list | SOURCE_ROOT CASE (%s)' % ' '.join(CASES))
        return 2
    root, name = os.path.abspath(sys.argv[1]), sys.argv[2]
    if os.uname().machine != 'x86_64':
        print('SKIP: the cases build for x86_64 (and cross from it); this host is %s' % os.uname().machine)
        return 77
    with tempfile.TemporaryDirectory(prefix='cpud-cmake-') as tmp:
        c = Case(root, name, tmp)
        miss = c.missing()
        if miss:
            print('SKIP: not installed: %s' % ' '.join(miss))
            return 77
        c.run()
        print('%s: %d passed, %d failed' % (name, len(c.passed), len(c.failures)))
        return 1 if c.failures or not c.passed else 0


if __name__ == '__main__':
    sys.exit(main())
