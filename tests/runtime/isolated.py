"""Shared by the native tests that generate their own rule files: the generated module loaded under a name of its
own (its ops kept out of the registry afterwards) and results compared as float64 arrays."""
import contextlib
import importlib.util
import os
import sys

import numpy as np

from runtime.tangents import ZeroTangent, unthunk


@contextlib.contextmanager
def loaded(path, prefix):
    """The generated module at `path`, imported as `<prefix>_<pid>`; the op registry restored on exit."""
    from runtime import registry
    saved = dict(registry._OPS)
    name = f"{prefix}_{os.getpid()}"
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    try:
        spec.loader.exec_module(mod)
        yield mod
    finally:
        registry._OPS.clear()
        registry._OPS.update(saved)
        del sys.modules[name]


def as_float64(v):
    """A result for comparison: thunks run, tuples item by item, a ZeroTangent as "zero", arrays as float64."""
    v = unthunk(v)
    if isinstance(v, tuple):
        return tuple(as_float64(a) for a in v)
    return "zero" if isinstance(v, ZeroTangent) else np.asarray(v, dtype=np.float64)
