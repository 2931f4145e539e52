/* docs/api.md's C blocks, verbatim between the markers (api_doc.py compares
 * them with the doc), built against this build with the kernels of
 * sum.dispatch.c and fast.dispatch.c. The asserts check what the doc says.
 *   api_c_test        every check; prints "api-c: PASS"
 *   api_c_test none   CPUD_DISPATCH_CALL of fast (no baseline build) with
 *                     every target masked off: must abort with the message
 *   api_c_test none-cached   the same through CPUD_DISPATCH_CALL_CACHED
 *                     (api_c_cached.c)
 */
#undef NDEBUG /* the asserts are the test */
#include "cpudispatch/functions.h"
#include "cpudispatch/testing.h"
#include <stdio.h>
#include <stdlib.h>

/* api-c:start */
#include <assert.h>
#include <string.h>

#include "sum.dispatch.h"
CPUD_DISPATCH_DECLARE(int sum, (const int *, int, char *))  /* sum_X86_V3, ..., sum_baseline */

static void c_calls(void) {
  const int v[4] = {1, 2, 3, 4};
  char best[32] = "", again[32] = "", all[256] = "";
  int s = CPUD_DISPATCH_CALL(sum, (v, 4, best));  /* one call: the best usable target */
  assert(s == 10);
  int (*fn)(const int *, int, char *) = CPUD_DISPATCH_SELECT(sum);  /* its address */
  fn(v, 4, again);
  assert(strcmp(again, best) == 0);
  CPUD_DISPATCH_CALL_ALL(sum, (v, 4, all));  /* every usable target, then the baseline */
  assert(strncmp(all, best, strlen(best)) == 0);  /* the best one first */
}
/* api-c:end */

/* api-xmacro:start */
/* The usable targets of sum, in the order CPUD_DISPATCH_CALL_ALL calls them. */
#define APPEND_IF(CHECK, T, BUF) if (CHECK) strcat(BUF, #T " ");
#define APPEND_BASELINE(BUF) strcat(BUF, "baseline ");
static void usable_targets_of_sum(char *buf) {
  CPUD_sum__DISPATCH_CALL(CPUD_HAVE, APPEND_IF, buf)
  CPUD_sum__DISPATCH_BASELINE_CALL(APPEND_BASELINE, buf)
}
/* api-xmacro:end */

/* api-xmacro-dummy:start */
/* Nothing to pass: a dummy argument (~) for the `...`. */
#define COUNT_IF(CHECK, T, ...) n += (CHECK);
static int usable_targets_count(void) {  /* run once, not per call */
  int n = 0;
  CPUD_sum__DISPATCH_CALL(CPUD_HAVE, COUNT_IF, ~)
  return n;
}
/* api-xmacro-dummy:end */

/* api-c-two:start */
#include "fast.dispatch.h"  /* the unprefixed macros now follow fast */
CPUD_DISPATCH_DECLARE(int fast, (const int *, int, char *))
static const char fast_targets[] = CPUD__TARGET_NAMES;  /* fast's list */
#include "sum.dispatch.h"   /* included again: they follow sum again */

static void two_sources(void) {
  assert(strcmp(fast_targets, CPUD_fast__TARGET_NAMES) == 0);
  assert(strcmp(CPUD__TARGET_NAMES, CPUD_sum__TARGET_NAMES) == 0);
  const int v[4] = {1, 2, 3, 4};
  char log[32] = "";
  int s = CPUD_DISPATCH_CALL(sum, (v, 4, log));
  assert(s == 10);
}
/* api-c-two:end */

/* api-introspect:start */
#include "cpudispatch/cpudispatch.h"

static void introspect(void) {
  cpud_mask usable = cpud_usable_mask(), detected = cpud_detected_mask(), base = cpud_baseline_mask();
  assert(cpud_mask_equal(cpud_mask_and(base, usable), base));          /* baseline <= usable */
  assert(cpud_mask_equal(cpud_mask_and(usable, detected), usable));    /* usable <= detected */
  assert(cpud_have(CPUD_FEATURE_NONE) == 0 && cpud_have(CPUD_FEATURE_COUNT + 1) == 0);
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id) {
    const char *name = cpud_feature_name(id);  /* "SSE", "SSE2", ...: table order */
    assert(name && cpud_feature_by_name(name) == id);
    assert(cpud_have(id) == cpud_mask_has(usable, id));
  }
  assert(cpud_feature_name(0) == NULL && cpud_feature_name(CPUD_FEATURE_COUNT + 1) == NULL);
  assert(cpud_feature_by_name("no-such-feature") == 0 && cpud_feature_by_name(NULL) == 0);
#if defined(CPUD_ARCH_X86_64)
  assert(cpud_feature_by_name("avx2") == CPUD_FEATURE_AVX2);    /* any case */
  assert(cpud_feature_by_name("sse4.2") == CPUD_FEATURE_SSE42);  /* aliases */
  assert(cpud_feature_by_name("asimddp") == 0);                  /* another arch's name */
  assert(CPUD_HAVE(AVX2) == cpud_have(CPUD_FEATURE_AVX2));
#endif
  char msg[1024] = "x";
  assert(cpud_check_baseline(msg, sizeof msg) == 0 && msg[0] == 0);  /* nothing missing here */
  assert(cpud_host_init(msg, sizeof msg) == 0 && msg[0] == 0);       /* nor wrong in the environment */
  assert(cpud_library_init(msg, sizeof msg) == 0 && msg[0] == 0);    /* library mode's init: the same here */
}
/* api-introspect:end */

/* api-ids:start */
#if defined(CPUD_FEATURE_AVX2)
#error "never reached: feature ids are enumerators, invisible to #if"
#endif
#if defined(CPUD_ARCH_X86_64)  /* compile time: the build's arch */
static const int avx2_id = CPUD_FEATURE_AVX2;
#else
static const int avx2_id = 0;
#endif

static void ids(void) {
  assert(cpud_feature_by_name("AVX2") == avx2_id);  /* run time: 0 where AVX2 is unknown */
}
/* api-ids:end */

/* api-exit:start */
_Static_assert(CPUD_EXIT_BASELINE == 69, "the CPU lacks a baseline feature");
_Static_assert(CPUD_EXIT_ENV == 78, "a bad DISABLE/ENABLE_CPU_FEATURES variable");
/* api-exit:end */

/* api-config:start */
#define BASELINE_ADD(NAME) base = cpud_mask_with(base, CPUD_FEATURE_##NAME);

static void build_facts(void) {
  printf("%s: baseline %s; dispatch targets %s\n", CPUD_ARCH, CPUD_BASELINE_NAMES, CPUD_DISPATCH_NAMES);
  cpud_mask base = cpud_mask_none();
  CPUD_WITH_BASELINE(BASELINE_ADD)
  assert(cpud_mask_equal(base, cpud_baseline_mask()));
}
/* api-config:end */

/* api-mask:start */
static void masks_for_tests(void) {
  cpud_mask prev = cpud_set_usable_mask(cpud_mask_none());  /* only the baseline stays usable */
  const int v[4] = {1, 2, 3, 4};
  char log[32] = "";
  int s = CPUD_DISPATCH_CALL(sum, (v, 4, log));  /* checks the mask on every call */
  assert(s == 10 && strcmp(log, "baseline ") == 0);
  cpud_set_usable_mask(prev);  /* restores */
  assert(cpud_mask_equal(cpud_usable_mask(), prev));
}
/* api-mask:end */

/* ---- checks of the doc's other sentences ---- */

#define EXPECT(c) ((c) ? (void)0 : (fprintf(stderr, "api-c: FAIL line %d: %s\n", __LINE__, #c), exit(1)))

/* What CPUD_DISPATCH_CALL_ALL must call, computed without the generated
 * checks: each compiled target whose own feature is usable, then baseline. */
static void expected_all(char *out) {
  char names[256];
  strcpy(names, CPUD_sum__TARGET_NAMES);
  for (char *t = strtok(names, " "); t; t = strtok(NULL, " ")) {
    if (strcmp(t, "baseline") == 0 || cpud_have(cpud_feature_by_name(t))) {
      strcat(out, t);
      strcat(out, " ");
    }
  }
}

static cpud_mask implied_of(int id) {
  cpud_mask m = cpud_mask_none();
#define IMPL(NAME, F) \
  if (id == CPUD_FEATURE_##NAME) m = cpud_mask_with(m, CPUD_FEATURE_##F);
  CPUD_FEATURE_IMPLIES(IMPL)
#undef IMPL
  return m;
}

static cpud_mask g_checked;
#define RECORD(F) (g_checked = cpud_mask_with(g_checked, CPUD_FEATURE_##F), 1)
#define EXPECT_CHECKS(CHK_EXPR, T, ...)                                                                        \
  g_checked = cpud_mask_none();                                                                              \
  (void)(CHK_EXPR);                                                                                         \
  EXPECT(cpud_mask_equal(g_checked, cpud_mask_andnot(cpud_mask_with(implied_of(CPUD_FEATURE_##T), CPUD_FEATURE_##T), \
                                                     cpud_baseline_mask())));
#define COUNT_BASELINE(N) ++*(N);
static void record_checks_of_sum(void) {
  int n = 0;
  CPUD_sum__DISPATCH_CALL(RECORD, EXPECT_CHECKS, ~)
  CPUD_sum__DISPATCH_BASELINE_CALL(COUNT_BASELINE, &n)
  EXPECT(n == 1);
}
static void record_checks_of_fast(void) {
  int n = 0;
  CPUD_fast__DISPATCH_CALL(RECORD, EXPECT_CHECKS, ~)
  CPUD_fast__DISPATCH_BASELINE_CALL(COUNT_BASELINE, &n)
  EXPECT(n == (strstr(CPUD_fast__TARGET_NAMES, "baseline") != NULL));
}

#define SAME_AS_OWN_BIT(CHK_EXPR, T, ...) EXPECT((CHK_EXPR) == CPUD_HAVE(T));

static void sentences(void) {
  const int v[4] = {1, 2, 3, 4};
  /* CALL_ALL calls exactly the usable targets, highest first, then the baseline;
   * the X-macro walk names the same ones. */
  char all[256] = "", want[256] = "", via_cb[256] = "";
  CPUD_DISPATCH_CALL_ALL(sum, (v, 4, all));
  expected_all(want);
  EXPECT(strcmp(all, want) == 0);
  usable_targets_of_sum(via_cb);
  EXPECT(strcmp(via_cb, all) == 0);
  /* The dummy-argument walk counts the same targets, less the baseline. */
  int usable = 0;
  for (const char *p = all; *p; ++p) usable += *p == ' ';
  EXPECT(usable_targets_count() == usable - 1);
  /* CPUD_DISPATCH_CALL evaluates ARGS once; CALL_ALL once per target it calls. */
  int calls = 0, k = 0;
  for (const char *p = all; *p; ++p) calls += *p == ' ';
  char log[256] = "";
  (void)CPUD_DISPATCH_CALL(sum, (v, (++k, 4), log));
  EXPECT(k == 1);
  k = 0;
  log[0] = 0;
  CPUD_DISPATCH_CALL_ALL(sum, (v, (++k, 4), log));
  EXPECT(k == calls);
  /* With CPUD_HAVE as CHK, a target's CHECK equals its own CPUD_HAVE bit,
   * under any mask, and every usable mask is closed over implied features. */
  cpud_mask prev = cpud_usable_mask();
  const cpud_mask det = cpud_detected_mask();
  /* none, all, and detected features thinned three ways: every other id
   * present, every other id (odd, even), so that sets miss implied
   * features in varied ways. */
  cpud_mask masks[5] = {cpud_mask_none(), cpud_mask_all(), cpud_mask_none(), cpud_mask_none(), cpud_mask_none()};
  int present = 0;
  for (int f = 1; f <= CPUD_FEATURE_COUNT; ++f) {
    if (!cpud_mask_has(det, f)) continue;
    if (present++ % 2 == 0) masks[2] = cpud_mask_with(masks[2], f);
    masks[f % 2 ? 3 : 4] = cpud_mask_with(masks[f % 2 ? 3 : 4], f);
  }
  for (size_t i = 0; i < sizeof masks / sizeof masks[0]; ++i) {
    cpud_set_usable_mask(masks[i]);
    CPUD_sum__DISPATCH_CALL(CPUD_HAVE, SAME_AS_OWN_BIT, ~)
    CPUD_fast__DISPATCH_CALL(CPUD_HAVE, SAME_AS_OWN_BIT, ~)
    cpud_mask m = cpud_usable_mask();
    EXPECT(cpud_mask_equal(cpud_mask_andnot(m, det), cpud_mask_none()) &&
           cpud_mask_equal(cpud_mask_and(m, cpud_baseline_mask()), cpud_baseline_mask()));
#define CLOSED(NAME, F) EXPECT(!cpud_mask_has(m, CPUD_FEATURE_##NAME) || cpud_mask_has(m, CPUD_FEATURE_##F));
    CPUD_FEATURE_IMPLIES(CLOSED)
#undef CLOSED
  }
  cpud_set_usable_mask(prev);
  /* DECLARE, CALL, SELECT and CALL_ALL never register anything (only a
   * CPUD_DISPATCH_DEFINE function's selection does: api_c_cached.c, later). */
  EXPECT(cpud_functions() == NULL);
  /* Ids: 1..CPUD_FEATURE_COUNT in table order, which is ascending interest. */
  int id = 0, last_interest = 0;
#define IN_ORDER(NAME, INTEREST, ...) \
  EXPECT(CPUD_FEATURE_##NAME == ++id && INTEREST > last_interest), last_interest = INTEREST;
  CPUD_FEATURES(IN_ORDER)
#undef IN_ORDER
  EXPECT(id == CPUD_FEATURE_COUNT && CPUD_MASK_WORDS == CPUD_FEATURE_COUNT / 64 + 1);
  /* Ids of no feature are never usable. */
  for (int i = CPUD_FEATURE_COUNT + 1; i < 64 * CPUD_MASK_WORDS + 64; ++i) EXPECT(cpud_have(i) == 0);
  EXPECT(cpud_have(0) == 0 && cpud_have(-1) == 0);
  /* The config header's lists: names of the baseline mask, dispatch targets
   * highest interest first, the arch macro matching CPUD_ARCH. */
  char names[1024] = "";
  for (int i = 1; i <= CPUD_FEATURE_COUNT; ++i)
    if (cpud_mask_has(cpud_baseline_mask(), i)) strcat(strcat(names, names[0] ? " " : ""), cpud_feature_name(i));
  EXPECT(strcmp(names, CPUD_BASELINE_NAMES) == 0);
  names[0] = 0;
  int last = CPUD_FEATURE_COUNT + 1;
#define DISPATCH_NAME(NAME) \
  EXPECT(CPUD_FEATURE_##NAME < last), last = CPUD_FEATURE_##NAME, strcat(strcat(names, names[0] ? " " : ""), #NAME);
  CPUD_WITH_DISPATCH(DISPATCH_NAME)
#undef DISPATCH_NAME
  EXPECT(strcmp(names, CPUD_DISPATCH_NAMES) == 0);
  const char *arch_macro = "?";
#if defined(CPUD_ARCH_X86_64)
  arch_macro = "x86_64";
#elif defined(CPUD_ARCH_AARCH64)
  arch_macro = "aarch64";
#elif defined(CPUD_ARCH_PPC64LE)
  arch_macro = "ppc64le";
#elif defined(CPUD_ARCH_S390X)
  arch_macro = "s390x";
#elif defined(CPUD_ARCH_RISCV64)
  arch_macro = "riscv64";
#endif
  EXPECT(strcmp(arch_macro, CPUD_ARCH) == 0);
  /* Every mask is closed; names outside the table are NULL. */
  const cpud_mask closed_masks[] = {cpud_detected_mask(), cpud_baseline_mask()};
  for (size_t i = 0; i < 2; ++i) {
    cpud_mask m = closed_masks[i];
#define CLOSED(NAME, F) EXPECT(!cpud_mask_has(m, CPUD_FEATURE_##NAME) || cpud_mask_has(m, CPUD_FEATURE_##F));
    CPUD_FEATURE_IMPLIES(CLOSED)
#undef CLOSED
  }
  EXPECT(cpud_feature_name(-1) == NULL);
  /* CHECK tests exactly the target and what it implies, minus the baseline;
   * DISPATCH_BASELINE_CALL is empty without a baseline build. */
  record_checks_of_sum();
  record_checks_of_fast();
  /* msg may be NULL. */
  EXPECT(cpud_check_baseline(NULL, 0) == 0);
}

#include "fast.dispatch.h" /* the macros follow fast from here on */

/* api_c_cached.c: the cached dispatcher, pick by name, the selected name */
int docs_api_c_cached(void);
int docs_api_c_cached_fast_is_null(void);
int docs_api_c_cached_call_fast(const int *v, int n, char *log);

/* cached: through CPUD_DISPATCH_CALL_CACHED (api_c_cached.c) */
static int none_mode(int cached) {
#if CPUD_fast__TARGET_COUNT > 0
  const int v[4] = {1, 2, 3, 4};
  char log[64] = "";
  if (strstr(CPUD_fast__TARGET_NAMES, "baseline")) {
    printf("has-baseline: %s\n", CPUD_fast__TARGET_NAMES);
    return 0;
  }
  cpud_set_usable_mask(cpud_mask_none());
  EXPECT(CPUD_DISPATCH_SELECT(fast) == NULL && (!cached || docs_api_c_cached_fast_is_null()));
  printf("calling fast\n");
  fflush(stdout);
  int s = cached ? docs_api_c_cached_call_fast(v, 4, log) : CPUD_DISPATCH_CALL(fast, (v, 4, log));
  printf("returned %d\n", s); /* never reached */
  return 1;
#else
  printf("has-no-target\n");
  return 0;
#endif
}

/* docs/api.md, "Redispatch": bulk_total's builds hand their tails down. */
#include "bulk_c.dispatch.h"
CPUD_DISPATCH_DEFINE(long, bulk_total, (const int *, size_t));
static void redispatch_c(void) {
  int v[100];
  for (int i = 0; i < 100; ++i) v[i] = i * 3 - 50;
  for (size_t n = 0; n <= 100; ++n) {
    long want = 0;
    for (size_t i = 0; i < n; ++i) want += v[i];
    EXPECT(CPUD_DISPATCH_CALL_CACHED(bulk_total, (v, n)) == want);
  }
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "none") == 0) return none_mode(0);
  if (argc > 1 && strcmp(argv[1], "none-cached") == 0) return none_mode(1);
  c_calls();
  two_sources();
  introspect();
  ids();
  masks_for_tests();
  build_facts();
  sentences();
  EXPECT(docs_api_c_cached() == 0);  /* after sentences(): it registers total */
  redispatch_c();
  printf("arch: %s\nenv-prefix: %s\n", CPUD_ARCH, CPUD_ENV_PREFIX);
  printf("features:");
  for (int i = 1; i <= CPUD_FEATURE_COUNT; ++i) printf(" %s", cpud_feature_name(i));
  printf("\n");
  printf("api-c: PASS (sum: %s; fast: %s)\n", CPUD_sum__TARGET_NAMES, fast_targets);
  return 0;
}
