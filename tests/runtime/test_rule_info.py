"""op.rule and help(op): every op carries its rule's text and place, its derivation and how it was verified,
from the record written into its generated module (no SymPy at run time)."""
import os
import pydoc
import subprocess
import sys

import pytest

generated = pytest.importorskip("generated")

from runtime.registry import _OPS  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHIPPED = sorted({op for key, op in _OPS.items() if ":" in key and op.module_name.startswith("generated.")},
                 key=lambda op: (op.module_name, op.name))


def test_inv_carries_its_derivation():
    r = generated.inv.rule
    assert r is generated.inv.op.rule is generated.inv_rrule.rule
    assert (r.name, r.file) == ("inv", "rules/linalg.rules")
    # the line the rule is on, read from the file itself
    with open(os.path.join(ROOT, "rules", "linalg.rules"), encoding="utf-8") as f:
        lines = f.read().splitlines()
    assert lines[r.line - 1] == r.text == "inv(A[i,j]) -> B[i,j] = inv(A[i,j])"
    # d(A⁻¹) = -A⁻¹·dA·A⁻¹ and its transpose: the textbook's matrix forms, in Unicode and LaTeX
    assert [f.text for f in r.pushforward] == ["dB = -B·dA·B"]
    assert [f.text for f in r.pullback] == ["dA = -Bᵀ·dB·Bᵀ"]
    assert r.pullback[0].matrix == r.pullback[0].text and "Σ" in r.pullback[0].index
    assert r.pullback[0].latex == r"\mathrm{d}A = -B^{\top} \mathrm{d}B B^{\top}"
    assert r.pullback[0].index_latex.startswith(r"\mathrm{d}A_{ij} = \sum_{kl}")
    assert r.domains == {"A": "wellcond"}
    assert r.saves == {"inputs": [], "outputs": ["B"], "intermediates": []}   # the pullback reads only B
    v = r.verification
    assert r.verified and v.points >= 1 and v.extents and all(set(e) == {"i", "j"} for e in v.extents)
    assert v.fd_below is not None and v.fd_below <= v.fd_tolerance <= 1e-6
    assert v.adjoint_below is not None and v.adjoint_below <= v.adjoint_tolerance <= 1e-10


def test_help_shows_the_derivation():
    text = pydoc.render_doc(generated.inv, renderer=pydoc.plaintext)
    assert "inv(A)" in text                                   # the inputs' names, not (*args, **kw)
    for part in ("inv(A[i,j]) -> B[i,j]", "rules/linalg.rules:", "dB = -B·dA·B", "dA = -Bᵀ·dB·Bᵀ",
                 "The pullback keeps: B (output)", "finite differences", "adjoint", r"\mathrm{d}A"):
        assert part in text, part
    s = str(generated.inv.rule)
    assert s == repr(generated.inv.rule) and "dA = -Bᵀ·dB·Bᵀ" in s


@pytest.mark.parametrize("op", SHIPPED, ids=lambda op: op.name)
def test_every_shipped_op_has_its_record(op):
    r = op.rule
    assert r is not None and r.name == op.name and r.signature == op.signature and r.verified
    assert r.text.startswith(op.name + "(") and r.location == op.source
    assert r.pushforward and r.pullback and all(f.text and f.latex and f.index for f in r.pushforward + r.pullback)
    v = r.verification
    assert v.points >= 1 and v.fd_below <= 1e-6 and v.adjoint_below <= 1e-10 and v.reference_below <= 1e-6


def test_runtime_reads_the_record_without_sympy():
    code = ("import sys, pydoc, generated; str(generated.det.rule); pydoc.render_doc(generated.det); "
            "print('sympy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": ROOT}, check=True)
    assert out.stdout.strip() == "False"


def test_defined_op_carries_its_rule(tmp_path, monkeypatch):
    import runtime

    monkeypatch.setenv("TENSOR_RULES_CACHE", str(tmp_path))
    # a comment that tries to end the literal it is written into, and a backslash
    comment = "# Log of x, scaled. ''' \"\"\" \\ ' end"
    op = runtime.define(comment + "\nlscaled(x[i]: positive, s) -> y[i] = s * log(x[i])")
    r = op.rule
    assert r.doc == comment[2:] and r.text == "lscaled(x[i]: positive, s) -> y[i] = s * log(x[i])"
    assert r.line == 2
    # d(s·log x) = ds·log x + s/x·dx; the pullback of x is s·dy/x
    assert any(f.text == "dx = s·dy/x" for f in r.pullback)
    assert r.domains["x"] == "positive" and r.verification.points >= 1
    assert "lscaled(x[i]: positive, s) -> y[i]" in op.__doc__ and "Pullback:" in op.__doc__
