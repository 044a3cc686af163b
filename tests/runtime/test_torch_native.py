"""runtime/torch_native.cpp: the native CPU runner in front of every runtime.torch op with a plan. Its values and
gradients against the op's Python code (`op.python`, itself held to the NumPy rules by test_torch_bridge) for
every op, both dtypes and realistic sizes; gradcheck and gradgradcheck through it; non-finite inputs; the calls it
must decline (and that the Python code then answers); autograd's guarantees (version counter, retain_graph, only
the asked-for cotangents, saved-tensor hooks); threads. Skipped visibly without torch (a failure under CI)."""
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

from tests.frameworks import need

torch = need("torch")

from test_generated_ops import make_args  # noqa: E402  (valid points: declared domains, spd, well conditioned)

import runtime.torch as rt  # noqa: E402
from runtime import torch_native  # noqa: E402
from runtime.registry import lookup  # noqa: E402

EXT = torch_native.extension()
pytestmark = pytest.mark.skipif(EXT is None, reason=f"runtime/torch_native.cpp cannot be built here: "
                                                    f"{torch_native.why()}")
NATIVE = [n for n in rt.shipped() if getattr(getattr(rt, n), "native_index", None) is not None]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOL = {torch.float64: dict(rtol=1e-10, atol=1e-12), torch.float32: dict(rtol=2e-4, atol=2e-5)}


def _args(name, dtype=torch.float64, seed=0, grad=True):
    """valid arguments, every one a tensor (a scalar parameter as a 0-d tensor: the runner takes tensors only)"""
    return [torch.tensor(np.asarray(a), dtype=dtype, requires_grad=grad) for a in make_args(lookup(name), seed=seed)]


def _ours(y):
    ys = y if isinstance(y, tuple) else (y,)
    return all(v.grad_fn is not None and v.grad_fn.name().startswith("tensor_rules::") for v in ys)


def _grads(op, args, cots):
    y = op(*args)
    ys = y if isinstance(y, tuple) else (y,)
    wanted = [a for a in args if a.requires_grad]
    gs = torch.autograd.grad(ys, wanted, cots, allow_unused=True)
    return y, gs


def test_the_runner_is_built_and_takes_the_plannable_ops():
    assert len(NATIVE) >= 45
    assert {"softmax", "log_softmax", "logsumexp", "linear", "dense", "matmul", "conv2d", "tanh",
            "gaussian_kernel_sum", "causal_attention"} <= set(NATIVE)
    # matrix primitives and masked scans have no CPU plan: their Python code answers
    assert {"inv", "solve", "cumsum"}.isdisjoint(NATIVE)


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32], ids=["f64", "f32"])
@pytest.mark.parametrize("name", NATIVE)
def test_values_and_gradients_match_the_python_code(name, dtype):
    op = getattr(rt, name)
    rng = np.random.default_rng(1)
    for seed, which in ((0, None), (1, 0), (2, -1)):       # all inputs requiring grad, the first only, the last only
        args = _args(name, dtype, seed)
        if which is not None:
            for k, a in enumerate(args):
                a.requires_grad_(k == which % len(args))
        with torch.no_grad():
            y_inf, y_inf_py = op(*args), op.python(*args)
        ys_py = y_inf_py if isinstance(y_inf_py, tuple) else (y_inf_py,)
        cots = [torch.tensor(rng.standard_normal(tuple(v.shape)), dtype=dtype) for v in ys_py]
        before = EXT.counts()
        y, g = _grads(op, args, cots)
        assert EXT.counts() != before and _ours(y)          # the runner ran, with its own node
        y_py, g_py = _grads(op.python, args, cots)
        for got, want in zip((y_inf, y) if isinstance(y, tuple) else (y_inf, y), (y_inf_py, y_py) * 2):
            for a, b in zip(got if isinstance(got, tuple) else (got,), want if isinstance(want, tuple) else (want,)):
                assert a.dtype == b.dtype and a.shape == b.shape
                torch.testing.assert_close(a.detach(), b.detach(), equal_nan=False, **TOL[dtype])
        for a, b in zip(g, g_py):
            assert (a is None) == (b is None)
            if a is not None:
                assert a.dtype == b.dtype and a.shape == b.shape
                torch.testing.assert_close(a, b, **TOL[dtype])


@pytest.mark.parametrize("name", NATIVE)
def test_gradcheck_and_gradgradcheck_through_the_runner(name):
    op = getattr(rt, name)
    args = tuple(_args(name, seed=3))
    assert _ours(op(*args))
    assert torch.autograd.gradcheck(op, args, eps=1e-6, atol=1e-6, rtol=1e-5)
    # second order: the runner's backward with create_graph runs the Python pullback, which autograd records
    assert torch.autograd.gradgradcheck(op, args, eps=1e-6, atol=1e-5, rtol=1e-4)


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32], ids=["f64", "f32"])
def test_at_realistic_sizes(dtype):
    """Sizes where the kernels split reductions across threads, tile, and call BLAS on real matrices."""
    g = torch.Generator().manual_seed(0)

    def r(*shape, scale=1.0):
        return (torch.randn(*shape, generator=g, dtype=dtype) * scale).requires_grad_()

    cases = [("softmax", [r(200_003, scale=5.0)]), ("logsumexp", [r(70_001, scale=30.0)]),
             ("linear", [r(512, 256), r(384, 256), r(512)]), ("dense", [r(300, 200), r(256, 200), r(300)]),
             ("matmul", [r(257, 190), r(190, 129)]), ("conv2d", [r(3, 66, 70), r(8, 3, 3, 3)]),
             ("cross_entropy", [r(512, 1000, scale=3.0), torch.softmax(torch.randn(512, 1000, generator=g,
                                                                                    dtype=dtype), 1)]),
             ("gaussian_kernel_sum", [r(700, 3), r(900, 3), r(900), torch.tensor(0.7, dtype=dtype)])]
    for name, args in cases:
        op = getattr(rt, name)
        y = op(*args)
        assert _ours(y), name
        y_py = op.python(*args)
        tol = TOL[dtype] if dtype == torch.float64 else dict(rtol=1e-3, atol=1e-4)
        torch.testing.assert_close(y, y_py, **tol)
        cot = torch.randn(y.shape, generator=g, dtype=dtype)
        wanted = [a for a in args if a.requires_grad]
        for a, b in zip(torch.autograd.grad(y, wanted, cot), torch.autograd.grad(y_py, wanted, cot)):
            torch.testing.assert_close(a, b, **tol)


def test_non_finite_inputs_give_what_the_python_code_gives():
    inf, nan = float("inf"), float("nan")
    rows = [[inf, 1.0, 2.0], [-inf, 1.0, 2.0], [-inf, -inf, -inf], [nan, 1.0, 0.0], [inf, -inf, 0.0],
            [1e308, -1e308, 0.0], [3.0, 3.0, 3.0]]
    for name in ("softmax", "log_softmax", "logsumexp", "tanh", "sigmoid", "softplus", "gelu"):
        op = getattr(rt, name)
        for row in rows:
            for dtype in (torch.float64, torch.float32):
                x = torch.tensor(row, dtype=dtype, requires_grad=True)
                y, y_py = op(x), op.python(x)
                torch.testing.assert_close(y, y_py, equal_nan=True, **TOL[dtype])
                g, = torch.autograd.grad(y, x, torch.ones_like(y))
                g_py, = torch.autograd.grad(y_py, x, torch.ones_like(y_py))
                torch.testing.assert_close(g, g_py, equal_nan=True, **TOL[dtype])


def test_empty_extents_give_what_the_python_code_gives():
    for name, args in (("softmax", [torch.zeros(0)]), ("logsumexp", [torch.zeros(0)]),
                       ("linear", [torch.randn(4, 3), torch.zeros(0, 3), torch.randn(4)]),
                       ("matmul", [torch.randn(0, 3), torch.randn(3, 5)]),
                       ("matmul", [torch.randn(4, 0), torch.randn(0, 5)])):
        op = getattr(rt, name)
        with np.errstate(all="ignore"):
            torch.testing.assert_close(op(*args), op.python(*args), equal_nan=True)


def _calls(fn):
    before = EXT.counts()
    out = fn()
    return out, EXT.counts() != before


def test_calls_it_does_not_run_exactly_go_to_the_python_code():
    A, B = torch.randn(4, 3, dtype=torch.float64), torch.randn(3, 5, dtype=torch.float64)
    # taken: non-contiguous tensors and nn.Parameters
    y, ran = _calls(lambda: rt.matmul(A.T.contiguous().T, torch.nn.Parameter(B)))
    assert ran and _ours(y)
    torch.testing.assert_close(y, A @ B)
    declined = {
        "float16": lambda: rt.softmax(torch.randn(5).half()),
        "mixed dtypes": lambda: rt.matmul(A, B.float()),
        "leading axes": lambda: rt.softmax(torch.randn(2, 5, dtype=torch.float64)),
        "a wrong extent": lambda: rt.matmul(A, torch.randn(4, 5, dtype=torch.float64)),
        "an integer tensor": lambda: rt.softmax(torch.arange(5)),
        "a Python float": lambda: rt.gaussian_kernel_sum(torch.randn(3, 2), torch.randn(4, 2), torch.randn(4), 0.5),
        "a keyword": lambda: rt.matmul(A, B=B),
    }
    for what, call in declined.items():
        before = EXT.counts()
        try:
            call()
        except (TypeError, ValueError, RuntimeError):   # the Python code's answer (an error for some)
            pass
        assert EXT.counts() == before, what
    with pytest.raises(ValueError, match="matmul"):
        rt.matmul(A, torch.randn(4, 5, dtype=torch.float64))     # the Python code's message, naming the op

    class Sub(torch.Tensor):
        pass
    _, ran = _calls(lambda: rt.softmax(torch.randn(5).as_subclass(Sub)))
    assert not ran


def test_transforms_modes_and_forward_mode_run_the_python_code():
    from torch.utils._python_dispatch import TorchDispatchMode

    x = torch.randn(6, dtype=torch.float64)
    seen = []

    class Log(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append(func)
            return func(*args, **(kwargs or {}))

    with Log():
        _, ran = _calls(lambda: rt.softmax(x))
    assert seen and not ran                          # the mode saw the Python code's torch ops
    s = torch.softmax(x, 0)
    w = torch.arange(6.0, dtype=torch.float64)
    g, ran = _calls(lambda: torch.func.grad(lambda v: (rt.softmax(v) * w).sum())(x))
    torch.testing.assert_close(g, s * (w - (s * w).sum()))
    X = torch.randn(3, 6, dtype=torch.float64)
    torch.testing.assert_close(torch.func.vmap(rt.softmax)(X), torch.softmax(X, 1))
    t = torch.randn(6, dtype=torch.float64)
    _, jt = torch.func.jvp(rt.softmax, (x,), (t,))
    torch.testing.assert_close(jt, s * t - s * (s * t).sum())
    import torch.autograd.forward_ad as fwAD
    with fwAD.dual_level():
        out = rt.softmax(fwAD.make_dual(x, t))
        torch.testing.assert_close(fwAD.unpack_dual(out).tangent, s * t - s * (s * t).sum())


def test_only_the_cotangents_asked_for_are_computed():
    A = torch.randn(40, 30, dtype=torch.float64, requires_grad=True)
    B = torch.randn(30, 20, dtype=torch.float64)
    y = rt.matmul(A, B)
    before = EXT.counts()
    g, = torch.autograd.grad(y.sum(), A)
    after = EXT.counts()
    assert after[2] - before[2] == 1                 # one contraction: B's cotangent is never formed
    torch.testing.assert_close(g, torch.ones(40, 20, dtype=torch.float64) @ B.T)


def test_modifying_a_saved_tensor_in_place_before_backward_is_an_error():
    x = torch.randn(5, dtype=torch.float64, requires_grad=True)
    y = rt.softmax(x)
    assert _ours(y)
    with torch.no_grad():
        y.mul_(2)                                    # the pullback reads softmax's output
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()
    W, c = torch.randn(4, 3, requires_grad=True), torch.randn(4, requires_grad=True)
    xin = torch.randn(2, 3)
    y = rt.linear(W, xin, c)
    xin.add_(1)                                      # an input the pullback reads
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def test_threads_run_the_runner_at_once():
    results, errors = {}, []

    def work(k):
        try:
            g = torch.Generator().manual_seed(k)
            x = torch.randn(1000 + k, generator=g, dtype=torch.float64, requires_grad=True)
            for _ in range(200):
                y = rt.softmax(x)
                gx, = torch.autograd.grad(rt.logsumexp(y * 3.0), x)
            results[k] = (y.detach(), gx, x)
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)

    ts = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors
    for k, (y, gx, x) in results.items():
        torch.testing.assert_close(y, torch.softmax(x.detach(), 0))
        x2 = x.detach().clone().requires_grad_()
        gw, = torch.autograd.grad(torch.logsumexp(torch.softmax(x2, 0) * 3.0, 0), x2)
        torch.testing.assert_close(gx, gw)


def test_TENSOR_RULES_NATIVE_0_turns_the_runner_off(tmp_path):
    code = "import runtime.torch as rt; print(getattr(rt.softmax, 'native_index', None))"
    env = dict(os.environ, TENSOR_RULES_NATIVE="0", PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "None"


PLANLESS = [n for n in rt.shipped() if n not in NATIVE and all(
    p["kind"] == "tensor" for p in lookup(n).meta["inputs"]) and not lookup(n).meta.get("elementwise")]


@pytest.mark.parametrize("name", PLANLESS)
def test_an_op_without_a_plan_records_a_node_of_the_extension_with_the_functions_answers(name):
    """Matrix primitives and scans run their Python rrule; with grad, under a PyPullNode (not a Python
    autograd.Function): the same values and gradients as the Function (`op.general`), first and second order,
    the closure used once (a retained graph's second backward recomputes), the saved tensors under autograd's
    version counter."""
    op = getattr(rt, name)
    args = _args(name, seed=5)
    y = op(*args)
    assert _ours(y)
    y_f = op.general(*args)
    ys, ys_f = (y, y_f) if isinstance(y, tuple) else ((y,), (y_f,))
    rng = np.random.default_rng(2)
    cots = [torch.tensor(rng.standard_normal(tuple(v.shape))) for v in ys]
    for a, b in zip(ys, ys_f):
        torch.testing.assert_close(a, b, rtol=0, atol=0)
    g1 = torch.autograd.grad(ys, args, cots, retain_graph=True, allow_unused=True)
    g2 = torch.autograd.grad(ys, args, cots, allow_unused=True)
    gf = torch.autograd.grad(ys_f, args, cots, allow_unused=True)
    for a, b, c in zip(g1, g2, gf):
        assert (a is None) == (c is None)
        if a is not None:
            torch.testing.assert_close(a, c, rtol=0, atol=0)
            torch.testing.assert_close(b, c, rtol=0, atol=0)
    with pytest.raises(RuntimeError, match="second time"):
        torch.autograd.grad(ys, args, cots, allow_unused=True)
    assert torch.autograd.gradcheck(op, tuple(args), eps=1e-6, atol=1e-6, rtol=1e-5)
    assert torch.autograd.gradgradcheck(op, tuple(args), eps=1e-6, atol=1e-5, rtol=1e-4)
    y = op(*args)
    with torch.no_grad():
        args[0].add_(0.0)                            # a saved input changed in place: torch's error, not a wrong gradient
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        torch.autograd.grad(y if not isinstance(y, tuple) else y[0], args[0],
                            torch.ones_like(y if not isinstance(y, tuple) else y[0]))


def test_an_output_dropped_is_freed_with_its_node_and_closure():
    """The closure of a PyPullNode's rrule holds the output it made; were that the caller's tensor, output ->
    node -> closure -> output would be a cycle the garbage collector cannot see through (a C++ node), and every
    call's outputs and activations would leak."""
    import gc
    import weakref

    A = (torch.randn(6, 6, dtype=torch.float64) + 6 * torch.eye(6, dtype=torch.float64)).requires_grad_()
    b = torch.randn(6, dtype=torch.float64, requires_grad=True)
    x = torch.randn(9, dtype=torch.float64, requires_grad=True)
    for op, args in ((rt.inv, [A]), (rt.solve, [A, b]), (rt.softmax, [x]), (rt.cumsum, [x])):
        refs = [weakref.ref(op(*args)) for _ in range(3)]
        gc.collect()
        assert all(r() is None for r in refs), op.__name__
