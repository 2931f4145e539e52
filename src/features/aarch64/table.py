# SPDX-License-Identifier: MIT
# aarch64 feature table. Same format and key meanings as
# x86_64/table.py (see its header comment).
#
#   detect   ['hwcap', BIT] / ['hwcap2', BIT]: bit number (not mask) of
#            getauxval(AT_HWCAP) / getauxval(AT_HWCAP2) on Linux;
#            ['vector_bytes', N]: the SVE vectors are exactly N bytes long
#
# `-march=armv8.2-a+ext` flags are merged into one -march= when a target's
# closure is combined (e.g. ASIMDFHM -> -march=armv8.2-a+fp16+fp16fml), so
# every row spells its own base to stay usable alone.
{
  # How -march=BASE<sep>EXT spellings join extensions (a target's flags
  # merge into one -march), and the runtime's detection source (src/runtime/).
  'march_ext_sep': '+',
  'detect_source': 'detect_linux_hwcap.c',
  # ARMv8-A makes FP and Advanced SIMD mandatory for the Linux ABI: the four
  # NumPy "NEON" names all describe that baseline and need no flags.
  'min': ['NEON', 'NEON_FP16', 'NEON_VFPV4', 'ASIMD'],
  # -mcpu (not -march) =native: Clang 14 on aarch64 knows only -mcpu=native.
  'native': ['-mcpu=native'],
  # The arch's floor (see x86_64/table.py): Armv8.0-A, FP and ASIMD.
  # -mcpu=generic too: a global -mcpu=cortex-a76 survives a later -march in
  # Clang (its target CPU still adds dotprod and fp16) and makes GCC warn
  # that the two conflict. -mno-outline-atomics: GCC's default calls
  # libgcc helpers for atomics, and the runtime needs libc alone (the
  # Armv8.0 exclusive-load loops are the floor's own instructions).
  'floor': ['-march=armv8-a', '-mcpu=generic', '-mno-outline-atomics'],
  'retired': [],
  'features': [
    # The baseline rows all detect through ASIMD (bit 1): on aarch64 the
    # kernel has no separate bits for NEON, half-float convert or VFPv4 FMA.
    {'name': 'NEON', 'implies': [], 'flags': [],
     'headers': ['arm_neon.h'], 'cdef': 'defined(__ARM_NEON)',
     'detect': ['hwcap', 1]},
    # __ARM_FP bit 1 = half-precision conversion instructions.
    {'name': 'NEON_FP16', 'implies': ['NEON'], 'flags': [],
     'headers': ['arm_neon.h'], 'cdef': 'defined(__ARM_NEON) && defined(__ARM_FP) && (__ARM_FP & 2)',
     'detect': ['hwcap', 1]},
    {'name': 'NEON_VFPV4', 'implies': ['NEON_FP16'], 'flags': [],
     'headers': ['arm_neon.h'], 'cdef': 'defined(__ARM_NEON) && defined(__ARM_FEATURE_FMA)',
     'detect': ['hwcap', 1]},
    {'name': 'ASIMD', 'implies': ['NEON_VFPV4'], 'flags': [],
     'headers': ['arm_neon.h'], 'cdef': 'defined(__aarch64__) && defined(__ARM_NEON)',
     'detect': ['hwcap', 1]},
    # The kernel sets FPHP (bit 9, scalar) and ASIMDHP (bit 10) together; the
    # vector bit is the one this feature is about.
    {'name': 'ASIMDHP', 'implies': ['ASIMD'], 'flags': ['-march=armv8.2-a+fp16'],
     'headers': ['arm_neon.h'], 'cdef': 'defined(__ARM_FEATURE_FP16_VECTOR_ARITHMETIC)',
     'detect': ['hwcap', 10]},
    {'name': 'ASIMDDP', 'implies': ['ASIMD'], 'flags': ['-march=armv8.2-a+dotprod'],
     'headers': ['arm_neon.h'], 'cdef': 'defined(__ARM_FEATURE_DOTPROD)',
     'detect': ['hwcap', 20]},
    {'name': 'ASIMDFHM', 'implies': ['ASIMDHP'], 'flags': ['-march=armv8.2-a+fp16fml'],
     'headers': ['arm_neon.h'], 'cdef': 'defined(__ARM_FEATURE_FP16_FML)',
     'detect': ['hwcap', 23]},
    # Armv8.6 matrix multiply (8-bit integers) and bfloat16, Advanced SIMD.
    {'name': 'I8MM', 'implies': ['ASIMD'], 'flags': ['-march=armv8.2-a+i8mm'],
     'headers': ['arm_neon.h'], 'cdef': 'defined(__ARM_FEATURE_MATMUL_INT8)',
     'detect': ['hwcap2', 13]},
    {'name': 'BF16', 'implies': ['ASIMD'], 'flags': ['-march=armv8.2-a+bf16'],
     'headers': ['arm_neon.h'], 'cdef': 'defined(__ARM_FEATURE_BF16_VECTOR_ARITHMETIC)',
     'detect': ['hwcap2', 14]},
    # SVE architecturally requires FP16 (not dot product: A64FX has SVE
    # without ASIMDDP/ASIMDFHM), hence implies ASIMDHP only, as NumPy does.
    {'name': 'SVE', 'implies': ['ASIMDHP'], 'flags': ['-march=armv8.2-a+sve'],
     'headers': ['arm_sve.h'], 'cdef': 'defined(__ARM_FEATURE_SVE)',
     'detect': ['hwcap', 22]},
    # The same two in SVE (Graviton3 has them without SVE2).
    {'name': 'SVE_I8MM', 'implies': ['SVE', 'I8MM'], 'flags': ['-march=armv8.2-a+sve+i8mm'],
     'headers': ['arm_sve.h'], 'cdef': 'defined(__ARM_FEATURE_SVE_MATMUL_INT8)',
     'detect': ['hwcap2', 9]},
    {'name': 'SVE_BF16', 'implies': ['SVE', 'BF16'], 'flags': ['-march=armv8.2-a+sve+bf16'],
     'headers': ['arm_sve.h'], 'cdef': 'defined(__ARM_FEATURE_SVE) && defined(__ARM_FEATURE_BF16)',
     'detect': ['hwcap2', 12]},
    # Not a NumPy name; GCC >= 10 and Clang >= 11 accept +sve2.
    {'name': 'SVE2', 'implies': ['SVE'], 'flags': ['-march=armv8.2-a+sve2'],
     'headers': ['arm_sve.h'], 'cdef': 'defined(__ARM_FEATURE_SVE2)',
     'detect': ['hwcap2', 1]},
    # Optional SVE2 parts (Neoverse V2 has all three; some SVE2 cores lack
    # BITPERM).
    {'name': 'SVE2_AES', 'implies': ['SVE2'], 'flags': ['-march=armv8.2-a+sve2-aes'],
     'headers': ['arm_sve.h'], 'cdef': 'defined(__ARM_FEATURE_SVE2_AES)',
     'detect': ['hwcap2', 2]},
    {'name': 'SVE2_BITPERM', 'implies': ['SVE2'], 'flags': ['-march=armv8.2-a+sve2-bitperm'],
     'headers': ['arm_sve.h'], 'cdef': 'defined(__ARM_FEATURE_SVE2_BITPERM)',
     'detect': ['hwcap2', 4]},
    {'name': 'SVE2_SHA3', 'implies': ['SVE2'], 'flags': ['-march=armv8.2-a+sve2-sha3'],
     'headers': ['arm_sve.h'], 'cdef': 'defined(__ARM_FEATURE_SVE2_SHA3)',
     'detect': ['hwcap2', 5]},
    # SVE code built for one vector length (-msve-vector-bits=256: sizeof
    # of SVE types, svcntw() and the vectoriser's strides are constants).
    # It is correct only when the vectors are exactly that long, so this row
    # is detected only when this thread's length (prctl PR_SVE_GET_VL; a
    # dump's SVE_VL line) is 32 bytes: Graviton3, not A64FX (64) nor
    # Grace/Graviton4 (16). Ranked above the SVE2 rows, as fixed-length code
    # is the faster where both apply; a source wanting both names the group
    # SVE2+SVE_256.
    {'name': 'SVE_256', 'implies': ['SVE'], 'flags': ['-march=armv8.2-a+sve', '-msve-vector-bits=256'],
     'headers': ['arm_sve.h'], 'cdef': 'defined(__ARM_FEATURE_SVE_BITS) && __ARM_FEATURE_SVE_BITS == 256',
     'detect': ['vector_bytes', 32]},
    # SME needs FP16 and BF16, not SVE (Apple M4 has SME without SVE).
    # GCC 14 / Clang 18 first compile it: older compilers drop it from
    # dispatch, detection stays.
    {'name': 'SME', 'implies': ['ASIMDHP', 'BF16'], 'flags': ['-march=armv8.2-a+sme'],
     'headers': ['arm_sme.h'], 'cdef': 'defined(__ARM_FEATURE_SME)',
     'detect': ['hwcap2', 23]},
  ],
  # NumPy's names (the generator's NumPy format; the keys as in
  # ../x86_64/table.py). NEON to ASIMD are the arch's floor.
  'numpy': [
    {'name': 'NEON', 'interest': 1},
    {'name': 'NEON_FP16', 'interest': 2},
    {'name': 'NEON_VFPV4', 'interest': 3},
    {'name': 'ASIMD', 'interest': 4, 'drop': 'NEON.*'},
    {'name': 'ASIMDHP', 'interest': 5},
    {'name': 'ASIMDDP', 'interest': 6},
    {'name': 'ASIMDFHM', 'interest': 7},
  ],
}
