/* Typed dispatch from C (cpudispatch/dtype.h): the same choices as the C++
 * resolution on Numba's cases, the conversion kinds, bad input. */
#include <stdio.h>

#include "cpudispatch/dtype.h"

static int failures = 0;
#define CHECK(cond, what)                         \
  do {                                            \
    if (!(cond)) {                                \
      printf("FAIL line %d: %s\n", __LINE__, what); \
      ++failures;                                 \
    }                                             \
  } while (0)

int main(void) {
  CHECK(cpud_can_convert(CPUD_DTYPE_INT8, CPUD_DTYPE_INT32) == CPUD_CONV_PROMOTE, "int8 -> int32 promote");
  CHECK(cpud_can_convert(CPUD_DTYPE_INT32, CPUD_DTYPE_COMPLEX128) == CPUD_CONV_SAFE, "int32 -> complex128 safe");
  CHECK(cpud_can_convert(CPUD_DTYPE_COMPLEX64, CPUD_DTYPE_FLOAT64) == CPUD_CONV_NONE, "complex -> real none");
  CHECK(cpud_can_convert(99, CPUD_DTYPE_FLOAT64) == CPUD_CONV_NONE, "unknown code");

  /* Numba's example: (float64, float64) and (complex64, complex64) with
   * (float32, float32) -> the float64 kernel. */
  const uint16_t f32_f32[] = {CPUD_DTYPE_FLOAT32, CPUD_DTYPE_FLOAT32};
  const uint16_t kernels[] = {CPUD_DTYPE_FLOAT64, CPUD_DTYPE_FLOAT64, CPUD_DTYPE_COMPLEX64, CPUD_DTYPE_COMPLEX64};
  CHECK(cpud_resolve(f32_f32, 2, kernels, 2, CPUD_CONV_SAFE, CPUD_TIE_ERROR, NULL) == 0, "Numba's example");

  /* (f32, f64), (f64, f32), (i64, i64) with (f64, f64): unsafe -> the two
   * float kernels tie; safe -> no match. */
  const uint16_t f64_f64[] = {CPUD_DTYPE_FLOAT64, CPUD_DTYPE_FLOAT64};
  const uint16_t mix[] = {CPUD_DTYPE_FLOAT32, CPUD_DTYPE_FLOAT64, CPUD_DTYPE_FLOAT64,
                          CPUD_DTYPE_FLOAT32, CPUD_DTYPE_INT64,   CPUD_DTYPE_INT64};
  int tied[2] = {-1, -1};
  CHECK(cpud_resolve(f64_f64, 2, mix, 3, CPUD_CONV_UNSAFE, CPUD_TIE_ERROR, tied) == -2 && tied[0] == 0 &&
            tied[1] == 1,
        "ambiguity names the two float kernels");
  CHECK(cpud_resolve(f64_f64, 2, mix, 3, CPUD_CONV_SAFE, CPUD_TIE_ERROR, NULL) == -1, "safe: no match");

  /* (i32, i32) and (i64, i64) with (i16, i16): a tie, or int32 as most specific. */
  const uint16_t i16_i16[] = {CPUD_DTYPE_INT16, CPUD_DTYPE_INT16};
  const uint16_t ints[] = {CPUD_DTYPE_INT32, CPUD_DTYPE_INT32, CPUD_DTYPE_INT64, CPUD_DTYPE_INT64};
  CHECK(cpud_resolve(i16_i16, 2, ints, 2, CPUD_CONV_SAFE, CPUD_TIE_ERROR, NULL) == -2, "promotion tie");
  CHECK(cpud_resolve(i16_i16, 2, ints, 2, CPUD_CONV_SAFE, CPUD_TIE_MOST_SPECIFIC, NULL) == 0, "most specific");

  /* Bad input is -3, never a crash; unknown type codes convert to nothing. */
  CHECK(cpud_resolve(f64_f64, 2, mix, 3, 7, CPUD_TIE_ERROR, NULL) == -3, "casting out of range");
  CHECK(cpud_resolve(f64_f64, 2, mix, 3, CPUD_CONV_SAFE, 5, NULL) == -3, "tie rule out of range");
  CHECK(cpud_resolve(f64_f64, 9, mix, 3, CPUD_CONV_SAFE, CPUD_TIE_ERROR, NULL) == -3, "too many arguments");
  CHECK(cpud_resolve(f64_f64, 2, mix, 257, CPUD_CONV_SAFE, CPUD_TIE_ERROR, NULL) == -3, "too many candidates");
  CHECK(cpud_resolve(NULL, 2, mix, 3, CPUD_CONV_SAFE, CPUD_TIE_ERROR, NULL) == -3, "no argument array");
  CHECK(cpud_resolve(f64_f64, 2, NULL, 3, CPUD_CONV_SAFE, CPUD_TIE_ERROR, NULL) == -3, "no candidate array");
  const uint16_t junk[] = {500, 600};
  CHECK(cpud_resolve(junk, 2, kernels, 2, CPUD_CONV_UNSAFE, CPUD_TIE_ERROR, NULL) == -1, "unknown codes");
  if (failures) return 1;
  printf("PASS\n");
  return 0;
}
