"""Values and gradients of derived rules against matrix-calculus identities written independently of the engine
(The Matrix Cookbook, sections 2.1-2.4, and the usual results for softmax, log-sum-exp and norms), in NumPy,
at random points and at realistic magnitudes. A rule that verifies yet computes something its text does not
mean fails here, whatever the engine's own checks say."""
import numpy as np
import pytest

from derive import api
from runtime import backend_numpy
from runtime.tangents import unthunk


def _ops(text):
    results = api.derive_text(text, "<identities>")
    assert all(r.ok for r in results), [(r.name, r.error, r.check and r.check.problems) for r in results]
    ns: dict = {}
    exec(api.render_module(results, "<identities>", export=False), ns)
    return ns["_define"](backend_numpy)


def _spd(rng, n, scale=1.0):
    m = rng.standard_normal((n, n))
    return scale * (m @ m.T + n * np.eye(n))


def _softmax(x):
    e = np.exp(x - x.max())
    return e / e.sum()


# (rule, inputs(rng, scale) -> tuple, value(*inputs), gradients(*inputs) -> tuple, one per input)
CASES = {
    "trace_AX": ("f(A[i,j], X[j,i]) -> y[] = A[i,j] * X[j,i]",
                 lambda r, s: (s * r.standard_normal((3, 4)), s * r.standard_normal((4, 3))),
                 lambda A, X: np.trace(A @ X), lambda A, X: (X.T, A.T)),
    "det": ("f(X[i,j]) -> y[] = det(X)",
            lambda r, s: (s * r.standard_normal((4, 4)) + 4 * s * np.eye(4),),
            lambda X: np.linalg.det(X), lambda X: (np.linalg.det(X) * np.linalg.inv(X).T,)),
    "log_abs_det": ("f(X[i,j]) -> y[] = log(abs(det(X)))",
                    lambda r, s: (s * r.standard_normal((4, 4)) + 4 * s * np.eye(4),),
                    lambda X: np.log(abs(np.linalg.det(X))), lambda X: (np.linalg.inv(X).T,)),
    "trace_inv_A": ("f(X[i,j], A[j,i]) -> y[] = inv(X)[i,j] * A[j,i]",
                    lambda r, s: (r.standard_normal((4, 4)) + 4 * np.eye(4), s * r.standard_normal((4, 4))),
                    lambda X, A: np.trace(np.linalg.inv(X) @ A),
                    lambda X, A: (-(np.linalg.inv(X) @ A @ np.linalg.inv(X)).T, np.linalg.inv(X).T)),
    "a_inv_b": ("f(a[i], X[i,j], b[j]) -> y[] = a[i] * inv(X)[i,j] * b[j]",
                lambda r, s: (s * r.standard_normal(4), r.standard_normal((4, 4)) + 4 * np.eye(4),
                              s * r.standard_normal(4)),
                lambda a, X, b: a @ np.linalg.inv(X) @ b,
                lambda a, X, b: (np.linalg.inv(X) @ b, -np.outer(np.linalg.inv(X).T @ a, np.linalg.inv(X) @ b),
                                 np.linalg.inv(X).T @ a)),
    # (Xb + c)ᵀ D (Xb + c): Cookbook (88)
    "quadratic_affine": ("f(X[i,j], b[j], c[i], D[i,k]) -> y[] = (X[i,j]*b[j] + c[i]) * D[i,k] * (X[k,l]*b[l] + c[k])",
                         lambda r, s: (r.standard_normal((3, 4)), r.standard_normal(4), s + r.standard_normal(3),
                                       r.standard_normal((3, 3))),
                         lambda X, b, c, D: (X @ b + c) @ D @ (X @ b + c),
                         lambda X, b, c, D: (np.outer((D + D.T) @ (X @ b + c), b), X.T @ (D + D.T) @ (X @ b + c),
                                             (D + D.T) @ (X @ b + c), np.outer(X @ b + c, X @ b + c))),
    "mahalanobis": ("f(x[i], m[i], S[i,j]: spd) -> y[] = (x[i] - m[i]) * inv(S)[i,j] * (x[j] - m[j])",
                    lambda r, s: (s + r.standard_normal(3), s + r.standard_normal(3), _spd(r, 3)),
                    lambda x, m, S: (x - m) @ np.linalg.solve(S, x - m),
                    lambda x, m, S: (2 * np.linalg.solve(S, x - m), -2 * np.linalg.solve(S, x - m),
                                     -np.outer(np.linalg.solve(S, x - m), np.linalg.solve(S, x - m)))),
    "frobenius": ("f(X[i,j]) -> y[] = sqrt(X[i,j] * X[i,j])",
                  lambda r, s: (s * r.standard_normal((3, 4)),),
                  lambda X: np.linalg.norm(X), lambda X: (X / np.linalg.norm(X),)),
    "xt_A_x": ("f(X[i,j], A[i,k]) -> Y[j,l] = X[i,j] * A[i,k] * X[k,l]",   # Y = XᵀAX, seeded by the all-ones cotangent
               lambda r, s: (r.standard_normal((3, 2)), s * r.standard_normal((3, 3))),
               lambda X, A: X.T @ A @ X,
               lambda X, A: (A @ X @ np.ones((2, 2)).T + A.T @ X @ np.ones((2, 2)), X @ np.ones((2, 2)) @ X.T)),
    "logsumexp": ("f(x[i]) -> y[] = log(sum(i, exp(x[i])))",
                  lambda r, s: (s + r.standard_normal(5),),
                  lambda x: x.max() + np.log(np.exp(x - x.max()).sum()), lambda x: (_softmax(x),)),
    "cross_entropy": ("f(x[i], t[i]) -> y[] = -t[i] * (x[i] - log(sum(j, exp(x[j]))))",
                      lambda r, s: (s + r.standard_normal(5), r.uniform(0.1, 1.0, 5)),
                      lambda x, t: -t @ (x - x.max() - np.log(np.exp(x - x.max()).sum())),
                      lambda x, t: (_softmax(x) * t.sum() - t, -(x - x.max() - np.log(np.exp(x - x.max()).sum())))),
    "outer_transposes": ("f(M[i,j], b[i], c[j]) -> y[] = (b[i]*c[j] + c[i]*b[j]) * M[i,j]",
                         lambda r, s: (r.standard_normal((3, 3)), s * r.standard_normal(3), r.standard_normal(3)),
                         lambda M, b, c: np.sum((np.outer(b, c) + np.outer(c, b)) * M),
                         lambda M, b, c: (np.outer(b, c) + np.outer(c, b), (M + M.T) @ c, (M + M.T) @ b)),
    "ratio_of_norms": ("f(u[i], v[k]) -> y[] = (u[i]*u[i]) / (v[k]*v[k])",
                       lambda r, s: (s * r.standard_normal(3), s * r.standard_normal(4)),
                       lambda u, v: (u @ u) / (v @ v),
                       lambda u, v: (2 * u / (v @ v), -2 * (u @ u) * v / (v @ v) ** 2)),
}

SCALES = {"unit": 1.0, "far": 1e3}


@pytest.mark.parametrize("scale", SCALES, ids=list(SCALES))
@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_value_and_gradient_match_the_identity(case, scale):
    text, make, value, grads = CASES[case]
    ops = _ops(text)
    name = text.split("(")[0]
    rng = np.random.default_rng(7)
    args = make(rng, SCALES[scale])
    y, pb = ops[f"{name}_rrule"](*args)
    want = value(*args)
    np.testing.assert_allclose(y, want, rtol=1e-9, atol=0)
    seed = np.ones(np.shape(y)) if np.ndim(y) else 1.0
    got = [unthunk(g) for g in pb(seed)[1:]]
    for k, (g, w) in enumerate(zip(got, grads(*args))):
        g = np.asarray(g, dtype=float)
        assert np.all(np.isfinite(g)), (case, k)
        np.testing.assert_allclose(g, w, rtol=1e-7, atol=1e-9 * np.max(np.abs(w), initial=1.0),
                                   err_msg=f"{case}: gradient of argument {k}")
