/* docs/api.md's blocks on the C cached dispatcher, picking a target by name
 * and the selected target's name, verbatim between the markers (api_doc.py
 * compares them with the doc), built as C99 with -Wall -Wextra -Wpedantic
 * -Werror (test/docs/meson.build) against the kernels of total.dispatch.c
 * and fast.dispatch.c. The asserts check what the doc says; expectations
 * come from cpud_have() and the generated header, never from what a CPU is
 * assumed to have. api_c_test calls docs_api_c_cached() (every check; 0:
 * pass) and, in its mode none-cached, calls fast (no baseline build) through
 * docs_api_c_cached_call_fast() with every target masked off.
 */
#undef NDEBUG /* the asserts are the test */
#include "cpudispatch/functions.h"
#include "cpudispatch/testing.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

int docs_api_c_cached(void);
int docs_api_c_cached_fast_is_null(void);
int docs_api_c_cached_call_fast(const int *v, int n, char *log);

/* api-c-cached:start */
#include <assert.h>
#include <string.h>

#include "total.dispatch.h"
CPUD_DISPATCH_DEFINE(int, total, (const int *, int, char *));  /* once, at file scope */

static int total_of(const int *v, int n, char *log) {
  return CPUD_DISPATCH_CALL_CACHED(total, (v, n, log));  /* selects once, then calls the cached target */
}

static void c_cached(void) {
  const int v[4] = {1, 2, 3, 4};
  char log[32] = "";
  assert(total_of(v, 4, log) == 10);
  int (*fn)(const int *, int, char *) = CPUD_DISPATCH_CACHED(total);  /* the cached pointer */
  assert(fn == CPUD_DISPATCH_SELECT(total));               /* what the CHECK chain selects */
  const char *name = CPUD_DISPATCH_SELECTED_NAME(total);   /* its name: "X86_V3", "baseline" */
  assert(strncmp(log, name, strlen(name)) == 0 && log[strlen(name)] == ' ');
}
/* api-c-cached:end */

/* api-c-pick:start */
/* A library's own switch (FOO_FORCE=avx2+fma3, foo_force("x86_v3")), in three lines: */
static int (*total_impl)(const int *, int, char *);
static int force_total(const char *target) {
  int status;
  int (*fn)(const int *, int, char *) = CPUD_DISPATCH_PICK(total, target, &status);
  if (fn) total_impl = fn;  /* else the previous choice stays; status says why */
  return status;
}

static void pick(void) {
  total_impl = CPUD_DISPATCH_CACHED(total);
  assert(force_total("baseline") == CPUD_PICK_OK);  /* total has a baseline build */
  assert(force_total("no-such-isa") == CPUD_PICK_UNKNOWN);
#if defined(CPUD_ARCH_X86_64)
  assert(force_total("AVX512_ICL") == CPUD_PICK_NOT_COMPILED);  /* a feature total was not compiled for */
  assert(force_total("asimddp") == CPUD_PICK_UNKNOWN);          /* another arch's target */
  const int skx = force_total("avx512_skx");                    /* any case */
  if (strstr(CPUD_total__TARGET_NAMES, "AVX512_SKX"))           /* compiled (this build's cpu-dispatch has it) */
    assert(skx == (CPUD_HAVE(AVX512_SKX) ? CPUD_PICK_OK : CPUD_PICK_NOT_USABLE));
  assert(force_total("fma3+AVX2") == force_total("AVX2__FMA3"));  /* a group: either spelling, any order */
#endif
}
/* api-c-pick:end */

/* api-c-registry:start */
static void c_registry(void) {
  const int v[4] = {1, 2, 3, 4};
  char log[64] = "";
  (void)total_of(v, 4, log);  /* selecting registers total */
  const cpud_function *f = cpud_functions();
  while (f && f != CPUD_DISPATCH_RECORD(total)) f = f->next;
  assert(f && strcmp(f->name, "total") == 0 && f->target_count() == CPUD_total__TARGET_COUNT);
  const int was = f->selected();  /* an index: 0 is the highest-interest target */
  assert(strcmp(f->target_name(was), CPUD_DISPATCH_SELECTED_NAME(total)) == 0);
  if (f->target_feature(was) != 0) {  /* not the baseline build: switch its feature off */
    assert(cpud_set_disabled_features(cpud_mask_of(f->target_feature(was))) == 0);
    assert(f->selected() == -1);  /* forgotten: the next call selects again */
    (void)total_of(v, 4, log);
    assert(f->selected() > was);  /* a lower target */
    cpud_set_disabled_features(cpud_mask_none());
  }
}
/* api-c-registry:end */

/* ---- checks of the doc's other sentences ---- */

#define EXPECT(c) ((c) ? (void)0 : (fprintf(stderr, "api-c-cached: FAIL line %d: %s\n", __LINE__, #c), exit(1)))

/* What a call of fn writes to its log: "X86_V3 ". */
static const char *ran(int (*fn)(const int *, int, char *)) {
  static char log[64];
  const int v[2] = {20, 22};
  log[0] = 0;
  EXPECT(fn && fn(v, 2, log) == 42);
  return log;
}
static int ran_is(int (*fn)(const int *, int, char *), const char *name) {
  const char *log = ran(fn);
  return strncmp(log, name, strlen(name)) == 0 && strcmp(log + strlen(name), " ") == 0;
}

/* Whether a compiled target may run, from its name and cpud_have() alone:
 * the baseline build always; else every member ("AVX2__FMA3": AVX2 and
 * FMA3). The usable masks are closed, so a member's own bit suffices. */
static int expect_usable(const char *name) {
  char buf[64];
  if (strcmp(name, "baseline") == 0) return 1;
  EXPECT(strlen(name) < sizeof buf);
  strcpy(buf, name);
  for (char *p = buf;;) {
    char *sep = strstr(p, "__");
    if (sep) *sep = 0;
    EXPECT(cpud_feature_by_name(p) != 0);
    if (!cpud_have(cpud_feature_by_name(p))) return 0;
    if (!sep) return 1;
    p = sep + 2;
  }
}

/* Every compiled target, by name (as written, in lower case, and a group as
 * A+B in reverse order): OK and its build, or NOT_USABLE and NULL, as
 * expect_usable() says; returns how many are usable. */
static int check_each_target(void) {
  const cpud_function *f = CPUD_DISPATCH_RECORD(total);
  int usable = 0;
  EXPECT(f->target_count() == CPUD_total__TARGET_COUNT);
  for (int i = 0; i < f->target_count(); ++i) {
    const char *name = f->target_name(i);
    char lower[64], plus[64];
    size_t k = 0;
    for (; name[k] && k + 1 < sizeof lower; ++k) lower[k] = (char)(name[k] >= 'A' && name[k] <= 'Z' ? name[k] + 32 : name[k]);
    lower[k] = 0;
    /* "A__B" -> "B+A" */
    const char *sep = strstr(name, "__");
    if (sep) {
      snprintf(plus, sizeof plus, "%s+%.*s", sep + 2, (int)(sep - name), name);
    } else {
      snprintf(plus, sizeof plus, "%s", name);
    }
    const int want = expect_usable(name);
    usable += want;
    /* ... and with a baseline feature added, which adds nothing */
    char with_base[96];
    int base_id = 1;
    while (base_id <= CPUD_FEATURE_COUNT && !cpud_mask_has(cpud_baseline_mask(), base_id)) ++base_id;
    snprintf(with_base, sizeof with_base, "%s+%s", name,
             base_id <= CPUD_FEATURE_COUNT && strcmp(name, "baseline") != 0 ? cpud_feature_name(base_id) : name);
    /* ... and after a feature it implies, which adds nothing either ("AVX2+X86_V3") */
    char with_implied[96];
    const int key = f->target_feature(i);
    int implied = 0;
    for (int id = 1; id <= CPUD_FEATURE_COUNT && !implied; ++id)
      if (id != key && cpud_mask_has(cpud_with_implied(cpud_mask_of(key)), id) && !cpud_mask_has(cpud_baseline_mask(), id))
        implied = id;
    snprintf(with_implied, sizeof with_implied, "%s+%s", implied ? cpud_feature_name(implied) : name, name);
    const int target = strcmp(name, "baseline") != 0;
    const char *spellings[5] = {name, lower, plus, target ? with_base : name, target ? with_implied : name};
    for (int s = 0; s < 5; ++s) {
      int status = -1;
      int (*fn)(const int *, int, char *) = CPUD_DISPATCH_PICK(total, spellings[s], &status);
      EXPECT(status == (want ? CPUD_PICK_OK : CPUD_PICK_NOT_USABLE));
      EXPECT(want ? fn != NULL && ran_is(fn, name) : fn == NULL);
      EXPECT((CPUD_DISPATCH_PICK(total, spellings[s], NULL) != NULL) == want);  /* status may be NULL */
    }
    if (strcmp(name, "baseline") != 0) {
      /* the key: the feature itself, or a group's first (highest) member */
      char first[64];
      snprintf(first, sizeof first, "%.*s", sep ? (int)(sep - name) : (int)strlen(name), name);
      EXPECT(f->target_feature(i) == cpud_feature_by_name(first));
    } else {
      EXPECT(f->target_feature(i) == 0 && i == f->target_count() - 1);
    }
  }
  return usable;
}

/* Every feature of the table as a name: a compiled single-feature target
 * (OK or NOT_USABLE), a baseline feature (the baseline build: OK), or
 * NOT_COMPILED. And names of no feature: UNKNOWN. */
static void check_every_feature_name(void) {
  const cpud_function *f = CPUD_DISPATCH_RECORD(total);
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id) {
    const char *name = cpud_feature_name(id);
    int compiled = -1;
    for (int i = 0; i < f->target_count(); ++i)
      if (strcmp(f->target_name(i), name) == 0) compiled = i;
    int status = -1;
    int (*fn)(const int *, int, char *) = CPUD_DISPATCH_PICK(total, name, &status);
    if (cpud_mask_has(cpud_baseline_mask(), id)) {
      EXPECT(status == CPUD_PICK_OK && ran_is(fn, "baseline"));
    } else if (compiled >= 0) {
      EXPECT(status == (expect_usable(name) ? CPUD_PICK_OK : CPUD_PICK_NOT_USABLE));
    } else {
      EXPECT(status == CPUD_PICK_NOT_COMPILED && fn == NULL);
    }
  }
  const char *unknown[] = {"", "+", "AVX2+", "__AVX2", "baseline+SSE42", "no-such", "AVX2++FMA3",
                           "a-name-longer-than-any-feature-name-of-any-table-there-is-anywhere"};
  for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; ++i) {
    int status = -1;
    EXPECT(CPUD_DISPATCH_PICK(total, unknown[i], &status) == NULL && status == CPUD_PICK_UNKNOWN);
  }
  int status = -1;
  EXPECT(CPUD_DISPATCH_PICK(total, NULL, &status) == NULL && status == CPUD_PICK_UNKNOWN);
  EXPECT(CPUD_DISPATCH_PICK(total, "BaseLine", &status) != NULL && status == CPUD_PICK_OK);
}

/* Under each mask: CACHED, SELECT and SELECTED_NAME agree, PICK of the
 * selected name gives the same address, the highest usable target is what
 * CPUD_DISPATCH_CALL_CACHED runs, and the record's selected() names it after
 * a call. */
static void check_agreement(const char *why) {
  const cpud_function *f = CPUD_DISPATCH_RECORD(total);
  const char *name = CPUD_DISPATCH_SELECTED_NAME(total);
  int (*sel)(const int *, int, char *) = CPUD_DISPATCH_SELECT(total);
  int status = -1;
  EXPECT(name != NULL && sel != NULL);
  EXPECT(CPUD_DISPATCH_PICK(total, name, &status) == sel && status == CPUD_PICK_OK);
  EXPECT(ran_is(sel, name));
  char log[64] = "";
  const int v[1] = {42};
  EXPECT(total_of(v, 1, log) == 42);
  EXPECT(strncmp(log, name, strlen(name)) == 0);
  EXPECT(CPUD_DISPATCH_CACHED(total) == sel);
  /* the first usable one in the record's order */
  int first = -1;
  for (int i = 0; i < f->target_count() && first < 0; ++i)
    if (expect_usable(f->target_name(i))) first = i;
  if (first < 0 || strcmp(f->target_name(first), name) != 0) {
    fprintf(stderr, "api-c-cached: %s: selected %s, first usable %s\n", why, name, first < 0 ? "none" : f->target_name(first));
    EXPECT(0);
  }
}

static const char *g_thread_name;
static void *other_thread(void *arg) {
  char *log = (char *)arg;
  const int v[1] = {1};
  g_thread_name = CPUD_DISPATCH_SELECTED_NAME(total);  /* this thread's mask */
  (void)total_of(v, 1, log);
  return NULL;
}

#define RACERS 8
static void *racer(void *arg) {
  char *log = (char *)arg;
  const int v[1] = {1};
  (void)total_of(v, 1, log);
  return NULL;
}

#include "fast.dispatch.h" /* the unprefixed macros follow fast */
CPUD_DISPATCH_DEFINE(int, fast, (const int *, int, char *));
static const char *fast_selected_name(void) { return CPUD_DISPATCH_SELECTED_NAME(fast); }
#include "total.dispatch.h" /* and total again */

static void sentences(void) {
  const cpud_function *f = CPUD_DISPATCH_RECORD(total);
  int status;
  /* PICK never registers; the first resolution does, once. */
  for (const cpud_function *g = cpud_functions(); g; g = g->next) EXPECT(g != CPUD_DISPATCH_RECORD(fast));
  (void)CPUD_DISPATCH_PICK(fast, "baseline", &status);
  EXPECT(status == CPUD_PICK_NOT_COMPILED);  /* fast has no baseline build */
  for (const cpud_function *g = cpud_functions(); g; g = g->next) EXPECT(g != CPUD_DISPATCH_RECORD(fast));
  int seen = 0;
  for (const cpud_function *g = cpud_functions(); g; g = g->next) seen += g == f;
  EXPECT(seen == 1);

  /* force_total() sets total_impl only when the pick is OK */
  EXPECT(force_total("baseline") == CPUD_PICK_OK && ran_is(total_impl, "baseline"));
  EXPECT(force_total("no-such-isa") == CPUD_PICK_UNKNOWN && ran_is(total_impl, "baseline"));

  const int usable = check_each_target();
  EXPECT(usable >= 1);  /* the baseline build at least */
  check_every_feature_name();
  check_agreement("as started");

  /* Masks: cpud_set_usable_mask re-selects; PICK answers NOT_USABLE for
   * every target but the baseline build. */
  const cpud_mask prev = cpud_set_usable_mask(cpud_mask_none());
  EXPECT(f->selected() == -1);  /* reset by the change */
  check_agreement("usable mask none");
  EXPECT(strcmp(CPUD_DISPATCH_SELECTED_NAME(total), "baseline") == 0);
  EXPECT(f->selected() == f->target_count() - 1);
  EXPECT(check_each_target() == 1);
  /* fast has no baseline build: nothing to select */
  EXPECT(CPUD_DISPATCH_CACHED(fast) == NULL && fast_selected_name() == NULL);
  EXPECT(CPUD_DISPATCH_RECORD(fast)->selected() == -1);
  /* the thinned masks of api_c_test.c: every other detected feature */
  const cpud_mask det = cpud_detected_mask();
  cpud_mask odd = cpud_mask_none(), even = cpud_mask_none();
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id)
    if (cpud_mask_has(det, id)) {
      if (id % 2) odd = cpud_mask_with(odd, id);
      else even = cpud_mask_with(even, id);
    }
  cpud_set_usable_mask(odd);
  check_agreement("odd ids");
  check_each_target();
  cpud_set_usable_mask(even);
  check_agreement("even ids");
  check_each_target();
  cpud_set_usable_mask(prev);
  check_agreement("restored");
  EXPECT(check_each_target() == usable);
  const char *top = CPUD_DISPATCH_SELECTED_NAME(total);
  const int top_i = f->selected();

  /* Disabled features: the selected target's key off, then PICK of it is
   * NOT_USABLE, the cache selects a lower one; back on, back again. */
  if (f->target_feature(top_i)) {
    EXPECT(cpud_set_disabled_features(cpud_mask_of(f->target_feature(top_i))) == 0);
    EXPECT(CPUD_DISPATCH_PICK(total, top, &status) == NULL && status == CPUD_PICK_NOT_USABLE);
    check_agreement("selected target's key disabled");
    EXPECT(f->selected() > top_i);
    cpud_set_disabled_features(cpud_mask_none());
    check_agreement("enabled again");
    EXPECT(f->selected() == top_i);
  } else {
    printf("note: total selects its baseline build here; cpud_set_disabled_features not checked\n");
  }

  /* Per thread: a restricted thread's calls and picks see its mask; another
   * thread's do not. */
  char mine[64] = "", theirs[64] = "";
  const int v[1] = {1};
  const cpud_mask allowed = cpud_set_thread_allowed(cpud_mask_none());
  EXPECT(strcmp(CPUD_DISPATCH_SELECTED_NAME(total), "baseline") == 0);
  (void)total_of(v, 1, mine);
  EXPECT(strcmp(mine, "baseline ") == 0);
  EXPECT(check_each_target() == 1);
  pthread_t t;
  EXPECT(pthread_create(&t, NULL, other_thread, theirs) == 0);
  EXPECT(pthread_join(t, NULL) == 0);
  EXPECT(strcmp(g_thread_name, top) == 0 && strncmp(theirs, top, strlen(top)) == 0);
  mine[0] = 0;
  (void)total_of(v, 1, mine);
  EXPECT(strcmp(mine, "baseline ") == 0);
  cpud_set_thread_allowed(allowed);
  check_agreement("thread unrestricted again");
  EXPECT(check_each_target() == usable);

  /* Racing first calls: reset, then threads call at once; each runs the
   * selected target and the record stays listed once. */
  for (int round = 0; round < 20; ++round) {
    f->reset();
    pthread_t th[RACERS];
    char logs[RACERS][64];
    for (int i = 0; i < RACERS; ++i) {
      logs[i][0] = 0;
      EXPECT(pthread_create(&th[i], NULL, racer, logs[i]) == 0);
    }
    for (int i = 0; i < RACERS; ++i) {
      EXPECT(pthread_join(th[i], NULL) == 0);
      EXPECT(strncmp(logs[i], top, strlen(top)) == 0 && logs[i][strlen(top)] == ' ');
    }
    EXPECT(CPUD_DISPATCH_CACHED(total) == CPUD_DISPATCH_SELECT(total));
  }
  seen = 0;
  for (const cpud_function *g = cpud_functions(); g; g = g->next) seen += g == f;
  EXPECT(seen == 1);
}

int docs_api_c_cached(void) {
  c_cached();
  pick();
  c_registry();
  sentences();
  printf("api-c-cached: total compiled for %s; selects %s\n", CPUD_total__TARGET_NAMES,
         CPUD_DISPATCH_SELECTED_NAME(total));
  return 0;
}

/* For api_c_test's none modes: fast through the cached dispatcher. */
int docs_api_c_cached_fast_is_null(void) { return CPUD_DISPATCH_CACHED(fast) == NULL; }
int docs_api_c_cached_call_fast(const int *v, int n, char *log) { return CPUD_DISPATCH_CALL_CACHED(fast, (v, n, log)); }
