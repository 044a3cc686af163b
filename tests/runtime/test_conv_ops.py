"""The shipped convolutions and stencils (rules/conv.rules) against NumPy/SciPy/PyTorch, in every mode."""
import numpy as np
import pytest
import scipy.signal as scipy_signal

import generated.conv as G
import runtime
from runtime import tnp
from runtime.tangents import unthunk


def rng():
    return np.random.default_rng(7)


def correlate_channels(x, K):
    """y[o] = Σ_c correlate2d(x[c], K[o,c], 'valid'): SciPy's 2-D cross-correlation, channel by channel."""
    return np.stack([sum(scipy_signal.correlate2d(x[c], K[o, c], mode="valid") for c in range(x.shape[0]))
                     for o in range(K.shape[0])])


# -- values -------------------------------------------------------------------------------------------------


def test_conv1d_is_numpy_correlate_valid():
    r = rng()
    x, w = r.standard_normal(50), r.standard_normal(7)
    np.testing.assert_allclose(G.conv1d(x, w), np.correlate(x, w, "valid"), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("t", [11, 12])      # an odd and an even remainder
def test_strided_conv1d_is_every_second_valid_output(t):
    r = rng()
    x, w = r.standard_normal(t), r.standard_normal(4)
    np.testing.assert_allclose(G.conv1d_stride2(x, w), np.correlate(x, w, "valid")[::2], rtol=1e-12, atol=1e-12)


def test_conv2d_with_channels_is_scipy_correlate2d():
    r = rng()
    x, K = r.standard_normal((3, 9, 11)), r.standard_normal((4, 3, 2, 5))
    np.testing.assert_allclose(G.conv2d(x, K), correlate_channels(x, K), rtol=1e-12, atol=1e-12)


def test_conv2d_batch_and_depthwise():
    r = rng()
    x, K = r.standard_normal((2, 3, 8, 7)), r.standard_normal((5, 3, 3, 3))
    want = np.stack([correlate_channels(x[n], K) for n in range(2)])
    np.testing.assert_allclose(G.conv2d_batch(x, K), want, rtol=1e-12, atol=1e-12)
    Kd = r.standard_normal((3, 2, 4))
    want = np.stack([scipy_signal.correlate2d(x[0, c], Kd[c], mode="valid") for c in range(3)])
    np.testing.assert_allclose(G.depthwise_conv2d(x[0], Kd), want, rtol=1e-12, atol=1e-12)


def test_laplacian_stencil():
    u = rng().standard_normal((6, 9))
    want = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[1:-1, 1:-1]
    np.testing.assert_allclose(G.laplacian(u), want, rtol=1e-12, atol=1e-12)
    # the same stencil as SciPy's correlation with the 5-point kernel
    k = np.array([[0, 1, 0], [1, -4, 1], [0, 1, 0]], float)
    np.testing.assert_allclose(G.laplacian(u), scipy_signal.correlate2d(u, k, mode="valid"), atol=1e-12)


def test_same_padding_is_the_callers_np_pad():
    r = rng()
    x, K = r.standard_normal((2, 6, 6)), r.standard_normal((3, 2, 3, 3))
    y = G.conv2d(np.pad(x, ((0, 0), (1, 1), (1, 1))), K)
    want = np.stack([sum(scipy_signal.correlate2d(x[c], K[o, c], mode="same") for c in range(2))
                     for o in range(3)])
    np.testing.assert_allclose(y, want, rtol=1e-12, atol=1e-12)


def test_a_too_short_input_is_refused_with_the_op_and_extents():
    with pytest.raises(ValueError, match=r"conv1d: index 'i' has no valid position .*'x\[\.\.i\+k\.\.\]' needs "
                                         r"extent 5 along that axis, has 3"):
        G.conv1d(np.ones(3), np.ones(5))


def test_the_window_is_a_read_only_view():
    from runtime.shifts import window

    x = np.arange(10.0)
    v = window(x, ((((0, 2), (1, 1)), 1),), (4, 2))
    assert np.shares_memory(v, x) and not v.flags.writeable
    np.testing.assert_array_equal(v, [[x[2 * i + k + 1] for k in range(2)] for i in range(4)])
    with pytest.raises(ValueError, match="reads past the end"):
        window(x, ((((0, 2), (1, 1)), 1),), (5, 2))


# -- derivatives at a realistic size -------------------------------------------------------------------------


def _directional_fd(f, args, k, v, eps=1e-6):
    plus = list(args)
    minus = list(args)
    plus[k] = args[k] + eps * v
    minus[k] = args[k] - eps * v
    return (f(*plus) - f(*minus)) / (2 * eps)


def test_conv2d_batch_pullback_against_finite_differences_and_torch():
    r = rng()
    x, K = r.standard_normal((2, 16, 32, 32)), r.standard_normal((16, 16, 3, 3)) / 12
    y, pb = G.conv2d_batch_rrule(x, K)
    g = r.standard_normal(y.shape)
    _, dx, dK = (unthunk(a) for a in pb(g))

    def loss(x, K):
        return float(np.sum(G.conv2d_batch(x, K) * g))
    for k, grad in ((0, dx), (1, dK)):
        v = r.standard_normal(grad.shape)
        fd = _directional_fd(loss, (x, K), k, v)
        assert abs(np.sum(grad * v) - fd) <= 1e-7 * (abs(fd) + 1)
    torch = pytest.importorskip("torch")
    X = torch.tensor(x, requires_grad=True)
    KK = torch.tensor(K, requires_grad=True)
    torch.nn.functional.conv2d(X, KK).backward(torch.tensor(g))
    np.testing.assert_allclose(dx, X.grad.numpy(), rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(dK, KK.grad.numpy(), rtol=1e-10, atol=1e-10)


def test_strided_and_stencil_pullbacks_are_the_adjoints():
    r = rng()
    for f, args in ((G.conv1d_stride2, (r.standard_normal(64), r.standard_normal(5))),
                    (G.laplacian, (r.standard_normal((32, 33)),)),
                    (G.depthwise_conv2d, (r.standard_normal((16, 32, 32)), r.standard_normal((16, 3, 3))))):
        frule = getattr(G, f.__name__ + "_frule")
        rrule = getattr(G, f.__name__ + "_rrule")
        ts = [r.standard_normal(a.shape) for a in args]
        y, dy = frule((None, *ts), *args)
        g = r.standard_normal(np.shape(y))
        bars = [unthunk(b) for b in rrule(*args)[1](g)[1:]]
        lhs = np.sum(dy * g)
        rhs = sum(np.sum(b * t) for b, t in zip(bars, ts))
        assert abs(lhs - rhs) <= 1e-10 * (abs(lhs) + 1)


# -- the runtime: tape, forward mode, traced (higher order) ---------------------------------------------------


def test_grad_jvp_and_second_order_through_a_convolution():
    r = rng()
    x, w = r.standard_normal(20), r.standard_normal(4)

    def f(x):
        return tnp.sum(tnp.sin(G.conv1d_stride2(x, w)))

    def h(x):
        return tnp.sum(runtime.grad(f)(x) ** 2)
    v = r.standard_normal(20)
    _, dfv = runtime.jvp(f, (x,), (v,))
    assert abs(dfv - _directional_fd(f, (x,), 0, v)) < 1e-7
    assert abs(np.sum(runtime.grad(f)(x) * v) - dfv) < 1e-10
    # the pullback is itself differentiated: runtime.tnp's shift_window/shift_scatter are each other's transpose
    assert abs(np.sum(runtime.grad(h)(x) * v) - _directional_fd(h, (x,), 0, v)) < 1e-6


def test_torch_and_jax_bridges():
    torch = pytest.importorskip("torch")
    import runtime.torch as rt
    r = rng()
    x, K = r.standard_normal((2, 3, 7, 8)), r.standard_normal((4, 3, 3, 3))
    X = torch.tensor(x, requires_grad=True)
    KK = torch.tensor(K, requires_grad=True)
    (rt.conv2d_batch(X, KK) ** 2).sum().backward()
    X2 = torch.tensor(x, requires_grad=True)
    K2 = torch.tensor(K, requires_grad=True)
    (torch.nn.functional.conv2d(X2, K2) ** 2).sum().backward()
    np.testing.assert_allclose(X.grad.numpy(), X2.grad.numpy(), rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(KK.grad.numpy(), K2.grad.numpy(), rtol=1e-10, atol=1e-10)
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    import runtime.jax as rj
    s, w = r.standard_normal(13), r.standard_normal(3)
    before = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", True)
    try:
        gs = jax.jit(jax.grad(lambda s: jnp.sum(rj.conv1d_stride2(s, jnp.asarray(w)) ** 2)))(jnp.asarray(s))
    finally:
        jax.config.update("jax_enable_x64", before)
    y, pb = G.conv1d_stride2_rrule(s, w)
    np.testing.assert_allclose(np.asarray(gs), unthunk(pb(2 * y)[1]), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("native_mode", ["auto", "0"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_conv2d_batch_at_scale_in_both_modes_and_both_paths(monkeypatch, native_mode, dtype):
    """At a size where the window contractions run natively (runtime/contract_native.cpp, no im2col copy) and with
    them off: value, pushforward and both cotangents against SciPy's correlations and convolutions in float64."""
    from runtime import contract, native
    if native_mode == "auto" and not native.available()[0]:
        pytest.skip(f"native CPU kernels unavailable here: {native.available()[1]}")
    monkeypatch.setenv("TENSOR_RULES_NATIVE", native_mode)
    used = []
    real = contract._native
    monkeypatch.setattr(contract, "_native", lambda *a, **k: used.append(real(*a, **k)) or used[-1])
    r = rng()
    n, c, o, s, t = 4, 8, 6, 20, 22
    x, K = r.standard_normal((n, c, s, t)), r.standard_normal((o, c, 3, 3)) / 5
    g, tx, tK = r.standard_normal((n, o, s - 2, t - 2)), r.standard_normal(x.shape), r.standard_normal(K.shape) / 5
    y_ref = np.stack([correlate_channels(x[i], K) for i in range(n)])
    dy_ref = np.stack([correlate_channels(tx[i], K) + correlate_channels(x[i], tK) for i in range(n)])
    dx_ref = np.stack([[sum(scipy_signal.convolve2d(g[i, a], K[a, b], mode="full") for a in range(o))
                        for b in range(c)] for i in range(n)])
    dK_ref = np.stack([[sum(scipy_signal.correlate2d(x[i, b], g[i, a], mode="valid") for i in range(n))
                        for b in range(c)] for a in range(o)])
    X, KK, Gg, TX, TK = (v.astype(dtype) for v in (x, K, g, tx, tK))
    y, pb = G.conv2d_batch_rrule(X, KK)
    _, dx, dK = pb(Gg)
    y2, dy = G.conv2d_batch_frule((None, TX, TK), X, KK)
    tol = dict(rtol=1e-4, atol=1e-4) if dtype == np.float32 else dict(rtol=1e-11, atol=1e-11)
    for got, want in ((y, y_ref), (y2, y_ref), (dy, dy_ref), (unthunk(dx), dx_ref), (unthunk(dK), dK_ref)):
        assert got.dtype == dtype and got.shape == want.shape
        np.testing.assert_allclose(got, want, **tol)
    assert any(u is not None for u in used) == (native_mode == "auto")
