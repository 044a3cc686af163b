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
