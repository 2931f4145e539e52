// An operator with a static kernel table is constant-initialised: no
// constructor runs before main (C++20's constinit refuses to compile
// otherwise), so it is usable from any other static initialiser.
#include <cstring>

#include "add_kernels.h"
#include "cpudispatch/operator.hpp"

constexpr cpud::kernel<binary> kernels[] = {
    CPUD_KERNEL(add_f32, cpud::dtype::float32, cpud::dtype::float32),
    CPUD_KERNEL(add_f64, cpud::dtype::float64, cpud::dtype::float64),
};
constinit cpud::op<binary> add{"add", kernels};

int main() {
  const cpud::resolved<binary> &r = add.resolve({cpud::dtype::float32, cpud::dtype::float64});
  return r && std::strcmp(r.k->name, "add_f64") == 0 ? 0 : 1;
}
