"""Standard matrix-calculus identities: derived, verified numerically, and shown in textbook matrix form.

The expected forms are the textbook results (e.g. The Matrix Cookbook, Giles' "collected matrix
derivative results"), written independently of the engine; the numerical check is the engine's own.
"""
import pytest

from derive import api

IDENTITIES = [
    # (rule, {statement target: expected pullback in matrix form})
    ("B = inv(A)", {"dA": "dA = -Bᵀ·dB·Bᵀ"}),
    ("C[i,j] = A[i,k] * B[k,j]", {"dA": "dA = dC·Bᵀ", "dB": "dB = Aᵀ·dC"}),
    # logdet's code (an LU) takes every invertible A, not only the spd ones it is sampled at (issue 25): A⁻ᵀ
    ("y = logdet(A)", {"dA": "dA = dy·A⁻ᵀ"}),
    # the code keeps adj(A)ᵀ (det's gradient at singular A too); the display writes det(A)·A⁻ᵀ = y·A⁻ᵀ, as books do
    ("y = det(A)", {"dA": "dA = y·dy·A⁻ᵀ"}),
    ("t = A[i,i]", {"dA": "dA = dt·I"}),
    ("y = x[i] * A[i,j] * x[j]", {"dx": "dx = dy·(A + Aᵀ)·x", "dA": "dA = dy·x·xᵀ"}),
    ("s = x[i] * A[i,j] * y[j]", {"dx": "dx = ds·A·y", "dA": "dA = ds·x·yᵀ", "dy": "dy = ds·Aᵀ·x"}),
    ("y = A[i,j] * X[j,k] * B[k,i]", {"dX": "dX = dy·Aᵀ·Bᵀ"}),
    ("y[i] = tanh(x[i])", {"dx": "dx = (1 - y²) ⊙ dy"}),
    ("y[i] = exp(x[i])", {"dx": "dx = y ⊙ dy"}),
    ("y[i] = exp(x[i]) / sum(j, exp(x[j]))", {"dx": "dx = y ⊙ dy - y·yᵀ·dy"}),
    # solve's temporary z is b's cotangent: shown as db, as Giles writes it
    ("x = solve(A, b)", {"dA": "dA = -db·xᵀ", "db": "db = A⁻ᵀ·dx"}),
]


@pytest.mark.parametrize("text,expected", IDENTITIES, ids=[t for t, _ in IDENTITIES])
def test_identity(text, expected):
    r = api.derive_expr(text)
    assert r.ok, (r.error, r.check and r.check.problems)
    shown = {line.split(" = ")[0]: line for line in r.pullback_text().splitlines()}
    for target, form in expected.items():
        assert shown[target] == form


def test_inverse_pushforward_reuses_the_output():
    r = api.derive_expr("B = inv(A)")
    assert r.pushforward_text() == "dB = -B·dA·B"


def test_pullbacks_of_compositions_verify():
    text = """
    f1(X[k:6,i:3]) -> y[] = logdet(X[k,i] * X[k,j])
    f2(X[i,j]) -> y[] = inv(X)[i,i]
    f3(A[i,j], X[j,k], B[i,k]) -> y[] = sum(i, k, (A[i,j] * X[j,k] - B[i,k])**2)
    f4(X[i,j]) -> y[] = det(X[i,j])**2
    f5(x[i], S[i,j]) -> y[] = exp(-x[i] * inv(S)[i,j] * x[j] / 2)
    f6(W[o,i], x[b,i]) -> y[b,o] = sigmoid(W[o,i] * x[b,i]) * log1p(x[b,o]**2)
    """
    import textwrap

    rs = api.derive_text(textwrap.dedent(text), "<identities>")
    assert [r.name for r in rs if not r.ok] == []
    assert rs[2].pullback_text().splitlines()[-1] != ""


def test_inv_pullback_needs_no_second_inverse():
    from derive.emission import numpy_module as codegen

    r = api.derive_text("inv(A[i,j]) -> B[i,j] = inv(A[i,j])", "<t>")[0]
    rr = r.code.functions.split("def inv_rrule")[1]
    pullback = rr.split("def inv_pullback")[1]
    assert "linalg.inv" not in pullback


def test_det_pullback_uses_the_adjugate_not_an_inverse():
    # det·A⁻ᵀ raises at singular A, where the gradient adj(A)ᵀ exists
    r = api.derive_text("det(A[i,j]) -> d[] = det(A[i,j])", "<t>")[0]
    pullback = r.code.functions.split("def det_pullback")[1]
    assert pullback.count("np.prim.adj.forward") == 1 and "inv" not in pullback


def test_broadcast_pullback_sums_over_broadcast_index():
    r = api.derive_expr("y[b,o] = x[b,o] + c[o]")
    assert "dc = dyᵀ·𝟙" in r.pullback_text()


def test_latex_output():
    r = api.derive_expr("B = inv(A)")
    assert r.pullback_text("latex") == r"\mathrm{d}A = -B^{\top} \mathrm{d}B B^{\top}"
