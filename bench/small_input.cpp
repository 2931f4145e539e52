// Small inputs, where the call is most of the cost: the same kernel
// (bench/small.dispatch.c) reached directly, through a cached dispatched
// call from C (selection out of line, and inline as before), through a
// library's own lazily set pointer, and through the C++ dispatcher; each
// from a library's API function in another TU (small_api*.c*).
// bench/report.py prints the ratios to the direct call, and the
// instructions each API function executes per call (bench/small_calls.c
// under callgrind).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>


extern "C" {
std::uint64_t bench_small_direct(const void *, std::size_t, std::uint64_t);
std::uint64_t bench_small_cached(const void *, std::size_t, std::uint64_t);
std::uint64_t bench_small_cached_inline(const void *, std::size_t, std::uint64_t);
std::uint64_t bench_small_own(const void *, std::size_t, std::uint64_t);
std::uint64_t bench_small_cxx(const void *, std::size_t, std::uint64_t);
}

namespace {

template <std::uint64_t (*F)(const void *, std::size_t, std::uint64_t)>
void run(benchmark::State &state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  std::vector<unsigned char> buf(n);
  for (std::size_t i = 0; i < n; ++i) buf[i] = static_cast<unsigned char>(i * 7 + 1);
  std::uint64_t h = 0;
  for (auto _ : state) {
    h = F(buf.data(), n, h);
    benchmark::DoNotOptimize(h);
  }
}

#define SIZES Arg(16)->Arg(64)->Arg(240)
BENCHMARK_TEMPLATE(run, bench_small_direct)->Name("BM_small_direct")->SIZES;
BENCHMARK_TEMPLATE(run, bench_small_cached)->Name("BM_small_cached")->SIZES;
BENCHMARK_TEMPLATE(run, bench_small_cached_inline)->Name("BM_small_cached_inline")->SIZES;
BENCHMARK_TEMPLATE(run, bench_small_own)->Name("BM_small_own")->SIZES;
BENCHMARK_TEMPLATE(run, bench_small_cxx)->Name("BM_small_cxx")->SIZES;

}  // namespace

BENCHMARK_MAIN();
