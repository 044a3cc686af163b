"""Batched twins (derive.lowering.batching): every non-elementwise rule gets a twin with one batch index prepended to each
tensor, derived and verified like the rule itself, which the runtime runs for arguments with leading axes.
Expected values come from NumPy."""
import textwrap

import numpy as np
import pytest

from derive import api
from derive.lowering import batching


@pytest.fixture
def define(tmp_path, monkeypatch):
    from runtime import define, rule_cache

    monkeypatch.setenv("TENSOR_RULES_CACHE", str(tmp_path))
    monkeypatch.setattr(rule_cache, "_MEMO", {})
    return define


def test_the_twin_is_derived_and_verified_with_its_batch_index_first():
    (r,) = api.derive_text("scaled(x[i], s) -> y[] = s * x[i] * x[i]", "<t>")
    assert r.ok and r.twin is not None and r.twin.ok
    assert r.code.meta["batched"] == batching.twin_name("scaled") == r.twin.name
    # a scalar parameter becomes a vector over the batch: it may differ per batch element
    assert r.twin.program.signature == "__batched_scaled(x[_batch,i], s[_batch]) -> y[_batch]"
    assert r.twin.check.points > 0 and all("_batch" in e for e in r.twin.check.extents)


def test_an_elementwise_rule_has_no_twin():
    (r,) = api.derive_text("sq(x[i]) -> y[i] = x[i] * x[i]", "<t>")
    assert r.code.meta.get("elementwise") and r.twin is None and "batched" not in r.code.meta


def test_a_matrix_function_of_an_expression_keeps_its_matrix_axes_in_the_twin(define):
    # the twin's `delta(i,j) - A[_batch,i,j]` names i and j before _batch; its axes are still [_batch,i,j]
    op = define(textwrap.dedent("""\
        cay(A[i,j]) -> Q[i,j]:
            M[i,j] = inv(delta(i,j) - A[i,j])
            Q[i,j] = M[i,k] * (delta(k,j) + A[k,j])
    """))
    A = np.random.default_rng(0).standard_normal((2, 3, 4, 4)) * 0.2
    eye = np.eye(4)
    np.testing.assert_allclose(op(A), np.linalg.solve(eye - A, eye + A), rtol=1e-12)


def test_a_subscripted_matrix_function_and_a_bare_statement_list(define):
    rng = np.random.default_rng(1)
    S = rng.standard_normal((5, 3, 3)) * 0.3 + 3 * np.eye(3)
    x = rng.standard_normal(3)                                  # shared by the batch
    q = define("q(S[i,j], x[i]) -> y[] = inv(S)[i,j] * x[i] * x[j]")
    np.testing.assert_allclose(q(S, x), np.einsum("i,bij,j->b", x, np.linalg.inv(S), x), rtol=1e-12)
    b = define("B = inv(A)", name="binv")
    np.testing.assert_allclose(b(S), np.linalg.inv(S), rtol=1e-13)
