/* SPDX-License-Identifier: MIT */
/*
 * cpudispatch: the built-in element types of typed dispatch, in typecode
 * order, one row each: X(C_SUFFIX, CXX_NAME, "name"). The one list: the C
 * codes (CPUD_DTYPE_*, dtype.h), the C++ enum and names (cpud::dtype,
 * dtype.hpp) are made from it. Appending keeps existing codes.
 */
#ifndef CPUDISPATCH_DTYPE_LIST_H_
#define CPUDISPATCH_DTYPE_LIST_H_

#define CPUD_DTYPE_LIST(X)            \
  X(BOOL, bool_, "bool")              \
  X(INT8, int8, "int8")               \
  X(INT16, int16, "int16")            \
  X(INT32, int32, "int32")            \
  X(INT64, int64, "int64")            \
  X(UINT8, uint8, "uint8")            \
  X(UINT16, uint16, "uint16")         \
  X(UINT32, uint32, "uint32")         \
  X(UINT64, uint64, "uint64")         \
  X(FLOAT16, float16, "float16")      \
  X(FLOAT32, float32, "float32")      \
  X(FLOAT64, float64, "float64")      \
  X(COMPLEX64, complex64, "complex64") \
  X(COMPLEX128, complex128, "complex128")

#endif /* CPUDISPATCH_DTYPE_LIST_H_ */
