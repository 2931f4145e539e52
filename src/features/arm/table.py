# SPDX-License-Identifier: MIT
# 32-bit arm feature table (Meson's cpu_family 'arm': Armv7-A and Armv8-A's
# AArch32 state, hard-float, as Debian's armhf). Same format and key
# meanings as x86_64/table.py (see its header comment). The names are
# NumPy's for 32-bit arm, which are aarch64's spellings of the same
# features: one option value serves both arches.
#
#   detect   ['hwcap', BIT] / ['hwcap2', BIT]: bit number (not mask) of
#            getauxval(AT_HWCAP) / getauxval(AT_HWCAP2) on Linux, as the
#            32-bit kernel's arch/arm/include/uapi/asm/hwcap.h numbers them
#            (HWCAP_NEON 12, HWCAP_VFPv4 16; HWCAP_ASIMDHP 23, HWCAP_ASIMDDP
#            24, HWCAP_ASIMDFHM 25 since Linux 6.2; HWCAP2_CRC32 4). An
#            aarch64 kernel gives a 32-bit program the same words
#            (arch/arm64/include/asm/hwcap.h, COMPAT_HWCAP_*).
#
# The rows up to ASIMD name the whole FPU they need (-mfpu=...; the
# Armv8.2 rows get ASIMD's through what they imply): an -mfpu the consumer
# gives would otherwise win over -march extensions. A target's -mfpu= flags
# merge into its highest feature's, as its -march=armv8.2-a+ext flags merge
# into one -march.
{
  # How -march=BASE<sep>EXT spellings join extensions (a target's flags
  # merge into one -march), and the runtime's detection source (src/runtime/).
  'march_ext_sep': '+',
  'detect_source': 'detect_linux_hwcap.c',
  # Debian armhf is Armv7-A with VFPv3-D16 and Thumb-2, hard-float: NEON
  # is optional there (NVIDIA Tegra 2's Cortex-A9s and Marvell's Armada
  # 370/XP cores have none), so nothing is assumed.
  'min': [],
  # As on aarch64: -mcpu=native (with GCC's default -mfpu=auto it also
  # picks the CPU's FPU and NEON).
  'native': ['-mcpu=native'],
  # The arch's floor (see x86_64/table.py): Armv7-A, VFPv3-D16, no NEON.
  # -mfpu= after the consumer's flags: an earlier -mfpu=neon (or an -mcpu
  # whose FPU has NEON) would otherwise survive the -march. GCC rejects
  # -march=armv7-a alone under -mfloat-abi=hard ("lacks an FPU"), hence
  # +fp. The CPU reset has one spelling per compiler: GCC's
  # -mcpu=generic-armv7-a, and Clang's -mcpu=generic, without which a
  # global -mcpu=cortex-a15 keeps its hardware divide (and, with
  # -march=armv7-a+fp, its NEON). GCC rejects -mcpu=generic, and configure
  # keeps the floor flags the compiler accepts; Clang checks only the last
  # -mcpu, so it gets both and the last one wins.
  'floor': ['-march=armv7-a+fp', '-mfpu=vfpv3-d16', '-mcpu=generic-armv7-a', '-mcpu=generic'],
  'retired': [],
  'features': [
    # Advanced SIMD (Armv7's NEON: -mfpu=neon is VFPv3-D32 with NEON).
    {'name': 'NEON', 'implies': [], 'flags': ['-mfpu=neon'],
     'headers': ['arm_neon.h'], 'cdef': 'defined(__ARM_NEON)',
     'detect': ['hwcap', 12]},
    # NEON with the half-precision conversion instructions (__ARM_FP bit 1).
    # The 32-bit kernel has no bit for them (HWCAP_HALF, bit 1, is the
    # Armv4 half-word loads and stores, which every armhf CPU has; HWCAP_FPHP
    # is Armv8.2's arithmetic): VFPv4 makes them mandatory, so its bit
    # stands in. A Cortex-A9, which has them without VFPv4, goes undetected.
    {'name': 'NEON_FP16', 'implies': ['NEON'], 'flags': ['-mfpu=neon-fp16'],
     'headers': ['arm_neon.h'], 'cdef': 'defined(__ARM_NEON) && defined(__ARM_FP) && (__ARM_FP & 2)',
     'detect': ['hwcap', 16]},
    # NEON with VFPv4's fused multiply-add (Cortex-A5/A7/A12/A15/A17).
    {'name': 'NEON_VFPV4', 'implies': ['NEON_FP16'], 'flags': ['-mfpu=neon-vfpv4'],
     'headers': ['arm_neon.h'], 'cdef': 'defined(__ARM_NEON) && defined(__ARM_FEATURE_FMA)',
     'detect': ['hwcap', 16]},
    # Armv8-A's Advanced SIMD in AArch32 state (VRINT*, VMAXNM, VCVTA...).
    # The 32-bit hwcap has no "Armv8" bit; NumPy takes any of AT_HWCAP2's
    # AES, PMULL, SHA1, SHA2, CRC32 bits (all Armv8-only). CRC32 alone:
    # the Crypto Extension is optional (Raspberry Pi 3 and 4 lack it) while
    # Arm's own Armv8-A cores all have CRC32 (mandatory from Armv8.1), and
    # Clang's -march=armv8-a enables CRC32 instructions, so code built for
    # this target may contain them. An Armv8.0 core without CRC32 would
    # run the NEON_VFPV4 code instead: slower, never wrong.
    {'name': 'ASIMD', 'implies': ['NEON_VFPV4'], 'flags': ['-march=armv8-a', '-mfpu=neon-fp-armv8'],
     'headers': ['arm_neon.h'], 'cdef': 'defined(__ARM_NEON) && __ARM_ARCH >= 8',
     'detect': ['hwcap2', 4]},
    # The kernel sets FPHP (bit 22, scalar) and ASIMDHP (bit 23) together;
    # the vector bit is the one this feature is about.
    {'name': 'ASIMDHP', 'implies': ['ASIMD'], 'flags': ['-march=armv8.2-a+fp16'],
     'headers': ['arm_neon.h'], 'cdef': 'defined(__ARM_FEATURE_FP16_VECTOR_ARITHMETIC)',
     'detect': ['hwcap', 23]},
    {'name': 'ASIMDDP', 'implies': ['ASIMD'], 'flags': ['-march=armv8.2-a+dotprod'],
     'headers': ['arm_neon.h'], 'cdef': 'defined(__ARM_FEATURE_DOTPROD)',
     'detect': ['hwcap', 24]},
    {'name': 'ASIMDFHM', 'implies': ['ASIMDHP'], 'flags': ['-march=armv8.2-a+fp16fml'],
     'headers': ['arm_neon.h'], 'cdef': 'defined(__ARM_FEATURE_FP16_FML)',
     'detect': ['hwcap', 25]},
  ],
}
