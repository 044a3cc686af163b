"""NumPy's batch convention in the rule language (issue 12, part 4a): matrix functions act on the last two
indices of their argument and leading indices are batch indices, as in np.linalg. Expected values come from
np.linalg (natively batched over leading axes) and from central finite differences."""
import textwrap

import numpy as np
import pytest

from derive import api
from derive.language.errors import RuleError
from runtime import backend_numpy


def compiled(text):
    """{name: function} of the rules in text, derived, verified and compiled (forward, _frule, _rrule)."""
    results = api.derive_text(text, "<batch-first>")
    assert all(r.ok for r in results), [(r.name, r.error, r.check and r.check.problems) for r in results]
    ns: dict = {}
    exec(api.render_module(results, "<batch-first>", export=False), ns)
    return ns["_define"](backend_numpy)


def wellcond(rng, shape):
    n = shape[-1]
    return rng.standard_normal(shape) * 0.3 + n * np.eye(n)


def central(f, x, dx, h=1e-6):
    return (f(x + h * dx) - f(x - h * dx)) / (2 * h)


def test_batch_first_inverse_against_numpy_and_finite_differences():
    # before: "indices b and i must have equal extents" (inv read A[b,i,j]'s first two indices as the matrix)
    fns = compiled("binv(A[b,i,j]) -> B[b,i,j] = inv(A[b,i,j])")
    rng = np.random.default_rng(0)
    A = wellcond(rng, (5, 3, 3))
    np.testing.assert_allclose(fns["binv"](A), np.linalg.inv(A), rtol=1e-13)
    dA = rng.standard_normal(A.shape)
    y, dy = fns["binv_frule"]((None, dA), A)
    np.testing.assert_allclose(dy, central(np.linalg.inv, A, dA), rtol=1e-7, atol=1e-9)
    _, pb = fns["binv_rrule"](A)
    Bbar = rng.standard_normal(A.shape)
    gA = np.asarray(pb(Bbar)[1])
    assert gA.shape == A.shape
    np.testing.assert_allclose(np.sum(gA * dA), np.sum(Bbar * dy), rtol=1e-12)


def test_batch_first_solve_det_eigvalsh_and_transpose_against_numpy():
    fns = compiled(textwrap.dedent("""\
        bsolve(A[b,i,j], Y[b,j,k]) -> X[b,i,k] = solve(A[b,i,j], Y[b,j,k])
        bsolvev(A[b,i,j], y[b,j]) -> x[b,i] = solve(A[b,i,j], y[b,j])
        bdet(A[b,i,j]) -> d[b] = det(A[b,i,j])
        beig(A[b,i,j]: symmetric) -> w[b,i] = eigvalsh(A[b,i,j])
        btr(A[b,i,j]) -> T[b,j,i] = transpose(A[b,i,j])
        two(A[c,b,i,j]) -> d[c,b] = logdet(A[c,b,i,j])
    """))
    rng = np.random.default_rng(1)
    A, Y, y = wellcond(rng, (4, 3, 3)), rng.standard_normal((4, 3, 2)), rng.standard_normal((4, 3))
    np.testing.assert_allclose(fns["bsolve"](A, Y), np.linalg.solve(A, Y), rtol=1e-12)
    np.testing.assert_allclose(fns["bsolvev"](A, y), np.linalg.solve(A, y[..., None])[..., 0], rtol=1e-12)
    np.testing.assert_allclose(fns["bdet"](A), np.linalg.det(A), rtol=1e-12)
    S = A + np.swapaxes(A, -1, -2)
    np.testing.assert_allclose(fns["beig"](S), np.linalg.eigvalsh(S), rtol=1e-12)
    np.testing.assert_allclose(fns["btr"](A), np.swapaxes(A, -1, -2), rtol=0)
    A2 = wellcond(rng, (2, 4, 3, 3))
    np.testing.assert_allclose(fns["two"](A2), np.linalg.slogdet(A2)[1], rtol=1e-12)


def test_an_output_that_permutes_a_primitive_result_is_not_aliased_to_it():
    # `M[i,j,b] = inv(A[b,i,j])` was emitted as M = inv(A) (the result's axes unpermuted) and failed verification
    fns = compiled("f(A[b,i,j]) -> M[i,j,b] = inv(A[b,i,j])")
    A = wellcond(np.random.default_rng(2), (2, 3, 3))
    np.testing.assert_allclose(fns["f"](A), np.moveaxis(np.linalg.inv(A), 0, -1), rtol=1e-13)


def test_declared_spd_makes_the_last_two_indices_square():
    with pytest.raises(RuleError) as e:
        api.derive_text("f(S[b:2, i:3, j:4]: spd) -> y[b] = logdet(S[b,i,j])", "<t>", verify_rules=False)
    assert "is square" in str(e.value), str(e.value)
    (r,) = api.derive_text("f(S[b:2, i:3, j:3]: spd) -> y[b] = logdet(S[b,i,j])", "<t>")
    assert r.ok, r.check.problems


def test_a_matrix_function_of_a_vector_says_where_the_matrix_axes_are():
    with pytest.raises(RuleError) as e:
        api.derive_text("f(x[i]) -> y[i] = inv(x[i])", "<t>", verify_rules=False)
    assert "batch indices, then 2 matrix indices" in str(e.value), str(e.value)


def test_a_left_side_index_repeated_inside_a_matrix_functions_argument_is_not_summed():
    # the reference evaluator summed b inside logdet's argument (b appears twice there), while the lowering keeps
    # left-side indices free everywhere in the statement (docs: Summation): the rule failed verification
    fns = compiled("f(X[b,k,i]) -> y[b] = logdet(X[b,k,i] * X[b,k,j])")
    X = np.random.default_rng(3).standard_normal((5, 4, 3))
    np.testing.assert_allclose(fns["f"](X), np.linalg.slogdet(np.swapaxes(X, -1, -2) @ X)[1], rtol=1e-12)


def test_a_batched_expression_argument_keeps_its_tensors_axis_order():
    """inv(delta(i,j) - A[b,i,j]) inverts I - A for each b (as np.linalg does), not the matrix over (j, b) that
    the order in which delta names i and j first would give."""
    from derive.verification import verify
    (r,) = api.derive_text("c(A[b,i,j]) -> Q[b,i,j] = inv(delta(i,j) - A[b,i,j])", "<t>")
    assert r.ok, r.check.problems
    ns: dict = {}
    exec(api.render_module([r], "<t>", export=False), ns)
    A = np.random.default_rng(1).normal(size=(2, 3, 3)) * 0.3
    np.testing.assert_allclose(verify.load(ns)["c"](A), np.linalg.inv(np.eye(3) - A), rtol=1e-12)
