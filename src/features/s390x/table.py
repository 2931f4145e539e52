# SPDX-License-Identifier: MIT
# s390x feature table. Same format and key meanings as
# x86_64/table.py (see its header comment).
#
#   detect   ['hwcap', BIT]: bit number (not mask) of getauxval(AT_HWCAP)
#            on Linux; the kernel sets VXRS* only when it saves vector state
#
# -march=archN values are merged (highest-interest one wins) when a closure
# is combined: VXE2 ends up as -march=arch13 -mzvector.
# -march=arch11 alone defines __VX__ but not the vector language extension:
# vecintrin.h and the `__vector` keyword need -mzvector (defines __VEC__).
{
  # How -march=BASE<sep>EXT spellings join extensions (a target's flags
  # merge into one -march), and the runtime's detection source (src/runtime/).
  'march_ext_sep': '+',
  'detect_source': 'detect_linux_hwcap.c',
  # Debian s390x targets z196 (arch9): no vector facility assumed.
  'min': [],
  'native': ['-march=native'],
  # The arch's floor (see x86_64/table.py): Debian's default, z196;
  # Clang keeps an explicit -mvx through a later -march=z196.
  'floor': ['-march=z196', '-mno-vx'],
  'retired': [],
  'features': [
    # z13, AT_HWCAP VXRS 2048.
    {'name': 'VX', 'implies': [], 'flags': ['-march=arch11', '-mzvector'],
     'headers': ['vecintrin.h'], 'cdef': 'defined(__VEC__) && defined(__VX__)',
     'detect': ['hwcap', 11]},
    # z14, AT_HWCAP VXRS_EXT 8192: adds single-precision vector FP.
    {'name': 'VXE', 'implies': ['VX'], 'flags': ['-march=arch12'],
     'headers': ['vecintrin.h'], 'cdef': 'defined(__VEC__) && defined(__ARCH__) && __ARCH__ >= 12',
     'detect': ['hwcap', 13]},
    # z15, AT_HWCAP VXRS_EXT2 32768: adds int<->single conversions and
    # shift-double-by-bit. Not vec_signed(float): Clang 14 at arch12 still
    # accepts it through its double overload and lax vector conversions.
    {'name': 'VXE2', 'implies': ['VXE'], 'flags': ['-march=arch13'],
     'headers': ['vecintrin.h'], 'cdef': 'defined(__VEC__) && defined(__ARCH__) && __ARCH__ >= 13',
     'detect': ['hwcap', 15]},
  ],
}
