"""One factorisation per matrix, shared by forward and pullback (issue #11 §3; primitives/factor.py)."""
import numpy as np
import pytest
import scipy.linalg as sla

from primitives import factor as _factor
from runtime import define
from runtime.tangents import unthunk

LOGLIK = {
    "solve": "loglik(x[i], mu[i], S[i,j]: spd) -> l[] = "
             "0.5 * (x[i]-mu[i]) * solve(S, x[j]-mu[j])[i] + 0.5 * logdet(S[i,j])",
    "inv": "loglik(x[i], mu[i], S[i,j]: spd) -> l[] = "
           "0.5 * (x[i]-mu[i]) * inv(S)[i,j] * (x[j]-mu[j]) + 0.5 * logdet(S[i,j])",
}


def _problem(n=6, seed=0):
    r = np.random.default_rng(seed)
    A = r.standard_normal((n, n))
    return r.standard_normal(n), r.standard_normal(n), A @ A.T + n * np.eye(n)


def _scipy_loglik(x, mu, S):
    """Hand mathematics with one Cholesky: l, ∂l/∂x = a, ∂l/∂mu = -a, ∂l/∂S = (S⁻¹ - a·aᵀ)/2, a = S⁻¹(x-mu)."""
    c = sla.cho_factor(S)
    a = sla.cho_solve(c, x - mu)
    Si = sla.cho_solve(c, np.eye(len(x)))
    return 0.5 * (x - mu) @ a + np.sum(np.log(np.diag(c[0]))), a, -a, 0.5 * (Si - np.outer(a, a))


def _value_and_grad(op, *args):
    l, pb = op.rrule(*args)
    return (l,) + tuple(unthunk(g) for g in pb(1.0)[1:])


@pytest.fixture
def counted(monkeypatch):
    calls = []
    for name in ("cho_factor", "lu_factor"):
        real = getattr(_factor, name)
        monkeypatch.setattr(_factor, name, lambda X, real=real, name=name: calls.append(name) or real(X))
    return calls


@pytest.mark.parametrize("form", ["solve", "inv"])
def test_loglik_value_and_gradient_match_scipy_and_finite_differences(form):
    op = define(LOGLIK[form])
    x, mu, S = _problem()
    got, want = _value_and_grad(op, x, mu, S), _scipy_loglik(x, mu, S)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12)
    # central differences along symmetric directions of S (S lives on symmetric matrices), and along x, mu
    r, h = np.random.default_rng(1), 1e-6
    for _ in range(3):
        E = r.standard_normal(S.shape)
        E = E + E.T
        fd = (op(x, mu, S + h * E) - op(x, mu, S - h * E)) / (2 * h)
        assert abs(fd - np.sum(got[3] * E)) < 1e-7 * (1 + abs(fd))
        v = r.standard_normal(x.shape)
        fd = (op(x + h * v, mu, S) - op(x - h * v, mu, S)) / (2 * h)
        assert abs(fd - got[1] @ v) < 1e-7 * (1 + abs(fd))
        fd = (op(x, mu + h * v, S) - op(x, mu - h * v, S)) / (2 * h)
        assert abs(fd - got[2] @ v) < 1e-7 * (1 + abs(fd))


@pytest.mark.parametrize("form", ["solve", "inv"])
def test_loglik_factors_S_once_per_rrule_and_pullback(form, counted):
    op = define(LOGLIK[form])
    x, mu, S = _problem()
    counted.clear()                                    # define() may have run the rule (verification)
    _value_and_grad(op, x, mu, S)
    assert counted == ["cho_factor"]
    counted.clear()
    op(x, mu, S)
    assert counted == ["cho_factor"]


def test_general_matrix_shares_one_lu(counted):
    op = define("g(x[i], A[i,j]) -> y[] = x[i] * solve(A, x[j])[i] + logdet(A[i,j]) + det(A[i,j])")
    r = np.random.default_rng(2)
    A, x = r.standard_normal((5, 5)) + 5 * np.eye(5), r.standard_normal(5)
    counted.clear()                                    # define() may have run the rule (verification)
    l, dx, dA = _value_and_grad(op, x, A)
    assert counted == ["lu_factor"]
    want = x @ np.linalg.solve(A, x) + np.linalg.slogdet(A)[1] + np.linalg.det(A)
    np.testing.assert_allclose(l, want, rtol=1e-12)
    Ai = np.linalg.inv(A)
    np.testing.assert_allclose(dx, (Ai + Ai.T) @ x, rtol=1e-10)
    a, b = Ai @ x, Ai.T @ x
    np.testing.assert_allclose(dA, -np.outer(b, a) + Ai.T + np.linalg.det(A) * Ai.T, rtol=1e-10, atol=1e-12)


def test_spd_declared_but_indefinite_falls_back_to_lu():
    op = define("ld(S[i,j]: spd) -> y[] = logdet(S[i,j])")
    S = np.diag([2.0, -3.0, 5.0])
    np.testing.assert_allclose(op(S), np.log(30.0), rtol=1e-14)


def test_factored_inverse_of_a_singular_matrix_raises_as_numpy_does():
    F = _factor.factor(np.array([[1.0, 2.0], [2.0, 4.0]]))
    with pytest.raises(np.linalg.LinAlgError):
        F.inv()
    with pytest.raises(np.linalg.LinAlgError):
        F.solve(np.ones(2))
    assert F.det() == 0.0


@pytest.mark.parametrize("spd", [True, False])
def test_factor_methods_match_numpy(spd):
    r = np.random.default_rng(3)
    A = r.standard_normal((7, 7))
    X = A @ A.T + 7 * np.eye(7) if spd else A
    B = r.standard_normal((7, 2))
    F = _factor.factor(X, spd)
    assert F.kind == ("cholesky" if spd else "lu")
    np.testing.assert_allclose(F.solve(B), np.linalg.solve(X, B), rtol=1e-10)
    np.testing.assert_allclose(F.solve(B[:, 0], trans=True), np.linalg.solve(X.T, B[:, 0]), rtol=1e-10)
    np.testing.assert_allclose(F.inv(), np.linalg.inv(X), rtol=1e-10)
    np.testing.assert_allclose(F.logdet(), np.linalg.slogdet(X)[1], rtol=1e-12)
    np.testing.assert_allclose(F.det(), np.linalg.det(X), rtol=1e-10)


def test_spd_inferred_but_not_symmetric_gets_the_full_matrix_answer():
    """logdet makes A's domain spd; a non-symmetric A with positive determinant must not be read by one
    triangle (a Cholesky would silently give log det of the symmetrised lower part)."""
    op = define("ld2(A[i,j]) -> y[] = logdet(A[i,j])")
    A = np.array([[4.0, 3.0, 0.0], [-1.0, 5.0, 2.0], [0.5, 0.0, 6.0]])
    np.testing.assert_allclose(op(A), np.linalg.slogdet(A)[1], rtol=1e-14)
    l, pb = op.rrule(A)
    np.testing.assert_allclose(unthunk(pb(1.0)[1]), np.linalg.inv(A).T, rtol=1e-12)
