"""The verifier has no blind spots: NaN fails, ill-posed points are skipped (never passed), rules are met tall
and wide, and the chunked passes that ship are run and compared with one-shot ones."""
import re

import numpy as np
import pytest

from derive import api
from derive.emission.numpy_print import CHUNK_NAME
from derive.verification import verify
from runtime.tangents import unthunk

ELEMENTWISE_META = {"inputs": [{"name": "x", "kind": "tensor", "indices": ["i"]}],
                    "outputs": [{"name": "y", "indices": ["i"]}], "domains": {"x": "positive"}}

# y = x·sqrt(relu(x - 2)) + x², with the derivative as the chain rule writes it: step(x-2)/(2·sqrt(relu(x-2)))
# is 0/0 = NaN for every x < 2 (all the verifier's positive samples), where the true derivative is 2x.
NAN_SRC = """
def _define(np):
    def d(x):
        r = np.maximum(x - 2, 0.0)
        return np.sqrt(r) + x * (x > 2) / (2 * np.sqrt(r)) + 2 * x
    def f(x):
        return x * np.sqrt(np.maximum(x - 2, 0.0)) + x * x
    def f_frule(t, x):
        return f(x), d(x) * t[1]
    def f_rrule(x):
        return f(x), lambda dy: (NoTangent(), d(x) * dy)
    return {"f": f, "f_frule": f_frule, "f_rrule": f_rrule}
"""


def _module(src):
    from runtime.tangents import NoTangent

    ns = {"NoTangent": NoTangent}
    exec(src, ns)
    return ns


def test_nan_derivative_fails_where_finite_differences_are_finite():
    chk = verify.check_op("f", verify.load(_module(NAN_SRC)), ELEMENTWISE_META)
    assert not chk.ok
    assert any("pushforward is not finite" in p for p in chk.problems)
    assert any("pullback is not finite" in p for p in chk.problems)


def test_max_under_sqrt_derives_a_finite_gradient():
    """d/dx [x·sqrt(max(x-2, 0)) + x²] = sqrt(max(x-2,0)) + x·[x>2]/(2·sqrt(x-2)) + 2x: 2 at x = 1 (where the
    chain rule's step/sqrt is 0/0), 1 + 3/2 + 6 = 8.5 at x = 3."""
    r = api.derive_expr("y[i] = x[i] * sqrt(max(x[i] - 2, 0)) + x[i]**2")
    assert r.ok, r.check.problems
    ns = {}
    exec(api.render_module([r], "<t>", export=False), ns)
    fns = ns["_define"](__import__("runtime.backend_numpy", fromlist=["x"]))
    x = np.array([1.0, 3.0, -4.0])
    with np.errstate(all="ignore"):
        _, pb = fns["expr_rrule"](x)
        _, dy = fns["expr_frule"]((None, np.ones(3)), x)
        g = pb(np.ones(3))[1]
    np.testing.assert_allclose(g, [2.0, 8.5, -8.0], rtol=1e-14)
    np.testing.assert_allclose(dy, [2.0, 8.5, -8.0], rtol=1e-14)


def test_where_with_a_root_in_one_branch_has_a_zero_gradient_off_it():
    """where(x > 0, sqrt(x), 0): the gradient is 1/(2·sqrt(x)) for x > 0 and 0 elsewhere, not 0·NaN."""
    r = api.derive_expr("y[i] = where(x[i] > 0, sqrt(x[i]), 0)")
    ns = {}
    exec(api.render_module([r], "<t>", export=False), ns)
    fns = ns["_define"](__import__("runtime.backend_numpy", fromlist=["x"]))
    with np.errstate(all="ignore"):
        g = fns["expr_rrule"](np.array([-1.0, 4.0]))[1](np.ones(2))[1]
    np.testing.assert_allclose(g, [0.0, 0.25], rtol=1e-14)


# -- extents ---------------------------------------------------------------------------------------------------

TALL = "tall(X[p,i]) -> y[] = logdet(X[k,i] * X[k,j])"


def test_rule_well_posed_only_when_tall_verifies_and_reports_its_extents():
    r = api.derive_text(TALL, "<t>")[0]
    assert r.ok, r.check.problems
    assert r.check.extents == [{"p": 4, "i": 3}]          # XᵀX is 3×3 of rank 3
    assert r.check.skipped == 2                            # the wide X: XᵀX 4×4 of rank 3, ill posed
    v = r.to_json()["verification"]
    assert v["extents"] == [{"p": 4, "i": 3}] and v["skipped"] == 2


def test_extent_assignments_are_distinct_and_met_both_ways():
    meta = {"inputs": [{"name": "A", "kind": "tensor", "indices": ["i", "k"]},
                       {"name": "B", "kind": "tensor", "indices": ["k", "j"]}], "outputs": []}
    a, b = verify.extent_assignments(meta)
    assert len(set(a.values())) == 3 and min(a.values()) >= 2
    assert all((a[x] < a[y]) != (b[x] < b[y]) for x in a for y in a if x != y)


def _tamper_pullback(text, factor="2.0 * "):
    """The rule's module with the pullback's returned cotangent scaled: a wrong derivative."""
    results = api.derive_text(text, "<t>", verify_rules=False)
    src = api.render_module(results, "<t>", export=False)
    new, n = re.subn(r"return \(_NO, (\w+)\)", lambda m: f"return (_NO, {factor}{m.group(1)})", src)
    assert n >= 1
    return results[0], _module(new)


def test_wrong_derivative_of_a_tall_rule_fails():
    r, ns = _tamper_pullback(TALL)
    chk = verify.check_op(r.name, verify.load(ns), r.code.meta)
    assert not chk.ok and any("adjoint" in p for p in chk.problems)


def test_a_rule_ill_posed_at_every_point_fails():
    """logdet of an outer product (rank 1 at every extent > 1): nothing could be checked, so nothing passes."""
    r = api.derive_text("outer(v[i]) -> y[] = logdet(v[i] * v[j])", "<t>")[0]
    assert not r.ok
    assert any("no well-posed point" in p for p in r.check.problems)


# -- the chunked passes -----------------------------------------------------------------------------------------

KERNEL = "gk(x[i,d], y[j,d], b[j], s) -> out[i] = sum(j, exp(-sum(d, (x[i,d] - y[j,d])**2) / s) * b[j])"


def _kernel_module(mutate=None):
    results = api.derive_text(KERNEL, "<t>", verify_rules=False)
    src = api.render_module(results, "<t>", export=False)
    if mutate is not None:
        src, n = mutate(src)
        assert n >= 1
    return results[0], _module(src)


def test_kernel_sum_verifies_through_its_chunked_pass():
    r, ns = _kernel_module()
    chk = verify.check_op(r.name, verify.load(ns), r.code.meta)
    assert chk.ok, chk.problems
    assert chk.chunk_error < 1e-12


@pytest.mark.parametrize("mutation", [
    # the slices concatenated in the wrong order
    lambda src: re.subn(r"for (_s\d+) in range\(0, (\w+), (_step\d+)\)\]",
                        r"for \1 in reversed(range(0, \2, \3))]", src),
    # the last, ragged slice dropped from an accumulated (fused) pass
    lambda src: re.subn(r"for (_s\d+) in range\(0, (\w+), (_step\d+)\):", r"for \1 in range(0, \2 - 1, \3):", src),
    # checked_sum's gathered entries read y's coordinates reversed (a path the sampled extents take only when
    # told to)
    lambda src: re.subn(r"\(((?:_given_)?y)\[(_pos\d+)\[1\], :\]\)", r"(\1[\2[1], ::-1])", src),
    # the expansion's cross term halved (taken only above checked_sum's direct extent)
    lambda src: re.subn(r"-2\.0 \* \((\w+) @ np\.transpose\(y\)\)", r"-1.0 * (\1 @ np.transpose(y))", src),
], ids=["slice-order", "last-slice", "checked-sum-gathered", "checked-sum-expanded"])
def test_altered_chunked_pass_fails_verification(mutation):
    r, ns = _kernel_module(mutation)
    chk = verify.check_op(r.name, verify.load(ns), r.code.meta)
    assert not chk.ok
    assert any("chunked" in p for p in chk.problems)


def test_chunk_budget_is_restored_after_verification():
    r, ns = _kernel_module()
    before = ns[CHUNK_NAME]
    verify.check_op(r.name, verify.load(ns), r.code.meta)
    assert ns[CHUNK_NAME] == before


# -- forward values at realistic magnitudes ------------------------------------------------------------------------


def test_default_verification_moves_inputs_to_realistic_magnitudes():
    """The verifier's own default (not a test-only setting) checks offsets of 1e3 and 1e6: a generated forward
    that expands (x - m)·(x - m) into x·x - 2x·m + m·m passes near the origin and must fail there."""
    (r,) = api.derive_text("r(x[i], m[i]) -> y[] = (x[i] - m[i]) * (x[i] - m[i])", "<t>")
    expanded = {"r": lambda x, m: x @ x - 2 * x @ m + m @ m}
    chk = verify.check_reference(verify.Check(), "r", expanded, r.code.meta, r.rule)
    assert not chk.ok and any("offset by 1e+06" in p for p in chk.problems), chk.problems
    assert verify.check_reference(verify.Check(), "r", verify.load(_generated(r)), r.code.meta, r.rule).ok


def _generated(r):
    ns: dict = {}
    exec(api.render_module([r], "<t>", export=False), ns)
    return ns


def test_a_text_that_cancels_is_a_warning_not_a_failure():
    """A user who writes the expanded form gets what the text means in float64, with a warning naming the
    lost digits; the same loss in code generated from the factored text is a failure (above)."""
    (r,) = api.derive_text("r(x[i], m[i]) -> y[] = x[i]*x[i] - 2*x[i]*m[i] + m[i]*m[i]", "<t>")
    assert r.ok, r.check.problems
    assert r.check.reference_error > 1e-6
    assert any("loses digits" in w and "offset by 1e+06" in w for w in r.check.warnings)
    assert r.to_json()["verification"]["warnings"] == r.check.warnings


def test_log_one_plus_exp_means_its_value_in_both_tails():
    """log(1 + exp(x)) is read as softplus: at x = 1000 the text means 1000 (the literal form overflows to
    inf), at x = -1000 it means e^-1000 (which underflows to 0 in float64), and the derivative is sigmoid."""
    (r,) = api.derive_text("sp(x[i]) -> y[i] = log(1 + exp(x[i]))", "<t>")
    assert r.ok and not r.check.warnings, (r.check.problems, r.check.warnings)
    fns = verify.load(_generated(r))
    x = np.array([1000.0, -1000.0, 0.0, 30.0])
    np.testing.assert_allclose(fns["sp"](x), [1000.0, 0.0, np.log(2.0), 30.0 + np.log1p(np.exp(-30.0))],
                               rtol=1e-15)
    _, pb = fns["sp_rrule"](x)
    np.testing.assert_allclose(unthunk(pb(np.ones(4))[1]), [1.0, 0.0, 0.5, 1 / (1 + np.exp(-30.0))], rtol=1e-15)


def test_inputs_too_large_for_a_step_to_move_are_not_a_vacuous_pass():
    """At x ≈ 1e300, x ± h·ẋ rounds to x: the difference is 0 along a zero tangent and checked nothing. Such points
    are skipped, and a rule with no other point says it could not be checked (it does not print ok)."""
    (r,) = api.derive_text("d(x[i]: (1e300, inf)) -> y[i] = 2 * x[i]", "<t>")
    assert not r.ok and r.check.points == 0
    (msg,) = r.check.problems
    assert msg.startswith("no well-posed point to check at: ") and "too large for a step to move" in msg
    assert "declare it" not in msg       # a domain is declared already


def test_a_rule_the_reference_cannot_read_is_not_reported_as_matching_it(monkeypatch):
    """When the reference evaluator cannot read a rule, its forward value was never compared with the text:
    the check says so (a warning, and "reference not compared" on the check line), never "reference 0.0e+00"."""
    from derive import cli
    from derive.verification import reference

    def unreadable(*a, **k):
        raise reference.ReferenceError_("unknown node Frob")

    monkeypatch.setattr(reference, "evaluate", unreadable)
    monkeypatch.setattr(reference, "evaluate_sampled", unreadable)     # what the verifier calls
    (r,) = api.derive_text("r(x[i]) -> y[i] = exp(x[i])", "<t>")
    assert r.check.reference_points == 0
    assert any("cannot read it (unknown node Frob)" in w for w in r.check.warnings), r.check.warnings
    v = r.to_json()["verification"]
    assert v["reference_points"] == 0 and cli._reference(v) == "reference not compared"
    fig = r.check.figures()["reference"]
    assert fig["points"] == 0 and fig["below"] is None       # op.rule and the report say "not compared"
    from runtime.rule_info import Verification
    assert "reference evaluation of the text: not compared" in str(Verification(r.check.figures()))


@pytest.mark.slow
def test_every_shipped_rule_is_compared_with_the_reference():
    """The reference evaluator reads every construct the shipped rules use: each shipped rule's forward value is
    compared with it at some point (a construct it cannot read would otherwise go unchecked there)."""
    import pathlib
    root = pathlib.Path(__file__).resolve().parents[2] / "rules"
    unread = []
    for path in sorted(root.glob("*.rules")):
        for r in api.derive_text(path.read_text(), str(path)):
            if r.check is not None and r.check.reference_points == 0:
                unread.append((path.name, r.name, r.check.warnings))
    assert not unread, unread
