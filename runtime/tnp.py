"""Traced NumPy: the names of `backend_numpy`, each a primitive whose VJP and JVP are written in tnp itself.

Because derivatives are built from these same primitives, every order of differentiation works (autograd's
design). `_define(tnp)` in a generated module yields rules that run on traced values. Broadcasting is undone
in one place: `TPrim.rrule_impl` calls `unbroadcast` for primitives declared `broadcasting=True`.
"""
from __future__ import annotations

import builtins
import functools
import sys as _sys

import numpy as _np

from primitives import elementwise as _elementwise
from primitives import index_form as _index_form
from primitives import matrix as _primitives
from primitives import special as _special
from runtime import backend_numpy as _backend
from runtime import shifts as _shifts
from runtime.tangents import AbstractZero, ZeroTangent, add_tangents, is_zero, unthunk
from runtime.tracer import Primitive, Traced, dtype_of, getval, shape_of

_ZERO = ZeroTangent()
_bsum = builtins.sum


# --------------------------------------------------------------------------- primitive machinery
class TPrim(Primitive):
    """A NumPy function with per-argument VJP makers and JVPs (autograd's defvjp / defjvp).

    vjps[i](ans, *args, **kw) -> (g -> cotangent of arg i); None marks a non-differentiable argument.
    jvps[i](t, ans, *args, **kw) -> tangent of ans due to t = tangent of arg i.
    vjp_argnum / jvp_all: the same for variadic primitives (einsum, concatenate).
    """

    __slots__ = ("fun", "name", "vjps", "jvps", "vjp_argnum", "jvp_all", "broadcasting")

    def __init__(self, fun, name=None, broadcasting=False):
        self.fun = fun
        self.name = name or fun.__name__
        self.vjps = ()
        self.jvps = ()
        self.vjp_argnum = None
        self.jvp_all = None
        self.broadcasting = broadcasting

    def _vjp_maker(self, i):
        if self.vjp_argnum is not None:
            return functools.partial(_argnum_maker, self.vjp_argnum, i)
        maker = self.vjps[i] if i < len(self.vjps) else None
        return maker if maker is not None else _nondiff_maker

    def rrule_impl(self, vals, kwargs, argnums):
        ans = self(*vals, **kwargs)
        makers = [self._vjp_maker(i)(ans, *vals, **kwargs) for i in argnums]
        if self.broadcasting:
            shapes = [shape_of(vals[i]) for i in argnums]

            def pullback(g):
                return [unbroadcast(m(g), s) for m, s in zip(makers, shapes)]
        else:
            def pullback(g):
                return [m(g) for m in makers]
        return ans, pullback

    def frule_impl(self, vals, tans, kwargs):
        ans = self(*vals, **kwargs)
        if self.jvp_all is not None:
            if builtins.all(is_zero(t) for t in tans):
                return ans, _ZERO
            dans = self.jvp_all(tans, ans, *vals, **kwargs)
        else:
            dans = _ZERO
            for i, t in enumerate(tans):
                if is_zero(t) or i >= len(self.jvps) or self.jvps[i] is None:
                    continue
                dans = add_tangents(dans, self.jvps[i](t, ans, *vals, **kwargs))
        if self.broadcasting and not is_zero(dans) and shape_of(dans) != shape_of(ans):
            dans = broadcast_to(dans, shape_of(ans))
        return ans, dans


def _nondiff_maker(ans, *args, **kwargs):
    return lambda g: _ZERO


def _argnum_maker(vjp_argnum, i, ans, *args, **kwargs):
    return vjp_argnum(i, ans, args, kwargs)


def _prim(fun, name=None, broadcasting=False):
    return TPrim(fun, name, broadcasting)


def _defvjp(prim, *makers):
    prim.vjps = makers


def _defjvp(prim, *jvps):
    prim.jvps = jvps


def _deflinear(prim, nargs=1):
    """prim is linear in its first `nargs` arguments jointly: its JVP is itself applied to the tangents."""
    def jvp_all(tans, ans, *vals, **kw):
        parts = [zeros_like(v) if is_zero(t) else t for t, v in zip(tans[:nargs], vals[:nargs])]
        return prim(*parts, *vals[nargs:], **kw)
    prim.jvp_all = jvp_all


def _deep_getval(x):
    if isinstance(x, Traced):
        return getval(x)
    if isinstance(x, tuple):
        return tuple(_deep_getval(v) for v in x)
    if isinstance(x, list):
        return [_deep_getval(v) for v in x]
    if isinstance(x, dict):
        return {k: _deep_getval(v) for k, v in x.items()}
    return x


def _nondiff(fn, name=None):
    """A function whose result carries no derivative (comparisons, sign, creation routines)."""
    @functools.wraps(fn)
    def wrapped(*args, **kwargs):
        return fn(*_deep_getval(args), **_deep_getval(kwargs))
    wrapped.__name__ = name or getattr(fn, "__name__", "nondiff")
    return wrapped


# --------------------------------------------------------------------------- shape helpers
def _ndim(x):
    return len(shape_of(x))


def _norm_axes(axis, nd):
    if axis is None:
        return tuple(range(nd))
    if isinstance(axis, int) or _np.isscalar(axis):
        axis = (int(axis),)
    return tuple(int(a) % nd for a in axis) if nd else ()


def _keepdims_shape(shape, axis):
    axes = _norm_axes(axis, len(shape))
    return tuple(1 if i in axes else n for i, n in enumerate(shape))


def unbroadcast(g, shape):
    """Sum a cotangent of a broadcast result back to an operand's `shape` (autograd's unbroadcast_f)."""
    if isinstance(g, AbstractZero):
        return g
    gshape = shape_of(g)
    shape = tuple(shape)
    if gshape == shape:
        return g
    if len(gshape) < len(shape):
        return broadcast_to(g, shape)
    nlead = len(gshape) - len(shape)
    if nlead:
        g = sum(g, axis=tuple(range(nlead)))
        gshape = gshape[nlead:]
    axes = tuple(i for i, n in enumerate(shape) if n == 1 and gshape[i] != 1)
    if axes:
        g = sum(g, axis=axes, keepdims=True)
    if shape_of(g) != shape:
        g = broadcast_to(g, shape)
    return g


def _T(x):
    return swapaxes(x, -1, -2)


# --------------------------------------------------------------------------- elementwise unary
_UNARY = {}


def _unary(name, raw, deriv):
    """y = raw(x) elementwise with dy/dx = deriv(ans, x) written in tnp: one line gives VJP and JVP."""
    p = _prim(raw, name)
    _defvjp(p, lambda ans, x: lambda g: g * deriv(ans, x))
    _defjvp(p, lambda t, ans, x: t * deriv(ans, x))
    _UNARY[name] = p
    return p


# Python floats, not np.float64: NumPy 2 promotes float32 arrays by np.float64 scalars but not by Python ones.
_LN2 = float(_np.log(2.0))
_LN10 = float(_np.log(10.0))
_TWO_OVER_SQRT_PI = float(2.0 / _np.sqrt(_np.pi))


def _mask(cond, like):
    """A 0/1 (or weight) array in the floating dtype of `like`, so a float32 derivative stays float32."""
    dt = getattr(getval(like), "dtype", None)
    return _np.asarray(cond).astype(dt if dt is not None and dt.kind in "fc" else _np.float64)


# NumPy unary functions that are no built-in of the rule language (a traced program may call them). Then the
# built-ins, one traced primitive per row of primitives.elementwise (the row's derivative, written over this
# namespace, gives its VJP and JVP): installed after these, so a row for one of these names (asinh) is the
# derivative that holds. The names are bound here, so the module reads them as plain globals below.
exp2 = _unary("exp2", _np.exp2, lambda ans, x: ans * _LN2)
log2 = _unary("log2", _np.log2, lambda ans, x: 1.0 / (x * _LN2))
log10 = _unary("log10", _np.log10, lambda ans, x: 1.0 / (x * _LN10))
square = _unary("square", _np.square, lambda ans, x: 2.0 * x)
reciprocal = _unary("reciprocal", _np.reciprocal, lambda ans, x: -(ans * ans))
arcsinh = _unary("arcsinh", _np.arcsinh, lambda ans, x: 1.0 / sqrt(x * x + 1.0))
arccosh = _unary("arccosh", _np.arccosh, lambda ans, x: 1.0 / sqrt(x * x - 1.0))
arctanh = _unary("arctanh", _np.arctanh, lambda ans, x: 1.0 / (1.0 - x * x))
erfc = _unary("erfc", _special.erfc, lambda ans, x: -_TWO_OVER_SQRT_PI * exp(-(x * x)))

for _row in _elementwise.ROWS:
    if _row.dydx is None or not _row.numpy.isidentifier():
        continue                  # spelled through other primitives here (where, the power operator)
    _raw = getattr(_backend, _row.numpy)
    if _row.dydx == _elementwise.ZERO:
        globals()[_row.numpy] = _nondiff(_raw, _row.numpy)
    else:
        globals()[_row.numpy] = _unary(_row.numpy, _raw, functools.partial(_row.dydx, _sys.modules[__name__]))
del _row, _raw
absolute = fabs = abs

negative = _prim(_np.negative, "negative")
_defvjp(negative, lambda ans, x: lambda g: negative(g))
_deflinear(negative)
positive = _prim(_np.positive, "positive")
_defvjp(positive, lambda ans, x: lambda g: g)
_deflinear(positive)

# --------------------------------------------------------------------------- elementwise binary (broadcasting)
add = _prim(_np.add, "add", broadcasting=True)
_defvjp(add, lambda ans, x, y: lambda g: g, lambda ans, x, y: lambda g: g)
_defjvp(add, lambda t, ans, x, y: t, lambda t, ans, x, y: t)

subtract = _prim(_np.subtract, "subtract", broadcasting=True)
_defvjp(subtract, lambda ans, x, y: lambda g: g, lambda ans, x, y: lambda g: negative(g))
_defjvp(subtract, lambda t, ans, x, y: t, lambda t, ans, x, y: negative(t))

multiply = _prim(_np.multiply, "multiply", broadcasting=True)
_defvjp(multiply, lambda ans, x, y: lambda g: g * y, lambda ans, x, y: lambda g: x * g)
_defjvp(multiply, lambda t, ans, x, y: t * y, lambda t, ans, x, y: x * t)

divide = _prim(_np.divide, "divide", broadcasting=True)
_defvjp(divide, lambda ans, x, y: lambda g: g / y, lambda ans, x, y: lambda g: -(g * ans) / y)
_defjvp(divide, lambda t, ans, x, y: t / y, lambda t, ans, x, y: -(t * ans) / y)
true_divide = divide


def _pow_dx(ans, x, y):
    # x ** where(y, y - 1, 1) keeps d/dx x**0 = 0 finite at x = 0 (autograd's trick). Only where x is 0 too:
    # elsewhere y * x ** (y - 1) must stay a function of y, or d/dy d/dx x**y = x**(y-1)(1 + y log x) is lost
    yv = getval(y)
    if type(yv) in (int, float):  # a Python exponent stays a (weak) Python number: float32 stays float32
        return y * x ** (y - 1 if yv != 0 else 1)
    return y * x ** where((yv != 0) | _np.not_equal(getval(x), 0), y - 1, 1.0)


def _pow_dy(ans, x, y):
    xv = getval(x)
    if type(xv) in (int, float):  # 2.0 ** x: a Python base keeps log(base) a Python number (float32 stays)
        return ans * (float(_np.log(xv)) if xv != 0 else 0.0)
    return ans * log(where(xv != 0, x, 1.0))


power = _prim(_np.power, "power", broadcasting=True)
_defvjp(power, lambda ans, x, y: lambda g: g * _pow_dx(ans, x, y), lambda ans, x, y: lambda g: g * _pow_dy(ans, x, y))
_defjvp(power, lambda t, ans, x, y: t * _pow_dx(ans, x, y), lambda t, ans, x, y: t * _pow_dy(ans, x, y))


def _balanced_eq(x, z, y):
    # share the derivative at ties: d max(x, y) = 1/2 each when x == y
    x, z, y = getval(x), getval(z), getval(y)
    return _mask(x == z, z) / _mask(1.0 + (x == y), z)


maximum = _prim(_np.maximum, "maximum", broadcasting=True)
_defvjp(maximum, lambda ans, x, y: lambda g: g * _balanced_eq(x, ans, y),
        lambda ans, x, y: lambda g: g * _balanced_eq(y, ans, x))
_defjvp(maximum, lambda t, ans, x, y: t * _balanced_eq(x, ans, y), lambda t, ans, x, y: t * _balanced_eq(y, ans, x))
minimum = _prim(_np.minimum, "minimum", broadcasting=True)
_defvjp(minimum, *maximum.vjps)
_defjvp(minimum, *maximum.jvps)
fmax, fmin = maximum, minimum

logaddexp = _prim(_np.logaddexp, "logaddexp", broadcasting=True)
_defvjp(logaddexp, lambda ans, x, y: lambda g: g * exp(x - ans), lambda ans, x, y: lambda g: g * exp(y - ans))
_defjvp(logaddexp, lambda t, ans, x, y: t * exp(x - ans), lambda t, ans, x, y: t * exp(y - ans))

arctan2 = _prim(_np.arctan2, "arctan2", broadcasting=True)
_defvjp(arctan2, lambda ans, y, x: lambda g: g * x / (x * x + y * y),
        lambda ans, y, x: lambda g: -(g * y) / (x * x + y * y))
_defjvp(arctan2, lambda t, ans, y, x: t * x / (x * x + y * y), lambda t, ans, y, x: -(t * y) / (x * x + y * y))

hypot = _prim(_np.hypot, "hypot", broadcasting=True)
_defvjp(hypot, lambda ans, x, y: lambda g: g * x / ans, lambda ans, x, y: lambda g: g * y / ans)
_defjvp(hypot, lambda t, ans, x, y: t * x / ans, lambda t, ans, x, y: t * y / ans)

mod = _prim(_np.mod, "mod", broadcasting=True)
_defvjp(mod, lambda ans, x, y: lambda g: g,
        lambda ans, x, y: lambda g: -g * _np.floor(getval(x) / getval(y)))
_defjvp(mod, lambda t, ans, x, y: t, lambda t, ans, x, y: -t * _np.floor(getval(x) / getval(y)))
remainder = mod


def _where_raw(cond, x, y):
    return _np.where(cond, x, y)


where = _prim(_where_raw, "where", broadcasting=True)
_defvjp(where, None, lambda ans, c, x, y: lambda g: where(c, g, 0.0), lambda ans, c, x, y: lambda g: where(c, 0.0, g))
where.jvp_all = lambda tans, ans, c, x, y: where(c, 0.0 if is_zero(tans[1]) else tans[1],
                                                 0.0 if is_zero(tans[2]) else tans[2])


def _clip_raw(x, lo, hi):
    return _np.clip(x, lo, hi)


def _clip_mask(ans, x):
    return _mask(_np.equal(getval(ans), getval(x)), x)


clip_ = _prim(_clip_raw, "clip", broadcasting=True)
_defvjp(clip_, lambda ans, x, lo, hi: lambda g: g * _clip_mask(ans, x),
        lambda ans, x, lo, hi: lambda g: g * (getval(x) < getval(lo)),
        lambda ans, x, lo, hi: lambda g: g * (getval(x) > getval(hi)))
_defjvp(clip_, lambda t, ans, x, lo, hi: t * _clip_mask(ans, x),
        lambda t, ans, x, lo, hi: t * (getval(x) < getval(lo)),
        lambda t, ans, x, lo, hi: t * (getval(x) > getval(hi)))


def clip(x, a_min=None, a_max=None, **kwargs):
    return clip_(x, a_min, a_max)


# --------------------------------------------------------------------------- non-differentiable functions
heaviside = _nondiff(_np.heaviside)
floor = _nondiff(_np.floor)
ceil = _nondiff(_np.ceil)
trunc = _nondiff(_np.trunc)
rint = _nondiff(_np.rint)
round = _nondiff(_np.round)
isnan = _nondiff(_np.isnan)
isinf = _nondiff(_np.isinf)
isfinite = _nondiff(_np.isfinite)
equal = _nondiff(_np.equal)
not_equal = _nondiff(_np.not_equal)
greater = _nondiff(_np.greater)
greater_equal = _nondiff(_np.greater_equal)
less = _nondiff(_np.less)
less_equal = _nondiff(_np.less_equal)
logical_and = _nondiff(_np.logical_and)
logical_or = _nondiff(_np.logical_or)
logical_not = _nondiff(_np.logical_not)
logical_xor = _nondiff(_np.logical_xor)
argmax = _nondiff(_np.argmax)
argmin = _nondiff(_np.argmin)
argsort = _nondiff(_np.argsort)
nonzero = _nondiff(_np.nonzero)
count_nonzero = _nondiff(_np.count_nonzero)
any = _nondiff(_np.any)
all = _nondiff(_np.all)
allclose = _nondiff(_np.allclose)
isclose = _nondiff(_np.isclose)
array_equal = _nondiff(_np.array_equal)
shape = _nondiff(_np.shape)
ndim = _nondiff(_np.ndim)
size = _nondiff(_np.size)
result_type = _nondiff(_np.result_type)
zeros = _nondiff(_np.zeros)
ones = _nondiff(_np.ones)
empty = _nondiff(_np.empty)
full = _nondiff(_np.full)
eye = _nondiff(_np.eye)
identity = _nondiff(_np.identity)
arange = _nondiff(_np.arange)
linspace = _nondiff(_np.linspace)
zeros_like = _nondiff(_np.zeros_like)
ones_like = _nondiff(_np.ones_like)
empty_like = _nondiff(_np.empty_like)
full_like = _nondiff(_np.full_like)
tri = _nondiff(_np.tri)
broadcast_shapes = _nondiff(_np.broadcast_shapes)


def asarray(x, dtype=None, **kwargs):
    """Traced values pass through; a list holding traced values is stacked."""
    if isinstance(x, Traced):
        return x if dtype is None or _np.dtype(dtype) == x.dtype else astype(x, dtype)
    if isinstance(x, (list, tuple)) and _contains_traced(x):
        return stack([asarray(v, dtype) for v in x])
    return _np.asarray(x, dtype=dtype, **kwargs)


array = asarray


def copy(x, **kwargs):
    return x if isinstance(x, Traced) else _np.copy(x, **kwargs)


def _contains_traced(x):
    if isinstance(x, Traced):
        return True
    if isinstance(x, (list, tuple)):
        return builtins.any(_contains_traced(v) for v in x)
    return False


_astype = _prim(lambda x, dtype: _np.asarray(x).astype(dtype), "astype")
_defvjp(_astype, lambda ans, x, dtype: (lambda dt: lambda g: _astype(g, dt))(dtype_of(x)))
_deflinear(_astype)


def astype(x, dtype):
    return _astype(x, dtype)


# --------------------------------------------------------------------------- reductions
def _sum_raw(x, axis=None, dtype=None, keepdims=False):
    return _np.sum(x, axis=axis, dtype=dtype, keepdims=keepdims)


def _repeat_to_match(g, shape, axis, keepdims):
    if not keepdims:
        g = reshape(g, _keepdims_shape(shape, axis))
    return broadcast_to(g, shape)


sum = _prim(_sum_raw, "sum")
_defvjp(sum, lambda ans, x, axis=None, dtype=None, keepdims=False:
        (lambda s: lambda g: _repeat_to_match(g, s, axis, keepdims))(shape_of(x)))
_deflinear(sum)


def mean(x, axis=None, dtype=None, keepdims=False, **kwargs):
    s = shape_of(x)
    count = 1
    for a in _norm_axes(axis, len(s)):
        count *= s[a]
    return sum(x, axis=axis, keepdims=keepdims) / count


def var(x, axis=None, dtype=None, ddof=0, keepdims=False, **kwargs):
    s = shape_of(x)
    count = 1
    for a in _norm_axes(axis, len(s)):
        count *= s[a]
    d = x - mean(x, axis=axis, keepdims=True)
    return sum(d * d, axis=axis, keepdims=keepdims) / (count - ddof)


def std(x, axis=None, dtype=None, ddof=0, keepdims=False, **kwargs):
    return sqrt(var(x, axis=axis, ddof=ddof, keepdims=keepdims))


def _prod_raw(x, axis=None, dtype=None, keepdims=False):
    return _np.prod(x, axis=axis, dtype=dtype, keepdims=keepdims)


def _prod_partial(ans, x, axis, keepdims):
    """∂ prod / ∂x_j = Π_{k≠j} x_k: ans / x where no factor is 0; else without dividing by a zero."""
    zero = _np.equal(getval(x), 0)
    if not zero.any():
        return _repeat_to_match(ans, shape_of(x), axis, keepdims) / x
    # (Π of the nonzero factors but x_j) · (Π of the zero factors but x_j), each written so that its own
    # derivative is right too: the zeros' product q is a prod again; with two zeros, the other one is linear;
    # with three or more the zeros' factor is 0 with derivative 0 (prod's third derivative there is not kept)
    nz = _np.sum(zero, axis=axis, keepdims=True)
    x1 = where(zero, 1.0, x)
    q = prod(where(zero, x, 1.0), axis=axis, keepdims=True)
    other_zero = sum(where(zero, x, 0.0), axis=axis, keepdims=True) - x
    zero_factor = where(nz == 1, 1.0, where(nz == 2, other_zero, 0.0))
    return prod(x1, axis=axis, keepdims=True) / x1 * where(zero, zero_factor, q)


prod = _prim(_prod_raw, "prod")
_defvjp(prod, lambda ans, x, axis=None, dtype=None, keepdims=False:
        lambda g: _repeat_to_match(g, shape_of(x), axis, keepdims) * _prod_partial(ans, x, axis, keepdims))
_defjvp(prod, lambda t, ans, x, axis=None, dtype=None, keepdims=False:
        sum(t * _prod_partial(ans, x, axis, keepdims), axis=axis, keepdims=keepdims))


def others_product(x, axis):
    """Π over the other entries along `axis` (primitives.special.others_product), as a product over a matrix whose
    diagonal is 1: O(n²) where the plain path is O(n), but every derivative is prod's own (exact at zeros)."""
    x = moveaxis(asarray(x), axis, -1)
    n = shape_of(x)[-1]
    others = where(_np.eye(n, dtype=bool), 1.0, expand_dims(x, -2))
    return moveaxis(prod(others, axis=-1), -1, axis)


def _minmax(raw, name):
    p = _prim(lambda x, axis=None, keepdims=False: raw(x, axis=axis, keepdims=keepdims), name)

    def weights(ans, x, axis, keepdims):
        s = shape_of(x)
        xv = getval(x)
        av = _np.reshape(getval(ans), _keepdims_shape(s, axis)) if not keepdims else getval(ans)
        mask = _mask(xv == av, xv)
        return mask / _np.sum(mask, axis=axis, keepdims=True)

    _defvjp(p, lambda ans, x, axis=None, keepdims=False:
            lambda g: _repeat_to_match(g, shape_of(x), axis, keepdims) * weights(ans, x, axis, keepdims))
    _defjvp(p, lambda t, ans, x, axis=None, keepdims=False:
            sum(t * weights(ans, x, axis, keepdims), axis=axis, keepdims=keepdims))

    def reduce(x, axis=None, out=None, keepdims=False, **kwargs):
        if isinstance(x, (list, tuple)):  # SymPy's printer emits amax((a, b), axis=0)
            x = stack([asarray(v) for v in x])
        return p(x, axis=axis, keepdims=keepdims)

    reduce.__name__ = name
    return reduce


max = amax = _minmax(_np.max, "max")
min = amin = _minmax(_np.min, "min")


# runtime.backend_numpy's lse_shift and logsumexp over this namespace's own max, where, exp, log and sum (looked
# up when called): traced values, differentiated through those calls
lse_shift, logsumexp = _backend.lse_functions(_sys.modules[__name__])


def _refine(value, bound, n, all_direct, at):
    """runtime.backend_numpy.checked_sum's refine on traced values: the flagged entries taken from the direct
    form (where: differentiated like the rest), decided on the values."""
    bad = _backend.cancelled(_np, getval(value), getval(bound(slice(None), shape_of(value)[0])))
    return where(bad, all_direct(), value) if bad.any() else value


checked_sum = _backend.checked_sum_function(_sys.modules[__name__], _refine, blocked=False,
                                           concat=lambda parts: concatenate(parts))


def _cumsum_raw(x, axis):
    return _np.cumsum(x, axis=axis)


_cumsum = _prim(_cumsum_raw, "cumsum")
_defvjp(_cumsum, lambda ans, x, axis: lambda g: flip(_cumsum(flip(g, axis), axis), axis))
_deflinear(_cumsum)


def cumsum(x, axis=None, **kwargs):
    if axis is None:
        x, axis = ravel(x), 0
    return _cumsum(x, axis)


# --------------------------------------------------------------------------- shape manipulation (all linear)
def _reshape_raw(x, shape):
    return _np.reshape(x, shape)


_reshape = _prim(_reshape_raw, "reshape")
_defvjp(_reshape, lambda ans, x, shape: (lambda s: lambda g: _reshape(g, s))(shape_of(x)))
_deflinear(_reshape)


def reshape(x, shape=None, order="C", **kwargs):
    if shape is None:
        shape = kwargs.get("newshape")
    if isinstance(shape, (int, _np.integer)):
        shape = (int(shape),)
    return _reshape(x, tuple(shape))


def ravel(x, order="C"):
    return _reshape(x, (-1,))


def squeeze(x, axis=None):
    return _reshape(x, _np.squeeze(_np.broadcast_to(0.0, shape_of(x)), axis=axis).shape)


def _transpose_raw(x, axes=None):
    return _np.transpose(x, axes)


transpose = _prim(_transpose_raw, "transpose")
_defvjp(transpose, lambda ans, x, axes=None:
        lambda g: transpose(g, None if axes is None else tuple(_np.argsort(axes))))
_deflinear(transpose)


def permute_dims(x, axes=None):
    return transpose(x, axes)


swapaxes = _prim(_np.swapaxes, "swapaxes")
_defvjp(swapaxes, lambda ans, x, a, b: lambda g: swapaxes(g, a, b))
_deflinear(swapaxes)


def moveaxis(x, source, destination):
    nd = _ndim(x)
    src = _norm_axes(source, nd)
    dst = _norm_axes(destination, nd)
    order = [n for n in range(nd) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return transpose(x, tuple(order))


expand_dims = _prim(_np.expand_dims, "expand_dims")
_defvjp(expand_dims, lambda ans, x, axis: (lambda s: lambda g: _reshape(g, s))(shape_of(x)))
_deflinear(expand_dims)


def _broadcast_to_raw(x, shape):
    return _np.broadcast_to(x, shape)


broadcast_to = _prim(_broadcast_to_raw, "broadcast_to")
_defvjp(broadcast_to, lambda ans, x, shape: (lambda s: lambda g: unbroadcast(g, s))(shape_of(x)))
_deflinear(broadcast_to)


def atleast_1d(x):
    return reshape(x, (1,)) if _ndim(x) == 0 else x


def atleast_2d(x):
    nd = _ndim(x)
    return reshape(x, (1, 1)) if nd == 0 else (expand_dims(x, 0) if nd == 1 else x)


def _flip_raw(x, axis=None):
    return _np.flip(x, axis)


flip = _prim(_flip_raw, "flip")
_defvjp(flip, lambda ans, x, axis=None: lambda g: flip(g, axis))
_deflinear(flip)

tril = _prim(_np.tril, "tril")
_defvjp(tril, lambda ans, x, k=0: lambda g: tril(g, k))
_deflinear(tril)
triu = _prim(_np.triu, "triu")
_defvjp(triu, lambda ans, x, k=0: lambda g: triu(g, k))
_deflinear(triu)


def _diagonal_raw(x, offset=0, axis1=0, axis2=1):
    return _np.diagonal(x, offset, axis1, axis2)


def _undiagonal_raw(g, shape, offset, axis1, axis2):
    g = _np.asarray(g)
    out = _np.zeros(shape, dtype=g.dtype)
    view = _np.moveaxis(out, (axis1, axis2), (-2, -1))
    n = g.shape[-1]
    r = _np.arange(n)
    if offset >= 0:
        view[..., r, r + offset] = g
    else:
        view[..., r - offset, r] = g
    return out


diagonal = _prim(_diagonal_raw, "diagonal")
_undiagonal = _prim(_undiagonal_raw, "undiagonal")
_defvjp(diagonal, lambda ans, x, offset=0, axis1=0, axis2=1:
        (lambda s: lambda g: _undiagonal(g, s, offset, axis1, axis2))(shape_of(x)))
_deflinear(diagonal)
_defvjp(_undiagonal, lambda ans, g, shape, offset, axis1, axis2: lambda gg: diagonal(gg, offset, axis1, axis2))
_deflinear(_undiagonal)


def trace(x, offset=0, axis1=0, axis2=1, **kwargs):
    return sum(diagonal(x, offset, axis1, axis2), axis=-1)


def diag(x, k=0):
    if _ndim(x) == 2:
        return diagonal(x, k)
    n = shape_of(x)[0] + (k if k >= 0 else -k)
    return _undiagonal(x, (n, n), k, 0, 1)


# getitem and its transpose (scatter-add)
def _getitem_raw(x, idx):
    return x[idx]


def _is_basic_index(idx):
    items = idx if isinstance(idx, tuple) else (idx,)
    return builtins.all(i is None or i is Ellipsis
                        or isinstance(i, (slice, int, _np.integer)) and not isinstance(i, bool) for i in items)


def _untake_raw(g, idx, shape):
    g = _np.asarray(g)
    out = _np.zeros(shape, dtype=g.dtype if g.dtype.kind in "fc" else _np.float64)
    if _is_basic_index(idx):
        out[idx] = g  # basic indexing never repeats an element
    else:
        _np.add.at(out, idx, g)
    return out


getitem = _prim(_getitem_raw, "getitem")
_untake = _prim(_untake_raw, "untake")
_defvjp(getitem, lambda ans, x, idx: (lambda s: lambda g: _untake(g, idx, s))(shape_of(x)))
_deflinear(getitem)
_defvjp(_untake, lambda ans, g, idx, shape: lambda gg: getitem(gg, idx))
_deflinear(_untake)


# x[i+k] and its transpose (runtime.shifts): each is the other's pullback, and both are linear
shift_window = _prim(_shifts.window, "shift_window")
shift_scatter = _prim(_shifts.scatter, "shift_scatter")
_defvjp(shift_window, lambda ans, x, spec, shape: (lambda s: lambda g: shift_scatter(g, spec, s))(shape_of(x)))
_deflinear(shift_window)
_defvjp(shift_scatter, lambda ans, g, spec, shape: (lambda s: lambda gg: shift_window(gg, spec, s))(shape_of(g)))
_deflinear(shift_scatter)


def _concatenate_raw(axis, *xs):
    return _np.concatenate(xs, axis=axis)


def _concatenate_vjp(argnum, ans, args, kwargs):
    if argnum == 0:
        return lambda g: _ZERO
    axis, xs = args[0], args[1:]
    ax = axis % _ndim(ans)
    start = _bsum(shape_of(x)[ax] for x in xs[: argnum - 1])
    stop = start + shape_of(xs[argnum - 1])[ax]
    idx = (slice(None),) * ax + (slice(start, stop),)
    return lambda g: getitem(g, idx)


_concatenate = _prim(_concatenate_raw, "concatenate")
_concatenate.vjp_argnum = _concatenate_vjp
_concatenate.jvp_all = lambda tans, ans, axis, *xs: _concatenate(
    axis, *[zeros_like(x) if is_zero(t) else t for t, x in zip(tans[1:], xs)])


def concatenate(arrays, axis=0, **kwargs):
    arrays = list(arrays)
    if axis is None:
        arrays, axis = [ravel(a) for a in arrays], 0
    return _concatenate(axis, *arrays)


def stack(arrays, axis=0, **kwargs):
    arrays = [asarray(a) if not isinstance(a, Traced) else a for a in arrays]
    ax = axis % (_ndim(arrays[0]) + 1)
    return _concatenate(ax, *[expand_dims(a, ax) for a in arrays])


def hstack(arrays):
    arrays = [atleast_1d(a) for a in arrays]
    return concatenate(arrays, axis=0 if _ndim(arrays[0]) == 1 else 1)


def vstack(arrays):
    return concatenate([atleast_2d(a) for a in arrays], axis=0)


# --------------------------------------------------------------------------- einsum
_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


@functools.lru_cache(maxsize=2048)
def _einsum_spec(subscripts, ndims):
    """Explicit per-operand letter lists and output letters, with '...' expanded to fresh letters."""
    s = subscripts.replace(" ", "")
    lhs, arrow, rhs = s.partition("->")
    ins = lhs.split(",")
    used = set(c for c in s if c.isalpha())
    fresh = [c for c in _LETTERS if c not in used]
    n_ell = builtins.max([nd - len(t.replace("...", "")) for t, nd in zip(ins, ndims) if "..." in t] or [0])
    ell = fresh[:n_ell]
    out_ins = []
    for t, nd in zip(ins, ndims):
        if "..." in t:
            k = nd - len(t.replace("...", ""))
            pre, _, post = t.partition("...")
            t = pre + "".join(ell[n_ell - k:]) + post
        out_ins.append(t)
    if arrow:
        out = rhs.replace("...", "".join(ell))
    else:
        counts = {}
        for t in ins:
            for c in t.replace("...", ""):
                counts[c] = counts.get(c, 0) + 1
        out = "".join(ell) + "".join(sorted(c for c, n in counts.items() if n == 1))
    return tuple(out_ins), out


@functools.lru_cache(maxsize=2048)
def _einsum_grad_spec(subscripts, shapes, k):
    """The einsum giving the cotangent of operand k: output subscripts become an input, operand k's
    subscripts the output. Repeated letters get a Kronecker delta, letters found nowhere else a ones
    vector, and size-1 axes that were broadcast a fresh letter (summed away)."""
    ins, out = _einsum_spec(subscripts, tuple(len(s) for s in shapes))
    extent = {}
    for t, shp in zip(ins, shapes):
        for c, n in zip(t, shp):
            extent[c] = builtins.max(extent.get(c, 1), n)
    taken = set(out).union(*[set(t) for t in ins])
    fresh = iter(c for c in _LETTERS if c not in taken)
    extras = []  # (subscripts, kind, extent)

    def broadcast_safe(t, shp):
        return "".join(next(fresh) if n == 1 and extent[c] > 1 else c for c, n in zip(t, shp))

    target = []
    seen = set()
    for c, n in zip(ins[k], shapes[k]):
        if n == 1 and extent[c] > 1:
            target.append(next(fresh))
        elif c in seen:
            m = next(fresh)
            extras.append((c + m, "eye", n))
            target.append(m)
        else:
            target.append(c)
            seen.add(c)
    others = [j for j in range(len(ins)) if j != k]
    other_subs = [broadcast_safe(ins[j], shapes[j]) for j in others]
    available = set(out).union(*[set(t) for t in other_subs], *[set(e[0]) for e in extras])
    for c, n in zip(target, shapes[k]):
        if c not in available:
            extras.append((c, "ones", n))
            available.add(c)
    expr = ",".join([out] + other_subs + [e[0] for e in extras]) + "->" + "".join(target)
    return expr, tuple(others), tuple((kind, n) for _, kind, n in extras)


def _einsum_raw(subscripts, *operands, **kwargs):
    return _np.einsum(subscripts, *operands, **kwargs)


def _einsum_vjp(argnum, ans, args, kwargs):
    if argnum == 0:
        return lambda g: _ZERO
    subscripts, ops = args[0], args[1:]
    expr, others, extras = _einsum_grad_spec(subscripts, tuple(shape_of(o) for o in ops), argnum - 1)
    consts = [_np.eye(n) if kind == "eye" else _np.ones(n) for kind, n in extras]
    operands = [ops[j] for j in others] + consts
    opt = {"optimize": "greedy"} if len(operands) > 1 else {}
    return lambda g: einsum(expr, g, *operands, **opt)


def _einsum_jvp(tans, ans, subscripts, *ops, **kwargs):
    out = _ZERO
    for k, t in enumerate(tans[1:]):
        if not is_zero(t):
            out = add_tangents(out, einsum(subscripts, *ops[:k], t, *ops[k + 1:], **kwargs))
    return out


einsum = _prim(_einsum_raw, "einsum")
einsum.vjp_argnum = _einsum_vjp
einsum.jvp_all = _einsum_jvp


# --------------------------------------------------------------------------- matmul and friends
def _matmul_vjp_a(ans, A, B):
    def pullback(g):
        a1, b1 = _ndim(A) == 1, _ndim(B) == 1
        Bm = expand_dims(B, -1) if b1 else B
        if b1:
            g = expand_dims(g, -1)
        if a1:
            g = expand_dims(g, -2)
        gA = matmul(g, _T(Bm))
        return sum(gA, axis=-2) if a1 else gA
    return pullback


def _matmul_vjp_b(ans, A, B):
    def pullback(g):
        a1, b1 = _ndim(A) == 1, _ndim(B) == 1
        Am = expand_dims(A, -2) if a1 else A
        if b1:
            g = expand_dims(g, -1)
        if a1:
            g = expand_dims(g, -2)
        gB = matmul(_T(Am), g)
        return sum(gB, axis=-1) if b1 else gB
    return pullback


matmul = _prim(_np.matmul, "matmul", broadcasting=True)
_defvjp(matmul, _matmul_vjp_a, _matmul_vjp_b)
_defjvp(matmul, lambda t, ans, A, B: matmul(t, B), lambda t, ans, A, B: matmul(A, t))


def dot(a, b):
    if _ndim(a) == 0 or _ndim(b) == 0:
        return a * b
    if _ndim(b) > 2:
        raise NotImplementedError("runtime.tnp.dot: use einsum/matmul for arrays with more than 2 axes")
    return matmul(a, b)


def vdot(a, b):
    return sum(ravel(a) * ravel(b))


def inner(a, b):
    return sum(a * b, axis=-1)


def outer(a, b):
    return expand_dims(ravel(a), 1) * expand_dims(ravel(b), 0)


def tensordot(a, b, axes=2):
    na, nb = _ndim(a), _ndim(b)
    if isinstance(axes, int):
        ax_a, ax_b = list(range(na - axes, na)), list(range(axes))
    else:
        ax_a, ax_b = [list(_np.atleast_1d(x)) for x in axes]
    ax_a, ax_b = [x % na for x in ax_a], [x % nb for x in ax_b]
    la, lb = list(_LETTERS[:na]), list(_LETTERS[na:na + nb])
    for i, j in zip(ax_a, ax_b):
        lb[j] = la[i]
    out = [c for i, c in enumerate(la) if i not in ax_a] + [c for j, c in enumerate(lb) if j not in ax_b]
    return einsum("".join(la) + "," + "".join(lb) + "->" + "".join(out), a, b)


# --------------------------------------------------------------------------- linalg
class _Linalg:
    """`tnp.linalg`: inv, det, slogdet, solve, cholesky, norm; batched over leading axes like NumPy."""

    LinAlgError = _np.linalg.LinAlgError

    def __getattr__(self, name):
        raise AttributeError(f"runtime.tnp.linalg has no differentiable '{name}'")


linalg = _Linalg()


# Matrix primitives, each from its declaration in primitives/matrix: forward, pushforward and pullback are
# the declaration's (an index-form differential evaluated with einsum over traced arrays, or jvp/vjp code over
# this namespace), so a derivative is written once and differentiates again. A declaration whose jvp/vjp are
# plain NumPy (expm's Fréchet derivative, the adjugate's) gives a first derivative here and a second one in the
# direction's argument only; differentiating again in the matrix says it is not implemented.
class _PrimCalls:
    """`tnp.prim`: generated code's calls to primitives (np.prim.inv.forward(X, nb=...)) on traced values."""

    def factor(self, X, spd=False):
        return X        # traced: no shared factorisation; `factored` calls the traced forward on X


def _saved_maker(p, X, ans, args):
    vals = dict(zip(p.args, args))
    vals["R"] = ans
    cache = {}

    def aux(name):
        if name not in cache:
            cache[name] = _PRIMS[name](X)
        return cache[name]
    return vals, aux


def _no_second(p):
    def maker(ans, *args):
        def pullback(g):
            raise NotImplementedError(f"runtime.tnp: the derivative of {p.name}'s derivative in its matrix is not "
                                      f"implemented (its pushforward is NumPy code, not traced operations)")
        return pullback
    return maker


def _opaque_maps(p):
    """Per argument, (jvp(saved..., E), vjp(saved..., G)) as traced functions of their last argument (None for an
    argument without maps)."""
    if p.traceable:
        return [(None, None) if j is None else ((lambda *a, f=j: f(_this, *a)), (lambda *a, f=v: f(_this, *a)))
                for j, v in zip(p.jvps, p.vjps)]
    out = []
    for j, v in zip(p.jvps, p.vjps):
        if j is None:
            out.append((None, None))
            continue
        jv = _prim(lambda *a, f=j: f(_np, *a), p.name + "_jvp")
        vj = _prim(lambda *a, f=v: f(_np, *a), p.name + "_vjp")
        k = len(p.saves)
        # both are linear in the last argument, each the other's transpose; the saved values' derivative is absent
        _defvjp(jv, *([_no_second(p)] * k + [lambda ans, *a, vj=vj: lambda g: vj(*a[:-1], g)]))
        _defvjp(vj, *([_no_second(p)] * k + [lambda ans, *a, jv=jv: lambda g: jv(*a[:-1], g)]))
        _defjvp(jv, *([lambda t, ans, *a: _no_second(p)(ans)(t)] * k + [lambda t, ans, *a, jv=jv: jv(*a[:-1], t)]))
        _defjvp(vj, *([lambda t, ans, *a: _no_second(p)(ans)(t)] * k + [lambda t, ans, *a, vj=vj: vj(*a[:-1], t)]))
        out.append((jv, vj))
    return out


def _declared(p):
    P = _prim(p.forward, p.name, broadcasting=len(p.args) > 1)
    if p.opaque:
        maps = _opaque_maps(p)

        def saved(ans, args):
            vals, aux = _saved_maker(p, args[0], ans, args)
            vals["X"] = args[0]
            return [vals[s] if s in vals else aux(s) for s in p.saves]

        def vjp_of(vj):
            if vj is None:
                return None
            return lambda ans, *args: lambda g: vj(*saved(ans, args), g)

        def jvp_of(jv):
            if jv is None:
                return None
            return lambda t, ans, *args: jv(*saved(ans, args), t)
        _defvjp(P, *[vjp_of(vj) for _, vj in maps])
        _defjvp(P, *[jvp_of(jv) for jv, _ in maps])
        return P

    def vjp_maker(k):
        def maker(ans, *args):
            def pullback(g):
                vals, aux = _saved_maker(p, args[0], ans, args)
                out = _index_form.vjp(p, _this, vals, g, aux)[p.args[k]]
                return _ZERO if out is None else out
            return pullback
        return maker

    def jvp_all(tans, ans, *args):
        vals, aux = _saved_maker(p, args[0], ans, args)
        t = {a: (None if is_zero(x) else x) for a, x in zip(p.args, tans)}
        out = _index_form.jvp(p, _this, vals, t, aux)
        return zeros_like(ans) if out is None else out
    _defvjp(P, *[vjp_maker(k) for k in range(len(p.args))])
    P.jvp_all = jvp_all
    return P


class _BoundTraced:
    """np.prim.<name> over traced values: the declared primitive and its maps (batch axes first)."""

    def __init__(self, p):
        self.p = p

    def forward(self, *args):
        return _PRIMS[self.p.name](*args)

    def factored(self, X, *rest, trans=False):
        if trans:
            X = swapaxes(X, -1, -2)
        return self.forward(X, *rest)

    def jvp(self, *args, arg=0):
        return _MAPS[self.p.name][arg][0](*args)

    def vjp(self, *args, arg=0):
        return _MAPS[self.p.name][arg][1](*args)


_this = _sys.modules[__name__]
_PRIMS: dict = {}
_MAPS: dict = {}
prim = _PrimCalls()
for _name, _p in _primitives.PRIMITIVES.items():
    _PRIMS[_name] = _declared(_p)
    if _p.opaque:
        _MAPS[_name] = _opaque_maps(_p)
    setattr(prim, _name, _BoundTraced(_p))

adjugate = _PRIMS["adj"]


def _slogdet(A):
    """(sign, log|det A|): the sign is piecewise constant (no derivative), the log from logdet's declaration."""
    sign = _nondiff(lambda X: _np.linalg.slogdet(X)[0])(A)
    return _SlogdetResult(sign, _PRIMS["logdet"](A))


_SlogdetResult = __import__("collections").namedtuple("SlogdetResult", "sign logabsdet")


def _norm(x, ord=None, axis=None, keepdims=False):
    if ord not in (None, 2, "fro") or (ord == 2 and (axis is None and _ndim(x) != 1)):
        raise NotImplementedError("runtime.tnp.linalg.norm: only the 2-norm of vectors and Frobenius norm")
    return sqrt(sum(x * x, axis=axis, keepdims=keepdims))


linalg.__dict__.update({n: _PRIMS[n] for n in ("inv", "det", "solve", "cholesky", "eigvalsh")},
                       slogdet=_slogdet, norm=_norm)

pi, e, inf, nan, newaxis = _np.pi, _np.e, _np.inf, _np.nan, _np.newaxis


def __getattr__(name):
    # constants and dtypes pass through; a NumPy *function* without a derivative here is an error, not a
    # silently detached result
    val = getattr(_np, name)
    if isinstance(val, type) or not callable(val):
        return val
    raise AttributeError(f"runtime.tnp has no differentiable '{name}' (NumPy has one; add it to runtime/tnp.py)")


# --------------------------------------------------------------------------- operators on traced values
def _binop(prim, zero_result):
    def op(self, other):
        if isinstance(other, AbstractZero):
            return zero_result(self, other)
        return prim(self, unthunk(other))

    def rop(self, other):
        if isinstance(other, AbstractZero):
            return zero_result(self, other)
        return prim(unthunk(other), self)
    return op, rop


def _install_operators():
    T = Traced
    keep = lambda s, z: s  # noqa: E731  (x + 0 = x)
    zero = lambda s, z: z  # noqa: E731  (x * 0 = 0)
    T.__add__, T.__radd__ = _binop(add, keep)
    T.__sub__, _ = _binop(subtract, keep)
    T.__rsub__ = lambda s, o: negative(s) if isinstance(o, AbstractZero) else subtract(unthunk(o), s)
    T.__mul__, T.__rmul__ = _binop(multiply, zero)
    T.__truediv__, T.__rtruediv__ = _binop(divide, zero)
    T.__pow__, T.__rpow__ = _binop(power, zero)
    T.__matmul__, T.__rmatmul__ = _binop(matmul, zero)
    T.__mod__, T.__rmod__ = _binop(mod, zero)
    T.__neg__ = lambda s: negative(s)
    T.__pos__ = lambda s: s
    T.__abs__ = lambda s: absolute(s)
    for name, fn in (("lt", _np.less), ("le", _np.less_equal), ("gt", _np.greater),
                     ("ge", _np.greater_equal), ("eq", _np.equal), ("ne", _np.not_equal)):
        setattr(T, f"__{name}__", (lambda f: lambda s, o: f(getval(s), getval(o)))(fn))
    T.__getitem__ = lambda s, idx: getitem(s, _deep_getval(idx))

    def _setitem(s, idx, v):
        raise TypeError("traced arrays are immutable: build the result with tnp.where, concatenate or stack")
    T.__setitem__ = _setitem
    T.T = property(lambda s: transpose(s))
    T.mT = property(lambda s: _T(s))
    T.sum = lambda s, axis=None, dtype=None, out=None, keepdims=False: sum(s, axis=axis, keepdims=keepdims)
    T.mean = lambda s, axis=None, dtype=None, out=None, keepdims=False: mean(s, axis=axis, keepdims=keepdims)
    T.prod = lambda s, axis=None, dtype=None, out=None, keepdims=False: prod(s, axis=axis, keepdims=keepdims)
    T.max = lambda s, axis=None, out=None, keepdims=False: max(s, axis=axis, keepdims=keepdims)
    T.min = lambda s, axis=None, out=None, keepdims=False: min(s, axis=axis, keepdims=keepdims)
    T.var = lambda s, axis=None, ddof=0, keepdims=False: var(s, axis=axis, ddof=ddof, keepdims=keepdims)
    T.std = lambda s, axis=None, ddof=0, keepdims=False: std(s, axis=axis, ddof=ddof, keepdims=keepdims)
    T.reshape = lambda s, *shape, **kw: reshape(
        s, shape[0] if len(shape) == 1 and not isinstance(shape[0], (int, _np.integer)) else shape, **kw)
    T.transpose = lambda s, *axes: transpose(
        s, None if not axes else (axes[0] if len(axes) == 1 and not isinstance(axes[0], int) else axes))
    T.swapaxes = lambda s, a, b: swapaxes(s, a, b)
    T.squeeze = lambda s, axis=None: squeeze(s, axis)
    T.ravel = T.flatten = lambda s, order="C": ravel(s)
    T.diagonal = lambda s, offset=0, axis1=0, axis2=1: diagonal(s, offset, axis1, axis2)
    T.trace = lambda s, offset=0, axis1=0, axis2=1: trace(s, offset, axis1, axis2)
    T.dot = lambda s, o: dot(s, o)
    T.clip = lambda s, a_min=None, a_max=None: clip(s, a_min, a_max)
    T.cumsum = lambda s, axis=None: cumsum(s, axis)
    T.astype = lambda s, dtype, **kw: astype(s, dtype)
    T.copy = lambda s: s
    T.conj = T.conjugate = lambda s: s


def _install_dispatch():
    """Let plain NumPy calls on traced values (np.exp(box), ndarray + box, np.sum(box)) land here."""
    ufuncs, functions = {}, {}
    g = globals()
    for name, fn in list(g.items()):
        if name.startswith("_") or not callable(fn) or isinstance(fn, type):
            continue
        npfn = getattr(_np, name, None)
        if isinstance(npfn, _np.ufunc):
            ufuncs[npfn.__name__] = fn
        elif callable(npfn) and not isinstance(npfn, type):
            functions[(npfn.__module__, npfn.__name__)] = fn
    for name in ("inv", "det", "slogdet", "solve", "cholesky", "norm"):
        npfn = getattr(_np.linalg, name)
        functions[(npfn.__module__, npfn.__name__)] = getattr(linalg, name)
    ufuncs["divide"] = divide
    Traced.ufunc_table = ufuncs
    Traced.function_table = functions


_install_operators()
_install_dispatch()
