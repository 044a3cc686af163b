"""CUDA kernels for shifted and strided subscripts (derive/emission/cuda_shifts.py): every op of rules/conv.rules gets
kernels (the input's cotangent a gather over its taps, no atomics), nvcc compiles them, and the CPU emulation
of the kernels matches the NumPy code (forward, frule, rrule; float64 and float32) and NumPy's own
np.correlate / a hand-written stencil."""
from __future__ import annotations

import json
from pathlib import Path

import cuda_emu
import numpy as np
import pytest
from test_cuda import NVCC, _match_numpy, _nvcc_ptx

from derive import api
from derive.emission import cuda as codegen_cuda
from runtime import backend_numpy
from runtime import cuda as rc

ROOT = Path(__file__).resolve().parents[2]
LABEL = "rules/conv.rules"
OPS = ["conv1d", "conv1d_stride2", "conv2d", "conv2d_batch", "depthwise_conv2d", "laplacian"]
# extents with no two equal where they could be confused, and strided ranges that do not divide evenly
SIZES = {"t": 12, "k": 3, "c": 2, "s": 7, "o": 3, "p": 2, "q": 3, "n": 2}


@pytest.fixture(scope="module")
def built():
    results = api.derive_text((ROOT / LABEL).read_text(), LABEL)
    assert all(r.ok for r in results), [(r.name, r.error) for r in results if not r.ok]
    files = codegen_cuda.generate_cuda(results, LABEL)
    ns: dict = {}
    exec(compile(api.render_module(results, LABEL, export=False), "<conv>", "exec"), ns)
    mod = rc.Module("conv", files["conv.cu"], json.loads(files["conv.json"]))
    return files, mod, ns["_define"](backend_numpy), ns["OPS"]


def test_every_op_has_kernels(built):
    manifest = json.loads(built[0]["conv.json"])
    assert manifest["unsupported"] == {}
    assert sorted(manifest["ops"]) == sorted(OPS)


def test_input_cotangent_is_a_gather(built):
    """The scatter δ(t, 2k+l) is contracted into reads of the output cotangent at (t - l)/2, guarded by its
    range and parity: each thread sums its own taps."""
    cu = built[0]["conv.cu"]
    body = cu[cu.index("tr_conv_conv1d_stride2_pb0_rows_body"):]
    body = body[:body.index("\n}\n")]
    assert "(-q0 + i0) % 2 == 0 && 0 <= (-q0 + i0) && (-q0 + i0) < 2 * n_i ? tr_ld(b_y, ((-q0 + i0) / 2))" in body


def test_nvcc_compiles(built):
    if not NVCC:
        pytest.skip("nvcc is not installed")
    rc_, err, _ = _nvcc_ptx(built[0]["conv.cu"])
    assert rc_ == 0, err


def _emu():
    ok, why = cuda_emu.available()
    if not ok:
        pytest.skip(f"no CPU emulation: {why}")
    return cuda_emu.EmuDevice(sm_count=2)


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["f64", "f32"])
@pytest.mark.parametrize("op", OPS)
def test_emulated_kernels_match_numpy(built, op, dtype):
    dev = _emu()
    _, mod, fns, ops = built
    _match_numpy(mod, fns, ops, op, dtype, dev, SIZES)


def _run(mod, op, args, ybar):
    dev = _emu()
    y, pullback = rc.call(mod, op, "rrule", [dev.asarray(a, np.float64) for a in args], dev)
    return y, pullback(dev.asarray(ybar, np.float64))[1:]


def test_against_numpy_references(built):
    """The kernels against NumPy itself: np.correlate forward, and the transposed convolution np.convolve
    for the input's cotangent (every second output upsampled for the stride); the Laplacian by slices."""
    mod = built[1]
    rng = np.random.default_rng(7)
    x, w = rng.standard_normal(13), rng.standard_normal(4)
    y, (xb, wb) = _run(mod, "conv1d", [x, w], ybar := rng.standard_normal(10))
    np.testing.assert_allclose(y, np.correlate(x, w, "valid"), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(xb, np.convolve(ybar, w, "full"), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(wb, np.correlate(x, ybar, "valid"), rtol=1e-12, atol=1e-12)

    y, (xb, wb) = _run(mod, "conv1d_stride2", [x, w], ybar := rng.standard_normal(5))
    np.testing.assert_allclose(y, np.correlate(x, w, "valid")[::2], rtol=1e-12, atol=1e-12)
    up = np.zeros(9)
    up[::2] = ybar
    want = np.zeros(13)
    want[:12] = np.convolve(up, w, "full")          # position 12 is read by no output: its cotangent is 0
    np.testing.assert_allclose(xb, want, rtol=1e-12, atol=1e-12)

    u = rng.standard_normal((6, 5))
    L, (ub,) = _run(mod, "laplacian", [u], Lb := rng.standard_normal((4, 3)))
    np.testing.assert_allclose(L, u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[1:-1, 1:-1],
                               rtol=1e-12, atol=1e-12)
    want = np.zeros_like(u)
    for (a, b), c in (((0, 1), 1), ((2, 1), 1), ((1, 0), 1), ((1, 2), 1), ((1, 1), -4)):
        want[a:a + 4, b:b + 3] += c * Lb
    np.testing.assert_allclose(ub, want, rtol=1e-12, atol=1e-12)


def test_extents_from_input_shapes(built):
    """The output's extent follows from the input shapes (13 - 4 + 1, and (13 - 4) // 2 + 1 with the stride);
    a kernel longer than its input leaves no valid position and is refused, as the NumPy code refuses it."""
    mod, dev = built[1], _emu()
    x = dev.asarray(np.arange(13.0), np.float64)
    assert rc.call(mod, "conv1d", "forward", [x, dev.asarray(np.ones(4), np.float64)], dev).shape == (10,)
    assert rc.call(mod, "conv1d_stride2", "forward", [x, dev.asarray(np.ones(4), np.float64)], dev).shape == (5,)
    with pytest.raises(ValueError, match="conv1d: index 'i' has no valid position"):
        rc.call(mod, "conv1d", "forward", [dev.asarray(np.ones(3), np.float64),
                                           dev.asarray(np.ones(4), np.float64)], dev)


# shifted reads beyond rules/conv.rules: negative offsets (re-indexed), a product of shifted reads (the
# pullback's coefficient reads x, through exp, at the contracted index too), an index whose extent an input gives (a run-time
# reach check instead of a derived extent), a shift by 3 with a stride of 3
EXTRA = """\
second_diff(u[t]) -> L[i] = u[i-1] - 2*u[i] + u[i+1]
pair(x[t]) -> y[i] = exp(x[i+1]) * x[i]
gated(x[t], w[k], z[i]) -> y[i] = sum(k, x[i+k] * w[k]) * z[i]
stride3(x[t], w[k]) -> y[i] = sum(k, x[3*i+k+1] * w[k])
"""
EXTRA_OPS = ["second_diff", "pair", "gated", "stride3"]


@pytest.fixture(scope="module")
def extra():
    label = "tests/codegen/shifts_extra.rules"
    results = api.derive_text(EXTRA, label)
    assert all(r.ok for r in results), [(r.name, r.error) for r in results if not r.ok]
    files = codegen_cuda.generate_cuda(results, label)
    ns: dict = {}
    exec(compile(api.render_module(results, label, export=False), "<extra>", "exec"), ns)
    assert json.loads(files["shifts_extra.json"])["unsupported"] == {}
    mod = rc.Module("shifts_extra", files["shifts_extra.cu"], json.loads(files["shifts_extra.json"]))
    return files, mod, ns["_define"](backend_numpy), ns["OPS"]


def test_extra_nvcc_compiles(extra):
    if not NVCC:
        pytest.skip("nvcc is not installed")
    rc_, err, _ = _nvcc_ptx(extra[0]["shifts_extra.cu"])
    assert rc_ == 0, err


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["f64", "f32"])
@pytest.mark.parametrize("op", EXTRA_OPS)
def test_extra_emulated_kernels_match_numpy(extra, op, dtype):
    dev = _emu()
    _, mod, fns, ops = extra
    _match_numpy(mod, fns, ops, op, dtype, dev, {"t": 14, "k": 3, "i": 4})


def test_reach_checked_at_run_time(extra):
    """gated: z gives i's extent, so x must be long enough for x[i+k]; too short is refused, never read past."""
    mod, dev = extra[1], _emu()
    args = [dev.asarray(np.ones(n), np.float64) for n in (5, 3, 4)]
    with pytest.raises(ValueError, match=r"gated: subscript 'x\[\.\.i\+k\.\.\]' needs extent 6 along that axis, "
                                         r"which has 5"):
        rc.call(mod, "gated", "forward", args, dev)
