// Overload resolution by argument types (cpudispatch/resolve.hpp) on the
// cases Numba documents and tests, with the errors it prints; codes outside
// the built-in ones through the default rules.
#include <cstdio>
#include <string>
#include <vector>

#include "cpudispatch/resolve.hpp"
#include "expect.h"

namespace doc {
#include "typed_doc_resolve.h"  // docs/typed.md's example, as written
}

using cpud::casting;
using cpud::dtype;
using cpud::resolution;

namespace {


// A kernel set: each candidate's parameter types.
struct kernels {
  std::vector<std::vector<dtype>> types;
  std::vector<cpud::signature> sigs;
  kernels(std::initializer_list<std::vector<dtype>> ts) : types(ts) {
    for (auto &t : types) sigs.push_back({t.data(), static_cast<int>(t.size())});
  }
  resolution call(std::vector<dtype> args, casting limit = casting::safe,
                  cpud::tie_rule tie = cpud::tie_rule::error) const {
    return cpud::resolve(args.data(), static_cast<int>(args.size()), sigs.data(), static_cast<int>(sigs.size()),
                         limit, tie);
  }
  std::string why(const char *op, std::vector<dtype> args, const resolution &r,
                  casting limit = casting::safe) const {
    return cpud::explain(op, args.data(), static_cast<int>(args.size()), sigs.data(), static_cast<int>(sigs.size()),
                         r, limit);
  }
};

const dtype b = dtype::bool_, i16 = dtype::int16, i32 = dtype::int32, i64 = dtype::int64, f32 = dtype::float32,
            f64 = dtype::float64, c64 = dtype::complex64, c128 = dtype::complex128;

void numba_documented_example() {
  // (float64, float64) and (complex64, complex64) called with (float32,
  // float32): float64 needs two promotions (0, 0, 2), complex64 two safe
  // conversions (0, 2, 0): float64 wins.
  kernels k{{f64, f64}, {c64, c64}};
  resolution r = k.call({f32, f32});
  EXPECT(r.kind == resolution::ok && r.index == 0, "expected the float64 kernel, got kind %d index %d", r.kind,
         r.index);
  EXPECT(r.rank.unsafe == 0 && r.rank.safe == 0 && r.rank.promote == 2, "rank (%d, %d, %d)", r.rank.unsafe,
         r.rank.safe, r.rank.promote);
  cpud::rating complex_rank;
  const dtype args[] = {f32, f32};
  EXPECT(cpud::rate(args, 2, k.sigs[1], casting::safe, cpud::can_convert, &complex_rank) &&
             complex_rank.safe == 2 && complex_rank.unsafe == 0 && complex_rank.promote == 0,
         "the complex64 kernel should rate (0, 2, 0)");
}

void ambiguity_and_casting_limit() {
  kernels k{{f32, f64}, {f64, f32}, {i64, i64}};
  resolution r = k.call({f64, f64}, casting::unsafe);
  EXPECT(r.kind == resolution::ambiguous && r.n_tied == 2 && r.tied[0] == 0 && r.tied[1] == 1,
         "casting=unsafe: expected the two float kernels tied, got kind %d, %d tied", r.kind, r.n_tied);
  std::string msg = k.why("mix", {f64, f64}, r, casting::unsafe);
  const std::string want_amb =
      "ambiguous call of 'mix' with (float64, float64): 2 kernels tie at 1 unsafe, 0 safe, 0 promoting "
      "conversions: (float32, float64), (float64, float32)";
  EXPECT(msg == want_amb, "message:\n  %s\nexpected:\n  %s", msg.c_str(), want_amb.c_str());
  r = k.call({f64, f64});  // casting=safe
  EXPECT(r.kind == resolution::no_match, "casting=safe: expected no match, got kind %d", r.kind);
  msg = k.why("mix", {f64, f64}, r);
  const std::string want_none =
      "no kernel of 'mix' accepts (float64, float64) with casting=safe: (float32, float64): float64->float32 is "
      "unsafe; (float64, float32): float64->float32 is unsafe; (int64, int64): float64->int64 is unsafe";
  EXPECT(msg == want_none, "message:\n  %s\nexpected:\n  %s", msg.c_str(), want_none.c_str());
}

void mixed_and_impossible() {
  kernels k{{i64, i64}, {f64, f64}};
  resolution r = k.call({i32, f64});
  EXPECT(r.kind == resolution::ok && r.index == 1, "(i32, f64) should pick (f64, f64), got kind %d index %d",
         r.kind, r.index);
  kernels ints{{i32, i32}};
  r = ints.call({c128, c128}, casting::unsafe);
  EXPECT(r.kind == resolution::no_match, "(c128, c128) -> (i32, i32) should never match");
  std::string msg = ints.why("add", {c128, c128}, r, casting::unsafe);
  const std::string want =
      "no kernel of 'add' accepts (complex128, complex128) with casting=unsafe: (int32, int32): "
      "complex128->int32 has no conversion";
  EXPECT(msg == want, "message:\n  %s\nexpected:\n  %s", msg.c_str(), want.c_str());
}

void ties_between_promotions() {
  // (i16, i16) promotes to both (i32, i32) and (i64, i64): Numba's rule is
  // an ambiguity; "most specific" picks int32, which converts to int64.
  kernels k{{i32, i32}, {i64, i64}};
  resolution r = k.call({i16, i16});
  EXPECT(r.kind == resolution::ambiguous && r.n_tied == 2, "expected an ambiguity, got kind %d", r.kind);
  r = k.call({i16, i16}, casting::safe, cpud::tie_rule::most_specific);
  EXPECT(r.kind == resolution::ok && r.index == 0, "most_specific should pick (i32, i32), got kind %d index %d",
         r.kind, r.index);
  // Two candidates neither of which converts safely to the other stay tied.
  kernels k2{{f32, f64}, {f64, f32}};
  r = k2.call({f64, f64}, casting::unsafe, cpud::tie_rule::most_specific);
  EXPECT(r.kind == resolution::ambiguous, "(f32, f64) vs (f64, f32) has no most specific");
  // tie_rule::first: the first tied candidate in order, whichever it is.
  r = k2.call({f64, f64}, casting::unsafe, cpud::tie_rule::first);
  EXPECT(r.kind == resolution::ok && r.index == 0, "first should pick (f32, f64), got kind %d index %d", r.kind,
         r.index);
  kernels k3{{i64, i64}, {i32, i32}};
  r = k3.call({i16, i16}, casting::safe, cpud::tie_rule::first);
  EXPECT(r.kind == resolution::ok && r.index == 0, "first should pick (i64, i64), listed first");
  // Only ties: a better-rated later candidate still wins.
  kernels k4{{f64, f64}, {i32, i32}};
  r = k4.call({i16, i16}, casting::safe, cpud::tie_rule::first);
  EXPECT(r.kind == resolution::ok && r.index == 1, "(i32, i32) promotes where (f64, f64) converts: it wins");
}

void numba_overload_tests() {
  // numba/tests/test_typeconv.py test_overload1..3.
  kernels k1{{i32, i32, i32}, {i64, i64, i64}};
  resolution r = k1.call({i64, i32, i32}, casting::unsafe);
  EXPECT(r.kind == resolution::ok && r.index == 1, "overload1: expected the int64 kernel");
  kernels k2{{i64, i64, i64}, {i32, i32, i32}, {i16, i16, i16}};
  r = k2.call({i32, i16, i32}, casting::unsafe);
  EXPECT(r.kind == resolution::ok && r.index == 1, "overload2: expected (i32, i32, i32), got %d", r.index);
  kernels k2r{{i16, i16, i16}, {i32, i32, i32}, {i64, i64, i64}};
  r = k2r.call({i32, i16, i32});
  EXPECT(r.kind == resolution::ok && r.index == 1, "overload2 reversed: expected (i32, i32, i32), got %d", r.index);
  kernels k3{{i64, i64}, {f64, f64}};
  r = k3.call({i32, i32});
  EXPECT(r.kind == resolution::ok && r.index == 0, "overload3: promotions beat safe conversions");
  // An exact match always wins; arity must match; bool converts safely.
  kernels k4{{f64, f64}, {i32, i32}, {f64}};
  r = k4.call({i32, i32});
  EXPECT(r.kind == resolution::ok && r.index == 1 && r.rank == cpud::rating{}, "exact match");
  r = k4.call({b});
  EXPECT(r.kind == resolution::ok && r.index == 2 && r.rank.safe == 1, "bool -> float64 is safe");
  r = k4.call({f64, f64, f64});
  std::string msg = k4.why("k4", {f64, f64, f64}, r);
  EXPECT(r.kind == resolution::no_match && msg.find("(float64): takes 1 arguments") != std::string::npos,
         "arity: %s", msg.c_str());
  kernels none{};
  r = none.call({f64});
  EXPECT(none.why("empty", {f64}, r) == "no kernel of 'empty' accepts (float64) with casting=safe: it has no kernels",
         "no kernels: %s", none.why("empty", {f64}, r).c_str());
}

// Codes outside the built-in ones through the free function and its default
// rules (can_convert): a composite code is itself and converts to nothing
// else; the registry's invalid code matches nothing; neither reads past the
// built-in matrix.
void codes_outside_the_builtins() {
  // The invalid code is cpud::type_registry::k_invalid (types.hpp, which
  // this runtime-free test does not include: it links the startup check).
  const dtype composite = static_cast<dtype>(516), invalid = static_cast<dtype>(0xffff);
  static_assert(cpud::can_convert(static_cast<dtype>(516), static_cast<dtype>(516)) == cpud::conversion::exact);
  static_assert(cpud::can_convert(static_cast<dtype>(516), dtype::float32) == cpud::conversion::none);
  static_assert(cpud::can_convert(dtype::float32, static_cast<dtype>(516)) == cpud::conversion::none);
  static_assert(cpud::can_cast_numpy(static_cast<dtype>(0xffff), dtype::float64) == cpud::conversion::none);
  static_assert(cpud::can_cast_numpy(static_cast<dtype>(516), static_cast<dtype>(516)) == cpud::conversion::exact);
  static_assert(cpud::numba_conversions(static_cast<dtype>(600), dtype::int8) == cpud::conversion::none);
  kernels floats{{f32}};
  resolution r = floats.call({composite}, casting::unsafe);
  EXPECT(r.kind == resolution::no_match, "(type#516) against (float32): expected no match, got kind %d index %d",
         r.kind, r.index);
  std::string msg = floats.why("f", {composite}, r, casting::unsafe);
  const std::string want_composite =
      "no kernel of 'f' accepts (type#516) with casting=unsafe: (float32): type#516->float32 has no conversion";
  EXPECT(msg == want_composite, "message:\n  %s\nexpected:\n  %s", msg.c_str(), want_composite.c_str());
  kernels own{{f32}, {composite}};
  r = own.call({composite}, casting::exact);
  EXPECT(r.kind == resolution::ok && r.index == 1 && r.rank == cpud::rating{},
         "(type#516) against its own kernel: expected an exact match at 1, got kind %d index %d", r.kind, r.index);
  EXPECT(own.why("f", {composite}, r).empty(), "an ok resolution explains nothing");
  r = own.call({f32}, casting::unsafe);
  EXPECT(r.kind == resolution::ok && r.index == 0, "(float32) still takes the float32 kernel, got index %d", r.index);
  kernels builtins{{f32, f32}, {f64, f64}, {i64, i64}, {c128, c128}, {b, b}};
  for (casting limit : {casting::exact, casting::safe, casting::unsafe}) {
    r = builtins.call({invalid, invalid}, limit);
    EXPECT(r.kind == resolution::no_match, "k_invalid args with casting=%s: expected no match, got kind %d index %d",
           cpud::casting_name(limit), r.kind, r.index);
    r = builtins.call({f64, invalid}, limit);
    EXPECT(r.kind == resolution::no_match, "(float64, k_invalid) with casting=%s: expected no match, got kind %d",
           cpud::casting_name(limit), r.kind);
  }
  const std::string want_invalid =
      "no kernel of 'g' accepts (type#65535, type#65535) with casting=unsafe: (float32, float32): "
      "type#65535->float32 has no conversion; (float64, float64): type#65535->float64 has no conversion; (int64, "
      "int64): type#65535->int64 has no conversion; (complex128, complex128): type#65535->complex128 has no "
      "conversion; (bool, bool): type#65535->bool has no conversion";
  r = builtins.call({invalid, invalid}, casting::unsafe);
  msg = builtins.why("g", {invalid, invalid}, r, casting::unsafe);
  EXPECT(msg == want_invalid, "message:\n  %s\nexpected:\n  %s", msg.c_str(), want_invalid.c_str());
  // Built-in kernels called with the invalid code and with a composite one:
  // a kernel of the invalid code itself is an exact match (a code is itself).
  kernels with_invalid{{f64}, {invalid}};
  r = with_invalid.call({invalid});
  EXPECT(r.kind == resolution::ok && r.index == 1, "k_invalid against its own code: got kind %d index %d", r.kind,
         r.index);
  r = with_invalid.call({composite}, casting::unsafe);
  EXPECT(r.kind == resolution::no_match, "(type#516) against (float64), (type#65535): got kind %d", r.kind);
}

// What the docs' example says in its comments.
void docs_example() {
  EXPECT(doc::r.kind == resolution::ok && doc::r.index == 0, "docs: r.index should be 0, is %d", doc::r.index);
  const std::string want =
      "no kernel of 'add' accepts (complex128, complex128) with casting=safe: (float64, float64): complex128->float64 "
      "has no conversion; (complex64, complex64): complex128->complex64 is unsafe";
  EXPECT(doc::why == want, "docs: why is\n  %s", doc::why.c_str());
}

}  // namespace

int main() {
  docs_example();
  numba_documented_example();
  ambiguity_and_casting_limit();
  mixed_and_impossible();
  ties_between_promotions();
  numba_overload_tests();
  codes_outside_the_builtins();
  if (failures) return 1;
  std::printf("PASS\n");
  return 0;
}
