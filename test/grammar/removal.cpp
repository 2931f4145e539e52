// What <PREFIX>_DISABLE_CPU_FEATURES=NAME turns off (src/runtime/env_masks.c),
// for every feature NAME of the build's arch: every feature usable,
// dispatched and a target, an empty baseline. check_removal.py compares it
// with the build options' "-NAME".
//   removal          prints "arch ARCH", then "NAME: OFF..." per feature
#include <cstdio>
#include <string>

#include "env_masks.h"

int main() {
  cpud::feature_set all;
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id) all |= cpud::feature_set(id);
  std::printf("arch %s\n", CPUD_ARCH);
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id) {
    cpud::internal::env_inputs in{};
    const std::string name = cpud_feature_name(id);
    in.disable = name.c_str();
    in.usable = all;
    in.dispatched = all;
    in.targets = all;
    const cpud::internal::env_outcome o = cpud::internal::apply_env_masks(in);
    if (!o.ok) {
      std::printf("%s: error: %s\n", name.c_str(), o.error);
      continue;
    }
    std::string off;
    const cpud::feature_set gone = all & ~cpud::feature_set(o.usable);
    for (int f = 1; f <= CPUD_FEATURE_COUNT; ++f)
      if (gone.has(f)) off += " " + std::string(cpud_feature_name(f));
    std::printf("%s:%s\n", name.c_str(), off.c_str());
  }
  return 0;
}
