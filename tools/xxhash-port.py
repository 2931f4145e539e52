#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""xxHash 0.8.2's CMake build with cpudispatch in place of its own
dispatcher: applies the port to a copy of an xxHash checkout, builds it and
xxHash's untouched CMake build (both with DISPATCH, GCC, Ninja, Release),
runs xxHash's own tests on both, and on the port per target and under qemu's
models, compares every hash with the original build's, benchmarks both, and
reports what the port changed (docs/porting-a-cmake-library.md). Not part of
CI: CI has no xxHash source.

  xxhash-port.py --xxhash DIR --work WORK [--cpudispatch ROOT]
                 [--steps port,build,test,bench,report] [--jobs N] [--rounds N]

DIR: an xxHash v0.8.2 tree (git -C XXHASH_GIT archive v0.8.2 | tar -x -C DIR);
it is copied and never changed. A tree without tests/sanity_test_vectors.h
(a store that keeps no file of 4 MiB or more) gets it from xxHash's own
generator, tests/sanity_test_vectors_generator.c, built for the scalar code
path; its git blob id is checked against v0.8.2's. ROOT: cpudispatch's
source tree (default: this repository).

What `port` does to WORK/src, a copy of DIR (WORK/orig is another, left as it
is), by pattern (nothing of xxHash's text is kept in this repository):
cpudispatch_port/ gets tools/xxhash_port/'s dispatch source, entry points,
probe and CMake block; in cmake_unofficial/CMakeLists.txt the "# libxxhash"
branch that compiles xxh_x86dispatch.c becomes an include() of that block,
and xxhsum's copy of xxh_x86dispatch.c becomes the port's entry points with
the kernels and cpudispatch's runtime. Nothing else changes.

Steps: build (WORK/build-orig, WORK/build-port; the sanity test against each
build's libxxhash), static (the port as an installed static library), test,
cross (the port for aarch64 under qemu-aarch64), bench, report
(WORK/results.json holds every number printed).
"""
import argparse
import hashlib
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PORT_FILES = os.path.join(HERE, 'xxhash_port')
sys.path.insert(0, HERE)
from qemu_models import read_models  # noqa: E402  (tools/qemu_models.py)

STEPS = ['port', 'build', 'static', 'test', 'cross', 'bench', 'report']
# What the port copies into the tree (cpudispatch_port/).
OURS = ['xxh3.dispatch.c', 'xxh3_dispatch_api.c', 'xxh3_probe.c', 'xxh3_dispatch.cmake']
# v0.8.2's tests/sanity_test_vectors.h, as git names it (git ls-tree v0.8.2).
VECTORS_BLOB = 'a5025a2d34be5e7a81c2e01802a5f3588399b58f'
# The eight functions xxh3.dispatch.c defines (the probe prints each).
FUNCTIONS = ['xxh3_64', 'xxh3_64_seed', 'xxh3_64_secret', 'xxh3_64_update', 'xxh3_128', 'xxh3_128_seed',
             'xxh3_128_secret', 'xxh3_128_update']
# What each x86 target needs, in /proc/cpuinfo's spelling (pni: SSE3), from
# the ISA, not from cpudispatch's tables: the probe's choice under each qemu
# model is checked against it.
_SSE42 = {'sse', 'sse2', 'pni', 'ssse3', 'sse4_1', 'sse4_2', 'popcnt'}
NEEDS = {'AVX2': _SSE42 | {'avx', 'avx2', 'f16c'},
         'AVX512_SKX': _SSE42 | {'avx', 'avx2', 'f16c', 'fma', 'bmi1', 'bmi2', 'avx512f', 'avx512cd', 'avx512bw',
                                 'avx512dq', 'avx512vl'}}
# The data files' sizes: XXH3's length classes (0, 1-3, 4-8, 9-16, 17-128,
# 129-240, long), the 1 KiB block and 4 KiB internal buffer edges, and
# inputs long enough for the streaming path to fill its buffer many times.
SIZES = [0, 1, 3, 4, 8, 9, 16, 17, 64, 128, 129, 200, 240, 241, 255, 256, 511, 1023, 1024, 1025, 2047, 4095,
         4096, 4097, 8191, 65536, 100003, (1 << 20) + 17, (4 << 20) + 3]
# xxhsum's modes whose output the two builds must give alike: -H0 XXH32,
# -H1 XXH64 (neither dispatched), -H2 XXH128, -H3 XXH3_64bits.
MODES = [['-H0'], ['-H1'], ['-H2'], ['-H3'], ['--tag', '-H2'], ['--little-endian', '-H2'],
         ['--little-endian', '-H3'], ['--tag', '--little-endian', '-H3']]


def say(*a):
    print('xxhash-port:', *a, flush=True)


def die(msg):
    sys.exit('xxhash-port: ' + msg)


def show(cmd):
    return ' '.join(c if re.match(r'^[\w./=,:+-]+$', c) else "'%s'" % c for c in cmd)


def run(cmd, check=True, quiet=False, **kw):
    if not quiet:
        say('$', show(cmd) + ('   (in %s)' % kw['cwd'] if 'cwd' in kw else ''))
    if kw.get('capture_output'):
        kw.setdefault('text', True)
    r = subprocess.run(cmd, **kw)
    if check and r.returncode != 0:
        die('%s failed (%d)%s' % (cmd[0], r.returncode, ('\n' + (r.stdout or '') + (r.stderr or ''))[-3000:]
                                  if kw.get('capture_output') else ''))
    return r


def out(cmd, quiet=False, **kw):
    """stdout of cmd, which must succeed."""
    return run(cmd, capture_output=True, text=True, quiet=quiet, **kw).stdout


def blob_id(path):
    data = open(path, 'rb').read()
    return hashlib.sha1(b'blob %d\0' % len(data) + data).hexdigest()


def lines_of(path):
    """(lines, lines of code: neither blank nor only comment) of a C or CMake file."""
    text = open(path, encoding='utf-8', errors='replace').read()
    total = text.count('\n')
    if path.endswith(('.c', '.h')):
        text = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), text, flags=re.S)
        text = re.sub(r'//[^\n]*', '', text)
    else:
        text = re.sub(r'#[^\n]*', '', text)
    return total, sum(1 for l in text.splitlines() if l.strip())


# --- port ------------------------------------------------------------------
LIB_BRANCH = re.compile(r'^if\(\(DEFINED DISPATCH\) AND \(DEFINED PLATFORM\)\)\n.*?^endif\(\)\n'
                        r'(?=add_library\(\$\{PROJECT_NAME\}::xxhash ALIAS xxhash\))', re.M | re.S)
XXHSUM_COPY = re.compile(r'^([ \t]*)list\(APPEND XXHSUM_SOURCES "\$\{XXHASH_DIR\}/xxh_x86dispatch\.c"\)[ \t]*$',
                         re.M)
XXHSUM_LINK = re.compile(r'^([ \t]*)target_link_libraries\(xxhsum PRIVATE xxhash\)[ \t]*$', re.M)


def version_of(tree):
    h = open(os.path.join(tree, 'xxhash.h'), encoding='utf-8').read()
    got = [re.search(r'^#define XXH_VERSION_%s +(\d+) *$' % k, h, re.M) for k in ('MAJOR', 'MINOR', 'RELEASE')]
    return '.'.join(g.group(1) if g else '?' for g in got)


def c_entries(text, array):
    """The entries of a C array of test data ({len, seed, hash} or {len,
    seed, {low, high}}) as tuples of ints: NAME[] = { ... };."""
    m = re.search(r'\b%s\[\] = \{(.*?)\n\};' % re.escape(array), text, re.S)
    if not m:
        return None
    body = re.sub(r'/\*.*?\*/', '', m.group(1), flags=re.S)
    body = body.replace('PRIME32', '2654435761').replace('PRIME64', '11400714785074694797')
    got = []
    for e in re.findall(r'\{((?:[^{}]|\{[^{}]*\})*)\}', body):
        words = [w.strip() for w in e.replace('{', ',').replace('}', ',').split(',') if w.strip()]
        vals = []
        for w in words:
            w = re.sub(r'(?<=[0-9a-fA-F])[uUlL]+\b', '', w)
            if not re.match(r'^[0-9a-fA-Fx*+ ]+$', w):
                return None
            vals.append(eval(w, {'__builtins__': {}}))  # numbers and * only (checked above)
        got.append(tuple(vals))
    return got


VECTOR_ARRAYS = ['XSUM_XXH32_testdata', 'XSUM_XXH64_testdata', 'XSUM_XXH3_testdata', 'XSUM_XXH3_withSecret_testdata',
                 'XSUM_XXH128_testdata', 'XSUM_XXH128_withSecret_testdata']


def vectors(a):
    """tests/sanity_test_vectors.h: the checkout's, or xxHash's generator's,
    whose every entry that cli/xsum_sanity_check.c also holds (xxHash's
    hand-checked vectors, the ones xxhsum -b verifies) must be the same."""
    if os.path.exists(os.path.join(a.xxhash, 'tests', 'sanity_test_vectors.h')):
        return {'generated': False}
    tests = os.path.join(a.work, 'orig', 'tests')
    gen = os.path.join(a.work, 'sanity_test_vectors_generator')
    run(['gcc', '-O2', '-std=gnu99', '-DXXH_VECTOR=0', os.path.join(tests, 'sanity_test_vectors_generator.c'),
         '-o', gen])
    run([gen], cwd=tests, capture_output=True)
    header = os.path.join(tests, 'sanity_test_vectors.h')
    blob = blob_id(header)
    have = open(header).read()
    known = open(os.path.join(a.work, 'orig', 'cli', 'xsum_sanity_check.c')).read()
    checked = 0
    for arr in VECTOR_ARRAYS:
        k, h = c_entries(known, arr), c_entries(have, arr)
        if not k or not h:
            die('no array %s in cli/xsum_sanity_check.c or the generated header' % arr)
        missing = [e for e in k if e not in set(h)]
        if missing:
            die('the generated vectors disagree with cli/xsum_sanity_check.c\'s %s: %s' % (arr, missing[:3]))
        checked += len(k)
    shutil.copyfile(header, os.path.join(a.work, 'src', 'tests', 'sanity_test_vectors.h'))
    say('tests/sanity_test_vectors.h generated (%s has none) by tests/sanity_test_vectors_generator.c, scalar '
        '(XXH_VECTOR=0): %d bytes, git blob %s (%s v0.8.2\'s %s); each of the %d vectors of '
        'cli/xsum_sanity_check.c is among its entries' % (a.xxhash, len(have), blob, 'the same as' if blob ==
                                                          VECTORS_BLOB else 'not', VECTORS_BLOB, checked))
    return {'generated': True, 'blob': blob, 'same_blob': blob == VECTORS_BLOB, 'bytes': len(have),
            'xsum_vectors_matched': checked}


def port(a):
    if version_of(a.xxhash) != '0.8.2':
        die('%s is xxHash %s, not 0.8.2' % (a.xxhash, version_of(a.xxhash)))
    for name in ('orig', 'src'):
        d = os.path.join(a.work, name)
        shutil.rmtree(d, ignore_errors=True)
        shutil.copytree(a.xxhash, d, ignore=shutil.ignore_patterns('.git'), symlinks=True)
    save(a, 'vectors', vectors(a))
    src = os.path.join(a.work, 'src')
    dest = os.path.join(src, 'cpudispatch_port')
    os.makedirs(dest)
    for f in OURS:
        shutil.copyfile(os.path.join(PORT_FILES, f), os.path.join(dest, f))
    cml = os.path.join(src, 'cmake_unofficial', 'CMakeLists.txt')
    text = open(cml, encoding='utf-8').read()
    m = LIB_BRANCH.search(text)
    if not m or len(LIB_BRANCH.findall(text)) != 1 or 'xxh_x86dispatch.c' not in m.group(0):
        die('%s: no one "# libxxhash" branch (if((DEFINED DISPATCH) AND (DEFINED PLATFORM)) ... endif()) '
            'compiling xxh_x86dispatch.c, as 0.8.2 has it' % cml)
    text = LIB_BRANCH.sub(lambda _: (
        '# cpudispatch in place of xxh_x86dispatch.c (tools/xxhash-port.py of cpudispatch)\n'
        'include("${XXHASH_DIR}/cpudispatch_port/xxh3_dispatch.cmake")\n'), text)
    text, n1 = XXHSUM_COPY.subn(r'\g<1>list(APPEND XXHSUM_SOURCES ${XXHASH_PORT_XXHSUM_SOURCES})', text)
    text, n2 = XXHSUM_LINK.subn(lambda m: (
        '%s\n%sif (XXHSUM_DISPATCH)\n%s  target_link_libraries(xxhsum PRIVATE xxh3_kernels cpudispatch::cpudispatch)\n'
        '%sendif()' % (m.group(0), m.group(1), m.group(1), m.group(1))), text)
    if (n1, n2) != (1, 1) or '/xxh_x86dispatch.c' in text:
        die('%s: xxhsum\'s sources (%d) or link line (%d) are not where 0.8.2 has them' % (cml, n1, n2))
    open(cml, 'w', encoding='utf-8').write(text)
    r = run(['diff', '-u', os.path.join(a.work, 'orig', 'cmake_unofficial', 'CMakeLists.txt'), cml],
            check=False, capture_output=True, text=True)
    open(os.path.join(a.work, 'CMakeLists.diff'), 'w').write(r.stdout)
    say('ported: cmake_unofficial/CMakeLists.txt (the libxxhash branch, xxhsum\'s sources and link), '
        'cpudispatch_port/ (%s); the diff: %s' % (', '.join(OURS), os.path.join(a.work, 'CMakeLists.diff')))


# --- build -----------------------------------------------------------------
def builds(a):
    return {'orig': (os.path.join(a.work, 'orig'), os.path.join(a.work, 'build-orig')),
            'port': (os.path.join(a.work, 'src'), os.path.join(a.work, 'build-port'))}


def build(a):
    common = ['-G', 'Ninja', '-DCMAKE_BUILD_TYPE=Release', '-DCMAKE_C_COMPILER=gcc', '-DDISPATCH=ON',
              '-DCMAKE_EXPORT_COMPILE_COMMANDS=ON']
    extra = {'orig': [], 'port': ['-DXXHASH_CPUDISPATCH_DIR=' + a.cpudispatch, '-DCPUD_PYTHON=' + sys.executable]}
    times = {}
    for who, (src, b) in builds(a).items():
        shutil.rmtree(b, ignore_errors=True)
        t0 = time.time()
        run(['cmake', '-S', os.path.join(src, 'cmake_unofficial'), '-B', b] + common + extra[who])
        t1 = time.time()
        run(['cmake', '--build', b, '-j', str(a.jobs)] + (['--target', 'all', 'xxh3_probe'] if who == 'port' else []))
        times[who] = {'configure_s': round(t1 - t0, 1), 'build_s': round(time.time() - t1, 1)}
        # xxHash's tests/sanity_test.c against this build's libxxhash: its
        # XXH3 calls renamed to the _dispatch entry points
        # (tools/xxhash_port/sanity_dispatch.h).
        run(['gcc', '-O2', '-std=gnu99', '-I', src, '-include', os.path.join(PORT_FILES, 'sanity_dispatch.h'),
             os.path.join(src, 'tests', 'sanity_test.c'), '-o', os.path.join(b, 'sanity_test_dispatch'),
             '-L', b, '-lxxhash', '-Wl,-rpath,' + b])
        undef = out(['nm', '-D', '--undefined-only', os.path.join(b, 'sanity_test_dispatch')])
        calls = sorted(set(re.findall(r'\b(XXH3_\w+_dispatch)\b', undef)))
        if len(calls) != 8:
            die('%s/sanity_test_dispatch calls %s of libxxhash, not the eight _dispatch entry points' % (b, calls))
    # The test as xxHash ships it (its own inline copy, no build's library):
    # the control that the vectors hold.
    run(['gcc', '-O2', '-std=gnu99', os.path.join(a.work, 'src', 'tests', 'sanity_test.c'), '-o',
         os.path.join(a.work, 'sanity_test_inline')])
    cc = json.load(open(os.path.join(builds(a)['port'][1], 'compile_commands.json')))
    compiled = sorted(set(os.path.relpath(c['file'], a.work) for c in cc if not c['file'].startswith(a.cpudispatch)))
    if any('xxh_x86dispatch.c' in f for f in compiled):
        die('the ported build still compiles xxh_x86dispatch.c')
    say('the ported build compiles (cpudispatch\'s runtime and cpudispatch-run aside): ' + ' '.join(compiled))
    # Each target's build holds its own vector code (XXH_VECTOR from its
    # CPUD_HAVE_*): the registers its instructions name.
    regs = {}
    pb = builds(a)['port'][1]
    for lib in sorted(f for f in os.listdir(pb) if re.match(r'^libxxh3_(?!kernels).*\.a$', f)):
        asm = out(['objdump', '-d', os.path.join(pb, lib)], quiet=True)
        regs[lib[8:-2]] = {r: len(re.findall(r'%' + r + r'\d', asm)) for r in ('xmm', 'ymm', 'zmm')}
    say('registers named per target build: ' + '; '.join('%s %s' % (k, ' '.join('%s %d' % rv for rv in v.items()))
                                                          for k, v in regs.items()))
    for k, v in regs.items():
        wide = 'zmm' if k.startswith('AVX512') else 'ymm' if k.startswith('AVX2') else None
        if (wide is None and (v['ymm'] or v['zmm'])) or (wide and not v[wide]) or (wide == 'ymm' and v['zmm']):
            die('the %s build\'s registers are not its vector width\'s: %s' % (k, v))
    # The shared libraries export the same names; cpudispatch's stay hidden.
    exports = {w: sorted(l.split()[-1] for l in out(['nm', '-D', '--defined-only', os.path.join(b, 'libxxhash.so')],
                                                     quiet=True).splitlines())
               for w, (_, b) in builds(a).items()}
    o, p = set(exports['orig']), set(exports['port'])
    if o != p:
        die('libxxhash.so exports differ: only the original %s, only the port %s' % (sorted(o - p), sorted(p - o)))
    say('libxxhash.so of both builds export the same %d names (%d of them _dispatch)'
        % (len(exports['port']), len([e for e in exports['port'] if e.endswith('_dispatch')])))
    save(a, 'build', dict(times, port_compiles=compiled, registers=regs, exports=len(exports['port'])))


def save(a, key, value):
    path = os.path.join(a.work, 'results.json')
    res = json.load(open(path)) if os.path.exists(path) else {}
    res[key] = value
    json.dump(res, open(path, 'w'), indent=1, sort_keys=True)


# --- static ----------------------------------------------------------------
CONSUMER_C = r"""/* Written by tools/xxhash-port.py: XXH3_64bits and XXH3_128bits (the
 * _dispatch entry points) of each file named, from an installed libxxhash. */
#include <stdio.h>
#include <stdlib.h>
#define XXH_STATIC_LINKING_ONLY
#include "xxhash.h"
#include "xxh_x86dispatch.h"

int main(int argc, char **argv) {
  int i;
  for (i = 1; i < argc; ++i) {
    FILE *f = fopen(argv[i], "rb");
    long n;
    unsigned char *buf;
    XXH128_hash_t h;
    if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) return 2;
    buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) return 2;
    fclose(f);
    h = XXH3_128bits(buf, (size_t)n);
    printf("%016llx %016llx%016llx %s\n", (unsigned long long)XXH3_64bits(buf, (size_t)n),
           (unsigned long long)h.high64, (unsigned long long)h.low64, argv[i]);
    free(buf);
  }
  return 0;
}
"""
CONSUMER_CMAKE = """# Written by tools/xxhash-port.py: the installed package, found and linked.
cmake_minimum_required(VERSION 3.16)
project(xxhash_consumer LANGUAGES C)
find_package(xxHash 0.8 CONFIG REQUIRED)
add_executable(consumer consumer.c)
target_link_libraries(consumer PRIVATE xxHash::xxhash)
"""


def static(a):
    """The port as a static library (BUILD_SHARED_LIBS=OFF), installed, and
    linked from the install by a plain gcc and by find_package(xxHash): it
    holds the kernels and cpudispatch's runtime itself."""
    src = builds(a)['port'][0]
    b, prefix, c = (os.path.join(a.work, d) for d in ('build-static', 'static-prefix', 'static-consumer'))
    for d in (b, prefix, c):
        shutil.rmtree(d, ignore_errors=True)
    run(['cmake', '-S', os.path.join(src, 'cmake_unofficial'), '-B', b, '-G', 'Ninja', '-DCMAKE_BUILD_TYPE=Release',
         '-DCMAKE_C_COMPILER=gcc', '-DDISPATCH=ON', '-DBUILD_SHARED_LIBS=OFF', '-DCMAKE_INSTALL_PREFIX=' + prefix,
         '-DXXHASH_CPUDISPATCH_DIR=' + a.cpudispatch, '-DCPUD_PYTHON=' + sys.executable], capture_output=True)
    run(['cmake', '--build', b, '-j', str(a.jobs)], capture_output=True)
    run(['cmake', '--install', b], capture_output=True)
    lib = [os.path.join(d, f) for d, _, fs in os.walk(prefix) for f in fs if f == 'libxxhash.a']
    if len(lib) != 1:
        die('no one libxxhash.a under %s' % prefix)
    os.makedirs(c)
    open(os.path.join(c, 'consumer.c'), 'w').write(CONSUMER_C)
    open(os.path.join(c, 'CMakeLists.txt'), 'w').write(CONSUMER_CMAKE)
    plain = os.path.join(c, 'consumer-gcc')
    run(['gcc', '-O2', os.path.join(c, 'consumer.c'), '-I', os.path.join(prefix, 'include'), lib[0], '-o', plain])
    run(['cmake', '-S', c, '-B', os.path.join(c, 'build'), '-G', 'Ninja', '-DCMAKE_C_COMPILER=gcc',
         '-DCMAKE_PREFIX_PATH=' + prefix], capture_output=True)
    run(['cmake', '--build', os.path.join(c, 'build')], capture_output=True)
    _, files = make_data(a)
    orig = os.path.join(builds(a)['orig'][1], 'xxhsum')
    want = {}
    for line in out([orig, '-H3'] + files, quiet=True).splitlines():
        m = re.match(r'^XXH3 \((.*)\) = ([0-9a-f]{16})$', line)
        want[m.group(1)] = m.group(2)
    for line in out([orig, '-H2'] + files, quiet=True).splitlines():
        h, f = line.split(None, 1)
        want[f] += ' ' + h
    bad = []
    for exe in (plain, os.path.join(c, 'build', 'consumer')):
        for wrap in ([], ['qemu-x86_64', '-cpu', 'Nehalem'], ['qemu-x86_64', '-cpu', 'Haswell']):
            got = {}
            for line in out(wrap + [exe] + files, quiet=True).splitlines():
                h64, h128, f = line.split(None, 2)
                got[f] = h64 + ' ' + h128
            if got != want:
                bad.append(' '.join(wrap + [os.path.basename(exe)]))
    if bad:
        die('the installed static libxxhash gives other hashes than the original build: %s' % ', '.join(bad))
    # The runtime's start-up check came with the library: a bad variable
    # stops the program before main (78), as in any cpudispatch program.
    r = subprocess.run([plain, files[0]], capture_output=True, text=True,
                       env=dict(os.environ, XXHASH_DISABLE_CPU_FEATURES='nosuch'))
    if r.returncode != 78 or 'XXHASH_DISABLE_CPU_FEATURES' not in r.stderr:
        die('the plain program with XXHASH_DISABLE_CPU_FEATURES=nosuch: exit %d, %s' % (r.returncode, r.stderr))
    libs = sorted(set(l.split()[-1].split('@')[0] for l in out(['nm', '-u', plain]).splitlines()))
    say('static: %s installed; a plain gcc and find_package(xxHash) link it alone and print the original\'s '
        'XXH3 and XXH128 of %d files natively and under qemu Nehalem and Haswell; XXHASH_DISABLE_CPU_FEATURES=nosuch '
        'stops it with 78; what it needs besides: %s' % (os.path.relpath(lib[0], a.work), len(files), ' '.join(libs)))
    save(a, 'static', {'lib': os.path.relpath(lib[0], a.work), 'files': len(files), 'ok': True, 'undefined': libs})


# --- test ------------------------------------------------------------------
class Tests:
    def __init__(self, a):
        self.a = a
        self.bad = []
        self.counts = {}
        self.orig = os.path.join(builds(a)['orig'][1], 'xxhsum')
        self.port = os.path.join(builds(a)['port'][1], 'xxhsum')
        found = [os.path.join(d, 'cpudispatch-run') for d, _, files in os.walk(builds(a)['port'][1])
                 if 'cpudispatch-run' in files]
        if len(found) != 1:
            die('no one cpudispatch-run in %s: %s' % (builds(a)['port'][1], found))
        self.cdr = found[0]

    def check(self, what, ok, detail=''):
        self.counts[what.split(':')[0]] = self.counts.get(what.split(':')[0], 0) + 1
        if not ok:
            self.bad.append(what)
            say('FAILED', what, detail[-2000:])

    def hashes(self, exe, args, wrap=(), stdin=None):
        r = subprocess.run(list(wrap) + [exe] + args, capture_output=True, text=True, stdin=stdin)
        return r.returncode, r.stdout, r.stderr


def make_data(a):
    d = os.path.join(a.work, 'data')
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    rng = random.Random(20240816)
    files = []
    for n in SIZES:
        p = os.path.join(d, 'r%08d.bin' % n)
        open(p, 'wb').write(rng.randbytes(n))
        files.append(p)
    for f in ('xxhash.h', 'README.md', 'LICENSE'):
        files.append(os.path.join(a.work, 'orig', f))
    return d, files


def test(a):
    t = Tests(a)
    d, files = make_data(a)
    targets = out([t.cdr, '--list-targets']).split()
    cpus = out([t.cdr, '--list-cpus']).split()
    say('cpudispatch-run:', t.cdr)
    say('compiled targets (--list-targets):', ' '.join(targets), '; qemu models (--list-cpus):', ' '.join(cpus))
    runnable = [x for x in targets if x == 'baseline' or
                run([t.cdr, '--target', x, '--', 'true'], check=False, quiet=True).returncode == 0]
    say('this CPU runs:', ' '.join(runnable))

    # 1. Every mode's output from the original build is the reference.
    ref = {}
    refdir = os.path.join(a.work, 'ref')
    shutil.rmtree(refdir, ignore_errors=True)
    os.makedirs(refdir)
    for mode in MODES:
        rc, o, e = t.hashes(t.orig, mode + files)
        if rc != 0:
            die('the original xxhsum %s failed: %s' % (' '.join(mode), e))
        ref[' '.join(mode)] = o
        name = 'ref' + ''.join(mode).replace('-', '_') + '.xxh'
        open(os.path.join(refdir, name), 'w').write(o)
    sums = sorted(os.path.join(refdir, f) for f in os.listdir(refdir))
    say('reference: %d modes x %d files (%s) from the original build; checksum files in %s'
        % (len(MODES), len(files), ', '.join(str(n) for n in SIZES[:6]) + ', ... %d bytes' % SIZES[-1], refdir))

    # 2. The port's output, plainly and per target, equals it.
    for label, wrap in [('plain', [])] + [('target ' + x, [t.cdr, '--target', x, '--']) for x in runnable]:
        for mode in MODES:
            rc, o, e = t.hashes(t.port, mode + files, wrap)
            t.check('hashes: %s xxhsum %s' % (label, ' '.join(mode)), rc == 0 and o == ref[' '.join(mode)], e)
        for mode in (['-H2'], ['-H3']):  # stdin, streaming
            with open(files[-4], 'rb') as fh:
                rc, o, e = t.hashes(t.port, mode, wrap, stdin=fh)
            with open(files[-4], 'rb') as fh:
                want = t.hashes(t.orig, mode, stdin=fh)[1]
            t.check('hashes: %s xxhsum %s < %s' % (label, mode[0], os.path.basename(files[-4])), o == want, e)
    for m in cpus:  # XXH128 and XXH3 under each qemu model
        for mode in (['-H2'], ['-H3']):
            rc, o, e = t.hashes(t.port, mode + files, [t.cdr, '--cpu', m, '--'])
            t.check('hashes: cpu %s xxhsum %s' % (m, mode[0]), rc == 0 and o == ref[mode[0]], e)
    say('hashes: the port\'s xxhsum prints the original\'s hashes, plainly, on %s and under %s: %d runs, %d failed'
        % (' '.join(runnable), ' '.join(cpus), t.counts.get('hashes', 0),
           len([b for b in t.bad if b.startswith('hashes')])))

    # 3. xxhsum -c of the original's checksum files: plainly, --each-target,
    # --each-cpu; and a control that must fail.
    badsum = os.path.join(a.work, 'bad.xxh')
    lines = open(sums[0]).read().splitlines()
    open(badsum, 'w').write(''.join(l.replace(l[:2], 'ff' if l[:2] != 'ff' else '00', 1) + '\n'
                                    if i == len(lines) // 2 else l + '\n' for i, l in enumerate(lines)))
    runs = {}
    for label, wrap, what in [('plain', [], sums), ('--each-target', [t.cdr, '--each-target', '--'], sums),
                              ('--each-cpu', [t.cdr, '--each-cpu', '--'], sums)]:
        t0 = time.time()
        # As xxHash's Makefile checks them: the little-endian files (without
        # a tag, nothing in the line says so) with --little-endian.
        le = [s for s in what if 'little_endian' in s]
        for args in (['-c'] + [s for s in what if s not in le], ['-c', '--little-endian'] + le):
            r = subprocess.run(wrap + [t.port] + args, capture_output=True, text=True)
            t.check('check: xxhsum %s %s' % (' '.join(args[:2]), label), r.returncode == 0,
                    r.stdout[-1500:] + r.stderr[-1500:])
        runs[label] = round(time.time() - t0, 1)
        r = subprocess.run(wrap + [t.port, '-c', badsum], capture_output=True, text=True)
        fails = (r.stdout + r.stderr).count('FAILED')
        t.check('check: xxhsum -c on a wrong line %s fails' % label, r.returncode != 0 and fails > 0,
                r.stdout[-1500:] + r.stderr[-1500:])
    say('xxhsum -c of %d checksum files (%d lines): plain, --each-target (%s), --each-cpu (%s): seconds %s'
        % (len(sums), sum(len(open(s).read().splitlines()) for s in sums), ' '.join(runnable), ' '.join(cpus),
           runs))

    # 4. xxHash's tests/sanity_test.c (every length 0..4160 of every XXH3
    # variant, one-shot, random and byte-by-byte streaming) against each
    # build's dispatched entry points.
    sanity = {}
    for label, exe, wrap in [
            ('inline copy (as shipped)', os.path.join(a.work, 'sanity_test_inline'), []),
            ('orig plain', os.path.join(builds(a)['orig'][1], 'sanity_test_dispatch'), []),
            ('port plain', os.path.join(builds(a)['port'][1], 'sanity_test_dispatch'), []),
            ('port --each-target', os.path.join(builds(a)['port'][1], 'sanity_test_dispatch'),
             [t.cdr, '--each-target', '--']),
            ('port --each-cpu', os.path.join(builds(a)['port'][1], 'sanity_test_dispatch'),
             [t.cdr, '--each-cpu', '--']),
            ('orig --each-cpu', os.path.join(builds(a)['orig'][1], 'sanity_test_dispatch'),
             [t.cdr, '--each-cpu', '--'])]:
        t0 = time.time()
        r = subprocess.run(wrap + [exe], capture_output=True, text=True)
        sanity[label] = round(time.time() - t0, 1)
        t.check('sanity: %s' % label, r.returncode == 0, r.stdout[-1500:] + r.stderr[-1500:])
        say('sanity_test %-26s exit %d, %5.1f s%s' % (label, r.returncode, sanity[label],
                                                       (': ' + (r.stdout + r.stderr).strip().splitlines()[-1])
                                                       if (r.stdout + r.stderr).strip() else ''))

    # 5. What xxHash's Makefile check runs of xxhsum (its self-test, the
    # internal and file benchmarks with no iteration, the variants), on the
    # port, per target: each must succeed (-H9: must fail with 1).
    cmds = [(['-bi0'], 0), (['--benchmark-all', '-i0'], 0), (['-b1,2,3', '-i0'], 0),
            (['-bi0', files[-4]], 0), (['-H0', files[-4]], 0), (['-H2', files[-4]], 0), (['-H3', files[-4]], 0),
            (['-H9', files[-4]], 1), (['--version'], 0)]
    for args, want in cmds:
        r = subprocess.run([t.cdr, '--each-target', '--', t.port] + args, capture_output=True, text=True)
        if want == 0:
            ok = r.returncode == 0
        else:  # cpudispatch-run --each-target: 1 if any run failed; every run must have failed
            ok = r.returncode == 1 and r.stdout.count('FAILED (exit 1)') == len(runnable)
        t.check('cli: --each-target xxhsum %s' % ' '.join(args), ok, r.stdout[-800:] + r.stderr[-800:])
    # xxHash's shell tests of the CLI (tests/*.sh), with the port's xxhsum
    # as ./xxhsum beside them, plainly and per target.
    sh = os.path.join(a.work, 'test-sh')
    shutil.rmtree(sh, ignore_errors=True)
    shutil.copytree(os.path.join(a.work, 'src', 'tests'), sh)
    shutil.copyfile(t.port, os.path.join(sh, 'xxhsum'))
    os.chmod(os.path.join(sh, 'xxhsum'), 0o755)
    scripts = sorted(f for f in os.listdir(sh) if f.startswith(('cli-', 'filename-')) and f.endswith('.sh'))
    for s in scripts:
        for label, wrap in (('plain', []), ('--each-target', [t.cdr, '--each-target', '--'])):
            r = subprocess.run(wrap + ['bash', s], cwd=sh, capture_output=True, text=True)
            t.check('cli: %s tests/%s' % (label, s), r.returncode == 0, r.stdout[-800:] + r.stderr[-800:])
    say('xxhsum\'s CLI checks (the Makefile\'s xxhsum runs, tests/%s): %d runs, %d failed'
        % (', tests/'.join(scripts), t.counts.get('cli', 0), len([b for b in t.bad if b.startswith('cli')])))

    # 6. Which build each entry point ran: per target, and under each model.
    probe = os.path.join(builds(a)['port'][1], 'xxh3_probe')
    models = read_models().get('x86_64', (None, None, {}))[2]
    expect = [('plain', [], runnable[-1])] + [('target ' + x, [t.cdr, '--target', x, '--'], x) for x in runnable]
    for m in cpus:
        want = 'baseline'
        for x in ('AVX2', 'AVX512_SKX'):
            if x in targets and m in models and NEEDS[x] <= models[m]:
                want = x
        expect.append(('cpu ' + m, [t.cdr, '--cpu', m, '--'], want))
    probes = {}
    for label, wrap, want in expect:
        r = subprocess.run(wrap + [probe], capture_output=True, text=True)
        got = dict(l.split(None, 1) for l in r.stdout.splitlines() if ' ' in l)
        ran = sorted(set(got.get(f) for f in FUNCTIONS), key=str)
        probes[label] = ran[0] if len(ran) == 1 else ran
        t.check('probe: %s' % label, r.returncode == 0 and ran == [want] and r.stdout.rstrip().endswith('ok'),
                'wanted %s, got %s %s' % (want, got, r.stderr[-500:]))
    say('the eight entry points ran: %s' % ', '.join('%s: %s' % kv for kv in probes.items()))

    save(a, 'test', {'targets': targets, 'runnable': runnable, 'cpus': cpus, 'counts': t.counts, 'failed': t.bad,
                     'check_s': runs, 'sanity_s': sanity, 'probe': probes, 'files': len(files)})
    if t.bad:
        die('%d checks failed: %s' % (len(t.bad), '; '.join(t.bad)))
    say('every check passed: %s' % ', '.join('%s %d' % kv for kv in sorted(t.counts.items())))


# --- cross -----------------------------------------------------------------
# qemu-aarch64 models: without SVE, and with it (docs/porting-a-cmake-library.md).
A64_MODELS = {'cortex-a53': 'baseline', 'max': 'SVE'}


def cross(a):
    """The port cross-compiled for aarch64 (cpudispatch's toolchain file),
    where xxHash's own dispatcher does nothing (x86 only) and the port's
    list has SVE: xxhsum and the probe under qemu-aarch64's models, each
    hash checked against the original x86_64 build's."""
    src, b = builds(a)['port'][0], os.path.join(a.work, 'build-aarch64')
    shutil.rmtree(b, ignore_errors=True)
    toolchain = os.path.join(a.cpudispatch, 'cross', 'aarch64-linux-gnu.cmake')
    run(['cmake', '-S', os.path.join(src, 'cmake_unofficial'), '-B', b, '-G', 'Ninja', '-DCMAKE_BUILD_TYPE=Release',
         '-DCMAKE_TOOLCHAIN_FILE=' + toolchain, '-DDISPATCH=ON', '-DXXHASH_CPUDISPATCH_DIR=' + a.cpudispatch,
         '-DCPUD_PYTHON=' + sys.executable], capture_output=True)
    run(['cmake', '--build', b, '-j', str(a.jobs), '--target', 'all', 'xxh3_probe'], capture_output=True)
    built = sorted(f[8:-2] for f in os.listdir(b) if re.match(r'^libxxh3_(?!kernels).*\.a$', f))
    # Each build's vector code: SVE registers (z0.d, ...) in the SVE build
    # alone, NEON's (v0.2d, ...) in the baseline's.
    regs = {}
    for x in built:
        asm = out(['aarch64-linux-gnu-objdump', '-d', os.path.join(b, 'libxxh3_%s.a' % x)], quiet=True)
        regs[x] = {'sve': len(re.findall(r'\bz\d+\.[bhsd]\b', asm)), 'neon': len(re.findall(r'\bv\d+\.\d+[bhsd]\b', asm))}
    say('aarch64: target builds %s; registers named: %s' % (' '.join(built), regs))
    if built != ['SVE', 'baseline'] or not regs['SVE']['sve'] or regs['baseline']['sve']:
        die('aarch64: wanted the builds SVE (with SVE registers) and baseline (without): %s' % regs)
    t = Tests(a)
    _, files = make_data(a)
    ref = {m: t.hashes(t.orig, [m] + files)[1] for m in ('-H2', '-H3')}
    sysroot = '/usr/aarch64-linux-gnu'
    results = {}
    for model, want in A64_MODELS.items():
        wrap = ['qemu-aarch64', '-cpu', model, '-L', sysroot, '-E', 'LD_LIBRARY_PATH=%s/lib:%s' % (sysroot, b)]
        for m in ('-H2', '-H3'):
            rc, o, e = t.hashes(os.path.join(b, 'xxhsum'), [m] + files, wrap)
            t.check('cross: %s xxhsum %s' % (model, m), rc == 0 and o == ref[m], e[-500:])
        r = subprocess.run(wrap + [os.path.join(b, 'xxh3_probe')], capture_output=True, text=True)
        got = dict(l.split(None, 1) for l in r.stdout.splitlines() if ' ' in l)
        ran = sorted(set(got.get(f) for f in FUNCTIONS), key=str)
        results[model] = ran[0] if len(ran) == 1 else ran
        t.check('cross: %s probe' % model, r.returncode == 0 and ran == [want] and r.stdout.rstrip().endswith('ok'),
                'wanted %s, got %s %s' % (want, got, r.stderr[-500:]))
    say('aarch64 under qemu: the eight entry points ran %s; XXH128 and XXH3 of %d files as the x86_64 original '
        'prints them: %d checks, %d failed' % (results, len(files), t.counts.get('cross', 0), len(t.bad)))
    save(a, 'cross', {'built': built, 'registers': regs, 'probe': results, 'counts': t.counts, 'failed': t.bad})
    if t.bad:
        die('%d checks failed: %s' % (len(t.bad), '; '.join(t.bad)))


# --- bench -----------------------------------------------------------------
BENCH_LINE = re.compile(r'^\s*(\d+)#(.+?)\s*:\s*(\d+) ->\s*(\d+) it/s \(\s*([\d.]+) MB/s\)', re.M)


def bench(a):
    """xxhsum -b on both builds in turn, the same run, alternating which goes
    first; the median of the rounds per hash; ratio: ported / original."""
    exes = {w: os.path.join(b, 'xxhsum') for w, (_, b) in builds(a).items()}
    # 5 XXH3_64b, 6 unaligned, 7 seeded, 11 XXH128, 12 unaligned, 13 seeded,
    # 21 XXH3_stream, 25 XXH128_stream (xxhsum -b's numbering: 2k+1 aligned,
    # 2k+2 unaligned over its list of hashes).
    ids = '5,6,7,11,12,13,21,25'
    res = {}
    for size in a.sizes:
        got = {w: {} for w in exes}
        for r in range(a.rounds):
            order = ['orig', 'port'] if r % 2 == 0 else ['port', 'orig']
            for w in order:
                p = run([exes[w], '-b' + ids, '-i%d' % a.iterations, '-B%d' % size], capture_output=True, text=True,
                        quiet=r > 0)
                for m in BENCH_LINE.finditer((p.stdout + p.stderr).replace('\r', '\n')):
                    got[w].setdefault('%s %s' % (m.group(1), m.group(2).strip()), []).append(float(m.group(5)))
        say('xxhsum -b%s -i%d -B%d, %d rounds, median MB/s:' % (ids, a.iterations, size, a.rounds))
        say('  %-28s %10s %10s %7s' % ('hash', 'original', 'ported', 'ratio'))
        rows = {}
        for k in got['orig']:
            o, p = statistics.median(got['orig'][k]), statistics.median(got['port'].get(k, [0]))
            rows[k] = {'orig': o, 'port': p, 'ratio': round(p / o, 3), 'orig_all': got['orig'][k],
                       'port_all': got['port'].get(k, [])}
            say('  %-28s %10.1f %10.1f %7.3f' % (k, o, p, p / o))
        res[str(size)] = rows
    path = os.path.join(a.work, 'results.json')
    prev = json.load(open(path)).get('bench', {}) if os.path.exists(path) else {}
    rows = dict(prev.get('rows', {}), **res)
    save(a, 'bench', {'ids': ids, 'rounds': a.rounds, 'iterations': a.iterations, 'rows': rows})


# --- report ----------------------------------------------------------------
def tree_files(top):
    out_ = {}
    for d, dirs, files in os.walk(top):
        dirs[:] = [x for x in dirs if x != '.git']
        for f in files:
            p = os.path.join(d, f)
            out_[os.path.relpath(p, top)] = open(p, 'rb').read()
    return out_


def report(a):
    o, s = tree_files(os.path.join(a.work, 'orig')), tree_files(os.path.join(a.work, 'src'))
    changed = sorted(f for f in o if f in s and o[f] != s[f])
    added = sorted(f for f in s if f not in o)
    removed = sorted(f for f in o if f not in s)
    say('xxHash files changed: %s; added: %s; removed: %s' % (', '.join(changed) or 'none', ', '.join(added) or 'none',
                                                             ', '.join(removed) or 'none'))
    diff = open(os.path.join(a.work, 'CMakeLists.diff')).read().splitlines()
    plus = sum(1 for l in diff if l.startswith('+') and not l.startswith('+++'))
    minus = sum(1 for l in diff if l.startswith('-') and not l.startswith('---'))
    say('cmake_unofficial/CMakeLists.txt: %d lines out, %d in' % (minus, plus))
    counts = {}
    for label, path in [('xxh_x86dispatch.c (replaced)', os.path.join(a.work, 'orig', 'xxh_x86dispatch.c'))] + [
            (f, os.path.join(PORT_FILES, f)) for f in ('xxh3.dispatch.c', 'xxh3_dispatch_api.c',
                                                       'xxh3_dispatch.cmake', 'xxh3_probe.c', 'sanity_dispatch.h')]:
        counts[label] = lines_of(path)
        say('  %-30s %4d lines, %4d of code' % ((label,) + counts[label]))
    mine = [counts[f] for f in ('xxh3.dispatch.c', 'xxh3_dispatch_api.c')]
    say('the replacement of xxh_x86dispatch.c: %d lines (%d of code) for its %d (%d of code)'
        % ((sum(m[0] for m in mine), sum(m[1] for m in mine)) + counts['xxh_x86dispatch.c (replaced)']))
    save(a, 'report', {'changed': changed, 'added': added, 'removed': removed, 'cmake_minus': minus,
                       'cmake_plus': plus, 'lines': counts})


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--xxhash', required=True, help='an xxHash v0.8.2 tree')
    ap.add_argument('--cpudispatch', default=ROOT, help='cpudispatch\'s source tree (default: %(default)s)')
    ap.add_argument('--work', required=True)
    ap.add_argument('--steps', default=','.join(STEPS))
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--rounds', type=int, default=5, help='bench: rounds of both builds (default 5)')
    ap.add_argument('--iterations', type=int, default=3, help='bench: xxhsum -i (default 3)')
    ap.add_argument('--sizes', default='1048576,100000', help='bench: xxhsum -B sizes (default %(default)s)')
    a = ap.parse_args()
    a.xxhash, a.work, a.cpudispatch = (os.path.abspath(p) for p in (a.xxhash, a.work, a.cpudispatch))
    a.sizes = [int(x) for x in a.sizes.split(',')]
    os.makedirs(a.work, exist_ok=True)
    steps = a.steps.split(',')
    for s in steps:
        if s not in STEPS:
            die('unknown step "%s" (%s)' % (s, ', '.join(STEPS)))
    for s in STEPS:
        if s in steps:
            globals()[s](a)


if __name__ == '__main__':
    main()
