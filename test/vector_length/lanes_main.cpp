// SVE_256 (code for exactly 32-byte vectors) is selected only where the
// vectors are 32 bytes long. Checks, under whatever CPU runs it:
//  - with an oracle (CPUD_TEST_CPU_FLAGS, a model's "sve_vl=BYTES"; or an
//    aarch64 /proc/cpuinfo), the selected target is what the CPU's
//    features and length call for: SVE_256__SVE2 or SVE_256 at 32 bytes,
//    SVE at any other length, baseline without SVE;
//  - every usable target sums correctly and believes the true lane count;
//  - negative control: where SVE runs at another length, the SVE_256 build
//    called directly sums wrongly, so the length check is what keeps it
//    from running there.
// Exit 1 on any failure.
#include <sys/prctl.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cpu_oracle.h"
#include "cpudispatch/dispatch.hpp"
#include "lanes.dispatch.h"

CPUD_DISPATCH(std::int64_t, lanes_sum, (const std::int32_t *, std::size_t, const char **));
CPUD_DISPATCH(int, lanes_count, ());

int main() {
  std::vector<std::int32_t> v(1000);
  std::int64_t want = 0;
  for (std::size_t i = 0; i < v.size(); ++i) want += v[i] = static_cast<std::int32_t>(i * 7 % 101) - 50;

  // This thread's SVE length in bytes (PR_SVE_GET_VL = 51), 0 without SVE.
  const int vl = prctl(51, 0, 0, 0, 0);
  const int bytes = vl < 0 ? 0 : (vl & 0xffff);
  bool ok = true;

  const char *name = "?";
  const std::int64_t got = lanes_sum(v.data(), v.size(), &name);
  std::printf("vector length %d bytes; selected %s: sum %lld (expected %lld)\n", bytes, name,
              static_cast<long long>(got), static_cast<long long>(want));
  ok = ok && got == want && std::strcmp(name, lanes_sum.selected_name()) == 0;

  bool found = false;
  const auto flags = oracle::cpu_flags(&found);
  if (std::getenv("CPUD_TEST_CPU_FLAGS") || (found && flags.count("asimd"))) {
    const bool sve = flags.count("sve") != 0, at32 = flags.count("sve_vl=32") != 0;
    const char *expect = !sve ? "baseline" : !at32 ? "SVE" : flags.count("sve2") ? "SVE_256__SVE2" : "SVE_256";
    std::printf("oracle: sve %d, sve_vl=32 %d: expected %s\n", sve, at32, expect);
    ok = ok && std::strcmp(name, expect) == 0;
  } else {
    std::printf("no oracle of the CPU's features here: the selection is checked by the sums only\n");
  }

  bool control = false;
  const auto *c = lanes_count.targets();
  for (const auto *e = lanes_sum.targets(); e->fn; ++e, ++c) {
    const char *said = "?";
    if (cpud::usable(*e)) {
      const std::int64_t s = e->fn(v.data(), v.size(), &said);
      const int lanes = c->fn();
      std::printf("  %-14s usable: sum %lld, %d lanes\n", e->name, static_cast<long long>(s), lanes);
      ok = ok && s == want && std::strcmp(said, e->name) == 0 &&
           lanes == (std::strcmp(e->name, "baseline") == 0 ? 0 : bytes / 4);
    } else if (std::strcmp(e->name, "SVE_256") == 0 && bytes != 0 && bytes != 32 &&
               cpud_have(cpud_feature_by_name("SVE"))) {
      // Its instructions are SVE's, which this CPU runs: only the length
      // differs from what it was built for.
      const std::int64_t s = e->fn(v.data(), v.size(), &said);
      const int lanes = c->fn();
      std::printf("  negative control: %s at %d bytes: sum %lld, %d lanes (wrong, as it must be)\n", e->name, bytes,
                  static_cast<long long>(s), lanes);
      control = true;
      ok = ok && s != want && lanes == 8;
    } else {
      std::printf("  %-14s not usable here\n", e->name);
    }
  }
  if (!control) std::printf("negative control: not applicable (no SVE, or vectors of 32 bytes)\n");
  std::printf("%s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
