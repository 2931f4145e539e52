#!/usr/bin/env python3
"""Builds and tests examples/fallback-chain (docs/fallback-chain.md) from
scratch, as a user would: cpudispatch from a release wrap (tools/make-wrap.py),
`meson setup --wrap-mode=nodownload`. Four builds, side by side (2 cores):

  native   GCC, release: its test under plain `meson test`,
           `--setup cpudispatch:each_target` and `each_cpu`;
  i686     GCC cross build under qemu-i386's models (`each_cpu`): pentium2
           has no SSE2, so every layer is left out there (no layer's list
           has a baseline build on i686);
  aarch64  GCC cross build under qemu-aarch64 (plain): the NEON layer;
           (both cross builds name their cross file inside the unpacked
           wrap, subprojects/cpudispatch-VERSION/cross/, after `meson
           subprojects download`, as docs/wrap.md tells a consumer);
  x86_v3   Clang, debug, -Dcpudispatch:cpu-baseline=x86_v3, under
           `cpu_Haswell`: every x86 layer is baseline code there.

The test prints the chain it built (lowest layer first) and the layer each
operation starts in, after checking both operations against the general
layer on every length up to 300. Each run (a setup's runs follow their
banners on stdout) must have built exactly the chain its CPU allows: general,
then SSE2, SSSE3, AVX2 where the CPU has what each needs (test/cpu_facts.py
is the oracle, not cpudispatch's tables), NEON on aarch64. Each build's
libraries are the layers whose target its baseline does not hold, and the
example compiles without a warning.

Control: the native build again with CPUD__LAST_HEADER_LISTS (dispatch.h:
CPUD_DISPATCH_DEFINE takes the lists of the last dispatch header included,
as before each header named its sources' functions). src/blit.c includes
all four layer headers before its definitions, so every layer then takes
the NEON source's lists, nothing on x86_64: the chain is general alone and
the check must say so. The library's own variable: BLIT_DISABLE=nonsense,ssse3
leaves the SSSE3 layer out (an unknown name changes nothing), and with
FALLBACK_CHAIN_DISABLE_CPU_FEATURES=AVX2 besides, the AVX2 layer too.
docs/fallback-chain.md's code blocks are the
example's code.

  run_fallback_chain.py SOURCE_ROOT   (exit 0 pass, 1 fail, 77 skip)
"""
import os
import re
import shutil
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import cpu_facts  # noqa: E402  (test/cpu_facts.py)
import doc_blocks  # noqa: E402  (test/doc_blocks.py)
import side_by_side  # noqa: E402  (test/side_by_side.py)
import release_wrap  # noqa: E402  (test/release_wrap.py)

root = os.path.abspath(sys.argv[1])
# The folder the release wrap unpacks to (its `directory`).
WRAP_DIR = 'cpudispatch-' + re.search(r"version: '([^']+)'", open(os.path.join(root, 'meson.build')).read()).group(1)
failures = side_by_side.failures
# What each x86 layer's target needs, in /proc/cpuinfo's spelling.
SSE2 = {'sse', 'sse2'}
SSSE3 = SSE2 | {'pni', 'ssse3'}
X86_LAYERS = [('sse2', SSE2), ('ssse3', SSSE3), ('avx2', cpu_facts.AVX2)]
# The libraries each build makes (layers whose target its baseline lacks).
LIBS = {'x86_64': ['layer_avx2_AVX2', 'layer_sse2_baseline', 'layer_ssse3_SSSE3'],
        'x86': ['layer_avx2_AVX2', 'layer_sse2_SSE2', 'layer_ssse3_SSSE3'],
        'aarch64': ['layer_neon_baseline'],
        'x86_v3': ['layer_avx2_baseline', 'layer_sse2_baseline', 'layer_ssse3_baseline']}


def chain(arch, flags):
    """(chain, add_sat's layer, bswap32's layer) for a CPU of these features."""
    if arch == 'aarch64':
        return ('general neon', 'neon', 'neon')
    layers = ['general'] + [name for name, need in X86_LAYERS if need <= flags]
    add = next((l for l in reversed(layers) if l in ('avx2', 'sse2')), 'general')
    bswap = 'ssse3' if 'ssse3' in layers else 'general'
    return (' '.join(layers), add, bswap)


class Build(side_by_side.Build):
    def __init__(self, tmp, name, libs, opts, env=None, cross=None):
        super().__init__(tmp, name, opts, env)
        self.libs, self.cross = libs, cross

    def build(self):
        if self.cross:
            # As docs/wrap.md says a consumer names a cross file of
            # cpudispatch's: inside the wrap, unpacked first.
            r = self.sh(['meson', 'subprojects', 'download', 'cpudispatch'], check=False, cwd=self.src)
            path = os.path.join('subprojects', WRAP_DIR, 'cross', self.cross + '.txt')
            if r.returncode or not os.path.exists(os.path.join(self.src, path)):
                self.fail('after `meson subprojects download`, %s is missing: %s' % (path, r.stdout + r.stderr))
                return False
            opts = ['--cross-file', os.path.join(self.src, path)]
        else:
            opts = []
        if not self.setup(opts):
            return False
        r = self.sh(['ninja', '-C', self.dir])
        built = sorted(re.findall(r'Linking static target lib(layer_\w+)\.a', r.stdout))
        self.log.append('  built %s' % ', '.join(built))
        if r.returncode == 0 and built != self.libs:
            self.fail('built %s, expected %s' % (built, self.libs))
        warned = [l for l in r.stdout.splitlines() if 'warning' in l and 'subprojects' not in l]
        if warned:
            self.fail("the example's files compiled with warnings:\n" + '\n'.join(warned))
        return r.returncode == 0

    def runs(self, setup, plain_run):
        """{run: (chain, add_sat's layer, bswap32's layer)} of one `meson
        test`, a run named by cpudispatch-run's banner; None if it failed."""
        status, out = self.meson_test(setup)
        got, fields = {}, {}
        for run, line in side_by_side.runs(out, plain_run):
            m = re.match(r'(chain|add_sat|bswap32): (.*)$', line)
            if m:
                fields.setdefault(run, {})[m.group(1)] = m.group(2)
            elif line.startswith('results match the general layer'):
                fields.setdefault(run, {})['ok'] = True
        for run, f in fields.items():
            got[run] = (f.get('chain'), f.get('add_sat'), f.get('bswap32')) if f.get('ok') else None
        return None if status != 0 else got

    def test(self, setup, expected, plain_run='this CPU'):
        got = self.runs(setup, plain_run)
        label = setup or 'plain meson test'
        for run in list(expected) + [r for r in (got or {}) if r not in expected]:
            have = (got or {}).get(run)
            self.log.append('  %s, %s: %s' % (label, run, have))
            if have != expected.get(run):
                self.fail('%s, %s: ran %s; expected %s' % (label, run, have, expected.get(run)))


def native(b):
    if not b.build():
        return
    host = cpu_facts.host_flags(quiet=True)
    b.test(None, {'this CPU': chain('x86_64', host)})
    targets = {'baseline': SSE2, 'SSSE3': SSSE3, 'AVX2': cpu_facts.AVX2}
    b.test('each_target', {t: chain('x86_64', need) for t, need in targets.items() if need <= host})
    b.test('each_cpu', {m: chain('x86_64', f) for m, f in cpu_facts.models('x86_64').items()})
    # The library's own variable (BLIT_DISABLE), and cpudispatch's beside it.
    b.env['BLIT_DISABLE'] = 'nonsense,ssse3'
    got = b.runs(None, 'this CPU')
    want = chain('x86_64', host)
    want = (want[0].replace(' ssse3', ''), want[1], 'general')
    b.log.append('  BLIT_DISABLE=nonsense,ssse3: %s' % got)
    if got != {'this CPU': want}:
        b.fail('BLIT_DISABLE=nonsense,ssse3: expected %s, got %s' % (want, got))
    b.env['FALLBACK_CHAIN_DISABLE_CPU_FEATURES'] = 'AVX2'
    got = b.runs(None, 'this CPU')
    want = ('general sse2', 'sse2', 'general')
    b.log.append('  and FALLBACK_CHAIN_DISABLE_CPU_FEATURES=AVX2: %s' % got)
    if got != {'this CPU': want}:
        b.fail('BLIT_DISABLE=ssse3 with AVX2 masked: expected %s, got %s' % (want, got))
    del b.env['BLIT_DISABLE'], b.env['FALLBACK_CHAIN_DISABLE_CPU_FEATURES']
    # Control: the lists of the last header included (the NEON layer's).
    b.sh(['meson', 'configure', b.dir, '-Dc_args=-DCPUD__LAST_HEADER_LISTS'])
    got = b.runs(None, 'this CPU')
    b.log.append('  control (CPUD__LAST_HEADER_LISTS): %s' % got)
    if got != {'this CPU': ('general', 'general', 'general')}:
        b.fail('control: with the last header\'s lists the chain should be general alone, got %s' % got)


def i686(b):
    if b.build():
        b.test('each_cpu', {m: chain('x86', f) for m, f in cpu_facts.models('x86').items()})


def aarch64(b):
    if b.build():
        b.test(None, {'qemu-aarch64': chain('aarch64', set())}, 'qemu-aarch64')


def raised_baseline(b):
    if b.build():
        b.test('cpu_Haswell', {'Haswell': chain('x86_64', cpu_facts.models('x86_64')['Haswell'])}, 'Haswell')


def check_docs_blocks():
    """docs/fallback-chain.md's blocks are the example's code: the layer
    block a run of layer_ssse3.dispatch.c's lines, the chain block a run of
    blit.c's (blank and comment-only lines aside in both)."""
    code = lambda lines: [l for l in lines if l.strip() and not l.strip().startswith(('/*', '*'))]
    doc = os.path.join(root, 'docs', 'fallback-chain.md')
    for block, name in (('chain-layer', 'layer_ssse3.dispatch.c'), ('chain-build', 'blit.c')):
        want = code(doc_blocks.block(doc, block))
        have = code(open(os.path.join(root, 'examples', 'fallback-chain', 'src', name)).read().splitlines())
        if not want or not any(have[i:i + len(want)] == want for i in range(len(have))):
            failures.append('docs/fallback-chain.md: block %s is not %s\'s code' % (block, name))


def main():
    need = ['clang', 'qemu-x86_64', 'qemu-i386', 'qemu-aarch64', 'aarch64-linux-gnu-gcc', 'i686-linux-gnu-gcc']
    missing = [n for n in need if not shutil.which(n)]
    if missing or os.uname().machine != 'x86_64':
        print('SKIP: needs an x86_64 host with %s' % ' '.join(missing or need))
        return 77
    check_docs_blocks()
    with tempfile.TemporaryDirectory(prefix='cpud-fallback-chain-') as tmp:
        error = release_wrap.example(root, 'fallback-chain', os.path.join(tmp, 'release'))
        if error:
            print('FAIL: ' + error)
            return 1
        builds = [
            (native, Build(tmp, 'native-gcc-release', LIBS['x86_64'], [])),
            (i686, Build(tmp, 'i686-gcc-release', LIBS['x86'], [], cross='i686-linux-gnu')),
            (aarch64, Build(tmp, 'aarch64-gcc-release', LIBS['aarch64'], [], cross='aarch64-linux-gnu')),
            (raised_baseline, Build(tmp, 'x86_v3-clang-debug', LIBS['x86_v3'],
                                    ['-Dbuildtype=debug', '-Dcpudispatch:cpu-baseline=x86_v3'],
                                    {'CC': 'clang', 'CXX': 'clang++'})),
        ]
        return side_by_side.run_all(builds)


if __name__ == '__main__':
    sys.exit(main())
