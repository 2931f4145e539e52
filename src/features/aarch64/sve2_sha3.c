/* SPDX-License-Identifier: MIT */
// SVE2_SHA3: rotate and XOR (RAX1) on SVE2 vectors; compiled with the target's flags, never run.
#include <arm_sve.h>
int main(int argc, char **argv) {
  (void)argv;
  svuint64_t a = svdup_n_u64((uint64_t)argc);
  a = svrax1_u64(a, a);
  return (int)svaddv_u64(svptrue_b64(), a);
}
