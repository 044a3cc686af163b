"""Issue #12's constructs used the way a demanding user would (round adversarial-12): expected values by hand,
from NumPy / SciPy, or from central finite differences of a NumPy reference, never from the code's own output."""

import numpy as np
import pytest

import runtime


def _fd(f, x, eps=1e-6):
    x = np.asarray(x, dtype=float)
    g = np.zeros_like(x)
    for idx in np.ndindex(*x.shape):
        xp, xm = x.copy(), x.copy()
        xp[idx] += eps
        xm[idx] -= eps
        g[idx] = (np.sum(f(xp)) - np.sum(f(xm))) / (2 * eps)
    return g


# --- integer inputs: generated code computes in floating point ---------------------------------------------------

def test_integer_arrays_into_a_stable_softmax_and_a_negative_power(define):
    # np.max(int array, initial=-inf) and int_array ** -2 both raise inside NumPy; an op converts integer and bool
    # arguments to float64 at its entry, as np.exp(int array) does
    sm = define("sm_int(x[i]) -> y[i] = exp(x[i] - max(k, x[k])) / sum(j, exp(x[j] - max(k, x[k])))")
    x = np.arange(3)
    e = np.exp(np.array([0., 1., 2.]))
    s = e / e.sum()
    np.testing.assert_allclose(sm(x), s, rtol=1e-14)
    np.testing.assert_allclose(sm(np.stack([x, x + 5])), [s, s], rtol=1e-14)     # batched twin
    y, pb = sm.rrule(x)
    np.testing.assert_allclose(runtime.unthunk(pb(np.array([1., 0., 0.]))[1]), s[0] * (np.eye(3)[0] - s),
                               rtol=1e-12)
    inv2 = define("inv2_int(x[i]) -> y[i] = x[i] ** -2")
    xi = np.array([1, 2, 4])
    np.testing.assert_allclose(inv2(xi), [1., 1 / 4, 1 / 16], rtol=1e-15)
    y, pb = inv2.rrule(xi)
    np.testing.assert_allclose(runtime.unthunk(pb(np.ones(3))[1]), -2. / xi ** 3, rtol=1e-15)
    _, dy = inv2.frule((None, np.ones(3)), xi)
    np.testing.assert_allclose(dy, -2. / xi ** 3, rtol=1e-15)
    np.testing.assert_allclose(inv2(np.array([[True, True]])), [[1., 1.]])


def test_python_int_scalar_parameter_with_leading_axes(define):
    # the batched twin broadcasts a scalar parameter to one value per batch element: an int 2 became an integer
    # array there and `s ** -2` in the pullback raised "Integers to negative integer powers are not allowed"
    op = define("rowsum_over_s2(x[i,j], s) -> y[i] = sum(j, x[i,j]) / s**2")
    X = np.array([[[1, 2, 3], [4, 5, 6]]])
    np.testing.assert_allclose(op(X, 2), X.sum(-1) / 4, rtol=1e-15)
    y, pb = op.rrule(X, 2)
    dy = np.array([[1., 3.]])
    r = pb(dy)
    np.testing.assert_allclose(runtime.unthunk(r[1]), np.broadcast_to(dy[..., None] / 4, X.shape), rtol=1e-15)
    # d/ds of Σ_j x / s² = -2 Σ_j x / s³, contracted with dy
    np.testing.assert_allclose(runtime.unthunk(r[2]), -2 * (dy * X.sum(-1)).sum() / 8, rtol=1e-14)


def test_integer_power_parameter_stays_an_integer(define):
    op = define("powi_int(x[i], n: int) -> y[i] = x[i] ** n")
    np.testing.assert_allclose(op(np.array([1, 2, 3]), 3), [1., 8., 27.])


def test_frule_with_the_tangents_last_says_the_order(define):
    # frule(f, args, tangents) hashed the tuple of arrays and failed with "unhashable type: 'numpy.ndarray'"
    op = define("rowprod_adv(A[i,j]) -> y[i] = prod(j, A[i,j])")
    A = np.array([[2., 0., 3.]])
    with pytest.raises(TypeError, match=r"frule\(tangents, f, \*args\)"):
        runtime.frule(op, (A,), (np.ones_like(A),))
    with pytest.raises(TypeError, match=r"rrule: expected an op"):
        runtime.rrule((A,), op)
    # the right order: d/dt Π(A + tT) = Σ_k T_k Π_{j≠k} A_j = 0·1 + 6·1 + 0·1
    _, dy = runtime.frule((None, np.ones_like(A)), op, A)
    np.testing.assert_allclose(runtime.unthunk(dy), [6.])
