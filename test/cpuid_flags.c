/* Prints this CPU's flags as the test's own CPUID reader sees them
 * (test/cpuid_flags.h), space-separated on one line, in the kernel's
 * /proc/cpuinfo spelling: test/cpu_facts.py adds them to what the kernel
 * lists. Exit 77 off x86. */
#include "cpuid_flags.h"

int main(void) {
#if defined(__x86_64__) || defined(__i386__)
  char buf[4096];
  oracle_live_flags(buf, sizeof buf);
  printf("%s\n", buf);
  return 0;
#else
  return 77;
#endif
}
