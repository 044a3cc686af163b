"""runtime.torch: every shipped op as a torch.autograd.Function -- gradcheck, gradgradcheck and forward-mode AD
in float64 against finite differences and the NumPy frule, values against the NumPy op, dtypes, define, load,
errors. Skipped visibly without torch (a failure under CI: tests/frameworks.py)."""
import os
import subprocess
import sys

import numpy as np
import pytest

from tests.frameworks import need

torch = need("torch")

from test_generated_ops import make_args  # noqa: E402  (valid points: declared domains, spd, well conditioned)

import generated  # noqa: E402
import runtime.torch as rt  # noqa: E402
from primitives.matrix import PRIMITIVES  # noqa: E402
from runtime import backend_torch  # noqa: E402
from runtime.registry import lookup  # noqa: E402
from runtime.tangents import ZeroTangent  # noqa: E402

NAMES = rt.shipped()
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _torch_args(args, dtype=torch.float64, grad=True):
    return [torch.tensor(a, dtype=dtype, requires_grad=grad) if isinstance(a, np.ndarray) else a for a in args]


def _tensor_positions(args):
    return [k for k, a in enumerate(args) if isinstance(a, torch.Tensor)]


def test_every_rule_file_op_is_exposed():
    assert len(NAMES) == sum(len(sys.modules[f"generated.{m}"].OPS) for m in generated.MODULES) >= 50
    assert all(callable(getattr(rt, n)) for n in NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_gradcheck_gradgradcheck_and_values(name):
    reg = lookup(name)
    args = make_args(reg, seed=3)
    targs = _torch_args(args)
    op = getattr(rt, name)
    y = op(*targs)
    np.testing.assert_allclose(y.detach().numpy(), reg(*args), rtol=1e-12, atol=1e-12)
    assert torch.autograd.gradcheck(op, tuple(targs), eps=1e-6, atol=1e-6, rtol=1e-5)
    assert torch.autograd.gradgradcheck(op, tuple(targs), eps=1e-6, atol=1e-5, rtol=1e-4)


@pytest.mark.parametrize("name", NAMES)
def test_forward_mode_against_numpy_frule(name):
    reg = lookup(name)
    args = make_args(reg, seed=4)
    rng = np.random.default_rng(5)
    tans = [rng.standard_normal(np.shape(a)) if isinstance(a, np.ndarray) else None for a in args]
    targs = _torch_args(args, grad=False)
    pos = _tensor_positions(targs)

    def f(*xs):
        full = list(targs)
        for k, x in zip(pos, xs):
            full[k] = x
        return getattr(rt, name)(*full)

    y, dy = torch.func.jvp(f, tuple(targs[k] for k in pos), tuple(torch.tensor(tans[k]) for k in pos))
    y_np, dy_np = reg.frule((None,) + tuple(ZeroTangent() if t is None else t for t in tans), *args)
    np.testing.assert_allclose(y.numpy(), y_np, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(dy.numpy(), dy_np, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", ["matmul", "softmax", "inv", "logdet", "dense", "gaussian_kernel_sum", "scale"])
def test_float32_stays_float32(name):
    args = make_args(lookup(name), seed=6)
    targs = _torch_args(args, dtype=torch.float32)
    y = getattr(rt, name)(*targs)
    assert y.dtype == torch.float32
    y.sum().backward()
    assert all(targs[k].grad.dtype == torch.float32 for k in _tensor_positions(targs))


def test_first_order_backward_does_not_recompute_the_forward(monkeypatch):
    """A first-order backward calls the kept pullback: the matrix is factored once (forward), never again."""
    calls = []
    real = torch.linalg.lu_factor_ex

    def counted(*a, **k):
        calls.append(1)
        return real(*a, **k)
    monkeypatch.setattr(torch.linalg, "lu_factor_ex", counted)
    A = torch.tensor(make_args(lookup("solve"))[0], requires_grad=True)
    b = torch.ones(A.shape[0], dtype=torch.float64, requires_grad=True)
    rt.solve(A, b).sum().backward()
    assert len(calls) == 1
    x = np.linalg.solve(A.detach().numpy(), b.detach().numpy())
    np.testing.assert_allclose(A.grad.numpy(), -np.outer(np.linalg.solve(A.detach().numpy().T, np.ones(len(x))), x))


def test_backward_computes_only_the_cotangents_asked_for(monkeypatch):
    """B does not require grad: its cotangent (a Thunk, an n×n matmul) is never evaluated."""
    import runtime.torch as bridge

    run = []
    real = bridge.unthunk
    monkeypatch.setattr(bridge, "unthunk", lambda c: run.append(c) or real(c))
    A = torch.randn(4, 4, dtype=torch.float64, requires_grad=True)
    B = torch.randn(4, 4, dtype=torch.float64)
    rt.matmul.python(A, B).sum().backward()      # the op's Python code (runtime/torch_native.cpp: test_torch_native)
    assert len(run) == 1
    np.testing.assert_allclose(A.grad.numpy(), np.ones((4, 4)) @ B.numpy().T)


def test_modifying_an_input_or_output_in_place_before_backward_is_an_error():
    # the pullback closure reads softmax's output: changed in place, it would give a wrong gradient silently
    x = torch.randn(5, dtype=torch.float64, requires_grad=True)
    w = torch.arange(5.0, dtype=torch.float64)
    for modify in ("input", "output"):
        xx = x * 1.0
        y = rt.softmax(xx)
        z = y * 1.0
        with torch.no_grad():
            (xx if modify == "input" else y).mul_(2.0)
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            torch.autograd.grad((z * w).sum(), x)


def test_torch_func_transforms_and_vmap():
    x = torch.randn(4, 5, dtype=torch.float64)
    hess = torch.func.jacfwd(torch.func.grad(rt.logsumexp))(x[0])
    p = torch.softmax(x[0], 0)
    torch.testing.assert_close(hess, torch.diag(p) - torch.outer(p, p))
    torch.testing.assert_close(torch.func.vmap(rt.softmax)(x), torch.softmax(x, 1))
    torch.testing.assert_close(torch.func.vmap(torch.func.grad(rt.logsumexp))(x), torch.softmax(x, 1))
    A = x[:, :3, None] * x[:, None, :3] + 3 * torch.eye(3, dtype=torch.float64)      # a batch of spd matrices
    torch.testing.assert_close(torch.func.vmap(rt.inv)(A), torch.linalg.inv(A))      # through the shared LU
    torch.testing.assert_close(torch.func.vmap(torch.func.grad(rt.logdet))(A), torch.linalg.inv(A).mT)


def test_every_matrix_primitive_has_a_torch_forward_and_maps_matching_numpy():
    rng = np.random.default_rng(7)
    X = rng.standard_normal((3, 3)) * 0.3
    S = X @ X.T + 3 * np.eye(3)
    E = rng.standard_normal((3, 3))
    for name, p in PRIMITIVES.items():
        A = S if p.domain in ("spd", "symmetric") else X + 3 * np.eye(3)
        args = (A, np.ones(3)) if len(p.args) > 1 else (A,)
        tb = getattr(backend_torch.prim, name)
        np.testing.assert_allclose(tb.forward(*(torch.tensor(a) for a in args)).numpy(), p.forward(*args),
                                   rtol=1e-10, atol=1e-12, err_msg=name)
        if p.opaque:
            nb = getattr(__import__("runtime.backend_numpy", fromlist=["prim"]).prim, name)
            vals = dict(zip(p.args, args), X=A, R=p.forward(*args))
            saved = [vals[s] if s in vals else PRIMITIVES[s].forward(A) for s in p.saves]
            tsaved = [torch.tensor(s) for s in saved]
            for k in (k for k, j in enumerate(p.jvps) if j is not None):    # each argument's maps
                for mode in ("jvp", "vjp"):
                    # a tangent of argument k, or a cotangent of the result
                    E_ = np.resize(E, np.shape(args[k] if mode == "jvp" else vals["R"]))
                    np.testing.assert_allclose(getattr(tb, mode)(*tsaved, torch.tensor(E_), arg=k).numpy(),
                                               getattr(nb, mode)(*saved, E_, arg=k), rtol=1e-9, atol=1e-11,
                                               err_msg=f"{name}.{mode} of argument {k}")


def test_defined_op_trains_with_a_torch_optimizer(tmp_path, monkeypatch):
    monkeypatch.setenv("TENSOR_RULES_CACHE", str(tmp_path))
    sqerr = rt.define("sqerr(w[j], X[i,j], t[i]) -> L[] = sum(i, (sum(j, X[i,j]*w[j]) - t[i])**2)")
    rng = np.random.default_rng(8)
    X = torch.tensor(rng.standard_normal((20, 3)))
    w_true = torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64)
    t = X @ w_true
    w = torch.zeros(3, dtype=torch.float64, requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.01)
    first = None
    for _ in range(300):
        opt.zero_grad()
        loss = sqerr(w, X, t)
        first = first if first is not None else loss.item()
        loss.backward()
        opt.step()
    assert loss.item() < 1e-10 * first
    torch.testing.assert_close(w.detach(), w_true)


@pytest.mark.slow
def test_load_a_module_written_by_derive_rules(tmp_path):
    rules = tmp_path / "my.rules"
    rules.write_text("cube(x[i]) -> y[i] = x[i]*x[i]*x[i]\n")
    env = dict(os.environ, PYTHONPATH=ROOT, TENSOR_RULES_CACHE=str(tmp_path / "cache"))
    subprocess.run([sys.executable, "-m", "derive.cli", str(rules), "--out", str(tmp_path / "out"), "-q"],
                   check=True, cwd=ROOT, env=env, capture_output=True, timeout=120)
    mod = rt.load(str(tmp_path / "out" / "my.py"))
    x = torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64, requires_grad=True)
    y = mod.cube(x)
    torch.testing.assert_close(y, x.detach() ** 3)
    (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
    torch.testing.assert_close(g, 3 * x.detach() ** 2)
    (h,) = torch.autograd.grad(g.sum(), x)
    torch.testing.assert_close(h, 6 * x.detach())


def test_shape_and_arity_errors_name_the_op():
    with pytest.raises(ValueError, match=r"matmul: index k has extent 3 in A \(axis 1\) but 4 in B \(axis 0\)"):
        rt.matmul(torch.ones(2, 3), torch.ones(4, 5))
    with pytest.raises(TypeError, match=r"inv: expected 1 argument \(A\) but got 2"):
        rt.inv(torch.eye(2), torch.eye(2))
    with pytest.raises(AttributeError, match="no shipped op named 'invv'; did you mean inv"):
        rt.invv


def test_import_without_torch_names_the_extra():
    code = "import sys; sys.modules['torch'] = None\nimport runtime.torch"
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT),
                       capture_output=True, text=True, timeout=60)
    assert r.returncode != 0
    assert "ImportError: runtime.torch needs PyTorch" in r.stderr
    assert "pip install 'tensor-rules[torch]'" in r.stderr


# -- found by an adversarial pass (each failed before its fix) ---------------------------------------------
def test_multi_output_op_with_no_output_gradient(tmp_path, monkeypatch):
    monkeypatch.setenv("TENSOR_RULES_CACHE", str(tmp_path))
    mo = rt.define("mo(x[i]) -> (m[], v[]):\n    m[] = sum(i, x[i])\n    v[] = sum(i, x[i] * x[i])")
    st = rt.define("st(a[], b[]) -> y[] = step(a[]) + step(b[])")
    x = torch.randn(4, dtype=torch.float64, requires_grad=True)
    m, v = mo(x)
    g, = torch.autograd.grad(st(m, v), x, allow_unused=True)
    assert g is None or torch.count_nonzero(g) == 0
    torch.autograd.gradcheck(lambda x: mo(x), (x,))


def test_an_output_that_is_an_input(tmp_path, monkeypatch):
    monkeypatch.setenv("TENSOR_RULES_CACHE", str(tmp_path))
    ident = rt.define("ident(x[i]) -> y[i] = x[i]")
    x = torch.randn(3, dtype=torch.float64, requires_grad=True)
    y = ident(x)
    assert y is not x and torch.equal(y, x)
    (g,) = torch.autograd.grad((y * torch.arange(3.0, dtype=torch.float64)).sum(), x)
    assert torch.equal(g, torch.arange(3.0, dtype=torch.float64))


def test_complex_and_non_tensor_arguments_are_refused_by_name():
    with pytest.raises(TypeError, match="inv: A is complex"):
        rt.inv(torch.eye(3, dtype=torch.complex128))
    with pytest.raises(TypeError, match=r"softmax: x must be a torch.Tensor, not ndarray"):
        rt.softmax(np.ones(3))
    with pytest.raises(TypeError, match=r"softmax: x must be a torch.Tensor, not list"):
        rt.softmax([1.0, 2.0])


def test_a_singular_matrix_raises_linalgerror():
    A = torch.zeros(3, 3, dtype=torch.float64)
    with pytest.raises(torch.linalg.LinAlgError, match="singular"):
        rt.inv(A)
    with pytest.raises(torch.linalg.LinAlgError):
        rt.solve(A, torch.ones(3, dtype=torch.float64))


def test_forward_over_forward_is_refused_not_zero():
    x = torch.tensor([0.3, 1.2], dtype=torch.float64)
    u = torch.ones_like(x)
    with pytest.raises(NotImplementedError, match="forward-mode over forward-mode"):
        torch.func.jvp(lambda y: torch.func.jvp(rt.sin, (y,), (u,))[1], (x,), (u,))
    # forward over reverse (the Hessian) is fine
    H = torch.func.hessian(lambda y: rt.sin(y).sum())(x)
    torch.testing.assert_close(H, torch.diag(-torch.sin(x)))


def test_backward_drops_the_closure_and_a_retained_graph_still_differentiates_again():
    x = torch.randn(6, dtype=torch.float64, requires_grad=True)
    w = torch.arange(6.0, dtype=torch.float64)
    # the Python Function, the Python code under runtime/torch_native.cpp's PyPullNode, the native runner's node
    for softmax in (rt.softmax.general, rt.softmax.python, rt.softmax):
        y = softmax(x)
        L = (y * w).sum()
        g1, = torch.autograd.grad(L, x, retain_graph=True)
        if softmax is rt.softmax.general:
            assert y.grad_fn.pb is None                 # the activations the closure held are released
        g2, = torch.autograd.grad(L, x)                 # recomputed from the saved inputs
        s = torch.softmax(x.detach(), 0)
        torch.testing.assert_close(g1, s * (w - (s * w).sum()))
        torch.testing.assert_close(g2, g1)
        with pytest.raises(RuntimeError, match="second time"):
            torch.autograd.grad(L, x)


def test_load_sees_a_regenerated_file(tmp_path):
    rules = tmp_path / "mine.rules"
    out = tmp_path / "out"
    env = dict(os.environ, PYTHONPATH=ROOT, TENSOR_RULES_CACHE=str(tmp_path / "cache"))
    values = []
    for body in ("x[i] * x[i]", "x[i] * x[i] * x[i]"):
        rules.write_text(f"cube(x[i]) -> y[i] = {body}\n")
        subprocess.run([sys.executable, "-m", "derive.cli", "-q", str(rules), "--out", str(out)], cwd=ROOT,
                       env=env, check=True, capture_output=True)
        values.append(rt.load(out / "mine.py").cube(torch.tensor([2.0])).item())
    assert values == [4.0, 8.0]


def test_under_saved_tensor_hooks_the_closure_is_not_kept():
    """Checkpointing and save_on_cpu manage what backward keeps through hooks; the closure bypasses them, so
    under hooks it is recomputed in backward from the hooked inputs instead of being held."""
    from torch.utils.checkpoint import checkpoint

    W = torch.randn(5, 4, dtype=torch.float64, requires_grad=True)
    c = torch.randn(5, dtype=torch.float64, requires_grad=True)
    x = torch.randn(3, 4, dtype=torch.float64)
    for dense in (rt.dense.general, rt.dense.python, rt.dense):    # Function, PyPullNode, the native runner
        packed = []
        with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(1) or t, lambda t: t):
            y = dense(W, x, c)
        assert packed and getattr(y.grad_fn, "pb", None) is None
        g = torch.autograd.grad(y.sum(), [W, c])
        ref = torch.autograd.grad(torch.tanh(x @ W.T + c).sum(), [W, c])
        for a, b in zip(g, ref):
            torch.testing.assert_close(a, b)
    out = checkpoint(lambda W, c: rt.dense(W, rt.dense(W[:, :4].T @ W, x, c[:4]), c).sum(), W, c,
                     use_reentrant=False)
    g = torch.autograd.grad(out, [W, c])
    ref = torch.autograd.grad(torch.tanh(torch.tanh(x @ (W[:, :4].T @ W).T + c[:4]) @ W.T + c).sum(), [W, c])
    for a, b in zip(g, ref):
        torch.testing.assert_close(a, b)


def test_inference_runs_the_forward_alone():
    """No input requires grad (or grad is off): the generated forward runs without an autograd node."""
    A = torch.randn(4, 4, dtype=torch.float64) + 4 * torch.eye(4, dtype=torch.float64)
    B = rt.inv(A)
    assert B.grad_fn is None and not B.requires_grad
    torch.testing.assert_close(B, torch.linalg.inv(A))
    A.requires_grad_()
    with torch.no_grad():
        assert rt.inv(A).grad_fn is None
    assert rt.inv(A).grad_fn is not None
    x = torch.randn(3, dtype=torch.float64)
    y = rt.define("ident2(x[i]) -> y[i] = x[i]")(x)      # an output that is an input is still a copy
    assert y is not x and torch.equal(y, x)


def test_forward_ad_dual_tensors_through_the_eager_function():
    import torch.autograd.forward_ad as fwAD

    A = torch.randn(4, 4, dtype=torch.float64) + 4 * torch.eye(4, dtype=torch.float64)
    dA = torch.randn(4, 4, dtype=torch.float64)
    with fwAD.dual_level():
        B, dB = fwAD.unpack_dual(rt.inv(fwAD.make_dual(A, dA)))
    Bi = torch.linalg.inv(A)
    torch.testing.assert_close(dB, -Bi @ dA @ Bi)


def test_a_shipped_name_is_the_shipped_op_whatever_was_defined(tmp_path):
    code = ("import torch, runtime.torch as rt\n"
            "rt.inv\n"
            "mine = rt.define('softmax(x[i]) -> y[i] = 10 * x[i]')\n"
            "print(rt.softmax(torch.ones(2))[0].item(), mine(torch.ones(2))[0].item())\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=ROOT, TENSOR_RULES_CACHE=str(tmp_path),
                                TENSOR_RULES_NATIVE="0"))    # (a fresh cache: no 25 s build of the runner)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["0.5", "10.0"]


def test_leading_axes_and_none_take_their_own_paths_with_the_same_values():
    """A call with no loop axes runs the rule's own functions, one with leading axes the batching wrapper (both
    eager with grad and in inference); each against torch's own matmul and its autograd."""
    A = torch.randn(2, 3, 4, 5, dtype=torch.float64)        # leading axes (2, 3)
    B = torch.randn(5, 6, dtype=torch.float64)              # none: broadcast along them
    G = torch.randn(2, 3, 4, 6, dtype=torch.float64)
    for a, b, g in ((A, B, G), (A[0, 0], B, G[0, 0]), (A[0, 0], A[0, 1].transpose(-1, -2), torch.randn(4, 4).double())):
        torch.testing.assert_close(rt.matmul(a, b), torch.matmul(a, b), rtol=1e-13, atol=1e-13)
        ours = [t.clone().requires_grad_() for t in (a, b)]
        ref = [t.clone().requires_grad_() for t in (a, b)]
        y, y_ref = rt.matmul(*ours), torch.matmul(*ref)
        torch.testing.assert_close(y, y_ref, rtol=1e-13, atol=1e-13)
        got = torch.autograd.grad(y, ours, g)
        want = torch.autograd.grad(y_ref, ref, g)
        for u, v, t in zip(got, want, (a, b)):
            assert u.shape == t.shape
            torch.testing.assert_close(u, v, rtol=1e-12, atol=1e-12)
    assert torch.autograd.gradcheck(rt.matmul, (A[:, :1].clone().requires_grad_(), B.clone().requires_grad_()))



_INF = np.inf
_LSE_ROWS = [[1.0, 2.0, 3.0], [-_INF, -_INF, -_INF], [_INF, 1.0, 2.0], [-_INF, 0.5, -_INF], [np.nan, 1.0, 0.0],
             [_INF, -_INF, 0.0], [1e300, 1e300, -1e300]]


def test_the_log_sum_exp_shift_and_ops_through_it_match_numpy_at_infinities_nans_and_empty_axes():
    """backend_torch.lse_shift (one nan_to_num) is backend_numpy.lse_shift (max, then 0 where not finite), and
    the ops written through it give NumPy's values, NaN and each infinity's sign included."""
    from runtime import backend_numpy

    X = np.array(_LSE_ROWS)
    for x, axis in ((X, 1), (X, 0), (X[0], 0), (np.zeros((2, 0)), 1), (np.zeros((0, 3)), 0)):
        want = backend_numpy.lse_shift(x, axis=axis)
        got = backend_torch.lse_shift(torch.tensor(x), axis=axis).numpy()
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)     # NaN where NaN, the same infinities, the same numbers
    np.testing.assert_array_equal(backend_numpy.lse_shift(X, axis=1).ravel(), [3.0, 0, 0, 0.5, 0, 0, 1e300])
    # the whole log-sum-exp: torch.logsumexp against the shifted sum NumPy computes, over one axis or several
    for x, axis in ((X, 1), (X, 0), (X, (0, 1)), (np.zeros((2, 0)), 1), (np.zeros((0, 3)), 0)):
        with np.errstate(all="ignore"):
            want = backend_numpy.logsumexp(x, axis=axis)
        got = backend_torch.logsumexp(torch.tensor(x), axis=axis).numpy()
        assert got.shape == np.shape(want)
        np.testing.assert_allclose(got, want, rtol=1e-15, atol=0, equal_nan=True)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(backend_numpy.logsumexp(X, axis=1)[1:],
                                      [-_INF, _INF, 0.5, np.nan, _INF, 1e300 + np.log(2)])
        want = lookup("row_logsumexp")(X)
    np.testing.assert_allclose(rt.row_logsumexp(torch.tensor(X)).numpy(), want, rtol=1e-14, atol=0, equal_nan=True)
    for name in ("logsumexp", "softmax", "log_softmax"):
        ref = lookup(name)
        for row in _LSE_ROWS + [[]]:
            x = np.array(row, dtype=np.float64)
            with np.errstate(all="ignore"):
                want = ref(x)
            got = getattr(rt, name)(torch.tensor(x)).numpy()
            np.testing.assert_allclose(got, want, rtol=1e-14, atol=0, equal_nan=True, err_msg=f"{name}({row})")


def _outcome(f, args):
    try:
        y = f(*args)
    except Exception as exc:                          # noqa: BLE001  (the error is the outcome compared)
        return type(exc), str(exc)
    ys = y if isinstance(y, tuple) else (y,)
    return [(v.detach(), v.requires_grad, v.grad_fn is None) for v in ys]


@pytest.mark.parametrize("name", NAMES)
def test_the_compiled_usual_call_agrees_with_the_general_op(name):
    """runtime.torch compiles each op's usual call (all tensors, the rule's own axes and extents) into one
    straight-line function (`op.python`: the native runner in front of it is test_torch_native's); on valid arguments, extra leading axes, a wrong extent, a missing axis, a complex
    input, an nn.Parameter and under no_grad it gives what the general op gives: the same values, the same
    autograd node or none, the same error and message."""
    op = getattr(rt, name)
    reg = lookup(name)
    base = make_args(reg, seed=6)
    variants = [_torch_args(base, grad=False), _torch_args(base, grad=True)]
    for k in _tensor_positions(variants[0]):
        a = variants[0][k]
        for bad in (a[None].expand(2, *a.shape), a[..., :-1] if a.dim() and a.shape[-1] > 1 else None,
                    a.sum(-1) if a.dim() else None, a.to(torch.complex128), torch.nn.Parameter(a.clone())):
            if bad is not None:
                variants.append(variants[0][:k] + [bad] + variants[0][k + 1:])
    for args in variants:
        got, want = _outcome(op.python, args), _outcome(op.general, args)
        if isinstance(want, tuple):
            assert got == want
            continue
        assert len(got) == len(want)
        for (g, g_req, g_leaf), (w, w_req, w_leaf) in zip(got, want):
            torch.testing.assert_close(g, w, rtol=0, atol=0, equal_nan=True)
            assert (g_req, g_leaf) == (w_req, w_leaf)
    with torch.no_grad():
        args = variants[1]
        assert all(v[2] for v in _outcome(op, args) if not isinstance(v, str))
