/* The module's entry point, compiled at the arch's floor (meson.build gives
 * it cpudispatch_floor_args, not the baseline flags): Python calls it right
 * after loading the module, before any code built for the baseline may run
 * here. On a CPU below the baseline, or with a bad PREFIX_DISABLE/ENABLE
 * variable, the import raises ImportError with the line the start-up check
 * of a program prints; the interpreter goes on. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "cpudispatch/cpudispatch.h"

/* core.cpp, built for the baseline. */
PyObject *cpudemo_core_create(void);

PyMODINIT_FUNC PyInit__core(void) {
  char msg[2048];
  if (cpud_host_init(msg, sizeof msg) != 0) {
    PyErr_SetString(PyExc_ImportError, msg);
    return NULL;
  }
  return cpudemo_core_create();
}
