// The one C++ reading of feature lists and target names (names.h).
#include "names.h"

#include <cstdint>
#include <cstring>

#include "detect.h"

namespace cpud::internal {
namespace {

// The Python reading's five separators (tools/cpudispatch_grammar.py).
bool is_sep(char c) { return c == ' ' || c == ',' || c == '\t' || c == '\n' || c == '\r'; }

}  // namespace

std::size_t next_name(const char **p, const char **start) {
  const char *s = *p;
  while (*s && is_sep(*s)) ++s;
  const char *e = s;
  while (*e && !is_sep(*e)) ++e;
  *start = s;
  *p = e;
  return static_cast<std::size_t>(e - s);
}

bool parse_target_name(const char *text, std::size_t len, target_name *out) {
  const char *p = text, *const end = text + len;
  feature_set given, implied;
  for (;;) {
    const char *e = p;
    while (e < end && *e != '+' && !(*e == '_' && e + 1 < end && e[1] == '_')) ++e;
    char part[64];  // longer than any name
    const std::size_t n = static_cast<std::size_t>(e - p);
    if (n >= sizeof part) return false;
    std::memcpy(part, p, n);
    part[n] = 0;
    const int id = cpud_feature_by_name(part);  // 0 for an empty part too
    if (!id) return false;
    given |= feature_set(id);
    implied |= implied_mask(id);
    if (e == end) break;
    p = e + (*e == '+' ? 1 : 2);
  }
  const feature_set kept = given & ~implied & ~cpud_baseline_mask();
  const feature_set members = kept.empty() ? given : kept;
  out->members = members;
  out->count = 0;
  for (int id = CPUD_FEATURE_COUNT; id >= 1; --id)
    if (members.has(id)) out->ids[out->count++] = id;
  return true;
}

// Lexicographic on the members' ids, highest first, is the order of the
// sets read as numbers: the highest id in which they differ decides.
bool ranks_below(const cpud_mask &a, const cpud_mask &b) {
  for (int i = CPUD_MASK_WORDS - 1; i >= 0; --i) {
    const std::uint64_t x = a.w[i] & feature_set::feature_bits(i), y = b.w[i] & feature_set::feature_bits(i);
    if (x != y) return x < y;
  }
  return false;
}

}  // namespace cpud::internal
