"""Higher order through generated ops: grad(grad), Hessian-vector products both ways, third order, mixing."""
import fake_generated as fg
import numpy as np
import pytest
from numdiff import assert_close, fd_grad, fd_jvp

from runtime import grad, jvp, tnp, vjp

rng = np.random.default_rng(7)


def net(A, B, x):
    return tnp.sum(fg.tanh(fg.rowsum(fg.matmul(fg.matmul(A, B), fg.inv(x)))) ** 2)


A, B = rng.standard_normal((2, 3)), rng.standard_normal((3, 3))
X = rng.standard_normal((3, 3)) + 3 * np.eye(3)


def test_grad_of_grad_elementwise():
    f = lambda x: tnp.sum(fg.tanh(x) ** 3)  # noqa: E731
    x = rng.standard_normal(4)
    hdiag_sum = grad(lambda x: tnp.sum(grad(f)(x)))(x)
    assert_close(hdiag_sum, fd_grad(lambda z: np.sum(grad(f)(z)), x), rtol=1e-5)


def test_scalar_third_derivative():
    f = lambda x: fg.tanh(np.array([1.0]) * x)[0]  # noqa: E731
    d3 = grad(grad(grad(f)))(0.3)
    t = np.tanh(0.3)
    assert d3 == pytest.approx(-2 * (1 - t ** 2) * (1 - 3 * t ** 2), rel=1e-10)


@pytest.mark.parametrize("argnum", [0, 1, 2])
def test_hvp_both_ways_vs_finite_differences(argnum):
    args = [A, B, X]
    v = rng.standard_normal(args[argnum].shape)

    def loss(z):
        a = list(args)
        a[argnum] = z
        return net(*a)

    g = grad(loss)
    ref = fd_jvp(g, (args[argnum],), (v,), eps=1e-5)
    fwd_over_rev = jvp(g, (args[argnum],), (v,))[1]
    rev_over_rev = grad(lambda z: tnp.sum(g(z) * v))(args[argnum])
    rev_over_fwd = grad(lambda z: jvp(loss, (z,), (v,))[1])(args[argnum])
    assert_close(fwd_over_rev, ref, rtol=1e-5, atol=1e-6)
    assert_close(rev_over_rev, ref, rtol=1e-5, atol=1e-6)
    assert_close(rev_over_fwd, ref, rtol=1e-5, atol=1e-6)


def test_full_hessian_of_multi_output_and_scalar_ops():
    def f(x):
        s, c = fg.sincos(x)
        return tnp.sum(fg.axpy(2.0, s * c, fg.powi(x, 3)))
    x = rng.standard_normal(3)
    H = np.stack([jvp(grad(f), (x,), (e,))[1] for e in np.eye(3)])
    H_ref = np.diag(-4 * np.sin(2 * x) + 6 * x)
    assert_close(H, H_ref, rtol=1e-10, atol=1e-12)


def test_outer_trace_cotangent_with_plain_primals():
    # inside the inner grad, matmul's primals are constants but its cotangent depends on the outer variable
    W = rng.standard_normal((3, 2))

    def outer(x):
        inner = grad(lambda z: tnp.sum(fg.matmul(z, W) * x))(np.ones((1, 3)))
        return tnp.sum(inner ** 2)
    x = rng.standard_normal((1, 2))
    assert_close(grad(outer)(x), fd_grad(outer, x), rtol=1e-6)


def test_vjp_of_vjp():
    x = rng.standard_normal(3)
    def g(x):
        y, back = vjp(fg.tanh, x)
        return tnp.sum(back(x)[0])
    assert_close(grad(g)(x), fd_grad(g, x), rtol=1e-6)
