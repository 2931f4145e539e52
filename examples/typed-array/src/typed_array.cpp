// The operators over the kernels of elementwise.dispatch.cpp, and the glue:
// storage, conversion of inputs to the chosen kernel's types, errors.
#include "typed_array.h"

#include <cstring>
#include <stdexcept>

#include "cpudispatch/operator.hpp"
#include "elementwise.dispatch.h"

// The dispatched kernels: at namespace scope, where their per-target
// definitions live.
#define TA_DECLARE(SUFFIX)                                                            \
  CPUD_DISPATCH(void, ta_add_##SUFFIX, (const void *, const void *, void *, std::size_t)); \
  CPUD_DISPATCH(void, ta_mul_##SUFFIX, (const void *, const void *, void *, std::size_t))
TA_DECLARE(i8);
TA_DECLARE(i16);
TA_DECLARE(i32);
TA_DECLARE(i64);
TA_DECLARE(u8);
TA_DECLARE(f32);
TA_DECLARE(f64);
TA_DECLARE(c64);
CPUD_DISPATCH(void, ta_sum_u8, (const void *, const void *, void *, std::size_t));
CPUD_DISPATCH(void, ta_sum_i64, (const void *, const void *, void *, std::size_t));
CPUD_DISPATCH(void, ta_sum_f32, (const void *, const void *, void *, std::size_t));
CPUD_DISPATCH(void, ta_sum_f64, (const void *, const void *, void *, std::size_t));
CPUD_DISPATCH(void, ta_sum_c64, (const void *, const void *, void *, std::size_t));
CPUD_DISPATCH(const char *, ta_target, ());

namespace {

using kernel_fn = void (*)(const void *, const void *, void *, std::size_t);
using cpud::dtype;
using ta::array;
#define TA_BINARY(OP)                                                                                  \
  CPUD_KERNEL(ta_##OP##_i8, dtype::int8, dtype::int8), CPUD_KERNEL(ta_##OP##_i16, dtype::int16, dtype::int16), \
      CPUD_KERNEL(ta_##OP##_i32, dtype::int32, dtype::int32),                                        \
      CPUD_KERNEL(ta_##OP##_i64, dtype::int64, dtype::int64),                                        \
      CPUD_KERNEL(ta_##OP##_u8, dtype::uint8, dtype::uint8),                                         \
      CPUD_KERNEL(ta_##OP##_f32, dtype::float32, dtype::float32),                                    \
      CPUD_KERNEL(ta_##OP##_f64, dtype::float64, dtype::float64),                                    \
      CPUD_KERNEL(ta_##OP##_c64, dtype::complex64, dtype::complex64)
constexpr cpud::kernel<kernel_fn> add_kernels[] = {TA_BINARY(add)};
constexpr cpud::kernel<kernel_fn> mul_kernels[] = {TA_BINARY(mul)};
// Sums accumulate in int64, float32, float64 or complex64: smaller signed
// integers promote to int64 (NumPy's habit) through the ranking, not special
// code; uint8 has its own kernel (it converts safely to int64 and to every
// float alike, a tie no kernel is most specific for).
constexpr cpud::kernel<kernel_fn> sum_kernels[] = {
    CPUD_KERNEL(ta_sum_u8, dtype::uint8), CPUD_KERNEL(ta_sum_i64, dtype::int64), CPUD_KERNEL(ta_sum_f32, dtype::float32),
    CPUD_KERNEL(ta_sum_f64, dtype::float64), CPUD_KERNEL(ta_sum_c64, dtype::complex64)};

// Constant-initialised: usable from other static initialisers. Ties go to
// the most specific kernel: (uint8, int8) fits int16, int32 and int64 equally
// well by the ranking (one safe, one promoting conversion each), and an
// array library wants the narrowest, as NumPy's promotion gives.
constexpr auto k_casting = cpud::casting::safe;
constexpr auto k_ties = cpud::tie_rule::most_specific;
cpud::op<kernel_fn> add_op{"add", add_kernels, k_casting, k_ties};
cpud::op<kernel_fn> mul_op{"multiply", mul_kernels, k_casting, k_ties};
cpud::op<kernel_fn> sum_op{"sum", sum_kernels, k_casting, k_ties};

// Calls f with a value of the C++ type of t.
template <class F>
decltype(auto) visit(dtype t, F &&f) {
  switch (t) {
    case dtype::int8: return f(std::int8_t{});
    case dtype::int16: return f(std::int16_t{});
    case dtype::int32: return f(std::int32_t{});
    case dtype::int64: return f(std::int64_t{});
    case dtype::uint8: return f(std::uint8_t{});
    case dtype::float32: return f(float{});
    case dtype::float64: return f(double{});
    case dtype::complex64: return f(std::complex<float>{});
    default:
      throw std::invalid_argument(std::string("typed_array: no arrays of ") + cpud::dtype_name(t));
  }
}

template <class To, class From>
To convert_one(From v) {
  if constexpr (std::is_same_v<To, std::complex<float>>) {
    if constexpr (std::is_same_v<From, std::complex<float>>)
      return v;
    else
      return To(static_cast<float>(v), 0.0f);
  } else {
    return static_cast<To>(v);  // never complex -> real: no kernel accepts that
  }
}

const cpud::resolved<kernel_fn> &choose(const cpud::op<kernel_fn> &op, std::initializer_list<dtype> types) {
  const cpud::resolved<kernel_fn> &r = op.resolve(types);
  if (!r) throw std::invalid_argument("typed_array: " + op.explain(types));
  return r;
}

// What a sum kernel of element type t writes.
dtype sum_type(dtype t) { return t == dtype::uint8 ? dtype::int64 : t; }

array binary(const cpud::op<kernel_fn> &op, const array &a, const array &b) {
  if (a.size() != b.size())
    throw std::invalid_argument(std::string("typed_array: ") + op.name() + " of arrays of " +
                                std::to_string(a.size()) + " and " + std::to_string(b.size()) + " elements");
  const cpud::resolved<kernel_fn> &r = choose(op, {a.type(), b.type()});
  const dtype t = r.k->types[0];
  const array x = a.type() == t ? a : a.as(t), y = b.type() == t ? b : b.as(t);
  array out(t, a.size());
  r.fn()(x.data(), y.data(), out.data(), a.size());
  return out;
}

}  // namespace

namespace ta {

array::array(dtype t, std::size_t n) : type_(t), n_(n) {
  const std::size_t size = visit(t, [](auto v) { return sizeof v; });
  bytes_.assign((size * n + 7) / 8, 0);
}

array array::as(dtype t) const {
  array out(t, n_);
  visit(type_, [&](auto from) {
    visit(t, [&](auto to) {
      using From = decltype(from);
      using To = decltype(to);
      if constexpr (!std::is_same_v<To, std::complex<float>> && std::is_same_v<From, std::complex<float>>) {
        throw std::invalid_argument("typed_array: complex64 does not convert to a real type");
      } else {
        for (std::size_t i = 0; i < n_; ++i) out.set<To>(i, convert_one<To>(get<From>(i)));
      }
    });
  });
  return out;
}

array add(const array &a, const array &b) { return binary(add_op, a, b); }
array multiply(const array &a, const array &b) { return binary(mul_op, a, b); }

array sum(const array &a) {
  const cpud::resolved<kernel_fn> &r = choose(sum_op, {a.type()});
  const dtype t = r.k->types[0];
  const array x = a.type() == t ? a : a.as(t);
  array out(sum_type(t), 1);
  r.fn()(x.data(), nullptr, out.data(), a.size());
  return out;
}

std::string plan(const char *op, dtype a, dtype b) {
  const bool unary = !std::strcmp(op, "sum");
  const cpud::op<kernel_fn> &o = unary ? sum_op : !std::strcmp(op, "add") ? add_op : mul_op;
  const cpud::resolved<kernel_fn> &r = unary ? o.resolve({a}) : o.resolve({a, b});
  if (!r) return unary ? o.explain({a}) : o.explain({a, b});
  return std::string(r.k->name) + " " + cpud::signature_text(r.k->types, r.k->arity) + " on " + r.target();
}

int check_all_builds(std::string *errors) {
  int compared = 0;
  for (const cpud::op<kernel_fn> *o : {&add_op, &mul_op, &sum_op}) {
    o->for_each_kernel([&](const cpud::kernel<kernel_fn> &k) {
      const dtype t = k.types[0];
      const std::size_t n = 1003;  // not a multiple of any vector width
      array x(t, n), y(t, n);
      visit(t, [&](auto v) {
        using T = decltype(v);
        // Small integer values: every build's sum is exact, whatever its order.
        for (std::size_t i = 0; i < n; ++i) {
          x.set<T>(i, convert_one<T>(static_cast<int>(i % 7) - 3));
          y.set<T>(i, convert_one<T>(static_cast<int>(i % 5) + 1));
        }
      });
      const cpud::target_entry<kernel_fn> *base = nullptr;
      for (const auto *e = k.targets(); e->fn; ++e)
        if (e->feature == 0) base = e;
      const std::size_t out_n = k.arity == 1 ? 1 : n;
      const dtype out_t = k.arity == 1 ? sum_type(t) : t;
      array want(out_t, out_n);
      base->fn(x.data(), y.data(), want.data(), n);
      for (const auto *e = k.targets(); e->fn; ++e) {
        if (!cpud::usable(*e)) continue;  // another CPU's build
        array got(out_t, out_n);
        e->fn(x.data(), y.data(), got.data(), n);
        ++compared;
        const std::size_t bytes = visit(out_t, [](auto v) { return sizeof v; }) * out_n;
        if (std::memcmp(got.data(), want.data(), bytes) != 0)
          *errors += std::string(k.name) + " on " + e->name + " differs from its baseline build\n";
      }
    });
  }
  return compared;
}

const char *build_name() { return ta_target(); }

}  // namespace ta
