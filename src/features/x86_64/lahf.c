/* SPDX-License-Identifier: MIT */
// LAHF: sahf and lahf assemble in 64-bit mode; compiled with the target's flags, never run
int main(int argc, char **argv) {
  unsigned char ah = (unsigned char)argc;
  (void)argv;
  __asm__ volatile("sahf\n\tlahf" : "+a"(ah) : : "cc");
  return ah;
}
