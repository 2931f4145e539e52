#!/usr/bin/env python3
"""The generator's NumPy format (src/build_side/cpudispatch_numpy.py) against
golden headers and flag sets, with no NumPy source:

  numpy_format.py SOURCE_ROOT [--cc=ARG ...]

golden/<arch>/ holds, for NumPy 1.26's option defaults (x86_64: baseline
SSE SSE2 SSE3, dispatch "max -xop -fma4"; aarch64: the floor, dispatch
max), the headers of a few of NumPy's target lists (LIST, beside) and each
target library's -m flags and NumPy defines (words.txt, sorted per
library). They follow the rules of NumPy's Meson fork as its module states
them: a list without "baseline" builds no baseline object; a target the
baseline covers is left out; a group is named by its members no other
implies, ascending interest (FMA3__AVX2); the run-time test asks each
implied NumPy name (a group's words), where AVX's test replaces the SSE
names before it and AVX512F's every name before it; no include guard.
Checked by hand against the fork's own output for the same lists (the
configure of docs/porting-from-numpy.md).

The configuration is made here from the feature tables, not probed, so the
goldens hold on any machine. The extras' compile checks run a stub
compiler that fails the programs CPUD_STUB_FAIL names; with --cc (an x86_64
compiler), each extra's own program is also compiled for real: it must
compile with its NumPy name's flags and fail with the flags of the name
below (the negative control: the program tests the intrinsic, not only the
flag)."""
import os
import re
import subprocess
import sys
import tempfile

root = sys.argv[1]
real_cc = [a[len('--cc='):] for a in sys.argv[2:] if a.startswith('--cc=')]
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(root, 'src', 'build_side'))
sys.dont_write_bytecode = True
from cpudispatch_model import Model  # noqa: E402

GEN = os.path.join(root, 'src', 'build_side', 'cpudispatch_gen.py')
STUB = os.path.join(here, 'stub_cc.py')
failures = []

# NumPy 1.26's lists (numpy/core/meson.build), as the port passes them.
LISTS = [
    ('argfunc.dispatch.h', 'baseline AVX512_SKX AVX2 XOP SSE42 SSE2 VSX2 ASIMD NEON VXE VX'),
    ('simd_qsort_16bit.dispatch.h', 'AVX512_SPR AVX512_ICL'),
    ('grouped.dispatch.h', 'baseline AVX512_SKX (AVX2 FMA3) AVX2 SSE41'),
    ('_umath_tests.dispatch.h', 'baseline AVX2 SSE41 SSE2 ASIMDHP ASIMD NEON VSX3 VSX2 VSX VXE VX'),
]
CONFIGS = {'x86_64': (['SSE', 'SSE2', 'SSE3'], ['XOP', 'FMA4']), 'aarch64': (None, [])}


def config(arch, d):
    """A Model of `arch` as configure would resolve NumPy's defaults, every
    compiler check passing; its file in d."""
    m = Model.from_tables(os.path.join(root, 'src', 'features'), arch)
    base, off = CONFIGS[arch]
    m.baseline = m.with_implied(base if base is not None else m.table['min'])
    m.targets = [n for n in m.names if n not in m.baseline and n not in off]
    m.target_flags = {t: m.merged_flags(set(m.baseline) | set(m.with_implied([t]))) for t in m.targets}
    path = os.path.join(d, arch + '.txt')
    with open(path, 'w') as fh:
        fh.write(m.text())
    return path


def gen(cfg, out, pairs, extra=(), env=None):
    e = dict(os.environ, **(env or {}))
    for k in ('MESON_BUILD_ROOT', 'MESON_SUBDIR', 'MESON_SOURCE_ROOT'):
        e.pop(k, None)
    args = [sys.executable, GEN, '--config', cfg, '--out-dir', out, '--cc=' + sys.executable, '--cc=' + STUB,
            '--format', 'numpy'] + list(extra)
    return subprocess.run(args + [x for p in pairs for x in p], capture_output=True, text=True, env=e)


def flag_sets(stdout):
    """LIBRARY -> the sorted -m flags and -DNPY_ defines of its word."""
    out = {}
    for w in stdout.split():
        lib, args, _ = w.split(':')
        out[lib] = sorted(a for a in args.split('|') if a.startswith('-m') or a.startswith('-DNPY_'))
    return out


def golden_words(arch):
    got = {}
    with open(os.path.join(here, 'golden', arch, 'words.txt')) as fh:
        for line in fh:
            if line.strip() and not line.startswith('#'):
                lib, *flags = line.split()
                got[lib] = flags
    return got


def check(cond, what):
    if not cond:
        failures.append(what)
    print('%s: %s' % ('ok' if cond else 'FAIL', what))


with tempfile.TemporaryDirectory() as d:
    cfgs = {arch: config(arch, d) for arch in CONFIGS}
    for arch, cfg in cfgs.items():
        out = os.path.join(d, 'out-' + arch)
        os.makedirs(out)
        r = gen(cfg, out, LISTS)
        check(r.returncode == 0, '%s: the generator runs (%s)' % (arch, r.stderr.strip()))
        for name, _ in LISTS:
            want = open(os.path.join(here, 'golden', arch, name)).read()
            have = open(os.path.join(out, name)).read() if os.path.exists(os.path.join(out, name)) else ''
            strip = lambda t: [l for l in t.splitlines() if not (l.startswith('/*') or l.startswith(' *'))]
            check(strip(have) == strip(want), '%s: %s matches its golden header (comments aside)' % (arch, name))
        have, want = flag_sets(r.stdout), golden_words(arch)
        check(sorted(have) == sorted(want), '%s: the libraries are %s' % (arch, ' '.join(sorted(want))))
        for lib in sorted(want):
            check(have.get(lib) == want[lib], '%s: %s has the golden flags and defines' % (arch, lib))
        # The link order: baseline first, then ascending interest.
        libs = [w.split(':')[0] for w in r.stdout.split() if w.endswith(':argfunc.dispatch.h')]
        if arch == 'x86_64':
            check(libs == ['argfunc_baseline', 'argfunc_SSE42', 'argfunc_AVX2', 'argfunc_AVX512_SKX'],
                  'x86_64: argfunc\'s libraries in link order (%s)' % ' '.join(libs))
            # cpudispatch's own names beside NumPy's: the mark and CPUD_TARGET.
            words = {w.split(':')[0]: w.split(':')[1].split('|') for w in r.stdout.split()}
            icl = words.get('simd_qsort_16bit_AVX512_ICL', [])
            check('-DCPUD_TARGET=AVX512VPOPCNTDQ__AVX512BITALG__AVX512VBMI2__AVX512_CNL__AVX512_CLX' in icl
                  and 'cpudispatch/target_mark.h' in icl,
                  'x86_64: NumPy\'s AVX512_ICL is cpudispatch\'s group of its rows, marked for cpudispatch-check')
            check(not any(f in icl for f in ('-mvaes', '-mgfni', '-mvpclmulqdq')),
                  'x86_64: NumPy 1.26\'s AVX512_ICL is not compiled for what its run-time test does not ask '
                  '(VAES GFNI VPCLMULQDQ)')
            check('-DCPUD_TARGET_IS_BASELINE=1' in words.get('argfunc_baseline', []) and
                  not any('target_mark' in a for a in words.get('argfunc_baseline', [])),
                  'x86_64: the baseline library carries no target mark')

    cfg, out = cfgs['x86_64'], os.path.join(d, 'more')
    os.makedirs(out)
    # An extra whose program fails leaves its define out, and only it.
    r = gen(cfg, out, LISTS[:1], env={'CPUD_STUB_FAIL': 'avx512bw_mask.c'})
    w = flag_sets(r.stdout).get('argfunc_AVX512_SKX', [])
    check(r.returncode == 0 and '-DNPY_HAVE_AVX512BW_MASK' not in w and '-DNPY_HAVE_AVX512DQ_MASK' in w,
          'an extra that does not compile is not defined; the others are')
    # --keep-sort: the list's order, as NumPy's _simd site asks.
    r = gen(cfg, out, [('k.dispatch.h', 'SSE42 AVX512F AVX2')], extra=['--keep-sort'])
    order = re.findall(r'EXEC_CB\(\(.*?\), (\w+), __VA_ARGS__', open(os.path.join(out, 'k.dispatch.h')).read())
    check(order == ['SSE42', 'AVX512F', 'AVX2'], '--keep-sort keeps the list\'s order (%s)' % ' '.join(order))
    r = gen(cfg, out, [('k.dispatch.h', 'SSE42 AVX512F AVX2')])
    order = re.findall(r'EXEC_CB\(\(.*?\), (\w+), __VA_ARGS__', open(os.path.join(out, 'k.dispatch.h')).read())
    check(order == ['AVX512F', 'AVX2', 'SSE42'], 'without it, highest interest first (%s)' % ' '.join(order))
    # A list without baseline that names only baseline features: NumPy
    # builds them as targets; the header has no baseline call.
    r = gen(cfg, out, [('b.dispatch.h', 'SSE2')])
    h = open(os.path.join(out, 'b.dispatch.h')).read()
    check('b_SSE2:' in r.stdout and 'b_baseline' not in r.stdout and
          re.search(r'CONF_BASELINE\(EXEC_CB, \.\.\.\) *\n', h) is not None,
          'without "baseline", no baseline object, even for a target the baseline covers')
    # Errors: one line naming the token and NumPy's names; nothing written.
    r = gen(cfg, out, [('bad.dispatch.h', 'baseline AVX3')])
    check(r.returncode == 1 and 'unknown target "AVX3"' in r.stderr and 'AVX512_SKX' in r.stderr
          and len(r.stderr.strip().splitlines()) == 1 and not os.path.exists(os.path.join(out, 'bad.dispatch.h')),
          'an unknown name: one line naming it and listing NumPy\'s names (%s)' % r.stderr.strip()[:120])
    r = gen(cfg, out, [('r.dispatch.h', 'baseline AVX512_KNL AVX2')])
    check(r.returncode == 0 and 'retired' in open(os.path.join(out, 'r.dispatch.h')).read()
          and 'r_AVX512_KNL' not in r.stdout, 'a retired NumPy name (AVX512_KNL) is left out with a note')
    r = subprocess.run([sys.executable, GEN, '--config', cfg, '--out-dir', out, '--format', 'numbpy', 'x.h', 'AVX2'],
                       capture_output=True, text=True)
    check(r.returncode == 1 and 'cpudispatch numpy' in r.stderr.replace(' (the default) and ', ' '),
          'an unknown --format names the formats (%s)' % r.stderr.strip())
    # --numpy-summary: the names and the baseline's arguments.
    r = gen(cfg, out, [], extra=['--numpy-summary'])
    lines = dict(l.split(' ', 1) for l in r.stdout.splitlines())
    check(lines.get('baseline') == 'SSE SSE2 SSE3', '--numpy-summary: the baseline\'s NumPy names')
    check(lines.get('dispatch', '').split()[:3] == ['SSSE3', 'SSE41', 'POPCNT']
          and 'XOP' not in lines.get('dispatch', '') and 'AVX512_SPR' in lines.get('dispatch', ''),
          '--numpy-summary: the dispatch names (%s)' % lines.get('dispatch'))
    check(lines.get('baseline-args', '').split() == ['-msse', '-msse2', '-msse3', '-DNPY_HAVE_SSE', '-DNPY_HAVE_SSE2',
                                                    '-DNPY_HAVE_SSE3'], '--numpy-summary: the baseline\'s arguments')
    names = lines.get('names', '').split()
    check(len(names) == len(set(names)) and {'SSE3', 'AVX512_SPR', 'AVX512_KNL', 'NEON', 'VSX2'} <= set(names),
          '--numpy-summary: the names a list may hold, once each (this arch\'s, retired, other arches\')')
    # Misused options: one line each, exit 1.
    for extra, needle in ((['--prefix', 'NP Y'], '--prefix "NP Y"'),
                          (['--format', 'cpudispatch', '--keep-sort'], 'options of --format numpy')):
        r = subprocess.run([sys.executable, GEN, '--config', cfg, '--out-dir', out] + extra + ['x.h', 'AVX2'],
                           capture_output=True, text=True)
        check(r.returncode == 1 and needle in r.stderr and len(r.stderr.strip().splitlines()) == 1,
              '%s: one line naming it (%s)' % (' '.join(extra), r.stderr.strip()))
    # An arch without NumPy names: one line saying so.
    m = Model.from_tables(os.path.join(root, 'src', 'features'), 'riscv64')
    with open(os.path.join(d, 'rv.txt'), 'w') as fh:
        fh.write(m.text())
    r = gen(os.path.join(d, 'rv.txt'), out, [('x.dispatch.h', 'baseline')])
    check(r.returncode == 1 and 'no NumPy names for riscv64' in r.stderr, 'an arch without NumPy names: %s'
          % r.stderr.strip())

# The extras' programs, for real: each compiles with its name's flags and
# not with the flags of the name below it.
if real_cc:
    m = Model.from_tables(os.path.join(root, 'src', 'features'), 'x86_64')
    import cpudispatch_numpy as numpy_format  # noqa: E402
    m.baseline, m.targets = m.with_implied(['SSE', 'SSE2']), list(m.names)
    nn = numpy_format.NumpyNames(m)
    below = {'AVX512F': 'AVX2', 'AVX512_SKX': 'AVX512CD'}
    with tempfile.TemporaryDirectory() as d:
        for e in m.numpy:
            for extra, prog in sorted(e.get('extras', {}).items()):
                def compiles(name):
                    c = subprocess.run(real_cc + nn.flags([name]) + numpy_format.EXTRA_CHECK_ARGS +
                                       ['-c', prog, '-o', os.path.join(d, 'x.o')], capture_output=True, text=True)
                    return c.returncode == 0
                check(compiles(e['name']), 'extra %s compiles with %s\'s flags' % (extra, e['name']))
                check(not compiles(below[e['name']]), 'extra %s does not compile with %s\'s flags (control)'
                      % (extra, below[e['name']]))
else:
    print('SKIP: no x86_64 compiler given: the extras\' programs were not compiled for real')

# docs/porting-from-numpy.md's numpy-format loop is this directory's.
doc = open(os.path.join(root, 'docs', 'porting-from-numpy.md')).read()
m = re.search(r'the numpy-format loop;.*?```meson\n(.*?)```', doc, re.S)
ours = [l.strip() for l in open(os.path.join(here, 'meson.build')).read().splitlines()]
block = [l.strip() for l in (m.group(1) if m else '').splitlines() if l.strip()]
check(m is not None and len(block) >= 10 and all(l in ours for l in block),
      'docs/porting-from-numpy.md\'s numpy-format loop is test/numpy_format/meson.build\'s (%s)'
      % ', '.join(l for l in block if l not in ours)[:200])

print('%d failure(s)' % len(failures))
sys.exit(1 if failures else 0)
