"""Special functions NumPy lacks, vectorized and accurate to a few ulps in float64 (erf), or in both tails
(sigmoid, log-sigmoid, softplus), relu and its derivative step; and the adjugate, det's derivative, defined at
singular matrices too. primitives.elementwise names the ones the rule language calls (`impl`)."""
from __future__ import annotations

import numpy as np

# W. J. Cody, "Rational Chebyshev approximations for the error function", Math. Comp. 23 (1969) 631-637,
# with the double-precision coefficients of his CALERF (netlib specfun, 1985): erf(x) = x·P(x²)/Q(x²) for
# |x| <= 0.46875; erfc(y) = exp(-y²)·P(y)/Q(y) for 0.46875 < y <= 4; erfc(y) = exp(-y²)/y·(1/sqrt(pi) - z·P(z)/Q(z)),
# z = 1/y², beyond. Coefficients are listed highest degree first; each Q is monic (its leading 1 left out).
_THRESH = 0.46875
_ERF_P = (1.85777706184603153e-1, 3.16112374387056560e00, 1.13864154151050156e02, 3.77485237685302021e02,
          3.20937758913846947e03)
_ERF_Q = (2.36012909523441209e01, 2.44024637934444173e02, 1.28261652607737228e03, 2.84423683343917062e03)
_MID_P = (2.15311535474403846e-8, 5.64188496988670089e-1, 8.88314979438837594e00, 6.61191906371416295e01,
          2.98635138197400131e02, 8.81952221241769090e02, 1.71204761263407058e03, 2.05107837782607147e03,
          1.23033935479799725e03)
_MID_Q = (1.57449261107098347e01, 1.17693950891312499e02, 5.37181101862009858e02, 1.62138957456669019e03,
          3.29079923573345963e03, 4.36261909014324716e03, 3.43936767414372164e03, 1.23033935480374942e03)
_TAIL_P = (1.63153871373020978e-2, 3.05326634961232344e-1, 3.60344899949804439e-1, 1.25781726111229246e-1,
           1.60837851487422766e-2, 6.58749161529837803e-4)
_TAIL_Q = (2.56852019228982242e00, 1.87295284992346047e00, 5.27905102951428412e-1, 6.05183413124413191e-2,
           2.33520497626869185e-3)
_INV_SQRT_PI = 5.6418958354775628695e-1
_ERF_ONE = 6.0     # erfc(6) = 2.2e-17 < 2**-54: erf rounds to ±1 from here on
_ERFC_ZERO = 27.5  # erfc(27.5) < 2**-1075: erfc rounds to 0 from here on


def _ratio(u, p, q):
    """p(u)/q(u) by Horner, in place in two buffers (q monic)."""
    num = np.multiply(u, p[0])
    num += p[1]
    for c in p[2:]:
        num *= u
        num += c
    den = u + q[0]
    for c in q[1:]:
        den *= u
        den += c
    num /= den
    return num


def _erfc_positive(y, tail, split):
    """erfc(y) for 0.46875 < y (all of them <= 4, or all > 4 when `tail`), in place in a few buffers. With
    `split`, exp(-y²) is exp(-s²)·exp(-(y-s)(y+s)) for s = y rounded down to 1/16 (s² exact): erfc then keeps
    its relative precision far out, where y² rounded would cost y²·eps. erf, which needs erfc to an absolute
    1e-17 only, takes exp(-y·y) (error below y²·eps·erfc(y) <= 2e-17 for every y)."""
    if tail:
        z = np.multiply(y, y)
        np.reciprocal(z, out=z)
        r = _ratio(z, _TAIL_P, _TAIL_Q)
        r *= z
        np.subtract(_INV_SQRT_PI, r, out=r)
        r /= y
    else:
        r = _ratio(y, _MID_P, _MID_Q)
    if not split:
        e = np.multiply(y, y)
        np.negative(e, out=e)
        np.exp(e, out=e)
        r *= e
        return r
    s = np.multiply(y, 16.0)
    np.trunc(s, out=s)
    s *= 0.0625
    d = np.add(y, s)
    t = np.subtract(y, s)
    d *= t
    np.negative(d, out=d)
    np.exp(d, out=d)
    r *= d
    np.multiply(s, s, out=s)
    np.negative(s, out=s)
    np.exp(s, out=s)
    r *= s
    return r


def _ranges(ax):
    """The positions of |x| <= 0.46875 (and NaN), of 0.46875 < |x| <= 4, and of |x| > 4: integer indices, since
    gathering and scattering by them costs a tenth of boolean masks on mixed data; None for all of them."""
    small = ~(ax > _THRESH)
    far = ax > 4.0
    n = ax.size
    out = []
    for mask in (small, ~(small | far), far):
        idx = np.flatnonzero(mask)
        out.append(None if idx.size == n else idx)
    return out


def _take(a, idx):
    return a if idx is None else a.take(idx)


def _put(out, idx, values):
    if idx is None:
        return values
    out[idx] = values
    return out


def _small(x):
    """x·P(x²)/Q(x²) = erf(x) for |x| <= 0.46875."""
    t = np.multiply(x, x)
    r = _ratio(t, _ERF_P, _ERF_Q)
    r *= x
    return r


_BLOCK = 1 << 16  # elements per pass: the dozens of buffers of one block stay in the L2 cache (20% faster at 1e6)


def _blockwise(f, x):
    """f (float64 in, float64 out, same size) over x's elements block by block; x's dtype back (integers give
    float64), x's shape, a NumPy scalar for a 0-d input."""
    x = np.asarray(x)
    if x.dtype.kind not in "biuf":
        raise TypeError(f"erf/erfc take real numbers, not {x.dtype}")
    dtype = x.dtype if x.dtype.kind == "f" else np.dtype(np.float64)
    xd = np.ravel(x).astype(np.float64, copy=False)
    if xd.size <= _BLOCK:
        out = f(xd)
    else:
        out = np.empty_like(xd)
        for i in range(0, xd.size, _BLOCK):
            out[i:i + _BLOCK] = f(xd[i:i + _BLOCK])
    out = out.reshape(x.shape).astype(dtype, copy=False)
    return out[()] if x.ndim == 0 else out


def erf(x):
    """Error function, elementwise, by Cody's rational approximations: max relative error ~7e-16 in float64
    against math.erf; NaN propagates, erf(±inf) = ±1, erf(-0.0) = -0.0. Other real dtypes are computed in
    float64 and rounded back (integers give float64). Each range is evaluated on its own elements only."""
    return _blockwise(_erf, x)


def _erf(xd):
    ax = np.abs(xd)
    out = np.empty_like(xd)
    small, mid, far = _ranges(ax)
    if small is None or small.size:
        out = _put(out, small, _small(_take(xd, small)))
    np.minimum(ax, _ERF_ONE, out=ax)     # erf(±inf) = ±1 = erf(±6) in float64
    for idx, tail in ((mid, False), (far, True)):
        if idx is None or idx.size:
            e = _erfc_positive(_take(ax, idx), tail, split=False)
            np.subtract(0.5, e, out=e)
            e += 0.5
            np.copysign(e, _take(xd, idx), out=e)
            out = _put(out, idx, e)
    return out


def erfc(x):
    """Complementary error function 1 - erf(x), by Cody's rational approximations: relatively accurate to ~1e-15
    in float64 out to x = 26.5 (where it leaves the normal range); erfc(+inf) = 0, erfc(-inf) = 2, NaN
    propagates."""
    return _blockwise(_erfc, x)


def _erfc(xd):
    ax = np.abs(xd)
    out = np.empty_like(xd)
    small, mid, far = _ranges(ax)
    if small is None or small.size:
        r = _small(_take(xd, small))
        np.subtract(1.0, r, out=r)
        out = _put(out, small, r)
    np.minimum(ax, _ERFC_ZERO, out=ax)   # erfc(inf) = 0 = erfc(27.5) in float64
    for idx, tail in ((mid, False), (far, True)):
        if idx is None or idx.size:
            e = _erfc_positive(_take(ax, idx), tail, split=True)
            xs = _take(xd, idx)
            np.copysign(e, xs, out=e)      # erfc(-y) = 2 - erfc(y): 2·[x < 0] + copysign(erfc(y), x), exact
            e += np.less(xs, 0.0).astype(np.float64) * 2.0
            out = _put(out, idx, e)
    return out


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
