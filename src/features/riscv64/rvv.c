/* SPDX-License-Identifier: MIT */
// RVV: vsetivli, load, add, store as inline asm (GCC 12 has no riscv_vector.h); compiled with the target's flags, never run
int main(int argc, char **argv) {
  int in[4], out[4], i;
  unsigned long vl;
  (void)argv;
  for (i = 0; i < 4; i++) in[i] = argc + i;
  __asm__ volatile("vsetivli %0, 4, e32, m1, ta, ma\n\t"
                   "vle32.v v8, (%1)\n\t"
                   "vadd.vv v8, v8, v8\n\t"
                   "vse32.v v8, (%2)"
                   : "=&r"(vl) : "r"(in), "r"(out)
#if defined(__clang__)
                   : "v8", "memory");
#else
                   : "memory");
#endif
  return out[3] + (int)vl;
}
