"""primitives.special's erf and erfc (Cody's rational approximations) against math.erf and mpmath.erfc."""
import math

import mpmath
import numpy as np
import pytest

from primitives import special

TINY = np.finfo(np.float64).tiny


def _rel(got, want):
    want = np.asarray(want, dtype=np.float64)
    return np.abs(got - want) / np.maximum(np.abs(want), TINY)


def _points():
    rng = np.random.default_rng(15)
    edges = [0.46875, 4.0, 6.0]      # Cody's range ends and where erf reaches 1
    near = [np.nextafter(e, s) for e in edges for s in (0, 10)]
    return np.concatenate([np.linspace(-7, 7, 140001), rng.uniform(-7, 7, 100000), rng.standard_normal(50000),
                           edges, near, np.negative(near), 10.0 ** rng.uniform(-320, -1, 2000)])


def test_erf_relative_error_against_math_erf():
    xs = _points()
    got = special.erf(xs)
    want = np.array([math.erf(v) for v in xs])
    assert np.max(_rel(got, want)) <= 1e-15
    assert np.max(_rel(special.erf(-xs), -want)) <= 1e-15   # odd, and the same path for both signs


def test_erf_special_values():
    x = np.array([0.0, -0.0, 5e-324, -5e-324, 1e-310, np.inf, -np.inf, 1e300, -30.0, np.nan])
    got = special.erf(x)
    assert np.signbit(got[1]) and got[0] == 0.0 and not np.signbit(got[0])      # erf(-0.0) = -0.0
    np.testing.assert_array_equal(got[2:9], [math.erf(v) for v in x[2:9]])
    assert np.isnan(got[9])
    assert special.erf(np.array([np.nan, 0.3]))[1] == pytest.approx(math.erf(0.3), rel=1e-16)


def test_erfc_relative_error_in_the_far_tail_against_mpmath():
    mpmath.mp.dps = 30
    rng = np.random.default_rng(16)
    xs = np.concatenate([np.linspace(-6, 26.5, 3001), rng.uniform(0.4, 26.5, 1500), [0.46875, 4.0, 26.0]])
    want = np.array([float(mpmath.erfc(mpmath.mpf(float(v)))) for v in xs])
    got = special.erfc(xs)
    assert np.max(_rel(got, want)) <= 1e-14
    # the split exp(-s²)·exp(-(y-s)(y+s)) matters: exp(-y·y) alone is 5.7e-14 off near 26
    assert np.max(_rel(got[xs > 20], want[xs > 20])) <= 2e-15


def test_erfc_special_values():
    got = special.erfc(np.array([np.inf, -np.inf, 0.0, -0.0, 27.5, 1e300, -1e300, np.nan]))
    np.testing.assert_array_equal(got[:7], [0.0, 2.0, 1.0, 1.0, 0.0, 0.0, 2.0])
    assert np.isnan(got[7])


def test_dtypes_shapes_and_scalars():
    x32 = np.linspace(-5, 5, 2001, dtype=np.float32)
    got = special.erf(x32)
    assert got.dtype == np.float32
    want = np.array([math.erf(float(v)) for v in x32], dtype=np.float32)     # correctly rounded, nearly
    assert np.max(np.abs(got - want) / np.maximum(np.abs(want), 1e-30)) <= np.finfo(np.float32).eps
    assert special.erfc(x32).dtype == np.float32
    assert special.erf(np.arange(3)).dtype == np.float64
    assert special.erf(np.ones((2, 3))).shape == (2, 3)
    s = special.erf(0.5)
    assert np.ndim(s) == 0 and s == pytest.approx(math.erf(0.5), rel=2e-16)
    with pytest.raises(TypeError):
        special.erf(np.array([1 + 1j]))


def test_blocks_and_mixed_ranges_agree_with_elementwise():
    # more than one block, with each range present or absent in some blocks
    x = np.concatenate([np.full(70000, 0.1), np.linspace(-30, 30, 100001), np.full(70000, 5.0)])
    want = np.array([math.erf(v) for v in x])
    assert np.max(_rel(special.erf(x), want)) <= 1e-15
    wantc = np.array([math.erfc(v) for v in x])
    assert np.max(_rel(special.erfc(x), wantc)[np.abs(x) < 26]) <= 1e-13   # math.erfc is itself ~1e-14 far out
