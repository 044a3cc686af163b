"""Rules with max/prod reductions through the runtime: define(), grad, jvp, vjp, second derivatives (the traced
namespace, runtime.tnp), and the torch and JAX bridges; expected values by hand and from NumPy."""
import numpy as np
import pytest

import runtime
from runtime import backend_numpy, tnp


@pytest.fixture(scope="module")
def ops(tmp_path_factory):
    import os

    old = os.environ.get("TENSOR_RULES_CACHE")
    os.environ["TENSOR_RULES_CACHE"] = str(tmp_path_factory.mktemp("cache"))
    try:
        yield {
            "rowmax": runtime.define("rowmax(S[n,m]) -> m[n] = max(m, S[n,m])"),
            "vprod": runtime.define("vprod(x[i]) -> y[] = prod(i, x[i])"),
        }
    finally:
        if old is None:
            os.environ.pop("TENSOR_RULES_CACHE", None)
        else:
            os.environ["TENSOR_RULES_CACHE"] = old


def test_grad_jvp_vjp_of_a_row_max(ops):
    S = np.array([[1., 3., 3.], [4., 0., 2.]])
    f = ops["rowmax"]
    np.testing.assert_array_equal(f(S), np.max(S, axis=1))
    y, pb = runtime.vjp(f, S)
    np.testing.assert_array_equal(pb(np.array([2., 1.]))[0], [[0, 1, 1], [1, 0, 0]])
    y, dy = runtime.jvp(f, (S,), (np.array([[5., 1., 3.], [7., 9., 9.]]),))
    np.testing.assert_array_equal(dy, [2., 7.])
    g = runtime.grad(lambda S: tnp.sum(f(S) * np.array([1., 10.])))(S)
    np.testing.assert_array_equal(g, [[0, .5, .5], [10, 0, 0]])


@pytest.mark.parametrize("x,g,H", [
    # y = x0·x1·x2·x3 at one zero (x1 = 0): ∂y = Π others; ∂²y/∂xi∂xj = Π of the two others' complement
    ([2., 0., 3., 4.], [0., 24., 0., 0.], [[0, 12, 0, 0], [12, 0, 8, 6], [0, 8, 0, 0], [0, 6, 0, 0]]),
    # two zeros (x1 = x3 = 0): the gradient vanishes; only ∂²y/∂x1∂x3 = x0·x2 survives
    ([2., 0., 3., 0.], [0., 0., 0., 0.], [[0, 0, 0, 0], [0, 0, 0, 6], [0, 0, 0, 0], [0, 6, 0, 0]]),
])
def test_prod_gradient_and_hessian_at_zeros(ops, x, g, H):
    f, x = ops["vprod"], np.array(x)
    np.testing.assert_array_equal(runtime.grad(f)(x), g)
    hess = np.stack([runtime.grad(lambda z, k=k: runtime.grad(f)(z)[k])(x) for k in range(4)])
    np.testing.assert_array_equal(hess, H)
    _, dy = runtime.jvp(f, (x,), (np.ones(4),))
    assert dy == sum(g)


def test_traced_others_product_matches_numpy():
    x = np.array([[2., 0., 3.], [1., 4., 5.]])
    np.testing.assert_array_equal(tnp.others_product(x, 1), backend_numpy.others_product(x, 1))
    np.testing.assert_array_equal(tnp.others_product(x, 0), backend_numpy.others_product(x, 0))


def test_torch_bridge(ops):
    torch = pytest.importorskip("torch")
    import runtime.torch as rt

    p = rt.define("vprod(x[i]) -> y[] = prod(i, x[i])")
    x = torch.tensor([2., 0., 3., 4.], dtype=torch.float64, requires_grad=True)
    p(x).backward()
    assert x.grad.tolist() == [0., 24., 0., 0.]
    m = rt.define("vmax(x[i]) -> y[] = max(i, x[i])")
    x = torch.tensor([1., 3., 3., 2.], dtype=torch.float64, requires_grad=True)
    m(x).backward()
    assert x.grad.tolist() == [0., .5, .5, 0.]


def test_jax_bridge(ops):
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    import runtime.jax as rj

    before = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", True)
    try:
        p = rj.define("vprod(x[i]) -> y[] = prod(i, x[i])")
        x = jnp.array([2., 0., 3., 4.], dtype=jnp.float64)
        assert np.asarray(jax.grad(p)(x)).tolist() == [0., 24., 0., 0.]
        np.testing.assert_array_equal(np.asarray(jax.hessian(p)(x)),
                                      [[0, 12, 0, 0], [12, 0, 8, 6], [0, 8, 0, 0], [0, 6, 0, 0]])
    finally:
        jax.config.update("jax_enable_x64", before)
