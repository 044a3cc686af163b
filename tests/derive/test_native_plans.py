"""derive-rules checks every op's native CPU kernels against its verified NumPy code (derive.verification.native). An op
whose kernels disagree is a planner mistake, not a wrong rule: it is left out of the CPU and CUDA plans (both
printed from one plan) with a warning, the rule stays verified, and its NumPy code (or a framework's) runs. No
shipped op may be left out that way."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from derive import cli, pipeline
from runtime import native

ROOT = Path(__file__).resolve().parents[2]
# both verify (finite differences, adjoint, reference); the planner's kernels for them do not (found by an
# adversarial run, issue #14): a scalar parameter's cotangent, a tanh inside a contraction's summand
RULES = """r1(s[], x[i]) -> y[i] = s[] * x[i]
mixed1(x[i], A[i,j]) -> y[j] = sum(i, tanh(x[i]) * A[i,j])
"""


@pytest.mark.skipif(not native.available()[0], reason="no C++ compiler: the native kernels are not checked here")
def test_an_op_whose_kernels_disagree_is_left_out_of_the_plans_and_its_rule_still_verifies(tmp_path, cache, capsys):
    f = tmp_path / "bad.rules"
    f.write_text(RULES)
    out = tmp_path / "out"
    rc = cli.main([str(f), "--out", str(out)])
    text = capsys.readouterr().out
    assert rc == 0, text
    assert "2 rules, 2 verified, 0 failed" in text
    assert text.count(f"warning: {pipeline.NATIVE_LEFT_OUT}") == 2
    assert not (out / "cpu").exists()                  # no op left in the CPU plan: none written
    cuda = json.loads((out / "cuda" / "bad.json").read_text())
    assert set(cuda["unsupported"]) == {"r1", "mixed1"} and not cuda["ops"]
    from runtime.rule_cache import load_module_file

    mod = load_module_file(out / "bad.py", "test")
    x, A = np.array([0.5, -1.0, 2.0]), np.arange(12.0).reshape(3, 4)
    np.testing.assert_allclose(mod.mixed1(x, A), np.tanh(x) @ A, rtol=1e-14)
    np.testing.assert_allclose(mod.r1(1.5, x), 1.5 * x, rtol=0)


def test_no_shipped_op_is_left_out_of_its_plans():
    for js in sorted((ROOT / "generated" / "cpu").glob("*.json")) + sorted((ROOT / "generated" / "cuda").glob("*.json")):
        manifest = json.loads(js.read_text())
        reasons = {**manifest.get("numpy_only", {}), **manifest.get("unsupported", {})}
        bad = {op: why for op, why in reasons.items() if pipeline.NATIVE_LEFT_OUT in why}
        assert not bad, f"{js.name}: {bad}"


def test_a_rule_too_long_for_kernels_is_left_to_numpy_with_its_reason(tmp_path, cache, capsys, monkeypatch):
    # issue 28: a chain of 1000 statements compiled its kernels for the check for 9 s (69 s at -O3 on first use)
    from derive.emission import kernels

    monkeypatch.setattr(kernels, "KERNEL_STATEMENTS", 2)
    f = tmp_path / "long.rules"
    f.write_text("long(x[i]) -> t3[i]:\n    t1[i] = x[i] * 2\n    t2[i] = sin(t1[i])\n    t3[i] = t2[i] * t1[i]\n"
                 "short(x[i]) -> y[i] = x[i] * 3\n")
    out = tmp_path / "out"
    assert cli.main([str(f), "--out", str(out), "-q"]) == 0, capsys.readouterr().out
    why = "left to NumPy: 3 statements, more than the 2 whose kernels compile in seconds"
    cuda = json.loads((out / "cuda" / "long.json").read_text())
    assert cuda["unsupported"] == {"long": why} and set(cuda["ops"]) == {"short"}
    if native.available()[0]:
        cpu = json.loads((out / "cpu" / "long.json").read_text())
        assert cpu["numpy_only"] == {"long": why} and set(cpu["ops"]) == {"short"}
    from runtime.rule_cache import load_module_file

    mod = load_module_file(out / "long.py", "test")
    x = np.linspace(-1, 1, 5000)      # past native.MIN_ELEMENTS: the short op's kernels, the long op's NumPy code
    np.testing.assert_allclose(mod.long(x), np.sin(2 * x) * 2 * x, rtol=1e-14)
    np.testing.assert_allclose(mod.short(x), 3 * x, rtol=1e-15)
