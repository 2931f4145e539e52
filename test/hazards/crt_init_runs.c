/* The control for crt_init.dispatch.c: a .CRT$XCU entry runs before main
   in a MinGW program (exit 0), so a target build holding one would run
   target code at start-up on any CPU. */
#include <stdio.h>

static int g_ready;
static void crt_init(void) { g_ready = 1; }
__attribute__((section(".CRT$XCU"), used)) static void (*const crt_init_entry)(void) = crt_init;

int main(void) {
  printf("the .CRT$XCU entry %s before main\n", g_ready ? "ran" : "did not run");
  return g_ready ? 0 : 1;
}
