"""runtime.define runs derive-rules' pipeline (derive.pipeline): with native kernels asked for it emits the op's CPU
plan, checks it against the verified NumPy code, caches it beside the module, signed, and the op runs it."""
import sys

import numpy as np
import pytest

from derive import pipeline
from runtime import native
from runtime import rule_cache

RULE = "ks(x[i,d], y[j,d], b[j]) -> z[i] = sum(j, exp(-sum(d, (x[i,d] - y[j,d])**2)) * b[j])"

def _reference(x, y, b):
    return (np.exp(-((x[:, None, :] - y[None]) ** 2).sum(-1)) * b).sum(1)


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    monkeypatch.setenv("TENSOR_RULES_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(rule_cache, "_MEMO", {})
    return tmp_path / "cache"


def _points(rng):
    return rng.standard_normal((37, 3)), rng.standard_normal((29, 3)), rng.standard_normal(29)


def test_define_with_native_kernels_emits_checks_caches_and_runs_the_plan(fresh, monkeypatch):
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "1")
    if not native.available()[0]:
        pytest.skip(native.available()[1])
    op = rule_cache.define(RULE)
    module = sys.modules[op.module_name]
    assert native.plan_for(module) is not None, "the defined op has no CPU plan"
    names = sorted(p.name for p in fresh.iterdir() if not p.name.startswith("."))
    assert [n.split(".", 1)[1] for n in names if n.startswith("r")] == ["cpp", "plan.json", "py"], names
    x, y, b = _points(np.random.default_rng(0))
    np.testing.assert_allclose(op(x, y, b), _reference(x, y, b), rtol=1e-12, atol=1e-12)
    # a new process: the module and its plan come from the cache, the plan bound again
    monkeypatch.setattr(rule_cache, "_MEMO", {})
    monkeypatch.setattr(rule_cache, "_generate", None)      # would fail if called
    again = rule_cache.define(RULE)
    assert again is not op and native.plan_for(sys.modules[again.module_name]) is not None
    np.testing.assert_allclose(again(x, y, b), _reference(x, y, b), rtol=1e-12, atol=1e-12)


def test_define_without_native_kernels_caches_the_module_only(fresh, monkeypatch):
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "0")
    op = rule_cache.define(RULE)
    assert native.plan_for(sys.modules[op.module_name]) is None
    names = [p.name for p in fresh.iterdir() if not p.name.startswith(".") and p.is_file()]
    assert len(names) == 1 and names[0].endswith(".py"), names
    x, y, b = _points(np.random.default_rng(1))
    np.testing.assert_allclose(op(x, y, b), _reference(x, y, b), rtol=1e-12, atol=1e-12)


def test_a_plan_is_bound_only_to_the_module_it_was_made_for():
    """native.attach checks the plan's recorded sha256 of its kernels and of its module: an edited kernel source,
    or another module's text, is refused (the NumPy code answers)."""
    files = pipeline.define_files(RULE, kernels=True)
    plan_name = next(f for f in files if f.startswith("cpu/") and f.endswith(".json"))
    cpp, plan, text = files[plan_name[:-len(".json")] + ".cpp"], files[plan_name], files["module.py"]

    class M:                                # a module stand-in (weakly referenceable)
        pass

    assert native.attach(M(), text, cpp, plan)
    assert not native.attach(M(), text, cpp + "// edited\n", plan)
    assert not native.attach(M(), text + "# another module\n", cpp, plan)
    assert not native.attach(M(), text, cpp, "not json")


def test_define_and_derive_rules_run_one_pipeline():
    """The module runtime.define caches is the module derive-rules writes for the same text, but for the line
    that names who made it."""
    made = pipeline.define_files(RULE, label="rules/t.rules")["module.py"]
    written = pipeline.process(RULE, "rules/t.rules", "module", use_cache=False, kernels=False)["files"]["module.py"]
    def body(text):
        return [ln for ln in text.splitlines() if "runtime.define" not in ln and "derive-rules" not in ln]

    assert made != written and body(made) == body(written)


def test_a_damaged_cached_plan_is_made_again_with_its_module(fresh, monkeypatch):
    """A plan entry that no longer verifies (truncated), or kernels without their plan, regenerate every entry of
    the rule: the op keeps its kernels rather than silently running NumPy from then on."""
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "1")
    if not native.available()[0]:
        pytest.skip(native.available()[1])
    rule_cache.define(RULE)
    (plan,) = fresh.glob("r*.plan.json")
    plan.write_bytes(plan.read_bytes()[:100])
    monkeypatch.setattr(rule_cache, "_MEMO", {})
    again = rule_cache.define(RULE)
    assert native.plan_for(sys.modules[again.module_name]) is not None
    (plan,) = fresh.glob("r*.plan.json")
    plan.unlink()                                   # kernels left without their plan
    monkeypatch.setattr(rule_cache, "_MEMO", {})
    third = rule_cache.define(RULE)
    assert native.plan_for(sys.modules[third.module_name]) is not None
    x, y, b = _points(np.random.default_rng(2))
    np.testing.assert_allclose(third(x, y, b), _reference(x, y, b), rtol=1e-12, atol=1e-12)
