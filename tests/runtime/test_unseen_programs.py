"""Programs no other test composes, each once a bug: checked against finite differences or plain NumPy."""
import numpy as np
import pytest
from numdiff import assert_close, fd_grad, fd_jvp

import generated
import runtime.rule_cache as define_mod
from runtime import define, grad, jvp, tnp, value_and_grad, vjp

rng = np.random.default_rng(11)


def SPD(n):
    a = rng.standard_normal((n, n))
    return a @ a.T + n * np.eye(n)


@pytest.fixture
def fresh_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("TENSOR_RULES_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(define_mod, "_MEMO", {})


def test_cholesky_jvp_and_vjp_are_adjoint_for_an_asymmetric_tangent():
    # both live on symmetric matrices: an asymmetric tangent acts through its symmetric part
    A, V, W = SPD(3), rng.standard_normal((3, 3)), rng.standard_normal((3, 3))
    _, dL = jvp(tnp.linalg.cholesky, (A,), (V,))
    _, back = vjp(tnp.linalg.cholesky, A)
    (gA,) = back(W)
    assert np.isclose(np.sum(W * dL), np.sum(gA * V), rtol=1e-10)
    assert_close(dL, fd_jvp(np.linalg.cholesky, (A,), ((V + V.T) / 2,)), rtol=1e-5, atol=1e-7)


def test_python_base_to_a_float32_power_keeps_float32():
    x = rng.standard_normal(4).astype(np.float32)
    f = lambda x: tnp.sum(0.5 ** x + 3 ** x)  # noqa: E731
    g = grad(f)(x)
    _, dy = jvp(lambda x: 0.5 ** x, (x,), (np.ones_like(x),))
    assert g.dtype == np.float32 and dy.dtype == np.float32
    x64 = x.astype(np.float64)
    assert_close(g, fd_grad(lambda v: np.sum(0.5 ** v + 3.0 ** v), x64), rtol=1e-5)
    assert_close(dy, np.log(0.5) * 0.5 ** x64, rtol=1e-5)


def test_float32_leaf_mixed_with_float64_data_gets_a_float32_gradient():
    x, C = rng.standard_normal((3, 3)).astype(np.float32), rng.standard_normal((3, 3))
    f = lambda x: tnp.sum(generated.tanh(x) @ C)  # noqa: E731  (the float64 C promotes the product)
    g = grad(f)(x)
    assert g.dtype == np.float32
    assert_close(g, fd_grad(lambda v: np.sum(np.tanh(v) @ C), x.astype(np.float64)), rtol=1e-4, atol=1e-5)
    # a pytree keeps each leaf's own dtype, and nested differentiation too
    g32, g64 = grad(lambda p: tnp.sum(p[0] * p[1]))((x, C))
    assert g32.dtype == np.float32 and g64.dtype == np.float64
    h = grad(lambda x: tnp.sum(grad(lambda z: tnp.sum(z * z * C))(x) * C))(x)
    assert h.dtype == np.float32
    assert_close(h, 2 * C * C, rtol=1e-6)
    # forward mode: the tangent of a float32 output is float32 even for a float64 input tangent
    y, dy = jvp(generated.tanh, (x,), (np.ones((3, 3)),))
    assert y.dtype == np.float32 and dy.dtype == np.float32


def test_define_with_sqrt_of_a_size_keeps_float32(fresh_cache):
    attn = define("""attn(Q[i,d], K[j,d], V[j,e]) -> O[i,e]:
    S[i,j] = Q[i,d] * K[j,d] / sqrt(size(d))
    P[i,j] = exp(S[i,j] - log(sum(k, exp(S[i,k]))))
    O[i,e] = P[i,j] * V[j,e]
""")
    Q, K, V = (rng.standard_normal(s).astype(np.float32) for s in ((3, 2), (4, 2), (4, 5)))

    def reference(Q, K, V):
        S = Q @ K.T / np.sqrt(Q.shape[1])
        P = np.exp(S - S.max(axis=1, keepdims=True))
        return (P / P.sum(axis=1, keepdims=True)) @ V

    O = attn(Q, K, V)
    assert O.dtype == np.float32
    assert_close(O, reference(*(a.astype(np.float64) for a in (Q, K, V))), rtol=1e-5, atol=1e-6)
    gQ = grad(lambda q: tnp.sum(attn(q, K, V) ** 2))(Q)
    assert gQ.dtype == np.float32
    ref = fd_grad(lambda q: np.sum(reference(q, K.astype(np.float64), V.astype(np.float64)) ** 2), Q)
    assert_close(gQ, ref, rtol=1e-4, atol=1e-5)
    assert jvp(attn, (Q, K, V), (Q, K, V))[1].dtype == np.float32


def test_logsumexp_and_softmax_of_an_empty_vector():
    x = np.zeros(0)
    with np.errstate(divide="ignore"):
        v, g = value_and_grad(generated.logsumexp)(x)
        y, dy = jvp(generated.logsumexp, (x,), (x,))
        assert generated.softmax(x).shape == (0,)
    assert v == -np.inf and y == -np.inf and g.shape == (0,)  # log(Σ over nothing) = log 0, as NumPy says


@pytest.mark.parametrize("n", [0, 1, 2, 3])
def test_power_derivative_at_zero_including_n_zero(n):
    x = np.array([0.0, 1.5])
    expected = np.array([float(n == 1), n * 1.5 ** (n - 1)])  # d/dx x⁰ = 0 everywhere, also at 0
    assert_close(grad(lambda x: tnp.sum(generated.power(x, n)))(x), expected)
    assert_close(jvp(lambda x: generated.power(x, n), (x,), (np.ones(2),))[1], expected)


def test_polynomial_through_power_has_a_finite_gradient_at_zero():
    c = rng.standard_normal(4)
    poly = lambda x: tnp.sum(sum(c[k] * generated.power(x, k) for k in range(4)))  # noqa: E731
    x = np.array([0.0, 0.3, -1.2])
    ref = fd_grad(lambda v: np.sum(sum(c[k] * v ** k for k in range(4))), x)
    assert_close(grad(poly)(x), ref, rtol=1e-6, atol=1e-8)
    hv = jvp(grad(poly), (x,), (np.ones(3),))[1]
    assert_close(hv, 2 * c[2] + 6 * c[3] * x, rtol=1e-6, atol=1e-8)


def test_define_with_a_symbolic_exponent_that_is_never_zero(fresh_cache):
    # d/dx s ** (1/p) puts 1/p in an exponent guard that SymPy decides (1/p is never 0)
    pnorm = define("pnorm(x[i], p) -> y[] = sum(i, abs(x[i]) ** p) ** (1 / p)")
    x = rng.uniform(0.5, 1.5, 4)

    def reference(x, p):
        return np.sum(np.abs(x) ** p) ** (1 / p)

    assert_close(pnorm(x, 2.5), reference(x, 2.5), rtol=1e-12)
    gx, gp = grad(pnorm, (0, 1))(x, 2.5)
    assert_close(gx, fd_grad(lambda v: reference(v, 2.5), x), rtol=1e-6)
    assert_close(gp, fd_grad(lambda q: reference(x, float(q)), 2.5), rtol=1e-6)


def test_argnums_beyond_the_arguments_is_a_clear_error():
    with pytest.raises(TypeError, match=r"grad: argnums=1 but loss was called with 1 positional argument"):
        def loss(x):
            return tnp.sum(x)
        grad(loss, argnums=1)(np.ones(3))


def test_prod_with_zero_factors_has_finite_first_and_second_derivatives():
    # ∂ prod / ∂x_j = Π_{k≠j} x_k was computed as prod / x_j: 0 / 0 = nan at every zero factor
    def f(x):
        return tnp.sum(tnp.prod(x, axis=-1) * np.array([1.0, -2.0, 0.5]))

    def f_np(x):
        return np.sum(np.prod(x, axis=-1) * np.array([1.0, -2.0, 0.5]))

    X = np.array([[0.0, 2.0, 3.0], [0.0, 0.0, 1.5], [0.0, 0.0, 0.0]])  # one, two, three zeros in a row
    assert_close(grad(f)(X), np.array([[6.0, 0, 0], [0, 0, 0], [0, 0, 0]]))
    for V in (np.eye(9)[k].reshape(3, 3) for k in range(9)):  # Hessian columns, both ways, against differences
        ref = fd_jvp(grad(f), (X,), (V,))
        assert_close(jvp(grad(f), (X,), (V,))[1], ref, rtol=1e-6, atol=1e-8)
        assert_close(grad(lambda x: tnp.sum(grad(f)(x) * V))(X), ref, rtol=1e-6, atol=1e-8)
    assert_close(grad(f)(X), fd_grad(f_np, X), atol=1e-8)
    assert grad(f)(X.astype(np.float32)).dtype == np.float32


def test_power_mixed_second_derivative_at_a_zero_exponent():
    # d/dy d/dx x**y = x**(y-1) (1 + y log x) = 1/x at y = 0; the x**0 guard froze y's dependence there
    x, y = np.array([2.75, 0.5]), np.array([0.0, 0.0])
    dxdy = grad(lambda y: tnp.sum(grad(lambda x: tnp.sum(x ** y))(x)))(y)
    assert_close(dxdy, 1 / x)
    assert_close(jvp(lambda y: grad(lambda x: tnp.sum(x ** y))(x), (y,), (np.ones(2),))[1], 1 / x)
    assert_close(grad(lambda x: tnp.sum(x ** y))(np.array([0.0, 2.0])), [0.0, 0.0])  # x = 0 stays finite


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_gradient_of_a_0d_array_is_a_writeable_0d_array(dtype):
    # NumPy reduces 0-d arithmetic to scalars; a 0-d array in must still give an array out, like any other shape
    x = np.array(0.3, dtype=dtype)
    g = grad(lambda x: generated.tanh(x) * 2.0)(x)
    (gv,) = vjp(lambda x: tnp.sin(x), x)[1](np.array(1.0, dtype=dtype))
    for d in (g, gv):
        assert type(d) is np.ndarray and d.shape == () and d.dtype == dtype
        d[...] = 0.0
    assert type(grad(lambda x: x * 2.0)(0.3)) is float  # a Python float in, a Python float out


@pytest.mark.parametrize("fn, value", [("softplus", np.log1p(np.exp(0.5))), ("relu", 0.5), ("step", 1.0)])
def test_define_a_constant_call_of_softplus_relu_step_as_a_factor(fresh_cache, fn, value):
    # softplus(0.5) is a number, but SymPy could not evaluate it: the emitter's float() raised an internal error
    op = define(f"scale_{fn}(x[i]) -> y[i] = x[i] * {fn}(0.5)")
    x = np.array([1.0, -2.0, 0.5])
    assert_close(op(x), value * x)
    assert_close(grad(lambda x: tnp.sum(op(x) * x))(x), 2 * value * x)
    assert op(x.astype(np.float32)).dtype == np.float32


def test_define_several_outputs_one_of_them_constant(fresh_cache):
    # the constant output's tangent is a ZeroTangent: verification flattened the tuple of tangents with
    # np.concatenate and failed ("zero-dimensional arrays cannot be concatenated"), so the rule was rejected
    op = define("const_and_sum(x[i]) -> (c[], s[]):\n    c[] = 1.5\n    s[] = 2 * sum(i, x[i])\n")
    x = np.array([1.0, 2.0, 3.0])
    c, s = op(x)
    assert_close(c, 1.5)
    assert_close(s, 12.0)
    (_, ds) = jvp(op, (x,), (np.ones(3),))[1]
    assert_close(ds, 6.0)
    assert_close(grad(lambda x: op(x)[0] * 3 + op(x)[1] ** 2)(x), 4 * s * np.ones(3))  # d(s²) = 2s·2


def test_define_a_statement_whose_terms_in_an_index_cancel(fresh_cache):
    # SymPy simplifies x[i] - (y[j] + x[i]) to -y[j]: the target's i was then reported as "summed over on the
    # right" and the valid rule rejected; the value is constant along i and is broadcast
    op = define("cancel(x[i], y[j]) -> t1[i,j]:\n    t0[i,j] = x[i] - (y[j] + x[i])\n    t1[i,j] = t0[i,j] * x[i]\n")
    x, y = np.array([1.0, 2.0, 3.0]), np.array([0.5, -1.0, 2.0, 4.0])
    assert_close(op(x, y), -np.outer(x, y))
    gx, gy = grad(lambda x, y: tnp.sum(op(x, y) ** 2), argnums=(0, 1))(x, y)
    assert_close(gx, 2 * x * np.sum(y * y))
    assert_close(gy, 2 * y * np.sum(x * x))
    zero = define("zero_along_i(x[i], a: scalar) -> out[i] = erf(x[i]) * (a - a) + a")
    assert_close(zero(x, 0.25), np.full(3, 0.25))
    assert_close(grad(lambda a: tnp.sum(zero(x, a)))(0.25), 3.0)
    # an output that cancels to a constant is made in the working dtype, like any other output
    vanish = define("vanish(x[i], y[j]) -> out[i,j] = (x[i] - x[i]) * y[j]")
    out = vanish(x.astype(np.float32), y.astype(np.float32))
    assert out.dtype == np.float32 and out.shape == (3, 4) and not out.any()
