/* SPDX-License-Identifier: MIT */
// SVE2: a halving add and an absolute-difference-accumulate; compiled with the target's flags, never run
#include <arm_sve.h>
int main(int argc, char **argv) {
  (void)argv;
  svbool_t pg = svptrue_b32();
  svint32_t x = svindex_s32(argc, 3);
  svint32_t a = svhadd_s32_x(pg, x, svdup_n_s32(argc));
  a = svaba_s32(a, x, svdup_n_s32(7));
  return (int)svaddv_s32(pg, a);
}
