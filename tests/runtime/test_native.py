"""The native CPU kernels (derive.emission.cpp, runtime.native) against the verified NumPy code, through the public ops.

Expected values are the NumPy code's (verified against finite differences, the adjoint identity and the mpmath
reference evaluator) and, for the kernel sum, a direct NumPy evaluation of its formula; never the native path's own.
"""
import importlib
import json
import os
from pathlib import Path

import numpy as np
import pytest

from runtime import native
from runtime.tangents import ZeroTangent, is_zero, unthunk

ROOT = Path(__file__).resolve().parents[2]
CPU = ROOT / "generated" / "cpu"

ok, why = native.available()
# skipped visibly where they cannot run; under CI (which has g++) they must run
pytestmark = pytest.mark.skipif(not ok and not os.environ.get("CI"), reason=f"native CPU kernels unavailable here: {why}")


@pytest.mark.skipif(ok, reason="the native kernels are available")
def test_ci_has_the_native_kernels():
    """CI's machine has g++: the native kernels must run there, not skip (as the torch and jax tests)."""
    pytest.fail(f"CI is set but the native CPU kernels are unavailable: {why}", pytrace=False)


def _plans():
    """(module, op) of the plans the NumPy runtime runs: those marked worth it (runtime.torch runs every op's plan:
    tests/runtime/test_torch_native.py)"""
    out = []
    for js in sorted(CPU.glob("*.json")):
        for name, entry in json.loads(js.read_text())["ops"].items():
            if entry.get("worth"):
                out.append((js.stem, name))
    return out


PLANS = _plans()


def test_the_shipped_plans_cover_the_ops_numpy_handles_worst():
    names = {n for _, n in PLANS}
    assert {"gaussian_kernel_sum", "gelu", "erf"} <= names
    # contractions and scans stay NumPy's (BLAS and np.cumsum are faster than any loop we would write), and so do
    # reductions whose summand spans no more than an input (softmax, cross-entropy: one pass each in NumPy)
    assert not {"dense", "cumsum", "sum", "matmul", "softmax", "cross_entropy"} & names


def _rel(a, b):
    a, b = np.asarray(unthunk(a), dtype=np.float64), np.asarray(unthunk(b), dtype=np.float64)
    assert a.shape == b.shape
    assert np.array_equal(np.isnan(a), np.isnan(b)) and np.array_equal(a[np.isinf(b)], b[np.isinf(b)]) \
        and np.array_equal(np.isfinite(a), np.isfinite(b)), "NaN/inf where the NumPy code has another value"
    fin = np.isfinite(b)
    if not fin.any():
        return 0.0
    return float(np.max(np.abs(a[fin] - b[fin])) / max(1.0, np.max(np.abs(b[fin]))))


def _both(monkeypatch, fn):
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "1")
    got = fn()
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "0")
    want = fn()
    return got, want


def _inputs(op, rng, extents, dtype):
    from derive.verification import verify

    args = verify.sample_inputs(op.meta | {"inputs": [dict(p, indices=p.get("indices", [])) for p in op.meta["inputs"]]},
                                rng, extents)
    return [a.astype(dtype) if isinstance(a, np.ndarray) else a for a in args]


@pytest.mark.parametrize("module,name", PLANS, ids=[f"{m}.{n}" for m, n in PLANS])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("big", [False, True], ids=["small", "past-a-tile"])
def test_native_matches_numpy_in_every_mode(monkeypatch, module, name, dtype, big):
    """forward, frule and rrule + pullback through the public op, native against NumPy, at random points."""
    mod = importlib.import_module(f"generated.{module}")
    op = getattr(mod, name).op
    from derive.verification import verify

    base = verify.extent_assignments(op.meta)[0]
    # past one tile (256 reduced positions) and one chunk of rows, each index in turn
    for extents in ([{**base, c: 261} for c in base] if big else [None]):
        _compare_modes(monkeypatch, op, np.random.default_rng(7), _inputs(op, np.random.default_rng(7), extents, dtype),
                       dtype)


def _compare_modes(monkeypatch, op, rng, x, dtype):
    # the NumPy code on float32 inputs: compare in the same precision
    tol = 1e-10 if dtype == np.float64 else 2e-4
    tangents = tuple([ZeroTangent()] + [rng.standard_normal(np.shape(v)).astype(dtype) if isinstance(v, np.ndarray)
                                        else 0.3 for v in x])
    (y1, fy1, dy1), (y0, fy0, dy0) = _both(monkeypatch, lambda: (op(*x), *op.frule(tangents, *x)))
    assert _rel(y1, y0) <= tol and _rel(fy1, fy0) <= tol
    if not is_zero(dy0):
        assert _rel(dy1, dy0) <= tol
    ybar = rng.standard_normal(np.shape(y0)).astype(dtype)

    def pulled():
        y, pb = op.rrule(*x)
        return y, pb(ybar)

    (yr1, g1), (yr0, g0) = _both(monkeypatch, pulled)
    assert _rel(yr1, yr0) <= tol
    for a, b in zip(g1[1:], g0[1:]):
        if is_zero(unthunk(b)):
            assert is_zero(unthunk(a)) or not np.any(np.asarray(unthunk(a)))
            continue
        assert _rel(a, b) <= tol


def test_native_kernel_sum_at_realistic_scale_against_the_formula(monkeypatch):
    """2 000 x 3 000 points far from the origin (|x| ~ 1e3): the direct formula in NumPy, row by row."""
    import generated.nn as nn

    monkeypatch.setenv("TENSOR_RULES_NATIVE", "1")
    rng = np.random.default_rng(3)
    x = 1e3 + rng.standard_normal((2000, 3))
    y = 1e3 + rng.standard_normal((3000, 3))
    b = rng.standard_normal(3000)
    s = 0.8
    got = nn.gaussian_kernel_sum(x, y, b, s)
    want = np.array([np.exp(-np.sum((xi - y) ** 2, axis=1) / s) @ b for xi in x])
    assert _rel(got, want) <= 1e-12
    _, pb = nn.gaussian_kernel_sum.op.rrule(x, y, b, s)
    e = rng.standard_normal(2000)
    gx = unthunk(pb(e)[1])
    # d/dx_i = Σ_j e_i b_j K_ij · (-2/s)(x_i - y_j)
    want_gx = np.array([e[i] * ((np.exp(-np.sum((x[i] - y) ** 2, axis=1) / s) * b) @ (-2 / s * (x[i] - y)))
                        for i in range(2000)])
    assert _rel(gx, want_gx) <= 1e-10


def test_nan_in_an_input_row_stays_in_that_row(monkeypatch):
    """A NaN in x_17 makes out_17 NaN and nothing else (the other rows do not depend on it). The NumPy code
    centres x and y by their mean first, so there the NaN reaches every row: the native path is compared with the
    formula instead."""
    import generated.nn as nn

    monkeypatch.setenv("TENSOR_RULES_NATIVE", "1")
    rng = np.random.default_rng(4)
    x = rng.standard_normal((300, 3))
    x[17, 1] = np.nan
    y = rng.standard_normal((400, 3))
    b = rng.standard_normal(400)
    got = nn.gaussian_kernel_sum(x, y, b, 0.5)
    assert np.isnan(got[17])
    want = np.array([np.exp(-np.sum((xi - y) ** 2, axis=1) / 0.5) @ b for xi in np.delete(x, 17, axis=0)])
    assert _rel(np.delete(got, 17), want) <= 1e-12


def test_small_calls_and_uncovered_shapes_take_the_numpy_path(monkeypatch):
    """Auto mode: a call below MIN_ELEMENTS and one with extra leading axes run the NumPy code."""
    import generated.nn as nn

    monkeypatch.delenv("TENSOR_RULES_NATIVE", raising=False)
    calls = []
    real = native.call
    monkeypatch.setattr(native, "call", lambda *a: calls.append(a[1]) or real(*a))
    x, y, b = rng_kernel_inputs(40, 50)
    nn.gaussian_kernel_sum(x, y, b, 0.5)                   # 40·3 + 50·3 + 50 elements
    nn.gaussian_kernel_sum(np.stack([x, x]), y, b, 0.5)     # a leading batch axis (the batched twin, NumPy)
    assert calls == []
    x, y, b = rng_kernel_inputs(native.MIN_ELEMENTS // 3, 50)
    nn.gaussian_kernel_sum(x, y, b, 0.5)
    assert calls == ["gaussian_kernel_sum"]


def test_a_numpy_scalar_parameter_takes_the_native_path(monkeypatch):
    """np.float32(2.0) is a number as much as 2.0 is: a float32 kernel sum with it ran the NumPy code (13x slower at
    N = M = 20 000), where a Python float or a 0-d array ran the kernels."""
    import generated.nn as nn

    monkeypatch.delenv("TENSOR_RULES_NATIVE", raising=False)
    calls = []
    real = native.call
    monkeypatch.setattr(native, "call", lambda *a: calls.append(a[1]) or real(*a))
    x, y, b = (a.astype(np.float32) for a in rng_kernel_inputs(native.MIN_ELEMENTS // 3, 50))
    got = nn.gaussian_kernel_sum(x, y, b, np.float32(0.5))
    assert calls == ["gaussian_kernel_sum"] and got.dtype == np.float32
    want = np.exp(-((x[:, None, :] - y[None]) ** 2).sum(-1).astype(np.float64) / 0.5) @ b.astype(np.float64)
    np.testing.assert_allclose(got, want, rtol=1e-4)


def rng_kernel_inputs(n, m):
    rng = np.random.default_rng(0)
    return rng.standard_normal((n, 3)), rng.standard_normal((m, 3)), rng.standard_normal(m)


def test_turned_off_or_without_a_compiler_it_says_why(monkeypatch):
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "0")
    assert native.available() == (False, "TENSOR_RULES_NATIVE=0 turns the native CPU kernels off")
    monkeypatch.delenv("TENSOR_RULES_NATIVE")
    monkeypatch.setenv("CXX", "/nonexistent/c++")
    monkeypatch.setattr(native, "_PROBE", [])
    okay, reason = native.available()
    assert not okay and "compiler" in reason


def test_compiled_library_is_cached_signed_and_rebuilt_when_tampered(monkeypatch, tmp_path):
    monkeypatch.setenv("TENSOR_RULES_CACHE", str(tmp_path))
    monkeypatch.setattr(native, "_LIBS", {})
    src = 'extern "C" int tr_seven() { return 7; }\n// cache test ' + str(os.getpid()) + "\n"
    before = len(native.stats()["compiles"])
    lib = native.load_library(src)
    assert lib.lib.tr_seven() == 7
    assert len(native.stats()["compiles"]) == before + 1
    entries = list((tmp_path / "native").glob("*.so"))
    assert len(entries) == 1
    # a second process would find it: the same key, read back and verified
    native._LIBS.clear()
    hits = native.stats()["cache_hits"]
    assert native.load_library(src).lib.tr_seven() == 7
    assert native.stats()["cache_hits"] == hits + 1
    # a planted library (right name, no valid signature) is discarded and rebuilt, never loaded
    entries[0].write_bytes(b"hmac-sha256 " + b"0" * 64 + b"\n" + b"\x7fELF planted")
    native._LIBS.clear()
    assert native.load_library(src).lib.tr_seven() == 7
    assert len(native.stats()["compiles"]) == before + 2


def test_generated_cpu_plans_name_their_source_and_command():
    for cpp in CPU.glob("*.cpp"):
        head = cpp.read_text().splitlines()[0]
        assert head.startswith("// @generated from rules/") and "derive-rules" in head


def test_a_users_rule_file_gets_native_kernels_beside_its_module(monkeypatch, tmp_path):
    """derive-rules FILE --out DIR writes DIR/cpu/<file>.cpp for an elementwise chain through exp and sigmoid, and
    the imported module runs it natively, agreeing with its NumPy code and with the formula."""
    import subprocess
    import sys

    rules = tmp_path / "mychain.rules"
    rules.write_text("chain(x[i]) -> y[i] = exp(-x[i]**2) * sigmoid(x[i]) + x[i]**3 - 2*x[i]\n")
    out = tmp_path / "out"
    env = dict(os.environ, TENSOR_RULES_CACHE=str(tmp_path / "cache"))
    res = subprocess.run([sys.executable, "-m", "derive.cli", "-q", str(rules), "--out", str(out)], cwd=ROOT,
                         capture_output=True, text=True, env=env)
    assert res.returncode == 0, res.stderr
    assert (out / "cpu" / "mychain.cpp").is_file() and (out / "cpu" / "mychain.json").is_file()
    monkeypatch.syspath_prepend(str(out))
    mod = importlib.import_module("mychain")
    calls = []
    real = native.call
    monkeypatch.setattr(native, "call", lambda *a: calls.append(a[1]) or real(*a))
    x = np.random.default_rng(5).standard_normal(20_000)
    (got, g1), (want, g0) = _both(monkeypatch, lambda: (mod.chain(x), unthunk(mod.chain.op.rrule(x)[1](x)[1])))
    assert calls and set(calls) == {"chain"}
    formula = np.exp(-x ** 2) / (1 + np.exp(-x)) + x ** 3 - 2 * x
    assert _rel(got, formula) <= 1e-14 and _rel(got, want) <= 1e-14 and _rel(g1, g0) <= 1e-12


@pytest.mark.parametrize("order", [(2, 3, 1, 4), (3, 2, 4, 1), (1, 4, 3, 2)])
def test_cotangents_read_in_any_order_match_numpy_and_share_the_fused_pass(monkeypatch, order):
    """The y and b cotangents of the kernel sum come from one kernel (one exp per pair for both): whichever is read
    first, the other is then taken from that pass, and every value matches the NumPy code's."""
    import generated.nn as nn

    rng = np.random.default_rng(11)
    x, y, b = rng.standard_normal((300, 3)), rng.standard_normal((280, 3)), rng.standard_normal(280)
    e = rng.standard_normal(300)
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "0")
    want = [unthunk(g) for g in nn.gaussian_kernel_sum.op.rrule(x, y, b, 0.6)[1](e)]
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "1")
    kernels = []
    real = native._Kernels.call
    monkeypatch.setattr(native._Kernels, "call", lambda self, name, args: kernels.append(name) or real(self, name, args))
    g = nn.gaussian_kernel_sum.op.rrule(x, y, b, 0.6)[1](e)
    kernels.clear()
    for k in order:
        assert _rel(unthunk(g[k]), want[k]) <= 1e-12
    assert len(kernels) == 3          # x, (y and b together), s


def test_big_endian_arrays_get_the_numpy_codes_answer(monkeypatch):
    """The kernels read machine floats: a '>f8' array (a FITS file, another machine's .npy) must not be read
    byte-swapped, nor refused; it takes the NumPy code, which converts (it was a TypeError naming CUDA)."""
    import generated.elementwise as el
    import generated.nn as nn
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "1")
    r = np.random.default_rng(11)
    x, y, b = r.standard_normal((300, 3)), r.standard_normal((200, 3)), r.standard_normal(200)
    want = np.array([np.sum(np.exp(-np.sum((x[i] - y) ** 2, axis=1) / 0.7) * b) for i in range(300)])
    got = nn.gaussian_kernel_sum(x.astype(">f8"), y.astype(">f8"), b.astype(">f8"), 0.7)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    z = r.standard_normal(5000)
    np.testing.assert_allclose(el.gelu(z.astype(">f8")), el.gelu(z), rtol=1e-15, atol=1e-15)


@pytest.mark.parametrize("native_mode", ["0", "1"])
def test_a_nan_in_one_row_stays_in_that_row(monkeypatch, native_mode):
    """The kernel sum's NumPy code centres x and y on their mean first; a NaN in one row of x made that mean NaN
    and every row of the result NaN (300 of 300), where the native kernels gave one. The centre now sums finite
    entries only: one NaN row in the value, the pushforward and x's cotangent, in both paths, and the other rows
    as without it (a direct NumPy evaluation of the formula)."""
    import generated.nn as nn
    monkeypatch.setenv("TENSOR_RULES_NATIVE", native_mode)
    r = np.random.default_rng(12)
    x, y, b = r.standard_normal((300, 3)), r.standard_normal((200, 3)), r.standard_normal(200)
    want = np.array([np.sum(np.exp(-np.sum((x[i] - y) ** 2, axis=1) / 0.7) * b) for i in range(300)])
    x[5, 1] = np.nan
    with np.errstate(invalid="ignore"):
        out = nn.gaussian_kernel_sum(x, y, b, 0.7)
        _, dout = nn.gaussian_kernel_sum_frule((None, np.ones_like(x), np.zeros_like(y), np.zeros_like(b), 0.0),
                                               x, y, b, 0.7)
        _, pb = nn.gaussian_kernel_sum_rrule(x, y, b, 0.7)
        dx = unthunk(pb(r.standard_normal(300))[1])
    assert list(np.flatnonzero(np.isnan(out))) == [5]
    assert list(np.flatnonzero(np.isnan(dout))) == [5]
    assert list(np.unique(np.argwhere(np.isnan(dx))[:, 0])) == [5]
    np.testing.assert_allclose(np.delete(out, 5), np.delete(want, 5), rtol=1e-12, atol=1e-12)
