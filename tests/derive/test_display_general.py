"""Every shown formula holds for every input the generated code accepts (issue 25): checked at general inputs --
non-symmetric matrices and cotangents where the code takes them, symmetric tangents where the domain is
symmetric --, not only at the domain a primitive samples from."""
import numpy as np
import pytest

from derive import api
from derive.display import check as dc
from derive.display import forms as display


def test_logdet_of_a_general_matrix_shows_the_inverse_transpose():
    # d log|det X| = tr(X⁻¹·dX), so X̄ = ȳ·X⁻ᵀ for every invertible X (by hand); X⁻¹ is right only for a
    # symmetric X, and logdet's code (an LU) accepts any invertible X
    for text in ("y = logdet(X)", "f(X[b,i,j]) -> y[b] = logdet(X[b,i,j])"):
        r = api.derive_expr(text) if "->" not in text else api.derive_text(text)[0]
        assert r.ok
        shown = r.pullback_text()
        assert shown in ("dX = dy·X⁻ᵀ", "dX_b = dy_b·X_b⁻ᵀ"), shown
    # declared symmetric, the rule's own word: S⁻¹ holds for every input the rule is stated for
    r = api.derive_text("f(S[i,j]: symmetric) -> y[] = logdet(S)")[0]
    assert r.pullback_text() == "dS = dy·S⁻¹"


def test_the_check_samples_what_the_code_accepts():
    # logdet's X is inferred spd (a sampling hint); the shown formulas must hold for a general X
    r = api.derive_expr("y = logdet(X)")
    doms = display.program_domains(r.derivation)
    assert doms == {"X": "wellcond"}
    X = dc.Point(doms).value("X", (4, 4))
    assert np.abs(X - X.T).max() > 0.1
    # a primitive defined on symmetric matrices only keeps its domain; its tangents are symmetric
    r = api.derive_expr("Y = cholesky(X)")
    doms = display.program_domains(r.derivation)
    assert doms == {"X": "spd"}
    pt = dc.Point(doms)
    dX = pt.value("d:X", (4, 4))
    assert np.array_equal(dX, dX.T) and np.abs(pt.value("b:Y", (4, 4)) - pt.value("b:Y", (4, 4)).T).max() > 0.1


@pytest.mark.parametrize("src", ["f(X[i,j], W[i,j]) -> t[] = logdet(X[i,j] + W[i,j])",
                                 "f(X[i,j]) -> t[] = logdet(X) * logdet(X)"])
def test_a_form_true_only_for_symmetric_inputs_is_refused(src):
    r = api.derive_text(src)[0]
    assert r.ok
    assert "⁻¹" not in r.pullback_text().replace("⁻ᵀ", ""), r.pullback_text()
