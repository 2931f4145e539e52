// Library b's dispatch source: twin_kernel.h with its own header.
#define TWIN_HEADER "twin_b.dispatch.h"
#define TWIN_LIB_NAME "b"
#include "twin_kernel.h"
