#!/usr/bin/env python3
"""An assembly kernel per target (docs/assembly.md): test/asm/fixture's
src/sum_u8.dispatch.S, a dispatch source in the quickstart's loop, built
through a release wrap (git HEAD) four ways, side by side:

  gcc      native GCC: plain `meson test`, `each_target`, `each_cpu`
  clang    native Clang (its integrated assembler): plain `meson test`
  aarch64  GCC cross build under qemu-aarch64's models (`each_cpu`): the
           ASIMDDP build's UDOT, which the assembler takes only with the
           target's flags
  mingw    MinGW-w64 GCC cross build under Wine (plain, `each_target`): the
           Windows x64 calling convention and the mark in a COFF object

Each builds one library per target of the list the baseline lacks
(baseline and AVX2; baseline and ASIMDDP), each defining one symbol, the
kernel's, behind the build's namespace and ending in its target; a target's
object carries the `.cpud_target` mark that cpudispatch-check reads; and
each run (a setup's runs follow their banners) checks the kernel against a
C loop and ran the build its CPU selects (test/cpu_facts.py is the oracle:
AVX2 where the CPU has what cpudispatch's AVX2 needs, ASIMDDP where the
model has asimddp).

The assemblers do what docs/assembly.md says: GCC's and Clang's x86 take
an AVX2 instruction without AVX2 flags; AArch64's takes UDOT only with
+dotprod.

Control: the GCC project again with src/raw.dispatch.S added to its dict,
an assembly kernel whose symbol is a plain label (`raw_sum`, not
CPUD_FN(...)): every build defines that one global name outside the
namespace, and the build must stop at cpudispatch-check naming it.

  run_asm.py SOURCE_ROOT   (exit 0 pass, 1 fail, 77 skip)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import cpu_facts  # noqa: E402  (test/cpu_facts.py)
import side_by_side  # noqa: E402  (test/side_by_side.py)

root = os.path.abspath(sys.argv[1])
failures = side_by_side.failures


def selected(arch, flags):
    if arch == 'aarch64':
        return 'ASIMDDP' if 'asimddp' in flags else 'baseline'
    return 'AVX2' if cpu_facts.AVX2 <= flags else 'baseline'


class Build(side_by_side.Build):
    def __init__(self, tmp, name, arch, opts, env=None):
        super().__init__(tmp, name, opts, env)
        self.arch = arch
        prefix = {'aarch64': 'aarch64-linux-gnu-', 'windows': 'x86_64-w64-mingw32-'}.get(arch, '')
        self.tool = lambda t: prefix + t

    def build(self):
        if not self.setup():
            return False
        r = self.sh(['ninja', '-C', self.dir])
        if r.returncode:
            return False
        warned = [l for l in r.stdout.splitlines() if 'warning' in l and 'subprojects' not in l]
        if warned:
            self.fail('the fixture compiled with warnings:\n' + '\n'.join(warned))
        want = ['baseline', 'ASIMDDP' if self.arch == 'aarch64' else 'AVX2']
        built = sorted(re.findall(r'Linking static target libsum_u8_(\w+)\.a', r.stdout))
        self.log.append('  built sum_u8 for %s' % ', '.join(built))
        if built != sorted(want):
            self.fail('built sum_u8 for %s, expected %s' % (built, want))
        for t in built:
            lib = os.path.join(self.dir, 'libsum_u8_%s.a' % t)
            names = [l.split()[-1] for l in self.sh([self.tool('nm'), '-g', '--defined-only', lib]).stdout.splitlines()
                     if len(l.split()) == 3]
            self.log.append('  libsum_u8_%s.a defines %s' % (t, ' '.join(names)))
            if len(names) != 1 or not re.match(r'^\w+__sum_u8_%s$' % t, names[0]):
                self.fail('libsum_u8_%s.a should define one name, NAMESPACE__sum_u8_%s: %s' % (t, t, names))
            if self.arch == 'windows':  # COFF: the section's bytes
                dump = self.sh([self.tool('objdump'), '-s', '-j', '.cpud_target', lib], check=False).stdout
                mark = ''.join(l[43:] for l in dump.splitlines() if re.match(r'^ [0-9a-f]{4} ', l))
            else:
                mark = self.sh([self.tool('readelf'), '-p', '.cpud_target', lib], check=False).stdout
            if (t != 'baseline') != ('cpudispatch target %s' % t in mark):
                self.fail('libsum_u8_%s.a: the .cpud_target mark is %s' % (t, 'missing' if t != 'baseline'
                                                                         else 'there in baseline code'))
        return True

    def test(self, setup, expected, plain_run):
        status, out = self.meson_test(setup, check=False)
        got = {}
        for run, line in side_by_side.runs(out, plain_run):
            m = re.match(r'sum_u8: (\S+)$', line)
            if m:
                got[run] = m.group(1)
        label = setup or 'plain meson test'
        self.log.append('  %s: %s' % (label, got))
        if status:
            self.fail('%s: the test failed (status %d)' % (label, status))
        elif got != expected:
            self.fail('%s: ran %s, expected %s' % (label, got, expected))


def gcc(b):
    if not b.build():
        return
    host = cpu_facts.host_flags(quiet=True)
    b.test(None, {'this CPU': selected('x86_64', host)}, 'this CPU')
    b.test('each_target', {t: t for t in ['baseline'] + (['AVX2'] if cpu_facts.AVX2 <= host else [])}, '')
    b.test('each_cpu', {m: selected('x86_64', f) for m, f in cpu_facts.models('x86_64').items()}, '')
    # Control: a kernel named by a plain label.
    path = os.path.join(b.src, 'meson.build')
    text = open(path).read()
    line = "{'src/sum_u8.dispatch.S': 'baseline AVX2 ASIMDDP'}"
    if line not in text:
        b.fail('control: the fixture\'s dict is not %s' % line)
        return
    with open(path, 'w') as fh:
        fh.write(text.replace(line, line[:-1] + ", 'src/raw.dispatch.S': 'baseline AVX2 ASIMDDP'}"))
    r = b.sh(['ninja', '-C', b.dir], check=False)
    said = [l for l in (r.stdout + r.stderr).splitlines() if 'raw_sum' in l]
    b.log.append('  control: ninja %d; %s' % (r.returncode, said[:1]))
    if r.returncode == 0 or not any('namespace' in l for l in said):
        b.fail('control: a kernel named raw_sum outside the namespace should stop the build at '
               'cpudispatch-check with a line naming it (status %d)\n%s' % (r.returncode, (r.stdout + r.stderr)[-2000:]))


def clang(b):
    if b.build():
        b.test(None, {'this CPU': selected('x86_64', cpu_facts.host_flags(quiet=True))}, 'this CPU')


def windows(b):
    """The Windows x64 calling convention and the COFF mark: under Wine,
    plainly and per target."""
    if b.build():
        host = cpu_facts.host_flags(quiet=True)
        b.test(None, {'this CPU': selected('x86_64', host)}, 'this CPU')
        b.test('each_target', {t: t for t in ['baseline'] + (['AVX2'] if cpu_facts.AVX2 <= host else [])}, '')


def aarch64(b):
    if b.build():
        b.test('each_cpu', {m: selected('aarch64', f) for m, f in cpu_facts.models('aarch64').items()}, '')


def assembler_facts(tmp):
    """What docs/assembly.md says of the assemblers: x86's (GCC's and
    Clang's) take an AVX2 instruction without AVX2 flags; AArch64's refuses
    UDOT without +dotprod and takes it with."""
    def assembles(cc, text, flags):
        path = os.path.join(tmp, 'fact.S')
        with open(path, 'w') as fh:
            fh.write('        .text\nf:\n        %s\n        ret\n' % text)
        return subprocess.run([cc] + flags + ['-c', path, '-o', path + '.o'], capture_output=True).returncode == 0
    avx2, udot = 'vpaddd %ymm0, %ymm0, %ymm0', 'udot v0.4s, v1.16b, v2.16b'
    facts = [('gcc', avx2, ['-march=x86-64', '-mno-avx'], True), ('clang', avx2, ['-march=x86-64', '-mno-avx'], True),
             ('aarch64-linux-gnu-gcc', udot, [], False),
             ('aarch64-linux-gnu-gcc', udot, ['-march=armv8.2-a+dotprod'], True)]
    for cc, text, flags, want in facts:
        got = assembles(cc, text, flags)
        print('%s %s: %s %s' % (cc, ' '.join(flags) or '(no flags)', 'assembles' if got else 'refuses', text))
        if got != want:
            failures.append('docs/assembly.md says %s %s %s %s' % (cc, ' '.join(flags), 'assembles' if want else
                                                                   'refuses', text))


def main():
    need = ['clang', 'nm', 'readelf', 'qemu-x86_64', 'qemu-aarch64', 'aarch64-linux-gnu-gcc',
            'aarch64-linux-gnu-nm', 'aarch64-linux-gnu-readelf', 'x86_64-w64-mingw32-gcc', 'x86_64-w64-mingw32-nm',
            'x86_64-w64-mingw32-objdump', 'wineserver']
    missing = [n for n in need if not shutil.which(n)]
    if missing or os.uname().machine != 'x86_64':
        print('SKIP: needs an x86_64 host with %s' % ' '.join(missing or need))
        return 77
    with tempfile.TemporaryDirectory(prefix='cpud-asm-') as tmp:
        assembler_facts(tmp)
        rel = os.path.join(tmp, 'release')
        shutil.copytree(os.path.join(HERE, 'fixture'), rel)
        os.makedirs(os.path.join(rel, 'subprojects'))
        r = subprocess.run([sys.executable, os.path.join(root, 'tools', 'make-wrap.py'),
                            os.path.join(rel, 'subprojects'), '--allow-dirty'], capture_output=True, text=True)
        if r.returncode:
            print('FAIL: make-wrap.py: ' + r.stdout + r.stderr)
            return 1
        builds = [(gcc, Build(tmp, 'native-gcc', 'x86_64', [], {'CC': 'gcc'})),
                  (clang, Build(tmp, 'native-clang', 'x86_64', [], {'CC': 'clang'})),
                  (aarch64, Build(tmp, 'aarch64-gcc', 'aarch64',
                                  ['--cross-file', os.path.join(root, 'cross', 'aarch64-linux-gnu.txt')])),
                  (windows, Build(tmp, 'mingw-gcc', 'windows',
                                  ['--cross-file', os.path.join(root, 'cross', 'x86_64-w64-mingw32.txt')]))]
        return side_by_side.run_all(builds)


if __name__ == '__main__':
    sys.exit(main())
