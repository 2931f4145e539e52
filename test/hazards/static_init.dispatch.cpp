// A static initialiser in a dispatch source: its target builds must be
// rejected by cpudispatch-check (the initialiser would run at load time, on
// every CPU, compiled for the target). Never linked into a program.
#include "static_init.dispatch.h"

#include <vector>

static std::vector<double> g_table = {1.0, 2.0, 3.0};

double CPUD_FN(hz_static_init)(int i) { return g_table[static_cast<std::size_t>(i)]; }
