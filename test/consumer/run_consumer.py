#!/usr/bin/env python3
"""The project's promise as a consumer meets it: one binary, the best SIMD
target on every CPU, never an illegal instruction.

  run_consumer.py --list                       case names
  run_consumer.py SOURCE_ROOT CASE             run one case: exit 0 pass,
                                               1 fail, 77 skip (a tool missing)

Each case builds test/consumer/fixture (a consumer library + app written from
the docs: docs/quickstart.md's snippet verbatim but for its sources dict,
checked here) through a release wrap (make-wrap.py: a tarball of git HEAD
and a [wrap-file], configured with --wrap-mode=nodownload), with one
compiler and buildtype, then:

  build    ninja succeeds with no compiler warning (none from cpudispatch's
           files, none from the fixture's), and the kernels archive is made
           from the seventeen per-target libraries in per-source order, each
           source's in the order the generator prints them, baseline first
           (TARGETS);
  runs     `app` natively and under qemu-x86_64 -cpu qemu64 core2duo Nehalem
           SandyBridge Haswell, Haswell,-fma and Haswell,-bmi2: exit 0, "all
           targets bit-exact", every function dispatched to the best
           compiled target the CPU has and every compiled target the CPU has
           run. dot and trimmed name groups of features (AVX2+FMA3, NumPy's
           (AVX512_SKX VPCLMULQDQ)): a group is one target (AVX2__FMA3), run
           only where every member is (Haswell,-fma: dot falls to SSE42,
           trimmed to AVX2) and ranked just above its highest member
           (Haswell,-bmi2, without X86_V3: AVX2__FMA3; a CPU with AVX-512
           and VPCLMULQDQ: AVX512_SKX__VPCLMULQDQ). The expectation
           comes from facts about the CPUs (MODEL_FLAGS, /proc/cpuinfo), the
           targets (TARGET_NEEDS) and the order the docs promise (TARGETS),
           not from cpudispatch;
  controls (i) `app_per_source_order` (the same program linking the
           per-target libraries in per-source order, as the docs once said)
           dies of SIGILL under Nehalem where the case says it must (and
           passes natively): sumsq's X86_V3 build is then the first to define
           fx::pairwise_sum and (at -O0) std::sort<float*>, which
           trimmed.dispatch.cpp's baseline and SSE42 code call; (ii)
           cpudispatch-check in --stamp mode (the build's own command line,
           from `meson introspect --targets`) over the per-source order exits
           non-zero naming one of those functions, kept from
           libsumsq_X86_V3.a, that libtrimmed_baseline.a would run;
           (iii) `app --direct dot` and `app --direct trimmed_sum` (the
           AVX2__FMA3 build called by its name, bypassing dispatch; its
           kernels run an FMA instruction) die of SIGILL under
           Haswell,-fma, where `app` passes, and pass natively (on a CPU
           with AVX2 and FMA3): the membership check is what keeps the
           group off that CPU.
"""
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import cpu_facts  # noqa: E402  (test/cpu_facts.py)
import doc_blocks  # noqa: E402  (test/doc_blocks.py)

# sigill: whether app_per_source_order must die under Nehalem. Measured: it
# does in all four. At -O2 std::sort<float*> is no hazard (GCC keeps local
# .isra clones of its parts, Clang inlines them), but the recursive
# fx::pairwise_sum stays a shared out-of-line copy, VEX-encoded in X86_V3.
CASES = {
    'gcc-debug': dict(cc='gcc', cxx='g++', buildtype='debug', sigill=True),
    'gcc-release': dict(cc='gcc', cxx='g++', buildtype='release', sigill=True),
    'clang-debug': dict(cc='clang', cxx='clang++', buildtype='debug', sigill=True),
    'clang-release': dict(cc='clang', cxx='clang++', buildtype='release', sigill=True),
}
CONTROL_MODEL = 'Nehalem'

# The fixture's sources in the order of its dict, each with its x86 targets
# in ascending interest as the docs promise it (baseline first; a group just
# above its highest member alone and below the next feature: AVX2 <
# AVX2__FMA3 < X86_V3, AVX512_SKX < AVX512_SKX__VPCLMULQDQ), written here,
# not asked of cpudispatch; the functions main.cpp reports, with their
# source.
TARGETS = {
    'dot': ['baseline', 'SSE42', 'AVX2__FMA3', 'X86_V3', 'AVX512_SKX', 'AVX512_SKX__VPCLMULQDQ'],
    'sumsq': ['baseline', 'SSE42', 'X86_V3', 'AVX512_SKX'],
    'trimmed': ['baseline', 'SSE42', 'AVX2', 'AVX2__FMA3', 'X86_V3', 'AVX512_SKX', 'AVX512_SKX__VPCLMULQDQ'],
}
SOURCES = list(TARGETS)
FUNCTIONS = {'dot': 'dot', 'sumsq': 'sumsq', 'trimmed_sum': 'trimmed', 'cascade_sum': 'trimmed'}

# What each target needs: facts about the CPUs (test/cpu_facts.py).
TARGET_NEEDS = {t: cpu_facts.X86_NEEDS[t] for ts in TARGETS.values() for t in ts}
MODEL_FLAGS = cpu_facts.models('x86_64')  # none has AVX-512 (TCG cannot)
# This driver's extra models: Haswell without one member of AVX2__FMA3
# (the group must be skipped), and without BMI2 (no X86_V3: the group wins).
MODEL_FLAGS['Haswell,-fma'] = MODEL_FLAGS['Haswell'] - {'fma'}
MODEL_FLAGS['Haswell,-bmi2'] = MODEL_FLAGS['Haswell'] - {'bmi2'}
MODELS = list(MODEL_FLAGS)

# Control (iii): `app --direct FN` calls FN's build of this group by name
# under this model, which lacks one of its members.
DIRECT_GROUP, DIRECT_MODEL = 'AVX2__FMA3', 'Haswell,-fma'
DIRECT_FUNCTIONS = ['dot', 'trimmed_sum']

# The planted shared functions in the check's message: fx::pairwise_sum
# (shared.h) or a part of std::sort<float*> (std::__introsort_loop<float*,
# ...>, std::__adjust_heap<float*, ...>, ...; -O2 inlines or clones them).
HAZARD = re.compile(r'^\s*(?P<sym>(fx::pairwise_sum\(|.*\bstd::__\w+<float\*).*?) '
                    r'is defined in libsumsq_X86_V3\.a \(X86_V3\) and (?P<others>.*?); '
                    r'the linker keeps the copy of libsumsq_X86_V3\.a', re.M)
LINE = re.compile(r'^(\w+): (\S+) \(ran: ([^;)]*)')


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def show(cmd, env=None):
    extra = ' (%s)' % ' '.join('%s=%s' % (k, env[k]) for k in ('CC', 'CXX') if env and k in env) if env else ''
    print('$ ' + ' '.join(shlex.quote(a) for a in cmd) + extra)


def best(source, flags):
    """The source's targets the CPU with these flags can run, highest first,
    then baseline; the first is the one dispatch must pick."""
    return [t for t in reversed(TARGETS[source]) if TARGET_NEEDS[t] <= flags]


def docs_block(root, marker):
    return doc_blocks.block(os.path.join(root, 'docs', 'quickstart.md'), marker)


def split_dict(lines):
    """(before, after) the snippet's sources dict: from the line opening
    `foreach src, want : {` to the first line ending with `}`."""
    start = next(i for i, l in enumerate(lines) if l.startswith('foreach src, want : {'))
    end = next(i for i in range(start, len(lines)) if lines[i].rstrip().endswith('}'))
    return lines[:start], lines[end + 1:]


def check_snippet(root, fixture):
    """The fixture's meson.build holds the docs' snippet verbatim, the dict
    aside, and the snippet-use line, its source list aside."""
    have = open(os.path.join(fixture, 'meson.build')).read().splitlines()
    problems = []
    try:
        doc = docs_block(root, 'snippet')
        d_before, d_after = split_dict(doc)
    except (IndexError, StopIteration):
        return ['docs/quickstart.md has no snippet block with a `foreach src, want : {...}` dict']
    at = [i for i, l in enumerate(have) if l == d_before[0]]
    if not at:
        return ['the fixture lacks the snippet\'s first line %r' % d_before[0]]
    try:
        h_before, h_after = split_dict(have[at[0]:])
    except StopIteration:
        return ['the fixture has no `foreach src, want : {...}` dict after the snippet\'s first line']
    if h_before != d_before:
        problems.append('the lines before the sources dict differ from the docs\' snippet')
    if h_after[:len(d_after)] != d_after:
        problems.append('the lines after the sources dict differ from the docs\' snippet')
    norm = lambda l: re.sub(r"^(app = executable\('app', ).*?(, link_with: )", r'\1SOURCES\2', l)
    try:
        use = docs_block(root, 'snippet-use')
    except IndexError:
        use = []
    if len(use) != 1 or norm(use[0]) == use[0]:
        problems.append('docs/quickstart.md\'s snippet-use block is not one `app = executable(\'app\', ...)` '
                        'line any more: %r' % use)
    elif not any(norm(l) == norm(use[0]) for l in have):
        problems.append('the fixture lacks the snippet-use line %r (its source list aside)' % use[0])
    return problems


class Case:
    def __init__(self, root, name, tmp):
        self.root, self.name, self.c, self.tmp = root, name, CASES[name], tmp
        self.fixture = os.path.join(root, 'test', 'consumer', 'fixture')
        self.proj = os.path.join(tmp, 'proj')
        self.build = os.path.join(tmp, 'build')
        self.failures = []
        self.app_ok = {}  # model -> whether `app` passed there (check_app)
        self.host = set()  # this CPU's flags (check_runs)

    def fail(self, msg):
        print('FAIL: ' + msg)
        self.failures.append(msg)

    def missing(self):
        need = [self.c['cc'], self.c['cxx'], 'meson', 'ninja', 'git', 'qemu-x86_64', 'ar', 'objcopy', 'readelf']
        return [n for n in need if not shutil.which(n)]

    def sh(self, cmd, what, **kw):
        p = run(cmd, **kw)
        if p.returncode != 0:
            print((p.stdout + p.stderr)[-4000:])
            self.fail('%s failed (status %d)' % (what, p.returncode))
        return p

    # -- configure and build -------------------------------------------------
    def make_project(self):
        shutil.copytree(self.fixture, self.proj)
        sub = os.path.join(self.proj, 'subprojects')
        os.makedirs(sub)
        cmd = [sys.executable, os.path.join(self.root, 'tools', 'make-wrap.py'), sub, '--allow-dirty']
        show(cmd)
        p = self.sh(cmd, 'make-wrap.py')
        print('  ' + p.stdout.strip())
        return p.returncode == 0

    def configure_and_build(self):
        env = {k: v for k, v in os.environ.items()
               if k not in ('CFLAGS', 'CXXFLAGS', 'CPPFLAGS', 'LDFLAGS', 'CC', 'CXX')}
        env['CC'], env['CXX'] = self.c['cc'], self.c['cxx']
        cmd = ['meson', 'setup', self.build, self.proj, '--wrap-mode=nodownload', '--buildtype=' + self.c['buildtype']]
        show(cmd, env)
        t = time.time()
        p = self.sh(cmd, 'configure', env=env)
        print('  configure: %.1f s' % (time.time() - t))
        if p.returncode:
            return False
        warned = [l for l in (p.stdout + p.stderr).splitlines() if 'WARNING' in l and 'cpudispatch' in l]
        if warned:
            self.fail('configure printed warnings from cpudispatch:\n' + '\n'.join(warned))
        if not os.path.isdir(os.path.join(self.proj, 'subprojects', os.path.basename(self.wrap_dir()))):
            self.fail('the wrap was not unpacked into subprojects/ (is cpudispatch really the release?)')
        cmd = ['ninja', '-C', self.build]
        show(cmd)
        t = time.time()
        p = self.sh(cmd, 'build')
        print('  build: %.1f s' % (time.time() - t))
        if p.returncode:
            return False
        # Compiler warnings: GCC and Clang write "FILE:LINE:COL: warning:".
        # (Once each: main.cpp is compiled for both programs.)
        warnings = list(dict.fromkeys(l for l in p.stdout.splitlines() if re.search(r'\bwarning:', l)))
        ours = [l for l in warnings if re.search(r'subprojects/cpudispatch|cpudispatch/|cpudispatch_\w+\.h|'
                                                 r'\.dispatch\.h', l)]
        if ours:
            self.fail('compiler warnings from cpudispatch\'s files:\n' + '\n'.join(ours))
        if len(warnings) > len(ours):
            self.fail('compiler warnings from the fixture:\n' + '\n'.join(l for l in warnings if l not in ours))
        print('  compiler warnings: %d' % len(warnings))
        return True

    def wrap_dir(self):
        with open(os.path.join(self.proj, 'subprojects', 'cpudispatch.wrap')) as fh:
            return re.search(r'^directory = (\S+)', fh.read(), re.M).group(1)

    def kernels_target(self):
        """The build's command for `kernels` and its inputs, in order."""
        p = self.sh(['meson', 'introspect', '--targets', self.build], 'meson introspect')
        if p.returncode:
            return None, None
        for t in json.loads(p.stdout):
            if t['name'] == 'kernels' and t['subproject'] is None:
                src = t['target_sources'][0]
                return src['compiler'], src['sources']
        self.fail('no `kernels` target in the build')
        return None, None

    # -- runs ----------------------------------------------------------------
    def launch(self, model, exe, args=()):
        cmd = ([exe] if model == 'native' else ['qemu-x86_64', '-cpu', model, exe]) + list(args)
        # The runtime's masks (CPUDISPATCH_DISABLE/ENABLE_CPU_FEATURES) would
        # change the selection: run without them.
        env = {k: v for k, v in os.environ.items() if not k.startswith('CPUDISPATCH_')}
        r = run(cmd, timeout=120, env=env)
        # qemu warns about model features TCG lacks; not the program's words.
        err = '\n'.join(l for l in r.stderr.splitlines() if "TCG doesn't support" not in l)
        return r.returncode, r.stdout, err

    def check_app(self, model, flags):
        can = {fn: best(src, flags) for fn, src in FUNCTIONS.items()}
        rc, out, err = self.launch(model, os.path.join(self.build, 'app'))
        got = {m.group(1): (m.group(2), m.group(3).split()) for m in map(LINE.match, out.splitlines()) if m}
        problems = []
        if rc != 0:
            problems.append('exit status %d%s' % (rc, ' (SIGILL)' if rc == -signal.SIGILL else ''))
        if 'all targets bit-exact' not in out.splitlines():
            problems.append('no "all targets bit-exact" line')
        for fn in FUNCTIONS:
            if fn not in got:
                problems.append('no line for %s' % fn)
                continue
            selected, ran = got[fn]
            if selected != can[fn][0]:
                problems.append('%s dispatched to %s, expected %s' % (fn, selected, can[fn][0]))
            if ran != can[fn]:
                problems.append('%s ran the targets [%s], expected [%s]' % (fn, ' '.join(ran), ' '.join(can[fn])))
        print('  %-13s app -> %s  %s%s' % (
            model, rc, '  '.join('%s: %s%s' % (f, got[f][0], '' if got[f][0] == can[f][0] else
                                               ' (expected %s)' % can[f][0]) for f in FUNCTIONS if f in got),
            '' if problems else '  ok'))
        if problems:
            print('\n'.join('    ' + l for l in (out + err).strip().splitlines()))
            self.fail('-cpu %s: %s' % (model, '; '.join(problems)))
        self.app_ok[model] = not problems

    def check_runs(self):
        print('$ %s/app, then qemu-x86_64 -cpu MODEL %s/app for MODEL in %s' % (self.build, self.build,
                                                                          ' '.join(MODELS)))
        self.host = cpu_facts.host_flags(self.c['cc'])
        self.check_app('native', self.host)
        for model in MODELS:
            self.check_app(model, MODEL_FLAGS[model])

    # -- negative controls ---------------------------------------------------
    def control_link_order(self):
        exe = os.path.join(self.build, 'app_per_source_order')
        rc, out, err = self.launch('native', exe)
        print('  control: native        app_per_source_order -> %d' % rc)
        if rc != 0 or 'all targets bit-exact' not in out.splitlines():
            self.fail('control: app_per_source_order does not even pass natively (status %d): %s' % (rc, out + err))
        rc, out, err = self.launch(CONTROL_MODEL, exe)
        died = rc in (-signal.SIGILL, 128 + signal.SIGILL)
        need = self.c['sigill']
        print('  control: %-13s app_per_source_order -> %d%s (%s)' % (
            CONTROL_MODEL, rc, ' SIGILL' if died else '', 'must die of SIGILL' if need else 'not required'))
        if need and not died:
            self.fail('control: app_per_source_order did not die of SIGILL under -cpu %s (status %d): the '
                      'fixture does not show that the checked archive matters' % (CONTROL_MODEL, rc))

    def control_direct(self):
        exe = os.path.join(self.build, 'app')
        for fn in DIRECT_FUNCTIONS:
            sym = '%s_%s' % (fn, DIRECT_GROUP)
            if TARGET_NEEDS[DIRECT_GROUP] <= self.host:
                rc, out, err = self.launch('native', exe, ['--direct', fn])
                print('  control: native        app --direct %s -> %d (%s called directly)' % (fn, rc, sym))
                if rc != 0 or not out.startswith(sym + ':'):
                    self.fail('control: app --direct %s does not even pass natively (status %d): %s' % (
                        fn, rc, out + err))
            else:
                print('  control: native        app --direct %s not run: this CPU lacks %s' % (
                    fn, ' '.join(sorted(TARGET_NEEDS[DIRECT_GROUP] - self.host))))
            rc, out, err = self.launch(DIRECT_MODEL, exe, ['--direct', fn])
            died = rc in (-signal.SIGILL, 128 + signal.SIGILL)
            print('  control: %-13s app --direct %s -> %d%s (must die of SIGILL; app %s there)' % (
                DIRECT_MODEL, fn, rc, ' SIGILL' if died else '',
                'passed' if self.app_ok.get(DIRECT_MODEL) else 'did NOT pass'))
            if not died:
                self.fail('control: %s did not die of SIGILL under -cpu %s (status %d): the group build does not '
                          'need its member there, so dispatch skipping it proves nothing: %s' % (
                              sym, DIRECT_MODEL, rc, (out + err).strip()))
        if not self.app_ok.get(DIRECT_MODEL):
            self.fail('control: app did not pass under -cpu %s, where the direct calls die' % DIRECT_MODEL)

    def control_stamp(self, command, libs):
        want = ['lib%s_%s.a' % (s, t) for s in SOURCES for t in TARGETS[s]]
        names = [os.path.basename(l) for l in libs]
        if names != want:
            self.fail('the kernels archive is not made from the per-source list %s: %s' % (want, names))
            return
        if command[-3:] != ['--archive', '@OUTPUT@', '@INPUT@']:
            self.fail('the kernels command does not end with --archive @OUTPUT@ @INPUT@: %s' % command)
            return
        stamp = os.path.join(self.tmp, 'per-source.stamp')
        cmd = command[:-3] + ['--stamp', stamp] + libs
        show(cmd)
        p = run(cmd, cwd=self.build)
        hits = [m for m in HAZARD.finditer(p.stderr) if 'libtrimmed_baseline.a (baseline)' in m.group('others')]
        print('  control: --stamp over the per-source order -> %d, %d problem lines, %d naming a planted '
              'function kept from libsumsq_X86_V3.a that libtrimmed_baseline.a would run%s' % (
                  p.returncode, sum(1 for l in p.stderr.splitlines() if l.startswith('  ')), len(hits),
                  ', e.g. ' + hits[0].group('sym') if hits else ''))
        if p.returncode == 0 or os.path.exists(stamp):
            self.fail('control: cpudispatch-check --stamp accepted the per-source order')
        if not hits:
            print(p.stderr[-3000:])
            self.fail('control: the check does not name fx::pairwise_sum or a std::sort<float*> function kept '
                      'from libsumsq_X86_V3.a that libtrimmed_baseline.a would run')


def main():
    if sys.argv[1:] == ['--list']:
        print('\n'.join(CASES))
        return 0
    if len(sys.argv) != 3 or sys.argv[2] not in CASES:
        sys.exit('usage: run_consumer.py --list | SOURCE_ROOT CASE (CASE: %s)' % ' '.join(CASES))
    root, name = os.path.abspath(sys.argv[1]), sys.argv[2]
    t0 = time.time()
    with tempfile.TemporaryDirectory(prefix='cpud-consumer-') as tmp:
        case = Case(root, name, tmp)
        if os.uname().machine != 'x86_64':
            print('SKIP: %s needs an x86_64 host' % name)
            return 77
        missing = case.missing()
        if missing:
            print('SKIP: %s needs %s' % (name, ' '.join(missing)))
            return 77
        print('%s: %s %s, --buildtype=%s' % (name, case.c['cc'], case.c['cxx'], case.c['buildtype']))
        for p in check_snippet(root, os.path.join(root, 'test', 'consumer', 'fixture')):
            case.fail('test/consumer/fixture/meson.build vs docs/quickstart.md: ' + p)
        if case.make_project() and case.configure_and_build():
            command, libs = case.kernels_target()
            case.check_runs()
            case.control_link_order()
            case.control_direct()
            if command:
                case.control_stamp(command, libs)
    print('%s: %.1f s' % (name, time.time() - t0))
    if case.failures:
        print('%d failure(s)' % len(case.failures))
        return 1
    print('PASS')
    return 0


if __name__ == '__main__':
    sys.exit(main())
