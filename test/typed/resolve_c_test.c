/* Typed dispatch from C (cpudispatch/dtype.h): the same choices as the C++
 * resolution on Numba's cases, the three tie rules, the conversion kinds, bad
 * input. */
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

  /* The three tie rules, on NumPy-style loops. By Numba's rules uint16
   * converts safely to int32, int64 and float64 (one safe step, then
   * promotions or safe steps) and to float32 only unsafely (via int32), so
   * (uint16, uint16) ties three candidates at two safe conversions each.
   * Listed narrowest first, FIRST and MOST_SPECIFIC (int32 converts at most
   * safely to int64 and float64) both take int32; listed widest first,
   * FIRST takes float64, MOST_SPECIFIC still int32, ERROR ties the first
   * two tied. */
  const uint16_t u16_u16[] = {CPUD_DTYPE_UINT16, CPUD_DTYPE_UINT16};
  const uint16_t narrow_first[] = {CPUD_DTYPE_INT32,   CPUD_DTYPE_INT32,   CPUD_DTYPE_INT64,   CPUD_DTYPE_INT64,
                                   CPUD_DTYPE_FLOAT32, CPUD_DTYPE_FLOAT32, CPUD_DTYPE_FLOAT64, CPUD_DTYPE_FLOAT64};
  const uint16_t wide_first[] = {CPUD_DTYPE_FLOAT64, CPUD_DTYPE_FLOAT64, CPUD_DTYPE_FLOAT32, CPUD_DTYPE_FLOAT32,
                                 CPUD_DTYPE_INT64,   CPUD_DTYPE_INT64,   CPUD_DTYPE_INT32,   CPUD_DTYPE_INT32};
  tied[0] = tied[1] = -1;
  CHECK(cpud_resolve(u16_u16, 2, narrow_first, 4, CPUD_CONV_SAFE, CPUD_TIE_ERROR, tied) == -2 && tied[0] == 0 &&
            tied[1] == 1,
        "narrowest first, ERROR: int32 and int64 tie");
  CHECK(cpud_resolve(u16_u16, 2, narrow_first, 4, CPUD_CONV_SAFE, CPUD_TIE_FIRST, NULL) == 0,
        "narrowest first, FIRST: int32");
  CHECK(cpud_resolve(u16_u16, 2, narrow_first, 4, CPUD_CONV_UNSAFE, CPUD_TIE_FIRST, NULL) == 0,
        "narrowest first, FIRST, casting unsafe: still int32 (float32 needs two unsafe conversions)");
  CHECK(cpud_resolve(u16_u16, 2, narrow_first, 4, CPUD_CONV_SAFE, CPUD_TIE_MOST_SPECIFIC, NULL) == 0,
        "narrowest first, MOST_SPECIFIC: int32");
  tied[0] = tied[1] = -1;
  CHECK(cpud_resolve(u16_u16, 2, wide_first, 4, CPUD_CONV_SAFE, CPUD_TIE_ERROR, tied) == -2 && tied[0] == 0 &&
            tied[1] == 2,
        "widest first, ERROR: float64 and int64 tie");
  CHECK(cpud_resolve(u16_u16, 2, wide_first, 4, CPUD_CONV_SAFE, CPUD_TIE_FIRST, NULL) == 0,
        "widest first, FIRST: float64, the first tied");
  CHECK(cpud_resolve(u16_u16, 2, wide_first, 4, CPUD_CONV_SAFE, CPUD_TIE_MOST_SPECIFIC, NULL) == 3,
        "widest first, MOST_SPECIFIC: int32");
  /* FIRST only breaks ties at the best rating: (int16, int16) converts
   * safely to the float kernels listed first but promotes to int64 and
   * int32, so FIRST takes int64, the first of those. */
  CHECK(cpud_resolve(i16_i16, 2, wide_first, 4, CPUD_CONV_SAFE, CPUD_TIE_FIRST, NULL) == 2,
        "FIRST: (i16, i16) takes int64, the first of the promotions, not float64");

  /* Bad input is -3, never a crash; unknown type codes convert to nothing. */
  CHECK(cpud_resolve(f64_f64, 2, mix, 3, 7, CPUD_TIE_ERROR, NULL) == -3, "casting out of range");
  CHECK(cpud_resolve(f64_f64, 2, mix, 3, CPUD_CONV_SAFE, 5, NULL) == -3, "tie rule out of range");
  CHECK(cpud_resolve(f64_f64, 2, mix, 3, CPUD_CONV_SAFE, 3, NULL) == -3, "tie rule 3 (past CPUD_TIE_FIRST)");
  CHECK(cpud_resolve(f64_f64, 2, mix, 3, CPUD_CONV_SAFE, -1, NULL) == -3, "tie rule -1");
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
