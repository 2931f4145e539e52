#!/usr/bin/env python3
"""The start-up check and the environment variables' validation in every
shape a library made with cpudispatch ships in (docs/libraries.md).

  run_shapes.py --list                       case names
  run_shapes.py SOURCE_ROOT CASE             run one case: exit 0 pass,
                                             1 fail, 77 skip (a tool missing)

Each case builds test/shapes/fixture through a release wrap (git HEAD) with
one compiler, build type, library kind (default_library) and cpu-baseline /
cpu-dispatch, then checks:

  blocks   the fixture holds docs/quickstart.md's snippet and snippet-use
           line and docs/libraries.md's recipe verbatim (sources aside);
  foo.pc   -Wl,--undefined=NAMESPACE__cpud__startup_check_anchor is in
           Libs for a static-only foo, in Libs.private otherwise, as the
           docs say; Cflags hold no machine flag (the variable
           cpudispatch_cflags holds the baseline's); libfoo.so exports
           foo_* alone (nm -D --defined-only);
  programs the snippet's executable and every use_ENTRY_LANG_KIND program
           (one entry point of the library, C or C++, linked with the
           static or shared half) and the same programs built after
           `meson install` by the plain C / C++ compiler with `pkg-config
           --cflags --libs foo`: under qemu -cpu Haswell, and natively
           (69 instead where this CPU, as its kernel and CPUID say, lacks
           an x86_v3 baseline), status 0 and the right result; under -cpu
           Nehalem status 69
           and the check's message (naming the fixture's project) with an
           x86_v3 baseline, 0 with the default one; with DISABLE=nonsense
           status 78 and its message where the runtime is in the program
           (the executable, the static half), status 0, the message as a
           warning and the right result where it is in libfoo.so (a
           library never ends its host for a variable). aarch64: under
           qemu-aarch64, status 0; DISABLE=asimd (a baseline feature) and
           DISABLE=nonsense: 78;
  controls x86_v3 static: the installed libfoo.a linked by `cc` without
           pkg-config's --undefined: the program calling only foo_util
           (no cpudispatch header) dies of SIGILL under Nehalem, the one
           calling foo_sum or foo_plain still exits 69 under Nehalem and 78
           with DISABLE=nonsense (the header's reference alone).
           Cases control-*: the library built with -DCPUD__NO_STARTUP_REF
           (and, on x86, cpu-dispatch=none: no CHECK calls the runtime)
           and linked that way: foo_sum and foo_plain die of SIGILL under
           Nehalem and take DISABLE=nonsense with status 0 (aarch64:
           foo_plain takes DISABLE=asimd with status 0), where the
           references give 69 / 78.
"""
import os
import re
import shlex
import shutil
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
import run_consumer  # noqa: E402  (test/consumer/run_consumer.py)

V3_NONE = dict(baseline='x86_v3', dispatch='none')
V3 = dict(baseline='x86_v3', dispatch='max')
DEFAULT = dict(baseline='min', dispatch='max')
GCC = dict(cc='gcc', cxx='g++')
CLANG = dict(cc='clang', cxx='clang++')
CASES = {}
for tag, conf, bt in (('v3-none', V3_NONE, 'debug'), ('v3', V3, 'release'), ('default', DEFAULT, 'debugoptimized')):
    # both: the executable, the static and the shared half linked by Meson,
    # the installed shared library by a plain cc (it picks libfoo.so);
    # static: default_library=static, installed, linked by a plain cc.
    for kind in ('static', 'both'):
        CASES['gcc-%s-%s' % (tag, kind)] = dict(GCC, kind=kind, buildtype=bt, **conf)
CASES['clang-v3-both'] = dict(CLANG, kind='both', buildtype='debug', **V3)
CASES['control-gcc-v3-none-static'] = dict(GCC, kind='static', buildtype='release', control=True, **V3_NONE)
AARCH64 = dict(cc='aarch64-linux-gnu-gcc', cxx='aarch64-linux-gnu-g++', baseline='min', dispatch='max',
               cross='aarch64-linux-gnu', qemu=['qemu-aarch64', '-L', '/usr/aarch64-linux-gnu'])
CASES['aarch64-static'] = dict(AARCH64, kind='static', buildtype='release')
CASES['control-aarch64-static'] = dict(AARCH64, kind='static', buildtype='release', control=True)

ENTRIES = {'foo_sum': 450, 'foo_plain': 450, 'foo_util': 450, 'foo_cxx': 900}
UNDEF = re.compile(r'-Wl,--undefined=\w+__cpud__startup_check_anchor\b')
PROJECT, VERSION = 'cpudispatch-shapes-fixture', '1.0'  # the fixture's project()
BASELINE_MSG = messages.refusal(PROJECT, VERSION)
PREFIX = messages.env_prefix(PROJECT)  # its variables: CPUDISPATCH_SHAPES_FIXTURE_...
SIGILL = (-4, 132)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def show(cmd):
    print('$ ' + ' '.join(shlex.quote(a) for a in cmd))


class Case(run_consumer.Case):
    """fail, sh and make_project (the fixture copied, with the release wrap
    in its subprojects/) are test/consumer's."""

    def __init__(self, root, name, tmp):
        self.root, self.name, self.c, self.tmp = root, name, CASES[name], tmp
        self.fixture = os.path.join(root, 'test', 'shapes', 'fixture')
        self.proj = os.path.join(tmp, 'proj')
        self.build = os.path.join(tmp, 'build')
        self.dest = os.path.join(tmp, 'dest')
        self.failures = []
        self.runs = 0
        self.host = None
        self.x86 = 'cross' not in self.c

    def missing(self):
        need = [self.c['cc'], self.c['cxx'], 'meson', 'ninja', 'git', 'pkg-config', 'ar', 'objcopy', 'readelf']
        need.append('qemu-x86_64' if self.x86 else self.c['qemu'][0])
        return [n for n in need if not shutil.which(n)]

    # -- the docs' blocks ----------------------------------------------------
    def check_blocks(self):
        for p in run_consumer.check_snippet(self.root, self.fixture):
            self.fail('docs/quickstart.md: ' + p)
        have = open(os.path.join(self.fixture, 'meson.build')).read().splitlines()
        try:
            recipe = doc_blocks.block(os.path.join(self.root, 'docs', 'libraries.md'), 'library')
        except ValueError as e:
            self.fail(str(e))
            return
        norm = lambda l: re.sub(r"^(foo = library\('foo', ).*?(, foo_kernels, )", r'\1SOURCES\2', l)
        at = [i for i, l in enumerate(have) if l == recipe[0]]
        if not at or [norm(l) for l in have[at[0]:at[0] + len(recipe)]] != [norm(l) for l in recipe]:
            self.fail('the fixture lacks docs/libraries.md\'s recipe block verbatim (its sources aside)')

    # -- configure, build, install ---------------------------------------------
    def configure_build_install(self):
        env = {k: v for k, v in os.environ.items()
               if k not in ('CFLAGS', 'CXXFLAGS', 'CPPFLAGS', 'LDFLAGS', 'CC', 'CXX')}
        cmd = ['meson', 'setup', self.build, self.proj, '--wrap-mode=nodownload', '--buildtype=' + self.c['buildtype'],
               '--prefix=/usr/local', '--libdir=lib', '-Ddefault_library=' + self.c['kind'],
               '-Dcpudispatch:cpu-baseline=' + self.c['baseline'], '-Dcpudispatch:cpu-dispatch=' + self.c['dispatch']]
        if 'cross' in self.c:
            cmd += ['--cross-file', os.path.join(self.root, 'cross', self.c['cross'] + '.txt')]
        else:
            env['CC'], env['CXX'] = self.c['cc'], self.c['cxx']
        if self.c.get('control'):
            cmd += ['-Dc_args=-DCPUD__NO_STARTUP_REF', '-Dcpp_args=-DCPUD__NO_STARTUP_REF']
        for step, c in (('configure', cmd), ('build', ['ninja', '-C', self.build]),
                        ('install', ['meson', 'install', '-C', self.build, '--destdir', self.dest, '--no-rebuild',
                                     '--quiet'])):
            show(c)
            t = time.time()
            if self.sh(c, step, env=env).returncode:
                return False
            print('  %s: %.1f s' % (step, time.time() - t))
        return True

    def check_pc(self):
        """docs/libraries.md: where foo.pc puts the --undefined."""
        pc = open(os.path.join(self.dest, 'usr', 'local', 'lib', 'pkgconfig', 'foo.pc')).read()
        libs = re.search(r'^Libs: (.*)$', pc, re.M)
        private = re.search(r'^Libs\.private: (.*)$', pc, re.M)
        where, other = ('Libs', 'Libs.private') if self.c['kind'] == 'static' else ('Libs.private', 'Libs')
        found = {'Libs': bool(libs and UNDEF.search(libs.group(1))),
                 'Libs.private': bool(private and UNDEF.search(private.group(1)))}
        if not libs or '-lfoo' not in libs.group(1).split():
            self.fail('foo.pc has no Libs: ... -lfoo:\n' + pc)
        if not found[where] or found[other]:
            self.fail('foo.pc should have %s in %s only:\n%s' % (UNDEF.pattern, where, pc))
        print('  foo.pc: %s in %s' % (UNDEF.pattern, ', '.join(k for k, v in found.items() if v) or 'nothing'))
        # No machine flag for foo's consumers (docs/libraries.md): the
        # baseline's flags are a variable, for a consumer that asks.
        cflags = re.search(r'^Cflags: (.*)$', pc, re.M)
        machine = [w for w in (cflags.group(1).split() if cflags else []) if w.startswith(('-m', '-DCPUD'))]
        var = re.search(r'^cpudispatch_cflags=(.*)$', pc, re.M)
        if machine or not var:
            self.fail('foo.pc should give no machine flag in Cflags (%s) and the variable cpudispatch_cflags:\n%s'
                      % (' '.join(machine), pc))
        elif self.c['baseline'] == 'x86_v3' and '-mavx2' not in var.group(1).split():
            self.fail('foo.pc: cpudispatch_cflags should hold the x86_v3 baseline\'s flags: %s' % var.group(1))
        else:
            print('  foo.pc: Cflags with no machine flag; cpudispatch_cflags=%s' % var.group(1))
        # A shared foo exports its API (foo_*) and nothing of cpudispatch:
        # not the runtime, not the env-warning record, not the bounds of the
        # records of what was compiled, not the C++ API's inline functions
        # (libstdc++'s own std:: functions and objects aside: std::atomic's
        # members in a debug build).
        so = os.path.join(self.libdir(), 'libfoo.so')
        if os.path.exists(so):
            nm = 'nm' if self.x86 else self.c['cross'] + '-nm'
            lines = run([nm, '-D', '--defined-only', so]).stdout.splitlines()
            names = [l.split()[-1] for l in lines if len(l.split()) == 3]
            leaked = [n for n in names if not n.startswith(('foo_', '_ZNSt', '_ZNKSt', '_ZSt', '_ZZNSt'))]
            if leaked or not any(n.startswith('foo_') for n in names):
                self.fail('libfoo.so should export foo_* alone, exports %s' % names)
            else:
                print('  libfoo.so exports: %s' % ' '.join(sorted(names)))

    # -- programs ------------------------------------------------------------
    def libdir(self):
        return os.path.join(self.dest, 'usr', 'local', 'lib')

    def plain_build(self, entry, lang, out, with_pkg_config=True):
        """A program built outside Meson against the installed library."""
        src = os.path.join(self.proj, 'src', 'use.' + lang)
        cc = self.c['cc'] if lang == 'c' else self.c['cxx']
        cmd = [cc, src, '-DENTRY=' + entry, '-DEXPECT=%d' % ENTRIES[entry], '-o', out]
        if with_pkg_config:
            env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(self.libdir(), 'pkgconfig'),
                       PKG_CONFIG_SYSROOT_DIR=self.dest, PKG_CONFIG_LIBDIR='')
            p = run(['pkg-config', '--cflags', '--libs', 'foo'], env=env)
            if p.returncode:
                self.fail('pkg-config --cflags --libs foo: %s' % p.stderr.strip())
                return None
            cmd += p.stdout.split()
        else:
            # The control link: the archive alone, no --undefined.
            cmd += ['-I', os.path.join(self.dest, 'usr', 'local', 'include'), os.path.join(self.libdir(), 'libfoo.a')]
        if lang == 'c' and entry == 'foo_cxx' and self.c['kind'] == 'static':
            # foo_cxx.cpp is C++: a C program linking the static library
            # needs the C++ runtime, which the compiler driver for C does not
            # add (docs/libraries.md).
            cmd.append('-lstdc++')
        p = run(cmd)
        if p.returncode:
            self.fail('%s failed:\n%s' % (' '.join(cmd), p.stderr[-2000:]))
            return None
        return out

    def launch(self, exe, model=None, env_extra=None):
        env = dict(os.environ, LD_LIBRARY_PATH=self.libdir())
        for k in [k for k in env if k.startswith(('CPUDISPATCH_', PREFIX + '_'))]:
            del env[k]
        env.update(env_extra or {})
        if self.x86:
            cmd = (['qemu-x86_64', '-cpu', model] if model else []) + [exe]
        else:
            cmd = self.c['qemu'] + [exe]
            env['QEMU_LD_PREFIX'] = '/usr/aarch64-linux-gnu'
        self.runs += 1
        try:
            return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)
        except subprocess.TimeoutExpired:
            return subprocess.CompletedProcess(cmd, 124, '', 'timed out')

    def expect_ok(self, exe, model=None, env=None, what=''):
        p = self.launch(exe, model, env_extra=env)
        if p.returncode != 0 or '(ok)' not in p.stdout:
            self.fail('%s%s: status %d, expected 0 and the right result; stdout %r stderr %r'
                      % (os.path.basename(exe), what, p.returncode, p.stdout, p.stderr[-300:]))

    def expect_status(self, exe, status, pattern, model=None, env=None, what=''):
        p = self.launch(exe, model, env_extra=env)
        if p.returncode != status or p.stdout or not re.search(pattern, p.stderr, re.M):
            self.fail('%s%s: status %d, expected %d with %r before main; stdout %r stderr %r'
                      % (os.path.basename(exe), what, p.returncode, status, pattern, p.stdout, p.stderr[-300:]))

    def host_flags(self):
        """This CPU's features, as the kernel and CPUID say (never assumed)."""
        if self.host is None:
            self.host = cpu_facts.host_flags(self.c['cc'])
        return self.host

    def in_shared(self, exe):
        """Whether exe's copy of the runtime is libfoo.so's (the shared half
        linked by Meson, or the installed one a plain cc picks)."""
        name = os.path.basename(exe)
        return name.endswith('_shared') or (name.startswith('plain_') and self.c['kind'] == 'both')

    def check_program(self, exe):
        var = PREFIX + '_DISABLE_CPU_FEATURES'
        bad = {var: 'nonsense'}
        msg = r'^cpudispatch: %s: unknown CPU feature "nonsense"' % var
        if self.in_shared(exe):
            # A library never ends its host for a variable: the warning,
            # the baseline builds, the right result.
            p = self.launch(exe, env_extra=bad)
            if p.returncode != 0 or '(ok)' not in p.stdout or not re.search(msg + r'.*; only the baseline builds run',
                                                                             p.stderr, re.M):
                self.fail('%s DISABLE=nonsense: status %d, expected 0, the right result and the warning; stdout %r '
                          'stderr %r' % (os.path.basename(exe), p.returncode, p.stdout, p.stderr[-300:]))
        else:
            self.expect_status(exe, 78, msg, env=bad, what=' DISABLE=nonsense')
        if not self.x86:
            self.expect_ok(exe, what=' (qemu-aarch64)')
            self.expect_status(exe, 78, r'^cpudispatch: %s: cannot disable ASIMD' % var,
                               env={var: 'asimd'}, what=' DISABLE=asimd')
            return
        if self.c['baseline'] == 'x86_v3' and not cpu_facts.X86_NEEDS['X86_V3'] <= self.host_flags():
            # This machine is below the baseline: the check refuses here too.
            self.expect_status(exe, 69, BASELINE_MSG.pattern, what=' (this CPU, below x86_v3)')
        else:
            self.expect_ok(exe, what=' (this CPU)')
        self.expect_ok(exe, 'Haswell', what=' under Haswell')
        if self.c['baseline'] == 'x86_v3':
            self.expect_status(exe, 69, BASELINE_MSG.pattern, 'Nehalem', what=' under Nehalem')
        else:
            self.expect_ok(exe, 'Nehalem', what=' under Nehalem')

    def programs(self):
        kinds = ['static', 'shared'] if self.c['kind'] == 'both' else [self.c['kind']]
        exes = [os.path.join(self.build, 'app')]
        exes += [os.path.join(self.build, 'use_%s_%s_%s' % (e, lang, k)) for k in kinds for e in ENTRIES
                 for lang in ('c', 'cpp')]
        plain_dir = os.path.join(self.tmp, 'plain')
        os.makedirs(plain_dir)
        for e in ENTRIES:
            for lang in ('c', 'cpp'):
                exes.append(self.plain_build(e, lang, os.path.join(plain_dir, 'plain_%s_%s' % (e, lang))))
        return [x for x in exes if x]

    # -- controls ------------------------------------------------------------
    def control_links(self):
        """Links of the installed libfoo.a without pkg-config's --undefined."""
        d = os.path.join(self.tmp, 'control')
        os.makedirs(d)
        return {e: self.plain_build(e, 'c', os.path.join(d, 'nodef_' + e), with_pkg_config=False)
                for e in ('foo_sum', 'foo_plain', 'foo_util')}

    def check_controls(self):
        links = self.control_links()
        if None in links.values():
            return
        if not self.x86:
            p = self.launch(links['foo_plain'], env_extra={PREFIX + '_DISABLE_CPU_FEATURES': 'asimd'})
            if self.c.get('control'):
                if p.returncode != 0:
                    self.fail('control: foo_plain without the references should ignore DISABLE=asimd (status 0), '
                              'got %d %r' % (p.returncode, p.stderr[-300:]))
                else:
                    print('  control: without the references DISABLE=asimd is ignored (status 0)')
            else:
                self.expect_status(links['foo_plain'], 78, 'cannot disable ASIMD',
                                   env={PREFIX + '_DISABLE_CPU_FEATURES': 'asimd'}, what=' (no --undefined)')
            return
        if self.c.get('control'):
            # cpu-dispatch=none: no CHECK calls the runtime, so nothing but
            # the references could bring the check's object in.
            for e in ('foo_sum', 'foo_plain'):
                p = self.launch(links[e], 'Nehalem')
                if p.returncode not in SIGILL:
                    self.fail('control: %s without the references should die of SIGILL under Nehalem, got status %d '
                              '%r' % (e, p.returncode, p.stderr[-300:]))
                else:
                    print('  control: without the references %s dies of SIGILL under Nehalem (status %d)'
                          % (e, p.returncode))
                p = self.launch(links[e], env_extra={PREFIX + '_DISABLE_CPU_FEATURES': 'nonsense'})
                if p.returncode != 0:
                    self.fail('control: %s without the references should accept DISABLE=nonsense (status 0), got '
                              '%d' % (e, p.returncode))
            return
        # The header's reference alone keeps the check for a dispatched entry:
        # the same link line as the control case's gives 69 and 78.
        for e in ('foo_sum', 'foo_plain'):
            self.expect_status(links[e], 69, BASELINE_MSG.pattern, 'Nehalem', what=' (no --undefined)')
            self.expect_status(links[e], 78, 'unknown CPU feature "nonsense"',
                               env={PREFIX + '_DISABLE_CPU_FEATURES': 'nonsense'}, what=' (no --undefined)')
        # A file with no cpudispatch header needs the --undefined.
        p = self.launch(links['foo_util'], 'Nehalem')
        if p.returncode not in SIGILL:
            self.fail('control: foo_util linked without --undefined should die of SIGILL under Nehalem, got status '
                      '%d %r' % (p.returncode, p.stderr[-300:]))
        else:
            print('  control: foo_util linked without --undefined dies of SIGILL under Nehalem (status %d)'
                  % p.returncode)

    def go(self):
        miss = self.missing()
        if miss:
            print('SKIP: missing %s' % ' '.join(miss))
            return 77
        self.check_blocks()
        if not self.make_project() or not self.configure_build_install():
            return 1
        self.check_pc()
        if self.c.get('control'):
            # The control library is not what ships: only its control links.
            self.check_controls()
        else:
            exes = self.programs()
            for exe in exes:
                self.check_program(exe)
            print('  %d programs, %d runs' % (len(exes), self.runs))
            if self.c['kind'] != 'shared' and (self.c['baseline'] == 'x86_v3' or not self.x86):
                self.check_controls()
        if self.failures:
            print('%d failures' % len(self.failures))
            return 1
        print('PASS (%d runs)' % self.runs)
        return 0


def main():
    if sys.argv[1:] == ['--list']:
        print('\n'.join(CASES))
        return 0
    root, name = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp(prefix='cpud-shapes-')
    try:
        return Case(root, name, tmp).go()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
