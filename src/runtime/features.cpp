// Feature names, implied masks, and the usable mask every dispatch reads.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "detect.h"

static_assert(CPUD_FEATURE_COUNT < 64, "feature ids must fit one 64-bit mask");

uint64_t cpud__usable = 0;

namespace cpud::internal {
namespace {

const char *const k_names[] = {
    nullptr,
#define CPUD__NAME(NAME, ...) #NAME,
    CPUD_FEATURES(CPUD__NAME)
#undef CPUD__NAME
};

struct implied_row {
  int id;
  std::uint64_t mask;
};
const implied_row k_implied[] = {
#define CPUD__IMPL(NAME, MASK) {CPUD_FEATURE_##NAME, (MASK)},
    CPUD_FEATURE_IMPLIES(CPUD__IMPL)
#undef CPUD__IMPL
    {0, 0}};

struct alias_row {
  int id;
  const char *spelling;
};
const alias_row k_aliases[] = {
#define CPUD__ALIAS(NAME, SPELLING) {CPUD_FEATURE_##NAME, SPELLING},
    CPUD_FEATURE_ALIASES(CPUD__ALIAS)
#undef CPUD__ALIAS
    {0, nullptr}};

bool same_name(const char *a, const char *b) {
  for (; *a && *b; ++a, ++b) {
    char x = *a, y = *b;
    if (x >= 'a' && x <= 'z') x = static_cast<char>(x - 'a' + 'A');
    if (y >= 'a' && y <= 'z') y = static_cast<char>(y - 'a' + 'A');
    if (x != y) return false;
  }
  return *a == *b;
}

}  // namespace

std::uint64_t implied_mask(int id) {
  for (const implied_row *r = k_implied; r->id; ++r)
    if (r->id == id) return r->mask;
  return 0;
}

// A feature is usable when its own bit is set and so is every bit it implies.
std::uint64_t close_over_implied(std::uint64_t raw) {
  std::uint64_t out = 0;
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id) {
    std::uint64_t need = implied_mask(id) | (UINT64_C(1) << id);
    if ((raw & need) == need) out |= UINT64_C(1) << id;
  }
  return out;
}

}  // namespace cpud::internal

extern "C" {

uint64_t cpud__init(void) {
  uint64_t m = cpud::internal::close_over_implied(cpud::internal::detect_raw()) | 1u;
  // Racing initialisers compute the same value; the first store wins.
  uint64_t expected = 0;
  if (!__atomic_compare_exchange_n(&cpud__usable, &expected, m, false, __ATOMIC_ACQ_REL,
                                   __ATOMIC_ACQUIRE))
    return expected;
  return m;
}

const char *cpud_feature_name(int feature) {
  return feature > 0 && feature <= CPUD_FEATURE_COUNT ? cpud::internal::k_names[feature] : nullptr;
}

int cpud_feature_by_name(const char *name) {
  if (!name) return 0;
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id)
    if (cpud::internal::same_name(name, cpud::internal::k_names[id])) return id;
  for (const cpud::internal::alias_row *a = cpud::internal::k_aliases; a->id; ++a)
    if (cpud::internal::same_name(name, a->spelling)) return a->id;
  return 0;
}

}  // extern "C"

namespace cpud {
void no_usable_target(const char *function) {
  std::fprintf(stderr,
               "cpudispatch: no compiled target of %s can run on this CPU and it has no "
               "baseline build; add \"baseline\" to its target list\n",
               function);
  std::abort();
}
}  // namespace cpud
