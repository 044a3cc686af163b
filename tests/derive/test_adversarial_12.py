"""Issue #12's constructs used the way a demanding user would (round adversarial-12): reductions over shifted
reads, and the errors they give. Expected values from NumPy or by hand, never from the code's own output."""
import numpy as np
import pytest

from derive import api
from derive.language.errors import RuleError
from derive.verification import reference


def _err(text):
    with pytest.raises(RuleError) as e:
        api.derive_text(text, "adv.rules")
    return str(e.value)


def test_max_over_an_index_used_only_in_a_shifted_subscript_is_a_reduction():
    # max(k, x[i+k]) uses k only inside the shifted subscript: it was read as max(a, b) of two values and failed
    # with "unknown name 'k' ... reduces over index 'k' only where expr uses it", which it does
    (res,) = api.derive_text("movmax(x[t], n[i]) -> y[i] = n[i] * max(k, x[i+k])", "adv.rules")
    assert res.check.ok
    # the reference evaluator read it as two values too, so the forward value went unchecked: it is compared now
    assert res.check.reference_points > 0
    x = np.array([1., 5., 2., 7., 3., 0.])
    n = np.array([1., 2., 3.])
    out = reference.evaluate_text("movmax(x[t], n[i]) -> y[i] = n[i] * max(k, x[i+k])", {"x": x, "n": n})["y"]
    # extent(k) = t - extent(i) + 1 = 4: y[i] = n[i] * max(x[i:i+4])
    np.testing.assert_array_equal(np.asarray(out, dtype=float), [7., 14., 21.])


def test_a_window_reduction_without_a_window_extent_says_how_to_give_one():
    msg = _err("maxpool(x[t]) -> y[i] = max(k, x[2*i+k])")
    assert "adv.rules:1:34:" in msg and "unknown name" not in msg
    assert "('i' and 'k')" in msg and "w[k:3]" in msg


@pytest.mark.parametrize("matrix", [True, False])
def test_an_equality_condition_is_shown_as_written_not_as_sympy_eq(matrix):
    # a max's tie weights and where(x == z, ...) printed SymPy's Eq(a, b) in the text display (and op.rule)
    from derive.display import forms as display

    (res,) = api.derive_text("mx(x[t], w[k]) -> y[i] = max(k, x[i+k] * w[k]) + where(x[i] == w[i], x[i], 0)",
                             "adv.rules")
    for which in ("pushforward", "pullback"):
        text = display.program_text(res.derivation, which, "unicode", matrix=matrix)
        assert "Eq(" not in text and " == " in text, text
        assert "Eq" not in display.program_text(res.derivation, which, "latex", matrix=matrix)
