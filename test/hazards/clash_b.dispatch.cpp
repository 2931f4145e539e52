// Target-only dispatch source b of the clash fixture (see clash_shared.h).
#include "clash_b.dispatch.h"
#include "clash_shared.h"

const char *CPUD_FN(clash_b)() { return clash_built_for(); }
