// Throughput of the demo kernels at L1, L2 and DRAM sizes: every compiled
// target the CPU can run (speed-up over baseline), the dispatched call, and
// the selected target's source compiled with the native-CPU flag
// (-march=native) as the reference a single-machine build would get.
// BM_stream_read measures this machine's read bandwidth for the DRAM case.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernels.h"

// The native twins: the same source per demo target, -march=native, symbols
// NAME_native_<TARGET> (bench/meson.build).
#define NATIVE_DECL(CHECK, T, ...)                                                        \
  float cpud_demo_sum_f32_native_##T(const float *, std::size_t);                         \
  float cpud_demo_dot_f32_native_##T(const float *, const float *, std::size_t);          \
  std::size_t cpud_demo_count_u8_native_##T(const std::uint8_t *, std::size_t, std::uint8_t);
#define NATIVE_DECL_B(...) NATIVE_DECL(1, baseline)
#if CPUD_BENCH_NATIVE
CPUD__DISPATCH_CALL(CPUD__NOCHK, NATIVE_DECL, ~)
CPUD__DISPATCH_BASELINE_CALL(NATIVE_DECL_B, ~)
#endif

namespace {

struct native_twin {
  const char *target;
  float (*sum)(const float *, std::size_t);
  float (*dot)(const float *, const float *, std::size_t);
  std::size_t (*count)(const std::uint8_t *, std::size_t, std::uint8_t);
};
#define NATIVE_ROW(CHECK, T, ...) \
  {#T, cpud_demo_sum_f32_native_##T, cpud_demo_dot_f32_native_##T, cpud_demo_count_u8_native_##T},
#define NATIVE_ROW_B(...) NATIVE_ROW(1, baseline)
const native_twin k_native[] = {
#if CPUD_BENCH_NATIVE
    CPUD__DISPATCH_CALL(CPUD__NOCHK, NATIVE_ROW, ~) CPUD__DISPATCH_BASELINE_CALL(NATIVE_ROW_B, ~)
#endif
    {nullptr, nullptr, nullptr, nullptr}};

const native_twin *native_of(const char *target) {
  for (const native_twin *t = k_native; t->target; ++t)
    if (!std::strcmp(t->target, target)) return t;
  return nullptr;
}

struct size_class {
  const char *name;
  std::size_t bytes;
};
const size_class k_sizes[] = {{"L1", 16 << 10}, {"L2", 256 << 10}, {"DRAM", 256 << 20}};

std::vector<float> &floats(std::size_t n, int which) {
  static std::vector<float> a, b;
  std::vector<float> &v = which ? b : a;
  if (v.size() < n) v.assign(n, which ? 0.5f : 1.25f);
  return v;
}
std::vector<std::uint8_t> &bytes(std::size_t n) {
  static std::vector<std::uint8_t> v;
  if (v.size() < n) {
    v.resize(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint8_t>(i * 31);
  }
  return v;
}

template <class Fn>
void run_sum(benchmark::State &st, Fn fn, std::size_t bytes_n) {
  std::size_t n = bytes_n / sizeof(float);
  const float *p = floats(n, 0).data();
  for (auto _ : st) benchmark::DoNotOptimize(fn(p, n));
  st.SetBytesProcessed(static_cast<int64_t>(st.iterations() * n * sizeof(float)));
}
template <class Fn>
void run_dot(benchmark::State &st, Fn fn, std::size_t bytes_n) {
  std::size_t n = bytes_n / (2 * sizeof(float));
  const float *x = floats(n, 0).data(), *y = floats(n, 1).data();
  for (auto _ : st) benchmark::DoNotOptimize(fn(x, y, n));
  st.SetBytesProcessed(static_cast<int64_t>(st.iterations() * n * 2 * sizeof(float)));
}
template <class Fn>
void run_count(benchmark::State &st, Fn fn, std::size_t bytes_n) {
  const std::uint8_t *p = bytes(bytes_n).data();
  for (auto _ : st) benchmark::DoNotOptimize(fn(p, bytes_n, std::uint8_t{7}));
  st.SetBytesProcessed(static_cast<int64_t>(st.iterations() * bytes_n));
}

// Single-thread read bandwidth of this machine, the reference for DRAM: the
// best of the C library's vectorised scan (memchr over zeros) and a scalar
// loop with eight independent sums (loads never the bottleneck), each over
// 256 MiB. Neither uses cpudispatch.
std::vector<std::uint64_t> &stream_buffer() {
  static std::vector<std::uint64_t> v((256u << 20) / sizeof(std::uint64_t), 0);
  return v;
}
void BM_stream_read_memchr(benchmark::State &st) {
  auto &v = stream_buffer();
  const std::size_t bytes = v.size() * sizeof(std::uint64_t);
  for (auto _ : st) benchmark::DoNotOptimize(std::memchr(v.data(), 1, bytes));
  st.SetBytesProcessed(static_cast<int64_t>(st.iterations() * bytes));
}
BENCHMARK(BM_stream_read_memchr);
void BM_stream_read_scalar8(benchmark::State &st) {
  auto &v = stream_buffer();
  const std::uint64_t *p = v.data();
  const std::size_t n = v.size();
  for (auto _ : st) {
    std::uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
    for (std::size_t i = 0; i < n; i += 8) {
      s0 += p[i], s1 += p[i + 1], s2 += p[i + 2], s3 += p[i + 3];
      s4 += p[i + 4], s5 += p[i + 5], s6 += p[i + 6], s7 += p[i + 7];
    }
    benchmark::DoNotOptimize(s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7);
  }
  st.SetBytesProcessed(static_cast<int64_t>(st.iterations() * n * sizeof(std::uint64_t)));
}
BENCHMARK(BM_stream_read_scalar8);

template <class D, class Run, class NativeOf>
void register_kernel(const char *kernel, const D &d, Run run, NativeOf native_fn) {
  for (const size_class &sz : k_sizes) {
    std::size_t b = sz.bytes;
    for (auto *e = d.targets(); e->fn; ++e) {
      if (!D::usable(*e)) continue;
      auto fn = e->fn;
      benchmark::RegisterBenchmark((std::string(kernel) + "/" + e->name + "/" + sz.name).c_str(),
                                   [=](benchmark::State &st) { run(st, fn, b); });
    }
    benchmark::RegisterBenchmark((std::string(kernel) + "/dispatched/" + sz.name).c_str(),
                                 [=, &d](benchmark::State &st) { run(st, [&d](auto... a) { return d(a...); }, b); });
    if (const native_twin *t = native_of(d.selected_name())) {
      auto fn = native_fn(t);
      benchmark::RegisterBenchmark((std::string(kernel) + "/native-march/" + sz.name).c_str(),
                                   [=](benchmark::State &st) { run(st, fn, b); });
    }
  }
}

}  // namespace

int main(int argc, char **argv) {
  register_kernel("sum_f32", cpud_demo_sum_f32, [](auto &st, auto fn, std::size_t b) { run_sum(st, fn, b); },
                  [](const native_twin *t) { return t->sum; });
  register_kernel("dot_f32", cpud_demo_dot_f32, [](auto &st, auto fn, std::size_t b) { run_dot(st, fn, b); },
                  [](const native_twin *t) { return t->dot; });
  register_kernel("count_u8", cpud_demo_count_u8, [](auto &st, auto fn, std::size_t b) { run_count(st, fn, b); },
                  [](const native_twin *t) { return t->count; });
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
