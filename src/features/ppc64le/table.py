# SPDX-License-Identifier: MIT
# ppc64le feature table. Same format and key meanings as
# x86_64/table.py (see its header comment).
#
#   detect   ['hwcap', BIT] / ['hwcap2', BIT]: bit number (not mask) of
#            getauxval(AT_HWCAP) / getauxval(AT_HWCAP2) on Linux
#
# -mcpu= values are merged (highest-interest one wins) when a closure is
# combined, so VSX4 ends up as -mvsx -mcpu=power10.
# Tests assign each intrinsic's result to a vector: Clang hides intrinsics of
# a newer CPU, and an implicitly declared function (only a warning in Clang
# 14) returning int then fails to convert.
{
  # How -march=BASE<sep>EXT spellings join extensions (a target's flags
  # merge into one -march), and the runtime's detection source (src/runtime/).
  'march_ext_sep': '+',
  'detect_source': 'detect_linux_hwcap.c',
  # The ppc64le ELFv2 ABI (and Debian's default -mcpu) is POWER8.
  'min': ['VSX', 'VSX2'],
  'native': ['-mcpu=native'],
  # The arch's floor (see x86_64/table.py): the ELFv2 ABI's POWER8. GCC
  # keeps an explicit -mpower9-vector / -mpower9-misc through a later
  # -mcpu=power8 (Clang lacks -mpower9-misc: the build drops what a compiler
  # rejects, which then cannot have been enabled either).
  'floor': ['-mcpu=power8', '-mno-power9-vector', '-mno-power9-misc'],
  'retired': [],
  'features': [
    # AT_HWCAP VSX 0x00000080; VSX implies AltiVec (0x10000000), not checked.
    {'name': 'VSX', 'implies': [], 'flags': ['-mvsx'],
     'headers': ['altivec.h'], 'cdef': 'defined(__VSX__)',
     'detect': ['hwcap', 7]},
    # AT_HWCAP2 ARCH_2_07 0x80000000 (POWER8).
    {'name': 'VSX2', 'implies': ['VSX'], 'flags': ['-mcpu=power8'],
     'headers': ['altivec.h'], 'cdef': 'defined(__POWER8_VECTOR__)',
     'detect': ['hwcap2', 31]},
    # AT_HWCAP2 ARCH_3_00 0x00800000 (POWER9).
    {'name': 'VSX3', 'implies': ['VSX2'], 'flags': ['-mcpu=power9'],
     'headers': ['altivec.h'], 'cdef': 'defined(__POWER9_VECTOR__)',
     'detect': ['hwcap2', 23]},
    # AT_HWCAP2 ARCH_3_1 0x00040000 (POWER10). GCC 12 does not define
    # __POWER10_VECTOR__ (Clang 14 does); _ARCH_PWR10 works for both.
    # broken: GCC PR109069 (https://gcc.gnu.org/PR109069), a GCC 12/13
    # regression fixed in 12.4 and 13.2: at -O1 and above, vec_sld (vsldoi) of
    # a constant vector is folded into a wrong constant. Highway leaves its
    # POWER10 target out for these versions (HWY_BROKEN_PPC10 in
    # hwy/detect_targets.h; there for big-endian only, where its tests
    # failed). GCC's regression test gcc.target/powerpc/pr109069-1.c also
    # fails on ppc64le with Debian's GCC 12.2 at -O2, at -mcpu=power8 as at
    # -mcpu=power10: the entry keeps the known-bad POWER10 target out; it
    # cannot make the VSX/VSX2 baseline code of these versions right.
    {'name': 'VSX4', 'implies': ['VSX3'], 'flags': ['-mcpu=power10'],
     'headers': ['altivec.h'], 'cdef': 'defined(__VSX__) && defined(_ARCH_PWR10)',
     'detect': ['hwcap2', 18],
     'broken': [
       {'compiler': 'gcc', 'versions': ['>=12.0', '<12.4'],
        'why': 'GCC PR109069: vec_sld of a constant vector folds to a wrong value'},
       {'compiler': 'gcc', 'versions': ['>=13.0', '<13.2'],
        'why': 'GCC PR109069: vec_sld of a constant vector folds to a wrong value'},
     ]},
  ],
}
