// Prints the target the C++ dispatcher selected and the one the C macros
// select (they must agree), and checks every target this CPU may run
// (under cpudispatch-run's masks too): a build with FMA3 in its features
// must fuse, the others must not, and every build's member instructions
// must give the scalar answer. Exit 1 on any mismatch.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "grouped.dispatch.h"
#include "cpudispatch/dispatch.hpp"

CPUD_DISPATCH(double, grouped_fma, (double, double, double, const char **));
CPUD_DISPATCH(std::uint64_t, grouped_mix, (const std::uint8_t *));

namespace {

// Whether a target ("AVX2__FMA3") has FMA3 among its members, what they
// imply or the build's baseline (which every target is compiled with, so
// an x86_v3 baseline build fuses too): the table's facts, not the
// target's own word.
bool fuses(const std::string &target) {
  const int fma = cpud_feature_by_name("FMA3");
  cpud::feature_set members(cpud_baseline_mask());
  for (std::size_t at = 0; fma && target != "baseline" && at != std::string::npos;) {
    const std::size_t end = target.find("__", at);
    members |= cpud::feature_set(cpud_feature_by_name(target.substr(at, end - at).c_str()));
    at = end == std::string::npos ? end : end + 2;
  }
  return fma && cpud::feature_set(cpud_with_implied(members)).has(fma);
}

std::uint64_t mix_reference(const std::uint8_t *v) {
  std::uint64_t x, y, clmul = 0, bits = 0;
  std::memcpy(&x, v, 8);
  std::memcpy(&y, v + 8, 8);
  for (int i = 0; i < 64; ++i) {
    if (y >> i & 1) clmul ^= x << i;
    bits += x >> i & 1;
  }
  std::uint32_t dot = 0, sum = 0;
  for (int i = 0; i < 16; ++i) dot += static_cast<std::uint32_t>(v[i]) * v[16 + i];
  for (int i = 0; i < 32; ++i) sum += v[i];
  return clmul ^ (static_cast<std::uint64_t>(dot) << 32) ^ (static_cast<std::uint64_t>(sum) << 8) ^ (bits << 56);
}

}  // namespace

int main() {
  // a * b is 1 - 2^-60 exactly, 1 once rounded: fused gives -2^-60, not 0.
  const double a = 1 + 0x1p-30, b = 1 - 0x1p-30, c = -1;
  volatile double product = a * b;
  const double unfused = product + c, fused = std::fma(a, b, c);
  std::uint8_t v[32];
  for (int i = 0; i < 32; ++i) v[i] = static_cast<std::uint8_t>(37 * i + 11);
  bool ok = fused != unfused;

  const char *cxx = "?", *via_c = "?";
  grouped_fma(a, b, c, &cxx);
  double (*sel)(double, double, double, const char **) = CPUD_DISPATCH_SELECT(grouped_fma);
  if (sel) sel(a, b, c, &via_c);
  std::printf("selected: %s\nC: %s\n", grouped_fma.selected_name(), via_c);
  if (std::strcmp(cxx, grouped_fma.selected_name()) != 0 || std::strcmp(cxx, via_c) != 0 ||
      sel != grouped_fma.get() || std::strcmp(grouped_mix.selected_name(), cxx) != 0) {
    std::printf("C++ %s and C %s disagree\n", cxx, via_c);
    ok = false;
  }

  int checked = 0;
  const auto *m = grouped_mix.targets();
  for (const auto *e = grouped_fma.targets(); e->fn; ++e, ++m) {
    if (!cpud::usable(*e)) continue;
    const char *said = "?";
    const double got = e->fn(a, b, c, &said);
    const double want = fuses(e->name) ? fused : unfused;
    const std::uint64_t mix = m->fn(v), mix_want = mix_reference(v);
    if (std::strcmp(said, e->name) != 0 || got != want || mix != mix_want) {
      std::printf("%s (says %s): fma %a, expected %a; members %llx, expected %llx\n", e->name, said, got, want,
                  static_cast<unsigned long long>(mix), static_cast<unsigned long long>(mix_want));
      ok = false;
    }
    ++checked;
  }
  std::printf("checked: %d of the compiled targets: %s\n", checked, CPUD__TARGET_NAMES);
  return ok ? 0 : 1;
}
