"""Trust check of the native CPU backend (issue #15): user text that is C++ keywords, macros, or the generated
code's own variable names; rule file paths with quotes, `*/`, `$(...)` and newlines; the "few rows, long
reduction" split path that verification's small extents never reach; libm edge values (overflow, subnormals,
NaN, inf) in float64 and float32; and the native verifier's comparison itself.

Expected values come from the NumPy path (TENSOR_RULES_NATIVE=0) or from math, never from the native path.
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
from runtime.tangents import ZeroTangent

ROOT = Path(__file__).resolve().parents[2]
ok, why = native.available()
needs_native = pytest.mark.skipif(not ok, reason=f"native CPU kernels unavailable here: {why}")

# every name below is a C++ keyword, a macro of the generated file, a libm/OpenMP name, or one of the generated
# kernels' own variables (s1_t is a tile array, nrows/nko/nki/nlane kernel parameters, mode_x_out an output mode)
RULES = """\
# file doc */ with a C++ comment terminator /* and "quotes" // \\

# rule doc */ /* // "q" \\
hi(nl[t], k0[t]) -> tn[t] = erf(nl[t]) * k0[t]
row(grp[ln,d], acc0[res,d]) -> TR_TILE[ln] = sum(res, exp(-sum(d, (grp[ln,d] - acc0[res,d])**2)))
omp(std[row], tr_exp[exp]) -> e[row] = sum(exp, exp(std[row] * tr_exp[exp]))
s1_t(s1_t[i], x_x[j], b_out[i]) -> nrows[i] = sum(j, exp(s1_t[i] * x_x[j])) + b_out[i]
nko(nki[i,d], nlane[j,d], mode_x_out[j], s) -> x_out[i] = sum(j, exp(-sum(d, (nki[i,d] - nlane[j,d])**2) / s) * mode_x_out[j])
el(x[i]) -> (y[i], z[i]):
    y[i] = sigmoid(x[i]) * erf(x[i])
    z[i] = exp(x[i]) + exp(-x[i])
"""
OPS = ("hi", "row", "omp", "s1_t", "nko", "el")


@pytest.fixture(scope="module")
def own(tmp_path_factory):
    # a directory name with a space, both quotes, a comment terminator, a command substitution and a newline
    base = tmp_path_factory.mktemp("trust15") / "a b'c\"d */ $(false)\nx\\"
    base.mkdir(parents=True)
    (base / "trust15.rules").write_text(RULES)
    res = subprocess.run([sys.executable, "-m", "derive.cli", str(base / "trust15.rules"), "--out",
                          str(base / "gen"), "-q"], capture_output=True, text=True, timeout=300, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    plan = json.loads((base / "gen" / "cpu" / "trust15.json").read_text())
    assert plan["generated_from"] == str(base / "trust15.rules")
    assert set(OPS) <= set(plan["ops"]), plan["ops"]          # every rule really has native kernels
    src = (base / "gen" / "cpu" / "trust15.cpp").read_text()
    assert all(not ln.rstrip().endswith("\\") for ln in src.splitlines() if "//" in ln)   # no comment splices
    with loaded(base / "gen" / "trust15.py", "trust15") as mod:
        yield mod


def _same(a, b, rtol, atol):
    if isinstance(a, tuple) or isinstance(b, tuple):
        return isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b) and all(
            _same(p, q, rtol, atol) for p, q in zip(a, b))
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    return a.shape == b.shape and np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True) and np.array_equal(
        np.isnan(a), np.isnan(b)) and np.array_equal(np.isposinf(a), np.isposinf(b))


def _both(monkeypatch, op, args, dy, rtol=1e-9, atol=1e-300):
    calls = []
    real = native.call
    monkeypatch.setattr(native, "call", lambda *a: calls.append(a[1]) or real(*a))
    rng = np.random.default_rng(5)

    def run():
        tans = tuple(np.asarray(rng.standard_normal(np.shape(a)), dtype=np.asarray(a).dtype)
                     if isinstance(a, np.ndarray) else 0.5 for a in args)
        with np.errstate(all="ignore"):
            res = [as_float64(op(*args)), as_float64(op.op.frule((ZeroTangent(),) + tans, *args))]
            g = op.op.rrule(*args)[1](dy)
            res.append(tuple(as_float64(g[1 + k]) for k in reversed(range(len(args)))))
        return res
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "1")
    rng = np.random.default_rng(5)
    got = run()
    assert calls, "the native kernels did not run"
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "0")
    rng = np.random.default_rng(5)
    want = run()
    for what, a, b in zip(("forward", "frule", "pullback"), got, want):
        assert _same(a, b, rtol, atol), (what, [(p, q) for p, q in zip(np.ravel(a[-1] if isinstance(a, tuple) else a), np.ravel(b[-1] if isinstance(b, tuple) else b)) if not np.isclose(p, q, rtol=rtol, atol=atol, equal_nan=True)][:4])


@pytest.mark.slow
@needs_native
def test_keyword_and_generated_variable_names_compile_and_match_numpy(monkeypatch, own):
    rng = np.random.default_rng(0)
    R = lambda *s: rng.standard_normal(s)        # noqa: E731
    _both(monkeypatch, own.hi, (R(300), R(300)), R(300))
    _both(monkeypatch, own.row, (R(20, 3), R(300, 3)), R(20))
    _both(monkeypatch, own.omp, (R(20) * 0.1, R(300)), R(20))
    _both(monkeypatch, own.s1_t, (R(20) * 0.1, R(300), R(20)), R(20))
    _both(monkeypatch, own.nko, (R(20, 3), R(300, 3), R(300), 1.3), R(20))
    _both(monkeypatch, own.el, (R(300),), (R(300), R(300)))


@needs_native
def test_few_rows_long_reduction_split_path_matches_numpy(monkeypatch, own):
    """rows < 4 * threads and a reduced size >= 65536 take the split path (chunks of each row's reduction in
    parallel, then combined); the verifier's extents never reach it. Sizes just below, at and past 2**16."""
    rng = np.random.default_rng(1)
    R = lambda *s: rng.standard_normal(s)        # noqa: E731
    for rows, n in [(1, 65535), (2, 65536), (3, 70001)]:
        _both(monkeypatch, own.omp, (R(rows) * 0.1, R(n)), R(rows), rtol=1e-9, atol=1e-12)
        _both(monkeypatch, own.s1_t, (R(rows) * 0.1, R(n), R(rows)), R(rows), rtol=1e-9, atol=1e-12)
        _both(monkeypatch, own.nko, (R(rows, 2), R(n, 2), R(n), 1.3), R(rows), rtol=1e-9, atol=1e-12)
        _both(monkeypatch, own.row, (R(rows, 3), R(n, 3)), R(rows), rtol=1e-9, atol=1e-12)


EDGES = [np.nan, np.inf, -np.inf, 0.0, -0.0, 5e-324, -5e-324, 1e-300, 709.78, 709.79, 710.0, -745.1, -745.2, -750.0,
         88.7, 88.73, -103.9, -87.4, 5.9, 5.93, 6.0, 26.5, 27.0, -27.0, 1e6, -1e6]


@needs_native
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_exp_erf_sigmoid_at_overflow_subnormal_nan_and_inf_match_numpy(monkeypatch, own, dtype):
    """cpu_math.h's own exp/erf and the sigmoid, far from the unit-scale points verification samples: values
    agree to rounding, NaN and inf where NumPy has them (subnormal results: absolute tolerance)."""
    with np.errstate(over="ignore"):
        x = np.concatenate([EDGES, np.linspace(-800, 800, 4001), np.logspace(-40, 3, 500),
                            -np.logspace(-40, 3, 500)]).astype(dtype)
    dy = np.random.default_rng(2).standard_normal(x.size).astype(dtype)
    rtol, atol = (1e-13, 1e-13) if dtype == np.float64 else (2e-6, 1e-6)   # exp(x) - exp(-x) cancels near 0
    _both(monkeypatch, own.el, (x,), (dy, dy), rtol=rtol, atol=atol)
    _both(monkeypatch, own.hi, (x, dy), dy, rtol=rtol, atol=atol)
    for off in (1e3, 1e6):               # offsets on every input; a bandwidth s far from 1
        rng = np.random.default_rng(3)
        _both(monkeypatch, own.nko, (rng.standard_normal((5, 3)), rng.standard_normal((40, 3)),
                                     rng.standard_normal(40), off), rng.standard_normal(5), rtol=1e-11)
        _both(monkeypatch, own.omp, (rng.standard_normal(5) * 1e-3 + off / off, rng.standard_normal(40) * off / 1e3),
              rng.standard_normal(5), rtol=1e-11)


# ------------------------------------------------------------------------------------------- the verifier itself
def test_native_verifier_tells_nan_and_opposite_infinities_from_inf():
    """NaN where NumPy has inf (or -inf where it has +inf) was 'not finite' on both sides, so it compared as equal
    and a native kernel returning NaN for an overflow would have verified."""
    from derive.verification.arbiter import relative_error
    assert relative_error(np.array([np.nan, 1.0]), np.array([np.inf, 1.0])) > 1
    assert relative_error(np.array([-np.inf, 1.0]), np.array([np.inf, 1.0])) > 1
    assert relative_error(np.array([np.inf, np.nan, 1.0]), np.array([np.inf, np.nan, 1.0])) == 0


def _outcome(f):
    try:
        with np.errstate(all="ignore"):
            return ("value", as_float64(f()))
    except Exception as exc:  # noqa: BLE001 - the outcome compared
        return ("raised", type(exc).__name__)


@needs_native
def test_zero_bandwidth_gives_the_same_outcome_natively_and_through_numpy(monkeypatch, own):
    """A scalar s = 0 (or s·s underflowing, s = 1e-200): the generated NumPy code divided Python floats (1 / s)
    and raised ZeroDivisionError where the native kernels return values, so the outcome depended on
    TENSOR_RULES_NATIVE. Scalar divisions now go through the module's _div (inf, as NumPy's scalars give): the
    same values, NaN where NaN, in both."""
    rng = np.random.default_rng(4)
    x, y, b = rng.standard_normal((2, 3)), rng.standard_normal((4, 3)), rng.standard_normal(4)
    tans = (ZeroTangent(), np.ones((2, 3)), np.ones((4, 3)), np.ones(4), 1.0)
    got = {}
    for flag in "10":
        monkeypatch.setenv("TENSOR_RULES_NATIVE", flag)
        got[flag] = [_outcome(lambda: own.nko(x, y, b, 0.0)),
                     _outcome(lambda: own.nko.op.frule(tans, x, y, b, 1e-200)[1])]
    assert [o[0] for o in got["1"]] == [o[0] for o in got["0"]] == ["value", "value"], got
    for (_, a), (_, c) in zip(got["1"], got["0"]):
        np.testing.assert_array_equal(np.isnan(a), np.isnan(c))
        np.testing.assert_allclose(a[~np.isnan(a)], c[~np.isnan(c)], rtol=1e-12, atol=0)
    # the value itself: every distance is positive, so exp(-d²/0) = 0 in every row
    np.testing.assert_array_equal(got["0"][0][1], np.zeros(2))
