// The shared feature-list cases (test/grammar/cases.txt) against the
// environment-variable parser (src/runtime/env_masks.cpp), as
// PREFIX_ENABLE_CPU_FEATURES: with every feature usable and dispatched and an
// empty baseline, ENABLE keeps what the list names and all that implies; a
// list naming nothing counts as unset.
//   env_cases CASES_TXT    exit 0 pass, 1 fail
#include <cctype>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "env_masks.h"

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
      ok = o.ok && cpud::feature_set(o.usable) == expect;
    }
    if (!ok) {
      ++failed;
      std::printf("FAIL: env ENABLE=\"%s\": expected %s, got %s\n", line.substr(1, end - 1).c_str(), want.c_str(),
                  got.c_str());
    }
  }
  std::printf("environment variables: %d cases\n", cases);
  if (failed || cases == 0) return 1;
  std::puts("PASS");
  return 0;
}
