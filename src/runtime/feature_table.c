/* SPDX-License-Identifier: MIT */
/* The build's feature table as data (feature_table.h): row names and
 * aliases, the implied, added and removal sets, the baseline and the
 * dispatch targets. Layer 1: calls nothing of the runtime. */
#include "feature_table.h"

#include <stdio.h>

static const char *const k_names[] = {
    NULL,
#define CPUD__NAME(NAME, ...) #NAME,
    CPUD_FEATURES(CPUD__NAME)
#undef CPUD__NAME
};

/* Configure derives the sets from the table and emits them as words
 * (cpudispatch_features.h): static data, nothing computed here. DISABLE
 * of a group disables what it adds too; the removal set is configure's own
 * for "-NAME", so the two agree. */
#define CPUD__SET(NAME, ...) [CPUD_FEATURE_##NAME] = {{__VA_ARGS__}},
const cpud_mask cpud__implied_sets[CPUD_FEATURE_COUNT + 1] = {CPUD_IMPLIED_SETS(CPUD__SET)};
const cpud_mask cpud__adds_sets[CPUD_FEATURE_COUNT + 1] = {CPUD_ADDS_SETS(CPUD__SET)};
const cpud_mask cpud__removes_sets[CPUD_FEATURE_COUNT + 1] = {CPUD_REMOVES_SETS(CPUD__SET)};
#undef CPUD__SET

typedef struct alias_row {
  int id;
  const char *spelling;
} alias_row;
static const alias_row k_aliases[] = {
#define CPUD__ALIAS(NAME, SPELLING) {CPUD_FEATURE_##NAME, SPELLING},
    CPUD_FEATURE_ALIASES(CPUD__ALIAS)
#undef CPUD__ALIAS
    {0, NULL}};

/* Not __builtin_popcountll: below POPCNT (the runtime's floor) GCC calls
 * libgcc's __popcountdi2 for it, and the runtime needs libc alone. */
static int bit_count(uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return (int)((x * 0x0101010101010101ull) >> 56);
}

int cpud__mask_count(cpud_mask m) {
  int n = 0;
  for (int i = 0; i < CPUD_MASK_WORDS; ++i) n += bit_count(m.w[i] & cpud__feature_bits(i));
  return n;
}

static int same_name(const char *a, const char *b) {
  for (; *a && *b; ++a, ++b) {
    char x = *a, y = *b;
    if (x >= 'a' && x <= 'z') x = (char)(x - 'a' + 'A');
    if (y >= 'a' && y <= 'z') y = (char)(y - 'a' + 'A');
    if (x != y) return 0;
  }
  return *a == *b;
}

const char *cpud_feature_name(int feature) {
  return feature > 0 && feature <= CPUD_FEATURE_COUNT ? k_names[feature] : NULL;
}

int cpud_feature_by_name(const char *name) {
  if (!name) return 0;
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id)
    if (same_name(name, k_names[id])) return id;
  for (const alias_row *a = k_aliases; a->id; ++a)
    if (same_name(name, a->spelling)) return a->id;
  return 0;
}

void cpud__mask_names(cpud_mask mask, char *buf, size_t cap) {
  size_t used = 0;
  buf[0] = 0;
  for (int id = 1; id <= CPUD_FEATURE_COUNT && used + 1 < cap; ++id) {
    if (!cpud_mask_has(mask, id)) continue;
    const int n = snprintf(buf + used, cap - used, "%s%s", used ? " " : "", k_names[id]);
    if (n < 0) break;
    used += (size_t)n;
  }
}

/* A feature is usable when its own bit is set and so is every bit it
 * implies. */
cpud_mask cpud__close_over_implied(cpud_mask raw) {
  cpud_mask out = cpud_mask_none();
  /* Word by word, so that each word of the result stays in a register (a
   * bit set at a computed word index goes through memory every time). */
  for (int i = 0; i < CPUD_MASK_WORDS; ++i) {
    uint64_t w = 0;
    for (int b = 0; b < 64; ++b) {
      const int id = 64 * i + b;
      if (id < 1 || id > CPUD_FEATURE_COUNT || !((raw.w[i] >> b) & 1u)) continue;
      if (cpud__mask_empty(cpud_mask_andnot(cpud__implied_sets[id], raw))) w |= (uint64_t)1 << b;
    }
    out.w[i] = w;
  }
  return out;
}

cpud_mask cpud_close_over_implied(cpud_mask mask) {
  return cpud__close_over_implied(cpud_mask_and(mask, cpud__every_feature()));
}

cpud_mask cpud_with_implied(cpud_mask mask) {
  cpud_mask out = cpud_mask_none();
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id)
    if (cpud_mask_has(mask, id)) out = cpud_mask_or(cpud_mask_with(out, id), cpud__implied_mask(id));
  return out;
}

cpud_mask cpud_baseline_mask(void) {
  cpud_mask m = cpud_mask_none();
#define CPUD__B(NAME) m = cpud_mask_with(m, CPUD_FEATURE_##NAME);
  CPUD_WITH_BASELINE(CPUD__B)
#undef CPUD__B
  return m;
}

/* The features of the X-macro list's rows and what they imply. */
#define CPUD__WITH_IMPLIED(NAME) \
  m = cpud_mask_or(cpud_mask_with(m, CPUD_FEATURE_##NAME), cpud__implied_mask(CPUD_FEATURE_##NAME));

cpud_mask cpud__dispatched_mask(void) {
  cpud_mask m = cpud_mask_none();
  CPUD_WITH_DISPATCH(CPUD__WITH_IMPLIED)
  return m;
}

cpud_mask cpud__startup_wanted(void) {
  cpud_mask m = cpud__dispatched_mask();
  CPUD_WITH_BASELINE(CPUD__WITH_IMPLIED)
  return m;
}
#undef CPUD__WITH_IMPLIED
