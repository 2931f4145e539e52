#!/usr/bin/env python3
"""Known compiler bugs (a feature row's 'broken' key) through the real build.

The real tables list no bug of the compilers this suite runs with, so this
test configures a copy of the project whose x86_64 table has one: an entry
whose version range is exactly the running compiler's version (read from the
compiler, as Meson does) on AVX512FP16, plus two entries on GFNI that must
not match (the other compiler id with the same range; this compiler with a
range below its version). The copy lives in a temporary directory, so no
false claim ever reaches the real table and the build needs no test-only
option. Like test/configure/run_grid.py, the copy is configured as the
subproject of the fixture consumer project.

  (a) default options: AVX512FP16 is left out of dispatch with the reason in
      the summary, AVX512_SPR (which implies it) with it, GFNI stays;
  (b) -Dcpudispatch:allow-broken-compilers=avx512fp16 (and a ppc64le name,
      ignored): both are back, with a warning;
  (c) AVX512FP16 in cpu-baseline: a configure error naming the bug and the
      option;
  (d) an unknown name in allow-broken-compilers: a configure error naming
      the token and listing the valid names.

The compiler comes from $CC/$CXX (meson.build passes the build's own).
Exit 0 pass, 1 fail, 77 skip.
"""
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, HERE)
from resolved import read_resolved  # noqa: E402  (test/configure/resolved.py)

ROW = 'AVX512FP16'        # gets the matching entry
IMPLIED_BY = 'AVX512_SPR'  # implies ROW: left out with it
ALSO_OUT = ('AVX10_1',)    # implies IMPLIED_BY: left out with it too
OTHER = 'GFNI'             # gets the entries that must not match
WHY = 'TEST-ONLY entry of test/configure/broken_compilers.py'


def compiler_id_version(cc):
    """('gcc'|'clang', 'X.Y.Z') from the predefined macros, as Meson reads them."""
    out = subprocess.run(cc + ['-dM', '-E', '-x', 'c', os.devnull],
                         capture_output=True, text=True, check=True).stdout
    m = dict(re.findall(r'#define (__\w+__) (\S+)', out))
    if '__clang__' in m:
        return 'clang', '%s.%s.%s' % (m['__clang_major__'], m['__clang_minor__'], m['__clang_patchlevel__'])
    return 'gcc', '%s.%s.%s' % (m['__GNUC__'], m['__GNUC_MINOR__'], m['__GNUC_PATCHLEVEL__'])


def copy_tree(dst):
    """The project without its git data and any build directory inside it."""
    def ignore(d, names):
        skip = {'.git', '__pycache__'}
        for n in names:
            p = os.path.join(d, n)
            if os.path.isdir(p) and (os.path.exists(os.path.join(p, 'meson-private'))
                                     or os.path.exists(os.path.join(p, 'build.ninja'))):
                skip.add(n)
        return skip & set(names)
    shutil.copytree(ROOT, dst, ignore=ignore)


def add_entries(table, row, entries):
    with open(table) as fh:
        src = fh.read()
    head = "{'name': '%s', " % row
    if src.count(head) != 1:
        raise SystemExit('FAIL: %s has no single row starting %r' % (table, head))
    src = src.replace(head, head + "'broken': %s, " % entries)
    with open(table, 'w') as fh:
        fh.write(src)


def entry(compiler, versions):
    return "{'compiler': '%s', 'versions': %r, 'why': '%s'}" % (compiler, versions, WHY)


def main():
    if platform.machine() not in ('x86_64', 'AMD64'):
        print('the injected entries are on x86_64 rows; skipped on', platform.machine())
        return 77
    cc = os.environ.get('CC', 'cc').split()
    cid, ver = compiler_id_version(cc)
    other = 'clang' if cid == 'gcc' else 'gcc'
    shown = {'gcc': 'GCC', 'clang': 'Clang'}[cid]
    print('compiler: %s %s' % (cid, ver))
    tmp = tempfile.mkdtemp(prefix='cpud-broken-')
    failures = []
    try:
        proj = os.path.join(tmp, 'proj')
        shutil.copytree(os.path.join(HERE, 'fixture'), proj)
        for f in ('sum.dispatch.c', 'scale.dispatch.cpp', 'main.cpp'):
            shutil.copy(os.path.join(ROOT, 'examples', 'consumer', 'src', f), os.path.join(proj, 'src', f))
        sub = os.path.join(proj, 'subprojects', 'cpudispatch')
        copy_tree(sub)
        table = os.path.join(sub, 'src', 'features', 'x86_64', 'table.py')  # a Python literal
        add_entries(table, ROW, '[%s]' % entry(cid, ['>=' + ver, '<=' + ver]))
        add_entries(table, OTHER, '[%s, %s]' % (entry(other, ['>=' + ver, '<=' + ver]),
                                                entry(cid, ['<' + ver])))

        def setup(name, args):
            build = os.path.join(tmp, name)
            cmd = ['meson', 'setup', build, proj] + args
            print('$', ' '.join(cmd))
            p = subprocess.run(cmd, capture_output=True, text=True)
            # The summary wraps long lists: compare with whitespace folded.
            return build, p.returncode, re.sub(r'\s+', ' ', p.stdout + p.stderr), p.stdout + p.stderr

        def need(cond, what, log):
            if not cond:
                failures.append(what)
                print(log[-5000:])
                print('FAIL:', what)

        reason = re.escape('%s: %s %s is known to miscompile it (%s); -Dallow-broken-compilers=%s overrides'
                           % (ROW, shown, ver, WHY, ROW))
        # (a) the entry matches: ROW and what implies it are left out, with the reason.
        a = None
        build, rc, log, raw = setup('a', ['-Dcpudispatch:summary-skipped=all'])  # every reason listed
        need(rc == 0, '(a) configure failed', raw)
        if rc == 0:
            a = read_resolved(build)['dispatch']
            need(ROW not in a and IMPLIED_BY not in a, '(a) %s / %s still in dispatch: %s' % (ROW, IMPLIED_BY, a), raw)
            need(OTHER in a, '(a) %s, whose entries do not match, was left out' % OTHER, raw)
            need(re.search(reason, log), '(a) the summary lacks /%s/' % reason, raw)
            need(re.search(r'known-broken\s*: %s (?!\(allowed\))' % ROW, log),
                 '(a) the summary does not list %s as known-broken' % ROW, raw)
            need(re.search(re.escape('%s: needs %s, which is not enabled' % (IMPLIED_BY, ROW)), log),
                 '(a) the summary does not say why %s is left out' % IMPLIED_BY, raw)
        # (b) the option overrides it: both come back, with a warning; another arch's name is ignored.
        build, rc, log, raw = setup('b', ['-Dcpudispatch:allow-broken-compilers=avx512fp16, vsx4'])
        need(rc == 0, '(b) configure failed', raw)
        if rc == 0:
            b = read_resolved(build)['dispatch']
            need(ROW in b and IMPLIED_BY in b and OTHER in b, '(b) dispatch lacks %s/%s/%s: %s'
                 % (ROW, IMPLIED_BY, OTHER, b), raw)
            need(a is None or [x for x in b if x not in (ROW, IMPLIED_BY) + ALSO_OUT] == a,
                 '(b) differs from (a) by more than %s %s' % (ROW, IMPLIED_BY), raw)
            need(re.search(re.escape('WARNING: allow-broken-compilers: dispatch target %s is built although %s %s is known'
                                     % (ROW, shown, ver)), log), '(b) no warning that %s is built anyway' % ROW, raw)
            need(re.search(r'known-broken\s*: %s \(allowed\)' % ROW, log), '(b) the summary does not show the override', raw)
            need(re.search(r'allow-broken-compilers: "VSX4" is a feature of ppc64le; ignored on x86_64', log),
                 '(b) the ppc64le name was not ignored with a message', raw)
        # (c) in the baseline it is a configure error.
        build, rc, log, raw = setup('c', ['-Dcpudispatch:cpu-baseline=min +avx512fp16'])
        rx = re.escape('cpu-baseline: baseline feature %s: %s %s is known to miscompile it (%s).'
                       % (ROW, shown, ver, WHY)) + r'.*-Dallow-broken-compilers=' + ROW
        need(rc != 0 and re.search(rx, log), '(c) no configure error /%s/' % rx, raw)
        # (d) an unknown name is an error that lists the valid ones.
        build, rc, log, raw = setup('d', ['-Dcpudispatch:allow-broken-compilers=avx513'])
        rx = (r'allow-broken-compilers: unknown CPU feature "AVX513" in "avx513"; '
              r'valid names on x86_64: SSE SSE2 .* APX_F \(case-insensitive\)')
        need(rc != 0 and re.search(rx, log), '(d) no configure error /%s/' % rx, raw)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        return 1
    print('PASS')
    return 0


if __name__ == '__main__':
    sys.exit(main())
