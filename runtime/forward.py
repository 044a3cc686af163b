"""Forward mode: dual numbers (value, tangent) pushed through each primitive's frule. Public API: jvp."""
from __future__ import annotations

import numpy as np

from runtime import pytree
from runtime.tangents import AbstractZero, ZeroTangent, is_zero, unthunk
from runtime.tape import is_differentiable as check
from runtime.tape import like_dtype, writeable
from runtime.tracer import Trace, Traced, getval, shape_of

_ZERO = ZeroTangent()


class Dual(Traced):
    """A value with its tangent, traced by a forward-mode trace."""

    __slots__ = ("_tangent",)

    def __init__(self, value, trace, tangent):
        self._value = value
        self._trace = trace
        self._tangent = tangent


class ForwardTrace(Trace):
    __slots__ = ()

    def apply(self, prim, args, kwargs):
        vals = list(args)
        tans = [_ZERO] * len(args)
        for i, a in enumerate(args):
            if isinstance(a, Dual) and a._trace is self:
                vals[i] = a._value
                tans[i] = a._tangent
        ans, dans = prim.frule_impl(vals, tans, kwargs)
        dans = unthunk(dans)
        if isinstance(ans, tuple):
            ds = dans if isinstance(dans, tuple) else (_ZERO,) * len(ans)
            duals = [v if is_zero(unthunk(d)) else Dual(v, self, unthunk(d)) for v, d in zip(ans, ds)]
            return tuple(duals) if type(ans) is tuple else type(ans)(*duals)
        if is_zero(dans):
            return ans
        return Dual(ans, self, dans)


def _float_dtype(v):
    """The tangent dtype of a primal: its own when floating (float32 stays float32), else float64."""
    dt = np.result_type(v)
    return dt if dt.kind in "fc" else np.float64


def is_differentiable(x):
    return check(x)


def jvp(f, primals, tangents):
    """(y, dy): y = f(*primals) and its directional derivative along `tangents` (same structure as primals)."""
    primals, tangents = tuple(primals), tuple(tangents)
    if len(primals) != len(tangents):
        raise ValueError(f"jvp: {len(primals)} primals but {len(tangents)} tangents")
    trace = ForwardTrace()
    args = []
    for k, (p, t) in enumerate(zip(primals, tangents)):
        pl, td = pytree.flatten(p)
        tl, ttd = pytree.flatten(t)
        if len(tl) != len(pl):
            raise ValueError(f"jvp: tangent {k} has {len(tl)} leaves but primal {k} has {len(pl)}")
        boxed = []
        for x, dx in zip(pl, tl):
            dx = unthunk(dx)
            if not is_differentiable(x) or isinstance(dx, AbstractZero):
                boxed.append(x)
                continue
            if shape_of(dx) != shape_of(x):
                raise ValueError(f"jvp: tangent of shape {shape_of(dx)} for a primal of shape {shape_of(x)}")
            boxed.append(Dual(x, trace, dx))
        args.append(pytree.unflatten(td, boxed))
    y = f(*args)
    leaves, td = pytree.flatten(y)
    ys, dys = [], []
    for leaf in leaves:
        if isinstance(leaf, Dual) and leaf._trace is trace:
            ys.append(leaf._value)
            dys.append(writeable(like_dtype(unthunk(leaf._tangent), leaf._value)))
        else:
            ys.append(leaf)
            v = getval(leaf)
            dys.append(0.0 if isinstance(v, float) else np.zeros_like(v, dtype=_float_dtype(v)))
    return pytree.unflatten(td, ys), pytree.unflatten(td, dys)
