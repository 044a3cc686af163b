"""Proof by addition (issue #24): cbrt and erfinv, added as one row each of primitives/elementwise.py (plus, for
erfinv, the C++ kernel function templates/erfinv.h), derived, verified and run in every backend.

Expected values come from mpmath (the real cube root sign(x)·|x|^⅓; erfinv at 30 digits), never from the code
under test: derive-rules' verification (finite differences, adjoint, the reference evaluator at realistic
scales), the generated NumPy code, the native C++ kernels, the CUDA kernels (run by the CPU emulation, and by nvcc
where it is installed), runtime.torch and runtime.jax.
"""
from __future__ import annotations

import ctypes
import json
import shutil
import subprocess
import sys
from pathlib import Path

import mpmath
import numpy as np
import pytest

from derive import api
from derive.emission import cpp as codegen_cpp
from derive.emission import cuda as codegen_cuda
from derive.emission.templates import template_env
from derive.verification import native as verify_native
from runtime import backend_numpy

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "codegen"))
import cuda_emu  # noqa: E402  (tests/codegen/cuda_emu.py)

RULES = {
    "t_cbrt": "t_cbrt(x[i]) -> y[i] = cbrt(x[i])",
    "t_erfinv": "t_erfinv(x[i]) -> y[i] = erfinv(x[i])",
    # both inside a reduction, at a realistic scale: a weighted sum of cube roots and a probit of a ratio
    "t_mix": "t_mix(x[i], w[i]) -> s = sum(i, w[i] * cbrt(x[i]) * erfinv(0.5 * tanh(x[i])))",
}


def cbrt_ref(x):
    with mpmath.workdps(30):
        return np.array([float(mpmath.sign(v) * mpmath.cbrt(abs(mpmath.mpf(float(v))))) for v in x])


def erfinv_ref(x):
    with mpmath.workdps(30):
        return np.array([float(mpmath.erfinv(mpmath.mpf(float(v)))) for v in x])


def dcbrt_ref(x):
    return 1.0 / (3.0 * cbrt_ref(x) ** 2)


def derfinv_ref(x):
    with mpmath.workdps(30):
        return np.array([float(mpmath.sqrt(mpmath.pi) / 2 * mpmath.exp(mpmath.erfinv(mpmath.mpf(float(v))) ** 2))
                         for v in x])


# negative x at every scale for cbrt; |x| up to the last doubles below 1 for erfinv
CBRT_X = np.array([-1e6, -27.0, -8.0, -1.5, -1e-3, -1e-9, 1e-9, 0.4, 8.0, 1e3, 3.3e7])
ERFINV_X = np.array([-1 + 2.0 ** -52, -0.999999, -0.9, -0.3, 1e-12, 0.2, 0.5, 0.5000001, 0.95, 0.9999999999,
                     1 - 2.0 ** -53])


def _module(rules, label):
    """(results, generated NumPy source, its _define) of the rules, derived without verification."""
    results = api.derive_text("\n".join(rules.values()), label, verify_rules=False)
    src = api.render_module(results, label, export=False)
    ns: dict = {}
    exec(compile(src, label, "exec"), ns)
    return results, src, ns["_define"]


@pytest.fixture(scope="module")
def derived():
    return _module(RULES, "<new>")


@pytest.mark.parametrize("name", list(RULES))
def test_derive_rules_verifies(name):
    """Both modes against finite differences and the adjoint identity, the value against the reference
    evaluator at the verifier's realistic scales (offsets ±1e3, 1e6, scale 1e3)."""
    (r,) = api.derive_text(RULES[name], "<new>")
    assert r.ok, (r.error, r.check and r.check.problems)
    assert r.check.reference_points > 0 and r.check.reference_error < 1e-9


def test_numpy_values_and_derivatives(derived):
    _, _, define = derived
    fns = define(backend_numpy)
    for name, x, ref, dref in (("t_cbrt", CBRT_X, cbrt_ref, dcbrt_ref), ("t_erfinv", ERFINV_X, erfinv_ref,
                                                                           derfinv_ref)):
        y, pullback = fns[f"{name}_rrule"](x)
        np.testing.assert_allclose(y, ref(x), rtol=1e-14, err_msg=name)
        (_, g) = pullback(np.ones_like(x))
        np.testing.assert_allclose(np.asarray(g), dref(x), rtol=1e-12, err_msg=name)
        _, dy = fns[f"{name}_frule"]((None, 2 * np.ones_like(x)), x)
        np.testing.assert_allclose(dy, 2 * dref(x), rtol=1e-12, err_msg=name)
    assert fns["t_cbrt"](np.array([-8.0]))[0] == -2.0     # not x**(1/3), which is NaN for x < 0
    assert np.isinf(fns["t_erfinv"](np.array([-1.0, 1.0]))).all()


def test_native_cpu_kernels_agree_with_numpy(derived):
    from runtime import native

    ok, why = native.available()
    if not ok:
        pytest.skip(f"native CPU kernels unavailable: {why}")
    results, src, _ = derived
    files = codegen_cpp.generate_cpu(results, "<new>", module_text=src, name="new")
    assert set(json.loads(files["new.json"])["ops"]) == set(RULES)
    assert "tr_erfinv(" in files["new.cpp"] and "cbrt(" in files["new.cpp"]
    checked = verify_native.check(src, {f"cpu/{k}": v for k, v in files.items()}, "<new>")
    assert set(checked) == set(RULES)
    for name, c in checked.items():
        assert not c.problems, (name, c.problems)


GXX = shutil.which("g++")


@pytest.mark.skipif(GXX is None, reason="g++ is not installed")
def test_cpp_erfinv_kernel_function_near_one(tmp_path):
    """templates/erfinv.h (the C++ kernels' tr_erfinv, and the emulation's CUDA erfinv) at |x| near 1, in double
    and float: within a few ulps of mpmath."""
    (tmp_path / "h.h").write_text(template_env().get_template("cpu_helpers.h.j2").render())
    (tmp_path / "k.cpp").write_text('#include "h.h"\n'
                                    'extern "C" void ei_d(const double* x, double* y, long n) '
                                    '{ for (long i = 0; i < n; ++i) y[i] = tr_erfinv(x[i]); }\n'
                                    'extern "C" void ei_f(const float* x, float* y, long n) '
                                    '{ for (long i = 0; i < n; ++i) y[i] = tr_erfinv(x[i]); }\n')
    so = tmp_path / "k.so"
    done = subprocess.run([GXX, "-O2", "-std=c++17", "-fopenmp", "-shared", "-fPIC", f"-I{tmp_path}",
                           str(tmp_path / "k.cpp"), "-o", str(so)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    lib = ctypes.CDLL(str(so))
    rng = np.random.default_rng(0)
    x = np.concatenate([ERFINV_X, rng.uniform(-1, 1, 2000), 1 - 10.0 ** -rng.uniform(1, 15.9, 500),
                        -(1 - 10.0 ** -rng.uniform(1, 15.9, 500))])
    for dtype, fn, ulps in ((np.float64, lib.ei_d, 4), (np.float32, lib.ei_f, 4)):
        xs = x.astype(dtype)
        xs = xs[np.abs(xs) < 1]
        y = np.empty_like(xs)
        fn(xs.ctypes.data_as(ctypes.c_void_p), y.ctypes.data_as(ctypes.c_void_p), ctypes.c_long(xs.size))
        want = erfinv_ref(xs.astype(np.float64))
        err = np.abs(y.astype(np.float64) - want) / (np.spacing(np.abs(want).astype(dtype)).astype(np.float64))
        assert np.max(err) <= ulps, (dtype, xs[np.argmax(err)], np.max(err))
    special = np.array([1.0, -1.0, 1.5, np.nan, 0.0, -0.0])
    y = np.empty_like(special)
    lib.ei_d(special.ctypes.data_as(ctypes.c_void_p), y.ctypes.data_as(ctypes.c_void_p), ctypes.c_long(6))
    assert y[0] == np.inf and y[1] == -np.inf and np.isnan(y[2]) and np.isnan(y[3]) and y[4] == 0.0
    assert np.signbit(y[5])


def _emulated(results, stem):
    """The CUDA module of `results` in the CPU emulation: (module, device, its .cu source)."""
    ok, why = cuda_emu.available()
    if not ok:
        pytest.skip(f"no CPU emulation: {why}")
    from runtime import cuda as rc

    files = codegen_cuda.generate_cuda(results, f"<{stem}>", name=stem)
    plan = json.loads(files[f"{stem}.json"])
    assert not plan.get("unsupported"), plan.get("unsupported")
    return rc.Module(stem, files[f"{stem}.cu"], plan), cuda_emu.EmuDevice(sm_count=2), files[f"{stem}.cu"]


def _host(a):
    return np.asarray(a.get() if hasattr(a, "get") else a, dtype=np.float64)


NVCC = shutil.which("nvcc")


def _nvcc_compiles(results, stem, tmp_path):
    cu = tmp_path / f"{stem}.cu"
    cu.write_text(codegen_cuda.generate_cuda(results, f"<{stem}>", name=stem)[f"{stem}.cu"])
    done = subprocess.run([NVCC, "-std=c++17", "-c", str(cu), "-o", str(tmp_path / f"{stem}.o")],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]


def test_cuda_kernels_in_the_emulation(derived):
    from runtime import cuda as rc
    from runtime.tangents import is_zero

    mod, dev, source = _emulated(derived[0], "new")
    assert "erfinv(" in source and "cbrt(" in source
    host = _host
    for name, x, ref, dref in (("t_cbrt", CBRT_X, cbrt_ref, dcbrt_ref), ("t_erfinv", ERFINV_X, erfinv_ref,
                                                                           derfinv_ref)):
        y, pullback = rc.call(mod, name, "rrule", [dev.asarray(x, np.float64)], dev)
        np.testing.assert_allclose(host(y), ref(x), rtol=1e-13, err_msg=name)
        (_, g) = pullback(dev.asarray(np.ones_like(x), np.float64))
        assert not is_zero(g)
        np.testing.assert_allclose(host(g), dref(x), rtol=1e-11, err_msg=name)


@pytest.mark.slow
@pytest.mark.skipif(NVCC is None, reason="nvcc is not installed")
def test_cuda_source_compiles_with_nvcc(derived, tmp_path):
    """CUDA's own erfinv and cbrt, for float and double (the emulation stands in for them with templates/erfinv.h
    and std::cbrt)."""
    _nvcc_compiles(derived[0], "new", tmp_path)


def test_torch_bridge(tmp_path, monkeypatch):
    torch = pytest.importorskip("torch")
    import runtime.torch as rt

    monkeypatch.setenv("TENSOR_RULES_CACHE", str(tmp_path))
    cb, ei = rt.define(RULES["t_cbrt"]), rt.define(RULES["t_erfinv"])
    x = torch.tensor(CBRT_X, requires_grad=True)
    y = cb(x)
    y.sum().backward()
    np.testing.assert_allclose(y.detach().numpy(), cbrt_ref(CBRT_X), rtol=1e-14)
    np.testing.assert_allclose(x.grad.numpy(), dcbrt_ref(CBRT_X), rtol=1e-12)
    z = torch.tensor(ERFINV_X[1:-1], requires_grad=True)
    w = ei(z)
    (g,) = torch.autograd.grad(w.sum(), z)
    np.testing.assert_allclose(w.detach().numpy(), erfinv_ref(ERFINV_X[1:-1]), rtol=1e-13)
    np.testing.assert_allclose(g.numpy(), derfinv_ref(ERFINV_X[1:-1]), rtol=1e-10)
    assert torch.autograd.gradcheck(cb, (torch.tensor([-2.0, -0.5, 0.7, 3.0], dtype=torch.float64,
                                                      requires_grad=True),))
    assert torch.autograd.gradgradcheck(ei, (torch.tensor([-0.7, 0.1, 0.9], dtype=torch.float64,
                                                          requires_grad=True),))


def test_jax_bridge(tmp_path, monkeypatch):
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp

    import runtime.jax as rj

    monkeypatch.setenv("TENSOR_RULES_CACHE", str(tmp_path))
    cb, ei = rj.define(RULES["t_cbrt"]), rj.define(RULES["t_erfinv"])
    x = jnp.asarray(CBRT_X)
    np.testing.assert_allclose(np.asarray(cb(x)), cbrt_ref(CBRT_X), rtol=1e-14)
    np.testing.assert_allclose(np.asarray(jax.grad(lambda v: jnp.sum(cb(v)))(x)), dcbrt_ref(CBRT_X), rtol=1e-12)
    z = jnp.asarray(ERFINV_X[1:-1])
    # JAX spells erfinv with its own (XLA's): ~1e-12 relative in the tails (scipy's, which NumPy uses, ~1e-16)
    np.testing.assert_allclose(np.asarray(jax.jit(ei)(z)), erfinv_ref(ERFINV_X[1:-1]), rtol=1e-11)
    np.testing.assert_allclose(np.asarray(jax.grad(lambda v: jnp.sum(ei(v)))(z)), derfinv_ref(ERFINV_X[1:-1]),
                               rtol=1e-10)
    _, t = jax.jvp(ei, (z,), (jnp.ones_like(z),))
    np.testing.assert_allclose(np.asarray(t), derfinv_ref(ERFINV_X[1:-1]), rtol=1e-10)


# --------------------------------------------------------------------------------------------------------------
# solve_triangular(L, b) and solve_triangular_upper(U, b): both arguments differentiable, each by its own map

TRI = {
    "st_lo_vec": "st_lo_vec(L[i,j], b[j]) -> x[i] = solve_triangular(L[i,j], b[j])",
    "st_lo_mat": "st_lo_mat(L[i,j], B[j,k]) -> X[i,k] = solve_triangular(L[i,j], B[j,k])",
    "st_up_vec": "st_up_vec(U[i,j], b[j]) -> x[i] = solve_triangular_upper(U[i,j], b[j])",
    "st_up_batch": "st_up_batch(U[n,i,j], B[n,j,k]) -> X[n,i,k] = solve_triangular_upper(U[n,i,j], B[n,j,k])",
    # used inside a larger rule: both maps' cotangents flow on through a contraction
    "st_quad": "st_quad(L[i,j], b[j], w[i]) -> s[] = sum(i, w[i] * solve_triangular(L[i,j], b[j]) ** 2)",
}


def _tri_inputs(name, rng, scale=1.0):
    """A well-conditioned triangular matrix (the other triangle filled with noise the primitive must never read),
    and right-hand sides, at `scale`."""
    lower = "_lo" in name or name == "st_quad"
    n = 5
    A = rng.uniform(-0.5, 0.5, (n, n)) + 2.0 * np.eye(n)
    if name == "st_up_batch":
        A = np.stack([A, A.T + np.eye(n)])
        return [A * scale, rng.standard_normal((2, n, 3)) * scale]
    rhs = rng.standard_normal((n, 3) if name.endswith("_mat") else n) * scale
    out = [A * scale, rhs]
    return out + [rng.standard_normal(n)] if name == "st_quad" else out


@pytest.fixture(scope="module")
def tri():
    results, _, define = _module(TRI, "<tri>")
    return results, define


@pytest.mark.parametrize("name", list(TRI))
def test_solve_triangular_derive_rules_verifies(name):
    (r,) = api.derive_text(TRI[name], "<tri>")
    assert r.ok, (r.error, r.check and r.check.problems)


def _fd_cotangents(f, args, ybar, h=1e-6):
    """⟨ȳ, ∂f/∂aₖ⟩ for every entry of every argument, by central differences."""
    out = []
    for k, a in enumerate(args):
        g = np.zeros_like(a)
        for idx in np.ndindex(*a.shape):
            step = h * max(1.0, abs(a[idx]))
            up, dn = [x.copy() for x in args], [x.copy() for x in args]
            up[k][idx] += step
            dn[k][idx] -= step
            g[idx] = np.sum(ybar * (f(*up) - f(*dn))) / (2 * step)
        out.append(g)
    return out


@pytest.mark.parametrize("scale", [1.0, 1e3, 1e-3])
@pytest.mark.parametrize("name", list(TRI))
def test_solve_triangular_both_cotangents_against_finite_differences(name, scale, tri):
    from runtime.tangents import unthunk

    _, define = tri
    fns = define(backend_numpy)
    rng = np.random.default_rng(3)
    args = _tri_inputs(name, rng, scale)
    y, pullback = fns[f"{name}_rrule"](*args)
    ybar = rng.standard_normal(np.shape(y))
    got = [np.asarray(unthunk(g)) for g in pullback(ybar)[1:]]
    want = _fd_cotangents(fns[name], args, ybar)
    for k, (g, w) in enumerate(zip(got, want)):
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-8 * np.max(np.abs(w)), err_msg=f"{name} arg {k}")
    # the triangle the primitive does not read has a zero cotangent, exactly
    tri_part = np.triu if "_lo" in name or name == "st_quad" else np.tril
    assert np.all(tri_part(got[0], 1 if tri_part is np.triu else -1) == 0)
    # and the pushforward is the pullback's transpose: ⟨ȳ, J·t⟩ = ⟨Jᵀ·ȳ, t⟩
    ts = [rng.standard_normal(np.shape(a)) for a in args]
    _, dy = fns[f"{name}_frule"]((None, *ts), *args)
    np.testing.assert_allclose(np.sum(ybar * dy), sum(np.sum(g * t) for g, t in zip(got, ts)), rtol=1e-10)


def test_solve_triangular_forward_against_numpy_solve(tri):
    _, define = tri
    fns = define(backend_numpy)
    rng = np.random.default_rng(4)
    L, B = _tri_inputs("st_lo_mat", rng)
    np.testing.assert_allclose(fns["st_lo_mat"](L, B), np.linalg.solve(np.tril(L), B), rtol=1e-12)
    U, b = _tri_inputs("st_up_vec", rng)
    np.testing.assert_allclose(fns["st_up_vec"](U, b), np.linalg.solve(np.triu(U), b), rtol=1e-12)


def test_solve_triangular_traced_second_order(tri):
    """runtime.tnp differentiates the maps again (they are written with the primitives themselves)."""
    from runtime import tnp
    from runtime.tape import grad
    from runtime.tangents import unthunk

    _, define = tri
    f = define(tnp)["st_quad"]
    fns = define(backend_numpy)
    rng = np.random.default_rng(5)
    L, b, w = _tri_inputs("st_quad", rng)
    gb = grad(lambda b_: f(L, b_, w), 0)
    np.testing.assert_allclose(np.asarray(unthunk(gb(b))), np.asarray(unthunk(fns["st_quad_rrule"](L, b, w)[1](1.0)[2])),
                               rtol=1e-12)
    # Hessian in b, column by column: (2·L⁻ᵀ·diag(w)·L⁻¹)
    H = np.stack([np.asarray(unthunk(grad(lambda b_: tnp.sum(gb(b_) * e), 0)(b))) for e in np.eye(len(b))])
    Li = np.linalg.inv(np.tril(L))
    np.testing.assert_allclose(H, 2 * Li.T @ np.diag(w) @ Li, rtol=1e-10)


def test_solve_triangular_cuda_kernels_in_the_emulation(tri):
    from runtime import cuda as rc
    from runtime.tangents import unthunk

    results, define = tri
    fns = define(backend_numpy)
    mod, dev, _ = _emulated(results, "tri")
    host = _host
    rng = np.random.default_rng(6)
    for name in TRI:
        args = _tri_inputs(name, rng)
        y, pullback = rc.call(mod, name, "rrule", [dev.asarray(a, np.float64) for a in args], dev)
        yn, pbn = fns[f"{name}_rrule"](*args)
        np.testing.assert_allclose(host(y), yn, rtol=1e-12, atol=1e-14, err_msg=name)
        ybar = rng.standard_normal(np.shape(yn))
        got = pullback(dev.asarray(ybar, np.float64))[1:]
        for k, (g, w) in enumerate(zip(got, pbn(ybar)[1:])):
            np.testing.assert_allclose(host(g), np.asarray(unthunk(w)), rtol=1e-11, atol=1e-13,
                                       err_msg=f"{name} arg {k}")


@pytest.mark.slow
@pytest.mark.skipif(NVCC is None, reason="nvcc is not installed")
def test_solve_triangular_cuda_source_compiles_with_nvcc(tri, tmp_path):
    _nvcc_compiles(tri[0], "tri", tmp_path)


def test_solve_triangular_torch_bridge(tmp_path, monkeypatch):
    torch = pytest.importorskip("torch")
    import runtime.torch as rt

    monkeypatch.setenv("TENSOR_RULES_CACHE", str(tmp_path))
    rng = np.random.default_rng(7)
    for name in ("st_lo_mat", "st_up_vec", "st_up_batch"):
        op = rt.define(TRI[name])
        args = tuple(torch.tensor(a, requires_grad=True) for a in _tri_inputs(name, rng))
        assert torch.autograd.gradcheck(op, args), name
        assert torch.autograd.gradgradcheck(op, args), name


@pytest.mark.slow
def test_solve_triangular_jax_bridge(tmp_path, monkeypatch):
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    from jax.test_util import check_grads

    import runtime.jax as rj

    monkeypatch.setenv("TENSOR_RULES_CACHE", str(tmp_path))
    rng = np.random.default_rng(8)
    for name in ("st_lo_mat", "st_up_vec", "st_up_batch"):
        op = rj.define(TRI[name])
        args = tuple(jnp.asarray(a) for a in _tri_inputs(name, rng))
        check_grads(op, args, order=2, modes=("fwd", "rev"))
        np.testing.assert_allclose(np.asarray(jax.jit(op)(*args)), np.asarray(op(*args)), rtol=1e-13)
