/* SPDX-License-Identifier: MIT */
// SVE: a predicated multiply-add, a reduction, the vector length; compiled with the target's flags, never run
#include <arm_sve.h>
int main(int argc, char **argv) {
  (void)argv;
  svbool_t pg = svptrue_b32();
  svint32_t a = svmla_n_s32_x(pg, svdup_n_s32(argc), svindex_s32(0, 1), argc);
  return (int)svaddv_s32(pg, a) + (int)svcntw();
}
