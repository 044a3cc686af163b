# isort: skip_file
"""The array namespace generated code runs on under JAX: jax.numpy plus the rule language's built-ins and the
matrix primitives (`np.prim`), all traceable under jit, vmap and JAX's differentiation; runtime.jax wraps the ops.

The JAX twin of runtime.backend_numpy: `_define(backend_jax)` in a generated module gives forward functions and
frules over jax arrays. Any name not defined here falls back to jax.numpy. Built-ins applied to Python numbers
(extents: `float(np.log(n_i))`) are computed by NumPy and return Python numbers, so they stay weak-typed (float32
stays float32) and concrete under jit. This module does not enable float64: a test or user who wants it calls
jax.config.update("jax_enable_x64", True) before creating arrays.
"""
from __future__ import annotations

import builtins as _builtins
import functools
import numbers
import operator
import sys

import jax
import jax.numpy as jnp
import jax.scipy.linalg as _jsla
import jax.scipy.special as _jsp
import numpy as _numpy
from jax.numpy import *  # noqa: F401,F403  (the namespace *is* jax.numpy's)
from jax.numpy import linalg, abs, sum, prod, max, min, round, pi, e, inf, nan, newaxis  # noqa: F401

from runtime import backend_numpy as _backend_numpy
from primitives import matrix as _primitives
from runtime import shifts as _shifts
from primitives import index_form as _index_form
from primitives.elementwise import ROWS as _ROWS
from primitives.elementwise import row_function as _row_function
from primitives.elementwise import resolve as _resolve

# ------------------------------------------------------------------------------------- elementwise built-ins
def _python_number(x):
    return isinstance(x, numbers.Number) and not isinstance(x, (jax.Array, _numpy.ndarray))


def _scalar_safe(jfn, nfn):
    """jfn on arrays; on Python numbers only (a function of extents) NumPy's nfn, as a Python number: concrete
    under jit (generated code takes float() of it) and weak-typed (it does not promote float32 to float64)."""
    def f(*args, **kw):
        if args and _builtins.all(_python_number(a) for a in args) and not kw:
            return _numpy.asarray(nfn(*args)).item()
        return jfn(*args, **kw)
    f.__name__ = getattr(jfn, "__name__", "f")
    return f


def _install_elementwise():
    g = globals()
    for row in _ROWS:
        if "{" in row.numpy:
            continue            # an operator template (x ** y)
        jfn = _row_function(row, "jax", jax, "numpy." + row.numpy)     # the row's JAX spelling
        g[row.numpy] = _scalar_safe(jfn, getattr(_backend_numpy, row.numpy))


_install_elementwise()
erfc = _scalar_safe(_jsp.erfc, _backend_numpy.erfc)


def __getattr__(name):
    return getattr(jnp, name)


lse_shift, logsumexp = _backend_numpy.lse_functions(jnp)      # runtime.backend_numpy's, over jax arrays


def _refine(value, bound, n, all_direct, at):
    """runtime.backend_numpy.checked_sum's refine under jit: up to a fixed number of entries (a static shape)
    gathered and recomputed, all of them recomputed where more are flagged, none where none are."""
    bad = _backend_numpy.cancelled(jnp, value, bound(slice(None), value.shape[0]))
    cap = _builtins.max(1, value.size // 64)
    count = jnp.sum(bad)

    def few(_):
        pos = jnp.nonzero(bad, size=cap, fill_value=0)      # the filler entry is recomputed too: harmless
        return value.at[pos].set(jnp.asarray(at(pos), value.dtype))

    def every(_):
        return jnp.asarray(all_direct(), value.dtype)
    branch = jnp.where(count == 0, 0, jnp.where(count <= cap, 1, 2))
    return jax.lax.switch(branch, [lambda _: value, few, every], None)


# XLA fuses the slices; a kept difference (Σ_j c·(x_i - y_j)) is read per pair, unchecked: runtime.jax differentiates
# in reverse by transposing the frule, where that sum is linear in the tangents and its check would choose entries
# by their values (a switch whose index JAX cannot transpose)
checked_sum = _backend_numpy.checked_sum_function(jnp, _refine, blocked=False, concat=jnp.concatenate,
                                                  check_pairs=False)


# ------------------------------------------------------------------------------------- shifted subscripts
def shift_window(x, spec, shape):
    """runtime.shifts.window as a gather (JAX has no strided views): x at integer positions, one array per axis."""
    _shifts.check(jnp.shape(x), spec, shape)
    return jnp.asarray(x)[_shifts.positions(spec, shape, jnp)]


def shift_scatter(g, spec, shape):
    """runtime.shifts.scatter: every element of g added at its position (repeated positions accumulate)."""
    g = jnp.asarray(g)
    _shifts.check(tuple(shape), spec, jnp.shape(g))
    return jnp.zeros(tuple(shape), dtype=g.dtype).at[_shifts.positions(spec, jnp.shape(g), jnp)].add(g)


# ------------------------------------------------------------------------------------- matrix primitives
def _T(X):
    return jnp.swapaxes(X, -1, -2)


def _eigh(A):
    """primitives.sym.eigh over jnp: eigh with the largest-magnitude component of each eigenvector
    positive (the declarations' sign convention), traceable."""
    w, V = jnp.linalg.eigh(A, symmetrize_input=False)
    if V.shape[-1] == 0:
        return w, V
    k = jnp.argmax(jnp.abs(V), axis=-2)[..., None, :]
    s = jnp.where(jnp.take_along_axis(V, k, axis=-2) < 0, -1.0, 1.0).astype(V.dtype)
    return w, V * s


def _spectral(f):
    def apply(S):
        w, V = _eigh(S)
        return (V * f(w)[..., None, :]) @ _T(V)
    return apply


def _solve(X, B):
    if jnp.ndim(B) in (1, jnp.ndim(X) - 1):      # a vector, or a batch of vectors
        return jnp.linalg.solve(X, B[..., None])[..., 0]
    return jnp.linalg.solve(X, B)


def _others_product(s):
    one = jnp.ones(s.shape[:-1] + (1,), s.dtype)
    pre = jnp.cumprod(jnp.concatenate([one, s[..., :-1]], axis=-1), axis=-1)
    suf = jnp.cumprod(jnp.concatenate([one, s[..., :0:-1]], axis=-1), axis=-1)[..., ::-1]
    return pre * suf if s.shape[-1] else s


def others_product(x, axis):
    """primitives.special.others_product over jnp (prefix and suffix products: no division, JAX differentiates it)."""
    return jnp.moveaxis(_others_product(jnp.moveaxis(x, axis, -1)), -1, axis)


def _svd_parts(A):
    U, s, Vt = jnp.linalg.svd(A)
    return U, s, Vt, jnp.linalg.det(U) * jnp.linalg.det(Vt)


def _adjugate_jvp(A, E):
    """primitives.special.adjugate_jvp over jnp (no in-place writes), linear in E so that JAX can transpose it."""
    U, s, Vt, sign = _svd_parts(A)
    V = _T(Vt)
    F = _T(U) @ E @ V
    n = s.shape[-1]
    q = jnp.stack([_others_product(s.at[..., k].set(1.0)) for k in range(n)], axis=-1)
    eye = _numpy.eye(n, dtype=bool)
    diag = jnp.einsum("...ik,...k->...i", jnp.where(eye, 0.0, q), jnp.einsum("...kk->...k", F))
    D = jnp.where(eye, diag[..., :, None], -F * q) * sign[..., None, None]
    return V @ D @ _T(U)


@jax.custom_jvp
def _adjugate(A):
    """adj(A) through the SVD (primitives.special.adjugate), continuous at singular A; its derivative is the
    declaration's (the adjugate's jvp), not JAX's through the SVD, which is infinite at repeated singular values."""
    U, s, Vt, sign = _svd_parts(A)
    return _T(Vt) @ ((_others_product(s) * sign[..., None])[..., :, None] * _T(U))


_adjugate.defjvp(lambda primals, tangents: (_adjugate(primals[0]), _adjugate_jvp(primals[0], tangents[0])))


def _expm_jvp(A, E):
    return jax.jvp(_jsla.expm, (A,), (E,))[1]


def _expm_vjp(A, G):
    return jax.vjp(_jsla.expm, A)[1](G)[0]


# Each declared primitive's value in jnp (NumPy's batch-first layout). A new declaration without an entry here
# fails at import, naming itself, rather than at the first call.
_FORWARD = {
    "inv": jnp.linalg.inv,
    "det": jnp.linalg.det,
    "logdet": lambda X: jnp.linalg.slogdet(X)[1],
    "solve": _solve,
    "adj": _adjugate,
    "cholesky": lambda X: jax.lax.linalg.cholesky(X, symmetrize_input=False),   # A's lower triangle, as NumPy
    "eigvalsh": lambda A: _eigh(A)[0],
    "eigvecsh": lambda A: _eigh(A)[1],
    "logm": _spectral(jnp.log),
    "sqrtm": _spectral(jnp.sqrt),
    "expm": _jsla.expm,
}
# Declarations whose jvp/vjp are NumPy code (traceable=False): their maps in JAX. expm's Fréchet derivative is
# JAX's own (the same map, computed so that it is linear in the direction; the declaration's block-matrix
# exponential is not linear to JAX); the adjugate's is the declaration's formula, ported above.
_MAPS = {
    "expm": (_expm_jvp, _expm_vjp),
    "adj": (_adjugate_jvp, lambda X, G: _T(_adjugate_jvp(X, _T(G)))),
}


def _maps(p):
    """One (jvp, vjp) per argument (None for an argument without), or None for an index-form differential."""
    if p.name in _MAPS:
        return [_MAPS[p.name]]
    if not p.opaque:
        return None
    if not p.traceable:
        raise ImportError(f"runtime.backend_jax: primitive {p.name!r} declares NumPy-only jvp/vjp; give it JAX "
                          f"maps in runtime/backend_jax.py _MAPS")
    this = sys.modules[__name__]

    def bound(f):
        return None if f is None else (lambda *a: f(this, *a))
    return [(bound(j), bound(v)) for j, v in zip(p.jvps, p.vjps)]


def _declared(p, fwd, maps):
    """The primitive as a jax.custom_jvp: its value from fwd, its derivative the declaration's (index form,
    or jvp code over this namespace), so a rule's second derivative uses the same differential as NumPy's."""
    if p.name in ("adj", "expm"):
        return fwd               # differentiated by their own custom_jvp (adj) or JAX's (expm) already
    this = sys.modules[__name__]
    f = jax.custom_jvp(fwd)

    def jvp(primals, tangents):
        R = f(*primals)
        X = primals[0]
        cache = {}

        def aux(name):
            if name not in cache:
                cache[name] = _PRIMS[name](X)
            return cache[name]
        if p.opaque:
            vals = dict(zip(p.args, primals), X=X, R=R)
            saved = [vals[s] if s in vals else aux(s) for s in p.saves]
            parts = [m[0](*saved, t) for m, t in zip(maps, tangents) if m[0] is not None]
            return R, functools.reduce(operator.add, parts)
        values = dict(zip(p.args, primals))
        values["R"] = R
        t = {a: dt for a, dt in zip(p.args, tangents)}
        dR = _index_form.jvp(p, this, values, t, aux)
        return R, jnp.zeros_like(R) if dR is None else dR
    f.defjvp(jvp)
    return f


class _LU:
    """A shared factorisation (`np.prim.factor`): the LU of X, computed once on first use under the trace."""

    __slots__ = ("X", "_lu")

    def __init__(self, X):
        self.X, self._lu = X, None

    def lu(self):
        if self._lu is None:
            self._lu = _jsla.lu_factor(self.X, check_finite=False)
        return self._lu

    def value(self, name, rest, trans):
        lu, piv = self.lu()
        if name == "inv":
            return _jsla.lu_solve((lu, piv), jnp.eye(self.X.shape[-1], dtype=lu.dtype))
        if name == "solve":
            return _jsla.lu_solve((lu, piv), rest[0], trans=1 if trans else 0)
        d = jnp.diagonal(lu)
        if name == "logdet":
            return jnp.sum(jnp.log(jnp.abs(d)))
        if name == "det":
            swaps = jnp.sum(piv != jnp.arange(piv.shape[0]))
            return jnp.where(swaps % 2 == 1, -1.0, 1.0).astype(lu.dtype) * jnp.prod(d)
        return None


class _Bound:
    """np.prim.<name> over jax arrays (batch axes first, as in NumPy)."""

    def __init__(self, p):
        self.p = p

    def forward(self, *args):
        return _PRIMS[self.p.name](*args)

    def factored(self, F, *rest, trans=False):
        if isinstance(F, _LU):
            v = F.value(self.p.name, rest, trans) if self.p.factored is not None else None
            if v is not None:
                return v
            F = F.X
        if trans:
            F = jnp.swapaxes(F, -1, -2)
        return self.forward(F, *rest)

    def jvp(self, *args, arg=0):
        return _PRIM_MAPS[self.p.name][arg][0](*args)

    def vjp(self, *args, arg=0):
        return _PRIM_MAPS[self.p.name][arg][1](*args)


class _Calls:
    """`np.prim`: every declared primitive bound to this namespace, and the shared factorisation."""

    def factor(self, X, spd=False):
        # LU whatever `spd` says: a Cholesky with a fallback to LU where it fails is a branch on values,
        # which a trace cannot take; the LU gives what the unfactored primitives give
        if jnp.ndim(X) == 2:
            return _LU(X)
        return X


_PRIMS: dict = {}
_PRIM_MAPS: dict = {}
prim = _Calls()
for _name, _p in _primitives.PRIMITIVES.items():
    _fwd = _FORWARD.get(_name) or (_resolve(jax, _p.jax, None) if _p.jax is not None else None)
    if _fwd is None:
        raise ImportError(f"runtime.backend_jax: matrix primitive {_name!r} has no JAX forward; declare it (the "
                          f"declaration's `jax`) or add it to _FORWARD in runtime/backend_jax.py")
    _m = _maps(_p)
    if _m is not None:
        _PRIM_MAPS[_name] = _m
    _PRIMS[_name] = _declared(_p, _fwd, _m)
    setattr(prim, _name, _Bound(_p))
