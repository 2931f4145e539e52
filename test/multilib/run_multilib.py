#!/usr/bin/env python3
"""Several libraries made with cpudispatch in one program, each made by an
unrelated project with its own options (docs/libraries.md, "Several
libraries in one program"; docs/architecture.md says why it holds).

  run_multilib.py --list                 case names
  run_multilib.py SOURCE_ROOT CASE       run one case: exit 0 pass, 1 fail,
                                         77 skip (a tool or the old release
                                         missing, with the reason)

Every library is test/multilib/library made into its own project (its name,
version, number and language substituted: the template holds docs/
quickstart.md's snippet and docs/libraries.md's recipe verbatim, which the
driver checks), built through the release wrap (git HEAD) into its own
build and install prefix. Every library has a dispatch source named simd
with the kernels simd_add and simd_target, so only each build's namespace
keeps them apart; NAME_compute(1000) returns 1000 + the library's number.

  x86       alpha (C, cpu-baseline=x86_v3, 1.0, GCC release), beta (C, the
            default baseline, 2.3.1, Clang debug), gamma (C++, x86_v2, 0.9,
            GCC release), each built `both`
            and installed; programs (test/multilib/program/main.c) linked
            by a plain cc with pkg-config: the static libraries (a prefix
            holding no .so, `pkg-config --libs --static`) in all six
            orders and with --whole-archive, the shared ones, and mixed
            (one static, the others shared). Each program runs natively and
            under every x86 qemu model: below a library's baseline status
            69 with that library's line (named, with its version), never
            SIGILL; otherwise each library's own result from its best
            target for the CPU. Under Haswell each library's variable
            steers it alone (BETA_DISABLE_CPU_FEATURES=AVX2 moves beta
            only, GAMMA_... gamma only); a bad variable gives 78 naming
            that variable where the library is static (program mode, the
            runtime in the program) and one warning line where it is
            shared (a library never ends its host for a variable), the
            others unmoved; ALPHA_DISABLE_CPU_FEATURES=AVX2 (alpha's
            baseline) is refused by alpha's own runtime; the variable of
            cpudispatch 0.1 (CPUDISPATCH_...) gets one warning per library
            and moves none. Each static library's .pc gives no machine flag.
  control   alpha and beta built with the same -Dcpudispatch:namespace:
            linked statically as beta alpha, alpha's call returns beta's
            result and under Nehalem the program dies of SIGILL in alpha's
            x86_v3 code; --whole-archive fails with multiple definitions.
            The per-build namespace is what the x86 case relies on.
  versions  alpha beside delta, a library made with cpudispatch 0.1.0 (the
            commit 376d0de: no namespace, variables CPUDISPATCH_...),
            static, both orders: each its own result and check.
  aarch64   alpha (cpu-baseline=asimddp) and beta (the default) cross-built
            for aarch64, static, both orders, under qemu-aarch64's models:
            69 naming alpha on a CPU without ASIMDDP, each its own result
            and best target elsewhere.
  superbuild  a program project that uses cpudispatch itself (its own
            dispatch source simd, the same kernel names, adding 10) and
            takes alpha as a Meson subproject: one cpudispatch in the build
            (Meson configures a subproject once), so one runtime and the
            program's options and variables (SUPERAPP_...) for both; each
            call still reaches its own project's kernel (each project's
            kernels have their own namespace in the build's), natively
            and under Haswell, and SUPERAPP_DISABLE_CPU_FEATURES=AVX2
            moves both.
  no-init   libraries without an init function: omega (mode=library,
            x86_v3, both, Clang), zeta (mode=library, the default baseline, both) and eta
            (program mode, x86_v3, shared); a dlopen host
            (program/host.c) and plain cc programs. Natively and under
            Nehalem and Haswell: below x86_v3 glibc refuses omega (dlopen
            fails with its message, the host lives; a program linked with
            it does not start), zeta works on its best target, eta (program
            mode) ends the host with 69 and its line, as documented; a bad
            variable of any of them is one warning line and its baseline
            builds, the host lives. mode=library with
            cpu-baseline="x86_v2 aes" (AES is in no x86-64 level) stops
            configure with the message naming the ways out. Control: omega's .so with
            its ELF property removed loads under Nehalem, prints its line at
            load and dies of SIGILL at the call: the property is what
            keeps the host alive.
"""
import itertools
import lzma
import hashlib
import os
import re
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
import run_consumer  # noqa: E402  (test/consumer/run_consumer.py: the snippet check)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'library_mode'))
from run_library_mode import fail, failures, run, show  # noqa: E402  (the same reporting)

# The libraries: language, number, version, and per arch the cpu-baseline.
LIBS = {
    'alpha': dict(lang='c', add=1, version='1.0', baseline='x86_v3', aarch64='asimddp'),
    'beta': dict(lang='c', add=2, version='2.3.1', baseline='min', aarch64='min', cc='clang', buildtype='debug'),
    'gamma': dict(lang='cpp', add=3, version='0.9', baseline='x86_v2'),
    'delta': dict(lang='c', add=4, version='0.4', baseline='min', old=True),
    'omega': dict(lang='c', add=5, version='1.0', baseline='x86_v3', mode='library', cc='clang'),
    'zeta': dict(lang='c', add=6, version='1.0', baseline='min', mode='library'),
    'eta': dict(lang='c', add=7, version='1.0', baseline='x86_v3'),  # program mode, the default
}
OLD_RELEASE = ('376d0de', '0.1.0')  # the last commit of cpudispatch 0.1.0
# The template's target list, per arch, highest interest first (the
# baseline build last): the order the docs promise.
TARGETS = {'x86_64': ['AVX512_SKX', 'AVX2', 'SSE42'], 'aarch64': ['ASIMDDP', 'ASIMDHP']}
X86_V2 = cpu_facts.SSE42 | {'cx16', 'lahf_lm'}
NEEDS = {
    'x86_64': dict(cpu_facts.X86_NEEDS, min=set(), x86_v2=X86_V2, x86_v3=cpu_facts.X86_V3),
    'aarch64': {'baseline': set(), 'min': set(), 'ASIMDHP': {'asimdhp'}, 'ASIMDDP': {'asimddp'},
                'asimddp': {'asimddp'}},
}
SIGILL = (-4, 132)
AARCH64_SYSROOT = '/usr/aarch64-linux-gnu'
CASES = ['x86', 'control', 'versions', 'aarch64', 'no-init', 'superbuild']

def targets(name, arch):
    """The library's compiled targets, highest first: the template's less
    those its baseline holds."""
    base = NEEDS[arch][LIBS[name][arch_key(arch)]]
    return [t for t in TARGETS[arch] if not NEEDS[arch][t] <= base]


def arch_key(arch):
    return 'baseline' if arch == 'x86_64' else arch


def best(name, arch, flags, off=()):
    return next((t for t in targets(name, arch) if NEEDS[arch][t] <= flags and t not in off), 'baseline')


def below(name, arch, flags):
    return not NEEDS[arch][LIBS[name][arch_key(arch)]] <= flags


class Builder:
    """Makes each library's project from the template, builds and installs it."""

    def __init__(self, root, tmp):
        self.root, self.tmp = root, tmp
        self.wraps = {}

    def check_template(self):
        tpl = os.path.join(HERE, 'library')
        have = open(os.path.join(tpl, 'meson.build')).read().splitlines()
        # The snippet's loop verbatim (its dict aside); a library takes the
        # recipe's --object line in place of the snippet's kernels line.
        doc_before, doc_after = run_consumer.split_dict(run_consumer.docs_block(self.root, 'snippet'))
        doc_after = [l for l in doc_after if not l.startswith('kernels = ')]
        at = [i for i, l in enumerate(have) if l == doc_before[0]]
        before, after = run_consumer.split_dict(have[at[0]:]) if at else ([], [])
        if before != doc_before or after[:len(doc_after)] != doc_after:
            fail('the template lacks docs/quickstart.md\'s loop verbatim (its dict aside)')
        recipe = doc_blocks.block(os.path.join(self.root, 'docs', 'libraries.md'), 'library')
        norm = lambda l: re.sub(r"^(foo = library\()'.*?', .*?(, foo_kernels, )", r'\1SOURCES\2', l)
        at = [i for i, l in enumerate(have) if l == recipe[0]]
        if not at or [norm(l) for l in have[at[0]:at[0] + len(recipe)]] != [norm(l) for l in recipe]:
            fail('the template lacks docs/libraries.md\'s recipe block verbatim (its sources aside)')

    def wrap(self, old=False):
        """subprojects/ with the release wrap: git HEAD's, or cpudispatch
        0.1.0's (None where this clone lacks that commit)."""
        key = 'old' if old else 'head'
        if key in self.wraps:
            return self.wraps[key]
        d = os.path.join(self.tmp, 'wrap-' + key)
        os.makedirs(d)
        if not old:
            p = run([sys.executable, os.path.join(self.root, 'tools', 'make-wrap.py'), d, '--allow-dirty'])
            if p.returncode:
                fail('make-wrap.py: ' + p.stdout + p.stderr)
                d = None
        else:
            commit, version = OLD_RELEASE
            top = 'cpudispatch-' + version
            p = subprocess.run(['git', '-C', self.root, 'archive', '--format=tar', '--prefix=' + top + '/', commit],
                               capture_output=True)
            if p.returncode:
                print('  (no commit %s in this clone: %s)' % (commit, p.stderr.decode().strip()))
                d = None
            else:
                data = lzma.compress(p.stdout, preset=1)
                os.makedirs(os.path.join(d, 'packagefiles'))
                with open(os.path.join(d, 'packagefiles', top + '.tar.xz'), 'wb') as fh:
                    fh.write(data)
                with open(os.path.join(d, 'cpudispatch.wrap'), 'w') as fh:
                    fh.write('[wrap-file]\ndirectory = %s\nsource_filename = %s.tar.xz\nsource_hash = %s\n\n'
                             '[provide]\ndependency_names = cpudispatch\n'
                             % (top, top, hashlib.sha256(data).hexdigest()))
        self.wraps[key] = d
        return d

    def project(self, name):
        """The library's project: the template with its name substituted."""
        lib = LIBS[name]
        proj = os.path.join(self.tmp, 'proj-' + name)
        if os.path.isdir(proj):
            return proj
        ext = 'cpp' if lib['lang'] == 'cpp' else 'c'
        subst = {'@NAME@': name, '@ADD@': str(lib['add']), '@VERSION@': lib['version'], '@EXT@': ext,
                 '@CPP@': "'cpp', " if ext == 'cpp' else '', '@LANG@': lib['lang']}
        files = {'meson.build': 'meson.build', 'src/NAME.h': 'src/%s.h' % name,
                 'src/simd.dispatch.' + ext: 'src/simd.dispatch.' + ext, 'src/lib.' + ext: 'src/lib.' + ext}
        for a, b in files.items():
            text = open(os.path.join(HERE, 'library', a)).read()
            for k, v in subst.items():
                text = text.replace(k, v)
            if a == 'meson.build' and lib.get('mode') == 'library':
                # docs/libraries.md's line for a library without an init
                # function, in place of the snippet's subproject line.
                warn = doc_blocks.block(os.path.join(self.root, 'docs', 'libraries.md'), 'library-no-init')
                plain = run_consumer.docs_block(self.root, 'snippet')[0]
                if plain not in text or len(warn) != 1:
                    fail('the template has no snippet line %r to replace, or the library-no-init block is not one '
                         'line' % plain)
                text = text.replace(plain, warn[0])
            if a == 'meson.build' and lib.get('old'):
                text = old_loop(text)
            os.makedirs(os.path.dirname(os.path.join(proj, b)), exist_ok=True)
            with open(os.path.join(proj, b), 'w') as fh:
                fh.write(text)
        wrap = self.wrap(lib.get('old', False))
        if wrap is None:
            return None
        shutil.copytree(wrap, os.path.join(proj, 'subprojects'))
        return proj

    def build(self, name, tag, kind, args=(), cross=None, expect_fail=False, baseline=None):
        """Configures, builds and installs one library; its prefix, or None.
        expect_fail: the configure's output (a string) where it fails as the
        case wants, None where it succeeded."""
        proj = self.project(name)
        if proj is None:
            return None
        lib = LIBS[name]
        build = os.path.join(self.tmp, 'build-%s-%s' % (name, tag))
        prefix = os.path.join(self.tmp, 'prefix-%s-%s' % (name, tag))
        baseline = baseline or (lib[cross] if cross else lib['baseline'])
        cmd = ['meson', 'setup', build, proj, '--wrap-mode=nodownload', '--buildtype=' + lib.get('buildtype', 'release'),
               '--prefix=' + prefix,
               '--libdir=lib', '-Ddefault_library=' + kind, '-Dcpudispatch:cpu-baseline=' + baseline]
        cmd += list(args)
        env = {k: v for k, v in os.environ.items() if k not in ('CFLAGS', 'CXXFLAGS', 'CPPFLAGS', 'LDFLAGS', 'CC',
                                                                'CXX')}
        if cross:
            cmd += ['--cross-file', os.path.join(self.root, 'cross', cross + '-linux-gnu.txt')]
        elif lib.get('cc') == 'clang' and shutil.which('clang') and shutil.which('clang++'):
            env['CC'], env['CXX'] = 'clang', 'clang++'
        for step, c in (('configure', cmd), ('build', ['ninja', '-C', build]),
                        ('install', ['meson', 'install', '-C', build, '--no-rebuild', '--quiet'])):
            show(c, {k: env[k] for k in ('CC', 'CXX') if k in env and step == 'configure'})
            t = time.time()
            p = run(c, env=env)
            if expect_fail:
                return (p.stdout + p.stderr) if p.returncode else None
            if p.returncode:
                print((p.stdout + p.stderr)[-4000:])
                fail('%s of %s (%s) failed' % (step, name, tag))
                return None
            print('  %s %s: %.1f s' % (step, name, time.time() - t))
        return prefix

    def static_only(self, name, prefix):
        """A copy of an installed `both` prefix without the shared library,
        as a static-only install holds: a plain link then takes libNAME.a."""
        d = prefix + '-static'
        if not os.path.isdir(d):
            shutil.copytree(prefix, d, symlinks=True)
            for f in os.listdir(os.path.join(d, 'lib')):
                if '.so' in f:
                    os.remove(os.path.join(d, 'lib', f))
            pc = os.path.join(d, 'lib', 'pkgconfig', name + '.pc')
            text = open(pc).read().replace(prefix, d)
            with open(pc, 'w') as fh:
                fh.write(text)
        return d


class Program:
    """A program linked by a plain cc against installed libraries."""

    def __init__(self, tag, exe, libs, shared, arch='x86_64'):
        self.tag, self.exe, self.libs, self.shared, self.arch = tag, exe, libs, shared, arch

    def launch(self, model=None, env=None, ld_path=(), args=()):
        e = {k: v for k, v in os.environ.items() if not re.match(r'^(CPUDISPATCH|[A-Z]+)_(DISABLE|ENABLE)_CPU_'
                                                                   r'FEATURES$|_SKIP_CPU_BASELINE_CHECK$', k)}
        e.update(env or {})
        if ld_path:
            e['LD_LIBRARY_PATH'] = ':'.join(ld_path)
        if self.arch == 'aarch64':
            cmd = ['qemu-aarch64', '-L', AARCH64_SYSROOT] + (['-cpu', model] if model else []) + [self.exe]
        else:
            cmd = (['qemu-x86_64', '-cpu', model] if model else []) + [self.exe]
        cmd += list(args)
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, env=e, timeout=120)
        except subprocess.TimeoutExpired:
            return 124, '', 'timed out'
        err = '\n'.join(l for l in p.stderr.splitlines() if 'TCG doesn\'t support' not in l)
        return p.returncode, p.stdout, err


def link(tag, exe_dir, libs, prefixes, cc='cc', whole=False, extra_env=None):
    """main.c linked with `cc ... $(pkg-config --cflags --libs --static LIBS)`
    (prefixes: library -> its install prefix); the path, or None."""
    exe = os.path.join(exe_dir, 'main-' + tag)
    env = dict(os.environ, PKG_CONFIG_PATH=':'.join(os.path.join(prefixes[l], 'lib', 'pkgconfig') for l in libs),
               **(extra_env or {}))
    p = run(['pkg-config', '--cflags', '--libs', '--static'] + libs, env=env)
    if p.returncode:
        fail('pkg-config %s: %s' % (' '.join(libs), p.stderr.strip()))
        return None
    flags = p.stdout.split()
    machine = [f for f in flags if f.startswith('-m')]
    # (cpudispatch 0.1.0's libraries gave them: delta's do.)
    if machine and not any(LIBS[l].get('old') for l in libs):
        fail('pkg-config --cflags %s gives machine flags %s: a consumer must get none' % (' '.join(libs), machine))
    if whole:
        flags = ['-Wl,--whole-archive'] + flags + ['-Wl,--no-whole-archive']
    cpp = any(LIBS[l]['lang'] == 'cpp' for l in libs)
    cmd = [cc, '-O2', '-DLIBS(X)=' + ' '.join('X(%s)' % l for l in libs), os.path.join(HERE, 'program', 'main.c'),
           '-o', exe] + flags + (['-lstdc++'] if cpp else [])
    show(cmd)
    p = run(cmd)
    if p.returncode:
        print(p.stderr[-3000:])
        return None
    return exe


# --- the x86 case ---------------------------------------------------------------------
def expect_run(prog, flags, model, env=None, off=None, bad=None, warn=()):
    """Runs prog and checks it against what the CPU's flags (and a variable)
    should give. off: {lib: targets a variable switched off}; bad: the
    library whose variable is bad ('lib:SUBSTRING'); warn: patterns of
    warning lines stderr must hold (and no other line)."""
    off = off or {}
    where = '%s%s%s' % (prog.tag, ' under ' + model if model else ' natively',
                        ' with ' + ' '.join('%s=%s' % kv for kv in env.items()) if env else '')
    rc, out, err = prog.launch(model, env, ld_path=prog.ld_path)
    print('  %-60s -> %d %s' % (where[:60], rc, (out.replace('\n', '; ') + err.replace('\n', ' | '))[:200]))
    low = [l for l in prog.libs if below(l, prog.arch, flags)]
    if rc in SIGILL:
        fail('%s: SIGILL' % where)
        return
    if low:
        first = err.splitlines()[0] if err else ''
        named = [l for l in low if messages.refusal(l, LIBS[l]['version']).match(first)]
        if rc != 69 or out or not named:
            fail('%s: expected status 69 and the line of one of %s (below its baseline), got %d %r %r'
                 % (where, low, rc, out, err[:400]))
        return
    if bad:
        lib, what = bad
        var = messages.env_prefix(lib) + '_DISABLE_CPU_FEATURES'
        if lib not in prog.shared:
            # Program mode, the runtime in the program: 78 with the line.
            if rc != 78 or out or not re.match(r'^cpudispatch: %s: .*%s' % (var, what), err):
                fail('%s: expected status 78 and %s\'s line, got %d %r %r' % (where, var, rc, out, err[:400]))
            return
        warn = list(warn) + [r'^cpudispatch: %s: .*%s.*; only the baseline builds run$' % (var, what)]
        off = dict(off, **{lib: TARGETS[prog.arch]})
    want = ['%s: %d %s' % (l, 1000 + LIBS[l]['add'], best(l, prog.arch, flags, off.get(l, ()))) for l in prog.libs]
    if rc != 0 or out.splitlines() != want:
        fail('%s: expected status 0 and %r, got %d %r %r' % (where, want, rc, out, err[:400]))
    lines = err.splitlines()
    if len(lines) != len(warn) or not all(any(re.match(w, l) for l in lines) for w in warn):
        fail('%s: stderr should hold %d warning line(s) %s, holds %r' % (where, len(warn), list(warn), lines))


def case_x86(b, tmp):
    here = cpu_facts.host_flags()
    models = cpu_facts.models('x86_64')
    names = ['alpha', 'beta', 'gamma']
    prefixes = {}
    for n in names:
        prefixes[n] = b.build(n, 'both', 'both')
        if prefixes[n] is None:
            return
    static = {n: b.static_only(n, prefixes[n]) for n in names}
    for n in names:
        pc = open(os.path.join(static[n], 'lib', 'pkgconfig', n + '.pc')).read()
        var = re.search(r'^cpudispatch_cflags=(.*)$', pc, re.M)
        if not var:
            fail('%s.pc lacks the variable cpudispatch_cflags:\n%s' % (n, pc))
    exe_dir = os.path.join(tmp, 'programs')
    os.makedirs(exe_dir)
    progs = []
    for order in itertools.permutations(names):
        exe = link('static-' + '-'.join(order), exe_dir, list(order), static)
        if exe is None:
            fail('the static link %s failed' % ' '.join(order))
            continue
        progs.append(Program('static ' + ' '.join(order), exe, list(order), shared=set()))
    exe = link('whole-archive', exe_dir, ['beta', 'alpha', 'gamma'], static, whole=True)
    if exe is None:
        fail('the --whole-archive link failed: the libraries\' symbols collide')
    else:
        progs.append(Program('static --whole-archive beta alpha gamma', exe, ['beta', 'alpha', 'gamma'], set()))
    exe = link('shared', exe_dir, names, prefixes)
    if exe:
        progs.append(Program('shared alpha beta gamma', exe, names, set(names)))
    for st in ('alpha', 'beta'):
        mix = {n: (static[n] if n == st else prefixes[n]) for n in names}
        order = [st] + [n for n in names if n != st]
        exe = link('mixed-' + st, exe_dir, order, mix)
        if exe:
            progs.append(Program('mixed (%s static) %s' % (st, ' '.join(order)), exe, order,
                                 set(n for n in names if n != st)))
    haswell = models['Haswell']
    for prog in progs:
        prog.ld_path = [os.path.join(prefixes[n], 'lib') for n in prog.shared]
        expect_run(prog, here, None)
        for model, flags in models.items():
            expect_run(prog, flags, model)
        # Under Haswell: alpha on its baseline build, beta and gamma on AVX2.
        expect_run(prog, haswell, 'Haswell', {'BETA_DISABLE_CPU_FEATURES': 'AVX2'}, off={'beta': ['AVX2', 'AVX512_SKX']})
        expect_run(prog, haswell, 'Haswell', {'GAMMA_DISABLE_CPU_FEATURES': 'AVX2'},
                   off={'gamma': ['AVX2', 'AVX512_SKX']})
        expect_run(prog, haswell, 'Haswell', {'BETA_DISABLE_CPU_FEATURES': 'nonsense'},
                   bad=('beta', 'unknown CPU feature "nonsense"'))
        expect_run(prog, haswell, 'Haswell', {'ALPHA_DISABLE_CPU_FEATURES': 'AVX2'},
                   bad=('alpha', 'cannot disable AVX2: it is part of this build\'s baseline'))
        old = [r'^cpudispatch: warning: CPUDISPATCH_DISABLE_CPU_FEATURES is set, but %s %s reads %s_DISABLE_CPU_FEATURES'
               % (l, re.escape(LIBS[l]['version']), messages.env_prefix(l)) for l in prog.libs]
        expect_run(prog, haswell, 'Haswell', {'CPUDISPATCH_DISABLE_CPU_FEATURES': 'AVX2'}, warn=old)
        if cpu_facts.AVX512_SKX <= here:
            for n in names:
                expect_run(prog, here, None, {messages.env_prefix(n) + '_DISABLE_CPU_FEATURES': 'AVX512F'},
                           off={n: ['AVX512_SKX']})
        elif prog is progs[0]:
            print('  (this CPU lacks AVX512_SKX: each variable steering its library is shown under Haswell only)')
    print('  %d programs' % len(progs))


# --- the control case --------------------------------------------------------------------
def case_control(b, tmp):
    same = ['-Dcpudispatch:namespace=shared_ns']
    prefixes = {}
    for n in ('alpha', 'beta'):
        prefixes[n] = b.build(n, 'same-ns', 'static', same)
        if prefixes[n] is None:
            return
    exe_dir = os.path.join(tmp, 'programs')
    os.makedirs(exe_dir)
    exe = link('control', exe_dir, ['beta', 'alpha'], prefixes)
    if exe is None:
        fail('the control link failed')
        return
    prog = Program('control beta alpha (one namespace)', exe, ['beta', 'alpha'], set())
    here = cpu_facts.host_flags()
    if cpu_facts.X86_V3 <= here:
        rc, out, err = prog.launch()
        print('  natively -> %d %r' % (rc, out))
        if rc != 0 or 'alpha: 1001' in out or 'alpha: 1002' not in out:
            fail('control: with one namespace alpha\'s call should reach beta\'s kernel (alpha: 1002), got %d %r'
                 % (rc, out))
    else:
        print('  (this CPU lacks x86-64-v3: the crossed-kernel control runs under Haswell)')
        rc, out, err = prog.launch('Haswell')
        if rc != 0 or 'alpha: 1002' not in out:
            fail('control under Haswell: alpha\'s call should reach beta\'s kernel, got %d %r' % (rc, out))
    rc, out, err = prog.launch('Nehalem')
    print('  under Nehalem -> %d %r' % (rc, err[:200]))
    if rc not in SIGILL:
        fail('control: with one namespace (beta\'s runtime checking for both) the program should die of SIGILL '
             'under Nehalem in alpha\'s x86_v3 code, got %d %r' % (rc, err[:300]))
    whole = link('control-whole', exe_dir, ['beta', 'alpha'], prefixes, whole=True)
    if whole is not None:
        fail('control: --whole-archive of two libraries with one namespace should fail with multiple definitions')


# --- the versions case -------------------------------------------------------------------
def case_versions(b, tmp):
    if b.wrap(old=True) is None:
        print('SKIP: this clone lacks cpudispatch %s (commit %s): a shallow clone?' % (OLD_RELEASE[1],
                                                                                      OLD_RELEASE[0]))
        return 77
    prefixes = {n: b.build(n, 'static', 'static') for n in ('alpha', 'delta')}
    if None in prefixes.values():
        return None
    here = cpu_facts.host_flags()
    models = cpu_facts.models('x86_64')
    exe_dir = os.path.join(tmp, 'programs')
    os.makedirs(exe_dir)
    TARGETS_DELTA = ['AVX512_SKX', 'AVX2', 'SSE42']
    for order in (['alpha', 'delta'], ['delta', 'alpha']):
        exe = link('versions-' + '-'.join(order), exe_dir, order, prefixes)
        if exe is None:
            fail('the link %s failed' % ' '.join(order))
            continue
        prog = Program('static ' + ' '.join(order), exe, order, set())
        prog.ld_path = []
        expect_run(prog, here, None)
        for model in ('Nehalem', 'Haswell'):
            expect_run(prog, models[model], model)
        # delta reads cpudispatch 0.1's variable; alpha warns that it does not.
        old = [r'^cpudispatch: warning: CPUDISPATCH_DISABLE_CPU_FEATURES is set, but alpha 1\.0 reads '
               r'ALPHA_DISABLE_CPU_FEATURES']
        expect_run(prog, models['Haswell'], 'Haswell', {'CPUDISPATCH_DISABLE_CPU_FEATURES': 'AVX2'},
                   off={'delta': TARGETS_DELTA[:2]}, warn=old)
    return None


# --- the aarch64 case -------------------------------------------------------------------
def case_aarch64(b, tmp):
    need = ['aarch64-linux-gnu-gcc', 'qemu-aarch64']
    if [n for n in need if not shutil.which(n)] or not os.path.isdir(AARCH64_SYSROOT):
        print('SKIP: %s or %s missing' % (' '.join(need), AARCH64_SYSROOT))
        return 77
    prefixes = {n: b.build(n, 'aarch64', 'static', cross='aarch64') for n in ('alpha', 'beta')}
    if None in prefixes.values():
        return None
    exe_dir = os.path.join(tmp, 'programs')
    os.makedirs(exe_dir)
    for order in (['alpha', 'beta'], ['beta', 'alpha']):
        exe = link('aarch64-' + '-'.join(order), exe_dir, order, prefixes, cc='aarch64-linux-gnu-gcc')
        if exe is None:
            fail('the aarch64 link %s failed' % ' '.join(order))
            continue
        prog = Program('aarch64 static ' + ' '.join(order), exe, order, set(), arch='aarch64')
        prog.ld_path = []
        for model, flags in cpu_facts.models('aarch64').items():
            expect_run(prog, flags, model)
        cortex = cpu_facts.models('aarch64')['cortex-a76']
        expect_run(prog, cortex, 'cortex-a76', {'BETA_DISABLE_CPU_FEATURES': 'asimddp'}, off={'beta': ['ASIMDDP']})
        expect_run(prog, cortex, 'cortex-a76', {'ALPHA_DISABLE_CPU_FEATURES': 'nonsense'},
                   bad=('alpha', 'unknown CPU feature "nonsense"'))
    return None


# --- the no-init case -------------------------------------------------------------------
def host_expect(where, p, want, warn=()):
    """p: (rc, out, err) of the dlopen host; want: {lib: 'works TARGET' |
    'refused' | 'sigill'}."""
    rc, out, err = p
    print('  %-60s -> %d %s' % (where[:60], rc, (out.replace('\n', '; ') + err.replace('\n', ' | '))[:240]))
    lines = out.splitlines()
    for lib, what in want.items():
        got = [l for l in lines if l.startswith('host: %s: ' % lib) and not l.endswith(': calling')]
        if what.startswith('works'):
            exp = 'host: %s: %d %s' % (lib, 1000 + LIBS[lib]['add'], what.split()[1])
            if got != [exp]:
                fail('%s: expected %r, got %r' % (where, exp, got))
        elif what == 'refused':
            if len(got) != 1 or 'not loaded' not in got[0] or 'CPU ISA level is lower than required' not in got[0]:
                fail('%s: %s should be refused by the loader (CPU ISA level), got %r' % (where, lib, got))
    if 'sigill' in want.values():
        if rc not in SIGILL:
            fail('%s: expected SIGILL, got %d' % (where, rc))
    elif rc != 0 or not out.rstrip().endswith('host: alive'):
        fail('%s: the host did not live (status %d)' % (where, rc))
    lines = err.splitlines()
    if len(lines) != len(warn) or not all(any(re.match(w, l) for l in lines) for w in warn):
        fail('%s: stderr should hold %s, holds %r' % (where, list(warn), lines))


def case_no_init(b, tmp):
    # AES is in no x86-64 level: no loader can refuse a CPU without it.
    msg = b.build('omega', 'refused', 'both', baseline='x86_v2 aes', expect_fail=True)
    if msg is None or 'mode=library' not in msg or 'X86_V3' not in msg or 'cpud_library_init' not in msg:
        fail('mode=library with cpu-baseline="x86_v2 aes" should stop configure with the ways out, got %r'
             % (msg or 'success')[-600:])
    else:
        print('  configure refused: ' + next((l for l in msg.splitlines() if 'mode=library' in l), '')[:300])
    prefixes = {'omega': b.build('omega', 'both', 'both'), 'zeta': b.build('zeta', 'both', 'both'),
                'eta': b.build('eta', 'shared', 'shared')}
    if None in prefixes.values():
        return None
    so = {n: os.path.join(prefixes[n], 'lib', 'lib%s.so' % n) for n in prefixes}
    notes = {n: run(['readelf', '-n', so[n]]).stdout for n in ('omega', 'zeta')}
    if 'x86 ISA needed: x86-64-v3' not in notes['omega'] or 'x86 ISA needed' in notes['zeta']:
        fail('libomega.so should carry x86 ISA needed: x86-64-v3 and libzeta.so no level')
    host = os.path.join(tmp, 'host')
    p = run(['cc', '-O2', os.path.join(HERE, 'program', 'host.c'), '-o', host, '-ldl'])
    if p.returncode:
        fail('the host does not build: ' + p.stderr)
        return None
    hprog = Program('host', host, [], set())
    here = cpu_facts.host_flags()
    models = cpu_facts.models('x86_64')

    def want(flags):
        return {'omega': 'works ' + best('omega', 'x86_64', flags) if cpu_facts.X86_V3 <= flags else 'refused',
                'zeta': 'works ' + best('zeta', 'x86_64', flags)}

    def hrun(libs, model=None, env=None, paths=None):
        paths = paths or [so[l] for l in libs]
        return hprog.launch(model, env, args=paths), ' '.join(os.path.basename(x) for x in paths)

    for model in [None, 'Nehalem', 'Haswell']:
        flags = models[model] if model else here
        (p, names) = hrun(['omega', 'zeta'], model)
        host_expect('host %s %s' % (names, model or 'natively'), p, want(flags))
    bad = r'^cpudispatch: %s_DISABLE_CPU_FEATURES: unknown CPU feature "nonsense".*; only the baseline builds run$'
    for lib in ('omega', 'zeta'):
        env = {messages.env_prefix(lib) + '_DISABLE_CPU_FEATURES': 'nonsense'}
        w = want(models['Haswell'])
        w[lib] = 'works baseline'
        (p, names) = hrun(['omega', 'zeta'], 'Haswell', env)
        host_expect('host %s under Haswell, %s=nonsense' % (names, list(env)[0]), p, w, [bad % messages.env_prefix(lib)])
    # Program mode in a shared library: a bad variable is a warning (the
    # host lives); below its baseline it ends the host with 69 and its line.
    (p, names) = hrun(['eta'], 'Haswell', {'ETA_DISABLE_CPU_FEATURES': 'nonsense'})
    host_expect('host libeta.so (program mode) under Haswell, ETA=nonsense', p, {'eta': 'works baseline'},
                [bad % 'ETA'])
    rc, out, err = hrun(['eta'], 'Nehalem')[0]
    print('  host libeta.so (program mode) under Nehalem -> %d %r' % (rc, err[:200]))
    if rc != 69 or not messages.refusal('eta', '1.0').match(err):
        fail('program mode: libeta.so under Nehalem should end the host with 69 and eta\'s line, got %d %r'
             % (rc, err[:300]))
    # Plain cc programs: the static half (a static-only install) and the shared one.
    exe_dir = os.path.join(tmp, 'programs')
    os.makedirs(exe_dir)
    static = {n: b.static_only(n, prefixes[n]) for n in ('omega', 'zeta')}
    for tag, pre in (('static', static), ('shared', prefixes)):
        exe = link('noinit-' + tag, exe_dir, ['zeta', 'omega'], pre)
        if exe is None:
            fail('the %s link of zeta omega failed' % tag)
            continue
        prog = Program(tag, exe, ['zeta', 'omega'], set())
        ld = [os.path.join(prefixes[n], 'lib') for n in ('omega', 'zeta')] if tag == 'shared' else []
        for model in ('Nehalem', 'Haswell'):
            rc, out, err = prog.launch(model, ld_path=ld)
            print('  %s program zeta omega under %s -> %d %r %r' % (tag, model, rc, out, err[:160]))
            if model == 'Nehalem':
                if rc != 127 or out or 'CPU ISA level is lower than required' not in err:
                    fail('%s program with omega under Nehalem: the loader should refuse it (127), got %d %r'
                         % (tag, rc, err[:300]))
            elif rc != 0 or out.splitlines() != ['zeta: 1006 AVX2', 'omega: 1005 baseline']:
                fail('%s program under Haswell: expected each library\'s result, got %d %r' % (tag, rc, out))
    # Control: without the ELF property the loader lets omega in below its
    # baseline; its line is printed at load, and the call dies of SIGILL.
    bare = os.path.join(tmp, 'bare', 'libomega.so')
    os.makedirs(os.path.dirname(bare))
    p = run(['objcopy', '--remove-section', '.note.gnu.property', so['omega'], bare])
    if p.returncode:
        fail('objcopy: ' + p.stderr)
        return None
    rc, out, err = hrun(['omega'], 'Nehalem', paths=[bare])[0]
    print('  control: host of libomega.so without its property under Nehalem -> %d %r %r' % (rc, out, err[:200]))
    if rc not in SIGILL or 'host: omega: calling' not in out or \
            not messages.refusal('omega', '1.0', library=True).match(err):
        fail('control: without the ELF property omega should load under Nehalem, print its line at load and die '
             'of SIGILL at the call, got %d %r %r' % (rc, out, err[:300]))
    # The skip variable silences the line at load (the loader's refusal, glibc's, stays: above).
    rc, out, err = hrun(['omega'], 'Nehalem', {'OMEGA_SKIP_CPU_BASELINE_CHECK': '1'}, paths=[bare])[0]
    print('  the same with OMEGA_SKIP_CPU_BASELINE_CHECK=1 -> %d %r' % (rc, err[:200]))
    ours = [l for l in err.splitlines() if not l.startswith('qemu: uncaught target signal')]
    if rc not in SIGILL or ours:
        fail('OMEGA_SKIP_CPU_BASELINE_CHECK=1: no line at load, then SIGILL at the call, got %d %r' % (rc, ours))
    rc, out, err = hrun(['omega'], 'Nehalem', {'OMEGA_SKIP_CPU_BASELINE_CHECK': '1'})[0]
    if 'CPU ISA level is lower than required' not in out:
        fail('OMEGA_SKIP_CPU_BASELINE_CHECK=1: the loader should still refuse libomega.so, got %r' % out)
    return None


def old_loop(text):
    """The template with the loop of cpudispatch 0.1 and 0.2 (one generator
    run per source, cpud['gen']) in place of today's, its dict kept: what a
    library made with that release has."""
    lines = text.split('\n')
    start = lines.index("kernel_gen = cpud['generate']")
    ends = [i for i in range(start, len(lines)) if lines[i] == 'endforeach']
    foreach = lines[start + 1]
    if not foreach.startswith('foreach src, want : {') or not foreach.endswith('}'):
        fail('the template\'s loop does not open with a one-line dict')
    old = ['kernel_libs = []', foreach,
           "  r = run_command(cpud['gen'] + [src, want], check: false)",
           '  assert(r.returncode() == 0, r.stderr())',
           '  foreach t : r.stdout().split()',
           "    kernel_libs += static_library(t.split(':')[0], src, dependencies: cpud['target'], "
           "c_args: t.split(':')[1].split('|'), cpp_args: t.split(':')[1].split('|'))",
           '  endforeach', 'endforeach']
    return '\n'.join(lines[:start] + old + lines[ends[1] + 1:])


SUPERAPP = """project('superapp', 'c', version: '3.0', default_options: ['c_std=c11'])
# --- snippet (the program's own dispatch source) ---
cpud = subproject('cpudispatch').get_variable('cpudispatch')
kernel_gen = cpud['generate']
foreach src, want : {'src/simd.dispatch.c': 'baseline SSE42 AVX2 AVX512_SKX ASIMDHP ASIMDDP'}
  kernel_gen += [src, want]
endforeach
r = run_command(kernel_gen, check: false)  # one run for every source: writes each NAME.dispatch.h; prints LIBRARY:ARG|ARG|...:SOURCE per target
assert(r.returncode() == 0, r.stderr())
kernel_libs = []
foreach t : r.stdout().split()  # e.g. sum_AVX2:-mavx2|...|-DCPUD_TARGET=AVX2:src/sum.dispatch.c; a group AVX2+FMA3: sum_AVX2__FMA3:...
  kernel_libs += static_library(t.split(':')[0], t.split(':')[2], dependencies: cpud['target'], c_args: t.split(':')[1].split('|'), cpp_args: t.split(':')[1].split('|'))
endforeach
kernels = custom_target('kernels', input: kernel_libs, output: 'libkernels.a', command: cpud['check'] + ['--archive', '@OUTPUT@', '@INPUT@'])
# A library of another project, built in this build (its subproject).
alpha = subproject('alpha', default_options: ['default_library=static'])
app = executable('app', 'src/main.c', link_with: [kernels, alpha.get_variable('foo')], dependencies: dependency('cpudispatch'),
                 include_directories: include_directories('subprojects/alpha/src'))
"""
SUPERAPP_MAIN = r"""/* The program's own kernel and alpha's, of the same names. */
#include <stdio.h>
#include "alpha.h"
#include "simd.dispatch.h"
CPUD_DISPATCH_DECLARE(int simd_add, (int))
CPUD_DISPATCH_DECLARE(const char *simd_target, (void))
int main(void) {
  printf("superapp: %d %s\n", CPUD_DISPATCH_CALL(simd_add, (1000)), CPUD_DISPATCH_CALL(simd_target, ()));
  printf("alpha: %d %s\n", alpha_compute(1000), alpha_target());
  return 0;
}
"""


def case_superbuild(b, tmp):
    alpha = b.project('alpha')
    if alpha is None:
        return None
    proj = os.path.join(tmp, 'superapp')
    os.makedirs(os.path.join(proj, 'src'))
    shutil.copytree(b.wrap(), os.path.join(proj, 'subprojects'))
    shutil.copytree(alpha, os.path.join(proj, 'subprojects', 'alpha'), ignore=shutil.ignore_patterns('subprojects'))
    with open(os.path.join(proj, 'meson.build'), 'w') as fh:
        fh.write(SUPERAPP)
    with open(os.path.join(proj, 'src', 'main.c'), 'w') as fh:
        fh.write(SUPERAPP_MAIN)
    text = open(os.path.join(HERE, 'library', 'src', 'simd.dispatch.c')).read().replace('@ADD@', '10')
    with open(os.path.join(proj, 'src', 'simd.dispatch.c'), 'w') as fh:
        fh.write(text)
    build = os.path.join(tmp, 'build-superapp')
    env = {k: v for k, v in os.environ.items() if k not in ('CFLAGS', 'CPPFLAGS', 'LDFLAGS', 'CC', 'CXX')}
    for c in (['meson', 'setup', build, proj, '--wrap-mode=nodownload', '--buildtype=release'], ['ninja', '-C', build]):
        show(c)
        p = run(c, env=env)
        if p.returncode:
            print((p.stdout + p.stderr)[-4000:])
            fail('%s of superapp failed' % c[0])
            return None
    LIBS['superapp'] = dict(lang='c', add=10, version='3.0', baseline='min')
    LIBS['alpha'] = dict(LIBS['alpha'], baseline='min')  # the build's one cpudispatch: the program's options
    prog = Program('superbuild superapp alpha', os.path.join(build, 'app'), ['superapp', 'alpha'], set())
    prog.ld_path = []
    haswell = cpu_facts.models('x86_64')['Haswell']
    expect_run(prog, cpu_facts.host_flags(), None)
    expect_run(prog, haswell, 'Haswell')
    # One runtime, the program's variables: they steer both.
    expect_run(prog, haswell, 'Haswell', {'SUPERAPP_DISABLE_CPU_FEATURES': 'AVX2'},
               off={'superapp': ['AVX2', 'AVX512_SKX'], 'alpha': ['AVX2', 'AVX512_SKX']})
    nm = run(['nm', os.path.join(build, 'app')]).stdout
    kernels = sorted(set(re.findall(r'\b(\w+__simd_add_AVX2)\b', nm)))
    print('  the two projects\' AVX2 kernels: %s' % ' '.join(kernels))
    if len(kernels) != 2:
        fail('superbuild: expected two simd_add_AVX2 kernels, one per project, in app, found %s' % kernels)
    return None


def main():
    if sys.argv[1:] == ['--list']:
        print('\n'.join(CASES))
        return 0
    root, case = os.path.abspath(sys.argv[1]), sys.argv[2]
    need = ['cc', 'meson', 'ninja', 'git', 'pkg-config', 'qemu-x86_64', 'readelf', 'objcopy']
    missing = [n for n in need if not shutil.which(n)]
    if missing:
        print('SKIP: %s not found' % ', '.join(missing))
        return 77
    tmp = tempfile.mkdtemp(prefix='cpud-multilib-')
    try:
        b = Builder(root, tmp)
        b.check_template()
        r = {'x86': case_x86, 'control': case_control, 'versions': case_versions, 'aarch64': case_aarch64,
             'no-init': case_no_init, 'superbuild': case_superbuild}[case](b, tmp)
        if r == 77:
            return 77
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print('%d failure(s)' % len(failures))
        return 1
    print('PASS')
    return 0


if __name__ == '__main__':
    sys.exit(main())
