/* SPDX-License-Identifier: MIT */
// APX_F: code in one of the 16 new general registers (r16); compiled with
// the target's flags, never run.
#if !defined(__APX_F__)
#error "the flags did not enable APX"
#endif
int main(int argc, char **argv) {
  register long x __asm__("r16") = argc;
  (void)argv;
  __asm__ volatile("add %0, %0" : "+r"(x));
  return (int)x;
}
