"""Shown forms as short as a textbook's (issue 25): scans, triangles, ... each still checked numerically."""
import pytest

from derive import api
from derive.display import check as dc
from derive.display import matrixform
from derive.display.notation import SHOWN_FUNCTIONS


def _derive(text):
    r = api.derive_text(text + "\n", "<compact>")[0]
    assert r.ok, (r.error, r.check and r.check.problems)
    return r


def _statements(text):
    """The shown statements of a display, less the lines that define the functions they call (cumsum, tril)."""
    return "\n".join(ln for ln in text.splitlines() if not ln.startswith(tuple(n + "(" for n in SHOWN_FUNCTIONS)))


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
        assert _statements(r.pushforward_text()) == pushforward
    assert _statements(r.pullback_text()) == pullback
    assert r.pullback_text() != pullback        # the functions it calls are defined below it
    assert dc.rejections == []


def test_a_causal_softmax_pullback_is_one_triangle():
    r = _derive("cs(s[i,j]) -> y[i,j]:\n    m[i,j] = where(j <= i, s[i,j], -inf)\n"
                "    y[i,j] = exp(m[i,j] - log(sum(k, exp(m[i,k]))))")
    assert r.pullback_text().splitlines()[0] == "ds = tril(y ⊙ (dy - (dy ⊙ y)·𝟙·𝟙ᵀ))"


def test_a_scan_whose_value_is_wrong_is_not_shown(monkeypatch):
    # a scan valued the wrong way round must fail the display check and leave the index form
    real = matrixform.Scan.scan_name
    monkeypatch.setattr(matrixform, "_scan_value", lambda e, o, pt: matrixform.np.cumsum(
        matrixform.np.broadcast_to(matrixform._value(e.args[0], o, pt), (pt.size(e.args[1]), 1)), 0))
    dc.rejections.clear()
    r = _derive("c(x[i]) -> y[i] = sum(j, where(j <= i, x[j], 0))")
    assert r.pullback_text() == "dx[i] = Σ_k dy[k]·[i ≤ k]"
    assert r.pushforward_text().splitlines()[0] == "dy = cumsum(dx)"
    assert dc.rejections and real


@pytest.mark.parametrize("rule, pullback", [
    ("c(x[t], w[k]) -> y[i] = sum(k, x[i+k]*w[k])", "dx[t] = Σ_l dy[t-l]·w[l]\ndw[k] = Σ_l dy[l]·x[k+l]"),
    ("c(x[s,t], K[p,q]) -> y[h,w] = sum(p, q, x[h+p,w+q]*K[p,q])",
     "dx[s,t] = Σ_mn K[m,n]·dy[s-m,t-n]\ndK[p,q] = Σ_kl dy[k,l]·x[k+p,l+q]"),
    ("l(u[s,t]) -> L[i,j] = u[i,j+1] + u[i+2,j+1] + u[i+1,j] + u[i+1,j+2] - 4*u[i+1,j+1]",
     "du[s,t] = dL[s-1,t-2] + dL[s-1,t] + dL[s-2,t-1] + dL[s,t-1] - 4·dL[s-1,t-1]"),
    ("d(x[t]) -> y[i] = x[i+1] - x[i]", "dx[t] = dy[t-1] - dy[t]"),
    ("c(x[t], w[k]) -> y[i] = sum(k, x[2*i+k]*w[k])", "dx[t] = Σ_k dy[k]·w[t-2k]\ndw[k] = Σ_l dy[l]·x[k+2l]"),
])
def test_a_transposed_shifted_read_is_a_shifted_read_not_a_delta(rule, pullback):
    dc.rejections.clear()
    assert _derive(rule).pullback_text() == pullback
    assert dc.rejections == []


def test_shifted_reads_agree_reads_outside_as_zero_and_catches_a_wrong_shift(monkeypatch):
    from derive.display import shifted
    r = _derive("c(x[t], w[k]) -> y[i] = sum(k, x[i+k]*w[k])")
    dx = r.derivation.pullback[0]
    right = shifted.contracted(dx)
    assert right is not dx and shifted.agrees(dx, right)
    wrong = type(dx)(dx.target, dx.indices, [t.__class__(t.coeff, t.sums, t.atom.func(t.atom.args[0] + 1))
                                             for t in right.terms])          # dy[t-l+1]: one place off
    assert not shifted.agrees(dx, wrong)
    monkeypatch.setattr(shifted, "contracted", lambda ls: type(ls)(ls.target, ls.indices, wrong.terms)
                        if ls.target == dx.target else ls)
    dc.rejections.clear()
    assert _derive("c2(x[t], w[k]) -> y[i] = sum(k, x[i+k]*w[k])").pullback_text().startswith(
        "dx[t] = Σ_kl dy[k]·w[l]·δ[t,k+l]")
    assert dc.rejections


def test_the_max_shift_of_log_sum_exp_cancels_in_the_derivation():
    # y = log Σ_k exp(z - m) + m: ∂y/∂m = 1 - Σ_k softmax = 0 exactly, so no dm is derived or computed
    r = _derive("l(z[b,k]) -> y[b]:\n    m[b] = max(k, z[b,k])\n    y[b] = log(sum(k, exp(z[b,k] - m[b]))) + m[b]")
    assert not any(ls.target.endswith(":m") for ls in r.derivation.pushforward + r.derivation.pullback)
    assert r.pushforward_text().splitlines()[0] == "dy = (softmax(z) ⊙ dz)·𝟙"
    assert r.pullback_text().splitlines()[0] == "dz = softmax(z) ⊙ (dy·𝟙ᵀ)"


def test_only_terms_that_cancel_exactly_are_dropped():
    import sympy as sp
    from derive.calculus.differential import Term, drop_cancelling
    from derive.ir import nodes as ir
    b, k, kk = ir.Idx("b", "B"), ir.Idx("k", "K"), ir.Idx("kk", "K")
    e = lambda i: sp.exp(ir.access("z", (b, i)))        # noqa: E731
    f = lambda i: sp.exp(2 * ir.access("z", (b, i)))    # noqa: E731
    dm = ir.access("d:m", (b,))
    one = Term(sp.S.One, (), dm)
    share = Term(-e(k) / ir.IndexSum(e(kk), [kk]), (k,), dm)
    assert drop_cancelling([one, share]) == []
    other = Term(-e(k) / ir.IndexSum(f(kk), [kk]), (k,), dm)        # Σ e / Σ e² is not 1
    assert drop_cancelling([one, other]) == [one, other]


@pytest.mark.parametrize("rule, pullback", [
    ("s(x[i]: positive) -> y[i] = sqrt(x[i])", "dx = dy/(2·y)"),
    ("f(X[i,j]) -> y[] = sqrt(sum(i, j, X[i,j]**2))", "dX = dy·X/y"),
    ("w(c[i]: nonzero, a[i], b[i]) -> y[i] = where(c[i] > 0, a[i], b[i])",
     "dc[i] = 0\nda = [c > 0] ⊙ dy\ndb = [c ≤ 0] ⊙ dy"),
    # the code reads L's lower triangle only, so a general L's inverse here is tril(L)'s (main's shown-forms work)
    ("t(L[i,j], b[i]) -> x[i] = solve_triangular(L, b)", "dL = -tril(tril(L)⁻ᵀ·dx·xᵀ)\ndb = tril(L)⁻ᵀ·dx"),
])
def test_forms_through_the_output_brackets_and_no_copies(rule, pullback):
    dc.rejections.clear()
    assert _statements(_derive(rule).pullback_text()) == pullback
    assert [r for r in dc.rejections if not r[1].endswith(" = 0")] == []   # dc[i] = 0's own (older) refusal


@pytest.mark.parametrize("rule, pullback", [
    # prod: the book's y/x where no factor can be zero (the code keeps the product of the others, exact at a zero)
    ("p(x[i]: positive) -> y[] = prod(i, x[i])", "dx = y·dy/x"),
    ("p(x[b,k]: positive) -> y[b] = prod(k, x[b,k])", "dx = ((dy ⊙ y)·𝟙ᵀ)/x"),
    ("p(x[i]: negative) -> y[i] = prod(j, where(j <= i, x[j], 1))", "dx = revcumsum(dy ⊙ y)/x"),
    ("p(x[i]: (0.5, 2)) -> y[] = prod(i, x[i])", "dx = y·dy/x"),
    # exp(z)/Σ exp(z) is softmax(z), whatever the shift
    ("l(x[i]) -> y[] = log(sum(i, exp(x[i])))", "dx = dy·softmax(x)"),
    ("l(z[b,k]) -> y[b]:\n    m[b] = max(k, z[b,k])\n    y[b] = log(sum(k, exp(z[b,k] - m[b]))) + m[b]",
     "dz = softmax(z) ⊙ (dy·𝟙ᵀ)"),
    # a number every term has, once
    ("m(x[t]) -> y[i] = (x[i] + x[i+1] + x[i+2]) / 3", "dx[t] = (dy[t-1] + dy[t-2] + dy[t])/3"),
])
def test_quotients_softmax_and_common_numbers(rule, pullback):
    dc.rejections.clear()
    r = _derive(rule)
    assert _statements(r.pullback_text()) == pullback
    assert dc.rejections == []


@pytest.mark.parametrize("rule", [
    "p(x[i]) -> y[] = prod(i, x[i])",                       # x may be 0: y/x would be 0/0 there
    "p(x[i]: (-1, 1)) -> y[] = prod(i, x[i])",
])
def test_a_product_that_may_hold_a_zero_keeps_the_product_of_the_others(rule):
    assert "Π" in _derive(rule).pullback_text()


def test_a_wrong_softmax_is_not_shown(monkeypatch):
    # a softmax valued along the wrong axis must fail the display check and leave the form without it
    monkeypatch.setattr(matrixform, "_softmax_value", lambda e, o, pt: matrixform.np.exp(
        matrixform._value(e.args[0], o, pt)))
    dc.rejections.clear()
    r = _derive("l(x[i]) -> y[] = log(sum(i, exp(x[i])))")
    assert "softmax" not in r.pullback_text()
    assert dc.rejections
