// Library a's dispatch source: twin_kernel.h with its own header.
#define TWIN_HEADER "twin_a.dispatch.h"
#define TWIN_LIB_NAME "a"
#include "twin_kernel.h"
