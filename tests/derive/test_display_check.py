"""Every matrix form shown is checked numerically against its statement; a wrong one is never shown."""
from pathlib import Path

import pytest
import sympy as sp

from derive import api
from derive.display import check as dc
from derive.display import forms as display
from derive.display import matrixform

RULES = sorted((Path(__file__).resolve().parents[2] / "rules").glob("*.rules"))


def _shown(results):
    out = []
    for r in results:
        for which in ("pushforward", "pullback"):
            for style in ("unicode", "latex"):
                out.append(display.program_text(r.derivation, which, style,
                                                 domains=display.program_domains(r.derivation)))
    return "\n".join(out)


@pytest.mark.parametrize("path", RULES, ids=lambda p: p.name)
def test_shipped_rules_show_only_matrix_forms_that_agree(path):
    dc.rejections.clear()
    _shown(api.derive_text(path.read_text(), str(path), verify_rules=False))
    assert dc.rejections == []


def test_outer_products_keep_their_transposes():
    # dM[i,j] = dy·(b[i]·c[j] + c[i]·b[j]) by hand; issue 13 showed `dy·(b·c + b·c)`
    dc.rejections.clear()
    r = api.derive_text("r(M[i,j], b[i], c[j]) -> y[] = (b[i]*c[j] + c[i]*b[j]) * M[i,j]")[0]
    assert r.pullback_text().splitlines()[0] == "dM = dy·(b·cᵀ + c·bᵀ)"
    assert r.pullback_text("latex").splitlines()[0].startswith(r"\mathrm{d}M = \mathrm{d}y (b c^{\top} + c b^{\top})")
    assert dc.rejections == []


def test_a_product_of_matrices_in_an_elementwise_factor_is_hadamard():
    # dy = Σ_ij (X[i,j]·Y[i,j] + 1)·dA[i,j]: `X·Y + 1` would read as a matrix product
    dc.rejections.clear()
    r = api.derive_text("f(A[i,j], X[i,j], Y[i,j]) -> y[] = sum(i, j, (X[i,j]*Y[i,j] + 1)*A[i,j])")[0]
    assert "dA = dy·(X ⊙ Y + 1)" in r.pullback_text().splitlines()
    assert dc.rejections == []


def test_a_wrong_form_is_not_shown(monkeypatch):
    # a printer that forgets every transpose, in its text and in the algebra its text means
    r = api.derive_expr("B = inv(A)")
    assert r.pullback_text() == "dA = -Bᵀ·dB·Bᵀ"
    monkeypatch.setitem(matrixform.STYLES["unicode"], "T", "")
    monkeypatch.setattr(matrixform.dc, "transpose", lambda a: a)
    dc.rejections.clear()
    shown = r.pullback_text()
    assert shown.startswith("dA[i,j] = ") and shown == r.pullback_index()     # the index form instead
    assert dc.rejections and dc.rejections[0][1:] == ("dA = -B·dB·B", dc.rejections[0][2])
    assert dc.rejections[0][2].startswith("relative error")


def test_elementwise_square_of_a_matrix_is_not_a_matrix_square():
    # dW[o,k] = Σ_b (1 - y[b,o]²)·dy[b,o]·x[b,k]: y² would read as y·y
    r = api.derive_text("d(x[b,k], W[o,k]) -> y[b,o] = tanh(sum(k, x[b,k]*W[o,k]))")[0]
    assert "dW = ((1 - y∘²) ⊙ dy)ᵀ·x" in r.pullback_text().splitlines()


def test_a_vector_beside_a_matrix_is_broadcast_explicitly():
    # dt[b,c] = dL·(lse[b] - z[b,c])/size(b): `lse - z` adds a column to a matrix
    r = api.derive_text("ce(z[b,c], t[b,c]) -> L[]:\n    lse[b] = log(sum(k, exp(z[b,k])))\n"
                        "    L[] = -sum(b, c, t[b,c] * (z[b,c] - lse[b])) / size(b)\n")[0]
    assert "dt = dL·(lse·𝟙ᵀ - z)/size(b)" in r.pullback_text().splitlines()


def test_a_matrix_square_is_shown_as_a_product_only_where_it_is_one():
    # Y = X·X (a matrix product): dX = dY·Xᵀ + Xᵀ·dY, checked like every form
    dc.rejections.clear()
    r = api.derive_text("sq(X[i,j]) -> Y[i,l] = sum(j, X[i,j]*X[j,l])")[0]
    assert r.pullback_text() in ("dX = dY·Xᵀ + Xᵀ·dY", "dX = Xᵀ·dY + dY·Xᵀ")
    assert dc.rejections == []


def test_two_bound_indices_of_one_class_print_with_different_names():
    # issue 13: Σ over two bound indices of class i printed as Σ_i′i′(X[i′,i′]·...), which reads as a diagonal
    r = api.derive_text("f(X[i,k], a[k]) -> y[] = sum(i, sin(sum(k, l, X[i,k]*X[k,l]*a[l])))")[0]
    text = r.pullback_index()     # the matrix form (dy·Xᵀ·cos(X·X·a)·aᵀ + ...) names no bound index
    assert "Σ_i′i″(X[i′,i″]·" in text and "i′i′" not in text and "X[i′,i′]" not in text
    assert r"\sum_{i',i''} X_{i',i''}" in r.pullback_index("latex")
    assert "dX = dy·Xᵀ·cos(X·X·a)·aᵀ + dy·cos(X·X·a)·aᵀ·Xᵀ" in r.pullback_text().splitlines()


def test_a_primitive_of_a_primitive_value_shows_its_name_and_is_not_a_users_tensor():
    # det(inv(X)) needs adj(X⁻¹); issue 13 showed adj(inv_X), which names no tensor of the rule. With a user
    # tensor inv_X beside it, both adjugates had one internal name and the rule derived wrong numbers.
    assert "dy = tr(adj(X⁻¹)·d(X⁻¹))" in api.derive_expr("y = det(inv(X))").pushforward_text().splitlines()
    r = api.derive_text("f(X[i,j], inv_X[i,j]) -> y[] = det(inv(X)) + det(inv_X)")[0]
    assert r.ok
    lines = r.pullback_text().splitlines()
    # d det(Y) = det(Y)·tr(Y⁻¹·dY) by hand, with Y = X⁻¹ (dY = -X⁻¹·dX·X⁻¹) and Y = inv_X: a book's X⁻ᵀ, not adj
    assert "dX = -det(X⁻¹)·dy·X⁻ᵀ" in lines and "dinv_X = det(inv_X)·dy·inv_X⁻ᵀ" in lines


def test_internal_temporaries_never_share_a_name_with_the_rules_or_each_other():
    # solve's tangent temporary was always `dz`: beside a user's z, and for two solves in one rule
    r = api.derive_text("f(A[i,j], b[i], z[i]) -> x[i] = solve(A, b)[i] + z[i]")[0]
    # t0, the solve's value, is defined on a line of its own (issue 25: no name the reader was never told)
    assert r.pushforward_text().splitlines() == ["dz′ = db - dA·t0", "dt0 = A⁻¹·dz′", "dx = dt0 + dz",
                                                 "t0 = solve(A, b)"]
    r = api.derive_text("f(A[i,j], B[i,j], t0[i]) -> x[i] = solve(A, t0)[i] + solve(B, t0)[i]")[0]
    lines = r.pullback_text().splitlines()
    assert "dA = -dz₁·t0′ᵀ" in lines and "dB = -dz₂·t1ᵀ" in lines and "dt0 = dz₂ + dz₁" in lines
    # x = solve(A, t0) + solve(B, t0): each solve's result has the cotangent dx (its one-line copy is folded in)
    assert r"\mathrm{d}z_{1} = A^{-\top} \mathrm{d}x" in r.pullback_text("latex")


@pytest.mark.parametrize("src, want", [
    # d x^(2/3) = (2/3)·x^(-1/3)·dx; issue 13 showed `2/3·x**(-1/3)` and, in index form, `x[i]··(1/3)`
    ("f(x[i]: positive) -> y[i] = x[i]**(2/3)", ["dy = 2/(3·x^(1/3)) ⊙ dx", "dy[i] = 2·dx[i]/(3·x[i]^(1/3))"]),
    # d v⁻² = -2·v⁻³·dv
    ("f(v[i]) -> y[i] = v[i]**(-2)", ["dy = -2/v³ ⊙ dv", "dy[i] = -2·dv[i]/v[i]³"]),
    # d sqrt(x) = dx/(2·sqrt(x)), through the output y = sqrt(x) (issue 25); was `1/2·1/sqrt(x)`
    ("f(x[i]: positive) -> y[i] = sqrt(x[i])", ["dy = dx/(2·y)", "dy[i] = dx[i]/(2·y[i])"]),
    # d log|u| = du/u; was `1/Abs(t0)·sign(t0)`
    ("f(x[i]) -> y[i] = log(abs(x[i]))", ["dy = dx/x", "dy[i] = dx[i]/x[i]"]),
])
def test_powers_and_abs_print_as_a_textbook_writes_them(src, want):
    r = api.derive_text(src)[0]
    assert r.ok
    assert [r.pushforward_text(), r.pushforward_index()] == want
    for text in (r.pullback_text("latex"), r.pullback_index("latex")):
        assert "**" not in text and "sqrt(" not in text and "Abs" not in text


def test_latex_of_a_reciprocal_root_is_a_fraction():
    # issue 13: LaTeX held `1/sqrt(\mathit{var} + 1/100000)`
    r = api.derive_text("f(var[i], x[i]) -> y[i] = x[i]/sqrt(var[i] + 1e-5)")[0]
    tex = r.pullback_text("latex")
    assert r"\frac{1}{\sqrt{\mathit{var} + \frac{1}{100000}}} \odot \mathrm{d}y" in tex
    assert "sqrt(" not in tex and "1/" not in tex


def test_the_shipped_power_shows_n_x_to_the_n_minus_1():
    # d xⁿ = n·xⁿ⁻¹·dx; issue 13 showed `x**where(n ≠ 0, n - 1, 0)`
    r = api.derive_text("power(x[i], n: int) -> y[i] = x[i] ** n")[0]
    assert r.pushforward_text() == "dy = n·(x^(n - 1) ⊙ dx)"
    assert r.pushforward_index() == "dy[i] = dx[i]·n·x[i]^(n - 1)"
    assert "where" not in r.pullback_text("latex") and "x^{n - 1}" in r.pullback_text("latex")


def test_summed_indices_are_not_named_like_a_tensor():
    # a sum over `k` beside a tensor k read `Σ_k ds[i]·k[k,d]`
    r = api.derive_text("f(q[i,d], k[j,d]) -> s[i] = sum(j, exp(sum(d, q[i,d]*k[j,d]) / sqrt(size(d))))")[0]
    for text in (r.pushforward_text(), r.pullback_text()):
        assert "Σ_k" not in text and "k[k," not in text and "[k," not in text


def test_latex_labels_pushforward_and_pullback():
    # issue 13: one unlabelled aligned block, where a name like dmu is assigned twice
    import io

    from derive import cli

    out = io.StringIO()
    cli.print_latex([{"rules": [api.derive_expr("B = inv(A)").to_json()]}], out)
    rows = out.getvalue().splitlines()[2:-2]
    assert rows == [r"  &\text{pushforward} \\", r"  \mathrm{d}B &= -B \mathrm{d}A B \\",
                    r"  &\text{pullback} \\", r"  \mathrm{d}A &= -B^{\top} \mathrm{d}B B^{\top} \\",
                    r"  &\text{for } \text{every invertible square } A"]      # inv takes every invertible A


def test_a_scalar_divisor_trails_and_a_step_is_a_bracket():
    # by hand: S = Q·Kᵀ/√d gives dQ = dS·K/√d, dK = dSᵀ·Q/√d; relu' is the indicator [x > 0]; (log x)' = 1/x
    dc.rejections.clear()
    r = api.derive_text("f(Q[n,d], K[m,d]) -> S[n,m] = Q[n,d]*K[m,d] / sqrt(size(d))")[0]
    assert sorted(r.pullback_text().splitlines()) == ["dK = dSᵀ·Q/sqrt(size(d))", "dQ = dS·K/sqrt(size(d))"]
    r = api.derive_text("f(x[i]) -> y[i] = where(x[i] > 0, x[i], 0)")[0]
    assert r.pullback_text() == "dx = [x > 0] ⊙ dy"
    assert r.pullback_text("latex") == r"\mathrm{d}x = \left[x > 0\right] \odot \mathrm{d}y"
    r = api.derive_text("f(x[i]: positive) -> y[i] = log(x[i])")[0]
    assert r.pullback_text() == "dx = dy/x"
    assert dc.rejections == []


def test_row_wise_terms_broadcast_with_ones_and_a_diagonal_is_diag():
    # by hand: log-softmax over the rows of x: dx = dy - softmax(x) ⊙ (row sums of dy), softmax(x) = exp(y);
    # y[i] = X[i,i]: dX = diag(dy); softmax over the columns: dx = y ⊙ (dy - 𝟙·(column sums of dy ⊙ y)ᵀ)
    dc.rejections.clear()
    r = api.derive_text("f(x[b,c]) -> y[b,c] = x[b,c] - log(sum(k, exp(x[b,k])))")[0]
    assert r.pullback_text() == "dx = dy - exp(y) ⊙ (dy·𝟙·𝟙ᵀ)"
    r = api.derive_text("f(X[i,j]) -> y[i] = X[i,i]")[0]
    assert r.pullback_text() == "dX = diag(dy)"
    r = api.derive_text("f(x[b,c]) -> y[b,c] = exp(x[b,c]) / sum(k, exp(x[k,c]))")[0]
    assert r.pullback_text() == "dx = y ⊙ (dy - 𝟙·((dy ⊙ y)ᵀ·𝟙)ᵀ)"
    assert dc.rejections == []


def test_a_nested_sum_is_shown_as_a_matrix_product_and_its_index_form_is_summed_once():
    # least squares by hand: d/dx Σᵢ (A·x - b)ᵢ² = 2·Aᵀ·(A·x - b). The checker's index form used to sum the inner
    # Σ_j′ a second time over its own axis, which made a correct matrix form look wrong.
    import numpy as np

    from derive.api import parse
    from derive.calculus import differential as calculus
    from derive.lowering.lower import lower

    prog = lower(parse("f(A[i,j], x[j], b[i]) -> y[] = sum(i, (A[i,j]*x[j] - b[i])**2)\n", "<t>")[0])
    d = calculus.derive(prog)
    ls = next(s for s in d.pullback if s.target.endswith(":x"))
    pt = dc.Point(prog.domains)
    got = dc.stmt_value(ls, pt)
    A, x, b = (pt.arrays[n] for n in ("A", "x", "b"))
    dy = next(v for k, v in pt.arrays.items() if k.endswith(":y"))
    assert np.allclose(got.ravel(), 2 * dy * A.T @ (A @ x - b))
    assert "dx = 2·dy·Aᵀ·(A·x - b)" in api.derive_text(
        "f(A[i,j], x[j], b[i]) -> y[] = sum(i, (A[i,j]*x[j] - b[i])**2)")[0].pullback_text().splitlines()


def test_a_point_computes_primitive_values_from_their_argument():
    import numpy as np

    pt = dc.Point({"X": "wellcond"})
    X = pt.value("X", (3, 3))
    assert np.allclose(pt.value("_inv_X", (3, 3)), np.linalg.inv(X))
    assert np.isclose(pt.value("_det_X", ()), np.linalg.det(X))
    assert np.allclose(pt.value("_adj_X", (3, 3)), np.linalg.det(X) * np.linalg.inv(X))


def test_a_symmetric_domain_shows_S_inverse_untransposed_and_like_terms_join():
    # Gaussian NLL by hand (S spd): dmu = -dL·S⁻¹·(x - mu), not -dL·S⁻¹·(x - mu)/2 - dL·S⁻ᵀ·(x - mu)/2
    r = api.derive_text("f(x[i], mu[i], S[i,j]: spd) -> L[] = (x[i] - mu[i])*inv(S)[i,j]*(x[j] - mu[j])/2")[0]
    assert "dmu = -dL·S⁻¹·(x - mu)" in r.pullback_text().splitlines()


@pytest.mark.parametrize("src, want", [
    # Matrix Cookbook (81): ∂/∂X (Xb + c)ᵀD(Xb + c) = (D + Dᵀ)(Xb + c)bᵀ; was dy·Dᵀ·(c + X·b)·bᵀ + dy·D·(c + X·b)·bᵀ
    ("f(X[i,j], b[j], c[i], D[i,k]) -> y[] = (X[i,j]*b[j] + c[i])*D[i,k]*(X[k,l]*b[l] + c[k])",
     "dX = dy·(D + Dᵀ)·(c + X·b)·bᵀ"),
    # (107): ∂ tr(X·X·B)/∂X = (X·B + B·X)ᵀ; was dy·Xᵀ·Bᵀ + dy·Bᵀ·Xᵀ
    ("f(X[i,j], B[k,i]) -> y[] = X[i,j]*X[j,k]*B[k,i]", "dX = dy·(B·X + X·B)ᵀ"),
    # (117): ∂ tr(Xᵀ·B·X·C)/∂X = B·X·C + Bᵀ·X·Cᵀ; was index form Σ_kl (B[i,k]·C[l,j] + B[k,i]·C[j,l])·X[k,l]·dy
    ("f(X[i,j], B[i,k], C[l,j]) -> y[] = X[i,j]*B[i,k]*X[k,l]*C[l,j]", "dX = dy·B·X·C + dy·Bᵀ·X·Cᵀ"),
    # Gaussian NLL (S spd), by hand: dS = dL·(S⁻¹ - S⁻¹·u·uᵀ·S⁻¹)/2 with u = x - mu; the common S⁻¹ and ½ out
    ("f(x[i], mu[i], S[i,j]: spd) -> L[] = (x[i] - mu[i])*inv(S)[i,j]*(x[j] - mu[j])/2 + logdet(S)/2",
     "dS = dL·S⁻¹·(I - (x - mu)·(x - mu)ᵀ·S⁻¹)/2"),
    # softmax of each row: dx = y ⊙ (dy - (dy ⊙ y)·𝟙·𝟙ᵀ), the common y out; was y ⊙ dy - y ⊙ ((dy ⊙ y)·𝟙·𝟙ᵀ)
    ("f(x[b,c]) -> y[b,c] = exp(x[b,c]) / sum(k, exp(x[b,k]))", "dx = y ⊙ (dy - (dy ⊙ y)·𝟙·𝟙ᵀ)"),
    # (129): ∂‖x - a‖/∂x = (x - a)/‖x - a‖, through the output y = ‖x - a‖ (issue 25); was index form with
    # Σ_i′((-a[i′] + x[i′])²)
    ("f(x[i], a[i]) -> y[] = sqrt((x[i] - a[i])*(x[i] - a[i]))", "dx = dy·(x - a)/y"),
    # a scalar divisor trails, as books write it: d(x/s) gives dx = dy/s (was 1/s·dy)
    ("f(x[i], s[]) -> y[i] = x[i]/s", "dx = dy/s"),
])
def test_common_factors_come_out_and_norms_print_as_norms(src, want):
    dc.rejections.clear()
    r = api.derive_text(src)[0]
    assert want in r.pullback_text().splitlines()
    assert dc.rejections == []


def test_a_norm_divisor_in_latex_and_a_scalar_sum_as_a_product():
    # L2 normalisation y = x/‖x‖: dx = dy/‖x‖ - x·(x·dy)/‖x‖³ by hand, i.e. dy/‖x‖ - (x·yᵀ·dy)/‖x‖² (y = x/‖x‖);
    # softmax cross-entropy: dz = dL·(softmax(z)·Σt - t), softmax(z) = exp(z)/(𝟙ᵀ·exp(z))
    dc.rejections.clear()
    r = api.derive_text("f(x[i]) -> y[i] = x[i] / sqrt(sum(k, x[k]*x[k]))")[0]
    got = r.pullback_text()
    assert got in ("dx = dy/‖x‖ - x·yᵀ·dy/‖x‖²", "dx = dy/‖x‖ - y·xᵀ·dy/‖x‖²")
    assert r"\left\lVert x \right\rVert^{2}" in r.pullback_text("latex")
    r = api.derive_text("f(z[c], t[c]) -> L[] = -sum(c, t[c]*(z[c] - log(sum(k, exp(z[k])))))")[0]
    # dt = -dL·(z - log(Σ exp z)) by hand: the sum is a function's argument with one pair of parentheses
    assert r.pullback_text().splitlines() == ["dz = dL·softmax(z)·tᵀ·𝟙 - dL·t", "dt = log(exp(z)ᵀ·𝟙)·dL·𝟙 - dL·z",
                                              "softmax(u)[i] = exp(u[i])/Σ_k exp(u[k]), along the last index"]
    assert dc.rejections == []


def test_a_wrong_factoring_is_not_shown(monkeypatch):
    # a transpose of a sum that flips its text but not its value (Xᵀ·Bᵀ + Bᵀ·Xᵀ shown (B·X + X·B)ᵀ, valued
    # (Bᵀ·Xᵀ + Xᵀ·Bᵀ)ᵀ): the check evaluates the factored form itself and refuses it
    flip = matrixform._transposed_piece
    monkeypatch.setattr(matrixform, "_transposed_piece", lambda text, st: (flip(text, st) or (None,))[0] and
                        (flip(text, st)[0], False))
    dc.rejections.clear()
    r = api.derive_text("f(X[i,j], B[k,i]) -> y[] = X[i,j]*X[j,k]*B[k,i]")[0]
    assert "dX[i,j] = " in r.pullback_text()           # the index form instead
    assert ("b:X", "dX = dy·(B·X + X·B)ᵀ") in [(t, f) for t, f, _ in dc.rejections]
    assert all(why.startswith("relative error") for _, _, why in dc.rejections)


def test_a_symmetric_matrix_read_both_ways_is_one_term():
    # issue 25 (a hostile transcription): x·S·x with S symmetric showed dx = ds·(S + S)·x, where a book writes 2·S·x
    dc.rejections.clear()
    r = api.derive_text("symq(x[i], S[i,j]: symmetric) -> s[] = x[i]*S[i,j]*x[j]")[0]
    assert r.pullback_text().splitlines()[0] == "dx = 2·ds·S·x"
    assert dc.rejections == []
    # a general A keeps both: A + Aᵀ
    assert api.derive_text("f(x[i], A[i,j]) -> s[] = x[i]*A[i,j]*x[j]")[0].pullback_text().startswith("dx = ds·(A + Aᵀ)·x")
