"""Trust check (round trust22) of derive-rules' native-kernel check (derive/cli.py _check_native): an outcome whose
CPU plan was never checked against the verified NumPy code (TENSOR_RULES_NATIVE=0 or no compiler when it was
derived) must not be served from the derive cache to a later run that can check it. Before the fix the cache key
ignored whether the check ran, so a second run shipped kernels that disagree (r1's scalar cotangent crashed the
process in runtime.torch; mixed1's tanh inside a contraction) with no warning. And a native cotangent that raises
only when its thunk is computed must leave the op out, not crash derive-rules."""
from __future__ import annotations

import json

import numpy as np
import pytest

from derive import cli, pipeline
from runtime import native

# both verify; the planner's kernels for them disagree with the NumPy code (tests/derive/test_native_plans.py)
RULES = """r1(s[], x[i]) -> y[i] = s[] * x[i]
mixed1(x[i], A[i,j]) -> y[j] = sum(i, tanh(x[i]) * A[i,j])
"""


@pytest.mark.skipif(not native.available()[0], reason="no C++ compiler: the native kernels are not checked here")
def test_an_unchecked_cached_plan_is_not_reused_by_a_run_that_checks(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TENSOR_RULES_CACHE", str(tmp_path / "cache"))
    f = tmp_path / "bad.rules"
    f.write_text(RULES)
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "0")           # derived once with the check off: the plan unchecked
    assert cli.main([str(f), "--out", str(tmp_path / "off")]) == 0
    capsys.readouterr()
    monkeypatch.delenv("TENSOR_RULES_NATIVE")                 # again, the check possible: it must run
    assert cli.main([str(f), "--out", str(tmp_path / "on")]) == 0
    text = capsys.readouterr().out
    assert "2 rules, 2 verified, 0 failed" in text
    assert text.count(f"warning: {pipeline.NATIVE_LEFT_OUT}") == 2, text
    assert not (tmp_path / "on" / "cpu").exists()            # neither op left in the CPU plan
    cuda = json.loads((tmp_path / "on" / "cuda" / "bad.json").read_text())
    assert not cuda["ops"] and set(cuda["unsupported"]) == {"r1", "mixed1"}


@pytest.mark.skipif(not native.available()[0], reason="no C++ compiler: the native kernels are not checked here")
def test_a_native_cotangent_that_raises_when_computed_leaves_the_op_out_instead_of_crashing(tmp_path, monkeypatch,
                                                                                             capsys):
    """The native pullback's cotangents are thunks; before the fix the check computed them outside its try, so the
    planner's scalar-cotangent mistake (a ValueError from a reshape) escaped derive-rules as a traceback."""
    monkeypatch.setenv("TENSOR_RULES_CACHE", str(tmp_path / "cache"))
    f = tmp_path / "sc.rules"
    f.write_text("sc2(x[i], s[]) -> y[i] = x[i] + s[]\n")
    assert cli.main([str(f), "--out", str(tmp_path / "out")]) == 0
    text = capsys.readouterr().out
    assert "1 rule, 1 verified, 0 failed" in text and f"warning: {pipeline.NATIVE_LEFT_OUT}" in text, text
    assert not (tmp_path / "out" / "cpu").exists()
    from runtime.rule_cache import load_module_file
    from runtime.tangents import unthunk

    mod = load_module_file(tmp_path / "out" / "sc.py", "test")
    x = np.array([1e3, -2e2, 4e4])
    np.testing.assert_array_equal(mod.sc2(x, 2.5), x + 2.5)
    _, pb = mod.sc2_rrule(x, 2.5)
    dx, ds = (unthunk(v) for v in pb(np.array([1.0, 2.0, 3.0]))[1:])
    np.testing.assert_array_equal(dx, [1.0, 2.0, 3.0])
    assert float(ds) == 6.0
