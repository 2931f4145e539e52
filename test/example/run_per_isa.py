#!/usr/bin/env python3
"""Builds and tests examples/per-isa-files (docs/per-isa-files.md) from
scratch, as a user would: cpudispatch from a release wrap (tools/make-wrap.py:
a tarball of git HEAD and its [wrap-file]), `meson setup
--wrap-mode=nodownload`. Three builds, run side by side (2 cores):

  native   GCC, release (the example's default): its test passes under plain
           `meson test`, `--setup cpudispatch:each_target` and
           `--setup cpudispatch:each_cpu` (every x86_64 qemu model);
  aarch64  GCC cross build run under qemu-aarch64: the same three;
  x86_v3   Clang, debug, -Dcpudispatch:cpu-baseline=x86_v3, its test under
           `--setup cpudispatch:cpu_Haswell`.

In each, the libraries built are the dispatch source's targets that the
baseline does not cover, every name each defines ends in its target (nm:
the renames left nothing two builds could both define), and the example's
own files compile without a warning. The test prints, per function, the
dispatch target that ran and the per-ISA file compiled into it, and each run
of a setup follows its banner on stdout (`# cpudispatch-run: == cpu Nehalem
==`), so each run is checked on its own: the runs are exactly the baseline
and the targets this CPU has (each_target), or the models of
src/run/qemu-models.txt (each_cpu), and each ran on the target that CPU
selects, with the file that target's flags select (the x86_v3 baseline
build: the AVX2 file; the aarch64 baseline build: the NEON file). The
oracle is test/cpu_facts.py, not cpudispatch's tables. The example's
meson.build holds docs/quickstart.md's snippet verbatim (its sources dict
aside) between the markers examples/consumer uses, and
docs/per-isa-files.md's code blocks are the example's code.

Controls, which show the checks can fail: the x86_v3 build again with
hex.dispatch.c's chain on CPUD_TARGET_* instead of CPUD_HAVE_* (one file
changed, the same build directory): its baseline build takes the scalar
file, and the check must say so; and the native each_cpu runs judged
against models whose Haswell lacks AVX2: the check must name Haswell, and
only Haswell.

  run_per_isa.py SOURCE_ROOT   (exit 0 pass, 1 fail, 77 skip: a tool missing)
"""
import os
import re
import shutil
import sys
import tempfile

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import cpu_facts  # noqa: E402  (test/cpu_facts.py)
import doc_blocks  # noqa: E402  (test/doc_blocks.py)
import release_wrap  # noqa: E402  (test/release_wrap.py)
import side_by_side  # noqa: E402  (test/side_by_side.py)

root = os.path.abspath(sys.argv[1])
example = os.path.join(root, 'examples', 'per-isa-files')
failures = side_by_side.failures
FUNCTIONS = ('hex_encode', 'hex_decode')
MARKERS = ('# --- the quick-start snippet', '# --- end of snippet')

# What the x86 targets of the example's list need (cpu_facts.py's spelling):
# SSE4.1 with what it implies (SSSE3, SSE3, SSE2, SSE): SSE4.2 without
# SSE4.2 and the POPCNT it adds.
NEEDS = {'x86_64': {'SSE41': cpu_facts.SSE42 - {'sse4_2', 'popcnt'}, 'AVX2': cpu_facts.AVX2},
         'aarch64': {}}  # ASIMD, the list's aarch64 name, is in every baseline
BASELINES = {'min': {'sse', 'sse2'}, 'x86_v3': cpu_facts.X86_V3, 'aarch64': {'asimd'}}


def file_for(arch, flags):
    """The per-ISA file hex.dispatch.c's CPUD_HAVE_ chain takes in a build
    compiled for these features."""
    if arch == 'aarch64':
        return 'neon'
    return 'avx2' if NEEDS[arch]['AVX2'] <= flags else 'sse41' if NEEDS[arch]['SSE41'] <= flags else 'scalar'


class Build(side_by_side.Build):
    """One configuration, with its arch and baseline."""

    def __init__(self, tmp, name, arch, baseline, opts, env=None):
        super().__init__(tmp, name, opts, env)
        self.arch, self.base = arch, BASELINES[baseline]
        # The targets built: those of the list the baseline does not cover,
        # ascending, after the baseline build.
        self.targets = [t for t, need in NEEDS[arch].items() if not need <= self.base]

    def configure_and_build(self):
        if not self.setup():
            return False
        r = self.sh(['ninja', '-C', self.dir])
        built = sorted(re.findall(r'Linking static target libhex_(\w+)\.a', r.stdout))
        self.log.append('  built hex_%s' % ', hex_'.join(built))
        if r.returncode == 0 and built != sorted(['baseline'] + self.targets):
            self.fail('built the targets %s, expected %s' % (built, ['baseline'] + self.targets))
        # Every name a target's library defines is that target's (the
        # renames): nothing two builds could both define.
        nm = 'aarch64-linux-gnu-nm' if self.arch == 'aarch64' else 'nm'
        for t in built:
            names = self.sh([nm, '-g', '--defined-only', os.path.join(self.dir, 'libhex_%s.a' % t)]).stdout
            names = [l.split()[-1] for l in names.splitlines() if len(l.split()) == 3]
            if not names or any(not n.endswith('_' + t) for n in names):
                self.fail('libhex_%s.a defines names not renamed for its target: %s' % (t, names))
        warned = [l for l in r.stdout.splitlines() if 'warning' in l and 'subprojects' not in l]
        if warned:
            self.fail("the example's files compiled with warnings:\n" + '\n'.join(warned))
        return r.returncode == 0

    def want(self, cpu):
        """(target, file) that a CPU with these features runs."""
        t = next((t for t in reversed(self.targets) if NEEDS[self.arch][t] <= cpu), 'baseline')
        return (t, file_for(self.arch, self.base | NEEDS[self.arch].get(t, set())))

    def runs(self, setup, plain_run):
        """`meson test` (under cpudispatch:SETUP): {run: {function: (target,
        file)}}, a run named by cpudispatch-run's banner on stdout
        (`# cpudispatch-run: == cpu Nehalem ==`; a plain run: plain_run);
        runs that printed no result (skipped) left out. None if it failed."""
        status, out = self.meson_test(setup)
        got = {}
        for run, line in side_by_side.runs(out, plain_run):
            m = re.match(r'(%s): (\S+) (\S+)$' % '|'.join(FUNCTIONS), line)
            if m:
                got.setdefault(run, {})[m.group(1)] = m.group(2, 3)
            elif line.startswith('results match the scalar reference'):
                got.setdefault(run, {})['ok'] = True
        if status != 0 or any(not g.pop('ok', False) for g in got.values()):
            return None
        return got

    def check(self, setup, expected, got, log=True):
        """Problems, one per run that differs: the runs `got` against
        `expected`, {run: (target, file)} for every function."""
        label = setup or 'plain meson test'
        want = {run: {fn: tf for fn in FUNCTIONS} for run, tf in expected.items()}
        show = lambda fns: ', '.join('%s on %s/%s' % (fn, t, f) for fn, (t, f) in sorted(fns.items())) or 'nothing'
        for run, fns in (got or {}).items():
            if log:
                self.log.append('  %s, %s: %s' % (label, run, show(fns)))
        if got is None:
            return ['%s: the test failed' % label]
        return ['%s, %s: ran %s; expected %s' % (label, run, show(got[run]) if run in got else 'no run',
                                                 show(want[run]) if run in want else 'no run')
                for run in list(want) + [r for r in got if r not in want] if got.get(run) != want.get(run)]

    def test(self, setup, expected, plain_run='this CPU'):
        got = self.runs(setup, plain_run)
        for p in self.check(setup, expected, got):
            self.fail(p)
        return got


def native(b):
    if not b.configure_and_build():
        return
    host = cpu_facts.host_flags(quiet=True)
    b.test(None, {'this CPU': b.want(host)})
    b.test('each_target', dict([('baseline', b.want(set()))] + [
        (t, b.want(NEEDS['x86_64'][t])) for t in b.targets if NEEDS['x86_64'][t] <= host]))
    models = cpu_facts.models('x86_64')
    got = b.test('each_cpu', {m: b.want(f) for m, f in models.items()})
    # Control: the same runs judged against a Haswell without AVX2 must be
    # reported, for Haswell alone.
    wrong = {m: b.want(f - {'avx2'} if m == 'Haswell' else f) for m, f in models.items()}
    problems = b.check('each_cpu against a Haswell without AVX2 (control)', wrong, got, log=False)
    if got is None or len(problems) != 1 or ', Haswell:' not in problems[0]:
        b.fail('control: expected Haswell alone reported, got %s' % problems)
    b.log.append('  control reported: %s' % '; '.join(problems))


def aarch64(b):
    if not b.configure_and_build():
        return
    b.test(None, {'qemu-aarch64': b.want({'asimd'})}, 'qemu-aarch64')
    b.test('each_target', {'baseline': b.want({'asimd'})})
    b.test('each_cpu', {m: b.want(f) for m, f in cpu_facts.models('aarch64').items()})


def raised_baseline(b):
    """x86_v3: one build, the baseline, with the AVX2 file; then the
    CPUD_TARGET_ chain in the same build directory, which the check must
    reject (the scalar file)."""
    if not b.configure_and_build():
        return
    haswell = cpu_facts.models('x86_64')['Haswell']
    expected = {'Haswell': b.want(haswell)}
    if expected['Haswell'] != ('baseline', 'avx2'):
        b.fail('the oracle expects %s under x86_v3, not the AVX2 file' % (expected,))
    b.test('cpu_Haswell', expected, 'Haswell')
    path = os.path.join(b.src, 'src', 'hex.dispatch.c')
    text = open(path).read()
    chain = re.findall(r'^#(?:el)?if defined\(CPUD_HAVE_\w+\)', text, re.M)
    if len(chain) != 3:
        b.fail('control: hex.dispatch.c has %d `#if defined(CPUD_HAVE_...)` lines, 3 expected' % len(chain))
        return
    with open(path, 'w') as fh:
        fh.write(re.sub(r'defined\(CPUD_HAVE_', 'defined(CPUD_TARGET_', text))
    got = b.runs('cpu_Haswell', 'Haswell')  # meson test rebuilds what the change touched
    problems = b.check('cpu_Haswell, CPUD_TARGET_ chain (control)', expected, got, log=False)
    if not problems or got != {'Haswell': {fn: ('baseline', 'scalar') for fn in FUNCTIONS}}:
        b.fail('control: with CPUD_TARGET_ the x86_v3 baseline build should take the scalar file and be '
               'reported; ran %s, reported %s' % (got, problems))
    b.log.append('  control reported: %s' % '; '.join(problems))


def code(lines):
    """Lines of C without blank and comment-only lines."""
    return [l for l in lines if l.strip() and not l.strip().startswith(('/*', '*'))]


def check_docs_blocks():
    """docs/per-isa-files.md's blocks are the example's code: the dispatch
    source's (comments aside) a run of hex.dispatch.c's lines, the calling
    one lines of hex.c in order."""
    doc = os.path.join(root, 'docs', 'per-isa-files.md')
    src = lambda name: open(os.path.join(example, 'src', name)).read().splitlines()
    block, have = code(doc_blocks.block(doc, 'per-isa-dispatch')), code(src('hex.dispatch.c'))
    if not any(have[i:i + len(block)] == block for i in range(len(have))):
        failures.append('docs/per-isa-files.md: block per-isa-dispatch is not hex.dispatch.c\'s code')
    have = iter(src('hex.c'))
    missing = [l for l in doc_blocks.block(doc, 'per-isa-call') if l.strip() and l not in have]
    if missing:
        failures.append('docs/per-isa-files.md: block per-isa-call has lines hex.c lacks (in that order): %s'
                        % missing)


def check_snippet():
    """The example's meson.build holds the quickstart's snippet between the
    consumer example's markers, word for word but for the sources dict."""
    lines = open(os.path.join(example, 'meson.build')).read().splitlines()
    at = [i for i, l in enumerate(lines) if l.startswith(MARKERS)]
    block = doc_blocks.block(os.path.join(root, 'docs', 'quickstart.md'), 'snippet')
    copy = lines[at[0] + 1:at[1]] if len(at) == 2 else []
    same = len(copy) == len(block) and all(
        a == b or (a.startswith('foreach src, want : {') and b.startswith('foreach src, want : {'))
        for a, b in zip(copy, block))
    if not same:
        failures.append('examples/per-isa-files/meson.build does not hold the docs snippet verbatim between '
                        'the lines "%s..." and "%s..."' % MARKERS)


def main():
    need = ['clang', 'nm', 'qemu-x86_64', 'qemu-aarch64', 'aarch64-linux-gnu-gcc', 'aarch64-linux-gnu-nm']
    missing = [n for n in need if not shutil.which(n)]
    if missing or os.uname().machine != 'x86_64':
        print('SKIP: needs an x86_64 host with %s' % ' '.join(missing or need))
        return 77
    check_snippet()
    check_docs_blocks()
    with tempfile.TemporaryDirectory(prefix='cpud-per-isa-') as tmp:
        rel = os.path.join(tmp, 'release')
        error = release_wrap.example(root, 'per-isa-files', rel)
        if error:
            print('FAIL: ' + error)
            return 1
        builds = [
            (native, Build(tmp, 'native-gcc-release', 'x86_64', 'min', [])),
            (aarch64, Build(tmp, 'aarch64-gcc-release', 'aarch64', 'aarch64',
                            ['--cross-file', os.path.join(root, 'cross', 'aarch64-linux-gnu.txt')])),
            (raised_baseline, Build(tmp, 'x86_v3-clang-debug', 'x86_64', 'x86_v3',
                                    ['-Dbuildtype=debug', '-Dcpudispatch:cpu-baseline=x86_v3'],
                                    {'CC': 'clang', 'CXX': 'clang++'})),
        ]
        return side_by_side.run_all(builds)


if __name__ == '__main__':
    sys.exit(main())
