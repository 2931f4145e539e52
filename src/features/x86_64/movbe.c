/* SPDX-License-Identifier: MIT */
// MOVBE: a big-endian store and load; compiled with the target's flags, never run
#include <immintrin.h>
int main(int argc, char **argv) {
  static int v;
  (void)argv;
  _storebe_i32(&v, argc);
  return _loadbe_i32(&v);
}
