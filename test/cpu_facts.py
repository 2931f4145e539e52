"""Facts about CPUs for the drivers that build whole consumer projects
(test/consumer, test/example, test/setups): the qemu models' features from
src/run/qemu-models.txt, this machine's from /proc/cpuinfo, what the x86
targets (and groups of features) the fixtures use need. Written from what
the CPUs have, in the kernel's /proc/cpuinfo spelling, never derived from
cpudispatch's tables: the tests check cpudispatch's choices against them.

Import with the test directory on sys.path:
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
"""
import functools
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'tools'))
from qemu_models import read_models  # noqa: E402  (tools/qemu_models.py)
from wine import IN_QEMU_ENV, WINE, keep_wineserver  # noqa: E402,F401  (tools/wine.py, for the drivers)

# What each x86 target needs (pni = SSE3, abm = LZCNT): SSE4.2 with what it
# implies; AVX2 with the AVX and F16C it implies; x86-64-v3 (psABI: v2 + AVX
# AVX2 BMI1 BMI2 F16C FMA LZCNT MOVBE); AVX512_SKX = F CD BW DQ VL on CPUs
# that all have x86-64-v3. A group target (AVX2__FMA3) needs what each of
# its members needs: FMA3 is "fma"; VPCLMULQDQ widens PCLMULQDQ, which the
# CPUs with it all have.
SSE42 = {'sse', 'sse2', 'pni', 'ssse3', 'sse4_1', 'sse4_2', 'popcnt'}
AVX2 = SSE42 | {'avx', 'avx2', 'f16c'}
X86_V3 = SSE42 | {'cx16', 'lahf_lm', 'avx', 'avx2', 'bmi1', 'bmi2', 'f16c', 'fma', 'abm', 'movbe'}
AVX512_SKX = X86_V3 | {'avx512f', 'avx512cd', 'avx512bw', 'avx512dq', 'avx512vl'}
X86_NEEDS = {
    'baseline': set(),
    'SSE42': SSE42,
    'AVX2': AVX2,
    'AVX2__FMA3': AVX2 | {'fma'},
    'X86_V3': X86_V3,
    'AVX512_SKX': AVX512_SKX,
    'AVX512_SKX__VPCLMULQDQ': AVX512_SKX | {'vpclmulqdq', 'pclmulqdq'},
}

# 32-bit x86 (i686) and x86-64 are the same CPUs reading the same CPUID; in
# cpudispatch's names, what exists in one mode only (from the ISA, not the
# tables): 64-bit mode alone has CMPXCHG16B (CX16), CPUID's LAHF/SAHF bit
# (their presence in 64-bit mode; 32-bit mode always has them: LAHF), the
# x86-64 psABI levels built on those two, CMPccXADD, AMX and APX (Intel SDM:
# #UD outside 64-bit mode). MMX is a feature of 32-bit x86 only: x86-64
# includes it, so every x86-64 CPU has it. test/runtime/cpu_oracle.h spells
# the same facts for the C++ tests.
X86_ONLY_IN = {
    'x86_64': {'CX16', 'LAHF', 'X86_V2', 'X86_V3', 'X86_V4', 'CMPCCXADD', 'AMX_TILE', 'AMX_INT8', 'AMX_BF16',
               'AMX_FP16', 'AMX_COMPLEX', 'APX_F'},
    'x86': {'MMX'},
}


def models(arch):
    """{model: features} of the arch, in the file's (ascending) order."""
    entry = read_models().get(arch)
    return dict(entry[2]) if entry else {}


CPUID_READER = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'cpuid_flags.c')


@functools.lru_cache(maxsize=None)
def cpuid_flags(cc='cc'):
    """The flags the test's own CPUID reader finds on this machine
    (test/cpuid_flags.h, written from the SDM, not from cpudispatch's
    tables), in the kernel's spelling; None where it cannot be built or run."""
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, 'cpuid_flags')
        if subprocess.run([cc, CPUID_READER, '-o', exe], capture_output=True).returncode != 0:
            return None
        p = subprocess.run([exe], capture_output=True, text=True)
    return frozenset(p.stdout.split()) if p.returncode == 0 else None


def host_flags(cc='cc', quiet=False):
    """This x86 machine's features: what the kernel lists in /proc/cpuinfo
    and what the CPUID reader finds. A kernel lists only the flags it knows
    (Linux 6.18 prints no AVX10 flag; some guests' kernels list no "abm"
    though the CPU runs LZCNT), so a flag it leaves out is taken from CPUID
    rather than read as missing."""
    flags = set()
    with open('/proc/cpuinfo') as fh:
        for line in fh:
            if line.startswith('flags'):
                flags = set(line.split(':', 1)[1].split())
                break
    found = cpuid_flags(cc)
    if found is None:
        if not quiet:
            print('  the CPUID reader could not be built or run: the kernel\'s flags alone')
        return flags
    if found - flags and not quiet:
        print('  the kernel lists no %s; the CPUID reader finds them' % ' '.join(sorted(found - flags)))
    return flags | found
