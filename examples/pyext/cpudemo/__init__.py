"""A NumPy ufunc whose loops are cpudispatch kernels (examples/pyext)."""
from ._core import (__cpu_baseline__, __cpu_dispatch__, __cpu_features__, fastadd,  # noqa: F401
                    opt_func_info, resolve_types)
