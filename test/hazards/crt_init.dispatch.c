/* An entry in the C runtime's table of start-up functions (.CRT$XCU, where
   MSVC-style code puts its initialisers) in a dispatch source, Windows
   builds only: cpudispatch-check must reject its target builds, since
   the CRT would call the function on every CPU before any dispatch. Never
   linked into a program; crt_init_runs.c shows the CRT runs such entries. */
#include "crt_init.dispatch.h"

static int g_ready;
static void crt_init(void) { g_ready = 1; }
__attribute__((section(".CRT$XCU"), used)) static void (*const crt_init_entry)(void) = crt_init;

int CPUD_FN(hz_crt_init)(void) { return g_ready; }
