/* Compiled with the exact command of examples/pyext's core_init.c (test
 * pyext-global-march): loops a compiler vectorises with whatever the flags
 * allow, so the floor flags' effect shows in the instructions. */
void probe_fma(float *restrict o, const float *restrict a, const float *restrict b, int n) {
  for (int i = 0; i < n; ++i) o[i] = a[i] * b[i] + o[i];
}
unsigned probe_bits(const unsigned *x, int n) {
  unsigned s = 0;
  for (int i = 0; i < n; ++i) s += x[i] >> (x[i] & 7);
  return s;
}
