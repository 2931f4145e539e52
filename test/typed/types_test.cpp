// Composite types (cpudispatch/types.hpp): fingerprints interned to one
// typecode per type, from any thread; user rules, closed through chains,
// taking part in an operator's ranking.
#include "cpudispatch/operators.h"
#include <atomic>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "add_kernels.h"
#include "cpudispatch/operator.hpp"
#include "expect.h"

using cpud::conversion;
using cpud::dtype;

namespace {

// A library's descriptor: element type, channels, layout.
std::string fingerprint(dtype elem, int channels, char layout) {
  return std::string(1, static_cast<char>(elem)) + static_cast<char>(channels) + layout;
}

void interning() {
  cpud::type_registry reg;
  const std::string a = fingerprint(dtype::float32, 3, 'C');
  std::string copy = a;
  const dtype t1 = reg.intern(a), t2 = reg.intern(copy.data(), copy.size());
  EXPECT(t1 == t2, "the same fingerprint should intern to one typecode: %d, %d", int(t1), int(t2));
  EXPECT(static_cast<int>(t1) >= cpud::k_builtin_dtypes, "composite codes start after the built-in ones");
  const dtype other = reg.intern(fingerprint(dtype::float32, 3, 'A'));
  EXPECT(other != t1 && other != cpud::type_registry::k_invalid, "another fingerprint, another code");
  EXPECT(reg.intern(std::string(65, 'x')) == cpud::type_registry::k_invalid, "a fingerprint over 64 bytes");
  // Many threads interning the same new fingerprints agree on every code.
  std::vector<std::thread> threads;
  std::vector<std::vector<dtype>> seen(4);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int c = 1; c <= 50; ++c) seen[t].push_back(reg.intern(fingerprint(dtype::int16, c, 'C')));
    });
  for (auto &th : threads) th.join();
  for (int t = 1; t < 4; ++t) EXPECT(seen[t] == seen[0], "thread %d saw other codes", t);
  for (int c = 0; c < 50; ++c)
    for (int d = 0; d < c; ++d) EXPECT(seen[0][c] != seen[0][d], "codes %d and %d collide", c, d);
}

void rules_take_part_in_ranking() {
  cpud::type_registry &reg = cpud::types();
  const dtype contiguous = reg.intern(fingerprint(dtype::float32, 1, 'C'));
  const dtype strided = reg.intern(fingerprint(dtype::float32, 1, 'S'));
  const dtype any = reg.intern(fingerprint(dtype::float32, 1, 'A'));
  static const cpud::kernel<binary> kernels[] = {
      {{any, any}, 2, +[] { return add_f32.get(); }, +[] { return add_f32.selected_name(); },
       +[] { return decltype(add_f32)::targets(); }, "add_any_layout", nullptr},
      CPUD_KERNEL(add_f64, dtype::float64, dtype::float64),
  };
  cpud::op<binary> add{"add", kernels};
  EXPECT(!add.resolve({contiguous, contiguous}), "no rule yet: a composite type converts to nothing");
  const std::string msg = add.explain({contiguous, contiguous});
  EXPECT(msg.find("no kernel of 'add' accepts (type#") == 0 && msg.find("has no conversion") != std::string::npos,
         "explain: %s", msg.c_str());
  // Named, the types read as the library calls them, in errors and in the
  // operator's introspection record.
  EXPECT(reg.set_name(contiguous, "f32 C-order") && reg.set_name(any, "f32 any-layout"), "naming");
  const std::string named = add.explain({contiguous, contiguous});
  EXPECT(named.find("no kernel of 'add' accepts (f32 C-order, f32 C-order) with casting=safe: (f32 any-layout, "
                    "f32 any-layout): f32 C-order->f32 any-layout has no conversion") == 0,
         "explain with names: %s", named.c_str());
  EXPECT(reg.name(strided) == "type#" + std::to_string(static_cast<int>(strided)), "unnamed: %s",
         reg.name(strided).c_str());
  EXPECT(reg.name(dtype::int8) == "int8", "built-in names");
  // Refused, naming nothing: a built-in type, a code never given out, a
  // name over k_max_name bytes.
  EXPECT(!reg.set_name(dtype::int8, "byte") && reg.name(dtype::int8) == "int8", "a built-in type keeps its name");
  EXPECT(!reg.set_name(static_cast<dtype>(4000), "x"), "a code never given out");
  EXPECT(!reg.set_name(strided, std::string(cpud::type_registry::k_max_name + 1, 'x')), "a name too long");
  char types_text[128];
  (void)add.resolve({dtype::float64, dtype::float64});  // registers the operator
  struct find_ctx {
    char *out;
  } ctx{types_text};
  types_text[0] = 0;
  cpud_for_each_operator(
      [](const cpud_operator *o, void *p) {
        if (o->self == nullptr || std::string(o->name) != "add" || o->kernel_count(o->self) != 2) return;
        o->kernel_types(o->self, 0, static_cast<find_ctx *>(p)->out, 128);
      },
      &ctx);
  EXPECT(std::string(types_text) == "(f32 any-layout, f32 any-layout)", "introspection names the types: %s",
         types_text);
  EXPECT(reg.declare(contiguous, any, conversion::safe), "C-contiguous -> any layout");
  EXPECT(reg.declare(strided, contiguous, conversion::promote), "strided -> contiguous");
  // Refused, changing nothing: an unknown code, the built-in matrix, kind none.
  EXPECT(!reg.declare(static_cast<dtype>(4000), any, conversion::safe), "a code never given out");
  EXPECT(!reg.declare(cpud::type_registry::k_invalid, any, conversion::safe), "the invalid code");
  EXPECT(!reg.declare(dtype::int32, dtype::float32, conversion::safe), "a built-in pair");
  EXPECT(!reg.declare(any, contiguous, conversion::none), "kind none");
  EXPECT(reg.convert(dtype::int32, dtype::float32) == conversion::unsafe, "the built-in matrix is unchanged");
  EXPECT(reg.convert(strided, any) == conversion::safe, "chained: strided -> contiguous -> any should be safe, is %s",
         cpud::conversion_name(reg.convert(strided, any)));
  EXPECT(reg.convert(any, contiguous) == conversion::none, "no rule back");
  // The same operator: results cached before the rules stop counting.
  const cpud::resolved<binary> &r = add.resolve({contiguous, contiguous});
  EXPECT(r && std::strcmp(r.k->name, "add_any_layout") == 0 && r.conv[0] == conversion::safe,
         "(C, C) should pick the any-layout kernel by safe conversions, got %s", r ? r.k->name : "nothing");
  const cpud::resolved<binary> &rs = add.resolve({strided, strided});
  EXPECT(rs && std::strcmp(rs.k->name, "add_any_layout") == 0, "(S, S) through the chain");
  // Through the built-in rules: any -> float32 makes float64 reachable by
  // chains as strict as their loosest step (safe), which ties with the
  // any-layout kernel: the call becomes ambiguous, naming both.
  EXPECT(reg.declare(any, dtype::float32, conversion::safe), "any -> float32");
  EXPECT(reg.convert(contiguous, dtype::float64) == conversion::safe,
         "contiguous -> any -> float32 -> float64 should be safe, is %s",
         cpud::conversion_name(reg.convert(contiguous, dtype::float64)));
  EXPECT(reg.convert(contiguous, dtype::int32) == conversion::unsafe, "contiguous -> ... -> int32 should be unsafe");
  const cpud::resolved<binary> &amb = add.resolve({contiguous, contiguous});
  const std::string why = add.explain({contiguous, contiguous});
  EXPECT(!amb && amb.kind == cpud::resolution::ambiguous &&
             why.find("2 kernels tie at 0 unsafe, 2 safe, 0 promoting conversions") != std::string::npos,
         "after any -> float32: expected an ambiguity, got: %s", why.c_str());
}

}  // namespace

int main() {
  interning();
  rules_take_part_in_ranking();
  if (failures) return 1;
  std::printf("PASS\n");
  return 0;
}
