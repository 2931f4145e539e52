/* SPDX-License-Identifier: MIT */
// ZBB: a basic bit-manipulation instruction (andn); inline asm, as GCC 12 has no intrinsics for it;
// compiled with the target's flags, never run.
#if !defined(__riscv_zbb)
#error "the flags did not enable ZBB"
#endif
int main(int argc, char **argv) {
  long r;
  (void)argv;
  __asm__("andn %0, %1, %2" : "=r"(r) : "r"((long)argc), "r"(3L));
  return (int)r;
}
