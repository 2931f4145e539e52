/* Not part of the runtime: a probe compiled by floor_consumer.py with the
 * runtime's own compile command (the source swapped), with and without the
 * floor flags. The loops vectorise with whatever the command allows (AVX2 /
 * VEX on x86 with -march=haswell, udot with +dotprod on aarch64) and the
 * compare-exchange is one Armv8.1 LSE instruction when the flags allow it,
 * so the probe shows that the checker detects above-floor code, and that it
 * is the floor flags that take it away. C, as the runtime is. */
#include <stddef.h>

unsigned cpud_floor_probe_dot(const unsigned char *a, const unsigned char *b, size_t n) {
  unsigned s = 0;
  for (size_t i = 0; i < n; ++i) s += (unsigned)a[i] * b[i];
  return s;
}

void cpud_floor_probe_axpy(float *y, const float *x, float k, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = k * x[i] + y[i];
}

int cpud_floor_probe_cas(long *p, long expected, long desired) {
  return __atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}
