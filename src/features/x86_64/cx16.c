/* SPDX-License-Identifier: MIT */
// CX16: -mcx16 enables the inline 16-byte compare-and-swap; compiled with the target's flags, never run
#if !defined(__GCC_HAVE_SYNC_COMPARE_AND_SWAP_16)
#error "-mcx16 did not enable 16-byte compare-and-swap"
#endif
int main(int argc, char **argv) {
  static __int128 v;
  (void)argv;
  return __sync_bool_compare_and_swap(&v, (__int128)0, (__int128)argc);
}
