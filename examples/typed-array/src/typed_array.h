// typed_array: one-dimensional arrays of int8, int16, int32, int64, uint8,
// float32, float64 or complex64, with element-wise add and multiply and a
// sum. Each operation is a cpudispatch operator: the arrays' element types
// choose the kernel (Numba's rules: the fewest unsafe, then safe, then
// promoting conversions; never an unsafe one), and the kernel runs its best
// ISA build for this CPU.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cpudispatch/dtype.hpp"

namespace ta {

class array {
 public:
  // n zero elements of type t; std::invalid_argument for a type the library
  // does not hold (bool, uint16..uint64, float16, complex128).
  array(cpud::dtype t, std::size_t n);
  template <class T>
  static array of(const std::vector<T> &v) {
    array a(cpud::dtype_v<T>, v.size());
    for (std::size_t i = 0; i < v.size(); ++i) a.set(i, v[i]);
    return a;
  }
  cpud::dtype type() const { return type_; }
  std::size_t size() const { return n_; }
  const void *data() const { return bytes_.data(); }
  void *data() { return bytes_.data(); }
  // Element i; T must be the element type (std::invalid_argument otherwise).
  template <class T>
  T get(std::size_t i) const {
    check<T>();
    return reinterpret_cast<const T *>(bytes_.data())[i];
  }
  template <class T>
  void set(std::size_t i, T v) {
    check<T>();
    reinterpret_cast<T *>(bytes_.data())[i] = v;
  }
  // This array's elements converted to type t (as static_cast would).
  array as(cpud::dtype t) const;

 private:
  template <class T>
  void check() const;
  cpud::dtype type_;
  std::size_t n_;
  std::vector<std::uint64_t> bytes_;  // 8-byte aligned storage for any element type
};

// std::invalid_argument naming the operator, the types and why, when no
// kernel accepts the types without an unsafe conversion, or the sizes differ.
array add(const array &a, const array &b);
array multiply(const array &a, const array &b);
// One element: the sum, in the kernel's type (int8 sums as int64).
array sum(const array &a);

// The kernel an operation picks for these types and the ISA build it runs:
// "ta_add_f32 (float32, float32) on AVX512_SKX"; the error text if none.
std::string plan(const char *op, cpud::dtype a, cpud::dtype b = cpud::dtype::bool_);

// Every kernel's every compiled ISA build this CPU can run, against the
// kernel's baseline build on the same data. Returns the number of builds
// compared; mismatches are appended to *errors.
int check_all_builds(std::string *errors);

// The ISA build of the library's dispatch source that runs here.
const char *build_name();

}  // namespace ta

template <class T>
void ta::array::check() const {
  if (cpud::dtype_v<T> != type_)
    throw std::invalid_argument(std::string("typed_array: element type is ") + cpud::dtype_name(type_) + ", not " +
                                cpud::dtype_name(cpud::dtype_v<T>));
}
