/* SPDX-License-Identifier: MIT */
// ZBS: a single-bit instruction (bset); inline asm, as GCC 12 has no intrinsics for it;
// compiled with the target's flags, never run.
#if !defined(__riscv_zbs)
#error "the flags did not enable ZBS"
#endif
int main(int argc, char **argv) {
  long r;
  (void)argv;
  __asm__("bset %0, %1, %2" : "=r"(r) : "r"((long)argc), "r"(3L));
  return (int)r;
}
