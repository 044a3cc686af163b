"""Trust check (round trust22) of derive-rules' native-kernel check (derive/cli.py _check_native): an outcome whose
CPU plan was never checked against the verified NumPy code (TENSOR_RULES_NATIVE=0 or no compiler when it was
derived) must not be served from the derive cache to a later run that can check it. Before the fix the cache key
ignored whether the check ran, so a second run shipped kernels that disagree (r1's scalar cotangent crashed the
process in runtime.torch; mixed1's tanh inside a contraction) with no warning."""
from __future__ import annotations

import json

import pytest

from derive import cli
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
    assert text.count(f"warning: {cli.NATIVE_LEFT_OUT}") == 2, text
    assert not (tmp_path / "on" / "cpu").exists()            # neither op left in the CPU plan
    cuda = json.loads((tmp_path / "on" / "cuda" / "bad.json").read_text())
    assert not cuda["ops"] and set(cuda["unsupported"]) == {"r1", "mixed1"}
