/* SPDX-License-Identifier: MIT */
// SME: zero the ZA array in streaming mode (the ACLE's SME attributes);
// compiled with the target's flags, never run.
#include <arm_sme.h>
__arm_new("za") static void clear(void) __arm_streaming { svzero_za(); }
int main(int argc, char **argv) {
  (void)argv;
  if (argc > 1) clear();
  return 0;
}
