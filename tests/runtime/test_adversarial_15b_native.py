"""Adversarial checks of the native CPU backend's newer mechanisms (issue #15): companion fusion (a reduction over
rows R + [l] and one over rows R sharing a lane kernel), row blocks and tiles at their edges, scratch memory for
outputs nobody reads, selects printed as tr_select, tensors passed with an axis moved last.

Expected values come from the NumPy path (TENSOR_RULES_NATIVE=0) or direct NumPy formulas, never from the native
path itself. (tests/runtime/test_adversarial_15_native.py covers types, dtypes, layouts, fork and the cache.)
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from isolated import as_float64, loaded

from runtime import native
from runtime.tangents import ZeroTangent, unthunk

ROOT = Path(__file__).resolve().parents[2]
ok, why = native.available()
pytestmark = pytest.mark.skipif(not ok, reason=f"native CPU kernels unavailable here: {why}")


def _native_calls(monkeypatch):
    calls = []
    real = native.call
    monkeypatch.setattr(native, "call", lambda *a: calls.append(a[1]) or real(*a))
    return calls


# ------------------------------------------------------------------------- a companion without lanes (extent 0)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_the_kernel_sums_b_cotangent_is_computed_when_the_lane_extent_is_zero(monkeypatch, dtype):
    """The b cotangent shares the y cotangent's lane kernel (lanes: d). With d of extent 0 the runner skipped the
    kernel (no rows), so b's cotangent, one value per j, was never written: uninitialized memory (1e131, ...).
    With no d, exp(-0/s) = 1 and b's cotangent is the sum of the output cotangent."""
    import generated.nn as nn

    monkeypatch.setenv("TENSOR_RULES_NATIVE", "1")
    calls = _native_calls(monkeypatch)
    rng = np.random.default_rng(3)
    for n, m in [(5, 4), (3, 40), (300, 17)]:
        x, y, b = (np.zeros((n, 0), dtype), np.zeros((m, 0), dtype), rng.standard_normal(m).astype(dtype))
        dout = rng.standard_normal(n).astype(dtype)
        np.empty((m, 0), dtype), np.full(4096, 1e131)          # leave stale memory where a buffer may go
        out, pb = nn.gaussian_kernel_sum.op.rrule(x, y, b, 1.3)
        assert np.allclose(out, np.full(n, b.sum()), rtol=1e-5)
        g = pb(dout)
        gb, gy, gx = unthunk(g[3]), unthunk(g[2]), unthunk(g[1])     # b's first: its thunk runs the fused step
        assert gb.dtype == dtype and gy.shape == (m, 0) and gx.shape == (n, 0)
        assert np.allclose(gb, np.full(m, dout.astype(np.float64).sum()), rtol=1e-5, atol=1e-6), gb
    assert calls == ["gaussian_kernel_sum"] * 3        # natively (the pullback inside the rrule)


# ----------------------------------------------------------------------------------------- rules of one's own
RULES = """\
# two reduced indices (groups j,k), companions b:y[j,k,d] / b:b[j,k]
ks2(x[i,d], y[j,k,d], b[j,k], s) -> out[i] = sum(j, k, exp(-sum(d, (x[i,d] - y[j,k,d])**2) / s) * b[j,k])
# the companion with a coefficient outside its sum (c[j] * sum_i ...) and a cotangent c written beside
ksc(x[i,d], y[j,d], b[j], c[j], s) -> out[i] = sum(j, c[j] * exp(-sum(d, (x[i,d] - y[j,d])**2) / s) * b[j])
# two outputs: the companion's summand has two terms
ks2o(x[i,d], y[j,d], b[j]) -> (o1[i], o2[i]):
    o1[i] = sum(j, exp(-sum(d, (x[i,d] - y[j,d])**2)) * b[j])
    o2[i] = sum(j, exp(-sum(d, (x[i,d] - y[j,d])**2)) * b[j]**2)
# y's cotangent written by two steps, one of them shared with b's (the lazy pullback's memo: b read first must
# not leave y's half done)
ksx(x[i,d], y[j,d], b[j]) -> (o1[i], o2[j,d]):
    o1[i] = sum(j, exp(-sum(d, (x[i,d] - y[j,d])**2)) * b[j])
    o2[j,d] = erf(y[j,d]) * exp(y[j,d])
# y read along its middle axis (passed with j moved last); b:y and b:b have other rows: no companions
ksm(x[i,d], y[a,j,d], b[j]) -> out[a,i] = sum(j, exp(-sum(d, (x[i,d] - y[a,j,d])**2)) * b[j])
# NaN and inf in the branch where() does not take (sqrt of a negative, 1/(2 sqrt 0))
wsel(x[i]) -> y[i] = where(x[i] > 0, sqrt(x[i]) * erf(x[i]), erf(x[i]) * exp(x[i]))
"""


@pytest.fixture(scope="module")
def own(tmp_path_factory):
    out = tmp_path_factory.mktemp("adv15b")
    (out / "adv15b.rules").write_text(RULES)
    res = subprocess.run([sys.executable, "-m", "derive.cli", str(out / "adv15b.rules"), "--out", str(out / "gen"),
                          "-q"], capture_output=True, text=True, timeout=300, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    plan = json.loads((out / "gen" / "cpu" / "adv15b.json").read_text())["ops"]
    for op in ("ks2", "ksc", "ks2o", "ksx"):       # the shapes tested below: y's and b's cotangents share a lane kernel
        assert [["b:y", "b:b"]] == [[o["buf"] for o in st["outputs"]] for st in plan[op]["programs"]["pullback"]["steps"]
                                    if st.get("lane") and len(st["outputs"]) == 2], op
    assert [[o["buf"] for o in st["outputs"]] for st in plan["ksx"]["programs"]["pullback"]["steps"]].count(["b:y"]) == 1
    assert plan["ksm"]["programs"]["forward"]["steps"][0]["moved"] == {"y": 1}
    assert "wsel" in plan
    with loaded(out / "gen" / "adv15b.py", "adv15b") as mod:
        yield mod


def _same(a, b, tol):
    if isinstance(a, tuple) or isinstance(b, tuple):
        return isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b) and all(
            _same(p, q, tol) for p, q in zip(a, b))
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    return a.shape == b.shape and np.allclose(a, b, rtol=tol, atol=tol, equal_nan=True)


def _all_ways(monkeypatch, op, args, dys, orders, tol=1e-9):
    """Forward, frule with every subset of zero tangents, and the pullback's cotangents read in several orders
    (each a lazy thunk: a fused step computes two; one read first must not leave the other half done), natively
    and through NumPy."""
    def run():
        res = [as_float64(op(*args))]
        for mask in range(1 << len(args)):
            tans = tuple(ZeroTangent() if mask >> k & 1 else np.full(np.shape(a), 0.7) for k, a in enumerate(args))
            res.append(as_float64(op.op.frule((ZeroTangent(),) + tans, *args)))
        for dy in dys:
            for order in orders:
                g = op.op.rrule(*args)[1](dy)
                res.append(tuple(as_float64(g[1 + k]) for k in order))
        return res
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "1")
    got = run()
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "0")
    want = run()
    bad = [k for k, (a, b) in enumerate(zip(got, want)) if not _same(a, b, tol)]
    assert not bad, (bad, got[bad[0]], want[bad[0]])


@pytest.mark.slow
def test_companion_kernels_at_the_edges_of_lanes_groups_and_tiles_match_numpy(monkeypatch, own):
    """Lanes (d) 0, 1, 9 and 17 (TR_LANES is 8), groups 1, 16, 17, 33 (TR_RB is 16), reduced extents 0, 1, 255,
    256, 257 (TR_TILE is 256); two reduced indices, an outer coefficient, two-term companions. Before the fix
    every d = 0 case gave garbage for b's cotangent."""
    calls = _native_calls(monkeypatch)
    rng = np.random.default_rng(1)
    R = lambda *s: rng.standard_normal(s) * 0.5     # noqa: E731
    for i, j, k, d in [(3, 17, 1, 9), (257, 4, 5, 1), (16, 1, 1, 17), (5, 3, 2, 0), (0, 3, 2, 4), (4, 0, 3, 2),
                       (255, 2, 33, 8), (256, 17, 1, 16)]:
        _all_ways(monkeypatch, own.ks2, (R(i, d), R(j, k, d), R(j, k), 1.7), [R(i), ZeroTangent()],
                  [(0, 1, 2, 3), (2, 1, 3, 0), (2,), (1,)])
    for i, j, d in [(3, 17, 9), (257, 33, 1), (5, 3, 0), (0, 3, 4), (15, 16, 17)]:
        _all_ways(monkeypatch, own.ksc, (R(i, d), R(j, d), R(j), R(j), 0.9), [R(i)], [(0, 1, 2, 3, 4), (3, 2), (2,)])
        _all_ways(monkeypatch, own.ks2o, (R(i, d), R(j, d), R(j)), [(R(i), R(i)), (ZeroTangent(), R(i))],
                  [(0, 1, 2), (2, 1, 0), (2,)])
        _all_ways(monkeypatch, own.ksx, (R(i, d), R(j, d), R(j)), [(R(i), R(j, d)), (ZeroTangent(), R(j, d)),
                  (R(i), ZeroTangent())], [(2, 1, 0), (0, 1, 2), (1,)])
    for a, i, j, d in [(3, 4, 17, 9), (1, 257, 16, 1), (2, 3, 4, 0), (15, 2, 3, 2)]:
        _all_ways(monkeypatch, own.ksm, (R(i, d), R(a, j, d), R(j)), [R(a, i)], [(0, 1, 2), (2, 1, 0)])
    assert {"ks2", "ksc", "ks2o", "ksx", "ksm"} <= set(calls)


def test_where_with_nan_and_inf_in_the_branch_not_taken_gives_numpys_values(monkeypatch, own):
    """tr_select blends bits, so the NaN of sqrt(-3) or the inf of 1/(2 sqrt 0) in the unselected branch never
    leaks (a 0 * NaN would); inf and NaN inputs give what np.where gives."""
    calls = _native_calls(monkeypatch)
    x = np.concatenate([[-np.inf, -3, -1e-300, -0.0, 0.0, 1e-300, 0.5, 2, 30, np.inf, np.nan],
                        np.random.default_rng(2).standard_normal(300)])
    with np.errstate(all="ignore"):         # NumPy evaluates both branches and warns about the one not taken
        _all_ways(monkeypatch, own.wsel, (x,), [np.ones_like(x)], [(0,)], tol=1e-12)
    assert "wsel" in calls
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "1")
    y = own.wsel(x[:11])
    assert not np.isnan(y[:10]).any() and np.isnan(y[10])
