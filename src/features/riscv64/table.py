# SPDX-License-Identifier: MIT
# riscv64 feature table. Same format and key meanings as
# x86_64/table.py (see its header comment). Flags are
# -march=rv64gc_<ext>: a target's are merged into one -march (rv64gc_v_zba).
#
#   detect   ['hwprobe', 4, BIT, HWCAP_BIT]: bit BIT of the riscv_hwprobe
#            key RISCV_HWPROBE_KEY_IMA_EXT_0 (4) on Linux >= 6.4; on older
#            kernels, bit HWCAP_BIT of getauxval(AT_HWCAP) (one bit per
#            single-letter extension, letter - 'A'), -1 when there is none
{
  # How -march=BASE<sep>EXT spellings join extensions (a target's flags
  # merge into one -march), and the runtime's detection source (src/runtime/).
  'march_ext_sep': '_',
  # The -march grammar wants single-letter extensions before the others
  # (rv64gc_v_zba, not rv64gc_zba_v), whatever the rows' order.
  'march_short_exts_first': True,
  'detect_source': 'detect_linux_hwcap.c',
  # Debian riscv64 is rv64gc: no vector extension assumed.
  'min': [],
  # GCC 12 has no -march=native on RISC-V (and Clang 14 neither).
  'native': [],
  # The arch's floor (see x86_64/table.py): RV64GC, no vector unit.
  'floor': ['-march=rv64gc'],
  'retired': [],
  'features': [
    # Bit manipulation (RVA22), below the vector unit in interest:
    # riscv_hwprobe names them, hwcap has no bit for multi-letter
    # extensions, so on kernels before 6.4 they stay off.
    {'name': 'ZBA', 'implies': [], 'flags': ['-march=rv64gc_zba'],
     'headers': [], 'cdef': 'defined(__riscv_zba)',
     'detect': ['hwprobe', 4, 3, -1]},
    {'name': 'ZBB', 'implies': [], 'flags': ['-march=rv64gc_zbb'],
     'headers': [], 'cdef': 'defined(__riscv_zbb)',
     'detect': ['hwprobe', 4, 4, -1]},
    {'name': 'ZBS', 'implies': [], 'flags': ['-march=rv64gc_zbs'],
     'headers': [], 'cdef': 'defined(__riscv_zbs)',
     'detect': ['hwprobe', 4, 5, -1]},
    # RVV 1.0: hwprobe's IMA_V (bit 2) means the ratified extension, while
    # some vendor kernels set hwcap's V (bit 'V' - 'A' = 21) for the
    # pre-standard vector unit of T-Head cores too. headers is empty because GCC 12 ships no
    # riscv_vector.h (GCC >= 13 and Clang do, with different intrinsic names
    # across versions), so the test uses inline asm like x86 LAHF does.
    # GCC 12 has no vector register names: clobber v8 only for Clang.
    {'name': 'RVV', 'implies': [], 'flags': ['-march=rv64gc_v'],
     'headers': [], 'cdef': 'defined(__riscv_vector)',
     'detect': ['hwprobe', 4, 2, 21]},
  ],
}
