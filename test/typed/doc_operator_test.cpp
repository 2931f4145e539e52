// docs/typed.md's operator example, as written, and what its comments say.
#include <cstring>

#include "typed_doc_operator.h"

int main() {
  const cpud::resolved<binary> &r = add_kernel_for(cpud::dtype::int32, cpud::dtype::float64);
  if (std::strcmp(r.k->name, "add_f64") != 0 || r.conv[0] != cpud::conversion::safe) return 1;
  if (std::strcmp(r.target(), add_f64.selected_name()) != 0) return 1;
  try {
    add_kernel_for(cpud::dtype::int64, cpud::dtype::complex64);
    return 1;
  } catch (const std::invalid_argument &e) {
    if (std::strncmp(e.what(), "no kernel of 'add' accepts (int64, complex64)", 45) != 0) return 1;
  }
  return 0;
}
