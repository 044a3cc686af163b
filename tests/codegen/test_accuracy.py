"""Accuracy at realistic scales: the generated NumPy code and the runtime's traced versions against accurate
references (mpmath at 50 digits, or float64 of the direct definition where that is exact).

Targets: relative error <= 1e-6 in float64 and <= 1e-3 in float32, at the scales where the naive forms
fail: softmax of [1e4, 1e4 - 1, 0] (float32) and [1e15, 1e15 - 1, 0] (float64); sigmoid, log-sigmoid and
softplus in both tails; the Gaussian kernel sum and its gradients with coordinates near 1e3 (float32) and
1e7 (float64), whole and in chunks; the Mahalanobis form at |mu| = 1e6; det's derivatives at singular
matrices. Inputs are rounded to the working dtype first, so references see exactly what the code sees.
"""
from __future__ import annotations

import mpmath
import numpy as np
import pytest

import generated
from derive import api
from primitives import special
from runtime import backend_numpy, grad, jvp, tnp
from runtime.tangents import NoTangent, ZeroTangent, unthunk

mpmath.mp.dps = 50
TOL = {np.float64: 1e-6, np.float32: 1e-3}
DTYPES = [np.float64, np.float32]
IDS = ["f64", "f32"]


def _rel(got, ref):
    """Worst elementwise relative error (a reference of 0 must be matched exactly)."""
    got, ref = np.asarray(got, dtype=np.float64), np.asarray(ref, dtype=np.float64)
    assert got.shape == ref.shape, (got.shape, ref.shape)
    assert np.all(np.isfinite(got)), got
    err = np.abs(got - ref)
    rel = np.where(ref != 0, err / np.where(ref != 0, np.abs(ref), 1.0), np.where(err == 0, 0.0, np.inf))
    return float(np.max(rel))


def _normwise(got, ref):
    """max |got - ref| / max |ref|: for gradients, whose single components may cancel to nearly 0."""
    got, ref = np.asarray(unthunk(got), dtype=np.float64), np.asarray(ref, dtype=np.float64)
    assert got.shape == ref.shape and np.all(np.isfinite(got))
    return float(np.max(np.abs(got - ref)) / np.max(np.abs(ref)))


def _module(text, label="<accuracy>", namespace=backend_numpy, chunk=None):
    """The generated NumPy module of `text`, derived (and verified) afresh; `chunk` sets its slice budget."""
    from derive.emission.numpy_print import CHUNK_NAME

    results = api.derive_text(text, label)
    assert all(r.ok for r in results), [(r.name, r.error) for r in results if not r.ok]
    ns: dict = {}
    exec(compile(api.render_module(results, label, export=False), label, "exec"), ns)
    if chunk is not None:
        assert CHUNK_NAME in ns, "the rule has no sliced pass to test"
        ns[CHUNK_NAME] = chunk
    return ns["_define"](namespace)


# ------------------------------------------------------------------------------------------ softmax family
def _mp_softmax(x):
    e = [mpmath.exp(mpmath.mpf(float(v))) for v in x]
    s = mpmath.fsum(e)
    return np.array([float(v / s) for v in e]), np.array([float(mpmath.log(v / s)) for v in e])


SOFTMAX_CASES = [(np.float32, [1e4, 1e4 - 1, 0.0]), (np.float64, [1e15, 1e15 - 1, 0.0]),
                 (np.float32, [88.0, 87.5, -3.0, 89.0]), (np.float64, [-1e15, -1e15 - 1, -1e15 + 2])]


@pytest.mark.parametrize("dtype,x", SOFTMAX_CASES, ids=[f"{np.dtype(d).name}@{x[0]:g}" for d, x in SOFTMAX_CASES])
def test_softmax_and_log_softmax_far_from_zero(dtype, x):
    x = np.array(x, dtype)
    want, want_log = _mp_softmax(x)
    y = generated.softmax(x)
    assert y.dtype == dtype and _rel(y, want) <= TOL[dtype]
    # within the target, and yet: x - (m + log Σ) rounded [1e4, 1e4-1, 0] (f32) to a sum of 0.99979
    assert abs(float(np.sum(y, dtype=np.float64)) - 1.0) <= 8 * np.finfo(dtype).eps
    assert _rel(generated.log_softmax(x), want_log) <= TOL[dtype]      # 6 % off at 1e15 in float64
    for fn in (generated.softmax_rrule, generated.log_softmax_rrule):
        assert _rel(fn(x)[0], want if fn is generated.softmax_rrule else want_log) <= TOL[dtype]
    # the pullback of softmax: ȳ ↦ y ⊙ (ȳ - yᵀȳ), from the accurate y
    ybar = np.array([1.0, -2.0] + [0.5] * (len(x) - 2), dtype)
    _, dx = generated.softmax_rrule(x)[1](ybar)
    ref = want * (ybar.astype(np.float64) - want @ ybar.astype(np.float64))
    assert _normwise(dx, ref) <= TOL[dtype]


# ------------------------------------------------------------------------------------------ logistic family
def _mp_sigmoid(v):
    return 1 / (1 + mpmath.exp(-mpmath.mpf(float(v))))


def _mp_log_sigmoid(x):
    # -log1p(exp(-v)): log(σ(v)) would round σ(700) = 1 - 1e-304 to 1 even at 50 digits
    return np.array([float(-mpmath.log1p(mpmath.exp(-mpmath.mpf(float(v))))) for v in x])


TAILS = {np.float32: [-87.0, -20.0, -5.0, 0.0, 3.0, 20.0, 87.0], np.float64: [-700.0, -40.0, -1.0, 0.0, 2.0, 40.0, 700.0]}


def _refs(x):
    sig = np.array([float(_mp_sigmoid(v)) for v in x])
    sig_neg = np.array([float(_mp_sigmoid(-v)) for v in x])
    softplus = np.array([float(mpmath.log1p(mpmath.exp(mpmath.mpf(float(v))))) for v in x])
    return sig, sig_neg, softplus


@pytest.mark.parametrize("dtype", DTYPES, ids=IDS)
def test_sigmoid_softplus_both_tails_generated(dtype):
    x = np.array(TAILS[dtype], dtype)
    sig, sig_neg, softplus = _refs(x)
    # float32 sigmoid(-20) was 0 (true 2.1e-9), float64 sigmoid(-40) was 0: the tanh form
    assert generated.sigmoid(x).dtype == dtype and _rel(generated.sigmoid(x), sig) <= TOL[dtype]
    _, dx = generated.sigmoid_rrule(x)[1](np.ones_like(x))
    assert _rel(dx, sig * sig_neg) <= TOL[dtype]                   # σ(1 - σ) was 0 for large x
    _, dt = generated.sigmoid_frule((NoTangent(), np.ones_like(x)), x)
    assert _rel(dt, sig * sig_neg) <= TOL[dtype]
    assert _rel(generated.softplus(x), softplus) <= TOL[dtype]
    _, dx = generated.softplus_rrule(x)[1](np.ones_like(x))
    assert _rel(dx, sig) <= TOL[dtype]


@pytest.fixture(scope="module")
def logsig():
    return _module("logsig(x[i]) -> y[i] = log(sigmoid(x[i]))")


@pytest.mark.parametrize("dtype", DTYPES, ids=IDS)
def test_log_sigmoid_both_tails_generated(dtype, logsig):
    x = np.array(TAILS[dtype] + [-1e4], dtype)
    sig, sig_neg, _ = _refs(x)
    want = _mp_log_sigmoid(x)
    y = logsig["logsig"](x)
    assert _rel(y, want) <= TOL[dtype]                             # log(sigmoid(-40)) was -inf
    _, dx = logsig["logsig_rrule"](x)[1](np.ones_like(x))
    assert _rel(dx, sig_neg) <= TOL[dtype]


@pytest.mark.parametrize("dtype", DTYPES, ids=IDS)
def test_logistic_functions_of_the_runtime(dtype):
    x = np.array(TAILS[dtype], dtype)
    sig, sig_neg, softplus = _refs(x)
    for f in (special.sigmoid, backend_numpy.sigmoid, tnp.sigmoid):
        assert _rel(f(x), sig) <= TOL[dtype]
    for f in (special.softplus, backend_numpy.softplus, tnp.softplus):
        assert _rel(f(x), softplus) <= TOL[dtype]
    assert _rel(special.log_sigmoid(x), _mp_log_sigmoid(x)) <= TOL[dtype]
    # traced derivatives: σ' = σ(x)σ(-x), softplus' = σ, and through the traced log
    assert _rel(grad(lambda v: tnp.sum(tnp.sigmoid(v)))(x), sig * sig_neg) <= TOL[dtype]
    assert _rel(grad(lambda v: tnp.sum(tnp.softplus(v)))(x), sig) <= TOL[dtype]
    inner = x[np.abs(x) <= 40]              # log(σ) traced stays finite while σ itself is representable
    assert _rel(grad(lambda v: tnp.sum(tnp.log(tnp.sigmoid(v))))(inner), _refs(inner)[1]) <= TOL[dtype]


# ------------------------------------------------------------------------------------------ gelu's left tail
def _mp_gelu(v):
    v = mpmath.mpf(float(v))
    return v * mpmath.erfc(-v / mpmath.sqrt(2)) / 2


def _mp_dgelu(v):
    v = mpmath.mpf(float(v))
    return mpmath.erfc(-v / mpmath.sqrt(2)) / 2 + v * mpmath.exp(-v * v / 2) / mpmath.sqrt(2 * mpmath.pi)


# far enough that 1 + erf(x/√2) cancels to nothing, near enough that the results stay normal
GELU_X = {np.float32: [-12.0, -10.0, -5.0, -1.0, 0.0, 0.5, 3.0, 10.0], np.float64: [-35.0, -20.0, -10.0, -3.0,
                                                                                   -0.5, 0.0, 1.0, 10.0, 40.0]}
TAIL_PATHS = ["numpy", "native", "torch", "torch.python", "jax"]


def _on_path(path, name, x):
    """(value, pullback of ones, pushforward along ones) of the shipped op `name` at x on one path."""
    from runtime.tangents import NoTangent
    ones = np.ones_like(x)
    if path == "numpy":
        fwd, frule, rrule = (getattr(generated, name + s) for s in ("", "_frule", "_rrule"))
        return fwd(x), rrule(x)[1](ones)[1], frule((NoTangent(), ones), x)[1]
    if path == "native":
        import importlib

        from runtime import native
        if not native.available()[0]:
            pytest.skip(f"native CPU kernels unavailable: {native.available()[1]}")
        plan = native.plan_for(importlib.import_module("generated.elementwise"))
        return (native.call(plan, name, "forward", [x]), unthunk(native.call(plan, name, "rrule", [x])[1](ones)[1]),
                unthunk(native.call(plan, name, "frule", [(NoTangent(), ones), x])[1]))
    if path.startswith("torch"):
        from tests.frameworks import need
        torch = need("torch")
        import runtime.torch as rt
        op = getattr(rt, name).python if path == "torch.python" else getattr(rt, name)
        t = torch.tensor(x, requires_grad=True)
        y = op(t)
        g = torch.autograd.grad(y, t, torch.ones_like(t))[0]
        dy = torch.func.jvp(op, (t.detach(),), (torch.ones_like(t),))[1]
        return y.detach().numpy(), g.numpy(), dy.numpy()
    from tests.frameworks import need
    jax = need("jax")
    import runtime.jax as rj
    op = getattr(rj, name)
    y, pb = jax.vjp(op, jax.numpy.asarray(x))
    return y, pb(jax.numpy.ones_like(y))[0], jax.jvp(op, (jax.numpy.asarray(x),), (jax.numpy.ones_like(y),))[1]


@pytest.mark.parametrize("path", TAIL_PATHS)
@pytest.mark.parametrize("dtype", DTYPES, ids=IDS)
def test_gelu_in_its_left_tail_on_every_path(dtype, path, monkeypatch):
    """gelu = x·erfc(-x/√2)/2 and its derivative against mpmath: written 0.5·x·(1 + erf(x/√2)) it gave
    gelu(-10) = 0 (true -7.6e-23) and a derivative 1 % off (100 % in the native kernels)."""
    # the numpy path: the generated NumPy code itself; the others with the native kernels where they have them
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "0" if path == "numpy" else "1")
    x = np.array(GELU_X[dtype], dtype)
    if path == "jax":
        from tests.frameworks import need
        jax = need("jax")       # a skip naming it where JAX is not installed (README's test command has no extras)
        before = jax.config.jax_enable_x64
        jax.config.update("jax_enable_x64", True)
    try:
        y, dx, dy = (np.asarray(v) for v in _on_path(path, "gelu", x))
    finally:
        if path == "jax":
            jax.config.update("jax_enable_x64", before)
    assert y.dtype == dx.dtype == dy.dtype == dtype
    value, slope = [float(_mp_gelu(v)) for v in x], [float(_mp_dgelu(v)) for v in x]
    assert _rel(y, value) <= TOL[dtype], "value"
    assert _rel(dx, slope) <= TOL[dtype], "pullback"
    assert _rel(dy, slope) <= TOL[dtype], "pushforward"


# ------------------------------------------------------------------------------------------ the kernel sum
def _kernel_problem(dtype, offset, n=40, m=30, d=3, seed=0):
    rng = np.random.default_rng(seed)
    x = (offset + rng.standard_normal((n, d))).astype(dtype)
    y = (offset + rng.standard_normal((m, d))).astype(dtype)
    b = rng.standard_normal(m).astype(dtype)
    w = rng.standard_normal(n).astype(dtype)
    return x, y, b, dtype(2.0), w


def _kernel_reference(x, y, b, s, w):
    """float64 of the direct definition on the rounded inputs: x - y is exact there (Sterbenz)."""
    x, y, b, w, s = (np.asarray(v, np.float64) for v in (x, y, b, w, s))
    diff = x[:, None, :] - y[None, :, :]
    d2 = np.sum(diff * diff, axis=-1)
    K = np.exp(-d2 / s)
    out = K @ b
    gx = -2 / s * np.einsum("i,ij,j,ijd->id", w, K, b, diff)
    gy = 2 / s * np.einsum("i,ij,j,ijd->jd", w, K, b, diff)
    gb = K.T @ w
    gs = np.einsum("i,ij,j,ij->", w, K, b, d2) / s**2
    return out, (gx, gy, gb, gs)


def _check_kernel_sum(fns, dtype, offset):
    x, y, b, s, w = _kernel_problem(dtype, offset)
    out, grads = _kernel_reference(x, y, b, s, w)
    tol = TOL[dtype]
    got = fns["gaussian_kernel_sum"](x, y, b, s)
    assert got.dtype == dtype and _normwise(got, out) <= tol       # 28 % (f32 at 1e3), 6.8 % (f64 at 1e7)
    y2, pullback = fns["gaussian_kernel_sum_rrule"](x, y, b, s)
    assert _normwise(y2, out) <= tol
    for k, (c, ref) in enumerate(zip(pullback(w)[1:], grads)):
        assert _normwise(c, ref) <= tol, f"cotangent of argument {k}"
    # the pushforward along x, against the gradient: <x̄, ẋ> = <w, J ẋ>
    dx = np.random.default_rng(1).standard_normal(x.shape).astype(dtype)
    _, dout = fns["gaussian_kernel_sum_frule"]((NoTangent(), dx, ZeroTangent(), ZeroTangent(), ZeroTangent()),
                                               x, y, b, s)
    ref = np.einsum("ijd,id->i", -2 / np.float64(s) * np.exp(-np.sum((x.astype(np.float64)[:, None] - y.astype(
        np.float64)[None]) ** 2, -1) / np.float64(s))[:, :, None] * b.astype(np.float64)[None, :, None]
        * (x.astype(np.float64)[:, None] - y.astype(np.float64)[None]), dx.astype(np.float64))
    assert _normwise(dout, ref) <= tol


KERNEL_SCALES = [(np.float32, 1e3), (np.float64, 1e7), (np.float64, 0.0), (np.float32, -2e3)]


@pytest.mark.parametrize("dtype,offset", KERNEL_SCALES, ids=[f"{np.dtype(d).name}@{o:g}" for d, o in KERNEL_SCALES])
def test_gaussian_kernel_sum_far_from_the_origin(dtype, offset):
    _check_kernel_sum(generated.nn._define(backend_numpy), dtype, offset)


@pytest.fixture(scope="module")
def chunked_kernel_sum():
    """The shipped kernel-sum rule generated with slices of a few rows (the chunked and fused passes)."""
    text = (generated.nn.OPS["gaussian_kernel_sum"]["signature"].split(" -> ")[0] + " -> out[i] = "
            "sum(j, exp(-sum(d, (x[i,d] - y[j,d])**2) / s) * b[j])")
    return _module(text, "<chunked>", chunk=64)


@pytest.mark.parametrize("dtype,offset", KERNEL_SCALES[:2], ids=["float32@1000", "float64@1e+07"])
def test_gaussian_kernel_sum_in_chunks_far_from_the_origin(dtype, offset, chunked_kernel_sum):
    _check_kernel_sum(chunked_kernel_sum, dtype, offset)


# ------------------------------------------------------------------------------------------ Mahalanobis
@pytest.fixture(scope="module")
def mahalanobis():
    return _module("maha(X[n,i], mu[i], S[i,j]) -> m[n] = (X[n,i] - mu[i]) * inv(S)[i,j] * (X[n,j] - mu[j])")


@pytest.mark.parametrize("dtype,scale", [(np.float64, 1e6), (np.float32, 1e3)], ids=["f64@1e6", "f32@1e3"])
def test_mahalanobis_far_from_the_origin(dtype, scale, mahalanobis):
    rng = np.random.default_rng(3)
    mu = np.array([scale, -scale, 0.5 * scale], dtype)
    X = (mu + 1e-3 * scale ** 0.5 * rng.standard_normal((4, 3))).astype(dtype)
    S = np.array([[2.0, 0.3, 0.1], [0.3, 1.0, 0.2], [0.1, 0.2, 3.0]], dtype)
    D = X.astype(np.float64) - mu.astype(np.float64)      # exact: X and mu are close
    Si = np.linalg.inv(S.astype(np.float64))
    want = np.einsum("ni,ij,nj->n", D, Si, D)
    assert _rel(mahalanobis["maha"](X, mu, S), want) <= TOL[dtype]  # the expanded form gave [0, 2.4e-4, 0]
    wbar = np.array([1.0, -0.5, 2.0, 0.25], dtype)
    m, pullback = mahalanobis["maha_rrule"](X, mu, S)
    assert _rel(m, want) <= TOL[dtype]
    _, gX, gmu, gS = pullback(wbar)
    refX = wbar[:, None] * (D @ (Si + Si.T))
    assert _normwise(gX, refX) <= TOL[dtype]
    assert _normwise(gmu, -refX.sum(0)) <= TOL[dtype]
    assert _normwise(gS, -Si.T @ (D.T * wbar) @ D @ Si.T) <= TOL[dtype]


# ------------------------------------------------------------------------------------------ Cayley transform
def _mp_cayley(A, dA, Qbar):
    """Q = (I - A)⁻¹·(I + A), its pushforward 2·M·dA·M and pullback 2·Mᵀ·Q̄·Mᵀ (M = (I - A)⁻¹, since
    Q + I = 2M): the closed forms, at 50 digits."""
    n = A.shape[-1]
    M = mpmath.inverse(mpmath.eye(n) - mpmath.matrix(A.astype(np.float64).tolist()))
    Q = M * (mpmath.eye(n) + mpmath.matrix(A.astype(np.float64).tolist()))
    dQ = 2 * M * mpmath.matrix(dA.astype(np.float64).tolist()) * M
    Ab = 2 * M.T * mpmath.matrix(Qbar.astype(np.float64).tolist()) * M.T
    return [np.array(X.tolist(), dtype=float) for X in (Q, dQ, Ab)]


CAYLEY_SCALES = [(np.float64, 1e6), (np.float64, 1e15), (np.float32, 1e3), (np.float32, 1e6)]


@pytest.mark.parametrize("op", ["cayley", "batched_cayley"])
@pytest.mark.parametrize("dtype,scale", CAYLEY_SCALES, ids=[f"{np.dtype(d).name}@{s:g}" for d, s in CAYLEY_SCALES])
def test_cayley_derivatives_far_from_the_origin(dtype, scale, op):
    """cond(I - A) ≈ 3 here: the derivatives are well conditioned. Written M·dA·(Q + I) with Q ≈ -I they
    cancelled: 0.27 relative error at 1e15 (float64), 1.4e-4 at 1e3 and 0.23 at 1e6 (float32)."""
    rng = np.random.default_rng(0)
    batch = (2,) if op == "batched_cayley" else ()
    A = ((rng.standard_normal(batch + (4, 4)) + 4 * np.eye(4)) * scale).astype(dtype)
    dA = rng.standard_normal(A.shape).astype(dtype)
    Qbar = rng.standard_normal(A.shape).astype(dtype)
    Q, dQ = getattr(generated, op + "_frule")((NoTangent(), dA), A)
    Q2, pullback = getattr(generated, op + "_rrule")(A)
    Abar = unthunk(pullback(Qbar)[1])
    tol = 64 * np.finfo(dtype).eps
    for b in np.ndindex(*batch):
        want = _mp_cayley(A[b], dA[b], Qbar[b])
        for got, ref, what in zip((Q[b], Q2[b], dQ[b], Abar[b]), want[:1] + want, ("Q", "Q", "dQ", "dA")):
            assert got.dtype == dtype and _normwise(got, ref) <= tol, (what, b, _normwise(got, ref))


# ------------------------------------------------------------------------------------------ det at singular matrices
def _adjugate_by_cofactors(A):
    """adj(A)[i,j] = (-1)^(i+j)·det(A without row j and column i), minors expanded by hand (n <= 3)."""
    A = np.asarray(A, np.float64)
    n = A.shape[0]

    def det(M):
        if M.shape[0] == 0:
            return 1.0
        if M.shape[0] == 1:
            return M[0, 0]
        if M.shape[0] == 2:
            return M[0, 0] * M[1, 1] - M[0, 1] * M[1, 0]
        return sum((-1) ** c * M[0, c] * det(np.delete(np.delete(M, 0, 0), c, 1)) for c in range(M.shape[0]))

    return np.array([[(-1) ** (i + j) * det(np.delete(np.delete(A, j, 0), i, 1)) for j in range(n)]
                     for i in range(n)])


SINGULAR = [np.array([[1.0, 2.0], [2.0, 4.0]]), np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]]),
            np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [3.0, 6.0, 9.0]]), np.zeros((3, 3)),
            np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]])]


@pytest.mark.parametrize("dtype", DTYPES, ids=IDS)
@pytest.mark.parametrize("A", SINGULAR, ids=["2x2-rank1", "3x3-rank2", "3x3-rank1", "zero", "regular"])
def test_det_derivatives_at_singular_matrices(A, dtype):
    A = A.astype(dtype)
    adjT = _adjugate_by_cofactors(A).T
    if A.shape == (2, 2):
        np.testing.assert_array_equal(adjT, [[4.0, -2.0], [-2.0, 1.0]])
    atol = TOL[dtype] * max(1.0, np.max(np.abs(adjT)))

    def close(got, ref):
        np.testing.assert_allclose(np.asarray(unthunk(got), np.float64), ref, rtol=TOL[dtype], atol=atol)

    _, pullback = generated.det_rrule(A)                        # raised LinAlgError at singular A
    close(pullback(dtype(1.5))[1], 1.5 * adjT)
    E = np.arange(A.size, dtype=dtype).reshape(A.shape) / A.size
    _, dd = generated.det_frule((NoTangent(), E), A)
    close(dd, np.sum(adjT * E))
    # the runtime's traced det: the gradient, and the second derivative (forward over reverse) against
    # central differences of the cofactor polynomial (exact for a polynomial of degree <= 2, n <= 3)
    close(grad(tnp.linalg.det)(A), adjT)
    h = 1e-3
    hvp_ref = (_adjugate_by_cofactors(A.astype(np.float64) + h * E).T
               - _adjugate_by_cofactors(A.astype(np.float64) - h * E).T) / (2 * h)
    close(jvp(grad(tnp.linalg.det), (A,), (E,))[1], hvp_ref)
    # reverse over reverse: ∇⟨∇det(A), E⟩ is the same Hessian-vector product (det's Hessian is symmetric)
    close(grad(lambda a: tnp.sum(grad(tnp.linalg.det)(a) * E))(A), hvp_ref)


def test_adjugate_is_batched_and_matches_det_times_inverse():
    rng = np.random.default_rng(4)
    A = rng.standard_normal((5, 4, 4))
    want = np.linalg.det(A)[:, None, None] * np.linalg.inv(A)
    np.testing.assert_allclose(special.adjugate(A), want, rtol=1e-10, atol=1e-12)
    assert special.adjugate(A.astype(np.float32)).dtype == np.float32
    B = np.stack([SINGULAR[1], SINGULAR[2]])
    np.testing.assert_allclose(special.adjugate(B), [_adjugate_by_cofactors(M) for M in B], atol=1e-12)


# ------------------------------------------------------------------------------------------ which inputs are centred
def test_only_translation_invariant_inputs_are_centred():
    """Centring is exact only where the outputs cannot see the shift: a weighted distance centres x and y
    (not the weights w), a dot product centres nothing."""
    text = ("wdist(x[i,d], y[j,d], w[d]) -> D[i,j] = sum(d, w[d] * (x[i,d] - y[j,d])**2)\n"
            "dots(x[i,d], y[j,d]) -> G[i,j] = x[i,d] * y[j,d]\n")
    results = api.derive_text(text, "<centring>")
    code = {r.name: r.code.functions for r in results}
    assert "x = x - _shift" in code["wdist"] and "y = y - _shift" in code["wdist"]
    assert "w = w -" not in code["wdist"] and "_shift" not in code["dots"]
    fns = _module(text, "<centring>")
    x, y, _, _, _ = _kernel_problem(np.float32, 1e3, n=5, m=4)
    w = np.array([1.0, 0.5, 2.0], np.float32)
    x64, y64 = x.astype(np.float64), y.astype(np.float64)
    want = np.einsum("d,ijd->ij", w.astype(np.float64), (x64[:, None] - y64[None]) ** 2)
    assert _rel(fns["wdist"](x, y, w), want) <= TOL[np.float32]
    np.testing.assert_allclose(fns["dots"](x, y), x64 @ y64.T, rtol=1e-6)


def test_generated_logistic_functions_have_second_derivatives_at_zero():
    # the tail-accurate forms branch at 0; traced for a second derivative they must keep σ's slope there
    # (exp(-abs(u)) did not: abs'(0) = 0 gave softplus''(0) = 0)
    x = np.array([0.0, 0.5, -0.5])
    s = 1 / (1 + np.exp(-x))
    d2 = grad(lambda v: np.sum(grad(lambda u: np.sum(generated.softplus(u)))(v)))(x)
    np.testing.assert_allclose(d2, s * (1 - s), rtol=1e-12)
    d2 = grad(lambda v: np.sum(grad(lambda u: np.sum(generated.sigmoid(u)))(v)))(x)
    np.testing.assert_allclose(d2, s * (1 - s) * (1 - 2 * s), rtol=1e-12, atol=1e-15)
