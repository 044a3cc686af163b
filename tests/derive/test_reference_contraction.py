"""The reference evaluator contracts sums factor by factor (derive.verification.reference._Contraction): its values
agree with np.einsum, a four-index transform that looping over all eight indices took minutes is read at once, and
a rule beyond the verifier's work budget is compared at random entries (said in its record), never waited for."""
from __future__ import annotations

import numpy as np
import pytest

from derive import api
from derive.verification import reference, verify

T4 = ("t4(E[e,a], F[f,b], G[g,c], H[h,d], T[a,b,c,d]) -> Y[e,f,g,h] = "
      "sum(a, b, c, d, E[e,a] * F[f,b] * G[g,c] * H[h,d] * T[a,b,c,d])")


def _ref(text, args, precision="f64"):
    out = reference.evaluate_text(text, args, precision=precision, dps=30)
    return {k: np.array(v, dtype=float) for k, v in out.items()}


def test_four_index_transform_is_contracted_and_correct():
    """Every output entry of the eight-index sum, in high precision, equals np.einsum's (looping over all eight
    indices per entry made this minutes at the verifier's extents; contracted it is a fraction of a second)."""
    rng = np.random.default_rng(3)
    E, F, G, H = (rng.standard_normal(s) for s in ((3, 4), (5, 6), (7, 8), (15, 16)))
    T = rng.standard_normal((4, 6, 8, 16))
    want = np.einsum("ea,fb,gc,hd,abcd->efgh", E, F, G, H, T)
    got = _ref(T4, [E, F, G, H, T], "mp")["Y"]
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12 * np.abs(want).max())


CASES = [
    # (rule text, einsum subscripts, input shapes)
    ("r(A[i,k], B[k,j]) -> C[i,j] = A[i,k] * B[k,j]", "ik,kj->ij", [(3, 4), (4, 5)]),
    ("r(A[i,j], B[j,k], C[k,l]) -> D[i,l] = A[i,j] * B[j,k] * C[k,l]", "ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
    ("r(A[i,j], B[j,k], C[k,l]) -> D[i,l] = sum(j, k, A[i,j] * B[j,k] * C[k,l])", "ij,jk,kl->il",
     [(4, 3), (3, 5), (5, 2)]),
    ("r(x[i], A[i,j]) -> q[] = sum(i, j, x[i] * A[i,j] * x[j])", "i,ij,j->", [(5,), (5, 5), (5,)]),
    ("r(a[i], b[j], c[k]) -> s[] = sum(i, j, k, a[i] * b[j] * c[k])", "i,j,k->", [(3,), (4,), (5,)]),
    ("r(x[i,e], y[j,e]) -> G[i,j] = sum(e, x[i,e] * y[j,e])", "ie,je->ij", [(4, 3), (5, 3)]),
    ("r(A[b,i,k], B[b,k,j]) -> C[b,i,j] = A[b,i,k] * B[b,k,j]", "bik,bkj->bij", [(2, 3, 4), (2, 4, 3)]),
    ("r(A[i,j], v[j], w[k]) -> y[i] = sum(j, k, A[i,j] * v[j] * w[k])", "ij,j,k->i", [(3, 4), (4,), (6,)]),
]


@pytest.mark.parametrize("text, spec, shapes", CASES)
def test_contraction_agrees_with_einsum(text, spec, shapes):
    rng = np.random.default_rng(len(text))
    args = [rng.standard_normal(s) for s in shapes]
    if "x[i] * A[i,j] * x[j]" in text:
        args[2] = args[0]
    (got,) = _ref(text, args[:2] if "x[i] * A[i,j] * x[j]" in text else args).values()
    want = np.einsum(spec, *args)
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-13)


def test_factors_without_the_summed_letter_are_pulled_out_exactly():
    """A factor that does not read a summed letter, a letter no factor reads (its sum counts), and a denominator."""
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal(3), rng.uniform(1, 2, 4)
    (y,) = _ref("r(a[i], b[j], c[k]) -> y[i] = sum(j, k, a[i] / b[j])", [a, b, np.zeros(5)]).values()
    np.testing.assert_allclose(y, a * np.sum(1 / b) * 5, rtol=1e-14)
    (y,) = _ref("r(a[i], b[j]) -> y[i] = sum(j, 2 * a[i] * b[j] * a[i])", [a, b]).values()
    np.testing.assert_allclose(y, 2 * a * a * b.sum(), rtol=1e-14)


def test_a_work_budget_samples_random_entries_and_a_large_one_evaluates_whole():
    rng = np.random.default_rng(1)
    E, F, G, H = (rng.standard_normal(s) for s in ((3, 4), (5, 6), (7, 8), (15, 16)))
    T = rng.standard_normal((4, 6, 8, 16))
    rule = api_rule(T4)
    want = np.einsum("ea,fb,gc,hd,abcd->efgh", E, F, G, H, T)
    (vals, got), = reference.evaluate_sampled(rule, [E, F, G, H, T], work=10, entries=20, seed=5).values()
    assert got is not None and int(got.sum()) == 20          # the fewest entries, as the budget is tiny
    np.testing.assert_allclose(np.array(vals[got], dtype=float), want[got], rtol=1e-12, atol=1e-12)
    (vals, got), = reference.evaluate_sampled(rule, [E, F, G, H, T], work=10**9, entries=20).values()
    assert got is None                                      # within budget: every entry, as evaluate() gives
    np.testing.assert_allclose(np.array(vals, dtype=float), want, rtol=1e-12, atol=1e-12)


def test_out_of_time_is_raised_not_waited_for():
    rule = api_rule(T4)
    rng = np.random.default_rng(0)
    args = [rng.standard_normal(s) for s in ((3, 4), (5, 6), (7, 8), (15, 16), (4, 6, 8, 16))]
    with pytest.raises(reference.OutOfTime):
        reference.evaluate_sampled(rule, args, precision="mp", work=10**9, entries=10, seconds=0.0)


def api_rule(text):
    from derive.language import parser
    (rule,) = parser.parse_file(text).rules
    return rule


def test_the_four_index_transform_verifies_against_the_reference():
    """Derived and verified (finite differences, adjoint identity and the reference at every point), its
    reference comparison run at random entries of the output, and its record says how many."""
    (r,) = api.derive_text(T4, "<t4>")
    assert r.ok, (r.error, r.check.problems)
    assert r.check.reference_points == len(verify.REFERENCE_SCALES)
    assert not r.check.warnings
    fig = r.check.figures()["reference"]
    if "sampled" in fig:
        n, of = fig["sampled"]["Y"]["entries"], fig["sampled"]["Y"]["of"]
        assert verify.REFERENCE_ENTRIES <= n < of


def test_a_reference_over_its_time_budget_is_reported_not_compared(monkeypatch):
    monkeypatch.setattr(verify, "REFERENCE_SECONDS", 0.0)
    (r,) = api.derive_text("r(A[i,k], B[k,j]) -> C[i,j] = A[i,k] * B[k,j]", "<t>")
    assert r.check.reference_points == 0 and not r.check.problems
    assert any("ran out of its 0 s" in w and "not compared" in w for w in r.check.warnings), r.check.warnings


def test_a_sampled_reference_comparison_is_said_in_the_record(monkeypatch):
    """Past the work budget the reference compares random entries, at least REFERENCE_ENTRIES of them (made
    tiny here); the record (op.rule.verification) says how many of how many."""
    from runtime.rule_info import Verification
    monkeypatch.setattr(verify, "REFERENCE_WORK", 50)
    monkeypatch.setattr(verify, "REFERENCE_ENTRIES", 4)
    (r,) = api.derive_text("r(A[i,k], B[k,j]) -> C[i,j] = A[i,k] * B[k,j]", "<t>")
    assert r.ok and r.check.reference_points == len(verify.REFERENCE_SCALES)
    n, of = r.check.reference_sampled["C"]
    assert of == 15 and 4 <= n < of
    assert r.check.figures()["reference"]["sampled"] == {"C": {"entries": n, "of": of}}
    assert f"at {n} random entries of C's {of}" in str(Verification(r.check.figures()))
