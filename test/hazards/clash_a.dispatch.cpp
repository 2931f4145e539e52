// Target-only dispatch source a of the clash fixture (see clash_shared.h).
#include "clash_a.dispatch.h"
#include "clash_shared.h"

const char *CPUD_FN(clash_a)() { return clash_built_for(); }
