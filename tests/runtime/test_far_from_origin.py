"""Derivatives at realistic magnitudes on every compiled path (issue #25), against references computed apart from the
code: mpmath at 50 digits for the log-sum-exp family, and float64 of the direct definition for the Gaussian kernel
sum (x - y is exact there, Sterbenz). Inputs are rounded to the working dtype first, so the references see exactly
what the code sees.

Paths: the generated NumPy code, the native CPU plan (C++), the CUDA plan (the CPU emulation of its kernels), the
torch bridge (its native runner and its Python path) and the JAX bridge. Before the fixes every path's
logsumexp/row_logsumexp pullback was exp(x - lse), which loses |x|·eps (3 % in float32 at 1e6), cross_entropy's
value and its targets' cotangent read z - lse with lse rounded (its value 100 % off in float32 at 1e15), and the
native and CUDA kernels' Gaussian x-cotangent was the expanded Σ_j K·y_j - x_i·Σ_j K of uncentred coordinates
(0.2 off in float32 at 1e6, 3e-10 in float64 at 1e6), which the NumPy code centred first; centring cannot help two
clusters far apart (5-30 % on every path), and the derivation now keeps x_i - y_j whole inside the sum over j."""
from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

import mpmath
import numpy as np
import pytest

import generated
from runtime import backend_numpy, native
from runtime import cuda as rc
from runtime.tangents import NoTangent, ZeroTangent, is_zero, unthunk

ROOT = Path(__file__).resolve().parents[2]
mpmath.mp.dps = 50
TOL = {np.float32: 2e-5, np.float64: 1e-10}
SCALES = [(np.float32, 1e3), (np.float32, 1e6), (np.float64, 1e6), (np.float64, 1e15)]
SCALE_IDS = [f"{np.dtype(d).name}@{o:g}" for d, o in SCALES]
PATHS = ["numpy", "native", "cuda-emulated", "torch", "torch-python", "jax"]
MODULE = {"logsumexp": "nn", "cross_entropy": "nn", "gaussian_kernel_sum": "nn", "row_logsumexp": "reductions"}


def _mpf(v):
    return mpmath.mpf(float(v))


def _lse_rows(z):
    """(log Σ exp per row, softmax rows) of a 2-D array, in mpmath."""
    lse, soft = [], []
    for row in z:
        m = max(_mpf(v) for v in row)
        s = mpmath.fsum(mpmath.exp(_mpf(v) - m) for v in row)
        lse.append(m + mpmath.log(s))
        soft.append([mpmath.exp(_mpf(v) - m) / s for v in row])
    return lse, soft


def _problem(op, dtype, offset, rng):
    """(inputs, output cotangent, the references: output, input cotangents) at inputs near `offset`."""
    if op == "logsumexp":
        x = (offset + np.array([0.0, 1.0, 2.0, -0.5])).astype(dtype)
        ybar = dtype(1.5)
        (lse,), (soft,) = _lse_rows(x[None])
        return (x,), ybar, float(lse), (np.array([float(1.5 * s) for s in soft]),)
    if op == "row_logsumexp":
        z = (offset + rng.standard_normal((3, 5))).astype(dtype)
        ybar = rng.standard_normal(3).astype(dtype)
        lse, soft = _lse_rows(z)
        return (z,), ybar, np.array([float(v) for v in lse]), (
            np.array([[float(_mpf(ybar[b]) * s) for s in soft[b]] for b in range(3)]),)
    if op == "cross_entropy":
        z = (offset + rng.standard_normal((3, 5))).astype(dtype)
        t = rng.random((3, 5)).astype(dtype)
        t /= t.sum(1, keepdims=True)
        lbar = dtype(2.0)
        lse, soft = _lse_rows(z)
        B = 3
        L = -mpmath.fsum(_mpf(t[b, c]) * (_mpf(z[b, c]) - lse[b]) for b in range(B) for c in range(5)) / B
        tsum = [mpmath.fsum(_mpf(v) for v in t[b]) for b in range(B)]
        gz = np.array([[float(2 * (-_mpf(t[b, c]) + tsum[b] * soft[b][c]) / B) for c in range(5)] for b in range(B)])
        gt = np.array([[float(2 * (lse[b] - _mpf(z[b, c])) / B) for c in range(5)] for b in range(B)])
        return (z, t), lbar, float(L), (gz, gt)
    x = (offset + rng.standard_normal((6, 3))).astype(dtype)
    y = (offset + rng.standard_normal((7, 3))).astype(dtype)
    b = rng.standard_normal(7).astype(dtype)
    s = dtype(2.0)
    w = rng.standard_normal(6).astype(dtype)
    X, Y, B, S, W = (np.asarray(v, np.float64) for v in (x, y, b, s, w))
    diff = X[:, None, :] - Y[None, :, :]            # exact: the coordinates are close (Sterbenz)
    d2 = np.sum(diff * diff, axis=-1)
    K = np.exp(-d2 / S)
    gx = -2 / S * np.einsum("i,ij,j,ijd->id", W, K, B, diff)
    gy = 2 / S * np.einsum("i,ij,j,ijd->jd", W, K, B, diff)
    return (x, y, b, s), w, K @ B, (gx, gy, K.T @ W, np.einsum("i,ij,j,ij->", W, K, B, d2) / S ** 2)


def _emulated(module):
    sys.path.insert(0, str(ROOT / "tests" / "codegen"))
    import cuda_emu
    ok, why = cuda_emu.available()
    if not ok:
        pytest.skip(why)
    files = ROOT / "generated" / "cuda"
    mod = rc.Module(module, (files / f"{module}.cu").read_text(), json.loads((files / f"{module}.json").read_text()))
    return mod, cuda_emu.EmuDevice(sm_count=2)


def _run(path, op, args, ybar):
    """(the op's output, its input cotangents as float64 arrays) through `path`."""
    module = getattr(generated, MODULE[op])
    if path == "numpy":
        y, pb = module._define(backend_numpy)[op + "_rrule"](*args)
        return y, [unthunk(g) for g in pb(ybar)[1:]]
    if path == "native":
        if not native.available()[0]:
            pytest.skip(native.available()[1])
        plan = native.plan_for(module)
        if plan is None or op not in plan.manifest["ops"]:
            pytest.skip(f"{op} has no native CPU plan")
        y, pb = native.call(plan, op, "rrule", list(args))
        return y, [unthunk(g) for g in pb(np.asarray(ybar))[1:]]
    if path == "cuda-emulated":
        mod, dev = _emulated(MODULE[op])
        dtype = args[0].dtype
        y, pb = rc.call(mod, op, "rrule", [dev.asarray(a, dtype) if np.ndim(a) else a for a in args], dev)
        return y, list(pb(dev.asarray(np.asarray(ybar), dtype))[1:])
    if path.startswith("torch"):
        torch = pytest.importorskip("torch")
        import runtime.torch as rt
        ts = [torch.tensor(a, requires_grad=True) for a in args]
        f = getattr(rt, op) if path == "torch" else getattr(rt, op).python
        y = f(*ts)
        gs = torch.autograd.grad((y * torch.tensor(ybar)).sum(), ts)
        return y.detach().numpy(), [g.numpy() for g in gs]
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    import runtime.jax as rj
    before = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", before or args[0].dtype == np.float64)
    try:
        y, vjp = jax.vjp(getattr(rj, op), *[jnp.asarray(a) for a in args])
        return np.asarray(y), [np.asarray(g) for g in vjp(jnp.asarray(ybar))]
    finally:
        jax.config.update("jax_enable_x64", before)


def _normwise(got, want):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    assert got.shape == want.shape and np.all(np.isfinite(got)), (got, want)
    return float(np.max(np.abs(got - want)) / max(np.max(np.abs(want)), 1e-300))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("dtype,offset", SCALES, ids=SCALE_IDS)
@pytest.mark.parametrize("op", list(MODULE))
def test_value_and_cotangents_far_from_the_origin(op, dtype, offset, path):
    args, ybar, want_y, want_g = _problem(op, dtype, offset, np.random.default_rng(5))
    y, grads = _run(path, op, args, ybar)
    tol = TOL[dtype]
    # the value relative to its own size (cross_entropy's is O(1) where its inputs are 1e6: the cancellation)
    assert _normwise(y, want_y) <= tol, f"{op} value on {path}"
    for k, (g, want) in enumerate(zip(grads, want_g)):
        g = np.zeros_like(want) if g is None or is_zero(g) else np.asarray(g, np.float64).reshape(np.shape(want))
        assert _normwise(g, want) <= tol, f"{op}: cotangent of argument {k} on {path}: {_normwise(g, want):.2g}"


@pytest.mark.parametrize("path", ["numpy", "native", "cuda-emulated"])
@pytest.mark.parametrize("dtype,offset", SCALES, ids=SCALE_IDS)
def test_kernel_sum_pushforward_far_from_the_origin(dtype, offset, path):
    """The pushforward along x and y: <x̄, ẋ> + <ȳ, ẏ> of the reference cotangents, at the cotangent w."""
    args, w, _, (gx, gy, _, _) = _problem("gaussian_kernel_sum", dtype, offset, np.random.default_rng(5))
    rng = np.random.default_rng(6)
    dx, dy = (rng.standard_normal(a.shape).astype(dtype) for a in args[:2])
    tans = (NoTangent(), dx, dy, ZeroTangent(), ZeroTangent())
    module = generated.nn
    if path == "numpy":
        _, dout = module._define(backend_numpy)["gaussian_kernel_sum_frule"](tans, *args)
    elif path == "native":
        if not native.available()[0]:
            pytest.skip(native.available()[1])
        _, dout = native.call(native.plan_for(module), "gaussian_kernel_sum", "frule", [tans] + list(args))
    else:
        mod, dev = _emulated("nn")
        dtans = tuple(dev.asarray(t, dtype) if isinstance(t, np.ndarray) else t for t in tans)
        _, dout = rc.call(mod, "gaussian_kernel_sum", "frule",
                          [dtans] + [dev.asarray(a, dtype) if np.ndim(a) else a for a in args], dev)
    got = float(np.dot(np.asarray(dout, np.float64), w.astype(np.float64)))
    want = float(np.sum(gx * dx) + np.sum(gy * dy))
    scale = float(np.sum(np.abs(gx * dx)) + np.sum(np.abs(gy * dy)))
    assert abs(got - want) <= TOL[dtype] * scale, (got, want)


# -- two clusters far apart (audit N1): centring moves one common origin, which cannot help here -----------------
CLUSTERS = [(np.float32, 1e3), (np.float32, 1e6), (np.float64, 1e6), (np.float64, 1e12)]
CLUSTER_IDS = [f"{np.dtype(d).name}@{o:g}" for d, o in CLUSTERS]


def _two_clusters(dtype, offset, d, rng, n=8, m=10, far=None, mirrored=True):
    """Points p, each followed by -p: the first `far` (all by default) near (offset, ..., offset), the others near
    0. Two clusters (and one between them) whose centroid is exactly 0, so centring moves nothing and rounds
    nothing (moved to an origin that is not exact, coordinates at 1e6 in float32 round by 0.03, the inputs' own
    resolution: every path's error, the native kernels' too). The reference value and cotangents accumulate in
    np.longdouble from the direct form."""
    def cloud(k):
        if not mirrored:      # alternately near +offset and -offset: the centroid is near 0, not at it
            return (np.where(np.arange(k) % 2, offset, -offset)[:, None] + rng.standard_normal((k, d))).astype(dtype)
        p = rng.standard_normal((k // 2, d))
        p[:(k if far is None else far) // 2] += offset
        p = p.astype(dtype)
        return np.stack([p, -p], axis=1).reshape(k, d)
    x, y = cloud(n), cloud(m)
    b = rng.standard_normal(m).astype(dtype)
    w = rng.standard_normal(n).astype(dtype)
    s = dtype(2.0 * d)
    X, Y, B, S, W = (np.asarray(v, np.longdouble) for v in (x, y, b, s, w))
    diff = X[:, None, :] - Y[None, :, :]
    d2 = np.sum(diff * diff, axis=-1)
    K = np.exp(-d2 / S)
    gx = -2 / S * np.einsum("i,ij,j,ijd->id", W, K, B, diff)
    gy = 2 / S * np.einsum("i,ij,j,ijd->jd", W, K, B, diff)
    gs = np.einsum("i,ij,j,ij->", W, K, B, d2) / S / S
    return (x, y, b, s), w, K @ B, (gx, gy, K.T @ W, gs)


LAYOUTS = {"halves": {}, "few-far": dict(n=64, m=64, far=2), "off-centre": dict(mirrored=False)}


# JAX at the largest offset of each dtype only: it compiles each case anew (3 CPU-s a case, 63 of this test's 71)
# and runs the same traced code at every offset; the other paths keep every offset
_CLUSTER_CASES = [pytest.param(d, o, path, id=f"{i}-{path}") for (d, o), i in zip(CLUSTERS, CLUSTER_IDS)
                  for path in PATHS if path != "jax" or o in (1e6, 1e12) and (d, o) != (np.float64, 1e6)]


@pytest.mark.parametrize("dim,layout", [(3, "halves"), (64, "halves"), (64, "few-far"), (3, "off-centre"),
                                        (64, "off-centre")])
@pytest.mark.parametrize("dtype,offset,path", _CLUSTER_CASES)
def test_kernel_sum_of_two_clusters_far_apart(dtype, offset, dim, layout, path):
    """The expanded ‖x‖² + ‖y‖² - 2x·y lost the distance within a cluster (6e-2 in float32 at 1e3, 4.7e-4 in
    float64 at 1e6, inf in float32 at 1e6): each summed extent (3: the direct form; 64: the expansion with the
    entries it cannot vouch for recomputed) now gives the value and the cotangents of b and s to the working
    precision ("few-far": 2 pairs of points far out among 62 near 0, so the few entries to recompute are gathered
    one by one, not all recomputed; "off-centre": the centroid near 0 but not at it, so centred coordinates
    round by |x - c|·eps, which the direct forms and the x- and y-cotangents' x_i - y_j, reading the inputs as
    passed, never see). The x- and y-cotangents were once exempt where the split x_i·Σ_j K - Σ_j K·y_j cancelled
    (|offset|·eps above the tolerance, on every path); the derivation now keeps x_i - y_j whole
    (calculus.differential.spread_difference), so the native rrule no longer centres (its value, off-centre,
    once came from centred copies)."""
    args, w, want_y, want_g = _two_clusters(dtype, offset, dim, np.random.default_rng(7), **LAYOUTS[layout])
    y, grads = _run(path, "gaussian_kernel_sum", args, w)
    tol = TOL[dtype] * (10 if dim == 64 else 1)
    assert _normwise(y, want_y) <= tol, f"value on {path}: {_normwise(y, want_y):.2g}"
    for k, (g, want) in enumerate(zip(grads, want_g)):
        g = np.zeros_like(want) if g is None or is_zero(g) else np.asarray(g, np.float64).reshape(np.shape(want))
        err = _normwise(g, np.asarray(want, np.float64))
        assert err <= tol, f"cotangent of argument {k} on {path}: {err:.2g}"


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("dtype,scale", [(np.float32, 1e-12), (np.float32, 1e12), (np.float64, 1e-100)],
                         ids=["float32@1e-12", "float32@1e12", "float64@1e-100"])
def test_kernel_sum_at_extreme_scales(dtype, scale, path):
    """Coordinates at `scale` and s = 2·scale²: s·s under- or overflows (float32 s = 2e-24: 4e-48 is 0) where
    the s-cotangent Σ w K b d² / s² is finite (audit N2: it was inf or 0)."""
    rng = np.random.default_rng(8)
    x, y = (rng.standard_normal((6, 3)) * scale).astype(dtype), (rng.standard_normal((7, 3)) * scale).astype(dtype)
    b, w = rng.standard_normal(7).astype(dtype), rng.standard_normal(6).astype(dtype)
    s = dtype(2 * scale * scale)
    X, Y, B, S, W = (np.asarray(v, np.longdouble) for v in (x, y, b, s, w))
    d2 = np.sum((X[:, None, :] - Y[None, :, :]) ** 2, axis=-1)
    K = np.exp(-d2 / S)
    want = np.einsum("i,ij,j,ij->", W, K, B, d2 / S / S)
    out, grads = _run(path, "gaussian_kernel_sum", (x, y, b, s), w)
    assert _normwise(out, K @ B) <= TOL[dtype] * 10
    assert _normwise(np.asarray(grads[3], np.float64), np.float64(want)) <= TOL[dtype] * 10, (grads[3], want)


# -- x- and y-derivatives of two clusters far apart, against mpmath ---------------------------------------------
GRAD_SCALES = [(np.float32, 1e3), (np.float32, 1e6), (np.float64, 1e6), (np.float64, 1e12), (np.float64, 1e15)]
GRAD_IDS = [f"{np.dtype(d).name}@{o:g}" for d, o in GRAD_SCALES]


def _mp_kernel_derivatives(x, y, b, s, w, dx, dy):
    """(x̄, ȳ at the output cotangent w; the output tangent along dx, dy) of Σ_j exp(-‖x_i - y_j‖²/s)·b_j, each
    from its definition, x̄_i = -2/s Σ_j w_i K_ij b_j (x_i - y_j), ȳ_j = 2/s Σ_i w_i K_ij b_j (x_i - y_j),
    ḋ_i = -2/s Σ_j K_ij b_j (x_i - y_j)·(dx_i - dy_j), in mpmath at 50 digits: the difference is never split."""
    X, Y, DX, DY = ([[_mpf(v) for v in row] for row in a] for a in (x, y, dx, dy))
    B, W, S = [_mpf(v) for v in b], [_mpf(v) for v in w], _mpf(s)
    n, m, dim = len(X), len(Y), len(X[0])
    gx = [[mpmath.mpf(0)] * dim for _ in range(n)]
    gy = [[mpmath.mpf(0)] * dim for _ in range(m)]
    dout = [mpmath.mpf(0)] * n
    for i in range(n):
        for j in range(m):
            diff = [X[i][d] - Y[j][d] for d in range(dim)]
            kb = mpmath.exp(-mpmath.fsum(v * v for v in diff) / S) * B[j]
            if kb == 0:
                continue
            for d in range(dim):
                gx[i][d] -= 2 / S * W[i] * kb * diff[d]
                gy[j][d] += 2 / S * W[i] * kb * diff[d]
            dout[i] -= 2 / S * kb * mpmath.fsum(diff[d] * (DX[i][d] - DY[j][d]) for d in range(dim))
    return tuple(np.array([[float(v) for v in row] for row in a]) for a in (gx, gy)) + (
        np.array([float(v) for v in dout]),)


def _frule(path, args, dx, dy):
    """The output tangent of gaussian_kernel_sum along (dx, dy) through `path`, as float64."""
    dtype = args[0].dtype
    tans = (NoTangent(), dx, dy, ZeroTangent(), ZeroTangent())
    if path == "numpy":
        return generated.nn._define(backend_numpy)["gaussian_kernel_sum_frule"](tans, *args)[1]
    if path == "native":
        if not native.available()[0]:
            pytest.skip(native.available()[1])
        return native.call(native.plan_for(generated.nn), "gaussian_kernel_sum", "frule", [tans] + list(args))[1]
    if path == "cuda-emulated":
        mod, dev = _emulated("nn")
        dtans = tuple(dev.asarray(t, dtype) if isinstance(t, np.ndarray) else t for t in tans)
        return rc.call(mod, "gaussian_kernel_sum", "frule",
                       [dtans] + [dev.asarray(a, dtype) if np.ndim(a) else a for a in args], dev)[1]
    if path.startswith("torch"):
        torch = pytest.importorskip("torch")
        import runtime.torch as rt
        f = rt.gaussian_kernel_sum if path == "torch" else rt.gaussian_kernel_sum.python
        x, y, b, s = (torch.tensor(a) for a in args)
        return torch.func.jvp(lambda x, y: f(x, y, b, s), (x, y), (torch.tensor(dx), torch.tensor(dy)))[1].numpy()
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    import runtime.jax as rj
    before = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", before or dtype == np.float64)
    try:
        x, y, b, s = (jnp.asarray(a) for a in args)
        return np.asarray(jax.jvp(lambda x, y: rj.gaussian_kernel_sum(x, y, b, s), (x, y),
                                  (jnp.asarray(dx), jnp.asarray(dy)))[1])
    finally:
        jax.config.update("jax_enable_x64", before)


@functools.lru_cache(maxsize=None)
def _derivative_case(dtype, offset, dim, layout):
    """(inputs, output cotangent, input tangents dx and dy, the mpmath references), made once for every path."""
    args, w, _, _ = _two_clusters(dtype, offset, dim, np.random.default_rng(7), **LAYOUTS[layout])
    rng = np.random.default_rng(9)
    dx, dy = (rng.standard_normal(a.shape).astype(dtype) for a in args[:2])
    return args, w, dx, dy, _mp_kernel_derivatives(*args, w, dx, dy)


# every path at the largest offset of each dtype (where the split cancelled most: 24 % in float32 at 1e6, 16 % in
# float64 at 1e15); the smaller offsets' cotangents are test_kernel_sum_of_two_clusters_far_apart's, and each case
# here costs an mpmath reference (about 5 CPU-s at D = 64) and JAX a compile (6-9 CPU-s)
_DERIVATIVE_CASES = [pytest.param(d, o, path, id=f"{i}-{path}") for (d, o), i in zip(GRAD_SCALES, GRAD_IDS)
                     for path in PATHS if (d, o) in ((np.float32, 1e6), (np.float64, 1e15))]


@pytest.mark.parametrize("dim,layout", [(3, "halves"), (64, "halves"), (64, "few-far")])
@pytest.mark.parametrize("dtype,offset,path", _DERIVATIVE_CASES)
def test_kernel_sum_x_and_y_derivatives_of_two_clusters(dtype, offset, dim, layout, path):
    """The x- and y-cotangents and the tangent along (ẋ, ẏ) of two clusters far apart (their centroid exactly 0,
    so centring moves nothing) to the working precision, against mpmath. Before the fix every path summed
    x_i·Σ_j K b ḡ - Σ_j K b ḡ·y_j (and the tangent likewise): the two big terms cancelled, 5-24 % off in float32 at
    1e6 and in float64 at 1e15."""
    args, w, dx, dy, (gx, gy, dout) = _derivative_case(dtype, offset, dim, layout)
    tol = TOL[dtype] * (10 if dim == 64 else 1)
    _, grads = _run(path, "gaussian_kernel_sum", args, w)
    for k, want in ((0, gx), (1, gy)):
        err = _normwise(np.asarray(grads[k], np.float64).reshape(want.shape), want)
        assert err <= tol, f"cotangent of argument {k} on {path}: {err:.2g}"
    err = _normwise(np.asarray(_frule(path, args, dx, dy), np.float64), dout)
    assert err <= tol, f"tangent on {path}: {err:.2g}"


# -- the x- and y-cotangents' checked sum (numpy_direct.CheckedDifference): fast where nothing cancels -----------
def _kept_difference_calls(monkeypatch, unchecked=False):
    """Record what each checked_sum of a kept difference (Σ_j c·(x_i - y_j): the calls that pass a budget) made by
    the generated NumPy code does: the entries its expansion gave, those gathered, those read per pair. With
    `unchecked`, such a sum returns its expansion as computed (the check removed)."""
    log = []
    real = backend_numpy.checked_sum

    def spy(extents, rows, direct, at, expanded, bound, floor=None, budget=None):
        if budget is None:
            return real(extents, rows, direct, at, expanded, bound)
        rec = {"entries": 0, "gathered": 0, "per pair": 0}
        log.append(rec)

        def value():
            v = expanded()
            rec["entries"] += v.size
            return v

        def gathered(pos):
            rec["gathered"] += len(pos[0])
            return at(pos)

        def per_pair(r, m):
            v = direct(r, m)
            rec["per pair"] += v.size
            return v
        if unchecked:
            return value()
        return real(extents, rows, per_pair, gathered, value, bound, floor, budget)
    monkeypatch.setattr(backend_numpy, "checked_sum", spy)
    return log


def _cotangents_by_definition(x, y, b, s, w):
    """x̄ and ȳ of the kernel sum from the per-pair definition, accumulated in np.longdouble."""
    X, Y, B, S, W = (np.asarray(v, np.longdouble) for v in (x, y, b, s, w))
    diff = X[:, None, :] - Y[None, :, :]
    K = np.exp(-np.sum(diff * diff, axis=-1) / S)
    return (-2 / S * np.einsum("i,ij,j,ijd->id", W, K, B, diff), 2 / S * np.einsum("i,ij,j,ijd->jd", W, K, B, diff))


def test_kernel_sum_cotangents_of_a_cloud_take_the_matrix_products(monkeypatch):
    """Near the origin the x- and y-cotangents come from the distributed x_i·Σ_j c - Σ_j c·y_j (matrix products):
    no entry is read per pair and few (those whose value is small beside |x|·Σ_j |c|) are gathered, though c
    (= w_i K_ij b_j) differs in sign (the floor, Σ_j |c|·(x_i - y_j), vouches for the rest). Before, every entry
    was read per pair (no such checked sum)."""
    rng = np.random.default_rng(11)
    x, y = rng.standard_normal((48, 16)), rng.standard_normal((52, 16))
    b, w, s = rng.standard_normal(52), rng.standard_normal(48), 32.0
    log = _kept_difference_calls(monkeypatch)
    _, pb = generated.nn._define(backend_numpy)["gaussian_kernel_sum_rrule"](x, y, b, s)
    grads = [unthunk(g) for g in pb(w)[1:3]]
    assert len(log) == 2, log              # x̄ and ȳ
    assert all(rec["per pair"] == 0 and rec["gathered"] <= 0.15 * rec["entries"] for rec in log), log
    for got, want in zip(grads, _cotangents_by_definition(x, y, b, s, w)):
        assert _normwise(got, np.asarray(want, np.float64)) <= 1e-12


@pytest.mark.parametrize("dtype,offset", [(np.float32, 1e6), (np.float64, 1e12)], ids=["float32@1e6", "float64@1e12"])
@pytest.mark.parametrize("unchecked", [False, True], ids=["checked", "check removed"])
def test_kernel_sum_cotangents_of_two_clusters_are_recomputed(monkeypatch, dtype, offset, unchecked):
    """Two clusters far apart: the distributed form cancels in every entry (|x|·Σ_j |c| ≫ Σ_j |c|·|x_i - y_j|),
    so each is read per pair and the cotangents are those of the definition; with the check removed (the
    expansion as computed) they are 6-9 % off in float32 at 1e6 and 1.2-1.4e-4 in float64 at 1e12."""
    args, w, _, _ = _two_clusters(dtype, offset, 64, np.random.default_rng(7), n=16, m=20)
    log = _kept_difference_calls(monkeypatch, unchecked)
    _, pb = generated.nn._define(backend_numpy)["gaussian_kernel_sum_rrule"](*args)
    grads = [unthunk(g) for g in pb(w)[1:3]]
    errors = [_normwise(got, np.asarray(want, np.float64))
              for got, want in zip(grads, _cotangents_by_definition(*args, w))]
    assert len(log) == 2, log
    if unchecked:
        assert min(errors) > 100 * TOL[dtype], errors
    else:
        assert all(rec["per pair"] >= rec["entries"] for rec in log), log
        assert max(errors) <= 10 * TOL[dtype], errors
