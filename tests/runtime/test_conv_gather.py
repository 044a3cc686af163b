"""The pullback of a stride-1 shifted read emitted as a gather (derive/emission/numpy_module.py: emit_gather): the cotangent
padded with zeros and read backwards, x̄[t] = Σ_k w[k]·ȳ₀[t-k+K-1]. Rules a user could write (dilated, offset,
two taps on one axis, a kernel longer than the output), against element loops written here from the rule's text,
and through the traced runtime (second order), PyTorch and JAX, whose views cannot go backwards."""

import numpy as np
import pytest

import runtime

RULES = {
    # name: (rule text, y[i] reads x at a·i + Σ b·k + c)
    "dil2": ("gdil2(x[t], w[k]) -> y[i] = sum(k, x[i+2*k] * w[k])", 1, (2,), 0),
    "off1": ("goff1(x[t], w[k]) -> y[i] = sum(k, x[i+k+1] * w[k])", 1, (1,), 1),
    "dil3off2": ("gdil3off2(x[t], w[k]) -> y[i] = sum(k, x[i+3*k+2] * w[k])", 1, (3,), 2),
}


def loops(x, w, b, c):
    """y and, for a cotangent g, x̄ and w̄ by element loops over the rule's own text."""
    n = len(x) - b * (len(w) - 1) - c
    y = np.array([sum(x[i + b * k + c] * w[k] for k in range(len(w))) for i in range(n)])

    def pullback(g):
        xb, wb = np.zeros_like(x), np.zeros_like(w)
        for i in range(n):
            for k in range(len(w)):
                xb[i + b * k + c] += g[i] * w[k]
                wb[k] += g[i] * x[i + b * k + c]
        return xb, wb
    return y, pullback


@pytest.mark.parametrize("key", sorted(RULES))
@pytest.mark.parametrize("t,k", [(17, 3), (9, 3), (40, 5)])
def test_1d_pullbacks_against_loops(define, key, t, k):
    text, _a, (b,), c = RULES[key]
    if t - b * (k - 1) - c < 1:
        pytest.skip("no valid output position")
    op = define(text)
    r = np.random.default_rng(t * 10 + k)
    x, w = r.standard_normal(t), r.standard_normal(k)
    y_ref, pb_ref = loops(x, w, b, c)
    np.testing.assert_allclose(op(x, w), y_ref, rtol=1e-12, atol=1e-12)
    g = r.standard_normal(len(y_ref))
    xb, wb = pb_ref(g)
    gx, gw = runtime.grad(lambda x, w: runtime.tnp.sum(op(x, w) * g), argnums=(0, 1))(x, w)
    np.testing.assert_allclose(gx, xb, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(gw, wb, rtol=1e-12, atol=1e-12)


def test_kernel_longer_than_the_output(define):
    """Two outputs, six taps: the padded cotangent is mostly zeros and every tap still lands where it should."""
    op = define("glong(x[t], w[k]) -> y[i] = sum(k, x[i+k] * w[k])")
    r = np.random.default_rng(1)
    x, w, g = r.standard_normal(7), r.standard_normal(6), r.standard_normal(2)
    xb, wb = loops(x, w, 1, 0)[1](g)
    gx, gw = runtime.grad(lambda x, w: runtime.tnp.sum(op(x, w) * g), argnums=(0, 1))(x, w)
    np.testing.assert_allclose(gx, xb, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(gw, wb, rtol=1e-12, atol=1e-12)


def test_two_taps_on_one_axis_and_batch(define):
    """y[n,h] = Σ_pq x[n,h+p+2q]·K[p,q]: one solved position, two taps of different strides, a batch index."""
    op = define("gtwo(x[n,t], K[p,q]) -> y[n,h] = sum(p, q, x[n,h+p+2*q] * K[p,q])")
    r = np.random.default_rng(2)
    x, K = r.standard_normal((3, 20)), r.standard_normal((3, 4))
    H = 20 - 2 - 6
    g = r.standard_normal((3, H))
    xb, Kb = np.zeros_like(x), np.zeros_like(K)
    for n in range(3):
        for h in range(H):
            for p in range(3):
                for q in range(4):
                    xb[n, h + p + 2 * q] += g[n, h] * K[p, q]
                    Kb[p, q] += g[n, h] * x[n, h + p + 2 * q]
    gx, gK = runtime.grad(lambda x, K: runtime.tnp.sum(op(x, K) * g), argnums=(0, 1))(x, K)
    np.testing.assert_allclose(gx, xb, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(gK, Kb, rtol=1e-12, atol=1e-12)


def test_second_order_through_the_gather(define):
    """grad of a function of the gradient: the traced runtime differentiates the backwards window (its transpose
    is a scatter with negative steps), against central differences."""
    op = define("gsec(x[t], w[k]) -> y[i] = sum(k, x[i+2*k] * w[k])")
    r = np.random.default_rng(3)
    x, w, v = r.standard_normal(15), r.standard_normal(3), r.standard_normal(15)

    def f(x):
        return runtime.tnp.sum(runtime.tnp.sin(op(x, w)))

    def h(x):
        return runtime.tnp.sum(runtime.grad(f)(x) ** 2)
    eps = 1e-5
    fd = (h(x + eps * v) - h(x - eps * v)) / (2 * eps)
    assert abs(np.sum(runtime.grad(h)(x) * v) - fd) < 1e-6 * max(1.0, abs(fd))


def test_torch_and_jax_read_the_padded_cotangent_backwards(define):
    """torch has no negative strides (its window becomes a gather) and JAX gathers anyway: both give the loops'
    cotangents for a dilated convolution."""
    torch = pytest.importorskip("torch")
    import runtime.torch as rt
    text = "gfw(x[t], w[k]) -> y[i] = sum(k, x[i+2*k] * w[k])"
    r = np.random.default_rng(4)
    x, w = r.standard_normal(19), r.standard_normal(4)
    y_ref, pb = loops(x, w, 2, 0)
    g = r.standard_normal(len(y_ref))
    xb, wb = pb(g)
    op = rt.define(text)
    X, W = torch.tensor(x, requires_grad=True), torch.tensor(w, requires_grad=True)
    (op(X, W) * torch.tensor(g)).sum().backward()
    np.testing.assert_allclose(X.grad.numpy(), xb, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(W.grad.numpy(), wb, rtol=1e-12, atol=1e-12)
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    import runtime.jax as rj
    before = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", True)
    try:
        jop = rj.define(text)
        gx, gw = jax.jit(jax.grad(lambda x, w: jnp.sum(jop(x, w) * jnp.asarray(g)), argnums=(0, 1)))(
            jnp.asarray(x), jnp.asarray(w))
    finally:
        jax.config.update("jax_enable_x64", before)
    np.testing.assert_allclose(np.asarray(gx), xb, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(np.asarray(gw), wb, rtol=1e-12, atol=1e-12)


def test_the_shipped_stride_one_convolutions_gather_and_the_strided_one_scatters():
    """What the benchmark's speed rests on: no product over every (position, tap) pair is built for a stride-1
    convolution's input cotangent (the padded cotangent is the only scatter), while x[2*i+k] keeps the scatter."""
    import generated.conv as G
    text = open(G.__file__).read()

    def rrule_source(name):
        start = text.index(f"    def {name}_rrule(")
        return text[start:text.index("\n    # ----", start)]
    for name in ("conv1d", "conv2d", "conv2d_batch", "depthwise_conv2d"):
        src = rrule_source(name)
        assert "np.shift_scatter(dy_," in src and "np.shift_scatter(np.einsum" not in src, name
        assert "-1),), (n_" in src, name           # the window reads the padded cotangent backwards
    assert "np.shift_scatter(((dy_" in rrule_source("conv1d_stride2")
