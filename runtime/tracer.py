"""Tracing core shared by reverse and forward mode: trace levels, the `Traced` value and `Primitive` dispatch.

Knows nothing of NumPy's functions: a primitive only has to offer `rrule_impl` and `frule_impl`.
Nested differentiation works by levels (autograd's trace ids): a primitive applied to values traced at
several levels is handled by the innermost (highest) trace, which calls it again on the unboxed values.
"""
from __future__ import annotations

import itertools

import numpy

_levels = itertools.count(1)


class Trace:
    """One differentiation in progress; `level` orders nested traces (inner > outer)."""

    __slots__ = ("level",)

    def __init__(self):
        self.level = next(_levels)

    def apply(self, prim, args, kwargs):  # pragma: no cover - abstract
        raise NotImplementedError


class Traced:
    """A value seen by a trace. Operators route to `runtime.tnp`, so user code reads like NumPy."""

    __slots__ = ("_value", "_trace")

    # Set by runtime.tnp (ufunc / array-function dispatch tables) once it is imported.
    ufunc_table: dict = {}
    function_table: dict = {}

    # --- array-like attributes --------------------------------------------------------------
    @property
    def shape(self):
        return shape_of(self._value)

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        n = 1
        for s in self.shape:
            n *= s
        return n

    @property
    def dtype(self):
        return dtype_of(self._value)

    def __len__(self):
        return len(self._value)

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __bool__(self):
        return bool(getval(self))

    def __float__(self):
        # float(x) (and math.exp(x), which calls it) would silently drop the derivative, as np.asarray would.
        # int(x) and bool(x) stay allowed: they are piecewise constant, their derivative is zero anyway.
        raise TypeError(f"float() of a traced value ({type(self).__name__}) would drop its derivative inside a "
                        f"differentiated function; keep it an array (use runtime.tnp / NumPy instead of math), or "
                        f"float(runtime.tracer.getval(x)) to drop the derivative on purpose")

    __complex__ = __float__

    def __int__(self):
        return int(getval(self))

    def __index__(self):
        return int(getval(self))

    __hash__ = object.__hash__

    def __repr__(self):
        return f"{type(self).__name__}({self._value!r}, level={self._trace.level})"

    # --- NumPy interoperability: `np.exp(box)`, `ndarray + box`, `np.sum(box)` ---------------
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        fn = self.ufunc_table.get(ufunc.__name__) if method == "__call__" else None
        if fn is None or kwargs.get("out") is not None:
            return NotImplemented
        kwargs.pop("out", None)
        return fn(*inputs, **kwargs)

    def __array__(self, dtype=None, copy=None):
        # np.asarray(traced) would silently drop the derivative: refuse, and say what to do instead
        raise TypeError(f"a traced value ({type(self).__name__}) cannot become a plain NumPy array inside a "
                        f"differentiated function; use NumPy functions/operators on it (or runtime.tnp), or "
                        f"runtime.tracer.getval(x) to drop the derivative on purpose")

    def __array_function__(self, func, types, args, kwargs):
        fn = self.function_table.get((func.__module__, func.__name__))
        if fn is None:
            return NotImplemented
        return fn(*args, **kwargs)


def getval(x):
    """The plain value under every level of tracing."""
    while isinstance(x, Traced):
        x = x._value
    return x


def shape_of(x):
    shape = getattr(x, "shape", None)
    if shape is not None:
        return tuple(shape)
    if isinstance(x, (int, float, complex)):
        return ()
    return numpy.shape(x)


def dtype_of(x):
    dt = getattr(x, "dtype", None)
    if dt is not None:
        return dt
    return numpy.asarray(x).dtype


def _plain_types():
    return frozenset({numpy.ndarray, float, int, bool, numpy.float64, numpy.float32, type(None)})


_PLAIN = _plain_types()


def top_trace(args):
    """The innermost trace among `args` (or None when nothing is traced)."""
    top = None
    for a in args:
        if isinstance(a, Traced) and (top is None or a._trace.level > top.level):
            top = a._trace
    return top


def contains_traced(x) -> bool:
    t = type(x)
    if t in _PLAIN:           # the common case on the hot path: no isinstance chain
        return False
    if isinstance(x, Traced):
        return True
    if t is tuple or t is list or isinstance(x, (tuple, list)):
        for v in x:
            if type(v) not in _PLAIN and contains_traced(v):
                return True
    return False


class Primitive:
    """A function differentiated as a whole. Subclasses provide

    rrule_impl(vals, kwargs, argnums) -> (ans, pullback)   pullback(g) -> cotangents for argnums
    frule_impl(vals, tangents, kwargs) -> (ans, dans)     tangents: ZeroTangent where none flows
    """

    name = "primitive"

    def __call__(self, *args, **kwargs):
        trace = top_trace(args)
        if trace is None:
            return self.fun(*args, **kwargs)
        return trace.apply(self, args, kwargs)

    def __repr__(self):
        return f"<primitive {self.name}>"
