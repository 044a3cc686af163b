"""Trust check of scalar divisions through _div (7fe566a), finite-entry kernel-sum centring (e4c73ea), the
np.logsumexp / np.lse_shift namespace calls (05ac3f6, 744ea64) and runtime.torch's exec'd fast op (57ad447), on
programs no other test uses. Expected values come from NumPy formulas written here, never from the ops."""
import warnings

import mpmath
import numpy as np
import pytest

X = np.array([1.0, -2.0, 0.0, 3.0])


def _exp(v):
    return mpmath.exp(v) if isinstance(v, mpmath.mpf) else np.exp(v)


def _np(f):
    with np.errstate(all="ignore"):
        return f()


@pytest.mark.parametrize("s", [0.0, -0.0, np.nan, -4.0, 1e-200, np.inf])
@pytest.mark.parametrize("text,f", [
    ("a21(x[i], s) -> y[i] = x[i] / s", lambda x, s: x / s),
    ("b21(x[i], s) -> y[i] = x[i] * s**-2", lambda x, s: x * s ** -2.0),
    ("c21(x[i], s) -> y[i] = x[i] * s**-3", lambda x, s: x * s ** -3.0),
    ("d21(x[i], s) -> y[i] = exp(-x[i]**2 / s)", lambda x, s: _exp(-x ** 2 / s)),
])
def test_scalar_division_matches_numpy_float64(define, text, f, s):
    """At a finite non-zero s the expected value is the real one rounded to float64 (mpmath, 50 digits): 0·s⁻² is 0
    at s = 1e-200, where NumPy's x * s**-2 overflows s**-2 first and gives 0·inf = NaN. At s = 0, ±inf or NaN there
    is no real value: IEEE's, as NumPy computes it."""
    op = define(text)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = op(X, s)
    if np.isfinite(s) and s != 0:
        mpmath.mp.dps = 50
        want = np.array([float(f(mpmath.mpf(float(x)), mpmath.mpf(s))) for x in X])
    else:
        want = _np(lambda: f(X, np.float64(s)))
    np.testing.assert_allclose(got, want, rtol=1e-13, equal_nan=True)


@pytest.mark.parametrize("s,t", [(1.0, 0.0), (-1.0, 0.0), (1.0, -0.0), (0.0, 0.0), (np.nan, 0.0), (2.0, 4.0)])
def test_number_over_number_then_array(define, s, t):
    op = define("e21(x[i], s, t) -> y[i] = s / t * x[i]")
    op2 = define("f21(x[i], s, t) -> y[i] = x[i] / (s - t)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_allclose(op(X, s, t), _np(lambda: np.float64(s) / np.float64(t) * X), equal_nan=True)
        np.testing.assert_allclose(op2(X, s, t), _np(lambda: X / (np.float64(s) - np.float64(t))), equal_nan=True)


@pytest.mark.parametrize("n", [0, 3, -2])
def test_int_parameter_division(define, n):
    op = define("g21(x[i], n: int) -> y[i] = x[i] / n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_allclose(op(X, n), _np(lambda: X / np.float64(n)), equal_nan=True)


def test_jvp_wrt_scalar_at_zero(define):
    import runtime
    op = define("a21(x[i], s) -> y[i] = x[i] / s")
    x = np.array([1.0, -2.0, 0.5])
    for s in (0.0, -0.0, 2.0):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            v, t = runtime.jvp(lambda s: op(x, s), (s,), (1.0,))
        np.testing.assert_allclose(v, _np(lambda: x / np.float64(s)))
        np.testing.assert_allclose(t, _np(lambda: -x / np.float64(s) ** 2))


NI, NAN = np.inf, np.nan
LSE_ROWS = np.array([[-NI, -NI, -NI], [NI, 1.0, 2.0], [NAN, 1.0, 2.0], [NI, NAN, 0.0], [1000.0, 1000.0, -NI],
                     [NI, -NI, 0.0], [-NI, 3.0, NAN], [-800.0, -801.0, -NI]])
LSE_EXPECT = np.array([-NI, NI, NAN, NAN, 1000.0 + np.log(2.0), NI, NAN, -800.0 + np.log1p(np.exp(-1.0))])
LSE = "lse21(x[i,j]) -> y[i] = log(sum(j, exp(x[i,j])))"


def test_logsumexp_edge_rows_numpy_torch(define):
    np.testing.assert_allclose(define(LSE)(LSE_ROWS), LSE_EXPECT, rtol=1e-14, equal_nan=True)
    assert np.array_equal(define(LSE)(np.zeros((2, 0))), [-NI, -NI])
    assert define(LSE)(LSE_ROWS.astype(np.float32)).dtype == np.float32
    torch = pytest.importorskip("torch")
    import runtime.torch as rt
    op = rt.define(LSE)
    np.testing.assert_allclose(op(torch.tensor(LSE_ROWS)).numpy(), LSE_EXPECT, rtol=1e-14, equal_nan=True)
    assert op(torch.tensor(LSE_ROWS, dtype=torch.float32)).dtype == torch.float32
    assert np.array_equal(op(torch.zeros(2, 0, dtype=torch.float64)).numpy(), [-NI, -NI])


KS = "ks21(x[i,d], y[j,d], w[j]) -> s[i] = sum(j, exp(-sum(d, (x[i,d] - y[j,d])**2)) * w[j])"


def _ks(x, y, w):
    return _np(lambda: np.sum(np.exp(-np.sum((x[:, None, :] - y[None, :, :]) ** 2, axis=2)) * w, axis=1))


def test_kernel_sum_centring_nan_row_and_far_origin(define):
    rng = np.random.default_rng(21)
    x, y, w = rng.normal(size=(5, 2)), rng.normal(size=(4, 2)), rng.normal(size=4)
    op = define(KS)
    x1 = x.copy()
    x1[1, 0] = NAN
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_allclose(op(x1, y, w), _ks(x1, y, w), rtol=1e-9, equal_nan=True)
        np.testing.assert_allclose(op(x + 1e8, y + 1e8, w), _ks(x, y, w), rtol=1e-7, atol=1e-12)
        got = op(x.astype(np.float32), y.astype(np.float32), w.astype(np.float32))
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, _ks(x, y, w), rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("nm", ["_div", "math", "np", "_recip", "s0", "a0", "_general", "_apply", "args", "kw"])
def test_parameter_names_shadowing_helpers(define, nm):
    op = define(f"h21(x[i], {nm}) -> y[i] = x[i] / {nm} + 1 / {nm}")
    x = np.array([1.0, -2.0, 4.0])
    np.testing.assert_allclose(op(x, 2.0), x / 2 + 0.5, rtol=1e-15)
    torch = pytest.importorskip("torch")
    import runtime.torch as rt
    got = rt.define(f"h21(x[i], {nm}) -> y[i] = x[i] / {nm} + 1 / {nm}")(torch.tensor(x), torch.tensor(2.0,
                                                                                                          dtype=torch.float64))
    np.testing.assert_allclose(got.numpy(), x / 2 + 0.5, rtol=1e-15)


@pytest.mark.parametrize("rn", ["_div", "op", "_general", "math"])
def test_rule_names_shadowing_fast_op(define, rn):
    torch = pytest.importorskip("torch")
    import runtime.torch as rt
    x = np.array([1.0, -2.0, 4.0])
    text = f"{rn}(a0[i], s0[i]) -> y[i] = a0[i] * s0[i]"
    np.testing.assert_allclose(rt.define(text)(torch.tensor(x), torch.tensor(x)).numpy(), x * x)
    np.testing.assert_allclose(define(text)(x, x), x * x)
