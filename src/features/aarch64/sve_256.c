/* SPDX-License-Identifier: MIT */
// SVE_256: a fixed-length SVE type (only with -msve-vector-bits=256) in a struct, a predicated add, the constant lane count; compiled with the target's flags, never run
#include <arm_sve.h>
typedef svint32_t vec256 __attribute__((arm_sve_vector_bits(256)));
struct pair {
  vec256 a, b;
};
int main(int argc, char **argv) {
  (void)argv;
  struct pair p = {svdup_n_s32(argc), svindex_s32(0, 1)};
  svint32_t s = svadd_s32_x(svptrue_b32(), p.a, p.b);
  return (int)svaddv_s32(svptrue_b32(), s) + (int)(sizeof(vec256) / 4) + (int)svcntw();
}
