"""CUDA kernels for max, min and product reductions (derive/emission/cuda_reductions.py): nvcc compiles them, and the CPU
emulation agrees with the NumPy module at random points and with NumPy itself (np.max, np.prod, the products of
the others by deletion) at ties, at one and two zero factors, and on long rows whose reduction is split across
warps and blocks (the atomic merge)."""
from __future__ import annotations

import json
from pathlib import Path

import cuda_emu
import numpy as np
import pytest
from test_cuda import NVCC, SMALL, _close, _host, _match_numpy, _nvcc_ptx

from derive import api
from derive.emission import cuda as codegen_cuda
from runtime import backend_numpy
from runtime import cuda as rc
from runtime.tangents import ZeroTangent

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = (ROOT / "rules" / "reductions.rules").read_text()
# forms the shipped file lacks: a minimum per row, a product down columns (the reduced axis not the last one), a
# product over two indices (nested), a product and a maximum of an expression (the body lifted into a temp)
EXTRA = """\
row_min(S[n,m]) -> y[n] = min(m, S[n,m])
col_prod(A[i,j]) -> y[j] = prod(i, A[i,j])
prod2(A[i,j]) -> y[] = prod(i, j, A[i,j])
prod_affine(x[i], w[i]) -> y[] = prod(i, 1 + w[i] * x[i])
max_scaled(x[b,i], s[i]) -> y[b] = max(i, s[i] * x[b,i])
"""
RULES = SHIPPED + "\n" + EXTRA
LABEL = "tests/codegen/reductions_cuda.rules"
OPS = ["row_max", "matrix_min", "product", "row_logsumexp", "row_min", "col_prod", "prod2", "prod_affine",
       "max_scaled"]


@pytest.fixture(scope="module")
def built():
    results = api.derive_text(RULES, LABEL)
    assert all(r.ok for r in results), [(r.name, r.error or r.check.problems) for r in results if not r.ok]
    files = codegen_cuda.generate_cuda(results, LABEL)
    plan = json.loads(files["reductions_cuda.json"])
    assert plan["unsupported"] == {} and sorted(plan["ops"]) == sorted(OPS)
    ns: dict = {}
    exec(compile(api.render_module(results, LABEL, export=False), "<reductions>", "exec"), ns)
    mod = rc.Module("reductions_cuda", files["reductions_cuda.cu"], plan)
    return files, mod, ns["_define"](backend_numpy), ns["OPS"]


@pytest.fixture
def dev():
    ok, why = cuda_emu.available()
    if not ok:
        pytest.skip(f"no CPU emulation: {why}")
    return cuda_emu.EmuDevice(sm_count=2)


@pytest.mark.slow
def test_nvcc_compiles(built):
    if not NVCC:
        pytest.skip("nvcc is not installed")
    rc_, err, ptx = _nvcc_ptx(built[0]["reductions_cuda.cu"])
    assert rc_ == 0, err[-4000:]
    assert "error" not in err.lower(), err[-4000:]


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["f64", "f32"])
@pytest.mark.parametrize("op", OPS)
def test_emulated_kernels_match_numpy_module(built, op, dtype, dev):
    _, mod, fns, meta = built
    _match_numpy(mod, fns, meta, op, dtype, dev, SMALL)


# -- against NumPy itself, at the points where the derivative is delicate -----------------------------------------


def _run(mod, dev, op, args, tans, ybar, dtype):
    """(forward, frule tangent, pullback cotangents) on the emulated device."""
    dargs = [dev.asarray(np.asarray(a, dtype), dtype) for a in args]
    y = _host(rc.call(mod, op, "forward", dargs, dev))
    dtans = (ZeroTangent(),) + tuple(dev.asarray(np.asarray(t, dtype), dtype) for t in tans)
    y2, dy = rc.call(mod, op, "frule", (dtans,) + tuple(dargs), dev)
    y3, pullback = rc.call(mod, op, "rrule", dargs, dev)
    cots = pullback(dev.asarray(np.asarray(ybar, dtype), dtype))
    # (a product split across blocks merges in whatever order the blocks finish: equal up to rounding)
    _close(y2, y, dtype, f"{op} frule primal")
    _close(y3, y, dtype, f"{op} rrule primal")
    return y, _host(dy), [_host(c) for c in cots[1:]]


def _others(x, axis):
    """Π of the other entries along axis, by deleting each one in turn (no division)."""
    x = np.moveaxis(np.asarray(x, np.float64), axis, 0)
    out = np.stack([np.prod(np.delete(x, k, axis=0), axis=0) for k in range(x.shape[0])])
    return np.moveaxis(out, 0, axis)


DTYPES = [np.float64, np.float32]


@pytest.mark.parametrize("dtype", DTYPES, ids=["f64", "f32"])
def test_row_max_and_min_split_ties_evenly(built, dtype, dev):
    _, mod, _, _ = built
    S = np.array([[1.0, 3.0, 3.0, 0.0, -2.0], [2.0, 2.0, 2.0, 2.0, 2.0], [5.0, -1.0, 0.0, 4.0, 5.0],
                  [-7.0, 0.5, -7.0, 0.25, 0.5]])
    rng = np.random.default_rng(1)
    dS, ybar = rng.standard_normal(S.shape), rng.standard_normal(4)
    for op, red in (("row_max", np.max), ("row_min", np.min)):
        y, dy, (bS,) = _run(mod, dev, op, [S], [dS], ybar, dtype)
        want = red(S, axis=1)
        hit = (S == want[:, None]).astype(float)
        w = hit / hit.sum(axis=1, keepdims=True)              # each tied entry gets 1/#ties
        np.testing.assert_array_equal(y, want)
        _close(dy, (w * dS).sum(axis=1), dtype, f"{op} frule tangent at ties")
        _close(bS, w * ybar[:, None], dtype, f"{op} cotangent at ties")
    # row 1 of the maximum: five ties, a fifth each
    y, dy, (bS,) = _run(mod, dev, "row_max", [S], [dS], np.ones(4), dtype)
    np.testing.assert_array_equal(bS[1], np.full(5, 0.2, dtype))


@pytest.mark.parametrize("dtype", DTYPES, ids=["f64", "f32"])
def test_matrix_min_ties_across_rows_and_columns(built, dtype, dev):
    _, mod, _, _ = built
    A = np.array([[3.0, -1.0, 2.0], [-1.0, 0.0, 5.0], [4.0, 1.0, -1.0], [2.0, 2.0, 2.0]])
    dA = np.arange(12.0).reshape(4, 3) - 5.0
    y, dy, (bA,) = _run(mod, dev, "matrix_min", [A], [dA], 2.0, dtype)
    hit = A == A.min()
    assert y == np.min(A) == -1.0
    _close(dy, dA[hit].mean(), dtype, "matrix_min frule tangent")
    _close(bA, np.where(hit, 2.0 / 3.0, 0.0), dtype, "matrix_min cotangent")


@pytest.mark.parametrize("dtype", DTYPES, ids=["f64", "f32"])
@pytest.mark.parametrize("x", [[2.0, -0.5, 3.0, 1.5], [2.0, 0.0, 3.0, -1.5], [2.0, 0.0, 0.0, 3.0],
                               [0.0, 0.0, 0.0, 0.0]], ids=["no_zero", "one_zero", "two_zeros", "all_zeros"])
def test_product_at_zeros(built, x, dtype, dev):
    _, mod, _, _ = built
    x = np.array(x)
    dx = np.array([0.5, -1.0, 2.0, 0.25])
    y, dy, (bx,) = _run(mod, dev, "product", [x], [dx], 3.0, dtype)
    g = _others(x, 0)
    assert y == np.prod(x)
    _close(dy, g @ dx, dtype, "product frule tangent")
    _close(bx, 3.0 * g, dtype, "product cotangent")
    if np.count_nonzero(x == 0) == 1:
        assert np.count_nonzero(bx) == 1 and bx[x == 0][0] == 3.0 * np.prod(x[x != 0])


@pytest.mark.parametrize("dtype", DTYPES, ids=["f64", "f32"])
def test_column_and_nested_products_at_zeros(built, dtype, dev):
    _, mod, _, _ = built
    A = np.array([[1.5, 0.0, 2.0], [-2.0, 0.0, 0.5], [0.5, 3.0, 0.0], [2.0, -1.0, 1.25]])   # columns: 0, 2, 1 zeros
    rng = np.random.default_rng(3)
    dA = rng.standard_normal(A.shape)
    ybar = np.array([1.0, -2.0, 0.5])
    y, dy, (bA,) = _run(mod, dev, "col_prod", [A], [dA], ybar, dtype)
    g = _others(A, 0)
    _close(y, np.prod(A, axis=0), dtype, "col_prod forward")
    _close(dy, (g * dA).sum(axis=0), dtype, "col_prod frule tangent")
    _close(bA, g * ybar, dtype, "col_prod cotangent")
    B = A.copy()
    B[0, 1], B[2, 2] = 4.0, 0.75                                           # one zero (B[1, 1]) among twelve
    y, dy, (bB,) = _run(mod, dev, "prod2", [B], [dA], 1.0, dtype)
    gB = _others(B.ravel(), 0).reshape(B.shape)
    assert y == 0.0 and np.count_nonzero(gB) == 1
    _close(dy, (gB * dA).sum(), dtype, "prod2 frule tangent")
    _close(bB, gB, dtype, "prod2 cotangent")


@pytest.mark.parametrize("dtype", DTYPES, ids=["f64", "f32"])
def test_row_logsumexp_with_tied_maxima(built, dtype, dev):
    _, mod, _, _ = built
    z = np.array([[1.0, 4.0, 4.0, -3.0], [0.0, 0.0, 0.0, 0.0], [800.0, 799.0, 800.0, -800.0]])
    if dtype == np.float32:
        z[2] = [80.0, 79.0, 80.0, -80.0]
    rng = np.random.default_rng(5)
    dz, ybar = rng.standard_normal(z.shape), rng.standard_normal(3)
    y, dy, (bz,) = _run(mod, dev, "row_logsumexp", [z], [dz], ybar, dtype)
    m = z.max(axis=1, keepdims=True)
    want = (m + np.log(np.exp(z - m).sum(axis=1, keepdims=True)))[:, 0]
    soft = np.exp(z - want[:, None])
    _close(y, want, dtype, "row_logsumexp forward")
    _close(dy, (soft * dz).sum(axis=1), dtype, "row_logsumexp frule tangent")
    _close(bz, soft * ybar[:, None], dtype, "row_logsumexp cotangent")


# -- long reductions: split across warps and blocks, the partial results merged atomically ----------------------


@pytest.mark.parametrize("dtype", DTYPES, ids=["f64", "f32"])
def test_split_reductions_merge_partials(built, dtype, dev):
    _, mod, _, _ = built
    rng = np.random.default_rng(11)
    sfx = "_f32" if dtype == np.float32 else "_f64"
    # a few long rows: several warps per row (the warp kernel), each row's maximum in a different warp's stride
    S = rng.standard_normal((3, 3000))
    S[0, 2999] = S[1, 17] = S[2, 1500] = 9.0
    S[2, 40] = 9.0                                                          # a tie far from the other
    S = S.astype(dtype).astype(np.float64)
    dev.launches.clear()
    ybar = np.array([1.0, 2.0, -1.0])
    y, _, (bS,) = _run(mod, dev, "row_max", [S], [np.zeros_like(S)], ybar, dtype)
    np.testing.assert_array_equal(y, S.max(axis=1))
    hit = S == S.max(axis=1, keepdims=True)
    _close(bS, hit / hit.sum(axis=1, keepdims=True) * ybar[:, None], dtype, "row_max cotangent, long rows")
    red = [g for name, g, *_ in dev.launches if "fwd" in name and name.endswith("_warp" + sfx)]
    assert red, dev.launches
    # many rows and long columns: one thread per row, the reduced index split across blocks (the rows kernel)
    M = rng.standard_normal((1100, 260))
    M[(np.arange(260) * 13) % 1100, np.arange(260)] = -20.0
    M = M.T.copy().astype(dtype).astype(np.float64)
    dev.launches.clear()
    y = _host(rc.call(mod, "row_min", "forward", [dev.asarray(M, dtype)], dev))
    np.testing.assert_array_equal(y, M.min(axis=1))
    # long columns: one thread per column, the reduced index split across blocks (the rows kernel, grid.y > 1)
    A = (1.0 + 0.01 * rng.standard_normal((1100, 260))).astype(dtype).astype(np.float64)
    A[700, 3] = 0.0
    dev.launches.clear()
    y = _host(rc.call(mod, "col_prod", "forward", [dev.asarray(A, dtype)], dev))
    np.testing.assert_allclose(y, np.prod(A, axis=0), rtol=5e-4 if dtype == np.float32 else 1e-12, atol=0)
    assert y[3] == 0.0
    assert any(n.endswith("_rows" + sfx) and g[1] > 1 for n, g, *_ in dev.launches), dev.launches
    # a vector's product, split across the warps of a block and across blocks: factors near 1, one of them 0 or not
    for zero in (False, True):
        x = 1.0 + 0.01 * rng.standard_normal(4000)
        if zero:
            x[2345] = 0.0
        x = x.astype(dtype).astype(np.float64)
        y, dy, (bx,) = _run(mod, dev, "product", [x], [np.ones_like(x)], 1.0, dtype)
        rtol = 5e-4 if dtype == np.float32 else 1e-12
        np.testing.assert_allclose(y, np.prod(x), rtol=rtol, atol=0)
        g = np.prod(x[x != 0]) * (x == 0) if zero else np.prod(x) / x
        np.testing.assert_allclose(bx, g, rtol=rtol * 10, atol=0)


def test_nan_propagates_through_max_and_min(built, dev):
    _, mod, _, _ = built
    S = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, 6.0]])
    for op, red in (("row_max", np.max), ("row_min", np.min)):
        y = _host(rc.call(mod, op, "forward", [dev.asarray(S, np.float64)], dev))
        np.testing.assert_array_equal(y, red(S, axis=1))
