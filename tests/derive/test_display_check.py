"""Every matrix form shown is checked numerically against its statement; a wrong one is never shown."""
from pathlib import Path

import pytest

from derive import api, display, display_check as dc, matrixform

RULES = sorted((Path(__file__).resolve().parents[2] / "rules").glob("*.rules"))


def _shown(results):
    out = []
    for r in results:
        for which in ("pushforward", "pullback"):
            for style in ("unicode", "latex"):
                out.append(display.program_text(r.derivation, which, style,
                                                 domains=r.program.domains))
    return "\n".join(out)


# nn.rules: forms the check rejects today (y² of a matrix, lse - z broadcast, and two with size() coefficients
# still to be examined): shown in index form, left for the printer fixes of issue 13
KNOWN = {"nn.rules"}


@pytest.mark.parametrize("path", [pytest.param(p, marks=pytest.mark.xfail(strict=True)) if p.name in KNOWN else p
                                  for p in RULES], ids=lambda p: p.name)
def test_shipped_rules_show_only_matrix_forms_that_agree(path):
    dc.rejections.clear()
    _shown(api.derive_text(path.read_text(), str(path), verify_rules=False))
    assert dc.rejections == []


def test_outer_product_without_transposes_is_not_shown():
    # the truth is dM = dy·(b·cᵀ + c·bᵀ); `dy·(b·c + b·c)` (issue 13) reads as a product of two columns
    dc.rejections.clear()
    text = _shown(api.derive_text("r(M[i,j], b[i], c[j]) -> y[] = (b[i]*c[j] + c[i]*b[j]) * M[i,j]"))
    assert "b·c + b·c" not in text and "dM[i,j] = " in text
    assert any(t == "b:M" for t, _, _ in dc.rejections)


def test_a_wrong_form_is_not_shown(monkeypatch):
    # a printer that forgets every transpose, in its text and in the algebra its text means
    r = api.derive_expr("B = inv(A)")
    assert r.pullback_text() == "dA = -Bᵀ·dB·Bᵀ"
    monkeypatch.setitem(matrixform.STYLES["unicode"], "T", "")
    monkeypatch.setattr(matrixform.dc, "transpose", lambda a: a)
    dc.rejections.clear()
    assert r.pullback_text() == "dA[i,j] = -Σ_kl B[k,i]·B[j,l]·dB[k,l]" or "·" not in r.pullback_text().split("=")[1][:3]
    assert r.pullback_text().startswith("dA[")
    assert dc.rejections and dc.rejections[0][1] == "dA = -B·dB·B"
