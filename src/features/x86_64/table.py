# SPDX-License-Identifier: MIT
# x86_64 feature table: the single source of truth for this arch.
#
# A Python literal, read with ast.literal_eval (src/build_side/cpudispatch_tables.py,
# which also checks it); the arch is this folder's name. Every other artefact
# (option parsing, compiler validation, the generated C headers, run-time
# detection, docs tables) is derived from it.
#
# Rows are in ascending interest (dispatch priority: a later row wins when
# several targets are usable); a row may only imply rows above it. Each row
# has a test program beside this table, named for it in lower case
# (avx2.c for AVX2): it must compile with the feature's flags (it is
# compiled, never run).
#
#   name     upper-case token used in options, macros and env vars
#   implies  features this one needs; the closure is computed, list direct ones
#   flags    compiler flags for this feature alone (implied flags are added)
#   headers  intrinsic headers a user of the feature includes
#   cdef     preprocessor condition true when the compiler flags enable it
#   detect   run-time spec: ['cpuid', leaf, subleaf, 'eax|ebx|ecx|edx', bit];
#            ['cpuid_ge', leaf, subleaf, reg, shift, min]: the 8-bit field
#            at shift is at least min (a version); [] for a group (usable
#            when everything it implies is)
#   xcr0     OS state the feature needs (XGETBV(0) mask; optional, none if
#            absent); tile state (0x60000) also needs the kernel's
#            permission (AMX)
#   aliases  other spellings accepted in options and env vars (optional)
#   adds_to  a group's (detect []) base: the features and groups it builds
#            on. What the group adds is its closure less theirs and less
#            'min'; "-NAME" in the options and NAME in the DISABLE variable
#            turn off the group, what it adds and everything implying any
#            of them (docs/options.md). Groups only; [] for none
#   broken   compiler versions known to miscompile the feature (optional):
#            a list of {'compiler': 'gcc'|'clang', 'versions': [CONSTRAINT,
#            ...], 'why': REASON}. An entry matches when the compiler id is
#            Meson's get_id() and every CONSTRAINT ('>=12.0', '<12.4': Meson's
#            version_compare()) holds for its version(). A match drops the
#            feature as if the compiler could not build it (an error for a
#            baseline feature) unless allow-broken-compilers names it. REASON:
#            one line starting with the public bug id ('GCC PR109069: ...');
#            the summary and docs/features.md show it. No entry on a `min`
#            feature: every default build with that compiler would fail
{
  # How -march=BASE<sep>EXT spellings join extensions (a target's flags
  # merge into one -march), and the runtime's detection source (src/runtime/).
  'march_ext_sep': '+',
  'detect_source': 'detect_x86.c',
  'min': ['SSE', 'SSE2'],
  'native': ['-march=native'],
  # What the arch's code runs on without any feature flag: cpudispatch's own
  # runtime is compiled with these last (plus -mno-<flag> for every feature
  # above 'min', derived in src/build_side/cpudispatch_tables.py), so a global
  # -march/-mavx2 never reaches the code that runs before the start-up check
  # (test/floor/). -march= resets an earlier -march= but not an explicit -mX;
  # -mno-tbm: the one extension outside the rows that GCC and Clang use
  # unasked (blcfill & co. for x & (x + 1)).
  'floor': ['-march=x86-64', '-mtune=generic', '-mno-tbm'],
  # Names accepted for compatibility (NumPy option strings) but not offered:
  # Xeon Phi ISA extensions are gone from current compilers and CPUs.
  'retired': ['AVX512_KNL', 'AVX512_KNM'],
  # The x86-64 psABI's ISA levels as glibc (>= 2.33) checks them before it
  # loads an object: group -> the bit of GNU_PROPERTY_X86_ISA_1_NEEDED.
  # A library without an init function (mode=library) carries the
  # lowest level whose group covers its baseline, and the loader refuses it
  # on an older CPU (docs/libraries.md); a baseline no level covers is a
  # configure error there. In ascending order.
  'loader_isa_levels': [['X86_V2', 2], ['X86_V3', 4], ['X86_V4', 8]],
  'features': [
    {'name': 'SSE', 'implies': [], 'flags': ['-msse'],
     'headers': ['xmmintrin.h'], 'cdef': 'defined(__SSE__)',
     'detect': ['cpuid', 1, 0, 'edx', 25]},
    {'name': 'SSE2', 'implies': ['SSE'], 'flags': ['-msse2'],
     'headers': ['emmintrin.h'], 'cdef': 'defined(__SSE2__)',
     'detect': ['cpuid', 1, 0, 'edx', 26]},
    {'name': 'SSE3', 'implies': ['SSE2'], 'flags': ['-msse3'],
     'headers': ['pmmintrin.h'], 'cdef': 'defined(__SSE3__)',
     'detect': ['cpuid', 1, 0, 'ecx', 0]},
    {'name': 'SSSE3', 'implies': ['SSE3'], 'flags': ['-mssse3'],
     'headers': ['tmmintrin.h'], 'cdef': 'defined(__SSSE3__)',
     'detect': ['cpuid', 1, 0, 'ecx', 9]},
    {'name': 'SSE41', 'implies': ['SSSE3'], 'flags': ['-msse4.1'],
     'headers': ['smmintrin.h'], 'cdef': 'defined(__SSE4_1__)', 'aliases': ['SSE4_1', 'SSE4.1'],
     'detect': ['cpuid', 1, 0, 'ecx', 19]},
    {'name': 'POPCNT', 'implies': ['SSE41'], 'flags': ['-mpopcnt'],
     'headers': ['popcntintrin.h'], 'cdef': 'defined(__POPCNT__)',
     'detect': ['cpuid', 1, 0, 'ecx', 23]},
    {'name': 'SSE42', 'implies': ['POPCNT'], 'flags': ['-msse4.2'],
     'headers': ['nmmintrin.h'], 'cdef': 'defined(__SSE4_2__)', 'aliases': ['SSE4_2', 'SSE4.2'],
     'detect': ['cpuid', 1, 0, 'ecx', 20]},
    {'name': 'CX16', 'implies': [], 'flags': ['-mcx16'],
     'headers': [], 'cdef': 'defined(__GCC_HAVE_SYNC_COMPARE_AND_SWAP_16)',
     'detect': ['cpuid', 1, 0, 'ecx', 13]},
    {'name': 'LAHF', 'implies': [], 'flags': ['-msahf'], 'aliases': ['SAHF', 'LAHF_SAHF'],
     'headers': [], 'cdef': 'defined(__LAHF_SAHF__)',
     'detect': ['cpuid', 0x80000001, 0, 'ecx', 0]},
    {'name': 'X86_V2', 'implies': ['SSE42', 'CX16', 'LAHF'], 'flags': [],
     'headers': [], 'cdef': '', 'aliases': ['X86-64-V2', 'X86_64_V2'],
     'adds_to': [],
     'detect': []},
    {'name': 'AES', 'implies': ['SSE2'], 'flags': ['-maes'],
     'headers': ['wmmintrin.h'], 'cdef': 'defined(__AES__)',
     'detect': ['cpuid', 1, 0, 'ecx', 25]},
    {'name': 'PCLMULQDQ', 'implies': ['SSE2'], 'flags': ['-mpclmul'], 'aliases': ['PCLMUL'],
     'headers': ['wmmintrin.h'], 'cdef': 'defined(__PCLMUL__)',
     'detect': ['cpuid', 1, 0, 'ecx', 1]},
    # Scalar and XMM extensions outside the levels: SHA-1/SHA-256 rounds,
    # multi-precision adds, the random-number instructions, CMPccXADD.
    {'name': 'SHA', 'implies': ['SSE2'], 'flags': ['-msha'], 'aliases': ['SHA_NI'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__SHA__)',
     'detect': ['cpuid', 7, 0, 'ebx', 29]},
    {'name': 'ADX', 'implies': [], 'flags': ['-madx'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__ADX__)',
     'detect': ['cpuid', 7, 0, 'ebx', 19]},
    {'name': 'RDRND', 'implies': [], 'flags': ['-mrdrnd'], 'aliases': ['RDRAND'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__RDRND__)',
     'detect': ['cpuid', 1, 0, 'ecx', 30]},
    {'name': 'RDSEED', 'implies': [], 'flags': ['-mrdseed'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__RDSEED__)',
     'detect': ['cpuid', 7, 0, 'ebx', 18]},
    {'name': 'CMPCCXADD', 'implies': [], 'flags': ['-mcmpccxadd'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__CMPCCXADD__)',
     'detect': ['cpuid', 7, 1, 'eax', 7]},
    {'name': 'AVX', 'implies': ['SSE42'], 'flags': ['-mavx'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__AVX__)',
     'detect': ['cpuid', 1, 0, 'ecx', 28], 'xcr0': 0x6},
    {'name': 'XOP', 'implies': ['AVX'], 'flags': ['-mxop'],
     'headers': ['x86intrin.h'], 'cdef': 'defined(__XOP__)',
     'detect': ['cpuid', 0x80000001, 0, 'ecx', 11], 'xcr0': 0x6},
    {'name': 'FMA4', 'implies': ['AVX'], 'flags': ['-mfma4'],
     'headers': ['x86intrin.h'], 'cdef': 'defined(__FMA4__)',
     'detect': ['cpuid', 0x80000001, 0, 'ecx', 16], 'xcr0': 0x6},
    {'name': 'F16C', 'implies': ['AVX'], 'flags': ['-mf16c'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__F16C__)',
     'detect': ['cpuid', 1, 0, 'ecx', 29], 'xcr0': 0x6},
    {'name': 'FMA3', 'implies': ['F16C'], 'flags': ['-mfma'], 'aliases': ['FMA'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__FMA__)',
     'detect': ['cpuid', 1, 0, 'ecx', 12], 'xcr0': 0x6},
    {'name': 'AVX2', 'implies': ['F16C'], 'flags': ['-mavx2'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__AVX2__)',
     'detect': ['cpuid', 7, 0, 'ebx', 5], 'xcr0': 0x6},
    {'name': 'BMI', 'implies': [], 'flags': ['-mbmi'], 'aliases': ['BMI1'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__BMI__)',
     'detect': ['cpuid', 7, 0, 'ebx', 3]},
    {'name': 'BMI2', 'implies': ['BMI'], 'flags': ['-mbmi2'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__BMI2__)',
     'detect': ['cpuid', 7, 0, 'ebx', 8]},
    {'name': 'LZCNT', 'implies': [], 'flags': ['-mlzcnt'], 'aliases': ['ABM'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__LZCNT__)',
     'detect': ['cpuid', 0x80000001, 0, 'ecx', 5]},
    {'name': 'MOVBE', 'implies': [], 'flags': ['-mmovbe'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__MOVBE__)',
     'detect': ['cpuid', 1, 0, 'ecx', 22]},
    {'name': 'X86_V3', 'implies': ['X86_V2', 'AVX2', 'FMA3', 'BMI2', 'LZCNT', 'MOVBE'], 'flags': [],
     'headers': [], 'cdef': '', 'aliases': ['X86-64-V3', 'X86_64_V3'],
     'adds_to': ['X86_V2'],
     'detect': []},
    {'name': 'GFNI', 'implies': ['SSE41'], 'flags': ['-mgfni'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__GFNI__)',
     'detect': ['cpuid', 7, 0, 'ecx', 8]},
    {'name': 'VAES', 'implies': ['AVX2', 'AES'], 'flags': ['-mvaes'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__VAES__)',
     'detect': ['cpuid', 7, 0, 'ecx', 9], 'xcr0': 0x6},
    {'name': 'VPCLMULQDQ', 'implies': ['AVX2', 'PCLMULQDQ'], 'flags': ['-mvpclmulqdq'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__VPCLMULQDQ__)',
     'detect': ['cpuid', 7, 0, 'ecx', 10], 'xcr0': 0x6},
    # VEX-encoded (no AVX-512) AI and crypto extensions, Alder Lake and
    # later; GCC 13/14 and Clang 16+ know the newer ones, older compilers
    # drop them from dispatch (the summary says why) and detection stays.
    {'name': 'AVX_VNNI', 'implies': ['AVX2'], 'flags': ['-mavxvnni'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__AVXVNNI__)',
     'detect': ['cpuid', 7, 1, 'eax', 4], 'xcr0': 0x6},
    {'name': 'AVX_IFMA', 'implies': ['AVX2'], 'flags': ['-mavxifma'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__AVXIFMA__)',
     'detect': ['cpuid', 7, 1, 'eax', 23], 'xcr0': 0x6},
    {'name': 'AVX_VNNI_INT8', 'implies': ['AVX2'], 'flags': ['-mavxvnniint8'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__AVXVNNIINT8__)',
     'detect': ['cpuid', 7, 1, 'edx', 4], 'xcr0': 0x6},
    {'name': 'AVX_VNNI_INT16', 'implies': ['AVX2'], 'flags': ['-mavxvnniint16'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__AVXVNNIINT16__)',
     'detect': ['cpuid', 7, 1, 'edx', 10], 'xcr0': 0x6},
    {'name': 'AVX_NE_CONVERT', 'implies': ['AVX2'], 'flags': ['-mavxneconvert'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__AVXNECONVERT__)',
     'detect': ['cpuid', 7, 1, 'edx', 5], 'xcr0': 0x6},
    {'name': 'SHA512', 'implies': ['AVX2'], 'flags': ['-msha512'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__SHA512__)',
     'detect': ['cpuid', 7, 1, 'eax', 0], 'xcr0': 0x6},
    {'name': 'SM3', 'implies': ['AVX'], 'flags': ['-msm3'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__SM3__)',
     'detect': ['cpuid', 7, 1, 'eax', 1], 'xcr0': 0x6},
    {'name': 'SM4', 'implies': ['AVX2'], 'flags': ['-msm4'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__SM4__)',
     'detect': ['cpuid', 7, 1, 'eax', 2], 'xcr0': 0x6},
    {'name': 'AVX512F', 'implies': ['FMA3', 'AVX2'], 'flags': ['-mavx512f'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__AVX512F__)',
     'detect': ['cpuid', 7, 0, 'ebx', 16], 'xcr0': 0xe6},
    {'name': 'AVX512CD', 'implies': ['AVX512F'], 'flags': ['-mavx512cd'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__AVX512CD__)',
     'detect': ['cpuid', 7, 0, 'ebx', 28], 'xcr0': 0xe6},
    {'name': 'AVX512BW', 'implies': ['AVX512F'], 'flags': ['-mavx512bw'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__AVX512BW__)',
     'detect': ['cpuid', 7, 0, 'ebx', 30], 'xcr0': 0xe6},
    {'name': 'AVX512DQ', 'implies': ['AVX512F'], 'flags': ['-mavx512dq'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__AVX512DQ__)',
     'detect': ['cpuid', 7, 0, 'ebx', 17], 'xcr0': 0xe6},
    {'name': 'AVX512VL', 'implies': ['AVX512F'], 'flags': ['-mavx512vl'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__AVX512VL__)',
     'detect': ['cpuid', 7, 0, 'ebx', 31], 'xcr0': 0xe6},
    {'name': 'AVX512_SKX', 'implies': ['AVX512CD', 'AVX512BW', 'AVX512DQ', 'AVX512VL'], 'flags': [],
     'headers': [], 'cdef': '',
     'adds_to': ['X86_V3'],
     'detect': [], 'xcr0': 0xe6},
    {'name': 'X86_V4', 'implies': ['X86_V3', 'AVX512_SKX'], 'flags': [],
     'headers': [], 'cdef': '', 'aliases': ['X86-64-V4', 'X86_64_V4'],
     'adds_to': ['X86_V3'],
     'detect': [], 'xcr0': 0xe6},
    {'name': 'AVX512VNNI', 'implies': ['AVX512F'], 'flags': ['-mavx512vnni'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__AVX512VNNI__)',
     'detect': ['cpuid', 7, 0, 'ecx', 11], 'xcr0': 0xe6},
    {'name': 'AVX512_CLX', 'implies': ['AVX512_SKX', 'AVX512VNNI'], 'flags': [],
     'headers': [], 'cdef': '',
     'adds_to': ['AVX512_SKX'],
     'detect': [], 'xcr0': 0xe6},
    {'name': 'AVX512IFMA', 'implies': ['AVX512F'], 'flags': ['-mavx512ifma'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__AVX512IFMA__)',
     'detect': ['cpuid', 7, 0, 'ebx', 21], 'xcr0': 0xe6},
    {'name': 'AVX512VBMI', 'implies': ['AVX512BW'], 'flags': ['-mavx512vbmi'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__AVX512VBMI__)',
     'detect': ['cpuid', 7, 0, 'ecx', 1], 'xcr0': 0xe6},
    {'name': 'AVX512_CNL', 'implies': ['AVX512_SKX', 'AVX512IFMA', 'AVX512VBMI'], 'flags': [],
     'headers': [], 'cdef': '',
     'adds_to': ['AVX512_SKX'],
     'detect': [], 'xcr0': 0xe6},
    {'name': 'AVX512VBMI2', 'implies': ['AVX512BW'], 'flags': ['-mavx512vbmi2'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__AVX512VBMI2__)',
     'detect': ['cpuid', 7, 0, 'ecx', 6], 'xcr0': 0xe6},
    {'name': 'AVX512BITALG', 'implies': ['AVX512BW'], 'flags': ['-mavx512bitalg'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__AVX512BITALG__)',
     'detect': ['cpuid', 7, 0, 'ecx', 12], 'xcr0': 0xe6},
    {'name': 'AVX512VPOPCNTDQ', 'implies': ['AVX512F'], 'flags': ['-mavx512vpopcntdq'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__AVX512VPOPCNTDQ__)',
     'detect': ['cpuid', 7, 0, 'ecx', 14], 'xcr0': 0xe6},
    {'name': 'AVX512_ICL', 'implies': ['AVX512_CLX', 'AVX512_CNL', 'AVX512VBMI2', 'AVX512BITALG', 'AVX512VPOPCNTDQ',
                 'GFNI', 'VAES', 'VPCLMULQDQ'], 'flags': [],
     'headers': [], 'cdef': '',
     'adds_to': ['AVX512_CLX', 'AVX512_CNL', 'AES', 'PCLMULQDQ'],
     'detect': [], 'xcr0': 0xe6},
    {'name': 'AVX512_VP2INTERSECT', 'implies': ['AVX512F'], 'flags': ['-mavx512vp2intersect'], 'aliases': ['AVX512VP2INTERSECT'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__AVX512VP2INTERSECT__)',
     'detect': ['cpuid', 7, 0, 'edx', 8], 'xcr0': 0xe6},
    {'name': 'AVX512BF16', 'implies': ['AVX512BW'], 'flags': ['-mavx512bf16'],
     'aliases': ['AVX512_BF16'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__AVX512BF16__)',
     'detect': ['cpuid', 7, 1, 'eax', 5], 'xcr0': 0xe6},
    {'name': 'AVX512FP16', 'implies': ['AVX512BW', 'AVX512DQ', 'AVX512VL'],
     'flags': ['-mavx512fp16'], 'aliases': ['AVX512_FP16'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__AVX512FP16__)',
     'detect': ['cpuid', 7, 0, 'edx', 23], 'xcr0': 0xe6},
    {'name': 'AVX512_SPR', 'implies': ['AVX512_ICL', 'AVX512BF16', 'AVX512FP16'], 'flags': [],
     'headers': [], 'cdef': '',
     'adds_to': ['AVX512_ICL'],
     'detect': [], 'xcr0': 0xe6},
    # AVX10: CPUID.(7,1):EDX[19] says the CPU has it, at version 1 or later,
    # so that bit alone gives AVX10_1 (start-up reads no other leaf for it;
    # glibc keeps a copy of leaf 7.1). The version is in leaf 0x24 (EBX[7:0];
    # the leaf exists when that bit is set), read only to tell 10.2 and above.
    # AVX10.1 is the Sapphire Rapids AVX-512 set, so it compiles with those
    # flags; AVX10.2 adds instructions only GCC 15 / Clang 20 know.
    {'name': 'AVX10_1', 'implies': ['AVX512_SPR'], 'flags': [], 'aliases': ['AVX10.1', 'AVX10_1_512'],
     'headers': [], 'cdef': '',
     'detect': ['cpuid', 7, 1, 'edx', 19], 'xcr0': 0xe6},
    {'name': 'AVX10_2', 'implies': ['AVX10_1'], 'flags': ['-mavx10.2'], 'aliases': ['AVX10.2'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__AVX10_2__)',
     'detect': ['cpuid_ge', 0x24, 0, 'ebx', 0, 2], 'xcr0': 0xe6},
    # AMX: tile registers, XCR0 bits 17-18 (XTILECFG, XTILEDATA). Linux
    # also wants the process to ask for the tile data state
    # (arch_prctl(ARCH_REQ_XCOMP_PERM)); detection asks, and AMX is usable
    # only when the kernel agrees.
    {'name': 'AMX_TILE', 'implies': [], 'flags': ['-mamx-tile'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__AMX_TILE__)',
     'detect': ['cpuid', 7, 0, 'edx', 24], 'xcr0': 0x60000},
    {'name': 'AMX_INT8', 'implies': ['AMX_TILE'], 'flags': ['-mamx-int8'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__AMX_INT8__)',
     'detect': ['cpuid', 7, 0, 'edx', 25], 'xcr0': 0x60000},
    {'name': 'AMX_BF16', 'implies': ['AMX_TILE'], 'flags': ['-mamx-bf16'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__AMX_BF16__)',
     'detect': ['cpuid', 7, 0, 'edx', 22], 'xcr0': 0x60000},
    {'name': 'AMX_FP16', 'implies': ['AMX_TILE'], 'flags': ['-mamx-fp16'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__AMX_FP16__)',
     'detect': ['cpuid', 7, 1, 'eax', 21], 'xcr0': 0x60000},
    {'name': 'AMX_COMPLEX', 'implies': ['AMX_TILE'], 'flags': ['-mamx-complex'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__AMX_COMPLEX__)',
     'detect': ['cpuid', 7, 1, 'edx', 8], 'xcr0': 0x60000},
    # APX: 16 more general registers and new encodings; its state is XCR0
    # bit 19.
    {'name': 'APX_F', 'implies': [], 'flags': ['-mapxf'], 'aliases': ['APX'],
     'headers': ['immintrin.h'], 'cdef': 'defined(__APX_F__)',
     'detect': ['cpuid', 7, 1, 'edx', 21], 'xcr0': 0x80000},
  ],
  # NumPy's names for its dispatch sources, for the generator's NumPy
  # format (--format numpy, docs/porting-from-numpy.md), as NumPy 1.26
  # defines them. Per name: interest (NumPy's rank, which orders a group's
  # name and the run-time tests); means (the rows above its objects are
  # compiled for, default [name]: their flags, and the CPU check of
  # cpudispatch-check, come from these rows); group (the further names
  # NumPy defines NPY_HAVE_ for); detect (the names NumPy's run-time test
  # is asked, default group or [name]), drop (a regex: the names asked
  # before that this one's test replaces); flags (flags NumPy adds beyond
  # the rows'); extras (names NumPy defines when a program compiles with
  # the target's flags: NAME -> the program, in numpy/ beside this table).
  # A name whose rows are not here (Xeon Phi's AVX512_KNL, AVX512_KNM) is
  # 'retired' above.
  'numpy': [
    {'name': 'SSE', 'interest': 1},
    {'name': 'SSE2', 'interest': 2},
    {'name': 'SSE3', 'interest': 3},
    {'name': 'SSSE3', 'interest': 4},
    {'name': 'SSE41', 'interest': 5},
    {'name': 'POPCNT', 'interest': 6},
    {'name': 'SSE42', 'interest': 7},
    {'name': 'AVX', 'interest': 20, 'drop': '.*SSE.*'},
    {'name': 'XOP', 'interest': 21},
    {'name': 'FMA4', 'interest': 22},
    {'name': 'F16C', 'interest': 23},
    {'name': 'FMA3', 'interest': 24},
    {'name': 'AVX2', 'interest': 25},
    # -mno-mmx: NumPy's own (mask conversions and MMX state).
    {'name': 'AVX512F', 'interest': 40, 'drop': '.*', 'flags': ['-mno-mmx'],
     'extras': {'AVX512F_REDUCE': 'avx512f_reduce.c'}},
    {'name': 'AVX512CD', 'interest': 41},
    {'name': 'AVX512_SKX', 'interest': 50, 'group': ['AVX512VL', 'AVX512BW', 'AVX512DQ'],
     'extras': {'AVX512BW_MASK': 'avx512bw_mask.c', 'AVX512DQ_MASK': 'avx512dq_mask.c'}},
    {'name': 'AVX512_CLX', 'interest': 51, 'group': ['AVX512VNNI']},
    {'name': 'AVX512_CNL', 'interest': 52, 'group': ['AVX512IFMA', 'AVX512VBMI']},
    # NumPy 1.26's Ice Lake and Sapphire Rapids lack the rows' VAES, GFNI,
    # VPCLMULQDQ (and BF16): NumPy's run-time test does not ask for them,
    # so its objects are not compiled for them.
    {'name': 'AVX512_ICL', 'interest': 53, 'group': ['AVX512VBMI2', 'AVX512BITALG', 'AVX512VPOPCNTDQ'],
     'means': ['AVX512_CLX', 'AVX512_CNL', 'AVX512VBMI2', 'AVX512BITALG', 'AVX512VPOPCNTDQ']},
    {'name': 'AVX512_SPR', 'interest': 55, 'group': ['AVX512FP16'],
     'means': ['AVX512_CLX', 'AVX512_CNL', 'AVX512VBMI2', 'AVX512BITALG', 'AVX512VPOPCNTDQ', 'AVX512FP16']},
  ],
}
