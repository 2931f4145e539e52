/* SPDX-License-Identifier: MIT */
// SVE2_BITPERM: bit extract under a mask (BEXT); compiled with the target's flags, never run.
#include <arm_sve.h>
int main(int argc, char **argv) {
  (void)argv;
  svuint64_t a = svdup_n_u64((uint64_t)argc);
  a = svbext_u64(a, svdup_n_u64(0xf0f0u));
  return (int)svaddv_u64(svptrue_b64(), a);
}
