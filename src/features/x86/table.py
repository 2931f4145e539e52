# SPDX-License-Identifier: MIT
# x86 (32-bit: i686, Debian's i386; Meson's cpu_family 'x86') feature table.
# Same format and key meanings as x86_64/table.py (see its header comment),
# but its rows are x86_64's: a 32-bit program on an x86-64 CPU reads the
# same CPUID, and the instructions, flags, intrinsic headers and detection
# are the same. So the rows are not written twice (read_table in
# src/build_side/cpudispatch_tables.py):
#
#   rows_from        the arch whose rows this table takes, all of them, in
#                    their order (their interest), with their test programs
#                    (src/features/x86_64/<name>.c)
#   rows_without     the rows 32-bit mode does not have (below, each with its
#                    reason); a row left out may not be implied by a taken
#                    one, and a group's base ('adds_to') left out stands for
#                    what it implies
#   rows_also_imply  what a taken row implies here besides, of this table's
#                    own rows
#   features         this table's own rows (with test programs beside this
#                    file): they come first, below every taken row
{
  'march_ext_sep': '+',
  'detect_source': 'detect_x86.c',
  # The i386 psABI (and Debian's i386 port, i686) promises neither SSE nor
  # SSE2: unlike x86_64, where both are min, here they are dispatch targets.
  'min': [],
  'native': ['-march=native'],
  # What every i686 CPU runs (see x86_64/table.py for how the floor works):
  # the Pentium Pro's instructions (CMOV, CMPXCHG8B, x87; every i686 has
  # CPUID, so detection needs no EFLAGS.ID probe), no MMX or SSE (-mno-mmx
  # -mno-sse ... are derived from the rows, none being min). -mfpmath=387:
  # a consumer's global -mfpmath=sse would otherwise meet -mno-sse (Clang 14:
  # "the 'sse' unit is not supported with this instruction set", an error;
  # GCC 12: a warning per file).
  'floor': ['-march=i686', '-mtune=generic', '-mfpmath=387', '-mno-tbm'],
  # As on x86_64 (NumPy option strings).
  'retired': ['AVX512_KNL', 'AVX512_KNM'],
  'rows_from': 'x86_64',
  'rows_without': [
    # CMPXCHG16B exists in 64-bit mode only; with -m32, -mcx16 gives no
    # 16-byte compare-and-swap (GCC 12 and Clang 14 reject the test program).
    'CX16',
    # CPUID.80000001h:ECX[0] says LAHF/SAHF work in 64-bit mode; in 32-bit
    # mode every x86 CPU has them (a 32-bit-only CPU clears the bit).
    'LAHF',
    # The x86-64 psABI's levels: defined for x86-64 (v2 is CX16 and LAHF
    # above SSE4.2; v3 and v4 build on it). GCC 12 and Clang 14 accept their
    # flags with -m32, but a 32-bit "x86-64-v2" would be SSE42 under another
    # name; spell a level's members as a group target (AVX2+FMA3+BMI2+...).
    'X86_V2', 'X86_V3', 'X86_V4',
    # 64-bit mode only (#UD elsewhere, Intel SDM): CMPccXADD, the AMX tile
    # instructions (GCC 12 and Clang 14 compile their test programs with -m32
    # all the same, so validation would not drop them), APX's extended
    # registers.
    'CMPCCXADD', 'AMX_TILE', 'AMX_INT8', 'AMX_BF16', 'AMX_FP16', 'AMX_COMPLEX', 'APX_F',
  ],
  # Every SSE CPU has MMX (SSE's 64-bit integer instructions use the MMX
  # registers, and GCC and Clang turn MMX on with -msse): what implies SSE
  # implies MMX here, as pixman's SSE2 code assumes.
  'rows_also_imply': {'SSE': ['MMX']},
  'features': [
    # MMX (Pentium MMX, Pentium II): part of x86-64 itself, a feature only
    # here. pixman asks for it at run time.
    {'name': 'MMX', 'implies': [], 'flags': ['-mmmx'],
     'headers': ['mmintrin.h'], 'cdef': 'defined(__MMX__)',
     'detect': ['cpuid', 1, 0, 'edx', 23]},
  ],
}
