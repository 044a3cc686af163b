"""Programs a demanding new user writes that no other test had seen (issue 9), each pinned to an external truth:
NumPy formulas of the Matrix Cookbook, or closed forms."""
from __future__ import annotations

import numpy as np

from derive import api
from derive.verification import verify
from runtime.tangents import ZeroTangent

LSTSQ = "lstsq(X[p,i], z[p]) -> w[i] = inv(X[k,i] * X[k,j])[i,j] * X[q,j] * z[q]"


def _loaded(r):
    ns: dict = {}
    exec(api.render_module([r], "<adv9>", export=False), ns)
    return verify.load(ns)


# -- the reference check runs where the rule is well posed -----------------------------------------------------


def test_least_squares_is_compared_with_the_reference_where_it_is_well_posed():
    # XᵀX is singular for a wide X: the reference check used the first (wide) extents, compared noise with
    # noise (relative error 0.9) and called it "the rule's text loses digits at offset 0, scale 1"
    (r,) = api.derive_text(LSTSQ, "<adv9>")
    assert r.ok and not r.check.warnings, (r.check.problems, r.check.warnings)
    assert r.check.reference_error < 1e-10
    rng = np.random.default_rng(3)
    X, z = rng.standard_normal((6, 3)), rng.standard_normal(6)
    np.testing.assert_allclose(_loaded(r)["lstsq"](X, z), np.linalg.lstsq(X, z, rcond=None)[0], rtol=1e-12)


def test_a_wrong_forward_value_of_a_tall_rule_fails_not_warns():
    (r,) = api.derive_text(LSTSQ, "<adv9>")
    fns = _loaded(r)
    wrong = {"lstsq": lambda X, z: 2 * fns["lstsq"](X, z)}
    wrong = verify.Loaded(wrong)
    wrong.watch = fns.watch
    chk = verify.check_reference(r.check, "lstsq", wrong, r.code.meta, r.rule)
    assert not chk.ok and any("differs from the reference" in p for p in chk.problems), chk.problems


# -- a NaN derivative at realistic magnitudes fails ------------------------------------------------------------


def _naive_logistic_ops():
    """σ(x) computed stably, but differentiated as e⁻ˣ·σ², which is inf·0 = NaN at x = -1000."""
    def f(x):
        return np.exp(-np.logaddexp(0.0, -x))

    def frule(t, x):
        y = f(x)
        return y, np.exp(-x) * y * y * t[1]

    def rrule(x):
        y = f(x)
        return y, lambda dy: (None, np.exp(-x) * y * y * dy)
    return {"r": f, "r_frule": frule, "r_rrule": rrule}


def test_a_nan_derivative_far_from_the_origin_fails():
    (r,) = api.derive_text("r(x[i]) -> y[i] = sigmoid(x[i])", "<adv9>")
    with np.errstate(all="ignore"):
        chk = verify.check_reference(verify.Check(), "r", _naive_logistic_ops(), r.code.meta, r.rule)
    assert not chk.ok and any("NaN at inputs offset by -1000" in p for p in chk.problems), chk.problems
    # the generated code is finite there
    assert verify.check_reference(verify.Check(), "r", _loaded(r), r.code.meta, r.rule).ok


def test_written_out_logistic_and_cross_entropy_verify():
    (a, b) = api.derive_text("sig(x[i]) -> y[i] = 1 / (1 + exp(-x[i]))\n"
                             "xent(x[i], t[i]) -> y[] = -t[i] * (x[i] - log(sum(j, exp(x[j]))))", "<adv9>")
    assert a.ok and b.ok, (a.check.problems, b.check.problems)
    assert "sigmoid" in a.pullback_text() or "σ" in a.pullback_text(), a.pullback_text()


# -- rank-0 tensor inputs ----------------------------------------------------------------------------------------


def test_rank_zero_tensor_inputs_verify():
    # the reference evaluator held a rank-0 tensor moved by an offset (a NumPy scalar) as a bare number, and
    # `x[]` then subscripted it: every rule with an `x[]` input failed verification
    rs = api.derive_text("a(x[]: positive) -> y[] = log(x[])\n"
                         "b(x[], v[i]) -> y[i] = x[] * v[i]\n"
                         "c(x[]: (2, 3)) -> y[] = 2 * x[]", "<adv9>")
    assert all(r.ok for r in rs), [(r.name, r.error) for r in rs if not r.ok]
    from derive.verification import reference
    got = reference.evaluate_text("f(x[], s) -> y[] = x[] * s", {"x": np.float64(3.0), "s": 2.0})
    assert float(got["y"]) == 6.0


# -- positioned errors ---------------------------------------------------------------------------------------------


def test_a_loose_index_is_pointed_at_where_it_is_loose():
    # the caret stood under the product's operator (`*`), or under the last one of a chain
    import pytest

    from derive.language.errors import RuleError

    cases = [("f(x[i], v[b]) -> y[b] = log(x[i]) * v[b] * 2", "x[i]) * v"),
             ("f(x[i], S[b,i,j]) -> y[b] = logdet(S[b,i,j]) * log(x[i])", "x[i])")]
    for text, at in cases:
        with pytest.raises(RuleError) as e:
            api.derive_text(text, "<adv9>", verify_rules=False)
        col = text.rindex(at) + 3          # 1-based column of the `i` of x[i]
        assert f":1:{col}:" in str(e.value), str(e.value)
