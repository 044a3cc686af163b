"""derive.display.record: the record each generated op carries (op.rule) -- the rule's text, deterministic verification
figures, and user text written only as escaped literals."""
import numpy as np

from derive import api
from derive.display import record
from derive.language import parser
from derive.verification import verify


def _unexported(src):
    """A module's source with its last line (the export into the global registry) left out."""
    last = "globals().update(export_ops(__name__, OPS, _define, RULES))"
    assert src.rstrip().endswith(last)
    return src.rstrip()[:-len(last)]


def test_figures_are_bounds_that_rounding_noise_does_not_move():
    # raw errors as two machines' BLAS kernels gave them for the same rules (measured: 4.8e-10 and 6.3e-11 for
    # batched_cayley's finite differences, 1.5e-15 and 3.8e-16 for batched_inv's adjoint identity)
    a = verify.Check(fd_error=4.8e-10, adjoint_error=1.5e-15, reference_error=0.0, points=4, reference_points=4)
    b = verify.Check(fd_error=6.3e-11, adjoint_error=3.8e-16, reference_error=2e-13, points=4, reference_points=4)
    assert a.figures() == b.figures()
    f = a.figures()
    assert f["finite_differences"] == {"below": 1e-8, "tolerance": verify.FD_TOL}
    assert f["adjoint"]["below"] == 1e-12 and f["reference"]["below"] == 1e-11
    # an error above the floor lands on its rung; one above the tolerance has none
    assert verify.Check(fd_error=3e-7).figures()["finite_differences"]["below"] == 1e-6
    assert verify.Check(fd_error=2e-6).figures()["finite_differences"]["below"] is None
    assert verify.Check(adjoint_error=float("nan")).figures()["adjoint"]["below"] is None


def test_rule_text_spans_the_block_and_leaves_the_next_doc():
    text = ("# first\n"
            "f(A[i,j]) -> Q[i,j]:\n"
            "    M[i,j] = A[i,j] * 2\n"
            "\n"
            "    Q[i,j] = M[i,j] + 1\n"
            "\n"
            "# about g\n"
            "g(x[i]) -> y[i] = x[i]\n")
    rs = api.derive_text(text, "t.rules")
    assert rs[0].text == "f(A[i,j]) -> Q[i,j]:\n    M[i,j] = A[i,j] * 2\n\n    Q[i,j] = M[i,j] + 1"
    assert rs[1].text == "g(x[i]) -> y[i] = x[i]"
    rec = record.make(rs[0])
    assert (rec["file"], rec["line"], rec["doc"]) == ("t.rules", 2, "first")


def test_user_text_reaches_the_module_only_as_literals():
    hostile = "x''' \"\"\" \\ \u2028 \x00 ')}]; import os"
    text = f"# {hostile}\nh(x[i]) -> y[i] = exp(x[i])\n"
    rs = api.derive_text(text, f"evil{hostile}.rules")
    src = _unexported(api.render_module(rs, f"evil{hostile}.rules"))
    ns = {}
    exec(compile(src, "<m>", "exec"), ns)
    rec = ns["RULES"]["h"]
    assert rec["doc"] == hostile and rec["file"] == f"evil{hostile}.rules"
    assert "import os" not in [ln.strip() for ln in src.splitlines()]


def test_the_exported_module_carries_the_records_the_verified_figures():
    rs = api.derive_text("sq(x[i]) -> y[i] = x[i] * x[i]\n", "sq.rules")
    ns = {}
    exec(compile(api.render_module(rs, "sq.rules", export=False), "<m>", "exec"), ns)
    assert ns["RULES"] == {}          # the module verification runs needs none
    src = _unexported(api.render_module(rs, "sq.rules"))
    ns = {}
    exec(compile(src, "<m>", "exec"), ns)
    rec = ns["RULES"]["sq"]
    # d(x²) = 2x·dx, written by hand
    assert any(s["text"] in ("dy = 2·x ⊙ dx", "dy = 2·(x ⊙ dx)") for s in rec["pushforward"]), rec["pushforward"]
    v = rec["verification"]
    assert v["points"] == rs[0].check.points >= 1 and v["extents"] == [{"i": 3}]
    assert v["finite_differences"]["below"] in verify.FIGURE_LADDERS["finite_differences"]
    assert np.isclose(v["adjoint"]["tolerance"], verify.ADJ_TOL)


def test_rule_text_counts_lines_as_the_parser_does():
    """A comment holding a Unicode line separator is one line to the parser; the record shows the rule that was
    verified, not the text after the separator (found by a hostile probe: op.rule showed 'evil(...)')."""
    text = "# harmless\u2028evil(x[i]) -> y[i] = 1000*x[i]\nf(x[i]) -> y[i] = 2*x[i]\r\n"
    rules = api.parse(text, "<t>")
    assert [r.name for r in rules] == ["f"]
    assert parser.rule_text(text, rules, 0) == "f(x[i]) -> y[i] = 2*x[i]"
