"""Adversarial checks of the native window contraction (runtime/contract.py + contract_native.cpp) and of the
gather form of a stride-1 shifted read's pullback (derive/emission/numpy_module.py emit_gather), with programs no other test
uses: rules written with runtime.define (dilation and offsets together, two shifted reads of one tensor, tanh of a
shifted read, a factor depending on the output position, a diagonal kernel, output extents of 1), odd input
layouts (Fortran order, negative strides, broadcast zero strides, read-only, misaligned buffers), odd cotangents,
several Python threads at once, and a fork after the library ran. Every expected value comes from PyTorch's
convolutions and autograd, SciPy, or element loops written here from the rule's text; each check runs with the
native path forced (TENSOR_RULES_NATIVE=1) and off (=0), at sizes where the default mode takes it too."""
import multiprocessing
import os
import threading

import numpy as np
import pytest
import scipy.signal as scipy_signal

import runtime
from runtime import contract, native, shifts, tnp

torch = pytest.importorskip("torch")
F = torch.nn.functional


@pytest.fixture(params=["1", "0"])
def mode(request, monkeypatch):
    """The native path forced for every size, and off."""
    monkeypatch.setenv("TENSOR_RULES_NATIVE", request.param)
    return request.param


def close(got, want, tol=1e-10):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    scale = max(1.0, float(np.abs(want).max())) if want.size else 1.0
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * scale)


def torch_pullback(fn, args, g):
    """fn's value and its cotangents for cotangent g, by PyTorch autograd in float64."""
    ts = [torch.tensor(np.ascontiguousarray(a), dtype=torch.float64, requires_grad=True) for a in args]
    y = fn(*ts)
    grads = torch.autograd.grad((y * torch.tensor(np.ascontiguousarray(g), dtype=torch.float64)).sum(), ts)
    return y.detach().numpy(), [t.numpy() for t in grads]


def pullback(op, args, g):
    return runtime.grad(lambda *a: tnp.sum(op(*a) * g), argnums=tuple(range(len(args))))(*args)


CONV2D = "adv_c2(x[c,a,b], K[o,c,p,q]) -> y[o,h,w] = sum(c, p, q, x[c,h+p,w+q] * K[o,c,p,q])"


def conv2d_ref(x, K):
    return F.conv2d(x if x.ndim == 4 else x[None], K) if x.ndim == 4 else F.conv2d(x[None], K)[0]


# -- rules a user could write, against PyTorch ------------------------------------------------------------------


@pytest.mark.parametrize("dtype,tol", [(np.float64, 1e-10), (np.float32, 3e-4)])
def test_dilated_and_offset_conv2d_with_a_batch(define, mode, dtype, tol):
    """x[c, h+2p+1, w+q+3]: a dilation on one axis, offsets on both, two leading batch axes; value, both
    cotangents and the pushforward against torch's dilated conv2d of the offset input."""
    op = define("adv_do(x[c,a,b], K[o,c,p,q]) -> y[o,h,w] = sum(c, p, q, x[c,h+2*p+1,w+q+3] * K[o,c,p,q])")
    r = np.random.default_rng(11)
    x, K = r.standard_normal((2, 1, 8, 29, 33)), r.standard_normal((12, 8, 3, 4))

    def ref(x, K):
        return F.conv2d(x[..., 1:, 3:].reshape(2, 8, 28, 30), K, dilation=(2, 1)).reshape(2, 1, 12, 24, 27)
    g = r.standard_normal((2, 1, 12, 24, 27))
    y_ref, (gx_ref, gK_ref) = torch_pullback(ref, (x, K), g)
    xs, Ks = x.astype(dtype), K.astype(dtype)
    y = op(xs, Ks)
    assert y.dtype == dtype
    close(y, y_ref, tol)
    gx, gK = pullback(op, (xs, Ks), g.astype(dtype))
    assert gx.dtype == dtype and gK.dtype == dtype
    close(gx, gx_ref, tol)
    close(gK, gK_ref, tol)
    tx, tK = r.standard_normal(x.shape), r.standard_normal(K.shape)
    _, dy = runtime.jvp(op, (xs, Ks), (tx.astype(dtype), tK.astype(dtype)))
    _, dy_ref = torch.func.jvp(ref, (torch.tensor(x), torch.tensor(K)), (torch.tensor(tx), torch.tensor(tK)))
    close(dy, dy_ref.numpy(), tol)


RULES_1D = {
    # name: (rule, torch reference on (x[c,t], K[o,c,p]), K's shape)
    "two_reads": ("adv_tw(x[c,a], K[o,c,p]) -> y[o,h] = sum(c, p, x[c,h+p] * x[c,h+p+1] * K[o,c,p])",
                  lambda x, K: F.conv1d((x[:, :-1] * x[:, 1:])[None], K)[0]),
    "two_dilations": ("adv_td(x[c,a], K[o,c,p]) -> y[o,h] = sum(c, p, (x[c,h+p] + x[c,h+2*p]) * K[o,c,p])",
                      lambda x, K: F.conv1d(x[None, :, :x.shape[1] - K.shape[2] + 1], K)[0]
                      + F.conv1d(x[None], K, dilation=2)[0]),
    "tanh_inside": ("adv_tn(x[c,a], K[o,c,p]) -> y[o,h] = sum(c, p, tanh(x[c,h+p]) * K[o,c,p])",
                    lambda x, K: F.conv1d(torch.tanh(x)[None], K)[0]),
    "exp_outside": ("adv_eo(x[c,a], K[o,c,p]) -> y[o,h] = exp(sum(c, p, x[c,h+p] * K[o,c,p]) / 10)",
                    lambda x, K: torch.exp(F.conv1d(x[None], K)[0] / 10)),
    "stencil_plus_conv": ("adv_sp(x[c,a], K[o,c,p]) -> y[o,h] = sum(c, p, x[c,h+p-1] * K[o,c,p]) + x[o,h]",
                          lambda x, K: F.conv1d(x[None], K)[0] + x[:K.shape[0], 1:x.shape[1] - K.shape[2] + 2]),
}


@pytest.mark.parametrize("key", sorted(RULES_1D))
def test_one_dimensional_rules_at_scale(define, mode, key):
    """Sizes where the default mode takes the native path too (16 channels in and out, 300 positions)."""
    text, ref = RULES_1D[key]
    op = define(text)
    r = np.random.default_rng(len(key))
    x, K = r.standard_normal((16, 300)), r.standard_normal((16, 16, 5)) / 4
    y_ref, _ = torch_pullback(ref, (x, K), 0 * np.ones(1))
    g = r.standard_normal(y_ref.shape)
    _, (gx_ref, gK_ref) = torch_pullback(ref, (x, K), g)
    close(op(x, K), y_ref)
    gx, gK = pullback(op, (x, K), g)
    close(gx, gx_ref)
    close(gK, gK_ref)


def test_gather_with_factors_that_depend_on_the_output_position(define, mode):
    """x̄[t] = Σ_k w[k]·v[i]·ȳ[i] at t = i+k, and a kernel along a diagonal (one tap index on two axes):
    element loops from the rules' text, differentiated by torch."""
    r = np.random.default_rng(12)
    op = define("adv_vi(x[t], w[k], v[i]) -> y[i] = sum(k, x[i+k] * w[k] * v[i])")
    x, w, v = r.standard_normal(14), r.standard_normal(4), r.standard_normal(11)
    ref = lambda x, w, v: torch.stack([sum(x[i + k] * w[k] * v[i] for k in range(4)) for i in range(11)])  # noqa
    g = r.standard_normal(11)
    y_ref, grads = torch_pullback(ref, (x, w, v), g)
    close(op(x, w, v), y_ref)
    for got, want in zip(pullback(op, (x, w, v), g), grads):
        close(got, want)
    op = define("adv_dg(x[a,b], K[p]) -> y[h,w] = sum(p, x[h+p,w+p] * K[p])")
    x, K = r.standard_normal((12, 9)), r.standard_normal(3)
    ref = lambda x, K: torch.stack([torch.stack([sum(x[h + p, c + p] * K[p] for p in range(3))  # noqa
                                                 for c in range(7)]) for h in range(10)])
    g = r.standard_normal((10, 7))
    y_ref, grads = torch_pullback(ref, (x, K), g)
    close(op(x, K), y_ref)
    for got, want in zip(pullback(op, (x, K), g), grads):
        close(got, want)


@pytest.mark.parametrize("xs,ks", [((32, 9, 9), (16, 32, 9, 9)),      # the kernel covers the image: one output
                                   ((16, 5, 200), (8, 16, 5, 3)),      # one output row
                                   ((16, 200, 5), (8, 16, 3, 5)),      # one output column
                                   ((2, 64, 30, 30), (32, 64, 1, 1))])  # a 1x1 kernel with a batch
def test_conv2d_extreme_extents(define, mode, xs, ks):
    op = define(CONV2D)
    r = np.random.default_rng(sum(xs))
    x, K = r.standard_normal(xs), r.standard_normal(ks)
    y_ref, _ = torch_pullback(conv2d_ref, (x, K), np.zeros(1))
    g = r.standard_normal(y_ref.shape)
    _, (gx_ref, gK_ref) = torch_pullback(conv2d_ref, (x, K), g)
    close(op(x, K), y_ref)
    gx, gK = pullback(op, (x, K), g)
    close(gx, gx_ref)
    close(gK, gK_ref)


# -- odd inputs and cotangents -------------------------------------------------------------------------------


def test_conv2d_on_odd_layouts(define, mode):
    """Fortran order, reversed axes, a zero-stride broadcast axis, read-only arrays, a reversed kernel: values and
    cotangents against torch on contiguous copies."""
    op = define(CONV2D)
    r = np.random.default_rng(13)
    base, K0 = r.standard_normal((16, 30, 31)), r.standard_normal((8, 16, 3, 3))
    ro = base.copy()
    ro.flags.writeable = False
    layouts = {"fortran": np.asfortranarray(base), "reversed": base[:, ::-1, ::-1],
               "broadcast": np.broadcast_to(base[:, :1, :], base.shape), "strided": base[:, ::2, :], "readonly": ro}
    K = K0[::-1, :, ::-1, :]
    for name, x in layouts.items():
        xc = np.ascontiguousarray(x)
        y_ref, _ = torch_pullback(conv2d_ref, (xc, K), np.zeros(1))
        g = r.standard_normal(y_ref.shape)
        _, (gx_ref, gK_ref) = torch_pullback(conv2d_ref, (xc, K), g)
        close(op(x, K), y_ref)
        gx, gK = pullback(op, (x, K), g)
        close(gx, gx_ref)
        close(gK, gK_ref)


@pytest.mark.parametrize("stride", [1, 2])
def test_pullbacks_of_odd_cotangents(define, mode, stride):
    """The gather (stride 1) and the scatter (stride 2) of cotangents that are broadcast (zero strides),
    reversed, Fortran-ordered, read-only."""
    op = define(CONV2D if stride == 1 else
                "adv_s2(x[c,a,b], K[o,c,p,q]) -> y[o,h,w] = sum(c, p, q, x[c,2*h+p,2*w+q] * K[o,c,p,q])")
    r = np.random.default_rng(14 + stride)
    x, K = r.standard_normal((2, 16, 41, 40)), r.standard_normal((8, 16, 3, 3))

    def ref(x, K):
        return F.conv2d(x, K, stride=stride)
    y, pb = runtime.vjp(op, x, K)
    g0 = r.standard_normal(y.shape)
    ro = np.lib.stride_tricks.as_strided(g0, writeable=False)
    for g in (np.broadcast_to(np.float64(1.5), y.shape), g0[..., ::-1, ::-1], np.asfortranarray(g0), ro):
        _, (gx_ref, gK_ref) = torch_pullback(ref, (x, K), g)
        gx, gK = pb(g)
        close(gx, gx_ref)
        close(gK, gK_ref)


def test_misaligned_buffers(mode):
    """float64 and float32 arrays at a byte offset that is not a multiple of their size (np.frombuffer): the
    window contraction, the kernel's cotangent and the strided add read them correctly."""
    r = np.random.default_rng(15)

    def misaligned(shape, dtype, off):
        n = int(np.prod(shape))
        a = np.frombuffer(bytearray(n * np.dtype(dtype).itemsize + 16), dtype=dtype, count=n, offset=off)
        a = a.reshape(shape)
        a[...] = r.standard_normal(shape)
        return a
    for dtype, off, tol in ((np.float64, 3, 1e-12), (np.float32, 1, 1e-4)):
        x = misaligned((16, 300), dtype, off)
        assert not x.flags.aligned
        X = shifts.window(x, [(((0, 1),), 0), (((1, 1), (2, 1)), 0)], (16, 296, 5))
        w, g = r.standard_normal((8, 16, 5)).astype(dtype), r.standard_normal((8, 296)).astype(dtype)
        x64 = x.astype(np.float64)
        want = np.stack([sum(scipy_signal.correlate(x64[c], w[o, c].astype(np.float64), "valid") for c in range(16))
                         for o in range(8)])
        close(contract.einsum("cik,ock->oi", X, w), want, tol)
        want = np.stack([[scipy_signal.correlate(x64[c], g[o].astype(np.float64), "valid") for c in range(16)]
                         for o in range(8)])
        close(contract.einsum("cik,oi->ock", X, g), want, tol)
        dst, src = misaligned((16, 300, 40), dtype, off), misaligned((16, 300, 40), dtype, off)
        want = dst.copy()
        want[:, ::2] += src[:, ::2]
        contract.add_into(dst[:, ::2], src[:, ::2])
        np.testing.assert_array_equal(dst, want)


def test_nan_inf_and_huge_values_stay_where_they_are(define, mode):
    """A NaN and an inf in x poison exactly the outputs whose windows hold them; 1e300 in the last column
    overflows to inf exactly where torch's does."""
    op = define(CONV2D)
    r = np.random.default_rng(16)
    x, K = r.standard_normal((16, 30, 31)), r.standard_normal((8, 16, 3, 3))
    x[3, 10, 10], x[5, 0, 0] = np.nan, np.inf
    want = conv2d_ref(torch.tensor(x), torch.tensor(K)).numpy()
    got = op(x, K)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    fin = np.isfinite(want)
    close(got[fin], want[fin])
    x = r.standard_normal((16, 30, 31))
    x[:, :, -1] = 1e300
    want = conv2d_ref(torch.tensor(x), torch.tensor(K)).numpy()
    got = op(x, K)
    np.testing.assert_array_equal(np.isinf(got), np.isinf(want))
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))


def test_outputs_of_size_zero(define, mode):
    op = define(CONV2D)
    close(op(np.zeros((0, 30, 31)), np.zeros((8, 0, 3, 3))), np.zeros((8, 28, 29)))
    close(op(np.zeros((16, 30, 31)), np.zeros((0, 16, 3, 3))), np.zeros((0, 28, 29)))
    K = np.random.default_rng(17).standard_normal((8, 16, 3, 3))
    gx, gK = pullback(op, (np.zeros((0, 16, 30, 31)), K), np.zeros((0, 8, 28, 29)))
    close(gx, np.zeros((0, 16, 30, 31)))
    close(gK, np.zeros_like(K))


# -- second order, bridges ----------------------------------------------------------------------------------------


@pytest.mark.slow
def test_second_order_of_a_nonlinear_dilated_conv_against_torch(define, mode):
    """h(x) = Σ (∂/∂x Σ sin(conv(tanh x)))², its gradient, and ∂/∂K of ⟨∂f/∂x, v⟩: torch's double backward."""
    op = define("adv_nl(x[c,a,b], K[o,c,p,q]) -> y[o,h,w] = sum(c, p, q, tanh(x[c,h+p,w+2*q+1]) * K[o,c,p,q])")
    r = np.random.default_rng(18)
    x, K, v = r.standard_normal((2, 6, 20, 21)), r.standard_normal((5, 6, 3, 3)), r.standard_normal((2, 6, 20, 21))

    def f(a, k):
        return tnp.sum(tnp.sin(op(a, k)))
    gh = runtime.grad(lambda a: tnp.sum(runtime.grad(f)(a, K) ** 2))(x)
    gk = runtime.grad(lambda k: tnp.sum(runtime.grad(f)(x, k) * v))(K)
    X, KK = torch.tensor(x, requires_grad=True), torch.tensor(K, requires_grad=True)
    ft = torch.sin(F.conv2d(torch.tanh(X[..., 1:]), KK, dilation=(1, 2))).sum()
    gx, = torch.autograd.grad(ft, X, create_graph=True)
    gh_ref, = torch.autograd.grad((gx ** 2).sum(), X, retain_graph=True)
    gk_ref, = torch.autograd.grad((gx * torch.tensor(v)).sum(), KK)
    close(gh, gh_ref.numpy(), 1e-9)
    close(gk, gk_ref.numpy(), 1e-9)


def test_torch_bridge_double_backward_and_float32_views(define, mode):
    import runtime.torch as rt
    text = "adv_tb(x[c,a,b], K[o,c,p,q]) -> y[o,h,w] = sum(c, p, q, x[c,h+p+1,w+2*q] * K[o,c,p,q])"
    define(text)
    op = rt.define(text)
    r = np.random.default_rng(19)
    x, K = r.standard_normal((3, 4, 16, 17)), r.standard_normal((6, 4, 2, 3))
    X, KK = torch.tensor(x, requires_grad=True), torch.tensor(K)
    gx, = torch.autograd.grad(torch.sin(op(X, KK)).sum(), X, create_graph=True)
    g2, = torch.autograd.grad((gx ** 2).sum(), X)
    X2 = torch.tensor(x, requires_grad=True)
    gx_ref, = torch.autograd.grad(torch.sin(F.conv2d(X2[..., 1:, :], KK, dilation=(1, 2))).sum(), X2,
                                  create_graph=True)
    g2_ref, = torch.autograd.grad((gx_ref ** 2).sum(), X2)
    close(gx.detach().numpy(), gx_ref.detach().numpy())
    close(g2.numpy(), g2_ref.numpy())
    # a float32 input laid out transposed (not contiguous)
    X3 = torch.tensor(x, dtype=torch.float32).transpose(-1, -2).contiguous().transpose(-1, -2)
    close(op(X3, KK.float()).numpy(), F.conv2d(torch.tensor(x)[..., 1:, :], KK, dilation=(1, 2)).numpy(), 3e-4)


# -- threads and fork ---------------------------------------------------------------------------------------------


def test_threads_share_the_library(define, mode):
    """Six threads, each its own image, forward and input cotangent at once (OpenMP teams per thread)."""
    op = define(CONV2D)
    r = np.random.default_rng(20)
    K = r.standard_normal((8, 16, 3, 3))
    xs = [r.standard_normal((16, 40, 40)) for _ in range(6)]
    g = r.standard_normal((8, 38, 38))
    res, errors = [None] * 6, []
    barrier = threading.Barrier(6)

    def work(i):
        try:
            barrier.wait()
            res[i] = (op(xs[i], K), runtime.grad(lambda a: tnp.sum(op(a, K) * g))(xs[i]))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(repr(exc))
    threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for i in range(6):
        y_ref, (gx_ref, _) = torch_pullback(conv2d_ref, (xs[i], K), g)
        close(res[i][0], y_ref)
        close(res[i][1], gx_ref)


def _child(op, x, K, q):
    out = []
    t = threading.Thread(target=lambda: out.append(op(x, K)))
    t.start()
    t.join()
    q.put((op(x, K), out[0]))


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork")
def test_fork_after_the_library_ran(define, monkeypatch):
    """A child forked after the parent's OpenMP team ran computes the same contraction (from its main thread and
    from a new thread) instead of waiting forever for the parent's workers."""
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "1")
    if not native.available()[0]:
        pytest.skip("no native kernels here")
    op = define(CONV2D)
    r = np.random.default_rng(21)
    x, K = r.standard_normal((16, 40, 40)), r.standard_normal((8, 16, 3, 3))
    want = F.conv2d(torch.tensor(x)[None], torch.tensor(K))[0].numpy()
    close(op(x, K), want)
    ctx = multiprocessing.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=_child, args=(op, x, K, q))
    p.start()
    try:
        a, b = q.get(timeout=60)
    finally:
        p.join(10)
        if p.is_alive():
            p.kill()
    assert p.exitcode == 0
    close(a, want)
    close(b, want)


def test_second_order_with_a_kernel_longer_than_the_output(define, mode):
    """Ten taps, three outputs: the backwards window over the padded cotangent is longer along its tap axis than
    along its position axis, and its transpose (second order) is differentiated too; torch's double backward."""
    op = define("adv_lk(x[c,a], K[o,c,p]) -> y[o,h] = sum(c, p, x[c,h+p] * K[o,c,p])")
    r = np.random.default_rng(22)
    x, K = r.standard_normal((3, 12)), r.standard_normal((2, 3, 10))

    def f(a, k):
        return tnp.sum(tnp.sin(op(a, k)))
    gh = runtime.grad(lambda a: tnp.sum(runtime.grad(f)(a, K) ** 2))(x)
    gk = runtime.grad(lambda k: tnp.sum(runtime.grad(f)(x, k) ** 2))(K)
    X, KK = torch.tensor(x, requires_grad=True), torch.tensor(K, requires_grad=True)
    gx, = torch.autograd.grad(torch.sin(F.conv1d(X[None], KK)).sum(), X, create_graph=True)
    gh_ref, gk_ref = torch.autograd.grad((gx ** 2).sum(), (X, KK))
    close(gh, gh_ref.numpy(), 1e-9)
    close(gk, gk_ref.numpy(), 1e-9)
