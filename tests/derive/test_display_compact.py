"""Shown forms as short as a textbook's (issue 25): scans, triangles, ... each still checked numerically."""
import pytest

from derive import api
from derive.display import check as dc
from derive.display import matrixform


def _derive(text):
    r = api.derive_text(text + "\n", "<compact>")[0]
    assert r.ok, (r.error, r.check and r.check.problems)
    return r


@pytest.mark.parametrize("rule, pushforward, pullback", [
    ("c(x[i]) -> y[i] = sum(j, where(j <= i, x[j], 0))", "dy = cumsum(dx)", "dx = revcumsum(dy)"),
    ("c(x[i]) -> y[i] = sum(j, where(j >= i, x[j], 0))", "dy = revcumsum(dx)", "dx = cumsum(dy)"),
    ("c(x[i]) -> y[i] = sum(j, where(j > i, x[j], 0))", "dy = revcumsum(dx) - dx", "dx = cumsum(dy) - dy"),
    ("c(x[b,i]) -> y[b,i] = sum(j, where(j <= i, x[b,j], 0))", "dy = cumsum(dx)", "dx = revcumsum(dy)"),
    ("c(x[i], a[i]) -> y[i] = a[i] * sum(j, where(j <= i, x[j], 0))", None, "dx = revcumsum(a ⊙ dy)\nda = cumsum(x) ⊙ dy"),
    ("t(A[i,j]) -> L[i,j] = where(j <= i, A[i,j], 0)", "dL = tril(dA)", "dA = tril(dL)"),
    ("t(A[i,j]) -> U[i,j] = where(j > i, A[i,j], 0)", "dU = triu(dA, 1)", "dA = triu(dU, 1)"),
    ("t(A[i,j]) -> U[i,j] = where(i < j, A[i,j], 0)", "dU = triu(dA, 1)", "dA = triu(dU, 1)"),
    ("t(A[i,j]) -> L[i,j] = where(i > j, A[i,j], 0)", "dL = tril(dA, -1)", "dA = tril(dL, -1)"),
    ("t(A[i,j]) -> y[i] = sum(j, where(j <= i, A[i,j], 0))", None, "dA = tril(dy·𝟙ᵀ)"),
])
def test_scans_and_triangles_show_as_a_book_writes_them(rule, pushforward, pullback):
    dc.rejections.clear()
    r = _derive(rule)
    if pushforward:
        assert r.pushforward_text() == pushforward
    assert r.pullback_text() == pullback
    assert dc.rejections == []


def test_a_causal_softmax_pullback_is_one_triangle():
    r = _derive("cs(s[i,j]) -> y[i,j]:\n    m[i,j] = where(j <= i, s[i,j], -inf)\n"
                "    y[i,j] = exp(m[i,j] - log(sum(k, exp(m[i,k]))))")
    assert r.pullback_text() == "ds = tril(y ⊙ (dy - (dy ⊙ y)·𝟙·𝟙ᵀ))"


def test_a_scan_whose_value_is_wrong_is_not_shown(monkeypatch):
    # a scan valued the wrong way round must fail the display check and leave the index form
    real = matrixform.Scan.scan_name
    monkeypatch.setattr(matrixform, "_scan_value", lambda e, o, pt: matrixform.np.cumsum(
        matrixform.np.broadcast_to(matrixform._value(e.args[0], o, pt), (pt.size(e.args[1]), 1)), 0))
    dc.rejections.clear()
    r = _derive("c(x[i]) -> y[i] = sum(j, where(j <= i, x[j], 0))")
    assert r.pullback_text() == "dx[i] = Σ_k dy[k]·[i ≤ k]"
    assert r.pushforward_text() == "dy = cumsum(dx)"
    assert dc.rejections and real
