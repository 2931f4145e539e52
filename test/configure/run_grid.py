#!/usr/bin/env python3
"""Configure-level tests: configure test/configure/fixture (a consumer with
cpudispatch as its subproject) with one grid point of option values and check
the resolved baseline/dispatch lists, the messages and the errors.

  run_grid.py --list          case names, one per line (meson.build registers
                              one test per case)
  run_grid.py CASE            run one case; exit 0 pass, 1 fail, 77 skip

The compiler comes from $CC/$CXX (meson.build passes the build's own). The
resolved lists are read from the configure-time file the subproject writes
for its header generator, so they are exactly what the build will use.
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
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
import doc_blocks  # noqa: E402  (test/doc_blocks.py)
from resolved import read_resolved  # noqa: E402  (test/configure/resolved.py)

# x86_64 rows in interest order: only used to spell expectations briefly.
X86_ROWS = ('SSE SSE2 SSE3 SSSE3 SSE41 POPCNT SSE42 CX16 LAHF X86_V2 AES PCLMULQDQ SHA ADX RDRND RDSEED '
            'CMPCCXADD AVX XOP FMA4 F16C FMA3 AVX2 BMI BMI2 LZCNT MOVBE X86_V3 GFNI VAES VPCLMULQDQ AVX_VNNI '
            'AVX_IFMA AVX_VNNI_INT8 AVX_VNNI_INT16 AVX_NE_CONVERT SHA512 SM3 SM4 AVX512F AVX512CD AVX512BW '
            'AVX512DQ AVX512VL AVX512_SKX X86_V4 AVX512VNNI AVX512_CLX AVX512IFMA AVX512VBMI AVX512_CNL '
            'AVX512VBMI2 AVX512BITALG AVX512VPOPCNTDQ AVX512_ICL AVX512_VP2INTERSECT AVX512BF16 AVX512FP16 '
            'AVX512_SPR AVX10_1 AVX10_2 AMX_TILE AMX_INT8 AMX_BF16 AMX_FP16 AMX_COMPLEX APX_F').split()
# Rows whose own flag only newer compilers know (GCC 12 and Clang 14 reject
# every one): asked of the compiler itself, so the expectations also hold
# for a newer one. A rejected flag leaves the row out of "max".
NEWER_FLAGS = {'CMPCCXADD': '-mcmpccxadd', 'AVX_IFMA': '-mavxifma', 'AVX_VNNI_INT8': '-mavxvnniint8',
               'AVX_VNNI_INT16': '-mavxvnniint16', 'AVX_NE_CONVERT': '-mavxneconvert', 'SHA512': '-msha512',
               'SM3': '-msm3', 'SM4': '-msm4', 'AVX10_2': '-mavx10.2', 'AMX_FP16': '-mamx-fp16',
               'AMX_COMPLEX': '-mamx-complex', 'APX_F': '-mapxf'}


def compiler_rejects(flag):
    cc = os.environ.get('CC', 'cc').split()
    return subprocess.run(cc + [flag, '-Werror', '-E', '-x', 'c', os.devnull],
                          capture_output=True).returncode != 0


X86 = [x for x in X86_ROWS if not (x in NEWER_FLAGS and compiler_rejects(NEWER_FLAGS[x]))]
MIN = ['SSE', 'SSE2']
UPTO_AVX2 = MIN + ['SSE3', 'SSSE3', 'SSE41', 'POPCNT', 'SSE42', 'AVX', 'F16C', 'AVX2']
# What GCC 12 and Clang 14 enable for -march=haswell (no AES: they leave it out).
HASWELL = MIN + ['SSE3', 'SSSE3', 'SSE41', 'POPCNT', 'SSE42', 'CX16', 'LAHF', 'X86_V2',
                 'PCLMULQDQ', 'RDRND', 'AVX', 'F16C', 'FMA3', 'AVX2', 'BMI', 'BMI2', 'LZCNT', 'MOVBE', 'X86_V3']


def minus(a, b):
    return [x for x in a if x not in b]


# AVX10 is AVX-512 with a version number: it implies AVX512F too.
NO_AVX512 = [x for x in X86 if not x.startswith('AVX512') and x not in ('X86_V4', 'AVX10_1', 'AVX10_2')]

# name: dict(args=[...setup options], env={...}, baseline=[...], dispatch=[...],
#            targets={source: [...]}, header={source: regex}, messages=[regex],
#            error=[regex], build=bool, old_compiler=bool, absent=[regex])
CASES = {
    'min': dict(args=['-Dcpudispatch:cpu-baseline=min'], baseline=MIN, dispatch=minus(X86, MIN)),
    'max-baseline': dict(args=['-Dcpudispatch:cpu-baseline=max', '-Dcpudispatch:cpu-dispatch=max',
                               '-Dcpudispatch:summary-skipped=all'],
                         baseline=X86, dispatch=[],
                         messages=[r'AVX512_SPR: in the baseline']),
    'none': dict(args=['-Dcpudispatch:cpu-baseline=none', '-Dcpudispatch:cpu-dispatch=none'],
                 # x86_64 compilers always emit SSE2: detect adds it back, and says so.
                 baseline=MIN, dispatch=[],
                 messages=[r'already enables SSE SSE2; added to the baseline'],
                 targets={'sum': ['baseline'], 'scale': ['baseline']}, build=True),
    'native': dict(args=['-Dcpudispatch:cpu-baseline=native', '-Dcpudispatch:cpu-dispatch=max'],
                   baseline='native'),
    'detect-march-haswell': dict(args=['-Dc_args=-march=haswell', '-Dcpp_args=-march=haswell',
                                       '-Dcpudispatch:cpu-baseline=detect'],
                                 baseline=HASWELL, dispatch=minus(X86, HASWELL),
                                 targets={'sum': ['AVX512_SKX', 'baseline'], 'scale': ['baseline']},
                                 header={'sum': r'SSE42: part of the baseline; the baseline build covers it'},
                                 build=True),
    'global-march-widens-min': dict(args=['-Dc_args=-march=haswell', '-Dcpp_args=-march=haswell'],
                                    baseline=HASWELL,
                                    messages=[r'already enables .*AVX2.*added to the baseline']),
    'global-march-in-cxx-flags-only': dict(args=['-Dcpp_args=-march=haswell'], baseline=HASWELL),
    # -mavx2 alone: AVX2 without the F16C it implies still joins the baseline.
    'global-mavx2-alone': dict(args=['-Dc_args=-mavx2', '-Dcpp_args=-mavx2'], baseline=UPTO_AVX2,
                               messages=[r'already enables .*F16C AVX2; added to the baseline']),
    'max-minus-avx512f': dict(args=['-Dcpudispatch:cpu-dispatch=max -avx512f'],
                              baseline=MIN, dispatch=minus(NO_AVX512, MIN),
                              targets={'sum': ['AVX2', 'SSE42', 'baseline'], 'scale': ['X86_V3', 'baseline']},
                              build=True),
    # A level also takes what it adds to the one below (issue 15): no AVX-512
    # is left after -x86_v4, no AVX after -x86_v3 (AVX512F implies AVX2).
    'max-minus-x86v4': dict(args=['-Dcpudispatch:cpu-dispatch=max -x86_v4'],
                            dispatch=minus(NO_AVX512, MIN)),
    'max-minus-x86v3': dict(args=['-Dcpudispatch:cpu-dispatch=max -x86_v3'],
                            dispatch=minus(NO_AVX512, MIN + ['AVX', 'XOP', 'FMA4', 'F16C', 'FMA3', 'AVX2', 'BMI', 'BMI2',
                                                             'LZCNT', 'MOVBE', 'X86_V3', 'VAES', 'VPCLMULQDQ',
                                                             'AVX_VNNI', 'AVX_IFMA', 'AVX_VNNI_INT8', 'AVX_VNNI_INT16',
                                                             'AVX_NE_CONVERT', 'SHA512', 'SM3', 'SM4']),
                            targets={'sum': ['SSE42', 'baseline'], 'scale': ['baseline']},
                            build=True),
    'min-plus-avx2': dict(args=['-Dcpudispatch:cpu-baseline=min +avx2'], baseline=UPTO_AVX2),
    'operator-as-token': dict(args=['-Dcpudispatch:cpu-baseline=min + avx2'], baseline=UPTO_AVX2),
    'case-variants': dict(args=['-Dcpudispatch:cpu-baseline=MiN +AvX2', '-Dcpudispatch:cpu-dispatch=Max -AVX512f'],
                          baseline=UPTO_AVX2, dispatch=minus(NO_AVX512, UPTO_AVX2)),
    'comma-space-mix': dict(args=['-Dcpudispatch:cpu-baseline=sse,sse2 ,sse3', '-Dcpudispatch:cpu-dispatch=ssse3,, sse41 ,avx2'],
                            baseline=MIN + ['SSE3'],
                            dispatch=['SSSE3', 'SSE41', 'POPCNT', 'SSE42', 'AVX', 'F16C', 'AVX2']),
    'aliases': dict(args=['-Dcpudispatch:cpu-baseline=sse4_2', '-Dcpudispatch:cpu-dispatch=x86-64-v3'],
                    baseline=MIN + ['SSE3', 'SSSE3', 'SSE41', 'POPCNT', 'SSE42'],
                    dispatch=minus(HASWELL, MIN + ['SSE3', 'SSSE3', 'SSE41', 'POPCNT', 'SSE42', 'PCLMULQDQ', 'RDRND'])),
    'numpy-seed': dict(args=['-Dcpudispatch:cpu-baseline=sse sse2 sse3', '-Dcpudispatch:cpu-dispatch=ssse3 sse41'],
                       baseline=MIN + ['SSE3'], dispatch=['SSSE3', 'SSE41'],
                       targets={'sum': ['baseline'], 'scale': ['baseline']}, build=True),
    'numpy-default-dispatch': dict(args=['-Dcpudispatch:cpu-dispatch=max -xop -fma4'],
                                   dispatch=minus(X86, MIN + ['XOP', 'FMA4'])),
    'numpy-retired-names': dict(args=['-Dcpudispatch:cpu-dispatch=max -avx512_knl -avx512_knm'],
                                dispatch=minus(X86, MIN),
                                messages=[r'"AVX512_KNL" is retired on x86_64']),
    'other-arch-names': dict(args=['-Dcpudispatch:cpu-baseline=min asimd', '-Dcpudispatch:cpu-dispatch=avx2 asimddp vsx3 vxe rvv'],
                             baseline=MIN,
                             dispatch=['SSE3', 'SSSE3', 'SSE41', 'POPCNT', 'SSE42', 'AVX', 'F16C', 'AVX2'],
                             messages=[r'"ASIMDDP" is a feature of aarch64 and arm; ignored on x86_64',
                                       r'"VSX3" is a feature of ppc64le; ignored', r'"VXE" is a feature of s390x',
                                       r'"RVV" is a feature of riscv64', r'cpu-baseline: "ASIMD" is a feature of aarch64 and arm']),
    'unknown-name': dict(args=['-Dcpudispatch:cpu-dispatch=max avx513'],
                         error=[r'cpu-dispatch: unknown CPU feature "AVX513" in "max avx513"',
                                r'valid names on x86_64: SSE SSE2 .* APX_F; keywords: min max native none detect']),
    # A build without C++ (a native file naming a cpp that does not exist)
    # cannot build cpudispatch's own tests, which are C and C++: asking for
    # them says so (test/c_only shows the same build configures without).
    'tests-need-cpp': dict(args=['-Dcpudispatch:tests=enabled'], no_cpp=True,
                           error=[r'-Dtests=enabled needs a C\+\+ compiler \(the C\+\+ API is tested too\); none '
                                  r'was found or -Dcpp=disabled']),
    'unknown-baseline-name': dict(args=['-Dcpudispatch:cpu-baseline=sse5'],
                                  error=[r'cpu-baseline: unknown CPU feature "SSE5"']),
    'dangling-operator': dict(args=['-Dcpudispatch:cpu-baseline=min +'],
                              error=[r'cpu-baseline: operator "\+" at the end of "min \+" has no feature name']),
    'minus-none': dict(args=['-Dcpudispatch:cpu-dispatch=-none'], error=[r'"-none" makes no sense']),
    'baseline-compiler-cannot': dict(args=['-Dcpudispatch:cpu-baseline=avx512_spr'], old_compiler=True,
                                     error=[r'cpu-baseline: the compiler \(\w+ [\d.]+\) cannot build baseline feature '
                                            r'AVX512FP16 with flags "[^"]*-mavx512fp16[^"]*": the flags are rejected']),
    'dispatch-compiler-cannot': dict(args=['-Dcpudispatch:summary-skipped=all'], old_compiler=True,
                                     dispatch=minus(X86, MIN + ['AVX512FP16', 'AVX512_SPR', 'AVX10_1']),
                                     messages=[r'AVX512FP16: the compiler rejects "[^"]*-mavx512fp16',
                                               r'AVX512_SPR: needs AVX512FP16, which is not enabled',
                                               r'AVX10_1: needs AVX512FP16 AVX512_SPR, which is not enabled']),
    # The summary lists only what cpu-dispatch named (and what that
    # implies); what max brought is one count (dispatch-compiler-cannot,
    # with summary-skipped=all, is the control: there the lines are).
    'summary-asked': dict(args=[], old_compiler=True,
                          dispatch=minus(X86, MIN + ['AVX512FP16', 'AVX512_SPR', 'AVX10_1']),
                          messages=[r'skipped +: \d+ that max brought: in the baseline, or not built by this compiler '
                                    r'\(-Dcpudispatch:summary-skipped=all lists them\)'],
                          absent=[r'AVX512FP16: the compiler rejects', r'AVX512_SPR: needs', r'SSE2: in the baseline']),
    'summary-names-asked': dict(args=['-Dcpudispatch:cpu-dispatch=max avx512_spr sse2'], old_compiler=True,
                                dispatch=minus(X86, MIN + ['AVX512FP16', 'AVX512_SPR', 'AVX10_1']),
                                messages=[r'AVX512FP16: the compiler rejects "[^"]*-mavx512fp16',
                                          r'AVX512_SPR: needs AVX512FP16, which is not enabled',
                                          r'SSE2: in the baseline',
                                          r'\d+ more that max avx512_spr sse2 brought'],
                                absent=[r'AVX10_1: needs']),
    'disable-optimization': dict(args=['-Dcpudispatch:disable-optimization=true', '-Dcpudispatch:summary-skipped=all'], baseline=MIN, dispatch=[],
                                 targets={'sum': ['baseline'], 'scale': ['baseline']},
                                 messages=[r'AVX2: disable-optimization is set'], build=True),
    'source-targets-sorted': dict(args=['-Dsum-targets=avx2, baseline sse42 AVX512_SKX',
                                        '-Dscale-targets=sse41 x86_v3'],
                                  targets={'sum': ['AVX512_SKX', 'AVX2', 'SSE42', 'baseline'],
                                           'scale': ['X86_V3', 'SSE41']}, build=True),
    'source-target-in-baseline': dict(args=['-Dcpudispatch:cpu-baseline=x86_v3', '-Dsum-targets=sse42 avx2 avx512_skx'],
                                      targets={'sum': ['AVX512_SKX', 'baseline']}, build=True),
    # The parent snippet of docs/quickstart.md, verbatim, as a whole project.
    'docs-snippet': dict(args=[], snippet=True, build=True),
    # cpudispatch 0.2's loop (one generator run per source, cpud['gen']):
    # configure stops at its own assert with the migration, not at a Meson
    # error about a variable (docs/quickstart.md, NEWS.md 0.3.0).
    'old-loop': dict(args=[], old_loop=True,
                     error=[r"ERROR: Assert failed: cpudispatch: cpudispatch 0\.3 runs the generator once for all of "
                            r"a loop's dispatch sources, and cpud\['gen'\] \(one run per source, cpudispatch 0\.2's "
                            r"loop\) is gone\. Replace the loop with the block of docs/quickstart\.md: "
                            r"`kernel_gen = cpud\['generate'\]`.*t\.split\(':'\)\[2\]"],
                     absent=[r'Unknown variable|Key .* is not in the dictionary|has no attribute']),
    # cpudispatch 0.1's loop (cpudispatch_gen --list/--header/--flags and
    # cpudispatch_targets): the same, with the migration from 0.1's form.
    'oldest-loop': dict(args=[], old_loop=True, loop='0.1',
                        error=[r"ERROR: Assert failed: cpudispatch: cpudispatch 0\.2 replaced the loop of "
                               r"cpudispatch_gen --list/--header/--flags and cpudispatch_targets with the block of "
                               r"docs/quickstart\.md: .*kernel_gen = cpud\['generate'\].*t\.split\(':'\)\[2\]"],
                        absent=[r'Unknown variable|Requested variable|Key .* is not in the dictionary|has no attribute']),
    # Start-up check: an X86_V3 build under emulated CPUs below and above it.
    # The program has its own AVX2 static initialiser; cpudispatch-info too
    # is built for the baseline. Below: message + status 69, never SIGILL;
    # with the (unsafe) skip variable the same run dies of SIGILL, which
    # proves the static initialiser really executes AVX2 before main.
    'baseline-check-under-qemu': dict(
        args=['-Dcpudispatch:cpu-baseline=x86_v3'], build=False, build_only=True,
        qemu=[('Nehalem', 'app', {}, 69, r'^cpudispatch: cpud_fixture in this program was built for x86_64 CPUs with SSE '
                                         r'.*X86_V3 \(its baseline\), but this CPU lacks AVX F16C FMA3 AVX2 BMI BMI2 LZCNT '
                                         r'MOVBE X86_V3\. Run it on a CPU that has them, or use a build of cpud_fixture '
                                         r'for older CPUs\. CPUD_FIXTURE_SKIP_CPU_BASELINE_CHECK=1 skips'),
              ('Nehalem', 'info', {}, 69, r'but this CPU lacks AVX '),
              ('SandyBridge', 'app', {}, 69, r'but this CPU lacks F16C FMA3 AVX2 BMI BMI2 LZCNT MOVBE X86_V3\.'),
              ('Nehalem', 'app', {'CPUD_FIXTURE_SKIP_CPU_BASELINE_CHECK': '1'}, -4, r''),
              ('Haswell', 'app', {}, 0, r'^$'),
              ('Haswell', 'info', {}, 0, r'^$')]),
    # Host mode (mode=init, docs/python.md): a bad variable never
    # ends the process; with nobody calling cpud_host_init() first, the
    # runtime says so once and runs the baseline builds only.
    'host-mode-bad-variable': dict(
        args=['-Dcpudispatch:mode=init'], build_only=True,
        qemu=[(None, 'info', {'CPUD_FIXTURE_ENABLE_CPU_FEATURES': 'nosuch'}, 0,
               r'^cpudispatch: CPUD_FIXTURE_ENABLE_CPU_FEATURES: unknown CPU feature "nosuch"; valid names on '
               r'x86_64: .*; only the baseline builds run$',
               r'^SSE2 +baseline +yes +yes *\nSSE3 +dispatch +yes +masked *$'),
              (None, 'info', {'CPUD_FIXTURE_DISABLE_CPU_FEATURES': 'avx2'}, 0, r'^$',
               r'^SSE42 +dispatch +yes +yes *$')]),
    # ... and nothing guards a program's start: the host's job (an X86_V3
    # program's own AVX2 static initialiser dies of SIGILL under Nehalem).
    # Set in cpudispatch 0.1's form, startup-check=false, which is said to
    # be mode=init and builds as such.
    'host-mode-has-no-startup-check': dict(
        args=['-Dcpudispatch:startup-check=false', '-Dcpudispatch:cpu-baseline=x86_v3'], build_only=True,
        messages=[r"cpudispatch: startup-check=false is cpudispatch 0\.1's form of mode=init \(docs/options\.md\); "
                  r'building in mode init'],
        qemu=[('Nehalem', 'app', {}, -4, r''), ('Haswell', 'app', {}, 0, r'^$')]),
    # A library without an init function in a distribution that raises its
    # baseline with a global -march: the baseline is the flags' level, the
    # loader refuses the program below it (status 127, glibc's line) and it
    # runs at it.
    'library-mode-global-march': dict(args=['-Dcpudispatch:mode=library', '-Dc_args=-march=x86-64-v2',
                                            '-Dcpp_args=-march=x86-64-v2'], build_only=True,
                                      qemu=[('core2duo', 'app', {}, 127, r'CPU ISA level is lower than required'),
                                            ('Nehalem', 'app', {}, 0, r'^$')]),
    'mode-and-old-form-disagree': dict(args=['-Dcpudispatch:startup-check=false', '-Dcpudispatch:mode=library'],
                                       error=[r"startup-check=false \(cpudispatch 0\.1's form of mode=init\) and "
                                              r'mode=library disagree; set mode alone']),
    # Start-up reads only the build's features (docs/runtime.md): with
    # dispatch targets SSE41 and AVX2, FMA3 is none of them nor implied, so
    # under Haswell it is "cpu yes" (introspection reads every row) but not
    # usable ("-"), and start-up read leaves 1 and 7.0 only (the whole
    # table also reads 7.1 and 0x80000001); an ENABLE variable naming it makes start-up read every
    # row, so the CPU's FMA3 is accepted with a warning, never refused as
    # unsupported (status 78), as a reading of the build's rows alone would;
    # it stays unusable, as every feature outside the build.
    'narrow-dispatch-start-up': dict(
        args=['-Dcpudispatch:cpu-dispatch=sse41 avx2'], build_only=True,
        qemu=[('Haswell', 'info', {}, 0, r'^$',
               r'(?s)^start-up executed \d+ CPUID instructions \(leaves read: 1 7\.0\)$.*^FMA3 +- +yes +- *$'),
              ('Haswell', 'info', {'CPUD_FIXTURE_ENABLE_CPU_FEATURES': 'fma3'}, 0,
               r'^cpudispatch: warning: CPUD_FIXTURE_ENABLE_CPU_FEATURES: FMA3 is not a target any dispatch source of this program was compiled for',
               r'^FMA3 +- +yes +- *\nAVX2 +dispatch +yes +masked *$'),
              ('Nehalem', 'info', {'CPUD_FIXTURE_ENABLE_CPU_FEATURES': 'fma3'}, 78,
               r'cannot enable FMA3: this CPU \(or its operating system\) does not support it')]),
    # The environment-variable prefix is a build option.
    'env-prefix': dict(args=['-Dcpudispatch:env-prefix=MYLIB'], build_only=True,
                       qemu=[(None, 'info', {'MYLIB_ENABLE_CPU_FEATURES': 'nosuch'}, 78,
                              r'^cpudispatch: MYLIB_ENABLE_CPU_FEATURES: unknown CPU feature "nosuch"'),
                             (None, 'info', {'CPUDISPATCH_ENABLE_CPU_FEATURES': 'nosuch'}, 0, r'^$')]),
    'env-prefix-invalid': dict(args=['-Dcpudispatch:env-prefix=MY-LIB'],
                               error=[r'env-prefix: "MY-LIB" is not a valid environment variable prefix']),
    # By default the prefix is the project's name (cpud_fixture); the
    # variable every build of cpudispatch 0.1 read is reported, not applied.
    'env-prefix-default': dict(args=[], build_only=True,
                               qemu=[(None, 'info', {'CPUD_FIXTURE_ENABLE_CPU_FEATURES': 'nosuch'}, 78,
                                      r'^cpudispatch: CPUD_FIXTURE_ENABLE_CPU_FEATURES: unknown CPU feature "nosuch"'),
                                     (None, 'info', {'CPUDISPATCH_ENABLE_CPU_FEATURES': 'nosuch'}, 0,
                                      r'^cpudispatch: warning: CPUDISPATCH_ENABLE_CPU_FEATURES is set, but cpud_fixture '
                                      r'reads CPUD_FIXTURE_ENABLE_CPU_FEATURES \(since cpudispatch 0\.2 each library\'s '
                                      r'variables carry its name\); not applied here$')]),
    'namespace-invalid': dict(args=['-Dcpudispatch:namespace=my-ns'],
                              error=[r'namespace: "my-ns" is not a valid namespace \(a C identifier']),
    # A library without an init function: only a baseline the loader can
    # enforce (an x86-64 level) is accepted; AES is in none.
    'library-mode-unenforceable': dict(args=['-Dcpudispatch:mode=library', '-Dcpudispatch:cpu-baseline=x86_v2 aes'],
                                    error=[r'mode=library \(a library without an init function\) with cpu-baseline '
                                           r'"x86_v2 aes": nothing can keep this library\'s baseline code \(.*AES\) off a '
                                           r'CPU below it.*Use cpu-baseline=min or one the loader enforces \(X86_V2, '
                                           r'X86_V3, X86_V4: glibc refuses to load the library on an older CPU\), or give the '
                                           r'library an init function that calls cpud_library_init\(\)']),
    'source-unknown-target': dict(args=['-Dsum-targets=baseline avx3'],
                                  error=[r'ERROR: Assert failed: cpudispatch: dispatch source "sum": unknown target "avx3" in '
                                         r'"baseline avx3"; valid names on x86_64: baseline SSE SSE2 ']),
}


# cpudispatch 0.2's loop, as its docs/quickstart.md gave it.
OLD_LOOP = '''cpud = subproject('cpudispatch').get_variable('cpudispatch')
kernel_libs = []
foreach src, want : {'src/sum.dispatch.c': 'baseline SSE42 AVX2', 'src/scale.dispatch.cpp': 'baseline X86_V3'}
  r = run_command(cpud['gen'] + [src, want], check: false)  # writes NAME.dispatch.h; prints LIBRARY:ARG|ARG|... per target
  assert(r.returncode() == 0, r.stderr())
  foreach t : r.stdout().split()  # e.g. sum_AVX2:-mavx2|...|-DCPUD_TARGET=AVX2; a group AVX2+FMA3: sum_AVX2__FMA3:...
    kernel_libs += static_library(t.split(':')[0], src, dependencies: cpud['target'], c_args: t.split(':')[1].split('|'), cpp_args: t.split(':')[1].split('|'))
  endforeach
endforeach
kernels = custom_target('kernels', input: kernel_libs, output: 'libkernels.a', command: cpud['check'] + ['--archive', '@OUTPUT@', '@INPUT@'])
'''
# cpudispatch 0.1's loop, as its docs/quickstart.md gave it.
OLDEST_LOOP = '''cpud = subproject('cpudispatch')
cpud_gen = cpud.get_variable('cpudispatch_gen')  # resolves a source's target list, writes its header
cpud_targets = cpud.get_variable('cpudispatch_targets')  # a target's flags; 'group': see below
kernel_libs = []
foreach src, want : {'src/sum.dispatch.c': 'baseline SSE42 AVX2', 'src/scale.dispatch.cpp': 'baseline X86_V3'}
  name = src.split('/')[-1].split('.')[0]
  r = run_command(cpud_gen + ['--list', name, want], check: false)
  assert(r.returncode() == 0, r.stderr())
  hdr = configure_file(output: name + '.dispatch.h', command: cpud_gen + ['--header', '@OUTPUT@', name, want])
  foreach t : r.stdout().split()
    dep = t in cpud_targets ? cpud_targets[t] : declare_dependency(dependencies: cpud_targets['group'], compile_args: run_command(cpud_gen + ['--flags', t], check: true).stdout().split())
    kernel_libs += static_library(name + '_' + t, src, hdr, dependencies: dep)
  endforeach
endforeach
kernels = custom_target('kernels', input: kernel_libs, output: 'libkernels.a',
                        command: cpud.get_variable('cpudispatch_check') + ['--archive', '@OUTPUT@', '@INPUT@'])
'''


def native_expectation():
    """What -march=native enables, asked of the compiler itself by macro."""
    cc = os.environ.get('CC', 'cc').split()
    out = subprocess.run(cc + ['-march=native', '-dM', '-E', '-x', 'c', os.devnull],
                         capture_output=True, text=True, check=True).stdout
    return set(re.findall(r'#define (__\w+__) 1', out))


def fixture_project(tmp):
    """The fixture consumer copied to tmp/proj, with an empty subprojects/
    (the caller links cpudispatch in); its path."""
    proj = os.path.join(tmp, 'proj')
    shutil.copytree(os.path.join(HERE, 'fixture'), proj)
    # main.cpp and the dispatch sources are the example project's (one copy).
    for f in ('sum.dispatch.c', 'scale.dispatch.cpp', 'main.cpp'):
        shutil.copy(os.path.join(ROOT, 'examples', 'consumer', 'src', f), os.path.join(proj, 'src', f))
    os.makedirs(os.path.join(proj, 'subprojects'))
    return proj


# Cases whose outcome is settled by the option text alone (its grammar, its
# names, what the summary lists), whatever compiler the checks then ask:
# test/configure/meson.build runs them in the GCC build only, the others
# with every compiler.
OPTION_TEXT_ONLY = {'operator-as-token', 'case-variants', 'comma-space-mix', 'aliases', 'numpy-retired-names',
                    'other-arch-names', 'unknown-name', 'unknown-baseline-name', 'dangling-operator', 'minus-none',
                    'env-prefix-invalid', 'source-unknown-target', 'summary-asked', 'summary-names-asked',
                    'tests-need-cpp', 'old-loop', 'oldest-loop'}
assert OPTION_TEXT_ONLY <= set(CASES)


def run_case(name):
    if platform.machine() not in ('x86_64', 'AMD64'):
        print('the configure grid spells x86_64 expectations; skipped on', platform.machine())
        return 77
    case = CASES[name]
    tmp = tempfile.mkdtemp(prefix='cpud-grid-')
    try:
        proj = fixture_project(tmp)
        if case.get('snippet'):
            snippet = docs_snippet()
            if len(snippet) > 12:
                print('FAIL: the docs snippet has %d lines; the promise is at most 12' % len(snippet))
                return 1
            with open(os.path.join(proj, 'meson.build'), 'w') as fh:
                fh.write("project('snippet', 'c', 'cpp', default_options: ['cpp_std=c++17', 'c_std=c11'])\n")
                fh.write('\n'.join(snippet + docs_block('snippet-use')) + '\n')
            os.remove(os.path.join(proj, 'meson_options.txt'))
        if case.get('old_loop'):
            with open(os.path.join(proj, 'meson.build'), 'w') as fh:
                fh.write("project('old_loop', 'c', 'cpp', default_options: ['cpp_std=c++17', 'c_std=c11'])\n"
                         + (OLDEST_LOOP if case.get('loop') == '0.1' else OLD_LOOP))
            os.remove(os.path.join(proj, 'meson_options.txt'))
        os.symlink(ROOT, os.path.join(proj, 'subprojects', 'cpudispatch'))
        if case.get('no_cpp'):  # a C project, on a machine whose C++ compiler is missing
            with open(os.path.join(proj, 'meson.build'), 'w') as fh:
                fh.write("project('c_only', 'c')\nsubproject('cpudispatch')\n")
            os.remove(os.path.join(proj, 'meson_options.txt'))
            native = os.path.join(tmp, 'no-cpp.ini')
            with open(native, 'w') as fh:
                fh.write("[binaries]\ncpp = '/nonexistent/c++'\n")
            case = dict(case, args=case['args'] + ['--native-file', native])
        env = dict(os.environ)
        if case.get('old_compiler'):
            wrapper = os.path.join(HERE, 'old-compiler.sh')
            env['CPUD_REAL_CC'] = env.get('CC', 'cc')
            env['CPUD_REJECT_FLAGS'] = '-mavx512fp16'
            env['CC'] = wrapper
        build = os.path.join(tmp, 'build')
        cmd = ['meson', 'setup', build, proj] + case['args']
        print('$', ' '.join(repr(a) if ' ' in a else a for a in cmd))
        p = subprocess.run(cmd, capture_output=True, text=True, env=env)
        log = p.stdout + p.stderr
        failures = []
        if 'error' in case:
            if p.returncode == 0:
                failures.append('configure succeeded, an error was expected')
            for rx in case['error']:
                if not re.search(rx, log):
                    failures.append('error output lacks /%s/' % rx)
        else:
            if p.returncode != 0:
                print(log[-4000:])
                print('FAIL: configure failed')
                return 1
            got = read_resolved(build)
            if case.get('baseline') == 'native':
                macros = native_expectation()
                b = got['baseline']
                checks = {'AVX2': '__AVX2__', 'AVX512F': '__AVX512F__', 'SSE42': '__SSE4_2__',
                          'AVX512VNNI': '__AVX512VNNI__', 'AVX512FP16': '__AVX512FP16__'}
                for feat, macro in checks.items():
                    if (feat in b) != (macro in macros):
                        failures.append('native: %s in baseline is %s but -march=native defines %s: %s'
                                        % (feat, feat in b, macro, macro in macros))
                if got['dispatch'] != minus(X86, b):
                    failures.append('native: dispatch should be max minus the baseline, got %s' % got['dispatch'])
            else:
                for key in ('baseline', 'dispatch'):
                    if key in case and got[key] != case[key]:
                        failures.append('%s: expected %s\n%s      got %s' % (key, case[key], ' ' * len(key), got[key]))
            for src, want in case.get('targets', {}).items():
                # The generator as the loop runs it (its header to a scratch
                # folder: the build's own is the loop's, read below).
                source = 'src/%s.dispatch.%s' % (src, 'c' if src == 'sum' else 'cpp')
                wanted = dict(a.split('=', 1) for a in [x[2:] for x in case['args'] if x.startswith('-D')]).get(
                    src + '-targets', default_targets(src))
                words = subprocess.run([sys.executable, os.path.join(ROOT, 'src', 'build_side', 'cpudispatch_gen.py'),
                                        '--config', os.path.join(build, 'subprojects', 'cpudispatch', 'include',
                                                                 'cpudispatch_targets.txt'),
                                        '--out-dir', os.path.join(tmp, 'gen'), source, wanted],
                                       capture_output=True, text=True, check=True).stdout.split()
                lst = [w.split(':', 1)[0][len(src) + 1:] for w in words]  # LIBRARY = NAME_TARGET
                # The words: baseline first, then ascending interest (the header: highest first).
                link_order = [t for t in want if t == 'baseline'] + [t for t in reversed(want) if t != 'baseline']
                if lst != link_order:
                    failures.append('targets of %s: expected %s, got %s' % (src, link_order, lst))
                hdr = open(os.path.join(build, src + '.dispatch.h')).read()
                rx = case.get('header', {}).get(src)
                if rx and not re.search(rx, hdr):
                    failures.append('%s.dispatch.h lacks /%s/' % (src, rx))
                m = re.search(r'#define CPUD_%s__TARGET_NAMES "([^"]*)"' % src, hdr)
                if not m or m.group(1).split() != want:
                    failures.append('%s.dispatch.h names %s, expected %s' % (src, m and m.group(1), want))
            if case.get('build') or case.get('build_only'):
                # cpudispatch-info is built on demand in a parent's build.
                extra = ['all', 'subprojects/cpudispatch/src/info/cpudispatch-info'] if case.get('qemu') else []
                b = subprocess.run(['ninja', '-C', build] + extra, capture_output=True, text=True)
                if b.returncode != 0:
                    failures.append('build failed:\n' + b.stdout[-3000:])
                elif case.get('build'):
                    r = subprocess.run([os.path.join(build, 'app')], capture_output=True, text=True)
                    print(r.stdout, end='')
                    if r.returncode != 0:
                        failures.append('app failed with status %d' % r.returncode)
        for item in case.get('qemu', []):
            # (model, program, env, status, stderr regex[, stdout regex])
            model, prog, extra_env, want_rc, rx = item[:5]
            exe = {'app': os.path.join(build, 'app'),
                   'info': os.path.join(build, 'subprojects', 'cpudispatch', 'src', 'info', 'cpudispatch-info')}[prog]
            cmd = ['qemu-x86_64', '-cpu', model, exe] if model else [exe]
            r = subprocess.run(cmd, capture_output=True, text=True, env=dict(env, **extra_env))
            # qemu warns about model features TCG lacks; those lines are not the program's.
            err = '\n'.join(l for l in r.stderr.splitlines() if 'TCG doesn' not in l)
            where = 'qemu -cpu %s' % model if model else 'native'
            print('%s %s %s -> %d %s' % (where, prog, extra_env or '', r.returncode, err[:160]))
            if r.returncode != want_rc or not re.search(rx, err):
                failures.append('%s %s %s: expected status %d and /%s/, got %d: %s'
                                % (where, prog, extra_env, want_rc, rx, r.returncode, err))
            if len(item) > 5 and not re.search(item[5], r.stdout, re.M):
                failures.append('%s %s %s: stdout lacks /%s/:\n%s' % (where, prog, extra_env, item[5], r.stdout))
        for rx in case.get('messages', []):
            if not re.search(rx, log):
                failures.append('configure output lacks /%s/' % rx)
        for rx in case.get('absent', []):
            if re.search(rx, log):
                failures.append('configure output has /%s/' % rx)
        if failures:
            print(log[-6000:])
            for f in failures:
                print('FAIL:', f)
            return 1
        print('PASS')
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def docs_block(marker):
    return doc_blocks.block(os.path.join(ROOT, 'docs', 'quickstart.md'), marker)


def docs_snippet():
    return docs_block('snippet')


def default_targets(src):
    with open(os.path.join(HERE, 'fixture', 'meson_options.txt')) as fh:
        m = re.search(r"option\('%s-targets'.*value: '([^']*)'" % src, fh.read())
    return m.group(1)


def main():
    if sys.argv[1:] == ['--list']:
        print('\n'.join(CASES))
        return 0
    if sys.argv[1:] == ['--list-compiler-dependent']:
        print('\n'.join(n for n in CASES if n not in OPTION_TEXT_ONLY))
        return 0
    if len(sys.argv) != 2 or sys.argv[1] not in CASES:
        sys.exit('usage: run_grid.py --list | --list-compiler-dependent | CASE (one of: %s)' % ' '.join(CASES))
    return run_case(sys.argv[1])


if __name__ == '__main__':
    sys.exit(main())
