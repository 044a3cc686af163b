"""The plain namespace generated code runs on: NumPy itself plus the few functions it lacks.

`_define(np)` in a generated module receives this module; any name not defined here falls back to NumPy.
"""
from __future__ import annotations

import numpy as _numpy
from numpy import *  # noqa: F401,F403  (the namespace *is* NumPy's)
from numpy import linalg, abs, sum, prod, max, min, round, pi, e, inf, nan, newaxis  # noqa: F401

from runtime.special import adjugate, erf, erfc, sigmoid, softplus  # noqa: F401


def relu(x):
    return _numpy.maximum(x, 0)


def __getattr__(name):
    return getattr(_numpy, name)


def _prim_calls():
    import sys

    from runtime.primitives import Calls

    return Calls(sys.modules[__name__])


prim = _prim_calls()  # the matrix primitives' declared functions, over this namespace (np.prim.inv.forward)
