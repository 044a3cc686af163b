"""A matrix primitive's pullback at a cotangent c·I (c·𝟙 for eigenvalues) in closed form (issue 25): the trace of
expm, logm, sqrtm and the sum of the eigenvalues derive `dX = dy·exp(X)ᵀ`, `dS = dy·S⁻¹`, `dS = dy·√S⁻¹/2`,
`dA = dy·I` in place of the linear map given as code (L_exp, Daleckii–Krein), as the Matrix Cookbook writes them.

References are written here by hand with SciPy/NumPy (scipy.linalg.expm, eigh), never read from the declaration
or the generated code; each derived rule is also checked by derive-rules' own verification (finite differences).
"""
from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sla

from derive import api
from derive.calculus.differential import OpaqueLin
from primitives import index_form
from primitives.matrix import PRIMITIVES
from runtime import backend_numpy
from runtime.tangents import unthunk


def _spd(rng, n):
    a = rng.standard_normal((n, n))
    return a @ a.T + n * np.eye(n)


def _sym_sqrt(S):
    w, V = np.linalg.eigh(S)
    return (V * np.sqrt(w)) @ V.T


# (primitive, a point in its domain, the pullback at the cotangent c·I (c·𝟙) by hand)
BY_HAND = {
    "expm": (lambda rng: rng.standard_normal((4, 4)) / 2, lambda X, c: c * sla.expm(X).T),
    "logm": (lambda rng: _spd(rng, 4), lambda X, c: c * np.linalg.inv(X)),
    "sqrtm": (lambda rng: _spd(rng, 4), lambda X, c: c * np.linalg.inv(_sym_sqrt(X)) / 2),
    "eigvalsh": (lambda rng: (lambda a: a + a.T)(rng.standard_normal((4, 4))), lambda X, c: c * np.eye(4)),
}


def test_the_primitives_that_declare_one():
    assert sorted(n for n, p in PRIMITIVES.items() if p.vjp_at_identity) == sorted(BY_HAND)


@pytest.mark.parametrize("name", sorted(BY_HAND))
def test_the_map_at_the_identity_is_the_closed_form(name):
    """The declaration's map (its own code) at c·I equals the closed form written by hand."""
    p = PRIMITIVES[name]
    sample, closed = BY_HAND[name]
    rng = np.random.default_rng(5)
    X, c = sample(rng), -1.7
    saved = [X if s == "X" else np.asarray(p.forward(X)) if s == "R" else np.asarray(PRIMITIVES[s].forward(X))
             for s in p.saves]
    seed = c * (np.eye(4) if p.result == "square" else np.ones(4))
    got = np.asarray(p.vjps[0](backend_numpy, *saved, seed), dtype=float)
    np.testing.assert_allclose(got, closed(X, c), rtol=1e-9, atol=1e-12)


RULES = {
    "expm": ("tr_expm_(X[i,j]) -> y[] = trace(expm(X))", "dX = dy·exp(X)ᵀ"),
    "logm": ("tr_logm_(S[i,j]: spd) -> y[] = trace(logm(S))", "dS = dy·S⁻¹"),
    "sqrtm": ("tr_sqrtm_(S[i,j]: spd) -> y[] = trace(sqrtm(S))", None),
    "eigvalsh": ("sum_eig_(A[i,j]: symmetric) -> y[] = sum(i, eigvalsh(A)[i])", "dA = dy·I"),
}


@pytest.fixture(scope="module")
def derived():
    text = "\n".join(r for r, _ in RULES.values()) + "\n"
    text += "sum_expm_(X[i,j]) -> y[] = sum(i, j, expm(X)[i,j])\n"       # a cotangent 𝟙·𝟙ᵀ: not c·I
    results = {r.name: r for r in api.derive_text(text, "<at identity>")}
    ns: dict = {}
    exec(api.render_module(list(results.values()), "<at identity>", export=False), ns)
    return results, ns["_define"](backend_numpy)


@pytest.mark.parametrize("name", sorted(RULES))
def test_the_derivation_uses_the_closed_form(derived, name):
    results, ops = derived
    rule, shown = RULES[name]
    r = results[rule.split("(")[0]]
    assert r.ok, (r.name, r.error, r.check and r.check.problems)
    assert not any(isinstance(ls, OpaqueLin) and ls.mode == "vjp" for ls in r.derivation.pullback), \
        r.derivation.pullback
    if shown is not None:
        assert shown in r.pullback_text().splitlines(), r.pullback_text()
    sample, closed = BY_HAND[name]
    X = sample(np.random.default_rng(11))
    y, pb = ops[f"{r.name}_rrule"](X)
    np.testing.assert_allclose(np.asarray(unthunk(pb(0.8)[1]), dtype=float), closed(X, 0.8), rtol=1e-9,
                               atol=1e-12)


def test_a_cotangent_that_is_not_the_identity_keeps_the_map(derived):
    results, ops = derived
    r = results["sum_expm_"]
    assert r.ok
    assert any(isinstance(ls, OpaqueLin) and ls.mode == "vjp" for ls in r.derivation.pullback)
    X = np.random.default_rng(2).standard_normal((4, 4)) / 2
    n = 4
    big = sla.expm(np.block([[X.T, np.ones((n, n))], [np.zeros((n, n)), X.T]]))[:n, n:]   # L_exp(Xᵀ, 𝟙·𝟙ᵀ)
    np.testing.assert_allclose(np.asarray(unthunk(ops["sum_expm__rrule"](X)[1](1.0)[1]), dtype=float), big,
                               rtol=1e-9)


@pytest.mark.parametrize("text", ["dX[i,j] = dR * R[j,k]", "dX[i,j] = R[j,i]", "dX[i,j] = dR[i] * R[j,i]",
                                  "dR[i,j] = dR * R[j,i]", "dX[i,j] = dR * Q[j,i]"])
def test_a_malformed_declaration_is_refused(text):
    with pytest.raises(ValueError, match="identity|tangent|expected"):
        index_form.parse_at_identity(text, ("X",))
