"""Acceptance tests of the matrix primitives (issue 11): cholesky, eigvalsh, eigvecsh, expm, logm, sqrtm, and
det/logdet at and near singular matrices, in rules written as a user writes them (plain, batched over a leading
axis, composed), derived and compiled through derive.api / runtime.define.

Expected values come from NumPy/SciPy (numpy.linalg.cholesky/eigh/slogdet, scipy.linalg.expm/logm/sqrtm), from
closed forms (the gradient of trace(expm(A)) is expm(A)ᵀ, of det the adjugate transposed by cofactors, ...) and
from central finite differences. Symmetric-input primitives follow the symmetric-tangent convention: tangents
are symmetric, and the pullback returns the symmetric gradient (G + Gᵀ)/2. Eigenvectors are signed so that the
component of largest absolute value in each column is positive."""
from fractions import Fraction

import numpy as np
import pytest
import scipy.linalg as sla

from derive import api
from derive.verification import reference
from runtime import backend_numpy, check_frule, check_rrule, define, grad, tnp
from runtime.tangents import NoTangent, ZeroTangent, unthunk


# -- random points and shared checks ---------------------------------------------------------------------------
def orthogonal(rng, n):
    q, r = np.linalg.qr(rng.standard_normal((n, n)))
    return q * np.sign(np.diag(r))


def symmetric(rng, n, lo=-3.0, gap=0.5):
    """A symmetric matrix with eigenvalues lo, lo + gap, ... (each moved by up to gap/4): well separated, so its
    eigenvectors are smooth functions of it; an eigenvector's two largest components differ by a margin."""
    while True:
        q = orthogonal(rng, n)
        lam = lo + gap * np.arange(n) + rng.uniform(-gap / 4, gap / 4, n)
        a = (q * lam) @ q.T
        a = (a + a.T) / 2
        v = np.linalg.eigh(a)[1]
        top2 = np.sort(np.abs(v), axis=0)[-2:] if n > 1 else np.array([[0.0], [1.0]])
        if np.all(top2[1] - top2[0] > 0.05):
            return a


def spd(rng, n, scale=1.0):
    """Symmetric positive definite, eigenvalues in about (0.5, 4): well conditioned."""
    m = rng.standard_normal((n, n)) / np.sqrt(n)
    a = scale * (m @ m.T + 0.5 * np.eye(n))
    return (a + a.T) / 2


def general(rng, n):
    """A general square matrix of norm about 1 (expm's argument)."""
    return rng.standard_normal((n, n)) / np.sqrt(n)


def sym_direction(rng, shape):
    """A random direction symmetric in the last two axes, of unit Frobenius norm."""
    d = rng.standard_normal(shape)
    d = (d + np.swapaxes(d, -1, -2)) / 2
    return d / np.linalg.norm(d)


def direction(rng, shape):
    d = rng.standard_normal(shape)
    return d / np.linalg.norm(d)


def batched(make, rng, n, nb):
    """nb matrices from make(rng, n), stacked along a leading batch axis (NumPy's): shape (nb, n, n)."""
    return np.stack([make(rng, n) for _ in range(nb)])


def per_batch(f, A):
    """f applied to each A[b], one matrix at a time (not NumPy's own batching), results stacked."""
    return np.stack([f(A[b]) for b in range(A.shape[0])])


def signed_eigh(a):
    """numpy.linalg.eigh with the documented sign convention: in each column the component of largest absolute
    value is positive."""
    w, v = np.linalg.eigh(a)
    k = np.argmax(np.abs(v), axis=0)
    return w, v * np.sign(v[k, np.arange(v.shape[1])])


def fd(f, args, k, d, h=1e-3):
    """Directional derivative of f along d in argument k: the fourth-order central difference."""
    def at(t):
        a = list(args)
        a[k] = args[k] + t * d
        return np.asarray(f(*a), dtype=float)
    return (8 * (at(h) - at(-h)) - (at(2 * h) - at(-2 * h))) / (12 * h)


def close(got, want, rtol, what=""):
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    assert got.shape == want.shape, (what, got.shape, want.shape)
    assert np.all(np.isfinite(got)), what
    scale = max(np.max(np.abs(want), initial=0.0), 1e-300)
    err = np.max(np.abs(got - want), initial=0.0) / scale
    assert err <= rtol, f"{what}: relative error {err:.3g} > {rtol:g}"


def inner(a, b):
    return float(np.sum(np.asarray(a, dtype=float) * np.asarray(b, dtype=float)))


ADJOINT_RTOL = 1e-10
PRIMAL_RTOL = 1e-13        # rrule/frule primals are the forward value (the same computation up to rounding)
_OPS: dict = {}


def op(name):
    """The compiled functions of RULES[name] (forward, name_frule, name_rrule), derived and verified once."""
    if name not in _OPS:
        text = RULES[name]
        results = api.derive_text(text, f"<{name}>")
        assert all(r.ok for r in results), [(r.name, r.error, r.check and r.check.problems) for r in results]
        ns: dict = {}
        exec(api.render_module(results, f"<{name}>", export=False), ns)
        _OPS[name] = ns["_define"](backend_numpy)
    fns = _OPS[name]
    return fns[name], fns[name + "_frule"], fns[name + "_rrule"]


def check_derivatives(name, args, dirs, *, rtol_fd=1e-6, sym_args=(), seeds=2, rng=None):
    """At one point: the rrule's and frule's primals equal the forward value; the pushforward along `dirs` (one
    tangent per argument, None for a zero tangent) equals central finite differences, argument by argument; the
    pullback satisfies the adjoint identity <ȳ, J·ẋ> = <J̄ᵀ·ȳ, ẋ> for random cotangents; the cotangents of the
    arguments in `sym_args` are symmetric in their last two axes. Returns (y, pushforward per argument)."""
    f, f_frule, f_rrule = op(name)
    rng = rng or np.random.default_rng(0)
    y = np.asarray(f(*args), dtype=float)
    y_r, pb = f_rrule(*args)
    close(y_r, y, PRIMAL_RTOL, f"{name}: rrule primal vs forward")
    dys = []
    for k, d in enumerate(dirs):
        if d is None:
            continue
        tangents = [NoTangent()] + [d if j == k else ZeroTangent() for j in range(len(args))]
        y_f, dy = f_frule(tuple(tangents), *args)
        close(y_f, y, PRIMAL_RTOL, f"{name}: frule primal vs forward")
        dy = np.asarray(unthunk(dy), dtype=float)
        close(dy, fd(f, args, k, d), rtol_fd, f"{name}: pushforward of argument {k} vs finite differences")
        dys.append((k, dy))
    for s in range(seeds):
        ybar = rng.standard_normal(y.shape) if y.ndim else float(rng.standard_normal())
        cots = [unthunk(c) for c in pb(ybar)[1:]]
        for k, dy in dys:
            c = np.asarray(cots[k], dtype=float)
            lhs, rhs = inner(ybar, dy), inner(c, dirs[k])
            assert abs(lhs - rhs) <= ADJOINT_RTOL * (abs(lhs) + np.linalg.norm(c) * np.linalg.norm(dy) + 1e-300), \
                f"{name}: adjoint identity for argument {k}: {lhs} vs {rhs}"
        for k in sym_args:
            c = np.asarray(cots[k], dtype=float)
            close(c, np.swapaxes(c, -1, -2), 1e-12, f"{name}: cotangent of argument {k} is symmetric")
    return y, dict(dys)


def pullback(name, args, ybar):
    _, _, f_rrule = op(name)
    _, pb = f_rrule(*args)
    return [np.asarray(unthunk(c), dtype=float) for c in pb(ybar)[1:]]


# -- the rules, as a user writes them --------------------------------------------------------------------------
RULES = {
    # plain
    "chol": "chol(A[i,j]: spd) -> L[i,j] = cholesky(A[i,j])",
    "evals": "evals(A[i,j]: symmetric) -> w[i] = eigvalsh(A[i,j])",
    "evecs": "evecs(A[i,j]: symmetric) -> V[i,j] = eigvecsh(A[i,j])",
    "ex": "ex(A[i,j]) -> E[i,j] = expm(A[i,j])",
    "lg": "lg(S[i,j]: spd) -> L[i,j] = logm(S[i,j])",
    "sq": "sq(S[i,j]: spd) -> R[i,j] = sqrtm(S[i,j])",
    "dt": "dt(A[i,j]) -> d[] = det(A[i,j])",
    "ld_spd": "ld_spd(S[i,j]: spd) -> d[] = logdet(S[i,j])",
    # batched over a trailing axis
    "chol_b": "chol_b(A[b,i,j]: spd) -> L[b,i,j] = cholesky(A[b,i,j])",
    "evals_b": "evals_b(A[b,i,j]: symmetric) -> w[b,i] = eigvalsh(A[b,i,j])",
    "evecs_b": "evecs_b(A[b,i,j]: symmetric) -> V[b,i,j] = eigvecsh(A[b,i,j])",
    "ex_b": "ex_b(A[b,i,j]) -> E[b,i,j] = expm(A[b,i,j])",
    "lg_b": "lg_b(S[b,i,j]: spd) -> L[b,i,j] = logm(S[b,i,j])",
    "sq_b": "sq_b(S[b,i,j]: spd) -> R[b,i,j] = sqrtm(S[b,i,j])",
    "dt_b": "dt_b(A[b,i,j]) -> d[b] = det(A[b,i,j])",
    # compositions
    "logdet_gram": "logdet_gram(X[i,k]) -> s[] = logdet(X[i,k]*X[j,k] + delta(i,j))",
    "tr_expm": "tr_expm(A[i,j]) -> t[] = trace(expm(A))",
    "expm_t": "expm_t(A[i,j], t) -> E[i,j] = expm(t * A[i,j])",
    "sum_evals": "sum_evals(A[i,j]: symmetric) -> s[] = sum(i, eigvalsh(A)[i])",
    "chol_apply": "chol_apply(A[i,j]: spd, x[j]) -> y[i] = cholesky(A)[i,j] * x[j]",
    "chol_round": "chol_round(A[i,j]: spd) -> B[i,j]:\n    L = cholesky(A)\n    B[i,j] = L[i,k] * L[j,k]\n",
    "sqrt_round": "sqrt_round(S[i,j]: spd) -> B[i,j]:\n    R = sqrtm(S)\n    B[i,j] = R[i,k] * R[k,j]\n",
    "evec_quad": "evec_quad(A[i,j]: symmetric, x[i]) -> s[] = sum(k, (eigvecsh(A)[i,k] * x[i]) ** 2 * eigvalsh(A)[k])",
}

SIZES = (2, 5, 16)


# -- cholesky --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", SIZES + (50,))
def test_cholesky_values(n):
    A = spd(np.random.default_rng(n), n)
    f, _, _ = op("chol")
    L = np.asarray(f(A), dtype=float)
    close(L, np.linalg.cholesky(A), 1e-12, "cholesky vs numpy")
    assert np.all(np.triu(L, 1) == 0) and np.all(np.diag(L) > 0)


@pytest.mark.parametrize("n", SIZES)
def test_cholesky_derivatives(n):
    rng = np.random.default_rng(100 + n)
    A = spd(rng, n)
    _, dys = check_derivatives("chol", (A,), (sym_direction(rng, (n, n)),), sym_args=(0,), rng=rng)
    assert np.all(np.triu(dys[0], 1) == 0)     # the tangent of a lower factor is lower triangular


def test_cholesky_batched():
    rng = np.random.default_rng(7)
    A = batched(spd, rng, 4, 3)
    f, _, _ = op("chol_b")
    close(f(A), per_batch(np.linalg.cholesky, A), 1e-12, "batched cholesky")
    check_derivatives("chol_b", (A,), (sym_direction(rng, A.shape),), sym_args=(0,), rng=rng)


@pytest.mark.parametrize("n", (3, 9))
def test_cholesky_compositions(n):
    rng = np.random.default_rng(200 + n)
    A, x = spd(rng, n), rng.standard_normal(n)
    y, _ = check_derivatives("chol_apply", (A, x), (sym_direction(rng, (n, n)), direction(rng, (n,))),
                             sym_args=(0,), rng=rng)
    close(y, np.linalg.cholesky(A) @ x, 1e-12, "cholesky(A)·x")
    close(pullback("chol_apply", (A, x), np.ones(n))[1], np.linalg.cholesky(A).T @ np.ones(n), 1e-10, "d/dx")
    # L·Lᵀ = A: its pushforward is the identity on symmetric tangents, its pullback sym(Ȳ)
    B, dys = check_derivatives("chol_round", (A,), (sym_direction(rng, (n, n)),), sym_args=(0,), rng=rng)
    close(B, A, 1e-12, "cholesky round trip")
    ybar = rng.standard_normal((n, n))
    close(pullback("chol_round", (A,), ybar)[0], (ybar + ybar.T) / 2, 1e-10, "round-trip pullback = sym(Ȳ)")


def test_cholesky_through_runtime_define(cache):
    rng = np.random.default_rng(3)
    A, W = spd(rng, 4), rng.standard_normal((4, 4))
    chol = define(RULES["chol"])
    close(chol(A), np.linalg.cholesky(A), 1e-12, "define(chol)")
    check_rrule(chol, A)
    check_frule(chol, A)
    g = np.asarray(grad(lambda a: tnp.sum(chol(a) * W))(A), dtype=float)
    d = sym_direction(rng, (4, 4))
    close(inner(g, d), fd(lambda a: np.sum(np.linalg.cholesky(a) * W), (A,), 0, d), 1e-7, "grad along symmetric d")
    close(g, g.T, 1e-12, "grad is symmetric")


# -- eigvalsh / eigvecsh ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", SIZES)
def test_eigvalsh_values_and_derivatives(n):
    rng = np.random.default_rng(300 + n)
    A = symmetric(rng, n)
    w, _ = check_derivatives("evals", (A,), (sym_direction(rng, (n, n)),), sym_args=(0,), rng=rng)
    close(w, np.linalg.eigvalsh(A), 1e-12, "eigvalsh vs numpy")
    assert np.all(np.diff(w) > 0)
    # dλₖ = vₖᵀ·dA·vₖ, so the pullback of w̄ is V·diag(w̄)·Vᵀ
    _, V = np.linalg.eigh(A)
    wbar = rng.standard_normal(n)
    close(pullback("evals", (A,), wbar)[0], (V * wbar) @ V.T, 1e-10, "eigvalsh pullback")


@pytest.mark.parametrize("n", SIZES)
def test_eigvecsh_values_and_derivatives(n):
    rng = np.random.default_rng(400 + n)
    A = symmetric(rng, n)
    V, _ = check_derivatives("evecs", (A,), (sym_direction(rng, (n, n)),), sym_args=(0,), rng=rng)
    close(V, signed_eigh(A)[1], 1e-10, "eigvecsh vs numpy, signed")
    k = np.argmax(np.abs(V), axis=0)
    assert np.all(V[k, np.arange(n)] > 0)


def test_eigh_batched():
    rng = np.random.default_rng(11)
    A = batched(symmetric, rng, 4, 3)
    f, _, _ = op("evals_b")
    close(f(A), per_batch(np.linalg.eigvalsh, A), 1e-12, "batched eigvalsh")
    check_derivatives("evals_b", (A,), (sym_direction(rng, A.shape),), sym_args=(0,), rng=rng)
    f, _, _ = op("evecs_b")
    close(f(A), per_batch(lambda a: signed_eigh(a)[1], A), 1e-10, "batched eigvecsh")
    check_derivatives("evecs_b", (A,), (sym_direction(rng, A.shape),), sym_args=(0,), rng=rng)


@pytest.mark.parametrize("n", (3, 8))
def test_eigh_compositions(n):
    rng = np.random.default_rng(500 + n)
    A, x = symmetric(rng, n), rng.standard_normal(n)
    s, _ = check_derivatives("sum_evals", (A,), (sym_direction(rng, (n, n)),), sym_args=(0,), rng=rng)
    close(s, np.trace(A), 1e-12, "sum of eigenvalues = trace")
    close(pullback("sum_evals", (A,), 1.0)[0], np.eye(n), 1e-10, "d trace = I")
    # Σₖ λₖ (vₖ·x)² = xᵀ·A·x, whatever the signs: gradient x·xᵀ (symmetric) and 2·A·x
    s, _ = check_derivatives("evec_quad", (A, x), (sym_direction(rng, (n, n)), direction(rng, (n,))),
                             sym_args=(0,), rng=rng)
    close(s, x @ A @ x, 1e-12, "Σ λ (v·x)²")
    gA, gx = pullback("evec_quad", (A, x), 1.0)
    close(gA, np.outer(x, x), 1e-9, "d/dA")
    close(gx, 2 * A @ x, 1e-10, "d/dx")


# -- expm ------------------------------------------------------------------------------------------------------
def frechet_expm(A, E):
    """The Fréchet derivative of expm at A along E: the upper right block of expm([[A, E], [0, A]])."""
    n = A.shape[0]
    return sla.expm(np.block([[A, E], [np.zeros((n, n)), A]]))[:n, n:]


@pytest.mark.parametrize("n", SIZES + (50,))
def test_expm_values(n):
    A = general(np.random.default_rng(600 + n), n)
    f, _, _ = op("ex")
    close(f(A), sla.expm(A), 1e-12, "expm vs scipy")
    close(f(4.0 * A), sla.expm(4.0 * A), 1e-11, "expm vs scipy at norm ~4")


@pytest.mark.parametrize("n", SIZES)
def test_expm_derivatives(n):
    rng = np.random.default_rng(700 + n)
    A, D = general(rng, n), direction(rng, (n, n))
    _, dys = check_derivatives("ex", (A,), (D,), rng=rng)
    close(dys[0], frechet_expm(A, D), 1e-10, "pushforward = Fréchet derivative")
    # the pullback is the Fréchet derivative at Aᵀ
    ybar = rng.standard_normal((n, n))
    close(pullback("ex", (A,), ybar)[0], frechet_expm(A.T, ybar), 1e-10, "pullback = Fréchet derivative at Aᵀ")


def test_expm_batched():
    rng = np.random.default_rng(13)
    A = batched(general, rng, 4, 3)
    f, _, _ = op("ex_b")
    close(f(A), per_batch(sla.expm, A), 1e-12, "batched expm")
    check_derivatives("ex_b", (A,), (direction(rng, A.shape),), rng=rng)


@pytest.mark.parametrize("n", (3, 8))
def test_expm_compositions(n):
    rng = np.random.default_rng(800 + n)
    A, t = general(rng, n), 0.7
    s, _ = check_derivatives("tr_expm", (A,), (direction(rng, (n, n)),), rng=rng)
    close(s, np.trace(sla.expm(A)), 1e-12, "trace(expm(A))")
    close(pullback("tr_expm", (A,), 1.0)[0], sla.expm(A).T, 1e-10, "d trace(expm(A)) = expm(A)ᵀ")
    E, _ = check_derivatives("expm_t", (A, t), (direction(rng, (n, n)), 1.0), rng=rng)
    close(E, sla.expm(t * A), 1e-12, "expm(t·A)")
    _, dys = check_derivatives("expm_t", (A, t), (None, 1.0), rng=rng)
    close(dys[1], A @ sla.expm(t * A), 1e-10, "d/dt expm(t·A) = A·expm(t·A)")


# -- logm / sqrtm ----------------------------------------------------------------------------------------------
def daleckii_krein(S, D, f, df):
    """The derivative of the matrix function f at symmetric S along D: Q·((QᵀDQ) ∘ F)·Qᵀ with F the divided
    differences of f at the eigenvalues (f' on the diagonal)."""
    lam, Q = np.linalg.eigh(S)
    li, lj = lam[:, None], lam[None, :]
    same = np.isclose(li, lj, rtol=1e-12, atol=0)
    F = np.where(same, df(li + 0 * lj), (f(li) - f(lj)) / np.where(same, 1.0, li - lj))
    return Q @ ((Q.T @ D @ Q) * F) @ Q.T


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("fn", ["lg", "sq"])
def test_logm_sqrtm_values_and_derivatives(fn, n):
    rng = np.random.default_rng(900 + n)
    S, D = spd(rng, n), sym_direction(rng, (n, n))
    y, dys = check_derivatives(fn, (S,), (D,), sym_args=(0,), rng=rng)
    ref, f, df = {"lg": (sla.logm, np.log, lambda x: 1 / x),
                  "sq": (sla.sqrtm, np.sqrt, lambda x: 0.5 / np.sqrt(x))}[fn]
    close(y, np.real(ref(S)), 1e-10, f"{fn} vs scipy")
    close(y, y.T, 1e-13, f"{fn} is symmetric")
    close(dys[0], daleckii_krein(S, D, f, df), 1e-9, f"{fn} pushforward vs Daleckii–Krein")
    # the same map is self-adjoint: the pullback of a symmetric Ȳ is the pushforward along it
    ybar = sym_direction(rng, (n, n))
    close(pullback(fn, (S,), ybar)[0], daleckii_krein(S, ybar, f, df), 1e-9, f"{fn} pullback")


@pytest.mark.parametrize("fn", ["lg_b", "sq_b"])
def test_logm_sqrtm_batched(fn):
    rng = np.random.default_rng(17)
    S = batched(spd, rng, 4, 3)
    f, _, _ = op(fn)
    ref = sla.logm if fn == "lg_b" else sla.sqrtm
    close(f(S), per_batch(lambda a: np.real(ref(a)), S), 1e-10, fn)
    check_derivatives(fn, (S,), (sym_direction(rng, S.shape),), sym_args=(0,), rng=rng)


@pytest.mark.parametrize("n", (3, 8))
def test_sqrtm_squared_is_the_identity_map(n):
    rng = np.random.default_rng(1000 + n)
    S = spd(rng, n, scale=10.0)
    B, dys = check_derivatives("sqrt_round", (S,), (sym_direction(rng, (n, n)),), sym_args=(0,), rng=rng)
    close(B, S, 1e-12, "sqrtm(S)² = S")
    ybar = rng.standard_normal((n, n))
    close(pullback("sqrt_round", (S,), ybar)[0], (ybar + ybar.T) / 2, 1e-9, "pullback = sym(Ȳ)")


# -- det and logdet at and near singular matrices --------------------------------------------------------------
def exact_det(M):
    """det of a float matrix, exactly (rational elimination), as a Fraction."""
    a = [[Fraction(float(x)) for x in row] for row in M]
    n, d = len(a), Fraction(1)
    for k in range(n):
        p = next((r for r in range(k, n) if a[r][k] != 0), None)
        if p is None:
            return Fraction(0)
        if p != k:
            a[k], a[p], d = a[p], a[k], -d
        d *= a[k][k]
        for r in range(k + 1, n):
            m = a[r][k] / a[k][k]
            a[r] = [x - m * y for x, y in zip(a[r], a[k])]
    return d


def cofactors(M):
    """The cofactor matrix C (Cᵢⱼ = (-1)^(i+j)·det of M without row i and column j) = adj(M)ᵀ, each entry exact
    then rounded."""
    n = M.shape[0]
    C = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            minor = np.delete(np.delete(M, i, axis=0), j, axis=1)
            C[i, j] = (-1) ** (i + j) * float(exact_det(minor)) if n > 1 else 1.0
    return C


def singular(rng, n, kind="sum"):
    """An exactly singular matrix of rank n - 1 with small integer entries and a nonzero adjugate: its last row is
    the sum of the first two ("sum"; elimination in float64 may leave a tiny pivot), a copy of the first ("dup") or
    its last column zero ("zerocol"; elimination meets an exactly zero pivot)."""
    while True:
        M = rng.integers(-4, 5, (n, n)).astype(float)
        if kind == "sum":
            M[-1] = M[0] + M[1] if n > 2 else 2 * M[0]
        elif kind == "dup":
            M[-1] = M[0]
        else:
            M[:, -1] = 0.0
        if exact_det(M) == 0 and np.any(cofactors(M) != 0):
            return M


@pytest.mark.parametrize("kind", ["sum", "dup", "zerocol"])
@pytest.mark.parametrize("n", (2, 3, 5, 8))
def test_det_and_its_gradient_at_a_singular_matrix(n, kind):
    M = singular(np.random.default_rng(1100 + n), n, kind)
    f, f_frule, f_rrule = op("dt")
    d = float(f(M))
    assert np.isfinite(d) and abs(d) <= 1e-12 * np.prod(np.linalg.norm(M, axis=1))
    y, pb = f_rrule(M)
    g = np.asarray(unthunk(pb(1.0)[1]), dtype=float)
    C = cofactors(M)
    assert np.linalg.matrix_rank(C) == 1
    close(g, C, 1e-9, "gradient of det at a singular matrix = adjugate transposed")
    # and the pushforward along D is tr(adj(M)·D) = <C, D>
    D = direction(np.random.default_rng(n), (n, n))
    _, dy = f_frule((NoTangent(), D), M)
    assert abs(float(unthunk(dy)) - inner(C, D)) <= 1e-9 * np.linalg.norm(C)


def test_det_gradient_at_rank_n_minus_2_is_zero():
    rng = np.random.default_rng(21)
    M = rng.integers(-4, 5, (5, 5)).astype(float)
    M[3], M[4] = M[0], M[1]                  # rank 3: every 4×4 minor vanishes, so the adjugate is 0
    f, _, f_rrule = op("dt")
    assert abs(float(f(M))) <= 1e-12 * np.prod(np.linalg.norm(M, axis=1))
    g = np.asarray(unthunk(f_rrule(M)[1](1.0)[1]), dtype=float)
    assert np.all(np.isfinite(g)) and np.max(np.abs(g)) <= 1e-9 * np.prod(np.linalg.norm(M, axis=1))


@pytest.mark.parametrize("eps", (1e-6, 1e-10))
def test_det_near_a_singular_matrix(eps):
    rng = np.random.default_rng(12)
    n = 5
    M = singular(rng, n) + eps * rng.standard_normal((n, n))
    f, _, f_rrule = op("dt")
    want = float(exact_det(M))
    close(f(M), want, 1e-4, "det near singular")
    _, pb = f_rrule(M)
    close(unthunk(pb(1.0)[1]), cofactors(M), 1e-6, "gradient of det near singular = adjugate transposed")
    check_derivatives("dt", (M,), (direction(rng, (n, n)),), rtol_fd=1e-6, rng=rng)


def test_det_batched_with_a_singular_slice():
    rng = np.random.default_rng(19)
    A = np.stack([singular(rng, 4), rng.standard_normal((4, 4)) + 3 * np.eye(4), singular(rng, 4)])
    f, _, f_rrule = op("dt_b")
    d = np.asarray(f(A), dtype=float)
    assert abs(d[0]) < 1e-10 and abs(d[2]) < 1e-10
    close(d[1], float(exact_det(A[1])), 1e-12, "det of the regular slice")
    _, pb = f_rrule(A)
    g = np.asarray(unthunk(pb(np.ones(3))[1]), dtype=float)
    close(g, per_batch(cofactors, A), 1e-9, "batched gradient = adjugates transposed")


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("scale", (1.0, 1e3, 1e-3))
def test_logdet_of_spd_declared_matrix(n, scale):
    rng = np.random.default_rng(1200 + n)
    S = spd(rng, n, scale)
    y, _ = check_derivatives("ld_spd", (S,), (scale * sym_direction(rng, (n, n)),), sym_args=(0,), rng=rng)
    sign, want = np.linalg.slogdet(S)
    assert sign > 0
    close(y, want, 1e-12, "logdet of spd vs slogdet")
    close(pullback("ld_spd", (S,), 1.0)[0], np.linalg.inv(S), 1e-10, "d logdet(S) = S⁻¹")


@pytest.mark.parametrize("shape", [(3, 5), (6, 2), (16, 16)])
def test_logdet_of_a_gram_matrix(shape):
    rng = np.random.default_rng(shape[0] * shape[1])
    X = rng.standard_normal(shape)
    y, _ = check_derivatives("logdet_gram", (X,), (direction(rng, shape),), rng=rng)
    G = X @ X.T + np.eye(shape[0])
    close(y, np.linalg.slogdet(G)[1], 1e-12, "logdet(XXᵀ + I)")
    close(pullback("logdet_gram", (X,), 1.0)[0], 2 * np.linalg.solve(G, X), 1e-10, "d logdet(XXᵀ + I) = 2·G⁻¹X")


# -- the reference evaluator on every rule ----------------------------------------------------------------------
def _reference_inputs(name, rng):
    """Small inputs from each rule's domain, and a function giving the NumPy/SciPy value of its output."""
    n, nb = 3, 2
    A_sym, A_spd, A_gen = symmetric(rng, n), spd(rng, n), general(rng, n)
    B_sym, B_spd, B_gen = batched(symmetric, rng, n, nb), batched(spd, rng, n, nb), batched(general, rng, n, nb)
    x, t, X = rng.standard_normal(n), 0.7, rng.standard_normal((n, 4))
    M = singular(rng, n)
    return {
        "chol": ((A_spd,), lambda: np.linalg.cholesky(A_spd)),
        "evals": ((A_sym,), lambda: np.linalg.eigvalsh(A_sym)),
        "evecs": ((A_sym,), lambda: signed_eigh(A_sym)[1]),
        "ex": ((A_gen,), lambda: sla.expm(A_gen)),
        "lg": ((A_spd,), lambda: np.real(sla.logm(A_spd))),
        "sq": ((A_spd,), lambda: np.real(sla.sqrtm(A_spd))),
        "dt": ((M,), lambda: 0.0),
        "ld_spd": ((A_spd,), lambda: np.linalg.slogdet(A_spd)[1]),
        "chol_b": ((B_spd,), lambda: per_batch(np.linalg.cholesky, B_spd)),
        "evals_b": ((B_sym,), lambda: per_batch(np.linalg.eigvalsh, B_sym)),
        "evecs_b": ((B_sym,), lambda: per_batch(lambda a: signed_eigh(a)[1], B_sym)),
        "ex_b": ((B_gen,), lambda: per_batch(sla.expm, B_gen)),
        "lg_b": ((B_spd,), lambda: per_batch(lambda a: np.real(sla.logm(a)), B_spd)),
        "sq_b": ((B_spd,), lambda: per_batch(lambda a: np.real(sla.sqrtm(a)), B_spd)),
        "dt_b": ((B_gen,), lambda: per_batch(np.linalg.det, B_gen)),
        "logdet_gram": ((X,), lambda: np.linalg.slogdet(X @ X.T + np.eye(n))[1]),
        "tr_expm": ((A_gen,), lambda: np.trace(sla.expm(A_gen))),
        "expm_t": ((A_gen, t), lambda: sla.expm(t * A_gen)),
        "sum_evals": ((A_sym,), lambda: np.trace(A_sym)),
        "chol_apply": ((A_spd, x), lambda: np.linalg.cholesky(A_spd) @ x),
        "chol_round": ((A_spd,), lambda: A_spd),
        "sqrt_round": ((A_spd,), lambda: A_spd),
        "evec_quad": ((A_sym, x), lambda: x @ A_sym @ x),
    }[name]


@pytest.mark.parametrize("name", RULES)
def test_reference_evaluator_reads_each_rule_as_numpy_and_scipy_do(name):
    args, want = _reference_inputs(name, np.random.default_rng(sum(map(ord, name))))
    want = want()
    rule = api.parse(RULES[name])[0]
    out_name = rule.outputs[0].name
    for precision in ("mp", "f64"):
        got = np.asarray(reference.evaluate(rule, args, precision=precision)[out_name], dtype=float)
        if name == "dt":
            assert got == 0.0, precision          # exactly singular: exactly zero
        else:
            close(got, want, 1e-12, f"reference ({precision}) of {name}")
