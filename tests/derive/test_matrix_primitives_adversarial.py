"""Findings of an adversarial pass over the new matrix primitives, each pinned."""
import numpy as np
import pytest

import runtime
from derive import api
from runtime import tnp


@pytest.mark.parametrize("text", ["E = expm(A[i,j] - A[j,i])", "E = expm(x[i]*x[j])"])
def test_expm_of_singular_matrices_verifies(text):
    # expm is defined and well conditioned at singular matrices: no condition-number skip applies to it
    r = api.derive_expr(text)
    assert r.ok, (r.error, r.check and r.check.problems)


@pytest.mark.parametrize("name", ["eigvalsh", "eigvecsh", "logm", "sqrtm", "cholesky", "expm"])
def test_empty_matrices(name):
    g = runtime.grad(lambda a: tnp.sum(getattr(tnp.prim, name).forward(a)))(np.zeros((0, 0)))
    assert g.shape == (0, 0)


def test_eigvalsh_propagates_nan_like_its_derivative():
    w = tnp.linalg.eigvalsh(np.array([[np.nan, 0.0], [0.0, 1.0]]))
    assert np.isnan(w).any()


def test_sum_of_eigenvalues_is_the_trace_derivative():
    # d Σλ = tr(dA): the gradient is the identity, from mathematics
    rng = np.random.default_rng(3)
    A = rng.standard_normal((5, 5))
    A = A + A.T
    g = runtime.grad(lambda a: tnp.sum(tnp.linalg.eigvalsh(a)))(A)
    assert np.allclose(g, np.eye(5), atol=1e-12)
