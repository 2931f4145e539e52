// The shared feature-list cases (test/grammar/cases.txt) against the C++
// reader of lists and names (src/runtime/names.h), directly (each name of
// the list a one-feature target; another arch's and retired names
// ignored) and through the environment-variable parser
// (src/runtime/env_masks.c) as PREFIX_ENABLE_CPU_FEATURES: with every
// feature usable and dispatched and an empty baseline, ENABLE keeps what
// the list names and all that implies; a list naming nothing counts as
// unset. Then pinned target names: groups, their reduction and their order.
//   env_cases CASES_TXT    exit 0 pass, 1 fail
#include <cctype>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "env_masks.h"
#include "names.h"

namespace {

std::string unescape(const std::string &s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out += s[i];
      continue;
    }
    const char c = s[++i];
    out += c == 't' ? '\t' : c == 'n' ? '\n' : c == 'r' ? '\r' : c == 'v' ? '\v' : c;
  }
  return out;
}

std::string lower(std::string s) {
  for (char &c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string names(const cpud::feature_set &s) {
  std::string out;
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id)
    if (s.has(id)) out += (out.empty() ? "" : " ") + std::string(cpud_feature_name(id));
  return out.empty() ? "(none)" : out;
}

// A list read by names.h alone: the features its names give, or "error "
// and the first name that is no feature, nor ignored.
std::string read_list(const std::string &text) {
  static const std::string ignored = " " CPUD_FOREIGN_FEATURES " " CPUD_RETIRED_FEATURES " ";
  cpud::feature_set named;
  const char *p = text.c_str(), *start;
  for (std::size_t n; (n = cpud::internal::next_name(&p, &start)) != 0;) {
    const std::string name(start, n);
    cpud::internal::target_name t;
    if (cpud::internal::parse_target_name(start, n, &t) && t.count == 1) {
      named |= t.members;
    } else {
      std::string upper;
      for (char c : name) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      if (ignored.find(" " + upper + " ") == std::string::npos) return "error " + lower(name);
    }
  }
  return names(named);
}

// Pinned target names ("": none); the groups' checked where the baseline
// holds none of their members, which the reduction would drop.
struct target_case {
  const char *text, *want;
};
const target_case k_targets[] = {
    {"sse2", "SSE2"},
    {"AVX2+F16C", "AVX2"},
    {"f16c__avx2", "AVX2"},
    {"fma+AVX2", "AVX2__FMA3"},
    {"vpclmulqdq+avx512_skx", "AVX512_SKX__VPCLMULQDQ"},
    {"AVX2+AVX512_SKX", "AVX512_SKX"},
    {"", ""},
    {"avx2+", ""},
    {"+avx2", ""},
    {"avx2___fma3", ""},
    {"avx2+nosuch", ""},
    {"avx2 fma3", ""},
};
// Ascending interest.
const char *const k_order[] = {"FMA3", "AVX2", "AVX2+FMA3", "VPCLMULQDQ", "AVX512_SKX", "AVX512_SKX+VPCLMULQDQ"};

std::string target_of(const char *text, cpud::internal::target_name *t) {
  if (!cpud::internal::parse_target_name(text, std::strlen(text), t)) return "";
  std::string out;
  for (int i = 0; i < t->count; ++i) out += (i ? "__" : "") + std::string(cpud_feature_name(t->ids[i]));
  return out;
}

int check_targets() {
  const cpud::feature_set named = CPUD_BIT(F16C) | CPUD_BIT(FMA3) | CPUD_BIT(AVX2) | CPUD_BIT(VPCLMULQDQ) |
                                  CPUD_BIT(AVX512_SKX);
  if ((named & cpud_baseline_mask()) != cpud::feature_set()) {
    std::printf("target names: skipped (the baseline holds a feature they name)\n");
    return 0;
  }
  int failed = 0;
  for (const target_case &c : k_targets) {
    cpud::internal::target_name t;
    const std::string got = target_of(c.text, &t);
    if (got != c.want) {
      ++failed;
      std::printf("FAIL: target \"%s\": expected %s, got %s\n", c.text, c.want[0] ? c.want : "none",
                  got.empty() ? "none" : got.c_str());
    }
  }
  const int n = sizeof k_order / sizeof *k_order;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      cpud::internal::target_name a, b;
      target_of(k_order[i], &a);
      target_of(k_order[j], &b);
      if (cpud::internal::ranks_below(a.members, b.members) != (i < j)) {
        ++failed;
        std::printf("FAIL: %s %s below %s\n", k_order[i], i < j ? "not" : "ranks", k_order[j]);
      }
    }
  std::printf("target names: %d cases\n", static_cast<int>(sizeof k_targets / sizeof *k_targets) + n * n);
  return failed;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: env_cases CASES_TXT\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  cpud::feature_set all;
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id) all |= cpud::feature_set(id);
  int cases = 0, failed = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    // "INPUT" -> NAMES | nothing | error TOKEN
    const std::size_t end = line.find("\" -> ");
    if (line[0] != '"' || end == std::string::npos) {
      std::fprintf(stderr, "cases.txt: cannot read: %s\n", line.c_str());
      return 1;
    }
    const std::string text = unescape(line.substr(1, end - 1)), rest = line.substr(end + 5);
    cpud::internal::env_inputs inputs{};
    inputs.enable = text.c_str();
    inputs.usable = all;
    inputs.dispatched = all;
    inputs.targets = all;
    const cpud::internal::env_outcome o = cpud::internal::apply_env_masks(inputs);
    ++cases;
    std::string want, got = o.ok ? names(cpud::feature_set(o.usable)) : std::string("error: ") + o.error;
    std::string want_list;  // what read_list should give
    bool ok;
    if (rest.compare(0, 6, "error ") == 0) {
      // The message shows control bytes, '"' and '\\' as \xHH (docs/runtime.md).
      std::string token;
      for (char ch : unescape(rest.substr(6))) {
        const unsigned char c = static_cast<unsigned char>(ch);
        char hex[8];
        std::snprintf(hex, sizeof hex, "\\x%02x", c);
        token += c >= 0x20 && c < 0x7f && c != '"' && c != '\\' ? std::string(1, ch) : std::string(hex);
      }
      want = "an error naming \"" + token + "\"";
      want_list = "error " + lower(unescape(rest.substr(6)));
      ok = !o.ok && lower(o.error).find(lower(token)) != std::string::npos;
    } else {
      cpud::feature_set named;
      std::size_t p = 0;
      while (rest != "nothing" && p < rest.size()) {
        std::size_t q = rest.find(' ', p);
        if (q == std::string::npos) q = rest.size();
        const int id = cpud_feature_by_name(rest.substr(p, q - p).c_str());
        if (!id) {
          std::fprintf(stderr, "cases.txt: no feature %s\n", rest.substr(p, q - p).c_str());
          return 1;
        }
        named |= cpud::feature_set(id);
        p = q + 1;
      }
      // A list naming nothing counts as unset (docs/runtime.md): no change.
      const cpud::feature_set expect = rest == "nothing" ? all : cpud::feature_set(cpud_with_implied(named));
      want = names(expect);
      want_list = names(named);
      ok = o.ok && cpud::feature_set(o.usable) == expect;
    }
    if (!ok) {
      ++failed;
      std::printf("FAIL: env ENABLE=\"%s\": expected %s, got %s\n", line.substr(1, end - 1).c_str(), want.c_str(),
                  got.c_str());
    }
    const std::string list = read_list(text);
    if (list != want_list) {
      ++failed;
      std::printf("FAIL: list \"%s\": expected %s, got %s\n", line.substr(1, end - 1).c_str(), want_list.c_str(),
                  list.c_str());
    }
  }
  std::printf("lists and environment variables: %d cases\n", cases);
  failed += check_targets();
  if (failed || cases == 0) return 1;
  std::puts("PASS");
  return 0;
}
