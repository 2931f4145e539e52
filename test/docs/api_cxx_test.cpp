// docs/api.md's C++ blocks, verbatim between the markers (api_doc.py compares
// them with the doc), built against this build with the kernels of
// scale.dispatch.cpp and fast.dispatch.c. The asserts check what the doc says.
//   api_cxx_test            every check; prints "api-cxx: PASS"
//   api_cxx_test none       fast() (no baseline build) with every target
//                           masked off: must abort with the message
//   api_cxx_test none-get   the same through the pointer fast.get() returned
//   api_cxx_test env-probe  prints a usable, non-baseline target of scale
//   api_cxx_test env-check F   run with PREFIX_DISABLE_CPU_FEATURES=F
#undef NDEBUG  // the asserts are the test
#include "cpudispatch/functions.h"
#include "cpudispatch/testing.h"
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <type_traits>

#define EXPECT(c) ((c) ? (void)0 : (std::fprintf(stderr, "api-cxx: FAIL line %d: %s\n", __LINE__, #c), std::exit(1)))

/* api-cxx:start */
#include <cassert>
#include <cstring>

#include "scale.dispatch.h"  // scale's compiled targets
#include "cpudispatch/dispatch.hpp"

CPUD_DISPATCH(const char *, scale, (float *, std::size_t, float));

void cxx_calls() {
  float v[16] = {1, 2, 3};
  const char *ran = scale(v, 16, 2.0f);  // the first call selects and caches
  assert(v[2] == 6.0f && std::strcmp(ran, scale.selected_name()) == 0);
  auto fn = scale.get();  // the cached pointer: const char *(*)(float *, std::size_t, float)
  assert(std::strcmp(fn(v, 16, 1.0f), ran) == 0);
  const decltype(scale)::entry *first_usable = nullptr;
  for (auto *e = scale.targets(); e->fn; ++e)  // highest interest first, the baseline last
    if (!first_usable && decltype(scale)::usable(*e)) first_usable = e;
  assert(first_usable && first_usable->fn == fn);  // the selection: the first usable entry
}
/* api-cxx:end */

#include "api_probes.h"  // probes of scale.dispatch.cpp, shared with api_cxx_tu2.cpp

/* api-cxx-c:start */
#include "fast.dispatch.h"  // fast.dispatch.c is C: its targets have C linkage
extern "C" {
CPUD_DISPATCH(int, fast, (const int *, int, char *));
}
/* api-cxx-c:end */

/* api-scoped:start */
#include <string>

void scoped() {
  float x = 1.0f;
  const std::string before = scale(&x, 1, 1.0f);
  const cpud::feature_set saved = cpud_usable_mask();
  {
    cpud::scoped_features only_baseline({});  // no target but the baseline build
    assert(std::strcmp(scale(&x, 1, 1.0f), "baseline") == 0);  // selected again
    assert(cpud_usable_mask() == cpud_baseline_mask());
  }
  assert(scale(&x, 1, 1.0f) == before && cpud_usable_mask() == saved);  // restored
  {
    cpud::scoped_features everything(cpud::feature_set::all());  // cannot add what the CPU lacks
    assert((cpud_usable_mask() & ~cpud::feature_set(cpud_detected_mask())).empty());
  }
#if defined(CPUD_ARCH_X86_64)
  if (CPUD_HAVE(X86_V3) && !cpud_mask_has(cpud_baseline_mask(), CPUD_FEATURE_BMI)) {
    cpud::scoped_features no_bmi(cpud_detected_mask() & ~CPUD_BIT(BMI));
    assert(!CPUD_HAVE(X86_V3) && CPUD_HAVE(AVX2));  // a level lacking a member is off
    assert(std::strcmp(scale(&x, 1, 1.0f), "X86_V3") != 0);
  }
  if (CPUD_HAVE(SSE41) && !cpud_mask_has(cpud_baseline_mask(), CPUD_FEATURE_SSE41)) {
    {
      cpud::scoped_features sse41_alone(CPUD_BIT(SSE41));  // lacks SSE3 and SSSE3, which SSE41 implies
      assert(!CPUD_HAVE(SSE41));
    }
    cpud::scoped_features sse41(cpud_with_implied(CPUD_BIT(SSE41)));  // with all it implies: usable
    assert(CPUD_HAVE(SSE41) && !CPUD_HAVE(SSE42));
  }
#endif
}
/* api-scoped:end */

/* api-guards:start */
#include <thread>

void guards() {
  float x = 1.0f;
  const std::string top = scale(&x, 1, 1.0f);
  std::string in_thread;
  std::thread t([&] {
    cpud::only_features guard({});  // this thread: the baseline build only
    in_thread = scale(&x, 1, 1.0f);
  });
  t.join();
  assert(in_thread == "baseline" && scale(&x, 1, 1.0f) == top);  // others unaffected
#if defined(CPUD_ARCH_X86_64)
  if (cpud_set_disabled_features(CPUD_BIT(AVX512F)) == 0) {  // e.g. where AVX-512 is slower
    assert(std::strncmp(scale(&x, 1, 1.0f), "AVX512", 6) != 0);
    cpud_set_disabled_features(cpud_mask_none());  // back on
  }
#endif
  assert(scale(&x, 1, 1.0f) == top);
}
/* api-guards:end */

/* api-include:start */
void include_guard() {
  float x = 1.0f;
  const std::string top = scale(&x, 1, 1.0f);
  const cpud::feature_set usable = cpud_usable_mask();  // what this thread may use now
  cpud::only_features outer({});  // this thread: the baseline build only
  assert(std::strcmp(scale(&x, 1, 1.0f), "baseline") == 0);
  {
    cpud::include_features again(usable);  // for this scope, all of it again
    assert(again.ok() && scale(&x, 1, 1.0f) == top);       // the best build again
    cpud::include_features beyond(cpud::feature_set::all());  // more than the CPU has
    assert(scale(&x, 1, 1.0f) == top);                         // still its best, nothing above
    assert((beyond.lacking() & cpud_usable_mask()).empty());  // what it could not enable stays out
  }
  assert(std::strcmp(scale(&x, 1, 1.0f), "baseline") == 0);  // the outer guard holds again
}
/* api-include:end */

/* api-registry:start */
void registry() {
  (void)scale.get();  // selecting registers the function
  const cpud_function *f = cpud_functions();  // most recently registered first
  while (f && std::strcmp(f->name, "scale") != 0) f = f->next;
  assert(f && f->target_count() >= 1);
  assert(std::strcmp(f->target_name(f->selected()), scale.selected_name()) == 0);
  for (int i = 0; i < f->target_count(); ++i)  // the table of scale.targets()
    assert(f->target_feature(i) == scale.targets()[i].feature);
  f->reset();  // forget the selection: the next call selects again
  assert(f->selected() == -1);
}
/* api-registry:end */

void after_reset() {
  const cpud_function *f = cpud_functions();
  while (f && std::strcmp(f->name, "scale") != 0) f = f->next;
  EXPECT(f && f->selected() == -1);
  float x = 1.0f;
  const char *ran = scale(&x, 1, 1.0f);
  EXPECT(f->selected() >= 0 && std::strcmp(f->target_name(f->selected()), ran) == 0);
}

// ---- checks of the doc's other sentences ----

// Called before main, from a constructor that runs before ordinary globals
// are initialised: the dispatcher needs no dynamic initialisation.
static std::string *g_early;
__attribute__((constructor(102))) static void early_call() {
  float x = 1.0f;
  g_early = new std::string(scale(&x, 1, 3.0f));
  if (x != 3.0f) *g_early = "wrong result";
}


namespace {

cpud::feature_set implied(int id) {
  cpud::feature_set m;
#define IMPL(NAME, F) \
  if (id == CPUD_FEATURE_##NAME) m |= CPUD_BIT(F);
  CPUD_FEATURE_IMPLIES(IMPL)
#undef IMPL
  return m;
}

const cpud_function *registered(const char *name) {
  const cpud_function *f = cpud_functions();
  while (f && std::strcmp(f->name, name) != 0) f = f->next;
  return f;
}

#define DOCS_IS_ONE(M) (CPUD_STR(M)[0] == '1' && CPUD_STR(M)[1] == 0)
#define DOCS_HAVE_BIT(NAME, ...) | (DOCS_IS_ONE(CPUD_HAVE_##NAME) ? CPUD_BIT(NAME) : cpud::feature_set())

void sentences() {
  static_assert(std::is_const_v<decltype(scale)>);
  using D = std::remove_const_t<decltype(scale)>;
  static_assert(std::is_same_v<D::entry, cpud::target_entry<D::fn_type>>);
  // Entry fields; the table ends with {0, nullptr, "none"}; names are the
  // target names, features their ids (0 = baseline); interest descends.
  int n = 0;
  const D::entry *e = scale.targets();
  for (; e->fn; ++e, ++n) {
    if (e->feature == 0) {
      EXPECT(std::strcmp(e->name, "baseline") == 0 && e[1].fn == nullptr && D::usable(*e));
    } else {
      EXPECT(std::strcmp(cpud_feature_name(e->feature), e->name) == 0);
      EXPECT(D::usable(*e) == (cpud_have(e->feature) == 1));
    }
    if (n > 0 && e->feature != 0) EXPECT(e[-1].feature > e->feature);
  }
  EXPECT(e->feature == 0 && std::strcmp(e->name, "none") == 0 && !D::usable(*e));
  EXPECT(n == CPUD_scale__TARGET_COUNT);
  std::string names;
  for (auto *t = scale.targets(); t->fn; ++t) names += (names.empty() ? "" : " ") + std::string(t->name);
  EXPECT(names == CPUD_scale__TARGET_NAMES);
  EXPECT(g_early && *g_early == scale.selected_name());
  EXPECT(std::strcmp(D::name(), "scale") == 0);
  static_assert(std::is_same_v<D::fn_type, const char *(*)(float *, std::size_t, float)>);
  static_assert(std::is_same_v<decltype(scale.get()), D::fn_type>);

  // selected_name() neither selects nor registers; get() does both.
  EXPECT(registered("scale_have") == nullptr);
  const char *name = scale_have.selected_name();
  EXPECT(registered("scale_have") == nullptr);
  auto have_fn = scale_have.get();
  const cpud_function *f = registered("scale_have");
  EXPECT(f != nullptr && cpud_functions() == f);  // most recent first
  EXPECT(std::strcmp(f->target_name(f->selected()), name) == 0);
  EXPECT(f->target_count() == n && std::strcmp(f->target_name(f->target_count() - 1), "baseline") == 0);
  for (int i = 0; i < n; ++i) EXPECT(!std::strcmp(f->target_name(i), scale.targets()[i].name));
  (void)have_fn;
  // One dispatcher per function for the whole program: selecting it from
  // another translation unit registers nothing new.
  EXPECT(docs_api_tu2_select_scale_have() == 1);

  // Inside each build: CPUD_HAVE_<F> for the baseline and for the target
  // and all it implies; CPUD_TARGET_<F> for the target and all it implies;
  // CPUD_TARGET_IS_BASELINE only in the baseline build; the namespace is
  // NAMESPACE__cpud_target_<TARGET> (the build's namespace: another
  // library's never meets it), so each build has its own copy of the helper.
  const D::entry *se = scale.targets();
  auto have = scale_have.targets();
  auto target = scale_target.targets();
  auto ns = scale_ns.targets();
  std::set<const void *> helpers;
  int usable = 0;
  for (int i = 0; i < n; ++i) {
    EXPECT(std::strcmp(have[i].name, se[i].name) == 0 && have[i].feature == se[i].feature);
    if (!D::usable(se[i])) continue;  // code built for features this CPU lacks never runs
    ++usable;
    float one = 1.0f;
    EXPECT(std::strcmp(se[i].fn(&one, 1, 1.0f), se[i].name) == 0);  // CPUD_TARGET_NAME
    const int id = se[i].feature;
    const cpud::feature_set own = id ? implied(id) | cpud::feature_set(id) : cpud::feature_set();
    EXPECT(have[i].fn() == (cpud_baseline_mask() | own));
    const cpud::feature_set t = target[i].fn();
    EXPECT(t == own && (t.w[0] & 1) == (id == 0));  // bit 0: CPUD_TARGET_IS_BASELINE
    const void *helper = nullptr;
    EXPECT(std::string(ns[i].fn(&helper)) == std::string(CPUD_STR(CPUD_NAMESPACE)) + "__cpud_target_" + se[i].name);
    helpers.insert(helper);
  }
  EXPECT(usable >= 1 && static_cast<int>(helpers.size()) == usable);
  // Ordinary code is baseline code.
  EXPECT((cpud::feature_set() CPUD_FEATURES(DOCS_HAVE_BIT)) == cpud_baseline_mask());
#if defined(CPUD_TARGET_IS_BASELINE)
  EXPECT(std::strcmp(CPUD_TARGET_NAME, "baseline") == 0);
#else
  EXPECT(!"ordinary code must see CPUD_TARGET_IS_BASELINE");
#endif

  // scoped_features: not copyable; nests.
  static_assert(!std::is_copy_constructible_v<cpud::scoped_features>);
  static_assert(!std::is_copy_assignable_v<cpud::scoped_features>);
  {
    const cpud::feature_set outer = cpud_usable_mask();
    {
      cpud::scoped_features a({});
      {
        cpud::scoped_features b(cpud::feature_set::all());
        EXPECT(cpud_usable_mask() == cpud_detected_mask());
      }
      EXPECT(cpud_usable_mask() == cpud_baseline_mask());
    }
    EXPECT(cpud_usable_mask() == outer);
  }
  // cpud_set_usable_mask returns the previous mask and re-selects.
  const cpud::feature_set prev = cpud_set_usable_mask(cpud_mask_none());
  float x = 1.0f;
  EXPECT(std::strcmp(scale(&x, 1, 1.0f), "baseline") == 0);
  EXPECT(cpud_set_usable_mask(prev) == cpud_baseline_mask());
  EXPECT(cpud_usable_mask() == prev);
}

int none_mode(bool through_get) {
  const int v[4] = {1, 2, 3, 4};
  char log[64] = "";
  if (std::strstr(CPUD_fast__TARGET_NAMES, "baseline")) {
    std::printf("has-baseline: %s\n", CPUD_fast__TARGET_NAMES);
    return 0;
  }
  cpud::scoped_features nothing({});
  auto fn = fast.get();  // never null: a function that aborts
  EXPECT(fn != nullptr && std::strcmp(fast.selected_name(), "none") == 0);
  const cpud_function *f = registered("fast");
  EXPECT(f && f->selected() == -1);
  std::printf("calling fast\n");
  std::fflush(stdout);
  int s = through_get ? fn(v, 4, log) : fast(v, 4, log);
  std::printf("returned %d\n", s);  // never reached
  return 1;
}

// A usable target of scale other than the baseline (its feature name), or "".
const char *probe() {
  for (auto *e = scale.targets(); e->fn; ++e)
    if (e->feature && decltype(scale)::usable(*e) && !cpud_mask_has(cpud_baseline_mask(), e->feature)) return e->name;
  return "";
}

// Run with PREFIX_DISABLE_CPU_FEATURES=name: scoped_features works from what
// the CPU has, so inside it the environment's mask no longer applies.
int env_check(const char *name) {
  const int id = cpud_feature_by_name(name);
  EXPECT(id > 0 && cpud_mask_has(cpud_detected_mask(), id) && !cpud_have(id));
  {
    cpud::scoped_features all(cpud::feature_set::all());
    EXPECT(cpud_have(id));
  }
  EXPECT(!cpud_have(id));
  std::printf("api-cxx env-check %s: PASS\n", name);
  return 0;
}

}  // namespace

// api_cxx_c_cached.cpp: the C cached dispatcher from C++, against CPUD_DISPATCH.
int docs_api_cxx_c_cached();

// docs/api.md, "Redispatch": the sums are right, and a one-element input
// passes down through every build that may run (each finds it too short).
#include "bulk.dispatch.h"
CPUD_DISPATCH(float, bulk_sum, (const float *, std::size_t, int *));
void redispatch() {
  float v[200];
  for (int i = 0; i < 200; ++i) v[i] = static_cast<float>(i % 7);
  for (std::size_t n = 0; n <= 200; ++n) {
    float want = 0;
    for (std::size_t i = 0; i < n; ++i) want += v[i];
    int hops = 0;
    EXPECT(bulk_sum(v, n, &hops) == want && hops >= 1);
  }
  int usable = 0;
  for (auto *e = bulk_sum.targets(); e->fn; ++e) usable += decltype(bulk_sum)::usable(*e);
  int hops = 0;
  EXPECT(bulk_sum(v, 1, &hops) == v[0] && hops == usable);
  std::printf("redispatch: one element passed down %d builds\n", hops);
}

int main(int argc, char **argv) {
  if (argc > 1 && !std::strcmp(argv[1], "none")) return none_mode(false);
  if (argc > 1 && !std::strcmp(argv[1], "none-get")) return none_mode(true);
  // The constructor's call registered scale: calls register, not only get().
  EXPECT(registered("scale") != nullptr);
  if (argc > 1 && !std::strcmp(argv[1], "env-probe")) return std::printf("%s\n", probe()) < 0;
  if (argc > 2 && !std::strcmp(argv[1], "env-check")) return env_check(argv[2]);
  cxx_calls();
  redispatch();
  sentences();
  scoped();
  guards();
  include_guard();
  registry();
  after_reset();
  EXPECT(docs_api_cxx_c_cached() == 0);
  std::printf("api-cxx: PASS (scale: %s; selected %s)\n", CPUD_scale__TARGET_NAMES, scale.selected_name());
  return 0;
}
