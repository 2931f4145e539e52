/* Calls each API function over the small kernel (bench/small_api*.c*) N
 * times on 16 bytes, for bench/report.py to count under callgrind the
 * instructions each executes per call: exact, whatever else the machine
 * does.
 *
 *   small_calls N */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

uint64_t bench_small_direct(const void *, size_t, uint64_t);
uint64_t bench_small_cached(const void *, size_t, uint64_t);
uint64_t bench_small_cached_inline(const void *, size_t, uint64_t);
uint64_t bench_small_own(const void *, size_t, uint64_t);
uint64_t bench_small_cxx(const void *, size_t, uint64_t);

int main(int argc, char **argv) {
  const long n = argc > 1 ? atol(argv[1]) : 1000;
  unsigned char buf[16];
  for (int i = 0; i < 16; ++i) buf[i] = (unsigned char)(i * 7 + 1);
  uint64_t (*const fns[])(const void *, size_t, uint64_t) = {bench_small_direct, bench_small_cached,
                                                             bench_small_cached_inline, bench_small_own,
                                                             bench_small_cxx};
  uint64_t h = 0;
  for (size_t f = 0; f < sizeof fns / sizeof fns[0]; ++f)
    for (long i = 0; i < n; ++i) h = fns[f](buf, sizeof buf, h);
  printf("%llu\n", (unsigned long long)h);
  return 0;
}
