"""The array namespace generated code runs on over torch tensors: the torch twin of runtime.backend_numpy.

`_define(backend_torch)` in a generated module gives forward functions, frules and rrules whose every
operation is a torch op, so they run on any device and torch's autograd records them (runtime.torch builds its
higher order on that). Only the NumPy API generated code uses is spelled here (derive/emission/numpy_print.py,
derive/emission/numpy_module.py, primitives/elementwise.py, and the `xp` calls of primitives/matrix' declarations); a name
that is missing fails loudly (AttributeError), never through a silent NumPy round trip.

Devices: nothing here moves data off its device. Factories without a tensor argument (eye, full, ones, asarray of a
number) build on the device `on_device` sets (runtime.torch sets it to the op's arguments' device around every
call), else on torch's default device. Dtypes: Python numbers stay weak, as in NumPy 2 and torch, so float32
stays float32; `result_type` returns a torch dtype.
"""
from __future__ import annotations

import builtins
import contextlib
import math
import threading

import numpy as _np
import torch

from primitives import matrix as _primitives
from primitives.elementwise import ROWS as _ROWS
from primitives.elementwise import resolve as _resolve
from primitives.elementwise import row_function as _row_function
from runtime import backend_numpy as _backend_numpy
from runtime import shifts as _shifts

Tensor = torch.Tensor
pi, e, inf, nan, newaxis = math.pi, math.e, math.inf, math.nan, None
float64, float32, bool_ = torch.float64, torch.float32, torch.bool

# --------------------------------------------------------------------------- device of argument-free factories
state = threading.local()


def current_device():
    return getattr(state, "device", None)


@contextlib.contextmanager
def on_device(device):
    """Factories inside (eye, full, ...) build on `device` (autograd's engine runs backward in other threads:
    each entry point sets it where it runs)."""
    prev = getattr(state, "device", None)
    state.device = device
    try:
        yield
    finally:
        state.device = prev


def device_of(args):
    for a in args:
        if isinstance(a, Tensor):
            return a.device
    return None


_DTYPES = {bool: torch.bool, float: None, int: torch.int64, _np.float64: torch.float64,
           _np.float32: torch.float32, _np.bool_: torch.bool}


def _dtype(dtype):
    if dtype is None or isinstance(dtype, torch.dtype):
        return dtype
    if dtype in _DTYPES:
        return _DTYPES[dtype]
    return {"float64": torch.float64, "float32": torch.float32, "bool": torch.bool}[_np.dtype(dtype).name]


def _t(x, dtype=None):
    """x as a tensor (a Python number: on the current device, a weak float in the default float dtype)."""
    if isinstance(x, Tensor):
        return x if dtype is None or x.dtype == dtype else x.to(dtype)
    return torch.as_tensor(x, dtype=dtype, device=current_device())


# --------------------------------------------------------------------------- creation and dtypes
def result_type(*args):
    """The dtype NumPy 2 would give: tensors promote (0-d ones weakly, as Python numbers do)."""
    dt = None
    for strong in (True, False):
        for a in args:
            if isinstance(a, Tensor) and (a.dim() > 0) == strong:
                d = a.dtype
            elif isinstance(a, torch.dtype) and strong:
                d = a
            else:
                continue
            dt = d if dt is None else torch.promote_types(dt, d)
        if dt is not None:
            break
    if dt is None or (not dt.is_floating_point and builtins.any(isinstance(a, float) for a in args)):
        return torch.get_default_dtype()     # Python numbers only: torch's float, as torch.tensor(1.5) has
    return dt


def asarray(x, dtype=None, **kwargs):
    return _t(x, _dtype(dtype))


array = asarray


def eye(n, dtype=None, **kwargs):
    return torch.eye(n, dtype=_dtype(dtype), device=current_device())


def full(shape, value, dtype=None, **kwargs):
    if isinstance(value, Tensor):
        return value.to(_dtype(dtype) or value.dtype).expand(shape).clone()
    return torch.full(tuple(shape), value, dtype=_dtype(dtype), device=current_device())


def ones(shape, dtype=None, **kwargs):
    return torch.ones(shape, dtype=_dtype(dtype), device=current_device())


def zeros(shape, dtype=None, **kwargs):
    return torch.zeros(shape, dtype=_dtype(dtype), device=current_device())


def broadcast_to(x, shape):
    return torch.broadcast_to(_t(x), tuple(shape))


def shape(x):
    return tuple(x.shape) if isinstance(x, Tensor) else _np.shape(x)


def ndim(x):
    return x.dim() if isinstance(x, Tensor) else _np.ndim(x)


# --------------------------------------------------------------------------- reductions and layout
def sum(x, axis=None, keepdims=False, dtype=None):
    if not isinstance(x, Tensor):
        x = _t(x)
    if axis is None:
        return torch.sum(x, dtype=_dtype(dtype)) if not keepdims else torch.sum(x, dim=tuple(range(x.dim())),
                                                                                keepdim=True)
    if axis == ():        # NumPy: sum over no axes is the identity; torch would sum over all of them
        return x
    return torch.sum(x, dim=axis, keepdim=keepdims)


def max(x, axis=None, keepdims=False, initial=None):
    dims = tuple(range(x.dim())) if axis is None else (axis if isinstance(axis, tuple) else (axis,))
    if initial is not None and x.numel() == 0 and builtins.any(x.shape[d] == 0 for d in dims):
        out = [1 if i in {d % x.dim() for d in dims} else s for i, s in enumerate(x.shape)]
        t = torch.full(out, initial, dtype=x.dtype, device=x.device)
        return t if keepdims else t.squeeze(dims)
    m = torch.amax(x, dim=dims, keepdim=keepdims)
    return m if initial is None or initial == -math.inf else torch.clamp_min(m, initial)


def lse_shift(x, axis):
    """runtime.backend_numpy.lse_shift: the maximum over `axis` (kept, extent 1), 0 where not finite. One
    nan_to_num (NaN, +inf and -inf to 0, finite values unchanged) is where(isfinite(m), m, 0.0) in one kernel
    instead of five (~4 µs less on small tensors)."""
    m = max(x, axis, keepdims=True, initial=-math.inf)
    return torch.nan_to_num(m, nan=0.0, posinf=0.0, neginf=0.0)


def logsumexp(x, axis):
    """runtime.backend_numpy.logsumexp: torch.logsumexp is the same sum shifted by the maximum (0 where that is
    infinite; an empty sum is -inf, NaN stays NaN), one call instead of seven ops."""
    return torch.logsumexp(x, dim=axis)


checked_sum = _backend_numpy.checked_sum_function(      # derive/emission/numpy_direct.py's sums
    torch, _backend_numpy.refine_by_gathering(torch, lambda b: torch.nonzero(b, as_tuple=True), torch.cat,
                                              lambda v: v.clone()), blocked=True, concat=torch.cat)


def min(x, axis=None, keepdims=False):
    dims = tuple(range(x.dim())) if axis is None else axis
    return torch.amin(x, dim=dims, keepdim=keepdims)


def prod(x, axis=None, keepdims=False):
    if axis is None:
        return torch.prod(x) if not keepdims else torch.prod(x.reshape(-1)).reshape([1] * x.dim())
    return torch.prod(x, dim=axis, keepdim=keepdims)


def others_product(x, axis):
    """primitives.special.others_product over torch: prefix times suffix cumulative products, no division."""
    x = torch.movedim(x, axis, -1)
    one = torch.ones(x.shape[:-1] + (1,), dtype=x.dtype, device=x.device)
    pre = torch.cumprod(torch.cat([one, x[..., :-1]], dim=-1), dim=-1)
    suf = torch.flip(torch.cumprod(torch.cat([one, torch.flip(x[..., 1:], (-1,))], dim=-1), dim=-1), (-1,))
    return torch.movedim(pre * suf if x.shape[-1] else x, -1, axis)


def transpose(x, axes=None):
    if axes is None:
        if x.dim() <= 2:      # a matrix (W.T of every dense layer): t() is the same view at half the cost
            return x.t()
        return x.permute(*reversed(range(x.dim())))
    return x.permute(*axes)


def swapaxes(x, a, b):
    return torch.transpose(x, a, b)


def moveaxis(x, source, destination):
    return torch.movedim(x, source, destination)


def expand_dims(x, axis):
    return torch.unsqueeze(x, axis)


def einsum(spec, *ops, optimize=None):
    d0 = ops[0].dtype
    for o in ops[1:]:
        if o.dtype != d0:   # NumPy promotes; torch.einsum insists on one dtype
            dt = result_type(*ops)
            ops = tuple(o.to(dt) for o in ops)
            break
    return torch.einsum(spec, *ops)


def concatenate(arrays, axis=0):
    return torch.cat(list(arrays), dim=axis)


def matmul(a, b):
    return torch.matmul(a, b)


# index comparisons and cumulative sums (derive/ir/masks.py): positions, scans along an axis
def arange(n):
    return torch.arange(n, device=current_device())


def cumsum(x, axis):
    return torch.cumsum(x, dim=axis)


def flip(x, axis):
    return torch.flip(x, dims=(axis,))


def tril(x, k=0):
    return torch.tril(x, k)


def triu(x, k=0):
    return torch.triu(x, k)


def where(cond, x, y):
    if not isinstance(cond, Tensor):
        if not isinstance(x, Tensor) and not isinstance(y, Tensor):
            return x if cond else y       # all numbers (an integer parameter's test): a number
        cond = _t(bool(cond))
    if not isinstance(x, Tensor) and not isinstance(y, Tensor):
        # two numbers: NumPy gives float64 here, torch its default dtype; every use casts the result (asarray)
        return torch.where(cond, _t(x, torch.float64), y)
    return torch.where(cond, x, y)


isfinite = torch.isfinite
isnan = torch.isnan


# --------------------------------------------------------------------------- elementwise built-ins
def _lift(fn, scalar):
    """A torch function that also takes a Python number (a rule's constant or a scalar argument)."""
    def f(x):
        return fn(x) if isinstance(x, Tensor) else scalar(x)
    f.__name__ = getattr(fn, "__name__", "f")
    return f


# each row's torch spelling (primitives.elementwise); on Python numbers (a rule's constant, a scalar argument)
# math's function where math has it under the NumPy name, else NumPy's, as a Python number
for _row in _ROWS:
    if "{" in _row.numpy or _row.numpy == "where":
        continue     # an operator template (`**`) or `where`, defined above
    _scalar = getattr(math, _row.numpy, None) or (lambda v, _f=getattr(_backend_numpy, _row.numpy): float(_f(v)))
    globals()[_row.numpy] = _lift(_row_function(_row, "torch", torch, _row.numpy), _scalar)
log = _lift(torch.log, math.log)   # also used by the log-sum-exp emitter


class _Linalg:
    """`xp.linalg` for the declarations' jvp/vjp code."""
    inv = staticmethod(torch.linalg.inv)
    solve = staticmethod(torch.linalg.solve)
    LinAlgError = torch.linalg.LinAlgError


linalg = _Linalg()


# --------------------------------------------------------------------------- matrix primitives
def _eigh(A):
    """torch.linalg.eigh with primitives.sym.eigh's sign convention (largest |component| positive)."""
    w, V = torch.linalg.eigh(A)
    if V.shape[-1] == 0:
        return w, V
    k = torch.argmax(torch.abs(V), dim=-2, keepdim=True)
    s = torch.where(torch.take_along_dim(V, k, dim=-2) < 0, -1.0, 1.0).to(V.dtype)
    return w, V * s


def _spectral(f):
    def apply(S):
        w, V = _eigh(S)
        return (V * f(w)[..., None, :]) @ V.transpose(-1, -2)
    return apply


def _adjugate(A):
    """adj(A) through the SVD, as primitives.special.adjugate: det(U)·det(V)·V·diag(Π_{j≠i} s_j)·Uᵀ, continuous at
    singular A; built from torch ops, so torch differentiates it (at distinct singular values)."""
    U, s, Vh = torch.linalg.svd(A)
    sign = torch.linalg.det(U) * torch.linalg.det(Vh)
    n = s.shape[-1]
    if n == 0:
        return A
    ones = torch.ones_like(s[..., :1])
    left = torch.cumprod(torch.cat([ones, s[..., :-1]], -1), -1)            # Π_{j<i} s_j
    right = torch.flip(torch.cumprod(torch.cat([ones, torch.flip(s[..., 1:], (-1,))], -1), -1), (-1,))
    p = left * right * sign[..., None]
    return Vh.transpose(-1, -2) @ (p[..., :, None] * U.transpose(-1, -2))


def _solve(X, B):
    if B.dim() in (1, X.dim() - 1):
        return torch.linalg.solve(X, B.unsqueeze(-1)).squeeze(-1)
    return torch.linalg.solve(X, B)


def _frechet_expm(A, E):
    """The Fréchet derivative of expm at A in direction E: the top-right block of expm([[A, E], [0, A]])."""
    A, E = torch.broadcast_tensors(A, E)
    n = A.shape[-1]
    top = torch.cat([A, E], -1)
    bottom = torch.cat([torch.zeros_like(A), A], -1)
    return torch.linalg.matrix_exp(torch.cat([top, bottom], -2))[..., :n, n:]


def _adj_jvp(xp, X, E):
    return torch.func.jvp(_adjugate, (X,), (E.to(X.dtype),))[1]


def _adj_vjp(xp, X, G):
    return torch.func.vjp(_adjugate, X)[1](G.to(X.dtype))[0]


# forward (batch axes first) of every declared primitive, and jvp/vjp where the declaration's are NumPy code
FORWARD = {
    "inv": torch.linalg.inv, "det": torch.linalg.det, "logdet": lambda X: torch.linalg.slogdet(X)[1],
    "solve": _solve, "cholesky": torch.linalg.cholesky, "eigvalsh": lambda A: _eigh(A)[0],
    "eigvecsh": lambda A: _eigh(A)[1], "logm": _spectral(torch.log), "sqrtm": _spectral(torch.sqrt),
    "expm": torch.linalg.matrix_exp, "adj": _adjugate,
}
MAPS = {
    "expm": (lambda xp, A, E: _frechet_expm(A, E), lambda xp, A, G: _frechet_expm(A.transpose(-1, -2), G)),
    "adj": (_adj_jvp, _adj_vjp),
}


def _check_singular(info):
    """LinAlgError, as torch.linalg.inv raises it, where a LAPACK info says U[k,k] is zero (a device sync)."""
    k = builtins.int(info)
    if k > 0:
        raise torch.linalg.LinAlgError(f"the matrix is singular: U[{k - 1},{k - 1}] of its LU factorisation is "
                                       f"zero, so it has no inverse (inv, solve)")


class Factor:
    """One LU factorisation of an unbatched square matrix, shared by the primitives applied to it (the torch
    twin of primitives.factor.Factor, with its interface). Always LU: choosing Cholesky would branch on
    the matrix's values (a device sync, and no vmap). inv/solve refuse a singular matrix, as torch.linalg.inv
    does; det and logdet read the unchecked factorisation (det of a singular matrix is 0)."""

    __slots__ = ("X", "_lu", "_checked", "_inv")

    def __init__(self, X):
        self.X, self._lu, self._checked, self._inv = X, None, False, None

    def _get(self, checked):
        if checked and not self._checked:
            # lu_factor's own check raises a RuntimeError that `except torch.linalg.LinAlgError` (the usual
            # add-jitter-and-retry) misses; torch.linalg.inv raises LinAlgError, and so do we
            if torch._C._are_functorch_transforms_active():     # vmap cannot read info; lu_factor checks
                self._lu, self._checked = torch.linalg.lu_factor(self.X), True
                return self._lu
            LU, piv, info = torch.linalg.lu_factor_ex(self.X)
            _check_singular(info)
            self._lu, self._checked = (LU, piv), True
        elif self._lu is None:
            LU, piv, _ = torch.linalg.lu_factor_ex(self.X)
            self._lu = (LU, piv)
        return self._lu

    def solve(self, B, trans=False):
        if self._inv is not None:          # the inverse is at hand: a product, not a second factorisation
            return (self._inv.T if trans else self._inv) @ B
        LU, piv = self._get(True)
        if B.dim() == 1:
            return torch.linalg.lu_solve(LU, piv, B.unsqueeze(-1), adjoint=trans).squeeze(-1)
        return torch.linalg.lu_solve(LU, piv, B, adjoint=trans)

    def inv(self):
        if self._inv is None:
            if self._lu is not None and self._checked:
                LU, piv = self._lu
                self._inv = torch.linalg.lu_solve(LU, piv, torch.eye(LU.shape[-1], dtype=LU.dtype,
                                                                     device=LU.device))
            elif torch._C._are_functorch_transforms_active():       # vmap cannot read info
                self._inv = torch.linalg.inv(self.X)
            else:
                # the inverse first asked for: one LAPACK call (getrf + getri), not an LU and then a solve
                # against the identity
                inv, info = torch.linalg.inv_ex(self.X)
                _check_singular(info)
                self._inv = inv
        return self._inv

    def logdet(self):
        LU, _ = self._get(False)
        return torch.sum(torch.log(torch.abs(torch.diagonal(LU))))

    def det(self):
        LU, piv = self._get(False)
        n = piv.shape[-1]
        swaps = torch.sum(piv != torch.arange(1, n + 1, dtype=piv.dtype, device=piv.device))
        return torch.where(swaps % 2 == 1, -1.0, 1.0).to(LU.dtype) * torch.prod(torch.diagonal(LU))


class _Bound:
    """One primitive as generated code calls it (`np.prim.inv.forward(X)`, batch axes first), over torch tensors."""

    def __init__(self, p):
        self.p = p
        self.fwd = FORWARD.get(p.name) or (_resolve(torch, p.torch, None) if p.torch is not None else None)
        if self.fwd is None:     # found where the bridge is imported (as JAX's), not at a first call
            raise ImportError(f"runtime.backend_torch: matrix primitive {p.name!r} has no torch forward; declare "
                              f"it (the declaration's `torch`, in primitives/matrix/) or add it to FORWARD here")
        # one (jvp, vjp) per argument: MAPS' for a primitive torch computes otherwise, else the declaration's
        self._maps = [MAPS[p.name]] if p.name in MAPS else list(zip(p.jvps, p.vjps))

    def forward(self, *args):
        return self.fwd(*args)

    def factored(self, F, *rest, trans=False):
        if isinstance(F, Factor):
            return self.p.factored(F, *rest, trans=True) if trans else self.p.factored(F, *rest)
        if trans:
            F = F.transpose(-1, -2)
        return self.forward(F, *rest)

    def jvp(self, *args, arg=0):
        return self._maps[arg][0](_this, *args)

    def vjp(self, *args, arg=0):
        return self._maps[arg][1](_this, *args)


class _Calls:
    """`np.prim`: every declared primitive over torch tensors, and the shared factorisation."""

    def __init__(self):
        for name, p in _primitives.PRIMITIVES.items():
            setattr(self, name, _Bound(p))

    def factor(self, X, spd=False):
        if isinstance(X, Tensor) and X.dim() == 2 and X.dtype in (torch.float64, torch.float32):
            return Factor(X)
        return X


# --------------------------------------------------------------------------- shifted subscripts (x[i+k])
def shift_window(x, spec, shape):
    """runtime.shifts.window: a strided view (torch strides count elements), no copy."""
    x = _t(x)
    _shifts.check(tuple(x.shape), spec, shape)
    if any(s == 0 for s in shape):
        return torch.zeros(tuple(shape), dtype=x.dtype, device=x.device)
    if any(c < 0 for row, _ in spec for _, c in row):
        # torch views have no negative strides: a gather (a generated pullback reads a padded cotangent backwards)
        return x[tuple(p.to(x.device) for p in _shifts.positions(spec, shape, torch))]
    offset = x.storage_offset() + builtins.sum(c * x.stride(d) for d, (_, c) in enumerate(spec))
    strides = [0] * len(shape)
    for d, (row, _) in enumerate(spec):
        for a, c in row:
            strides[a] += c * x.stride(d)
    return torch.as_strided(x, tuple(shape), tuple(strides), offset)


def shift_scatter(g, spec, shape):
    return _shifts.scatter_slices(_t(g), spec, shape, torch)


def __getattr__(name):
    raise AttributeError(f"runtime.backend_torch has no '{name}': generated code asked for a NumPy function this "
                         f"namespace does not spell yet (add it to runtime/backend_torch.py)")


_this = __import__("sys").modules[__name__]
prim = _Calls()
