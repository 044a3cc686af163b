"""Special functions NumPy lacks, vectorized and accurate to a few ulps in float64 (erf), or in both tails
(sigmoid, log-sigmoid, softplus), relu and its derivative step; and the adjugate, det's derivative, defined at
singular matrices too. runtime.elementwise_table names the ones the rule language calls (`impl`)."""
from __future__ import annotations

import itertools

import numpy as np

_TWO_OVER_SQRT_PI = 2.0 / np.sqrt(np.pi)
_INV_SQRT_PI = 1.0 / np.sqrt(np.pi)
_SPLIT = 2.0  # series below, continued fraction above (each converges fastest on its side)
_MAX_TERMS = 40
# the series for erf(x)·exp(x²)/x in t = x²: c_n = 2^n / (2n+1)!!, all positive (no cancellation)
_SERIES = list(itertools.accumulate(range(1, _MAX_TERMS + 1), lambda c, n: c * 2.0 / (2 * n + 1), initial=1.0))
_CF_DEPTH = 40


def _erf_series(x, t):
    """erf(x) = 2/sqrt(pi) exp(-t) x sum_n c_n t^n for t = x^2 (< _SPLIT^2): Horner in place, with as many terms
    as the largest t needs for x's precision (the sum is >= 1, so an absolute tail bound is a relative one)."""
    tmax = float(t.max()) if t.size else 0.0
    eps = 0.1 * np.finfo(x.dtype).eps
    n = 1
    while n < _MAX_TERMS and _SERIES[n] * tmax**n > eps:
        n += 1
    p = np.full_like(x, _SERIES[n])
    for c in reversed(_SERIES[:n]):
        p *= t
        p += c
    np.negative(t, out=t)
    np.exp(t, out=t)
    p *= t
    p *= x
    p *= _TWO_OVER_SQRT_PI
    return p


def _erfc_cf(ax):
    # erfc(x) = exp(-x^2)/sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))), x > 0, evaluated bottom-up
    f = ax.copy()
    for k in range(_CF_DEPTH, 0, -1):
        f = ax + (0.5 * k) / f
    return np.exp(-ax * ax) * _INV_SQRT_PI / f


def erf(x):
    """Error function, elementwise; max abs error ~2e-15 against math.erf on float64, NaN/Inf handled."""
    x = np.asarray(x)
    scalar = x.ndim == 0
    xf = np.atleast_1d(x).astype(np.result_type(x.dtype, np.float64) if x.dtype.kind in "biu" else x.dtype)
    ax = np.abs(xf)
    far = ax >= _SPLIT  # the continued fraction there; NaN goes to the series with t = 0, and x propagates it
    out = _erf_series(xf, np.where(ax < _SPLIT, xf * xf, 0))
    if far.any():
        with np.errstate(over="ignore", invalid="ignore"):
            out[far] = np.sign(xf[far]) * (1.0 - _erfc_cf(ax[far]))
    return out[0] if scalar else out


def erfc(x):
    """Complementary error function; accurate in the tail (uses the continued fraction directly)."""
    x = np.asarray(x)
    scalar = x.ndim == 0
    xf = np.atleast_1d(x).astype(np.result_type(x.dtype, np.float64) if x.dtype.kind in "biu" else x.dtype)
    out = np.empty_like(xf)
    far = xf >= _SPLIT
    near = ~far
    if near.any():
        out[near] = 1.0 - erf(xf[near])
    if far.any():
        with np.errstate(over="ignore", invalid="ignore"):
            out[far] = _erfc_cf(xf[far])
    return out[0] if scalar else out


# --------------------------------------------------------------------------------------- logistic functions
def sigmoid(x):
    """1 / (1 + exp(-x)), relatively accurate in both tails down to the smallest normal number: exp(-x) is
    exact to an ulp, 1 + exp(-x) loses nothing that matters, and for x ≪ 0 the result is exp(x)·(1 - ...).
    (0.5·tanh(x/2) + 0.5 rounds to 0 below -20 in float32, -40 in float64.) It is SciPy's expit, with no
    branch per element: a np.where on the sign cost 8x as much on data of mixed signs. exp(-x) overflows to
    inf only where σ(x) is below the smallest normal number, and then 1/inf = 0 quietly."""
    x = np.asarray(x)
    if x.dtype.kind in "biu":
        x = x.astype(np.float64)
    with np.errstate(over="ignore"):
        t = np.exp(-x)
    if isinstance(t, np.ndarray):
        t += 1.0
        return np.reciprocal(t, out=t)
    return 1.0 / (1.0 + t)


def softplus(x):
    """log(1 + exp(x)) = max(x, 0) + log1p(exp(-|x|)): no overflow, and exp(x) to full precision far left.
    The same value as np.logaddexp(0, x), at a third of its cost (logaddexp branches per element)."""
    x = np.asarray(x)
    if x.dtype.kind in "biu":
        x = x.astype(np.float64)
    if x.ndim == 0:
        return np.maximum(x, 0.0) + np.log1p(np.exp(-np.abs(x)))
    t = np.abs(x)
    np.negative(t, out=t)
    np.exp(t, out=t)
    np.log1p(t, out=t)
    t += np.maximum(x, 0.0)
    return t


def relu(x):
    return np.maximum(x, 0)


def step(x):
    """The Heaviside step with step(0) = 0: relu's derivative (the subgradient PyTorch picks)."""
    return np.heaviside(x, 0.0)


def log_sigmoid(x):
    """log σ(x) = -softplus(-x): finite where σ(x) underflows (x = -800 gives -800, not -inf)."""
    return -np.logaddexp(0.0, -np.asarray(x))


# --------------------------------------------------------------------------------------- the adjugate
def _others_product(s):
    """p[..., i] = Π_{j≠i} s[..., j], without division (s may hold zeros): prefix times suffix products."""
    n = s.shape[-1]
    one = np.ones(s.shape[:-1] + (1,), s.dtype)
    pre = np.cumprod(np.concatenate([one, s[..., :-1]], axis=-1), axis=-1)
    suf = np.cumprod(np.concatenate([one, s[..., :0:-1]], axis=-1), axis=-1)[..., ::-1]
    return pre * suf if n else s


def others_product(x, axis):
    """p[..., k, ...] = Π over the other entries along `axis` of x (prod's partials), without dividing by x, so
    exact where entries are 0: the prefix product times the suffix product (generated code for prod(k, e))."""
    x = np.asarray(x)
    return np.moveaxis(_others_product(np.moveaxis(x, axis, -1)), -1, axis)


def _svd_parts(A):
    A = np.asarray(A)
    if A.dtype.kind in "biu":
        A = A.astype(np.float64)
    U, s, Vt = np.linalg.svd(A)
    sign = np.linalg.det(U) * np.linalg.det(Vt)           # ±1 each: U and V are orthogonal
    return U, s, Vt, sign


def adjugate(A):
    """adj(A) = det(A)·A⁻¹ where A is invertible, and its continuous extension (a polynomial in A's entries)
    where it is not: det's gradient is adj(A)ᵀ at every matrix, [[1,2],[2,4]] included. Through the SVD
    A = U·diag(s)·Vᵀ: adj(A) = det(U)·det(V)·V·diag(Π_{j≠i} s_j)·Uᵀ, O(n³) and stable (no division).
    Batched over leading axes like NumPy's linalg."""
    U, s, Vt, sign = _svd_parts(A)
    p = _others_product(s) * sign[..., None]
    return np.swapaxes(Vt, -1, -2) @ (p[..., :, None] * np.swapaxes(U, -1, -2))


def adjugate_jvp(A, E):
    """The derivative of adj at A in the direction E (det's second derivative), at singular A too.

    With A = U·S·Vᵀ: adj(A + εE) = adj(Vᵀ)·adj(S + ε·UᵀEV)·adj(U), and at a diagonal S the derivative of the
    adjugate in direction F is diag_i(Σ_{k≠i} F_kk·q_ik) − F_ij·q_ij off the diagonal, q_ik = Π_{l∉{i,k}} s_l."""
    U, s, Vt, sign = _svd_parts(A)
    V = np.swapaxes(Vt, -1, -2)
    F = np.swapaxes(U, -1, -2) @ np.asarray(E, dtype=U.dtype) @ V
    n = s.shape[-1]
    # q[..., i, k] = Π_{l ∉ {i, k}} s_l: the product of all but i, with s_k replaced by 1, O(n³) without division
    q = np.empty(s.shape + (n,), s.dtype)
    for k in range(n):
        sk = s.copy()
        sk[..., k] = 1.0
        q[..., :, k] = _others_product(sk)
    diag = np.einsum("...kk->...k", F)
    eye = np.eye(n, dtype=bool)
    D = np.where(eye, 0.0, -F * q)
    D[..., eye] = np.einsum("...ik,...k->...i", np.where(eye, 0.0, q), diag)
    D = D * sign[..., None, None]
    return V @ D @ np.swapaxes(U, -1, -2)
