// libFuzzer target over the environment-variable parser (apply_env_masks,
// src/runtime/env_masks.c), built with Clang, ASan and UBSan (meson.build
// here). Input: byte 0 picks the variable(s) and the CPU, byte 1 the
// baseline, byte 2 the dispatched features; the rest is the value (split at
// the first 0xff into DISABLE and ENABLE when both are set), in which 0xfe
// and the byte after it stand for a known spelling (a name, an alias,
// another arch's or a retired name), so that the fuzzer reaches the paths
// behind real names without having to guess them. Invariants, each an
// abort on failure:
//   - an error is one line, starts with the variable's name or says both are
//     set, holds no control byte or byte above 0x7e (names are escaped), and
//     leaves the masks untouched;
//   - every warning line is whole (starts with the variable's name, ends in
//     a newline), holds no control byte nor byte above 0x7e, and no line
//     repeats;
//   - usable only ever shrinks and stays closed over implications (a usable
//     feature's implied features are usable); DISABLE never removes a
//     baseline feature; ENABLE keeps every usable baseline feature; a value
//     naming nothing changes nothing.
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "detect.h"
#include "env_masks.h"

namespace {

bool clean(const char *s, bool allow_newline) {
  for (const unsigned char *p = reinterpret_cast<const unsigned char *>(s); *p; ++p)
    if ((*p < 0x20 && !(allow_newline && *p == '\n')) || *p > 0x7e) return false;
  return true;
}

void check(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "invariant broken: %s\n", what);
    std::abort();
  }
}

bool names_something(const std::string &v) {
  for (char c : v)
    if (!(c == ' ' || c == ',' || c == '\t' || c == '\n' || c == '\r')) return true;
  return false;
}

// The spellings 0xfe stands for: every name and alias of this arch, in
// upper and lower case, and the foreign and retired names.
const std::vector<std::string> &spellings() {
  static const std::vector<std::string> all = [] {
    std::vector<std::string> v;
    auto add_both = [&v](std::string s) {
      v.push_back(s);
      for (char &c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      v.push_back(s);
    };
    for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id) add_both(cpud_feature_name(id));
#define CPUD__ALIAS(NAME, SPELLING) add_both(SPELLING);
    CPUD_FEATURE_ALIASES(CPUD__ALIAS)
#undef CPUD__ALIAS
    for (const char *list : {CPUD_FOREIGN_FEATURES, CPUD_RETIRED_FEATURES}) {
      std::string w;
      for (const char *p = list;; ++p) {
        if (*p == ' ' || !*p) {
          if (!w.empty()) add_both(w);
          w.clear();
          if (!*p) break;
        } else {
          w += *p;
        }
      }
    }
    return v;
  }();
  return all;
}

std::string expand(const uint8_t *p, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    if (p[i] == 0) break;  // an environment value has no NUL
    if (p[i] == 0xfe && i + 1 < n) {
      out += spellings()[p[++i] % spellings().size()];
    } else {
      out += static_cast<char>(p[i]);
    }
  }
  return out;
}

// The features of ids 1..cut, closed over what they imply.
cpud::feature_set first(int cut) {
  cpud::feature_set s;
  for (int id = 1; id <= cut && id <= CPUD_FEATURE_COUNT; ++id)
    s |= cpud::feature_set(id) | cpud::feature_set(cpud::internal::implied_mask(id));
  return s;
}

bool closed(const cpud::feature_set &s) {
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id)
    if (s.has(id) && (cpud::feature_set(cpud::internal::implied_mask(id)) & ~s) != cpud::feature_set()) return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 3) return 0;
  const unsigned mode = data[0];
  std::string value = expand(data + 3, size - 3);
  std::string disable, enable;
  switch (mode % 3) {
    case 0: disable = value; break;
    case 1: enable = value; break;
    default: {
      const std::size_t cut = value.find('\xff');
      disable = value.substr(0, cut);
      enable = cut == std::string::npos ? "" : value.substr(cut + 1);
    }
  }
  cpud::feature_set all;
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id) all |= cpud::feature_set(id);
  // The CPU: everything, or the features of ids up to a cut (closed over
  // what they imply, as detection leaves it); the baseline: those up to a
  // smaller cut (at least the first); the dispatched ones: everything above
  // the baseline, or only those up to a third cut.
  const int n = CPUD_FEATURE_COUNT;
  const int top = (mode / 3) % (n + 1);
  const cpud::feature_set baseline = first(1 + data[1] % (n < 8 ? n : 8));
  const cpud::feature_set usable = (top == 0 ? all : first(top)) | baseline;
  const cpud::feature_set dispatched = (data[2] % (n + 1) == 0 ? all : first(data[2] % (n + 1))) & ~baseline;
  if (!closed(usable) || !closed(baseline)) std::abort();  // the harness's own sets
  cpud::internal::env_inputs in{};
  in.disable = mode % 3 == 1 ? nullptr : disable.c_str();
  in.enable = mode % 3 == 0 ? nullptr : enable.c_str();
  in.usable = usable;
  in.baseline = baseline;
  in.dispatched = dispatched;
  in.targets = dispatched;
  const cpud::internal::env_outcome o = cpud::internal::apply_env_masks(in);
  const cpud::feature_set before(in.usable), after(o.usable);
  check((after & ~before).empty(), "usable grew");
  check(closed(after), "usable is not closed over implications");
  if (!o.ok) {
    check(o.error[0] != 0 && std::strchr(o.error, '\n') == nullptr, "an error is one line");
    check(clean(o.error, false), "an error holds a control or non-ASCII byte");
    check(std::strncmp(o.error, CPUD_ENV_PREFIX "_", std::strlen(CPUD_ENV_PREFIX) + 1) == 0, "an error names its variable");
    check(after == before, "an error changed the masks");
    return 0;
  }
  check(clean(o.warning, true), "a warning holds a control or non-ASCII byte");
  std::set<std::string> lines;
  for (const char *p = o.warning; *p;) {
    const char *nl = std::strchr(p, '\n');
    check(nl != nullptr, "a warning line is cut");
    check(std::strncmp(p, CPUD_ENV_PREFIX "_", std::strlen(CPUD_ENV_PREFIX) + 1) == 0, "a warning line is cut");
    check(lines.insert(std::string(p, nl)).second, "a warning repeats");
    p = nl + 1;
  }
  if (in.disable && names_something(disable)) check((before & baseline) == (after & baseline), "DISABLE removed a baseline feature");
  if (in.enable && names_something(enable)) check((after & baseline) == (before & baseline), "ENABLE dropped a baseline feature");
  if (!(in.disable && names_something(disable)) && !(in.enable && names_something(enable)))
    check(after == before, "a value naming nothing changed the masks");
  return 0;
}
