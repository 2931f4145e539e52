#!/usr/bin/env python3
"""Library mode as a desktop meets it (docs/libraries.md, "Library mode"):
a host program that knows nothing of cpudispatch dlopen()s libplug.so, a C
library made with cpudispatch, and must outlive it.

  run_library_mode.py SOURCE_ROOT [--no-qemu] [--wrap-dir DIR]
                                      exit 0 pass, 1 fail, 77 skip

--no-qemu (a machine without qemu-user): the native runs alone, and says so.
--wrap-dir: a subprojects/ made by tools/make-wrap.py elsewhere (a machine
without the git repository), copied in place of making one.

test/library_mode/fixture is built through a release wrap (git HEAD) three
times:

  A  library mode, cpu-baseline=x86_v3, env-prefix=PLUGA (release)
  B  library mode, the default baseline, env-prefix=PLUGB (debug, Clang)
  C  the control: mode=program, x86_v3 (release)
  S  library mode, x86_v3, -Ddefault_library=static, env-prefix=PLUGS:
     static_user links libplug.a and calls plug_init() (natively, under
     Nehalem: told 69 with the line, it lives; under Haswell: works); the
     control, an init in a constructor nothing references, is left out of
     the link (ctor_user; linked whole, ctor_user_whole, it runs), and under
     Nehalem that program dies of SIGILL

and A's libplug.so is copied to a second file, so that one process holds
the same library twice (A2) beside B. Checks:

  block    the fixture holds the docs' block verbatim (its sources aside)
  exports  libplug.so exports plug_init and plug_sum alone
  natively A, B and A2 sum right, each on the target this CPU should get
           (A: its init says 69 with the baseline's line where this CPU, as
           its kernel and CPUID say, lacks x86-64-v3); no line on stderr
  variable PLUGA_DISABLE_CPU_FEATURES=nonsense: one line on stderr, however
           many copies read it; A and A2 run their baseline builds, B its
           best; the same for PLUGB; the host lives
  models   under every x86 qemu model: A's init fails with 69 and the
           library's line below x86-64-v3 and works from Haswell up; B
           works everywhere on the model's best target; the host lives
  controls C under Nehalem ends the host with 69 at dlopen() (program
           mode refuses a CPU below its baseline wherever it is), while a
           bad variable of C's (its default prefix, the project's name) is
           one warning line and its baseline builds, the host alive
           (natively, where this CPU has x86-64-v3: a library never ends
           its host for a variable); a host that ignores A's failed init
           under Nehalem dies of SIGILL in A's baseline code: the init call
           is what keeps it out.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # nothing written into the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import cpu_facts  # noqa: E402  (test/cpu_facts.py)
import doc_blocks  # noqa: E402  (test/doc_blocks.py)
import messages  # noqa: E402  (test/messages.py)

SUM = 499500  # 0 + 1 + ... + 999, what host.c asks for
# The kernel's targets (the fixture's dict), highest first; with an x86_v3
# baseline SSE42 and AVX2 are baseline features, so their builds are the
# baseline build.
TARGETS = {'A': ['AVX512_SKX'], 'B': ['AVX512_SKX', 'AVX2', 'SSE42'], 'C': ['AVX512_SKX'], 'S': ['AVX512_SKX']}
BUILDS = {
    'A': ['--buildtype=release', '-Dcpudispatch:cpu-baseline=x86_v3', '-Dcpudispatch:env-prefix=PLUGA'],
    'B': ['--buildtype=debug', '-Dcpudispatch:env-prefix=PLUGB'],  # with Clang (CC below)
    'C': ['--buildtype=release', '-Dcpudispatch:mode=program', '-Dcpudispatch:cpu-baseline=x86_v3'],
    'S': ['--buildtype=release', '-Ddefault_library=static', '-Dcpudispatch:cpu-baseline=x86_v3',
          '-Dcpudispatch:env-prefix=PLUGS'],
}
PROJECT, VERSION = 'cpudispatch-library-mode-fixture', '1.0'  # the fixture's project()
LIB_MSG = messages.refusal(PROJECT, VERSION, library=True)
PROGRAM_MSG = messages.refusal(PROJECT, VERSION)
SIGILL = (-4, 132)
failures = []


def fail(msg):
    print('FAIL: ' + msg)
    failures.append(msg)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def show(cmd, env=None):
    pre = ' '.join('%s=%s' % kv for kv in (env or {}).items())
    print('$ ' + (pre + ' ' if pre else '') + ' '.join(shlex.quote(a) for a in cmd))


def check_block(root, fixture):
    """The docs' block, verbatim in the fixture but for the sources dict."""
    try:
        doc = doc_blocks.block(os.path.join(root, 'docs', 'libraries.md'), 'library-mode')
    except ValueError as e:
        fail(str(e))
        return
    have = open(os.path.join(fixture, 'meson.build')).read().splitlines()
    norm = lambda l: re.sub(r'^(foreach src, want : \{).*(\})$', r'\1SOURCES\2', l)
    at = [i for i, l in enumerate(have) if l == doc[0]]
    if not at or [norm(l) for l in have[at[0]:at[0] + len(doc)]] != [norm(l) for l in doc]:
        fail('the fixture lacks docs/libraries.md\'s library-mode block verbatim (its sources aside)')
    else:
        print('  the fixture holds the docs\' block (%d lines)' % len(doc))


def best(build, flags):
    return next((t for t in TARGETS[build] if cpu_facts.X86_NEEDS[t] <= flags), 'baseline')


def host_run(tmp, libs, model=None, env=None, ignore_init=False):
    cmd = [os.path.join(tmp, 'build-A', 'host')] + (['--ignore-init'] if ignore_init else []) + libs
    if model:
        cmd = ['qemu-x86_64', '-cpu', model] + cmd
    show(cmd, env)
    p = run(cmd, env=dict(os.environ, **(env or {})), timeout=120)
    for l in (p.stdout + p.stderr).splitlines():
        print('    ' + l)
    print('    (status %d)' % p.returncode)
    return p


def check_host(p, what, libs, expect, warnings=()):
    """expect: {lib path: ('works', target) or ('disabled', None)}; the host
    lives and its stderr holds exactly the warning lines given."""
    if p.returncode != 0 or not p.stdout.rstrip().endswith('host: alive'):
        fail('%s: the host did not live (status %d)' % (what, p.returncode))
        return
    for lib in libs:
        kind, target = expect[lib]
        if kind == 'works':
            want = 'host: %s: sum=%d target=%s' % (lib, SUM, target)
            if want not in p.stdout.splitlines():
                fail('%s: expected %r' % (what, want))
        else:
            lines = [l for l in p.stdout.splitlines() if l.startswith('host: %s: ' % lib)]
            pre = 'host: %s: disabled (69): ' % lib
            if len(lines) != 1 or not lines[0].startswith(pre) or not LIB_MSG.match(lines[0][len(pre):]):
                fail('%s: %s should be disabled by its init with 69 and the library\'s line: %r' % (what, lib, lines))
    err = [l for l in p.stderr.splitlines() if 'TCG doesn\'t support' not in l]
    if len(err) != len(warnings) or not all(re.match(w, l) for w, l in zip(warnings, err)):
        fail('%s: stderr should hold %s, holds %r' % (what, list(warnings) or 'nothing', err))


def main():
    root = os.path.abspath(sys.argv[1])
    use_qemu = '--no-qemu' not in sys.argv[2:]
    wrap_dir = sys.argv[sys.argv.index('--wrap-dir') + 1] if '--wrap-dir' in sys.argv[2:] else None
    need = ['gcc', 'meson', 'ninja', 'nm'] + (['qemu-x86_64'] if use_qemu else []) + ([] if wrap_dir else ['git'])
    missing = [n for n in need if not shutil.which(n)]
    if missing:
        print('SKIP: %s not found' % ', '.join(missing))
        return 77
    fixture = os.path.join(HERE, 'fixture')
    check_block(root, fixture)
    tmp = tempfile.mkdtemp(prefix='cpud-libmode-')
    try:
        proj = os.path.join(tmp, 'proj')
        shutil.copytree(fixture, proj)
        if wrap_dir:
            shutil.copytree(wrap_dir, os.path.join(proj, 'subprojects'))
        else:
            os.makedirs(os.path.join(proj, 'subprojects'))
            p = run([sys.executable, os.path.join(root, 'tools', 'make-wrap.py'), os.path.join(proj, 'subprojects'),
                     '--allow-dirty'])
            if p.returncode:
                fail('make-wrap.py: ' + p.stdout + p.stderr)
                return 1
        env = {k: v for k, v in os.environ.items() if k not in ('CFLAGS', 'CPPFLAGS', 'LDFLAGS', 'CC', 'CXX')}
        for b, args in BUILDS.items():
            d = os.path.join(tmp, 'build-' + b)
            benv = dict(env, CC='clang' if b == 'B' and shutil.which('clang') else 'gcc')
            for cmd in (['meson', 'setup', d, proj, '--wrap-mode=nodownload'] + args, ['ninja', '-C', d]):
                show(cmd, {'CC': benv['CC']})
                p = run(cmd, env=benv)
                if p.returncode:
                    print((p.stdout + p.stderr)[-4000:])
                    fail('%s failed for build %s' % (cmd[0], b))
                    return 1
        lib = {b: os.path.join(tmp, 'build-' + b, 'libplug.so') for b in BUILDS if b != 'S'}
        lib['A2'] = os.path.join(tmp, 'libplug-copy.so')
        shutil.copy(lib['A'], lib['A2'])

        names = sorted(l.split()[-1] for l in run(['nm', '-D', '--defined-only', lib['A']]).stdout.splitlines()
                       if len(l.split()) == 3)
        if names != ['plug_init', 'plug_sum']:
            fail('libplug.so should export plug_init and plug_sum alone, exports %s' % names)
        else:
            print('  libplug.so exports: ' + ' '.join(names))

        # Natively, then with a bad variable for each prefix.
        here = cpu_facts.host_flags()
        v3 = cpu_facts.X86_V3 <= here
        print('  this CPU %s x86-64-v3' % ('has' if v3 else 'lacks'))
        libs = [lib['A'], lib['B'], lib['A2']]

        def expect(a_target, b_target, flags):
            a = ('works', a_target) if cpu_facts.X86_V3 <= flags else ('disabled', None)
            return {lib['A']: a, lib['A2']: a, lib['B']: ('works', b_target)}

        check_host(host_run(tmp, libs), 'natively', libs, expect(best('A', here), best('B', here), here))
        bad = r'^cpudispatch: %s_DISABLE_CPU_FEATURES.*nonsense.*; only the baseline builds run$'
        check_host(host_run(tmp, libs, env={'PLUGA_DISABLE_CPU_FEATURES': 'nonsense'}), 'PLUGA=nonsense', libs,
                   expect('baseline', best('B', here), here), [bad % 'PLUGA'])
        check_host(host_run(tmp, libs, env={'PLUGB_DISABLE_CPU_FEATURES': 'nonsense'}), 'PLUGB=nonsense', libs,
                   expect(best('A', here), 'baseline', here), [bad % 'PLUGB'])

        # Program mode in a shared library: a bad variable never ends the host.
        if v3:
            c_var = messages.env_prefix(PROJECT)
            check_host(host_run(tmp, [lib['C']], env={c_var + '_DISABLE_CPU_FEATURES': 'nonsense'}),
                       'program mode, %s=nonsense' % c_var, [lib['C']], {lib['C']: ('works', 'baseline')},
                       [bad % c_var])
        else:
            print('  (this CPU lacks x86-64-v3: the control of a bad variable in program mode is not run)')
        static_checks(tmp, here, use_qemu)
        if not use_qemu:
            print('  --no-qemu: the qemu models and the controls under Nehalem not run')
            return finish()
        # Every x86 model, below and above A's baseline.
        two = [lib['A'], lib['B']]
        for model, flags in cpu_facts.models('x86_64').items():
            check_host(host_run(tmp, two, model=model), 'under %s' % model, two,
                       expect(best('A', flags), best('B', flags), flags))
        nehalem = cpu_facts.models('x86_64')['Nehalem']
        check_host(host_run(tmp, two, model='Nehalem', env={'PLUGA_DISABLE_CPU_FEATURES': 'nonsense'}),
                   'PLUGA=nonsense under Nehalem', two, expect(None, best('B', nehalem), nehalem), [bad % 'PLUGA'])

        # Controls.
        p = host_run(tmp, [lib['C']], model='Nehalem')
        if p.returncode != 69 or 'host: alive' in p.stdout or not PROGRAM_MSG.search(p.stderr):
            fail('control: program mode under Nehalem should end the host with 69 and its line (status %d)'
                 % p.returncode)
        p = host_run(tmp, [lib['A']], model='Nehalem', ignore_init=True)
        if p.returncode not in SIGILL or 'host: alive' in p.stdout:
            fail('control: a host that ignores the failed init should die of SIGILL in the baseline code '
                 '(status %d)' % p.returncode)
        # The skip variable: the init says yes below the baseline, and the
        # baseline code then dies, as the variable's description warns.
        p = host_run(tmp, [lib['A']], model='Nehalem', env={'PLUGA_SKIP_CPU_BASELINE_CHECK': '1'})
        if p.returncode not in SIGILL or 'disabled' in p.stdout:
            fail('PLUGA_SKIP_CPU_BASELINE_CHECK=1 under Nehalem: the init should say 0 and the baseline code die '
                 'of SIGILL (status %d)' % p.returncode)
        return finish()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def static_checks(tmp, here, use_qemu):
    """Build S, static (docs/libraries.md, "A static library in mode
    init"): static_user links libplug.a and calls plug_init(), which pulls
    the init's member in; it works where the CPU has x86-64-v3 and is told
    69 with the library's line below it, and lives. The control: an init in
    a constructor, alone in an archive member nothing references, never runs
    (ctor_user), and under Nehalem the program then dies of SIGILL in the
    library's baseline code; linked whole it runs (ctor_user_whole)."""
    d = os.path.join(tmp, 'build-S')
    if os.path.exists(os.path.join(d, 'libplug.so')) or not os.path.exists(os.path.join(d, 'libplug.a')):
        fail('static build: expected libplug.a alone')
        return
    members = run(['nm', '--defined-only', os.path.join(d, 'libplug.a')]).stdout
    if not re.search(r' T plug_init$', members, re.M):
        fail('static build: libplug.a does not define plug_init (link_whole of the init)')

    def user(prog, model=None):
        cmd = (['qemu-x86_64', '-cpu', model] if model else []) + [os.path.join(d, prog)]
        show(cmd)
        p = run(cmd, timeout=120)
        for l in (p.stdout + p.stderr).splitlines():
            if 'TCG doesn\'t support' not in l:
                print('    ' + l)
        print('    (status %d)' % p.returncode)
        return p

    def check_user(p, what, flags):
        if cpu_facts.X86_V3 <= flags:
            want = 'plug_init: 0\nplug_sum: %d on %s\nstatic_user: alive' % (SUM, best('S', flags))
            ok = p.returncode == 0 and p.stdout.strip() == want
        else:
            err = [l for l in p.stderr.splitlines() if 'TCG doesn\'t support' not in l]
            ok = (p.returncode == 0 and p.stdout.strip() == 'plug_init: 69\nstatic_user: alive'
                  and len(err) == 1 and LIB_MSG.match(err[0]) is not None)
        if not ok:
            fail('%s: static_user should %s (status %d)' % (
                what, 'work' if cpu_facts.X86_V3 <= flags else 'be told 69 with the library\'s line and live',
                p.returncode))

    check_user(user('static_user'), 'static, natively', here)
    p = user('ctor_user_whole')
    if 'ctor_init: ran' not in p.stderr:
        fail('control: the constructor linked whole should run')
    p = user('ctor_user')
    if 'ctor_init: ran' in p.stderr:
        fail('control: the constructor alone in an archive member should not be linked')
    if not use_qemu:
        return
    models = cpu_facts.models('x86_64')
    for model in ('Nehalem', 'Haswell'):
        check_user(user('static_user', model), 'static, under %s' % model, models[model])
    p = user('ctor_user', 'Nehalem')
    if p.returncode not in SIGILL:
        fail('control: under Nehalem a program whose init was a dropped constructor should die of SIGILL '
             '(status %d)' % p.returncode)


def finish():
    if failures:
        print('%d failure(s)' % len(failures))
        return 1
    print('PASS')
    return 0


if __name__ == '__main__':
    sys.exit(main())
