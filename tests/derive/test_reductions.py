"""max(k, e), min(k, e), prod(k, e): rules written as a user would, against NumPy and central finite differences,
in both modes (frule and rrule of the generated NumPy code), at ties and at zeros; misuse errors; display; CUDA."""
import json
import math

import numpy as np
import pytest

from derive import api
from derive.emission import cuda as codegen_cuda
from derive.language.errors import RuleError
from derive.verification import reference
from runtime import backend_numpy
from runtime.tangents import NoTangent

RULES = """\
rowmax(S[n,m]) -> y[n]:
    y[n] = max(m, S[n,m])
rowmin(S[n,m]) -> y[n] = min(m, S[n,m])
allmax(A[i,j]) -> y[] = max(i, j, A[i,j])
vprod(x[i]) -> y[] = prod(i, x[i])
rowprod(S[n,m]) -> y[n] = prod(m, 2 * S[n,m])
allprod(A[i,j]) -> y[] = prod(i, j, A[i,j])
lse(x[i]) -> y[] = log(sum(i, exp(x[i] - max(k, x[k])))) + max(k, x[k])
softmax(x[i]) -> y[i] = exp(x[i] - max(k, x[k])) / sum(j, exp(x[j] - max(k, x[k])))
rowmax_named(S[n,m]) -> m[n] = max(m, S[n,m])
pairmax(x[i], y[i]) -> z[i] = max(x[i], y[i]) + min(x[i], 0) + max(x[i], 0)
"""


@pytest.fixture(scope="module")
def results():
    rs = api.derive_text(RULES, "red.rules")
    bad = [(r.name, r.error or r.check) for r in rs if not r.ok]
    assert not bad, bad
    return {r.name: r for r in rs}


@pytest.fixture(scope="module")
def ops(results):
    ns: dict = {}
    exec(compile(api.render_module(list(results.values()), "red.rules", export=False), "red", "exec"), ns)
    return ns["_define"](backend_numpy)


def fd_jvp(f, xs, ts, h=1e-6):
    """Central finite difference of f along tangents ts (float64, plain NumPy)."""
    plus = f(*[x + h * t for x, t in zip(xs, ts)])
    minus = f(*[x - h * t for x, t in zip(xs, ts)])
    return (np.asarray(plus) - np.asarray(minus)) / (2 * h)


def frule(ops, name, xs, ts):
    return ops[name + "_frule"]((NoTangent(),) + tuple(ts), *xs)


def rrule(ops, name, xs, ybar):
    y, pb = ops[name + "_rrule"](*xs)
    return y, pb(ybar)[1:]


# -- values against NumPy, derivatives against finite differences, both modes ------------------------------------


@pytest.mark.parametrize("name,ref", [("rowmax", lambda S: np.max(S, axis=1)), ("rowmin", lambda S: np.min(S, axis=1)),
                                      ("rowmax_named", lambda S: np.max(S, axis=1)),
                                      ("allmax", np.max), ("vprod", np.prod),
                                      ("rowprod", lambda S: np.prod(2 * S, axis=1)), ("allprod", np.prod)])
def test_value_and_derivatives_at_random_points(ops, name, ref):
    rng = np.random.default_rng(3)
    shape = (4,) if name == "vprod" else (3, 5)
    x = rng.uniform(-1.5, 1.5, shape)
    np.testing.assert_allclose(ops[name](x), ref(x), rtol=1e-14)
    t = rng.standard_normal(shape)
    y, dy = frule(ops, name, [x], [t])
    np.testing.assert_allclose(y, ref(x), rtol=1e-14)
    np.testing.assert_allclose(dy, fd_jvp(ref, [x], [t]), rtol=1e-7, atol=1e-9)
    ybar = rng.standard_normal(np.shape(ref(x)))
    _, (xbar,) = rrule(ops, name, [x], ybar)
    # the adjoint identity against the finite-difference pushforward: <ȳ, J t> = <J^T ȳ, t>
    assert math.isclose(np.sum(ybar * fd_jvp(ref, [x], [t])), np.sum(xbar * t), rel_tol=1e-7, abs_tol=1e-9)


def test_row_max_ties_split_evenly_in_both_modes(ops):
    S = np.array([[1., 3., 3., 0.],
                  [2., 2., 2., 2.],
                  [5., 1., 0., 4.]])
    np.testing.assert_array_equal(ops["rowmax"](S), [3., 2., 5.])
    _, (Sbar,) = rrule(ops, "rowmax", [S], np.array([1., 2., 3.]))
    np.testing.assert_array_equal(Sbar, [[0, .5, .5, 0], [.5, .5, .5, .5], [3, 0, 0, 0]])
    T = np.arange(12.).reshape(3, 4)
    _, dy = frule(ops, "rowmax", [S], [T])
    np.testing.assert_array_equal(dy, [(1 + 2) / 2, (4 + 5 + 6 + 7) / 4, 8])


def test_min_ties_and_flat_split_over_several_indices(ops):
    S = np.array([[0., -1., 4.], [-1., -1., 2.]])
    _, (Sbar,) = rrule(ops, "rowmin", [S], np.array([1., 1.]))
    np.testing.assert_array_equal(Sbar, [[0, 1, 0], [.5, .5, 0]])
    # max over (i, j): three tied maxima in two rows share the cotangent equally (not per row first)
    A = np.array([[7., 7., 1.], [0., 7., 2.]])
    _, (Abar,) = rrule(ops, "allmax", [A], np.array(3.))
    np.testing.assert_array_equal(Abar, [[1, 1, 0], [0, 1, 0]])
    _, dy = frule(ops, "allmax", [A], [np.array([[1., 2., 100.], [100., 6., 100.]])])
    assert dy == 3.0


@pytest.mark.parametrize("x,grad", [
    ([1.5, 2., 3.], [6., 4.5, 3.]),
    ([2., 0., 3., 4.], [0., 24., 0., 0.]),       # one zero: only its own partial survives, Π of the others
    ([2., 0., 3., 0.], [0., 0., 0., 0.]),        # two zeros: every partial keeps a zero factor
    ([0., 0.], [0., 0.]),
    ([0., 5.], [5., 0.]),
])
def test_prod_gradient_at_zeros_by_hand(ops, x, grad):
    x = np.array(x)
    y, (xbar,) = rrule(ops, "vprod", [x], np.array(1.0))
    assert y == np.prod(x)
    np.testing.assert_array_equal(xbar, grad)
    assert np.all(np.isfinite(xbar))
    # pushforward: the same partials (exact), and the finite difference along each axis
    for k in range(len(x)):
        e = np.eye(len(x))[k]
        _, dy = frule(ops, "vprod", [x], [e])
        assert dy == grad[k]
        assert math.isclose(fd_jvp(np.prod, [x], [e]), grad[k], abs_tol=1e-9)


def test_prod_over_rows_at_zeros(ops):
    S = np.array([[1., 0., 2.], [0., 0., 3.], [1., 2., 3.]])
    _, (Sbar,) = rrule(ops, "rowprod", [S], np.array([1., 1., 1.]))
    # y[n] = Π_m 2·S[n,m]: ∂y/∂S[n,m] = 2·Π_{m'≠m} 2·S[n,m']
    np.testing.assert_array_equal(Sbar, [[0, 2 * 2 * 4, 0], [0, 0, 0], [2 * 4 * 6, 2 * 2 * 6, 2 * 2 * 4]])
    A = np.array([[2., 0.], [3., 5.]])
    _, (Abar,) = rrule(ops, "allprod", [A], np.array(1.))
    np.testing.assert_array_equal(Abar, [[0, 30], [0, 0]])


def test_logsumexp_shifted_by_max_matches_hand_math(ops):
    for x in ([0.1, -0.3, 0.7], [1000., 999., 998.], [-1000., -1001., -1000.], [2., 2., 2.]):
        x = np.array(x)
        m = max(x)
        want = m + math.log(math.fsum(math.exp(v - m) for v in x))
        assert math.isclose(ops["lse"](x), want, rel_tol=1e-15)
        # the shift cancels in the derivative: the gradient is the softmax, ties or not
        soft = np.array([math.exp(v - want) for v in x])
        _, (xbar,) = rrule(ops, "lse", [x], np.array(1.0))
        np.testing.assert_allclose(xbar, soft, rtol=1e-13, atol=1e-16)
        _, dy = frule(ops, "lse", [x], [np.ones_like(x)])
        assert math.isclose(dy, 1.0, rel_tol=1e-13)
        y = ops["softmax"](x)
        np.testing.assert_allclose(y, soft, rtol=1e-13)


def test_elementwise_max_and_min_of_two_values_still_work(ops):
    x, y = np.array([-1., 2., 0.5]), np.array([0., 1., 3.])
    np.testing.assert_array_equal(ops["pairmax"](x, y), np.maximum(x, y) + np.minimum(x, 0) + np.maximum(x, 0))


# -- generated code: vectorised, no division in prod's partials -------------------------------------------------


def test_generated_numpy_is_vectorised(results):
    code = results["rowmax"].code.functions
    assert "np.max(S, axis=1)" in code and "for " not in code
    code = results["vprod"].code.functions
    assert "np.prod(x, axis=0)" in code and "np.others_product(x, axis=0)" in code and "/" not in code


def test_others_product_matches_the_product_of_the_others():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 5, 4))
    x[1, 2, :] = 0.0
    x[0, 1, 1] = 0.0
    got = backend_numpy.others_product(x, 1)
    want = np.stack([np.prod(np.delete(x, k, axis=1), axis=1) for k in range(5)], axis=1)
    np.testing.assert_allclose(got, want, rtol=1e-14, atol=0)


# -- the reference evaluator reads reductions as the compiler does -----------------------------------------------


def test_reference_evaluates_reductions():
    S = np.array([[1., 3., 3., 0.], [5., 1., 0., 4.]])
    out = reference.evaluate_text("f(S[n,m]) -> (a[n], b[], c[n]):\n    a[n] = max(m, S[n,m])\n"
                                  "    b[] = min(n, m, S[n,m])\n    c[n] = prod(m, S[n,m] + 1)\n", {"S": S})
    np.testing.assert_array_equal(np.array(out["a"], float), [3., 5.])
    assert float(out["b"]) == 0.0
    np.testing.assert_array_equal(np.array(out["c"], float), np.prod(S + 1, axis=1))


# -- display -----------------------------------------------------------------------------------------------------


def test_display_shows_products_of_the_others(results):
    assert results["vprod"].pullback_text() == "dx[i] = Π_i′≠i(x[i′])·dy"
    assert r"\prod_{i' \neq i} x_{i'}" in results["vprod"].pullback_text("latex")


# -- misuse: positioned errors that say what to write --------------------------------------------------------------


def err(text):
    with pytest.raises(RuleError) as e:
        api.derive_text(text, "bad.rules")
    return str(e.value)


def test_max_without_a_body():
    msg = err("f(x[i]) -> y[] = max(i)\n")
    assert msg.splitlines()[0] == ("bad.rules:1:18: error: in rule 'f': max(i) has nothing to reduce; write "
                                   "max(k, expr) for the max of expr over index k, or max(a, b) for the larger "
                                   "of two values")
    assert msg.splitlines()[2] == "                     ^^^"


def test_prod_with_a_number_for_its_index():
    msg = err("f(x[i]) -> y[] = prod(3, x[i])\n")
    assert msg.startswith("bad.rules:1:23: error: in rule 'f': prod's leading arguments must be index names: "
                          "prod(k, expr) reduces expr over k")


def test_reduced_index_on_the_left():
    msg = err("f(x[i]) -> y[i] = max(i, x[i])\n")
    assert msg.startswith("bad.rules:1:14: error: in rule 'f': index 'i' on the left is bound nowhere on the "
                          "right: a reduction over 'i' (max, min or prod) leaves no axis 'i' in its result; drop "
                          "'i' from the left side, or reduce over another index")


def test_reduced_index_the_body_does_not_use():
    msg = err("f(x[i], w[k]) -> y[i] = min(k, x[i]) + 0 * sum(k, w[k])\n")
    assert "bad.rules:1:29:" in msg and ("unknown name 'k'; min(a, b) of two values needs 'k' to be an input, and "
                                         "min(k, expr) reduces over index 'k' only where expr uses it") in msg
    msg = err("f(A[i,j]) -> y[] = max(k, j, A[j,j])\n")
    assert "bad.rules:1:24:" in msg and "index 'k' does not occur in the expression max() reduces" in msg


def test_three_arguments_need_index_names():
    msg = err("f(x[i]) -> y[] = max(x[i], 2, x[i])\n")
    assert "bad.rules:1:22:" in msg and "max's leading arguments must be index names" in msg


# -- CUDA: reductions get kernels (derive/emission/cuda_reductions.py; numbers in tests/codegen/test_cuda_reductions.py) -------


def test_cuda_plan_has_kernels_for_reductions(results):
    files = codegen_cuda.generate_cuda([results["vprod"], results["pairmax"]], "red.rules")
    plan = json.loads(files["red.json"])
    assert list(plan["ops"]) == ["vprod", "pairmax"] and plan["unsupported"] == {}
    ops = [s.get("op") for s in plan["ops"]["vprod"]["programs"]["forward"]["steps"]]
    assert ops == [None, "prod"]              # the output filled with 1, then the product combined into it
