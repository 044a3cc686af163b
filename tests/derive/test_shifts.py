"""Shifted and strided subscripts (x[i+k], x[2*i+k], u[i-1,j]): syntax, extents, derivation, display, errors."""
import json

import numpy as np
import pytest

from derive import api
from derive.display import notation as display
from derive.display import matrixform
from derive.language.errors import RuleError
from derive.language.parser import parse_file
from derive.verification import reference, verify


def derive(text, verify_rules=True):
    return api.derive_text(text, "shift.rules", verify_rules=verify_rules)


def err(text):
    with pytest.raises(RuleError) as e:
        api.derive_text(text, "bad.rules")
    return str(e.value)


# -- syntax -------------------------------------------------------------------------------------------------


def test_affine_subscripts_parse_with_coefficients_and_offsets():
    rule = parse_file("f(x[t], w[k]) -> y[i] = sum(k, x[2*i+k-1] * w[k])").rules[0]
    sub = rule.statements[0].expr.args[1].left.indices[0]
    assert [(c, ix.name) for c, ix in sub.terms] == [(2, "i"), (1, "k")]
    assert sub.const == -1 and sub.name == "2*i+k-1"


@pytest.mark.parametrize("text, where, message", [
    ("f(x[t]) -> y[i] = x[i-k]", "1:23", "index 'k' has a negative coefficient here"),
    ("f(x[t]) -> y[i] = x[2]", "1:21", "a constant position like x[1] is not supported"),
    ("f(x[t]) -> y[i] = x[i*k]", "1:23", "an index is multiplied by a whole number only"),
    ("f(x[t]) -> y[i] = x[i+1.5]", "1:23", "a subscript takes whole numbers only"),
    ("f(x[t+1]) -> y[i] = x[t]", "1:6", "a header names each axis by one index"),
    ("f(x[t]) -> y[i]:\n    y[i+1] = x[i]\n", "2:7", "the left side takes plain indices"),
])
def test_misuse_is_a_positioned_error(text, where, message):
    msg = err(text)
    assert f"bad.rules:{where}:" in msg and message in msg and "^" in msg


# -- extents ------------------------------------------------------------------------------------------------


def test_valid_extents_are_derived_from_the_inputs():
    r = derive("f(x[t], w[k]) -> y[i] = sum(k, x[2*i+k] * w[k])")[0]
    assert r.program.shifts.derived["i"][0].terms == ((2, "i"), (1, "k"))
    assert "n_i = (n_t - (n_k - 1) - 1) // 2 + 1" in r.code.functions


def test_an_index_read_only_at_shifted_positions_needs_one_unknown():
    msg = err("f(x[t]) -> y[i,j] = x[i+j]\n")
    assert "bad.rules:1:23:" in msg and "cannot be inferred" in msg


def test_a_header_letter_shared_with_its_shifted_read_is_refused():
    msg = err("f(x[i], w[k]) -> y[i] = sum(k, x[i+k] * w[k])\n")
    assert "bad.rules:1:34:" in msg and "reads 'x' past its end" in msg and "x[t]" in msg


def test_a_summed_index_cannot_reach_below_zero():
    msg = err("f(x[t], w[k]) -> y[i] = sum(k, x[i+k] * w[k-1])\n")
    assert "bad.rules:1:43:" in msg and "reaches below 0" in msg and "np.pad" in msg


def test_negative_offsets_reindex_the_left_side():
    r = derive("lap(u[s,t]) -> L[i,j] = u[i-1,j] + u[i+1,j] + u[i,j-1] + u[i,j+1] - 4*u[i,j]")[0]
    st = r.program.stmts[0]
    # every read is shifted up by one: L[0,0] sits at u[1,1]
    assert "u(i + 1, j + 1)" in str(st.expr) and "u(i, j + 1)" in str(st.expr)


def test_verification_extents_satisfy_every_shifted_read():
    r = derive("c(x[n,c,s,t], K[o,c,p,q]) -> y[n,o,h,w] = sum(c, p, q, x[n,c,2*h+p,w+q] * K[o,c,p,q])",
               verify_rules=False)[0]
    meta = r.code.meta
    for ext in verify.extent_assignments(meta):
        derived_h = (ext["s"] - ext["p"]) // 2 + 1
        derived_w = ext["t"] - ext["q"] + 1
        assert derived_h >= 3 and derived_w >= 3           # outputs of a real size, not 1 or 0
        assert (ext["s"] - ext["p"]) % 2 == 1              # a stride's remainder is exercised
    small = derive("c(x[s,t], K[p,q]) -> y[h,w] = sum(p, q, x[2*h+p,w+q] * K[p,q])")[0]
    assert small.check.ok and small.check.points > 0, small.check.problems


# -- derivation ---------------------------------------------------------------------------------------------


def test_pullback_of_a_shifted_read_is_a_scatter():
    r = derive("conv1d(x[t], w[k]) -> y[i] = sum(k, x[i+k] * w[k])")[0]
    lines = {ls.target: ls for ls in r.derivation.pullback}
    (term,) = lines["b:x"].terms
    assert "KroneckerDelta(t, k + l)" in str(term.coeff) or "KroneckerDelta(t, l + k)" in str(term.coeff)
    assert r.check.ok and r.check.fd_error < 1e-8 and r.check.adjoint_error < 1e-10


def test_generated_numpy_has_no_element_loops_and_no_masks():
    r = derive("c(x[c,s,t], K[o,c,p,q]) -> y[o,h,w] = sum(c, p, q, x[c,h+p,w+q] * K[o,c,p,q])",
               verify_rules=False)[0]
    code = r.code.functions
    assert "np.shift_window" in code and "np.shift_scatter" in code
    assert "np.eye" not in code and "for " not in code


# -- display ------------------------------------------------------------------------------------------------


def test_display_shows_the_shifted_index_form_and_no_matrix_form():
    r = derive("conv1d(x[t], w[k]) -> y[i] = sum(k, x[2*i+k+1] * w[k])")[0]
    push = r.derivation.pushforward[0]
    shown = " ".join(display.term_index(t) for t in push.terms)
    assert "x[2i+k+1]" in shown and "dx[2i+k+1]" in shown
    assert matrixform.safe_stmt_matrix(push) is None
    for ls in r.derivation.pullback:
        assert matrixform.safe_stmt_matrix(ls) is None


# -- the reference evaluator --------------------------------------------------------------------------------


def test_reference_reads_shifted_subscripts():
    rng = np.random.default_rng(0)
    x, w, u = rng.random(11), rng.random(3), rng.random((5, 6))
    got = reference.evaluate_text("f(x[t], w[k]) -> y[i] = sum(k, x[2*i+k] * w[k])", {"x": x, "w": w})["y"]
    np.testing.assert_allclose(np.array(got, float), np.correlate(x, w, "valid")[::2], rtol=1e-14)
    got = reference.evaluate_text("l(u[s,t]) -> L[i,j] = u[i-1,j] + u[i+1,j] + u[i,j-1] + u[i,j+1] - 4*u[i,j]",
                                  {"u": u})["L"]
    want = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[1:-1, 1:-1]
    np.testing.assert_allclose(np.array(got, float), want, rtol=1e-13)


# -- CUDA -----------------------------------------------------------------------------------------------------


def test_cuda_plan_has_shifted_ops_with_their_derived_extents():
    """conv1d gets kernels (tests/codegen/test_cuda_shifts.py runs them); the plan says how the launcher
    computes extent(i) = extent(t) - extent(k) + 1 from the input shapes."""
    from derive.emission.cuda import generate_cuda

    results = derive("conv1d(x[t], w[k]) -> y[i] = sum(k, x[i+k] * w[k])\nsq(x[i]) -> y[i] = x[i] * x[i]\n")
    plan = json.loads(generate_cuda(results, "shift.rules")["shift.json"])
    assert "sq" in plan["ops"] and "conv1d" in plan["ops"] and plan["unsupported"] == {}
    assert plan["ops"]["conv1d"]["derived_extents"] == {"i": [["t", [[1, "i"], [1, "k"]], 0]]}
    assert "derived_extents" not in plan["ops"]["sq"]


# -- plain and shifted reads together -------------------------------------------------------------------------


def test_plain_and_shifted_reads_of_one_axis_take_the_valid_range(cache):
    import runtime

    rs = derive("diff(x[t]) -> d[i] = x[i+1] - x[i]\n"
                "sqdiff(x[t,d]) -> s[] = sum(i, d, (x[i+1,d] - x[i,d])**2)\n")
    assert all(r.check.ok for r in rs), [r.check.problems for r in rs]
    x = np.random.default_rng(1).standard_normal((7, 3))
    diff = runtime.define("diff(x[t]) -> d[i] = x[i+1] - x[i]")
    np.testing.assert_allclose(diff(x[:, 0]), np.diff(x[:, 0]), rtol=1e-14)
    sqdiff = runtime.define("sqdiff(x[t,d]) -> s[] = sum(i, d, (x[i+1,d] - x[i,d])**2)")
    np.testing.assert_allclose(sqdiff(x), np.sum(np.diff(x, axis=0) ** 2), rtol=1e-13)


def test_a_plain_read_of_another_tensor_fixes_the_extent_and_the_shifted_read_is_checked(cache):
    import runtime

    pair = runtime.define("pair(x[t], z[a]) -> y[i] = x[i+1] * z[i]")
    np.testing.assert_allclose(pair(np.arange(5.0), np.arange(3.0)), np.arange(1.0, 4.0) * np.arange(3.0))
    with pytest.raises(ValueError, match=r"pair: subscript 'x\[\.\.i\+1\.\.\]' needs extent 4 along that axis "
                                         r"of 'x', which has 3"):
        pair(np.arange(3.0), np.arange(3.0))


def test_generated_code_does_not_depend_on_hash_seeds(tmp_path):
    """A scatter's axes once followed a set's order: the code changed between runs (and `--check` failed)."""
    import os
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    code = ("from derive import api; r = api.derive_text('c(x[c,s,t], K[o,c,p,q]) -> y[o,h,w] = "
            "sum(c, p, q, x[c,h+p,w+q] * K[o,c,p,q])', 'a', verify_rules=False)[0]; print(r.code.functions)")
    outs = []
    for seed in ("1", "2", "3"):
        env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=root, TENSOR_RULES_CACHE=str(tmp_path))
        outs.append(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                                   check=True, cwd=root).stdout)
    assert outs[0] == outs[1] == outs[2] and "np.shift_scatter" in outs[0]


@pytest.mark.parametrize("text, inputs, want", [
    # a positive offset does not move the start: y[i] = x[i+1]² for i = 0..t-2 (the reference read i = -1 too)
    ("sq(x[t]) -> y[i] = x[i+1] * x[i+1]", {"x": np.arange(5.0)}, [1.0, 4.0, 9.0, 16.0]),
    # a summed index read shifted (w[k+1]) runs over k = 0..K-2, and bounds i's reach by that count
    ("s(x[t], w[k]) -> y[i] = sum(k, x[i+k] * w[k+1])",
     {"x": np.arange(1.0, 7.0), "w": np.array([1.0, 10.0, 100.0, 1000.0])}, [3210.0, 4320.0, 5430.0, 6540.0]),
])
def test_the_reference_reads_valid_ranges_as_the_docs_say(text, inputs, want):
    """Hand values; the rule verifies, so the generated code and derive.verification.reference agree with them."""
    from derive.verification import reference
    (r,) = api.derive_text(text, "<t>")
    assert r.ok and r.check.reference_points > 0, (r.check.problems, r.check.warnings)
    np.testing.assert_allclose(np.array(reference.evaluate(r.rule, inputs, precision="f64")["y"], float), want)
