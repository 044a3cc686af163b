# isort: skip_file
"""The plain namespace generated code runs on: NumPy itself plus the few functions it lacks.

`_define(np)` in a generated module receives this module; any name not defined here falls back to NumPy.
The rule language's built-ins NumPy lacks come from primitives.special, named by primitives.elementwise.
"""
from __future__ import annotations

import importlib as _importlib
import sys as _sys

import numpy as _numpy
from numpy import *  # noqa: F401,F403  (the namespace *is* NumPy's)
from numpy import linalg, abs, sum, prod, max, min, round, pi, e, inf, nan, newaxis  # noqa: F401

from primitives import special as _special
from primitives.elementwise import ROWS as _ROWS
from primitives.matrix import Calls
from primitives.special import adjugate, erfc, others_product  # noqa: F401

def _on_first_call(ref):
    """module:attribute of an optional dependency (scipy.special:erfinv), imported when first called."""
    module, attr = ref.split(":")
    found = []

    def fn(*args, **kw):
        if not found:
            found.append(getattr(_importlib.import_module(module), attr))
        return found[0](*args, **kw)
    fn.__name__ = attr
    return fn


for _row in _ROWS:
    if _row.impl is not None:
        globals()[_row.numpy] = _on_first_call(_row.impl) if ":" in _row.impl else getattr(_special, _row.impl)


def __getattr__(name):
    return getattr(_numpy, name)


def lse_functions(xp):
    """lse_shift and logsumexp over the namespace xp (NumPy here; jax.numpy and runtime.tnp use the same two,
    torch spells its own).

    lse_shift(x, axis): the shift of a log-sum-exp over `axis` (derive/emission/numpy_print.py's _lse_parts), the maximum
    with its axes kept at extent 1, and 0 where that is not finite (all -inf, some +inf, a NaN, an empty axis),
    so that x - shift is never -inf - (-inf). logsumexp(x, axis): log Σ exp(x) over `axis` (those axes dropped)
    without overflow, shifted by it: what the generated code computed in line before the whole log-sum-exp was
    one namespace call."""
    def lse_shift(x, axis):
        m = xp.max(x, axis=axis, keepdims=True, initial=-_numpy.inf)
        return xp.where(xp.isfinite(m), m, 0.0)

    def logsumexp(x, axis):
        m = lse_shift(x, axis)
        return xp.log(xp.sum(xp.exp(x - m), axis=axis)) + xp.sum(m, axis=axis)
    return lse_shift, logsumexp


lse_shift, logsumexp = lse_functions(_numpy)


prim = Calls(_sys.modules[__name__])  # the matrix primitives' declared functions, over this namespace (np.prim.inv.forward)

from runtime.shifts import window as shift_window, scatter as shift_scatter  # noqa: E402,F401  (x[i+k])
from runtime.contract import einsum  # noqa: E402,F401  (pairs as one GEMM in the operands' memory order)
