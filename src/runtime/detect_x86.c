/* SPDX-License-Identifier: MIT */
/* x86 detection: CPUID bits plus XGETBV for the register state the OS saves.
 *
 * CPUID is slow where it matters most: on a virtual machine every execution
 * is a VM exit (about 6 us each on a KVM guest measured for issue 25). glibc
 * >= 2.33 has already run CPUID for leaves 1, 7.0, 7.1 and 0x80000001 while
 * loading the program and exports the raw registers (sys/platform/x86.h).
 * Start-up reads only the rows of the features this program can use (its
 * baseline and dispatch targets, with what they imply): every such row's
 * leaf is in glibc's copy, so on glibc start-up executes no CPUID. Other
 * leaves (0x24, AVX10's version: only AVX10_2 needs it), or other C
 * libraries, run CPUID once per (leaf, subleaf) a wanted row uses, plus the
 * maximum leaf of its range. The kernel's AMX permission is asked only when
 * an AMX row is wanted. Introspection (cpud_detected_mask) reads the rest.
 *
 * One reader serves this CPU and a described one (cpud_detect_cpu): the
 * source of registers is a field of the reader, so the rules below (maximum
 * leaves, OSXSAVE before XCR0, AVX10's leaf, AMX permission) are the same
 * code whichever it reads. */
/* dl_iterate_phdr, syscall: declared by glibc under C11 only with this. */
#define _GNU_SOURCE 1
#include <cpuid.h>
#include <string.h>
#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "detect.h"

/* glibc's copy of the leaves, through the ABI <sys/platform/x86.h>
 * documents: the function, its leaf indices, and the struct of the leaf's
 * raw registers (eax ebx ecx edx) and "active" bits. Declared here so that
 * the runtime builds against older headers too. */
#if defined(__linux__)
#include <features.h> /* __GLIBC__, __GLIBC_MINOR__ */
#endif
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#define CPUD_LIBC_CPUID_CACHE 1
struct cpud_glibc_cpuid_leaf {
  unsigned int cpuid_array[4];
  unsigned int active_array[4];
};
const struct cpud_glibc_cpuid_leaf *__x86_get_cpuid_feature_leaf(unsigned int index);
#endif

static unsigned g_cpuid_count = 0;
static unsigned g_leaves_read = 0; /* bit i: k_leaves[i] was read (this CPU only) */

/* The leaves the table's rows name, for cpud__leaves_read(); others share
 * the last bit. */
typedef struct leaf_id {
  unsigned leaf, sub;
  const char *name;
} leaf_id;
static const leaf_id k_leaves[] = {{1, 0, "1"},       {7, 0, "7.0"},
                                   {7, 1, "7.1"},     {0x24, 0, "0x24"},
                                   {0x80000001u, 0, "0x80000001"}, {0, 0, "other"}};
#define LEAF_COUNT ((int)(sizeof k_leaves / sizeof k_leaves[0]))
static unsigned leaf_bit(unsigned l, unsigned s) {
  int i = 0;
  while (i < LEAF_COUNT - 1 && !(k_leaves[i].leaf == l && k_leaves[i].sub == s)) ++i;
  return 1u << i;
}

typedef struct regs {
  unsigned r[4];
} regs;

/* XCR0 state components: XTILECFG, XTILEDATA. */
#define XTILE ((uint64_t)((1u << 17) | (1u << 18)))

/* The leaves glibc >= 2.33 keeps a copy of, of those the table uses (its
 * index in __x86_get_cpuid_feature_leaf), or -1. Described CPUs model the
 * same copy (libc_copy). */
static int glibc_copy_index(unsigned l, unsigned s) {
  if (l == 1 && s == 0) return 0;           /* CPUID_INDEX_1 */
  if (l == 7 && s == 0) return 1;           /* CPUID_INDEX_7 */
  if (l == 0x80000001u && s == 0) return 2; /* CPUID_INDEX_80000001 */
  if (l == 0xdu && s == 1) return 3;        /* CPUID_INDEX_D_ECX_1 */
  if (l == 7 && s == 1) return 6;           /* CPUID_INDEX_7_ECX_1 */
  return -1;
}

/* Where registers come from: this CPU (rep NULL: the C library's copy of a
 * leaf when it has one and use_libc allows, else CPUID), or a described
 * CPU (its leaves, zero where the description has none; with use_libc it
 * models glibc's copy, read without CPUID, and `cost` adds up the CPUID
 * instructions and kernel questions the same reading of this CPU would
 * cost: the replay seam for start-up's cost on recorded CPUs). */
typedef struct source {
  const cpud_cpu_report *rep;
  int use_libc;
  cpud__reading_cost *cost;
} source;

static regs find(const cpud_cpu_report *rep, unsigned leaf, unsigned subleaf) {
  regs x = {{0, 0, 0, 0}};
  for (size_t i = 0; i < rep->leaf_count; ++i) {
    const cpud_cpuid_leaf *l = &rep->leaves[i];
    if (l->leaf == leaf && l->subleaf == subleaf) {
      x.r[0] = l->eax, x.r[1] = l->ebx, x.r[2] = l->ecx, x.r[3] = l->edx;
      break;
    }
  }
  return x;
}

static int cached(const source *src, unsigned l, unsigned s, regs *out) {
  if (src->rep) {
    if (!src->use_libc || glibc_copy_index(l, s) < 0) return 0;
    /* glibc copies a leaf only when its range's maximum reaches it. */
    const unsigned max = find(src->rep, l & 0x80000000u, 0).r[0];
    if (l <= max) {
      *out = find(src->rep, l, s);
    } else {
      memset(out, 0, sizeof *out);
    }
    return 1;
  }
  __atomic_or_fetch(&g_leaves_read, leaf_bit(l, s), __ATOMIC_RELAXED); /* every leaf get() reads passes here */
#ifdef CPUD_LIBC_CPUID_CACHE
  const int index = glibc_copy_index(l, s);
  if (!src->use_libc || index < 0) return 0;
  const struct cpud_glibc_cpuid_leaf *f = __x86_get_cpuid_feature_leaf((unsigned)index);
  if (!f) return 0;
  for (int r = 0; r < 4; ++r) out->r[r] = f->cpuid_array[r];
  return 1;
#else
  (void)out;
  return 0;
#endif
}

static regs run_cpuid(const source *src, unsigned leaf, unsigned subleaf) {
  if (src->rep) {
    if (src->cost) ++src->cost->cpuids;
    return find(src->rep, leaf, subleaf);
  }
  regs x;
  __cpuid_count(leaf, subleaf, x.r[0], x.r[1], x.r[2], x.r[3]);
  __atomic_add_fetch(&g_cpuid_count, 1u, __ATOMIC_RELAXED); /* racing initialisers */
  return x;
}

/* Only called with OSXSAVE set, so XGETBV exists. A described CPU without
 * an XCR0 value has the OS enable everything CPUID.(0Dh,0) says the CPU can
 * save (EDX:EAX); it stands for XGETBV: no CPUID is counted. */
static uint64_t xcr0(const source *src) {
  if (src->rep) {
    if (src->rep->has_xcr0) return src->rep->xcr0;
    if (find(src->rep, 0, 0).r[0] < 0xd) return 0; /* no leaf 0xD: nothing saved */
    const regs d = find(src->rep, 0xd, 0);
    return ((uint64_t)d.r[CPUD_REG_EDX] << 32) | d.r[CPUD_REG_EAX];
  }
  unsigned lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return ((uint64_t)hi << 32) | lo;
}

/* Linux hands out AMX tile data state only to a process that asks
 * (Documentation/arch/x86/xstate.rst); until then the first tile
 * instruction faults although CPUID and XCR0 say AMX. Other systems: XCR0
 * is their word. */
static int amx_permitted(const source *src) {
  if (src->rep) {
    if (src->cost) ++src->cost->kernel_asks;
    return !src->rep->amx_denied;
  }
#if defined(__linux__)
  const long arch_req_xcomp_perm = 0x1023, xfeature_xtiledata = 18;
  return syscall(SYS_arch_prctl, arch_req_xcomp_perm, xfeature_xtiledata) == 0;
#else
  return 1;
#endif
}

/* Leaves the table uses, each read once, with the rules CPUID's users must
 * follow: a leaf above the maximum basic/extended leaf reads as zero (real
 * CPUs return another leaf's data there); leaf 0x24 only exists when
 * CPUID.(7,1):EDX[19] (AVX10) says so. */
typedef struct leaf_reader {
  const source *cpu;
  int have_basic, have_ext;
  unsigned max_basic, max_ext;
  unsigned n;
  unsigned leaf[8], sub[8];
  regs val[8];
} leaf_reader;

/* The maximum of the leaf's own range only, read once. */
static int exists(leaf_reader *c, unsigned l) {
  if (l >= 0x80000000u) {
    if (!c->have_ext) c->max_ext = run_cpuid(c->cpu, 0x80000000u, 0).r[0], c->have_ext = 1;
    return l <= c->max_ext;
  }
  if (!c->have_basic) c->max_basic = run_cpuid(c->cpu, 0, 0).r[0], c->have_basic = 1;
  return l <= c->max_basic;
}

static regs get(leaf_reader *c, unsigned l, unsigned s) {
  for (unsigned i = 0; i < c->n; ++i)
    if (c->leaf[i] == l && c->sub[i] == s) return c->val[i];
  regs x = {{0, 0, 0, 0}};
  if (!cached(c->cpu, l, s, &x)) {
    /* (AVX10's bit first: on glibc it costs no CPUID, the maximum does.) */
    int ok = l != 0x24u || ((get(c, 7, 1).r[CPUD_REG_EDX] >> 19) & 1u);
    if (ok && exists(c, l)) x = run_cpuid(c->cpu, l, s);
  }
  if (c->n < 8) {
    c->leaf[c->n] = l;
    c->sub[c->n] = s;
    c->val[c->n++] = x;
  }
  return x;
}

/* The rows of `want` only: a row outside it reads no leaf and stays clear. */
static cpud_mask detect(const source *cpu, cpud_mask want) {
  leaf_reader c;
  memset(&c, 0, sizeof c);
  c.cpu = cpu;
  int need_xcr0 = 0;
#define CPUD__ROW(NAME, INTEREST, KIND, LEAF, SUB, REG, BIT, XCR0, ARG) \
  if ((XCR0) && cpud_mask_has(want, CPUD_FEATURE_##NAME)) need_xcr0 = 1;
  CPUD_FEATURES(CPUD__ROW)
#undef CPUD__ROW
  /* XCR0 only when the OS has enabled XSAVE (OSXSAVE): else no AVX state
   * at all, and XGETBV itself would fault. */
  uint64_t x = 0;
  if (need_xcr0 && ((get(&c, 1, 0).r[CPUD_REG_ECX] >> 27) & 1u)) x = xcr0(cpu);
  int amx = -1; /* asked once, and only when a row needs tile state */
  cpud_mask raw = cpud_mask_none();
#define CPUD__ROW(NAME, INTEREST, KIND, LEAF, SUB, REG, BIT, XCR0, ARG)                                 \
  if (!cpud_mask_has(want, CPUD_FEATURE_##NAME)) {                                                    \
  } else if (KIND == CPUD_DETECT_GROUP) {                                                             \
    raw = cpud_mask_with(raw, CPUD_FEATURE_##NAME);                                                   \
  } else if ((KIND == CPUD_DETECT_CPUID || KIND == CPUD_DETECT_CPUID_GE) &&                           \
             (KIND == CPUD_DETECT_CPUID ? ((get(&c, LEAF, SUB).r[REG] >> (BIT)) & 1u)                 \
                                        : (int)((get(&c, LEAF, SUB).r[REG] >> (BIT)) & 0xffu) >= (ARG)) && \
             (x & (XCR0)) == (uint64_t)(XCR0)) {                                                      \
    if (((XCR0) & XTILE) && amx < 0) amx = amx_permitted(cpu) ? 1 : 0;                                \
    if (!((XCR0) & XTILE) || amx == 1) raw = cpud_mask_with(raw, CPUD_FEATURE_##NAME);                \
  }
  CPUD_FEATURES(CPUD__ROW)
#undef CPUD__ROW
  return raw;
}

cpud_mask cpud__detect_raw_with(int use_libc_cache, cpud_mask want) {
  const source live = {NULL, use_libc_cache, NULL};
  return detect(&live, want);
}

cpud_mask cpud__detect_raw(cpud_mask want) { return cpud__detect_raw_with(1, want); }

cpud_mask cpud__detect_raw_from(const cpud_cpu_report *cpu, cpud_mask want, int libc_copy,
                                cpud__reading_cost *cost) {
  const source described = {cpu, libc_copy, cost};
  return detect(&described, want);
}

int cpud__vector_feature(void) { return 0; }
int cpud__live_vector_bytes(void) { return 0; }

unsigned cpud__cpuid_count(void) { return __atomic_load_n(&g_cpuid_count, __ATOMIC_RELAXED); }

unsigned cpud__leaves_read(void) { return __atomic_load_n(&g_leaves_read, __ATOMIC_RELAXED); }
const char *cpud__leaf_name(int bit) { return bit >= 0 && bit < LEAF_COUNT ? k_leaves[bit].name : NULL; }

int cpud__libc_cpuid_copy(void) {
#ifdef CPUD_LIBC_CPUID_CACHE
  return 1;
#else
  return 0;
#endif
}
