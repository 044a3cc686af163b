"""Adversarial checks of runtime/torch_native.cpp (the native CPU runner in front of runtime.torch's ops): calls no
other test made, each compared with torch's own ops or the op's Python code (`op.python`)."""
import numpy as np
import pytest

from tests.frameworks import need

torch = need("torch")

import runtime.torch as rt  # noqa: E402
from runtime import torch_native  # noqa: E402

EXT = torch_native.extension()
pytestmark = pytest.mark.skipif(EXT is None, reason=f"runtime/torch_native.cpp cannot be built here: "
                                                    f"{torch_native.why()}")
TOL = {torch.float64: dict(rtol=1e-10, atol=1e-12), torch.float32: dict(rtol=1e-4, atol=1e-5)}


def _ours(y):
    return y.grad_fn is not None and y.grad_fn.name().startswith("tensor_rules::")


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32], ids=["f64", "f32"])
@pytest.mark.parametrize("layout", ["step2", "expanded"])
def test_elementwise_gradient_of_a_strided_1d_input(layout, dtype):
    # the saved input of an elementwise op (x[::2], or an expand()ed one) was read as if dense in backward:
    # reshape(-1) of a 1-D strided view is that same view, so the pullback read every other element (or past it)
    base = torch.linspace(0.5, 2.0, 14, dtype=dtype)
    for name, grad in (("sin", torch.cos), ("log", torch.reciprocal), ("sqrt", lambda v: 0.5 / v.sqrt())):
        x = (base[::2] if layout == "step2" else base[3:4].expand(7)).detach().requires_grad_(True)
        y = getattr(rt, name)(x)
        assert _ours(y)
        cot = torch.arange(1.0, 8.0, dtype=dtype)
        (g,) = torch.autograd.grad(y, x, cot)
        torch.testing.assert_close(g, cot * grad(x.detach()), **TOL[dtype])


def test_tensors_with_no_elements_are_present_not_absent():
    # a tensor with no elements has a null data_ptr(), which the runner took for an absent (zero) cotangent: the
    # steps reading it were skipped and no gradient came back (None, or autograd.grad raising "not used")
    D = torch.float64
    x = torch.randn(2, 0, 3, dtype=D, requires_grad=True)
    y = rt.tanh(x)
    assert _ours(y)
    (g,) = torch.autograd.grad(y.sum(), x)
    assert g.shape == (2, 0, 3)
    v = torch.randn(0, dtype=D, requires_grad=True)
    s = rt.sum(v)
    assert _ours(s) and s.item() == 0.0
    (g,) = torch.autograd.grad(s, v)
    assert g.shape == (0,)
    # (0, 3) @ (3, 4): B's gradient is zeros (A has no rows), A's has no elements, as torch's own matmul gives
    A = torch.randn(0, 3, dtype=D, requires_grad=True)
    B = torch.randn(3, 4, dtype=D, requires_grad=True)
    C = rt.matmul(A, B)
    assert _ours(C) and C.shape == (0, 4)
    gA, gB = torch.autograd.grad(C.sum(), (A, B))
    assert gA.shape == (0, 3)
    torch.testing.assert_close(gB, torch.zeros(3, 4, dtype=D), rtol=0, atol=0)
    # (3, 0) @ (0, 4): zeros, and both gradients with no elements
    A = torch.randn(3, 0, dtype=D, requires_grad=True)
    B = torch.randn(0, 4, dtype=D, requires_grad=True)
    C = rt.matmul(A, B)
    torch.testing.assert_close(C, torch.zeros(3, 4, dtype=D), rtol=0, atol=0)
    gA, gB = torch.autograd.grad(C.sum(), (A, B))
    assert gA.shape == (3, 0) and gB.shape == (0, 4)


@pytest.mark.parametrize("shape", [(5,), (2, 3)])
def test_an_elementwise_result_is_its_own_tensor_not_a_view(shape):
    # an elementwise op's result was a view of a flat tensor autograd did not know: y.mul_(2) or y[0] = 0 raised
    # "a view of a leaf Variable that requires grad is being used in an in-place operation", where torch.sin's
    # result (and the Python code's) takes it
    D = torch.float64
    x = torch.linspace(0.1, 1.0, 6, dtype=D)[: int(np.prod(shape))].reshape(shape).requires_grad_(True)
    y = rt.sin(x)
    assert _ours(y) and not y._is_view()
    y.mul_(2)
    y[0] = 0.0
    (g,) = torch.autograd.grad(y.sum(), x)
    want = 2 * torch.cos(x.detach())
    want[0] = 0.0
    torch.testing.assert_close(g, want, **TOL[D])
    with torch.no_grad():
        assert not rt.tanh(x)._is_view()


def test_backward_with_batched_cotangents():
    # autograd.grad(is_grads_batched=True) and jacobian(vectorize=True) run the node's backward under vmap: the
    # cotangent is a batched tensor with no storage, which the kernels read as if dense ("Cannot access data
    # pointer of Tensor that doesn't have storage"); the Python pullback (torch ops) takes it
    D = torch.float64
    x = torch.linspace(-1.0, 1.0, 5, dtype=D).requires_grad_(True)
    A = torch.arange(15.0, dtype=D).reshape(3, 5).div(7).requires_grad_(True)
    y = rt.tanh(x)
    assert _ours(y)
    (g,) = torch.autograd.grad(y, x, torch.eye(5, dtype=D), is_grads_batched=True)
    torch.testing.assert_close(g, torch.diag(1 - torch.tanh(x.detach()) ** 2), **TOL[D])
    J = torch.autograd.functional.jacobian(lambda v: rt.matvec(A, v), x, vectorize=True)
    torch.testing.assert_close(J, A.detach(), **TOL[D])
    W = torch.arange(6.0, dtype=D).reshape(2, 3).requires_grad_(True)
    xb = torch.ones(4, 3, dtype=D)
    c = torch.zeros(2, dtype=D)
    y = rt.linear(W, xb, c)
    assert _ours(y)
    cots = torch.zeros(2, 4, 2, dtype=D)
    cots[0, :, 0] = 1.0
    cots[1, 1, 1] = 2.0
    (gW,) = torch.autograd.grad(y, W, cots, is_grads_batched=True)
    want = torch.zeros(2, 2, 3, dtype=D)
    want[0, 0] = 4.0
    want[1, 1] = 2.0
    torch.testing.assert_close(gW, want, **TOL[D])
