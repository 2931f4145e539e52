#!/usr/bin/env python3
"""examples/pyext, the NumPy extension, built the ways its users build it
(docs/python.md): through the release wrap (tools/make-wrap.py), with plain
Meson and with meson-python (pip), by Debian's Python and NumPy.

  pyext_test.py --list | CASE ROOT                exit 0 pass, 1 fail

Cases:
  gcc-debug        `meson test` (the pytest suite), then under
                   cpudispatch:each_target (every compiled target this CPU
                   has, and the baseline) and cpudispatch:each_cpu (the whole
                   suite under every qemu model: each one's __cpu_features__
                   equals cpudispatch-info's under that model)
  clang-release    Clang, release: `meson test` and each_target
  below-baseline   cpu-baseline=x86_v3: under qemu models without AVX2 the
                   import raises ImportError with the start-up check's line
                   and the interpreter exits 0; under Haswell the module
                   works; a bad variable is an ImportError too; with the skip
                   variable the import dies of SIGILL. Control: the same build
                   with mode=program (no host mode) ends the
                   interpreter with status 69 under Nehalem
  global-march     CFLAGS/CXXFLAGS=-march=haswell, the consumer's global
                   flags: the module's init (core_init.c) holds no VEX
                   instruction and, under Nehalem, raises ImportError
  wheel            two wheels by meson-python (python3 -m build): `cpudemo`
                   (baseline min) and `cpudemo_v3` (baseline x86_v3),
                   installed into one directory and imported into one
                   interpreter: each keeps its own baseline, targets and
                   selection; nothing is exported but PyInit__core, the
                   runtime's shared warning table and libstdc++'s std::
                   objects; the pytest suite passes against the installed
                   `cpudemo`
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import doc_blocks  # noqa: E402  (test/doc_blocks.py)

CASES = ['gcc-debug', 'clang-release', 'below-baseline', 'global-march', 'wheel']
# Debian's interpreter, which sees Debian's NumPy and meson-python (a pyenv
# or venv python3 first on PATH may not).
PY = '/usr/bin/python3'
LOW = ['qemu64', 'core2duo', 'Nehalem', 'SandyBridge']  # no AVX2: below x86_v3
failures = []


def sh(cmd, env=None, cwd=None, expect=0):
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd)
    if expect is not None and r.returncode != expect:
        failures.append('$ %s\n(exit %d)\n%s' % (' '.join(cmd), r.returncode, (r.stdout + r.stderr)[-4000:]))
    return r


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items() if not k.endswith('ABLE_CPU_FEATURES')
           and k not in ('CFLAGS', 'CXXFLAGS', 'CC', 'CXX', 'PYTHONPATH')}
    env.update(extra)
    return env


def release_copy(root, tmp):
    """examples/pyext under tmp with the release wrap in place of its [wrap-git]."""
    dst = os.path.join(tmp, 'pyext')
    shutil.copytree(os.path.join(root, 'examples', 'pyext'), dst,
                    ignore=shutil.ignore_patterns('cpudispatch', 'packagefiles', 'packagecache', '.mesonpy-*'))
    os.remove(os.path.join(dst, 'subprojects', 'cpudispatch.wrap'))
    sh([sys.executable, os.path.join(root, 'tools', 'make-wrap.py'), os.path.join(dst, 'subprojects'),
        '--allow-dirty'])
    return dst


def setup(src, b, opts, env=None):
    r = sh(['meson', 'setup', b, src, '--wrap-mode=nodownload'] + opts, env=env or clean_env())
    return r.returncode == 0 and sh(['ninja', '-C', b], env=env or clean_env()).returncode == 0


def import_under(b, model, env_extra=None, module='_core'):
    """Imports the build's module in an interpreter under qemu MODEL (None:
    natively); prints 'OK <baseline>' or 'IMPORTERROR <message>'."""
    code = ('import sys\ntry:\n    import %s as m\nexcept ImportError as e:\n    print("IMPORTERROR", e)\n'
            '    sys.exit(0)\nimport numpy as np\n'
            'a = np.arange(100, dtype=np.int32)\nassert (m.fastadd(a, a) == 2 * a).all()\n'
            'print("OK", " ".join(m.__cpu_baseline__), m.opt_func_info()["fastadd"]["ii->i"]["current"])\n' % module)
    cmd = ([] if model is None else ['qemu-x86_64', '-cpu', model]) + [PY, '-P', '-c', code]
    r = subprocess.run(cmd, capture_output=True, text=True, env=clean_env(PYTHONPATH=b, **(env_extra or {})))
    r.stderr = ''.join(l for l in r.stderr.splitlines(True) if "TCG doesn't support" not in l)
    return r


def case_meson(root, tmp, name, cc, buildtype, cpus):
    src = release_copy(root, tmp)
    b = os.path.join(tmp, 'b')
    env = clean_env(CC=cc[0], CXX=cc[1])
    if not setup(src, b, ['-Dbuildtype=' + buildtype], env):
        return
    sh(['meson', 'test', '-C', b, '--print-errorlogs'], env=env)
    setups = ['each_target'] + (['each_cpu'] if cpus else [])
    for s in setups:
        r = sh(['meson', 'test', '-C', b, '--print-errorlogs', '--setup', 'cpudispatch:' + s], env=env)
        log = os.path.join(b, 'meson-logs', 'testlog-cpudispatch_%s.json' % s)
        out = ''.join((t.get('stdout') or '') + (t.get('stderr') or '')
                      for t in map(json.loads, open(log))) if os.path.exists(log) else ''
        runs = re.findall(r'cpudispatch-run: (\S+) ok', out)
        print('[%s %s] ok under: %s' % (name, s, ' '.join(runs)))
        if s == 'each_target' and ('baseline' not in runs or len(runs) < 2):
            failures.append('%s: each_target ran the suite under %s only:\n%s' % (name, runs, out[-3000:]))
        if s == 'each_cpu' and not set(LOW + ['Haswell']) <= set(runs):
            failures.append('%s: each_cpu ran the suite under %s only:\n%s' % (name, runs, out[-3000:]))


def baseline_line(stderr_or_msg):
    # The module's project (examples/pyext: project('cpudemo', version: '1.0')).
    return re.search(r'cpudispatch: cpudemo 1\.0 in this program was built for x86_64 CPUs with .* \(its baseline\), '
                     r'but this CPU lacks .*AVX2.*\. Run it on a CPU that has them', stderr_or_msg)


def case_below_baseline(root, tmp):
    src = release_copy(root, tmp)
    host = os.path.join(tmp, 'host')
    if not setup(src, host, ['-Dbuildtype=release', '-Dcpudispatch:cpu-baseline=x86_v3']):
        return
    for model in LOW:
        r = import_under(host, model)
        ok = r.returncode == 0 and r.stdout.startswith('IMPORTERROR ') and baseline_line(r.stdout)
        print('[host mode, x86_v3 under %s] exit %d: %s' % (model, r.returncode, r.stdout.strip()[:120]))
        if not ok:
            failures.append('under %s: expected ImportError with the baseline line and exit 0, got %d\n%s%s'
                            % (model, r.returncode, r.stdout, r.stderr))
    r = import_under(host, 'Haswell')
    if r.returncode != 0 or not r.stdout.startswith('OK ') or 'X86_V3' not in r.stdout:
        failures.append('under Haswell the x86_v3 module should work: %d\n%s%s' % (r.returncode, r.stdout, r.stderr))
    for model in (None, 'Haswell'):
        r = import_under(host, model, {'CPUDEMO_ENABLE_CPU_FEATURES': 'avx9'})
        want = 'IMPORTERROR cpudispatch: CPUDEMO_ENABLE_CPU_FEATURES: unknown CPU feature "avx9"; valid names'
        print('[host mode, bad variable, %s] exit %d: %s' % (model or 'native', r.returncode, r.stdout.strip()[:100]))
        if r.returncode != 0 or not r.stdout.startswith(want):
            failures.append('bad variable (%s): expected %r and exit 0, got %d\n%s%s'
                            % (model or 'native', want, r.returncode, r.stdout, r.stderr))
    # The skip variable skips the check in host mode too (docs/python.md):
    # the import then runs the module's x86_v3 code and dies of SIGILL,
    # which also shows the check is what kept the interpreter alive above.
    r = import_under(host, 'Nehalem', {'CPUDEMO_SKIP_CPU_BASELINE_CHECK': '1'})
    print('[host mode, x86_v3 under Nehalem, check skipped] exit %d' % r.returncode)
    if r.returncode != -4:
        failures.append('with the check skipped the x86_v3 module should die of SIGILL under Nehalem, got %d\n%s%s'
                        % (r.returncode, r.stdout, r.stderr))
    # Control: without host mode the start-up check ends the interpreter
    # while it loads the module: host mode is what keeps it alive.
    ctl = os.path.join(tmp, 'control')
    if not setup(src, ctl, ['-Dbuildtype=release', '-Dcpudispatch:cpu-baseline=x86_v3',
                            '-Dcpudispatch:mode=program']):
        return
    r = import_under(ctl, 'Nehalem')
    print('[control: mode=program, x86_v3 under Nehalem] exit %d: %s'
          % (r.returncode, r.stderr.strip()[:100]))
    if r.returncode != 69 or not baseline_line(r.stderr) or 'IMPORTERROR' in r.stdout:
        failures.append('control: mode=program should end the interpreter with 69 under Nehalem, got %d\n%s%s'
                        % (r.returncode, r.stdout, r.stderr))


VEX = re.compile(r'\t(v[a-z0-9]+)\s+.*%[xyz]mm|%ymm|%zmm|\t(andn|bextr|blsi|blsmsk|blsr|bzhi|mulx|pdep|pext|rorx|'
                 r'sarx|shlx|shrx)\s')


def case_global_march(root, tmp):
    """-march=haswell given as consumers give it (CFLAGS): the module's init
    stays at the floor."""
    src = release_copy(root, tmp)
    b = os.path.join(tmp, 'b')
    env = clean_env(CFLAGS='-march=haswell', CXXFLAGS='-march=haswell')
    if not setup(src, b, ['-Dbuildtype=release'], env):
        return
    objs = [os.path.join(d, f) for d, _, fs in os.walk(b) for f in fs if f.endswith('core_init.c.o')]
    if len(objs) != 1:
        failures.append('core_init.c.o: found %s' % objs)
        return
    dis = sh(['objdump', '-d', '--no-show-raw-insn', objs[0]]).stdout
    vex = [l.strip() for l in dis.splitlines() if VEX.search(l)]
    n_insn = len(re.findall(r'^\s+[0-9a-f]+:\t', dis, re.M))
    print('[global -march=haswell] core_init.c.o: %d instructions, %d VEX' % (n_insn, len(vex)))
    if vex or 'PyInit__core' not in dis:
        failures.append('core_init.c.o holds VEX instructions (or no PyInit__core):\n%s' % '\n'.join(vex[:20]))
    # The init's compile command on vectorisable loops (probe.c): nothing
    # above the floor; the same command with the floor flags stripped: AVX
    # (the control: what keeps the init clean is those flags, placed after
    # the global -march, not the init's brevity).
    cmds = json.load(open(os.path.join(b, 'compile_commands.json')))
    cmd = next((c for c in cmds if c['file'].endswith('core_init.c')), None)
    if cmd is None:
        failures.append('no compile command for core_init.c')
        return
    argv = cmd['command'].split()
    i = argv.index('-c')
    argv[i + 1] = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'probe.c')
    o = argv.index('-o')
    floor_at = max((k for k, a in enumerate(argv) if a == '-march=x86-64'), default=-1)
    if floor_at < argv.index('-march=haswell'):
        failures.append('core_init.c: the floor flags do not follow the global -march=haswell: %s' % cmd['command'])
    for label, args, want_vex in (('as built', argv, False),
                                  ('floor stripped', [a for a in argv if not (a in ('-march=x86-64', '-mtune=generic',
                                                      '-fno-lto') or a.startswith('-mno-'))], True)):
        args = list(args)
        args[args.index('-o') + 1] = os.path.join(tmp, 'probe.o')
        sh(args[:args.index('-MD')] + args[args.index('-MD') + 5:] if '-MD' in args else args, cwd=cmd['directory'])
        pdis = sh(['objdump', '-d', '--no-show-raw-insn', os.path.join(tmp, 'probe.o')]).stdout
        pvex = [l for l in pdis.splitlines() if VEX.search(l)]
        print('[probe.c with the init\'s command, %s] %d VEX instructions' % (label, len(pvex)))
        if bool(pvex) != want_vex:
            failures.append('probe.c, %s: %d VEX instructions, expected %s' % (label, len(pvex),
                                                                               'some' if want_vex else 'none'))
    r = import_under(b, 'Nehalem')
    print('[global -march=haswell under Nehalem] exit %d: %s' % (r.returncode, r.stdout.strip()[:120]))
    if r.returncode != 0 or not r.stdout.startswith('IMPORTERROR ') or not baseline_line(r.stdout):
        failures.append('-march=haswell under Nehalem: expected ImportError and exit 0, got %d\n%s%s'
                        % (r.returncode, r.stdout, r.stderr))


def case_wheel(root, tmp):
    src = release_copy(root, tmp)
    wheels, site = os.path.join(tmp, 'wheels'), os.path.join(tmp, 'site')
    for module, opts in (('cpudemo', []), ('cpudemo_v3', ['-Dcpudispatch:cpu-baseline=x86_v3'])):
        # python3 -m build keeps every -Csetup-args (pip 23's
        # --config-settings keeps only the last value of a key).
        out = os.path.join(wheels, module)
        cmd = [PY, '-m', 'build', '--no-isolation', '--wheel', '--outdir', out]
        for a in ['-Dmodule=' + module] + opts:
            cmd += ['-Csetup-args=' + a]
        r = sh(cmd + ['.'], cwd=src, env=clean_env())
        whl = [f for f in os.listdir(out)] if os.path.isdir(out) else []
        print('[wheel %s] %s' % (module, ' '.join(whl)))
        if r.returncode != 0 or len(whl) != 1:
            return
        sh([PY, '-m', 'pip', 'install', '--no-deps', '--no-index', '--target', os.path.join(site, module),
            os.path.join(out, whl[0])], env=clean_env())
    code = r'''
import json, sys
import numpy as np
import cpudemo as a, cpudemo_v3 as b
x = np.arange(1000, dtype=np.float32)
assert (a.fastadd(x, x) == 2 * x).all() and (b.fastadd(x, x) == 2 * x).all()
print(json.dumps({m.__name__: [m.__cpu_baseline__, m.opt_func_info()["fastadd"]["ff->f"], m.__file__]
                  for m in (a, b)}))
'''
    path = os.pathsep.join(os.path.join(site, m) for m in ('cpudemo', 'cpudemo_v3'))
    for enable in ('', 'X86_V3'):
        r = sh([PY, '-P', '-c', code], env=clean_env(PYTHONPATH=path, CPUDEMO_ENABLE_CPU_FEATURES=enable))
        if r.returncode != 0:
            return
        got = json.loads(r.stdout)
        (base_a, sel_a, _), (base_b, sel_b, _) = got['cpudemo'], got['cpudemo_v3']
        print('[one interpreter, ENABLE=%r] cpudemo: baseline %s, ff->f %s of %s; cpudemo_v3: baseline %s, ff->f %s '
              'of %s' % (enable, ' '.join(base_a), sel_a['current'], sel_a['available'], ' '.join(base_b),
                         sel_b['current'], sel_b['available']))
        if base_a != ['SSE', 'SSE2'] or 'X86_V3' not in base_b or 'X86_V3' in sel_b['available']:
            failures.append('the two modules should keep their own baselines and targets: %s' % got)
        if enable == 'X86_V3' and (sel_a['current'] != 'X86_V3' or sel_b['current'] != 'baseline'):
            failures.append('ENABLE=X86_V3: cpudemo should run X86_V3, cpudemo_v3 its baseline build: %s' % got)
    for m in ('cpudemo', 'cpudemo_v3'):
        so = [os.path.join(d, f) for d, _, fs in os.walk(os.path.join(site, m)) for f in fs if f.endswith('.so')]
        exported = sh(['nm', '-D', '--defined-only', so[0]]).stdout.split() if so else []
        names = [w for w in exported if not re.fullmatch(r'[0-9a-f]+|[A-Za-z]', w)]
        print('[%s] exported: %s' % (m, ' '.join(names)))
        # Besides the module's entry, only libstdc++'s own unique objects
        # (std::, identical in every copy); nothing of the runtime.
        odd = [n for n in names if n != 'PyInit__core' and not n.startswith(('_ZNSt', '_ZZNSt'))]
        if 'PyInit__core' not in names or odd:
            failures.append('%s exports %s; only PyInit__core expected' % (m, odd))
    # Without the build's cpudispatch-info (not in a wheel): its one test is
    # deselected, not skipped; the Meson cases run it.
    r = sh([PY, '-P', '-m', 'pytest', '-q', '-p', 'no:cacheprovider', os.path.join(src, 'tests'),
            '--deselect', 'tests/test_cpudemo.py::test_attributes_match_cpudispatch_info'],
           env=clean_env(PYTHONPATH=os.path.join(site, 'cpudemo'), CPUDEMO_MODULE='cpudemo'), cwd=src)
    last = (r.stdout.strip().splitlines() or [''])[-1]
    print('[pytest against the installed cpudemo] %s' % last)
    if 'passed' not in last or 'skipped' in last or 'failed' in last:
        failures.append('pytest against the installed cpudemo: %s' % last)


def main():
    if sys.argv[1:] == ['--list']:
        print('\n'.join(CASES))
        return 0
    name, root = sys.argv[1:3]
    need = subprocess.run([PY, '-c', 'import numpy, mesonpy, pytest, build'], capture_output=True, text=True)
    if need.returncode != 0:
        print('FAIL: %s lacks NumPy, meson-python, pytest or build (tools/install-deps.sh installs python3-numpy '
              'python3-mesonpy python3-pytest python3-build):\n%s' % (PY, need.stderr))
        return 1
    # The example's meson.build holds docs/python.md's snippet verbatim.
    snippet = doc_blocks.block(os.path.join(root, 'docs', 'python.md'), 'pyext-meson')
    if '\n'.join(snippet) not in open(os.path.join(root, 'examples', 'pyext', 'meson.build')).read():
        failures.append('examples/pyext/meson.build does not hold docs/python.md\'s pyext-meson block verbatim')
    with tempfile.TemporaryDirectory() as tmp:
        if name == 'gcc-debug':
            case_meson(root, tmp, name, ('gcc', 'g++'), 'debug', cpus=True)
        elif name == 'clang-release':
            case_meson(root, tmp, name, ('clang', 'clang++'), 'release', cpus=False)
        elif name == 'below-baseline':
            case_below_baseline(root, tmp)
        elif name == 'global-march':
            case_global_march(root, tmp)
        elif name == 'wheel':
            case_wheel(root, tmp)
        else:
            print('unknown case %s; cases: %s' % (name, ' '.join(CASES)))
            return 1
    if failures:
        print('\n'.join('FAIL: ' + f for f in failures))
        return 1
    print('PASS')
    return 0


sys.exit(main())
