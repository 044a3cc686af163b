"""Declared input domains: `x[i]: (1, inf)`, `S[i,j]: spd`, ... are parsed, checked against the tensor,
sampled from by the verifier, and shown in --json, LaTeX and the op's docstring."""
import importlib.util
import json
import sys

import numpy as np
import pytest

from derive import api, cli
from derive.language.errors import RuleError
from derive.verification import verify

RULES = """\
# Rules that hold only on part of the real line.
shifted_log(x[i]: (1, inf)) -> y[i] = log(x[i] - 1)
half_circle(x[i]: (-1, 1)) -> y[i] = sqrt(1 - x[i]*x[i])
spd_logdet(S[i,j]: spd) -> y[] = logdet(S)
"""


def test_rule_file_on_declared_domains_verifies_and_emits(tmp_path, capsys):
    src = tmp_path / "domains.rules"
    src.write_text(RULES)
    out = tmp_path / "out"
    assert cli.main([str(src), "--out", str(out), "-q", "--no-cache"]) == 0
    assert "3 rules, 3 verified, 0 failed" in capsys.readouterr().out
    spec = importlib.util.spec_from_file_location("domains_emitted_for_test", out / "domains.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    try:
        spec.loader.exec_module(mod)
        assert mod.shifted_log.__doc__.startswith("shifted_log(x[i]: (1, inf)) -> y[i]")
        assert mod.spd_logdet.__doc__.startswith("spd_logdet(S[i,j]: spd) -> y[]")
        # d/dx log(x - 1) = 1/(x - 1), d/dx sqrt(1 - x²) = -x/sqrt(1 - x²): by hand at x = 3 and x = 0.6
        _, pb = mod.shifted_log_rrule(np.array([3.0]))
        np.testing.assert_allclose(pb(np.ones(1))[1], [0.5], rtol=1e-15)
        _, pb = mod.half_circle_rrule(np.array([0.6]))
        np.testing.assert_allclose(pb(np.ones(1))[1], [-0.75], rtol=1e-15)
    finally:
        sys.modules.pop(spec.name, None)


def test_a_whole_rule_on_the_command_line_keeps_its_domain(capsys):
    assert cli.main(["-e", "r(x[i]: (1, inf)) -> y[i] = log(x[i] - 1)", "--no-cache", "--no-write"]) == 0
    out = capsys.readouterr().out
    assert "r(x[i]: (1, inf)) -> y[i]" in out and "1 rule, 1 verified, 0 failed" in out
    assert cli.main(["-e", "y[i] = log(x[i] - 1)", "--no-cache", "--no-write"]) == 1
    out = capsys.readouterr().out
    assert "no point could be checked" in out and "declare it in the header" in out


def test_without_the_declaration_the_shifted_log_cannot_verify():
    """Inferred, log's argument makes x 'positive', sampled in (0.5, 1.5): log(x - 1) is NaN there."""
    r = api.derive_expr("y[i] = log(x[i] - 1)")
    assert not r.ok and any("no well-posed point" in p for p in r.check.problems)


def test_domains_in_json_and_latex(tmp_path, capfd):
    src = tmp_path / "d.rules"
    src.write_text(RULES + "sym(S[i,j]: symmetric, v[i], s: negative) -> y[] = S[i,j] * v[i] * v[j] * s\n")
    assert cli.main([str(src), "--json", "--no-cache"]) == 0
    rules = {r["name"]: r for r in json.loads(capfd.readouterr().out)}
    assert rules["shifted_log"]["inputs"][0]["domain"] == "(1, inf)"
    assert rules["half_circle"]["signature"] == "half_circle(x[i]: (-1, 1)) -> y[i]"
    ins = rules["sym"]["inputs"]
    assert [(i["domain"], i["domain_declared"]) for i in ins] == [("symmetric", True), ("real", False),
                                                                   ("negative", True)]
    assert rules["sym"]["verification"]["extents"][0] == {"i": 3, "j": 3}   # symmetric: square
    assert cli.main([str(src), "--latex", "--no-cache"]) == 0
    latex = capfd.readouterr().out
    assert "&\\text{for } x \\in (1, \\infty)" in latex and "&\\text{for } x \\in (-1, 1)" in latex
    assert "&\\text{for } S \\succ 0" in latex and "&\\text{for } S = S^{\\top},\\ s < 0" in latex


@pytest.mark.parametrize("dom,check", [
    ("(1, inf)", lambda a: np.all(a > 1)),
    ("(-1, 1)", lambda a: np.all(np.abs(a) < 1)),
    ("(-inf, -2)", lambda a: np.all(a < -2)),
    ("positive", lambda a: np.all(a > 0)),
    ("negative", lambda a: np.all(a < 0)),
    ("nonzero", lambda a: np.all(a != 0) and np.any(a < 0) and np.any(a > 0)),
    ("spd", lambda a: np.allclose(a, a.T) and np.all(np.linalg.eigvalsh(a) > 0)),
    ("symmetric", lambda a: np.allclose(a, a.T) and np.min(np.linalg.eigvalsh(a)) < 0 < np.max(np.linalg.eigvalsh(a))),
])
def test_samples_lie_in_the_declared_domain(dom, check):
    meta = {"inputs": [{"name": "A", "kind": "tensor", "indices": ["i", "j"]}], "outputs": [],
            "equal_extents": [["i", "j"]], "domains": {"A": dom}}
    for seed in range(5):
        (a,) = verify.sample_inputs(meta, np.random.default_rng(seed), {"i": 6})
        assert a.shape == (6, 6) and check(a)


def _error(text):
    with pytest.raises(RuleError) as info:
        api.derive_text(text, "t.rules", verify_rules=False)
    e = info.value
    return e.message, e.pos.line, e.pos.col, e.width


@pytest.mark.parametrize("text,expected", [
    ("f(x[i]: spd) -> y[] = x[i]*x[i]",
     ("domain 'spd' needs a matrix (batch indices, then two indices); 'x' has 1 index", 1, 9, 3)),
    ("f(s: symmetric) -> y[] = s",
     ("domain 'symmetric' needs a matrix (batch indices, then two indices); 's' has none (a scalar)", 1, 6, 9)),
    ("f(x[i]: postive) -> y[i] = x[i]", ("unknown domain 'postive'; did you mean 'positive'?", 1, 9, 7)),
    ("f(x[i]: open) -> y[i] = x[i]",
     ("unknown domain 'open'; use positive, negative, nonzero, spd, symmetric or an open interval like "
      "(0, inf)", 1, 9, 4)),
    ("f(x[i]: (2, 1)) -> y[i] = x[i]",
     ("the interval of 'x' is empty: its lower bound 2 is not below its upper bound 1", 1, 9, 6)),
    ("f(x[i]: (1, 1)) -> y[i] = x[i]",
     ("the interval of 'x' is empty: its lower bound 1 is not below its upper bound 1", 1, 9, 6)),
    ("f(x[i]: (a, 1)) -> y[i] = x[i]", ("expected a number or inf as a bound of the interval of 'x'", 1, 10, 1)),
    ("f(x[i]: (0 1)) -> y[i] = x[i]", ("expected ',' between the bounds of an interval, as in (0, 1)", 1, 12, 1)),
])
def test_bad_domains_are_positioned_errors(text, expected):
    assert _error(text) == expected


def test_scalar_and_batched_domains():
    text = "f(x[i]: (-inf, inf), S[b,i,j]: spd, t: (0, 2)) -> y[b] = logdet(S[b,i,j]) * x[i] * x[i] * t"
    (r,) = api.derive_text(text, "<t>")
    assert r.ok, r.check.problems
    assert r.program.domains == {"x": "(-inf, inf)", "S": "spd", "t": "(0, 2)"}
    assert r.program.signature == "f(x[i]: (-inf, inf), S[b,i,j]: spd, t: (0, 2)) -> y[b]"


@pytest.mark.parametrize("header, col, says", [
    ("f(x[i], n: int: positive)", 15, "an integer parameter takes no domain"),
    ("f(x[i], s: scalar: positive)", 18, "write the domain in place of 'scalar'"),
])
def test_a_type_followed_by_a_domain_gets_a_sentence(header, col, says):
    with pytest.raises(RuleError) as e:
        api.derive_text(header + " -> y[i] = x[i]\n", "t.rules")
    assert e.value.pos.col == col and says in str(e.value), str(e.value)


def test_text_that_loses_digits_at_several_magnitudes_gets_one_warning():
    (r,) = api.derive_text("r(x[i], m[i]) -> y[] = x[i]*x[i] - 2*x[i]*m[i] + m[i]*m[i]", "<t>")
    (w,) = r.check.warnings
    assert "offset by 1e+06" in w and "scaled by 0.001" in w and w.count("write it so") == 1


@pytest.mark.parametrize("text, want", [
    # the argument of log/sqrt is positive whatever the inputs: nothing is inferred (inputs sampled on all reals)
    ("r(x[i]) -> y[i] = x[i] - log(sum(j, exp(x[j])))", {"x": "real"}),
    ("r(x[i]) -> y[] = sqrt(sum(i, x[i]*x[i]))", {"x": "real"}),
    ("r(x[i]) -> y[] = log(sum(i, abs(x[i])) + 1)", {"x": "real"}),
    # only the factor whose sign matters is inferred positive
    ("r(x[i], z[i]) -> y[i] = log(z[i]*x[i]*x[i])", {"x": "real", "z": "positive"}),
    ("r(x[i]) -> y[i] = log(x[i])", {"x": "positive"}),
])
def test_inferred_domains_do_not_narrow_inputs_a_positive_argument_does_not_constrain(text, want):
    (r,) = api.derive_text(text, "<t>")
    assert r.ok, r.check.problems
    assert r.code.meta["domains"] == want
