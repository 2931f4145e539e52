// cpudemo._core, built for the baseline: the ufunc fastadd over the kernels
// of a cpudispatch typed operator, the module's CPU attributes and
// opt_func_info(). It runs only after PyInit__core (core_init.c, built at
// the floor) has checked the CPU and the environment variables. Nothing here
// runs at load time: no static constructor (the operator is a function-local
// static, made on first use), so no baseline instruction runs before that
// check.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <numpy/arrayobject.h>
#include <numpy/ufuncobject.h>

#include <cstddef>
#include <string>
#include <type_traits>

#include "cpudispatch/operator.hpp"
#include "loops.dispatch.h"

// NumPy's loop type, spelled without NumPy in loops.dispatch.cpp.
using loop_fn = void (*)(char **, const std::ptrdiff_t *, const std::ptrdiff_t *, void *);
static_assert(std::is_same<npy_intp, std::ptrdiff_t>::value, "npy_intp is ptrdiff_t");

CPUD_DISPATCH(void, cpudemo_add_i8, (char **, const std::ptrdiff_t *, const std::ptrdiff_t *, void *));
CPUD_DISPATCH(void, cpudemo_add_i16, (char **, const std::ptrdiff_t *, const std::ptrdiff_t *, void *));
CPUD_DISPATCH(void, cpudemo_add_i32, (char **, const std::ptrdiff_t *, const std::ptrdiff_t *, void *));
CPUD_DISPATCH(void, cpudemo_add_i64, (char **, const std::ptrdiff_t *, const std::ptrdiff_t *, void *));
CPUD_DISPATCH(void, cpudemo_add_f32, (char **, const std::ptrdiff_t *, const std::ptrdiff_t *, void *));
CPUD_DISPATCH(void, cpudemo_add_f64, (char **, const std::ptrdiff_t *, const std::ptrdiff_t *, void *));

namespace {

using cpud::dtype;

// The operator's kernels, narrowest first: NumPy's resolver takes the first
// registered loop every input casts to safely, so this order and the
// operator's rule (fewest unsafe, safe, promoting conversions under NumPy's
// casting table; a tie to the first kernel in this order) pick the same
// loop (tests/: every pair of dtypes).
constexpr cpud::kernel<loop_fn> k_add[] = {
    CPUD_KERNEL(cpudemo_add_i8, dtype::int8, dtype::int8),
    CPUD_KERNEL(cpudemo_add_i16, dtype::int16, dtype::int16),
    CPUD_KERNEL(cpudemo_add_i32, dtype::int32, dtype::int32),
    CPUD_KERNEL(cpudemo_add_i64, dtype::int64, dtype::int64),
    CPUD_KERNEL(cpudemo_add_f32, dtype::float32, dtype::float32),
    CPUD_KERNEL(cpudemo_add_f64, dtype::float64, dtype::float64),
};
constexpr int k_loops = sizeof k_add / sizeof k_add[0];

cpud::op<loop_fn> &add_op() {
  static cpud::op<loop_fn> op{"fastadd", k_add, cpud::casting::safe, cpud::tie_rule::first,
                              cpud::can_cast_numpy};
  return op;
}

struct type_pair {
  int npy;
  dtype cpud;
};
constexpr type_pair k_types[] = {
    {NPY_BOOL, dtype::bool_},      {NPY_INT8, dtype::int8},       {NPY_INT16, dtype::int16},
    {NPY_INT32, dtype::int32},     {NPY_INT64, dtype::int64},     {NPY_UINT8, dtype::uint8},
    {NPY_UINT16, dtype::uint16},   {NPY_UINT32, dtype::uint32},   {NPY_UINT64, dtype::uint64},
    {NPY_FLOAT16, dtype::float16}, {NPY_FLOAT32, dtype::float32}, {NPY_FLOAT64, dtype::float64},
    {NPY_COMPLEX64, dtype::complex64}, {NPY_COMPLEX128, dtype::complex128},
};

int npy_of(dtype t) {
  for (const type_pair &p : k_types)
    if (p.cpud == t) return p.npy;
  return -1;
}

// NumPy's type number of a descriptor, as the sized type (NPY_LONG and
// NPY_LONGLONG are both int64 here).
bool cpud_of(PyArray_Descr *d, dtype *out) {
  for (const type_pair &p : k_types) {
    PyArray_Descr *e = PyArray_DescrFromType(p.npy);
    const bool same = PyArray_EquivTypes(d, e);
    Py_DECREF(e);
    if (same) {
      *out = p.cpud;
      return true;
    }
  }
  return false;
}

// Every loop of fastadd: the kernel of its slot in `data`; its selected ISA
// build is one load after the first call (the env variables, a thread's
// cpud::exclude_features guard and cpud_set_disabled_features apply).
void call_kernel(char **args, const npy_intp *dims, const npy_intp *steps, void *data) {
  static_cast<const cpud::kernel<loop_fn> *>(data)->get()(args, dims, steps, nullptr);
}

PyUFuncGenericFunction g_funcs[k_loops];
void *g_data[k_loops];
char g_types[3 * k_loops];

// "bb->b", as ufunc.types spells a loop.
std::string loop_name(int i) {
  PyArray_Descr *d = PyArray_DescrFromType(npy_of(k_add[i].types[0]));
  const char c = d->type;
  Py_DECREF(d);
  return std::string(1, c) + c + "->" + c;
}

PyObject *names_list(const cpud::feature_set &s) {
  PyObject *l = PyList_New(0);
  for (int id = 1; l && id <= CPUD_FEATURE_COUNT; ++id) {
    if (!s.has(id)) continue;
    PyObject *n = PyUnicode_FromString(cpud_feature_name(id));
    if (!n || PyList_Append(l, n) < 0) Py_CLEAR(l);
    Py_XDECREF(n);
  }
  return l;
}

// {'fastadd': {'bb->b': {'current': 'AVX512_SKX', 'available': [...]}, ...}}:
// NumPy's opt_func_info() layout, for this module's one ufunc.
PyObject *opt_func_info(PyObject *, PyObject *) {
  PyObject *loops = PyDict_New();
  for (int i = 0; loops && i < k_loops; ++i) {
    PyObject *avail = PyList_New(0);
    for (const auto *e = k_add[i].targets(); avail && e->fn; ++e) {
      PyObject *n = PyUnicode_FromString(e->name);
      if (!n || PyList_Append(avail, n) < 0) Py_CLEAR(avail);
      Py_XDECREF(n);
    }
    PyObject *info = avail ? Py_BuildValue("{s:s,s:N}", "current", k_add[i].target_name(), "available", avail) : nullptr;
    if (!info || PyDict_SetItemString(loops, loop_name(i).c_str(), info) < 0) Py_CLEAR(loops);
    Py_XDECREF(info);
  }
  return loops ? Py_BuildValue("{s:N}", "fastadd", loops) : nullptr;
}

// The loop cpudispatch's operator picks for two input dtypes: its dtype
// name, or None when no kernel takes them (or two tie).
PyObject *resolve_types(PyObject *, PyObject *args) {
  PyArray_Descr *a = nullptr, *b = nullptr;
  if (!PyArg_ParseTuple(args, "O&O&", PyArray_DescrConverter, &a, PyArray_DescrConverter, &b)) return nullptr;
  dtype ta, tb;
  const bool known = cpud_of(a, &ta) && cpud_of(b, &tb);
  Py_DECREF(a);
  Py_DECREF(b);
  if (!known) {
    PyErr_SetString(PyExc_TypeError, "resolve_types: not a type the operator knows");
    return nullptr;
  }
  const cpud::resolved<loop_fn> &r = add_op().resolve({ta, tb});
  if (!r) Py_RETURN_NONE;
  return PyUnicode_FromString(cpud::dtype_name(r.k->types[0]));
}

PyMethodDef k_methods[] = {
    {"opt_func_info", opt_func_info, METH_NOARGS,
     "opt_func_info() -> {'fastadd': {loop: {'current': target, 'available': [targets]}}}"},
    {"resolve_types", resolve_types, METH_VARARGS,
     "resolve_types(dtype1, dtype2) -> the loop's dtype name cpudispatch's operator picks, or None"},
    {nullptr, nullptr, 0, nullptr}};

PyModuleDef k_module = {PyModuleDef_HEAD_INIT, "_core", "fastadd: a NumPy ufunc on cpudispatch kernels", -1,
                        k_methods, nullptr, nullptr, nullptr, nullptr};

int add_object(PyObject *m, const char *name, PyObject *o) {
  if (!o) return -1;
  if (PyModule_AddObject(m, name, o) < 0) {
    Py_DECREF(o);
    return -1;
  }
  return 0;
}

PyObject *create() {
  import_array();
  import_umath();
  PyObject *m = PyModule_Create(&k_module);
  if (!m) return nullptr;
  for (int i = 0; i < k_loops; ++i) {
    g_funcs[i] = call_kernel;
    g_data[i] = const_cast<cpud::kernel<loop_fn> *>(&k_add[i]);
    for (int j = 0; j < 3; ++j) g_types[3 * i + j] = static_cast<char>(npy_of(k_add[i].types[0]));
  }
  PyObject *ufunc = PyUFunc_FromFuncAndData(g_funcs, g_data, g_types, k_loops, 2, 1, PyUFunc_Zero, "fastadd",
                                            "fastadd(x1, x2, /, out=None, ...): x1 + x2, by cpudispatch kernels", 0);
  cpud::feature_set dispatch;
#define CPUDEMO_D(NAME) dispatch |= CPUD_BIT(NAME);
  CPUD_WITH_DISPATCH(CPUDEMO_D)
#undef CPUDEMO_D
  PyObject *features = PyDict_New();
  for (int id = 1; features && id <= CPUD_FEATURE_COUNT; ++id)
    if (PyDict_SetItemString(features, cpud_feature_name(id), cpud_have(id) ? Py_True : Py_False) < 0)
      Py_CLEAR(features);
  if (add_object(m, "fastadd", ufunc) < 0 || add_object(m, "__cpu_baseline__", names_list(cpud_baseline_mask())) < 0 ||
      add_object(m, "__cpu_dispatch__", names_list(dispatch)) < 0 ||
      add_object(m, "__cpu_features__", features) < 0) {
    Py_DECREF(m);
    return nullptr;
  }
  return m;
}

}  // namespace

extern "C" PyObject *cpudemo_core_create(void) { return create(); }
