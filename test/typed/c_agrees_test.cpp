// The C runtime's typed entry points (src/runtime/typed.c: cpud_can_convert,
// cpud_resolve) against the header-only C++ layer (dtype.hpp, resolve.hpp),
// which test dtype-conversions checks against Numba's own table: both are
// made from one rule list (dtype_rules.h), but each closes it and ranks
// candidates in its own language, so every pair and many random calls must
// agree.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "cpudispatch/dtype.h"
#include "cpudispatch/resolve.hpp"

int main(int argc, char **argv) {
  const int calls = argc > 1 ? std::atoi(argv[1]) : 200000;
  int failures = 0;
  const int n_types = cpud::k_builtin_dtypes;
  for (int f = -1; f <= n_types; ++f)
    for (int t = -1; t <= n_types; ++t) {
      const int c = cpud_can_convert(f, t);
      const int cxx = f < 0 || t < 0 || f >= n_types || t >= n_types
                          ? CPUD_CONV_NONE
                          : static_cast<int>(cpud::can_convert(static_cast<cpud::dtype>(f), static_cast<cpud::dtype>(t)));
      if (c != cxx && failures++ < 10) std::printf("FAIL: can_convert(%d, %d): C %d, C++ %d\n", f, t, c, cxx);
    }
  // Random calls: few types (so ties and exact matches are common), an
  // occasional code past the built-in ones, every casting limit and tie rule.
  std::mt19937 rng(12345);
  auto pick_type = [&] {
    const unsigned r = rng() % 20;
    return static_cast<std::uint16_t>(r < 18 ? rng() % static_cast<unsigned>(n_types) : n_types + rng() % 3);
  };
  int outcomes[4] = {0, 0, 0, 0};  // ok, no match, ambiguous, bad input
  for (int i = 0; i < calls; ++i) {
    const int n = static_cast<int>(rng() % 4), n_cands = static_cast<int>(rng() % 12);
    const int casting = static_cast<int>(rng() % 4), tie = static_cast<int>(rng() % 3);
    std::vector<std::uint16_t> args(8), types(static_cast<std::size_t>(n_cands * n + 1));
    for (int a = 0; a < n; ++a) args[static_cast<std::size_t>(a)] = pick_type();
    for (auto &x : types) x = pick_type();
    int tied[2] = {-9, -9};
    const int c = cpud_resolve(args.data(), n, types.data(), n_cands, casting, tie, tied);
    std::vector<cpud::dtype> a(8), ty(types.size());
    for (std::size_t k = 0; k < types.size(); ++k) ty[k] = static_cast<cpud::dtype>(types[k]);
    for (int a_i = 0; a_i < 8; ++a_i) a[static_cast<std::size_t>(a_i)] = static_cast<cpud::dtype>(args[static_cast<std::size_t>(a_i)]);
    std::vector<cpud::signature> sigs(static_cast<std::size_t>(n_cands));
    for (int k = 0; k < n_cands; ++k) sigs[static_cast<std::size_t>(k)] = {ty.data() + k * n, n};
    const cpud::resolution r = cpud::resolve(a.data(), n, sigs.data(), n_cands, static_cast<cpud::casting>(casting),
                                             static_cast<cpud::tie_rule>(tie));
    const int cxx = r.kind == cpud::resolution::ok ? r.index : r.kind == cpud::resolution::ambiguous ? -2 : -1;
    bool same = c == cxx;
    if (same && c == -2) same = tied[0] == r.tied[0] && tied[1] == r.tied[1];
    ++outcomes[c >= 0 ? 0 : c == -1 ? 1 : c == -2 ? 2 : 3];
    if (!same && failures++ < 10)
      std::printf("FAIL: call %d (n %d, %d candidates, casting %d, tie %d): C %d, C++ %d\n", i, n, n_cands, casting, tie,
                  c, cxx);
  }
  std::printf("%d calls: %d chose a kernel, %d matched none, %d tied, %d bad input\n", calls, outcomes[0], outcomes[1],
              outcomes[2], outcomes[3]);
  // The calls must have reached every outcome the C function can give a
  // valid call, or the comparison proves little.
  if (outcomes[0] == 0 || outcomes[1] == 0 || outcomes[2] == 0) {
    std::printf("FAIL: the random calls did not reach every outcome\n");
    ++failures;
  }
  std::printf("%s\n", failures ? "FAILED" : "PASS");
  return failures ? 1 : 0;
}
