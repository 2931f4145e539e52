// libFuzzer target over the environment-variable parser (apply_env_masks,
// src/runtime/env_masks.cpp), built with Clang, ASan and UBSan (meson.build
// here). The first input byte picks the variable(s) and the CPU; the rest
// is the value (split at the first 0xff into DISABLE and ENABLE when both
// are set). Invariants, each an abort on failure:
//   - an error is one line, starts with the variable's name or says both are
//     set, holds no control byte or byte above 0x7e (names are escaped), and
//     leaves the masks untouched;
//   - every warning line is whole (starts with the variable's name, ends in
//     a newline), holds no control byte nor byte above 0x7e, and no line
//     repeats;
//   - usable only ever shrinks; DISABLE never removes a baseline feature;
//     ENABLE keeps every usable baseline feature; a value naming nothing
//     changes nothing.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>

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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  const unsigned mode = data[0];
  std::string value(reinterpret_cast<const char *>(data + 1), size - 1);
  value = value.substr(0, value.find('\0'));  // an environment value has no NUL
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
  // The CPU: everything, or the features of ids below a cut (closed over
  // what they imply, as detection leaves it); the baseline: the first two.
  cpud::feature_set usable;
  const int top = (mode / 3) % (CPUD_FEATURE_COUNT + 1);
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id)
    if (top == 0 || id <= top) usable |= cpud::feature_set(id);
  cpud::feature_set baseline = cpud::feature_set(1) | cpud::feature_set(CPUD_FEATURE_COUNT > 1 ? 2 : 1);
  cpud::internal::env_inputs in{};
  in.disable = mode % 3 == 1 ? nullptr : disable.c_str();
  in.enable = mode % 3 == 0 ? nullptr : enable.c_str();
  in.usable = usable | baseline;
  in.baseline = baseline;
  in.dispatched = all & ~baseline;
  in.targets = all & ~baseline;
  const cpud::internal::env_outcome o = cpud::internal::apply_env_masks(in);
  const cpud::feature_set before(in.usable), after(o.usable);
  check((after & ~before).empty(), "usable grew");
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
