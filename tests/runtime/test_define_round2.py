"""Second adversarial round: runtime.define with declared domains (issue 9 §4 promises the domain in the op's
docstring)."""
from __future__ import annotations

import numpy as np

import runtime


def test_a_defined_op_documents_its_signature_domains_and_comment(tmp_path, monkeypatch):
    monkeypatch.setenv("TENSOR_RULES_CACHE", str(tmp_path / "cache"))
    op = runtime.define("# Log of x - 1, scaled.\nshl2(x[i]: (1, inf), s: positive) -> y[i] = log(x[i] - 1) * s")
    # before: the Op class's own docstring ("A generated (or `define`d) op: ...") for every defined op
    assert op.__doc__.splitlines()[0] == "shl2(x[i]: (1, inf), s: positive) -> y[i]"
    assert "Log of x - 1, scaled." in op.__doc__
    x = np.array([2.0, 3.0])
    assert np.allclose(op(x, 2.0), 2 * np.log(x - 1))
    assert np.allclose(runtime.grad(lambda v: op(v, 2.0).sum())(x), 2 / (x - 1))
