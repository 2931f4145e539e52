/* SPDX-License-Identifier: MIT */
/* The C entry points of typed dispatch (cpudispatch/dtype.h): Numba's
 * conversion rules (dtype_rules.h, the list the C++ layer's compile-time
 * matrix is made from too) and resolution by ranked conversions, with the
 * same rules as cpud::resolve (resolve.hpp): no allocation, libc only. */
#include "cpudispatch/dtype.h"

#include "cpudispatch/dtype_rules.h"

#define N CPUD_DTYPE_COUNT

/* Conversion kinds by the names the rule lists use. */
#define CPUD__CONV_exact CPUD_CONV_EXACT
#define CPUD__CONV_promote CPUD_CONV_PROMOTE
#define CPUD__CONV_safe CPUD_CONV_SAFE
#define CPUD__CONV_unsafe CPUD_CONV_UNSAFE
#define CPUD__CONV_none CPUD_CONV_NONE

typedef struct rule {
  unsigned char from, to, forward, backward;
} rule;
#define CPUD__RULE_C(F, T, FW, BW) {CPUD_DTYPE_##F, CPUD_DTYPE_##T, CPUD__CONV_##FW, CPUD__CONV_##BW},
static const rule k_numba_rules[] = {CPUD_NUMBA_RULES(CPUD__RULE_C)};
#undef CPUD__RULE_C

/* The closure of the rules: each pair takes its strictest chain, a chain
 * being as strict as its loosest step. Computed once, by the first caller
 * (racing callers wait the microsecond it takes). */
static unsigned char g_kind[N][N];
static int g_state = 0; /* 0: not built, 1: being built, 2: ready */

static unsigned char (*matrix(void))[N] {
  if (__atomic_load_n(&g_state, __ATOMIC_ACQUIRE) == 2) return g_kind;
  int expected = 0;
  if (__atomic_compare_exchange_n(&g_state, &expected, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j) g_kind[i][j] = i == j ? CPUD_CONV_EXACT : CPUD_CONV_NONE;
    for (size_t r = 0; r < sizeof k_numba_rules / sizeof k_numba_rules[0]; ++r) {
      const rule *x = &k_numba_rules[r];
      if (x->forward < g_kind[x->from][x->to]) g_kind[x->from][x->to] = x->forward;
      if (x->backward < g_kind[x->to][x->from]) g_kind[x->to][x->from] = x->backward;
    }
    for (int k = 0; k < N; ++k)
      for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) {
          const unsigned char chain = g_kind[i][k] > g_kind[k][j] ? g_kind[i][k] : g_kind[k][j];
          if (chain < g_kind[i][j]) g_kind[i][j] = chain;
        }
    __atomic_store_n(&g_state, 2, __ATOMIC_RELEASE);
  } else {
    while (__atomic_load_n(&g_state, __ATOMIC_ACQUIRE) != 2) {
    }
  }
  return g_kind;
}

int cpud_can_convert(int from, int to) {
  if (from < 0 || to < 0 || from >= N || to >= N) return CPUD_CONV_NONE;
  return matrix()[from][to];
}

/* A code and itself are exact (a composite code's too); a code outside the
 * built-in ones converts to and from nothing else. */
static int kind(unsigned from, unsigned to) {
  if (from == to) return CPUD_CONV_EXACT;
  if (from >= N || to >= N) return CPUD_CONV_NONE;
  return matrix()[from][to];
}

/* How many conversions of each kind a candidate needs; fewer unsafe first,
 * then fewer safe, then fewer promotions. */
typedef struct rating {
  int unsafe, safe, promote;
} rating;
static int rating_less(const rating *a, const rating *b) {
  return a->unsafe != b->unsafe ? a->unsafe < b->unsafe : a->safe != b->safe ? a->safe < b->safe : a->promote < b->promote;
}
static int rating_equal(const rating *a, const rating *b) {
  return a->unsafe == b->unsafe && a->safe == b->safe && a->promote == b->promote;
}

/* Rates candidate `types`; 0 when an argument needs a conversion beyond
 * `limit` (or none exists). */
static int rate(const uint16_t *args, int n, const uint16_t *types, int limit, rating *out) {
  rating r = {0, 0, 0};
  for (int i = 0; i < n; ++i) {
    const int c = kind(args[i], types[i]);
    if (c == CPUD_CONV_NONE || c > limit) return 0;
    r.unsafe += c == CPUD_CONV_UNSAFE;
    r.safe += c == CPUD_CONV_SAFE;
    r.promote += c == CPUD_CONV_PROMOTE;
  }
  *out = r;
  return 1;
}

/* a is more specific than b: every parameter of a converts to b's at most
 * safely, and they differ. */
static int more_specific(const uint16_t *a, const uint16_t *b, int n) {
  int differ = 0;
  for (int i = 0; i < n; ++i) {
    const int c = kind(a[i], b[i]);
    if (c == CPUD_CONV_NONE || c == CPUD_CONV_UNSAFE) return 0;
    differ = differ || c != CPUD_CONV_EXACT;
  }
  return differ;
}

#define MAX_CANDS 256
#define MAX_TIED 8 /* as cpud::k_max_tied: most_specific decides among at most this many */

int cpud_resolve(const uint16_t *args, int n, const uint16_t *cand_types, int n_cands, int casting, int tie,
                 int *tied) {
  if (n < 0 || n > 8 || n_cands < 0 || n_cands > MAX_CANDS || casting < CPUD_CONV_EXACT ||
      casting > CPUD_CONV_UNSAFE || tie < CPUD_TIE_ERROR || tie > CPUD_TIE_FIRST || (n > 0 && !args) ||
      (n > 0 && n_cands > 0 && !cand_types))
    return -3;
  int best[MAX_TIED];
  int n_best = 0, n_best_all = 0;
  rating best_rank = {0, 0, 0};
  for (int c = 0; c < n_cands; ++c) {
    rating r;
    if (!rate(args, n, cand_types + (size_t)c * (size_t)n, casting, &r)) continue;
    if (n_best_all == 0 || rating_less(&r, &best_rank)) {
      best_rank = r;
      n_best = n_best_all = 0;
    } else if (!rating_equal(&r, &best_rank)) {
      continue;
    }
    if (n_best < MAX_TIED) best[n_best++] = c;
    ++n_best_all;
  }
  if (n_best_all == 0) return -1;
  if (n_best_all == 1 || tie == CPUD_TIE_FIRST) return best[0]; /* best[] is in the candidates' order */
  if (tie == CPUD_TIE_MOST_SPECIFIC && n_best_all <= MAX_TIED) {
    int chosen = -1;
    for (int i = 0; i < n_best; ++i) {
      int beats_all = 1;
      for (int j = 0; j < n_best && beats_all; ++j)
        beats_all = i == j || more_specific(cand_types + (size_t)best[i] * (size_t)n,
                                            cand_types + (size_t)best[j] * (size_t)n, n);
      if (beats_all) chosen = chosen < 0 ? best[i] : -2;
    }
    if (chosen >= 0) return chosen;
  }
  if (tied) {
    tied[0] = best[0];
    tied[1] = best[1];
  }
  return -2;
}

int cpud_resolve_or_fallback(const uint16_t *args, int n, const uint16_t *cand_types, int n_cands, int casting,
                             int tie, int *tied, int fallback) {
  if (fallback < 0) return -3;
  const int r = cpud_resolve(args, n, cand_types, n_cands, casting, tie, tied);
  return r == -1 ? fallback : r;
}
