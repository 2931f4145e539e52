/* SPDX-License-Identifier: MIT */
// ZBA: shift-and-add address generation (sh1add); inline asm, as GCC 12 has no intrinsics for it;
// compiled with the target's flags, never run.
#if !defined(__riscv_zba)
#error "the flags did not enable ZBA"
#endif
int main(int argc, char **argv) {
  long r;
  (void)argv;
  __asm__("sh1add %0, %1, %2" : "=r"(r) : "r"((long)argc), "r"(3L));
  return (int)r;
}
