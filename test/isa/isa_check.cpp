// isa_check TARGET: run with an environment mask that makes TARGET the best
// usable target of the demo kernels (test/isa/meson.build sets it). Checks
// that every demo kernel selected TARGET and gives the baseline's results.
// Exit 77 (skipped) when this CPU lacks TARGET.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "kernels.h"

namespace {

template <class D>
bool selected_is(const D &d, const char *want) {
  const char *got = d.selected_name();
  if (std::strcmp(got, want) != 0) {
    std::printf("FAIL: %s selected %s, expected %s\n", D::name(), got, want);
    return false;
  }
  return true;
}

template <class D>
typename D::fn_type baseline_of(const D &d) {
  for (auto *e = d.targets(); e->fn; ++e)
    if (e->feature == 0) return e->fn;
  return nullptr;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: isa_check TARGET\n");
    return 2;
  }
  const char *want = argv[1];
  if (std::strcmp(want, "baseline") != 0) {
    int id = cpud_feature_by_name(want);
    if (!id) {
      std::printf("FAIL: unknown target %s\n", want);
      return 1;
    }
    if (!cpud_mask_has(cpud_detected_mask(), id)) {
      std::printf("SKIP: this CPU lacks %s\n", want);
      return 77;
    }
  }
  bool ok = selected_is(cpud_demo_sum_f32, want) && selected_is(cpud_demo_dot_f32, want) &&
            selected_is(cpud_demo_count_u8, want);
  std::vector<float> x(1037), y(1037);
  std::vector<std::uint8_t> b(1037);
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = static_cast<float>(static_cast<int>(i % 17) - 8);
    y[i] = static_cast<float>(static_cast<int>(i % 5) - 2);
    b[i] = static_cast<std::uint8_t>(i * 7 % 11);
  }
  auto bs = baseline_of(cpud_demo_sum_f32);
  auto bd = baseline_of(cpud_demo_dot_f32);
  auto bc = baseline_of(cpud_demo_count_u8);
  if (!bs || !bd || !bc) {
    std::printf("FAIL: no baseline build\n");
    return 1;
  }
  float s = cpud_demo_sum_f32(x.data(), x.size()), d = cpud_demo_dot_f32(x.data(), y.data(), x.size());
  std::size_t c = cpud_demo_count_u8(b.data(), b.size(), 3);
  if (s != bs(x.data(), x.size()) || d != bd(x.data(), y.data(), x.size()) || c != bc(b.data(), b.size(), 3)) {
    std::printf("FAIL: %s results differ from the baseline: %g %g %zu\n", want, s, d, c);
    ok = false;
  }
  if (ok) std::printf("PASS: every demo kernel selected %s and matches the baseline\n", want);
  return ok ? 0 : 1;
}
