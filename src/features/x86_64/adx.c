/* SPDX-License-Identifier: MIT */
// ADX: an add with carry through ADCX/ADOX; compiled with the target's flags, never run.
#include <immintrin.h>
int main(int argc, char **argv) {
  unsigned long long out;
  (void)argv;
  unsigned char c = _addcarryx_u64(0, (unsigned long long)argc, ~0ull, &out);
  return (int)out + c;
}
