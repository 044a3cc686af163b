"""derive.verification.reference on the matrix primitives (cholesky, eigvalsh, eigvecsh, expm, logm, sqrtm) and on det/logdet
at singular matrices, against values known from mathematics: closed forms for 2×2 and nilpotent matrices,
hand factorisations and determinants by cofactors."""
import math

import mpmath
import numpy as np
import pytest

from derive.verification.reference import evaluate_text

BOTH = pytest.mark.parametrize("precision", ["mp", "f64"])
R2 = math.sqrt(2.0)
R5 = math.sqrt(5.0)


def _val(text, inputs, precision="mp"):
    out = evaluate_text(text, inputs, precision=precision)
    assert len(out) == 1
    return np.array(next(iter(out.values())), dtype=float)


# -- expm ------------------------------------------------------------------------------------------------------
@BOTH
def test_expm_of_nilpotent_is_its_finite_series(precision):
    N = np.array([[0.0, 2.0, -1.0], [0.0, 0.0, 3.0], [0.0, 0.0, 0.0]])
    want = np.eye(3) + N + N @ N / 2          # N³ = 0
    got = _val("ex(A[i,j]) -> E[i,j] = expm(A[i,j])", {"A": N}, precision)
    np.testing.assert_allclose(got, want, rtol=1e-15, atol=1e-15)
    assert got[2, 0] == 0 and got[1, 0] == 0


@BOTH
def test_expm_of_diagonal_and_of_rotation_generator(precision):
    got = _val("ex(A[i,j]) -> E[i,j] = expm(A[i,j])", {"A": np.diag([0.5, -1.0, 2.0])}, precision)
    np.testing.assert_allclose(got, np.diag([math.exp(0.5), math.exp(-1.0), math.exp(2.0)]), rtol=1e-15, atol=0)
    t = 0.7
    got = _val("ex(A[i,j]) -> E[i,j] = expm(A[i,j])", {"A": [[0.0, -t], [t, 0.0]]}, precision)
    np.testing.assert_allclose(got, [[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]], rtol=1e-15,
                               atol=1e-16)


def test_trace_of_expm_is_sum_of_exponentials_of_a_triangular_diagonal():
    A = [[1.0, 5.0, -2.0], [0.0, -0.5, 4.0], [0.0, 0.0, 0.25]]
    got = _val("f(A[i,j]) -> t[] = trace(expm(A))", {"A": A})
    assert got == pytest.approx(math.exp(1.0) + math.exp(-0.5) + math.exp(0.25), rel=1e-15)


# -- cholesky --------------------------------------------------------------------------------------------------
@BOTH
def test_cholesky_of_hand_2x2_and_3x3(precision):
    got = _val("chol(A[i,j]: spd) -> L[i,j] = cholesky(A[i,j])", {"A": [[4.0, 2.0], [2.0, 3.0]]}, precision)
    np.testing.assert_allclose(got, [[2.0, 0.0], [1.0, R2]], rtol=1e-15, atol=0)
    # L = [[1,0,0],[2,3,0],[-1,1,2]]  ->  A = L·Lᵀ
    L = np.array([[1.0, 0, 0], [2, 3, 0], [-1, 1, 2]])
    got = _val("chol(A[i,j]: spd) -> L[i,j] = cholesky(A[i,j])", {"A": L @ L.T}, precision)
    np.testing.assert_array_equal(got, L)


def test_cholesky_composed_with_a_vector_and_round_trip():
    A = [[4.0, 2.0], [2.0, 3.0]]
    got = _val("f(A[i,j]: spd, x[j]) -> y[i] = cholesky(A)[i,j] * x[j]", {"A": A, "x": [1.0, -1.0]})
    np.testing.assert_allclose(got, [2.0, 1.0 - R2], rtol=1e-15)
    text = "f(A[i,j]: spd) -> B[i,j]:\n    L = cholesky(A)\n    B[i,j] = L[i,k] * L[j,k]\n"
    np.testing.assert_allclose(np.array(evaluate_text(text, {"A": A})["B"], dtype=float), A, rtol=1e-15)


def test_cholesky_outside_the_domain_is_nan_not_an_error():
    got = _val("chol(A[i,j]) -> L[i,j] = cholesky(A[i,j])", {"A": [[1.0, 2.0], [2.0, 1.0]]})
    assert np.isnan(got).all()


# -- eigvalsh / eigvecsh ---------------------------------------------------------------------------------------
@BOTH
def test_eigvalsh_ascending(precision):
    got = _val("evals(A[i,j]: symmetric) -> w[i] = eigvalsh(A[i,j])", {"A": [[2.0, 1.0], [1.0, 2.0]]}, precision)
    np.testing.assert_allclose(got, [1.0, 3.0], rtol=1e-15)
    got = _val("evals(A[i,j]: symmetric) -> w[i] = eigvalsh(A[i,j])", {"A": np.diag([3.0, -2.0, 1.0])}, precision)
    np.testing.assert_allclose(got, [-2.0, 1.0, 3.0], rtol=1e-15)


@BOTH
def test_eigvecsh_columns_in_eigenvalue_order_with_largest_component_positive(precision):
    # [[1,2],[2,4]]: eigenvalue 0 with ±(2,-1)/√5, eigenvalue 5 with ±(1,2)/√5
    got = _val("evecs(A[i,j]: symmetric) -> V[i,j] = eigvecsh(A[i,j])", {"A": [[1.0, 2.0], [2.0, 4.0]]},
               precision)
    np.testing.assert_allclose(got, np.array([[2.0, 1.0], [-1.0, 2.0]]) / R5, rtol=1e-14, atol=1e-16)
    # diag(3, -1, 2): eigenvalues -1, 2, 3 with eigenvectors e1, e2, e0; every sign positive
    got = _val("evecs(A[i,j]: symmetric) -> V[i,j] = eigvecsh(A[i,j])", {"A": np.diag([3.0, -1.0, 2.0])},
               precision)
    np.testing.assert_allclose(got, [[0, 0, 1], [1, 0, 0], [0, 1, 0]], atol=1e-15)
    # [[1,-3],[-3,1]]: eigenvalue -2 with (1,1)/√2 (tie: first component positive), 4 with (1,-1)/√2
    got = _val("evecs(A[i,j]: symmetric) -> V[i,j] = eigvecsh(A[i,j])", {"A": [[1.0, -3.0], [-3.0, 1.0]]},
               precision)
    np.testing.assert_allclose(got, np.array([[1.0, 1.0], [1.0, -1.0]]) / R2, rtol=1e-14)


def test_sum_of_eigvalsh_is_the_trace_and_batched_eigvalsh():
    A = np.array([[2.0, 0.5, -1.0], [0.5, 1.0, 0.25], [-1.0, 0.25, 3.0]])
    got = _val("f(A[i,j]: symmetric) -> s[] = sum(i, eigvalsh(A)[i])", {"A": A})
    assert got == pytest.approx(6.0, rel=1e-15)
    B = np.stack([np.diag([3.0, 1.0]), [[2.0, 1.0], [1.0, 2.0]], np.diag([-1.0, -4.0])])
    got = _val("evals_b(A[b,i,j]: symmetric) -> w[b,i] = eigvalsh(A[b,i,j])", {"A": B})
    np.testing.assert_allclose(got, [[1.0, 3.0], [1.0, 3.0], [-4.0, -1.0]], rtol=1e-15)


def test_symmetric_functions_read_the_symmetric_part():
    # [[2, 2], [0, 2]] is read as [[2, 1], [1, 2]]
    got = _val("evals(A[i,j]) -> w[i] = eigvalsh(A[i,j])", {"A": [[2.0, 2.0], [0.0, 2.0]]})
    np.testing.assert_allclose(got, [1.0, 3.0], rtol=1e-15)


# -- logm / sqrtm ----------------------------------------------------------------------------------------------
@BOTH
def test_sqrtm_and_logm_of_diagonal_and_of_closed_forms(precision):
    got = _val("sq(S[i,j]: spd) -> R[i,j] = sqrtm(S[i,j])", {"S": np.diag([4.0, 9.0, 0.25])}, precision)
    np.testing.assert_allclose(got, np.diag([2.0, 3.0, 0.5]), rtol=1e-15, atol=1e-16)
    # [[2,1],[1,2]]² = [[5,4],[4,5]]
    got = _val("sq(S[i,j]: spd) -> R[i,j] = sqrtm(S[i,j])", {"S": [[5.0, 4.0], [4.0, 5.0]]}, precision)
    np.testing.assert_allclose(got, [[2.0, 1.0], [1.0, 2.0]], rtol=1e-14)
    got = _val("lg(S[i,j]: spd) -> L[i,j] = logm(S[i,j])", {"S": np.diag([1.0, math.e, 0.5])}, precision)
    np.testing.assert_allclose(got, np.diag([0.0, 1.0, -math.log(2.0)]), rtol=1e-15, atol=1e-16)
    # expm([[a,b],[b,a]]) = e^a [[cosh b, sinh b], [sinh b, cosh b]], so logm of that is [[a,b],[b,a]]
    a, b = 0.3, -0.8
    M = math.exp(a) * np.array([[math.cosh(b), math.sinh(b)], [math.sinh(b), math.cosh(b)]])
    got = _val("lg(S[i,j]: spd) -> L[i,j] = logm(S[i,j])", {"S": M}, precision)
    np.testing.assert_allclose(got, [[a, b], [b, a]], rtol=1e-14)


def test_logm_of_expm_of_symmetric_is_identity_and_agrees_with_mpmath_logm():
    S = np.array([[0.5, -0.25, 0.125], [-0.25, -1.0, 0.75], [0.125, 0.75, 0.0]])
    got = evaluate_text("f(S[i,j]: symmetric) -> R[i,j] = logm(expm(S[i,j]))", {"S": S}, precision="mp", dps=40)["R"]
    assert max(abs(got[i, j] - S[i, j]) for i in range(3) for j in range(3)) < mpmath.mpf(10) ** -35
    P = np.array([[3.0, 1.0, 0.5], [1.0, 2.0, -0.25], [0.5, -0.25, 1.5]])
    with mpmath.workdps(40):
        want = mpmath.logm(mpmath.matrix(P.tolist()))      # mpmath's general algorithm, not an eigendecomposition
        got = evaluate_text("lg(S[i,j]: spd) -> L[i,j] = logm(S[i,j])", {"S": P}, precision="mp", dps=40)["L"]
        assert max(abs(got[i, j] - want[i, j]) for i in range(3) for j in range(3)) < mpmath.mpf(10) ** -30


def test_logm_outside_the_domain_is_nan():
    assert np.isnan(_val("lg(S[i,j]) -> L[i,j] = logm(S[i,j])", {"S": np.diag([1.0, -1.0])})).all()
    assert np.isnan(_val("sq(S[i,j]) -> L[i,j] = sqrtm(S[i,j])", {"S": np.diag([1.0, -1.0])})).all()


# -- det / logdet at and near singular matrices -----------------------------------------------------------------
SINGULAR = [
    [[1.0, 2.0], [2.0, 4.0]],
    [[0.0, 0.0], [0.0, 0.0]],
    [[0.0, 1.0, 2.0], [0.0, 3.0, 4.0], [0.0, 5.0, 6.0]],     # a zero column: mpmath.det raised TypeError here
    [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]],
]


@BOTH
@pytest.mark.parametrize("A", SINGULAR)
def test_det_of_singular_matrix_is_exactly_zero_and_logdet_minus_inf(precision, A):
    assert _val("f(A[i,j]) -> d[] = det(A[i,j])", {"A": A}, precision) == 0.0
    assert _val("f(A[i,j]) -> d[] = logdet(A[i,j])", {"A": A}, precision) == -math.inf


@BOTH
def test_det_by_cofactors_and_near_singular(precision):
    A = [[2.0, 0.0, 1.0], [1.0, 3.0, 2.0], [1.0, 1.0, 2.0]]   # 2·(6-2) - 0 + 1·(1-3) = 6
    assert _val("f(A[i,j]) -> d[] = det(A)", {"A": A}, precision) == 6.0
    assert _val("f(A[i,j]) -> d[] = logdet(A)", {"A": A}, precision) == pytest.approx(math.log(6.0), rel=1e-15)
    e = 2.0 ** -40                                            # det [[1,1],[1,1+e]] = e, exactly
    assert _val("f(A[i,j]) -> d[] = det(A)", {"A": [[1.0, 1.0], [1.0, 1.0 + e]]}, precision) == e
    assert _val("f(A[i,j]) -> d[] = det(A)", {"A": [[0.0, 1.0], [1.0, 0.0]]}, precision) == -1.0
    assert _val("f(A[i,j]) -> d[] = det(A)", {"A": [[-1.5, 2.0], [0.5, -3.0]]}, precision) == 3.5
    assert np.isnan(_val("f(A[i,j]) -> d[] = logdet(A)", {"A": [[0.0, 1.0], [1.0, 0.0]]}, precision))


def test_det_beyond_float64_range_in_mp():
    got = evaluate_text("f(A[i,j]) -> d[] = det(A)", {"A": np.diag([1e-200, 1e-200, 1e-100])}, precision="mp")["d"]
    with mpmath.workdps(60):
        want = mpmath.mpf(1e-200) * mpmath.mpf(1e-200) * mpmath.mpf(1e-100)   # the binary inputs' product
        assert abs(got / want - 1) < 1e-25
    assert _val("f(A[i,j]) -> d[] = det(A)", {"A": np.diag([1e-200, 1e-200, 1e-100])}, "f64") == 0.0


def test_integer_arrays_are_accepted_in_mp():
    A = np.array([[2, 1], [1, 2]])
    np.testing.assert_allclose(_val("evals(A[i,j]: symmetric) -> w[i] = eigvalsh(A[i,j])", {"A": A}), [1.0, 3.0])
    assert _val("f(A[i,j]) -> d[] = det(A)", {"A": A}) == 3.0


def test_det_of_float64_extremes_and_beyond():
    tiny, huge = 5e-324, 1.7e308                          # the whole float64 range in one matrix
    assert _val("f(A[i,j]) -> d[] = det(A)", {"A": [[huge, 0.0], [0.0, tiny]]}, "f64") == huge * tiny
    with mpmath.workdps(30):
        A = np.array([[mpmath.mpf("1e-1000"), 0], [0, mpmath.mpf(1)]], dtype=object)
    from derive.verification.reference import OutOfRange
    with pytest.raises(OutOfRange):
        evaluate_text("f(A[i,j]) -> d[] = det(A)", {"A": A}, precision="mp")
