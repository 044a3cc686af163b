"""A convolution whose kernel has a tap axis of extent 0 (issue #25): every output is an empty sum, 0, so the op is
the zero function of x and w, and its cotangents are zeros of their inputs' shapes (the value written by hand, not
the code's), on every path: the generated NumPy code, the native CPU plan, the CUDA plan (CPU emulation), and the
torch and JAX bridges. The pullback raised 'a shifted subscript reads before the start of its tensor' on the NumPy
and torch paths (the padded cotangent of the input's gather was padded by K - 1 = -1)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import generated.conv as G
import runtime
from runtime import native
from runtime.tangents import unthunk

ROOT = Path(__file__).resolve().parents[2]
rng = np.random.default_rng(3)
# (op, inputs with an empty tap axis, the output's shape: the valid extent t - k + 1 with k = 0)
CASES = [
    ("conv1d", (rng.standard_normal(5), np.zeros(0)), (6,)),
    ("conv1d_stride2", (rng.standard_normal(5), np.zeros(0)), (3,)),
    ("conv2d", (rng.standard_normal((2, 4, 5)), np.zeros((3, 2, 0, 2))), (3, 5, 4)),
    ("depthwise_conv2d", (rng.standard_normal((2, 4, 5)), np.zeros((2, 2, 0))), (2, 3, 6)),
]
IDS = [c[0] for c in CASES]


def _check(y, grads, args, shape):
    y = np.asarray(y)
    assert y.shape == shape and not np.any(y), y
    assert len(grads) == len(args)
    for g, a in zip(grads, args):
        g = np.asarray(unthunk(g), dtype=float) if not runtime.is_zero(unthunk(g)) else np.zeros_like(a)
        assert g.shape == a.shape and not np.any(g), (g, a.shape)


@pytest.mark.parametrize("op,args,shape", CASES, ids=IDS)
def test_numpy_path(monkeypatch, op, args, shape):
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "0")
    f = getattr(G, op)
    y, pb = runtime.rrule(f, *args)
    _check(y, pb(np.ones(shape))[1:], args, shape)
    y2, dy = runtime.frule((None,) + tuple(np.ones_like(a) for a in args), f, *args)
    _check(y2, (), (), shape)
    assert not np.any(dy) and np.shape(dy) == shape


@pytest.mark.parametrize("op,args,shape", CASES, ids=IDS)
def test_native_cpu_plan(op, args, shape):
    if not native.available()[0]:
        pytest.skip(native.available()[1])
    mod = native.plan_for(G)
    y, pb = native.call(mod, op, "rrule", list(args))
    _check(y, pb(np.ones(shape))[1:], args, shape)


@pytest.mark.parametrize("op,args,shape", CASES, ids=IDS)
def test_cuda_plan_in_the_cpu_emulation(op, args, shape):
    import sys
    sys.path.insert(0, str(ROOT / "tests" / "codegen"))
    import cuda_emu

    from runtime import cuda as rc
    ok, why = cuda_emu.available()
    if not ok:
        pytest.skip(why)
    dev = cuda_emu.EmuDevice(sm_count=2)
    mod = rc.Module("conv", (ROOT / "generated/cuda/conv.cu").read_text(),
                    json.loads((ROOT / "generated/cuda/conv.json").read_text()))
    y, pb = rc.call(mod, op, "rrule", [dev.asarray(a, np.float64) for a in args], dev)
    grads = pb(dev.asarray(np.ones(shape), np.float64))[1:]
    _check(y, [np.zeros_like(a) if g is None or runtime.is_zero(g) else g for g, a in zip(grads, args)], args,
           shape)


@pytest.mark.parametrize("op,args,shape", CASES, ids=IDS)
@pytest.mark.parametrize("path", ["native", "python"])
def test_torch_bridge(op, args, shape, path):
    torch = pytest.importorskip("torch")
    import runtime.torch as rt
    ts = [torch.tensor(a, requires_grad=True) for a in args]
    f = getattr(rt, op) if path == "native" else getattr(rt, op).python
    y = f(*ts)
    grads = torch.autograd.grad(y.sum(), ts, allow_unused=True)
    _check(y.detach().numpy(), [np.zeros_like(a) if g is None else g.numpy() for g, a in zip(grads, args)],
           args, shape)


@pytest.mark.parametrize("op,args,shape", CASES, ids=IDS)
def test_jax_bridge(op, args, shape):
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    import runtime.jax as rj
    f = getattr(rj, op)
    y = f(*[jnp.asarray(a) for a in args])
    grads = jax.grad(lambda *a: jnp.sum(f(*a)), argnums=tuple(range(len(args))))(*[jnp.asarray(a) for a in args])
    _check(np.asarray(y), [np.asarray(g) for g in grads], args, shape)
