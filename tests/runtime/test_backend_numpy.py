"""The plain namespace: NumPy's names, an accurate erf, fallback to NumPy for anything else."""
import math

import numpy as np
import pytest

from runtime import backend_numpy as bn

NAMES = """einsum exp log log1p expm1 sin cos tan arcsin arccos arctan sinh cosh tanh sqrt abs sign where maximum
minimum sum prod reshape transpose swapaxes expand_dims broadcast_to concatenate stack zeros zeros_like ones_like
eye asarray diagonal trace logaddexp erf relu heaviside sigmoid""".split()


@pytest.mark.parametrize("name", NAMES)
def test_namespace_has(name):
    assert callable(getattr(bn, name))


def test_linalg_and_fallback():
    for name in ("inv", "det", "slogdet", "solve"):
        assert getattr(bn.linalg, name) is getattr(np.linalg, name)
    assert bn.polyval is np.polyval  # not listed: falls back to NumPy
    assert bn.pi == np.pi and bn.newaxis is None


def test_erf_accuracy_against_math_erf():
    xs = np.concatenate([np.linspace(-7, 7, 100001), [0.0, -0.0, 1e-300, -1e-12, 1.99999, 2.0, 2.00001, 26.0]])
    ref = np.array([math.erf(v) for v in xs])
    got = bn.erf(xs)
    assert np.max(np.abs(got - ref)) < 1e-14
    small = np.abs(xs) < 1
    assert np.max(np.abs(got[small] - ref[small]) / np.maximum(np.abs(ref[small]), 1e-300)) < 1e-14


def test_erf_is_unaffected_by_other_elements_and_keeps_float32():
    # each element's range is its own: a NaN or a far value in the same array changes nothing, and float32
    # stays float32 at float32 accuracy
    xs = np.linspace(-1.999, 1.999, 4001)
    ref = np.array([math.erf(v) for v in xs])
    for extra in ([np.nan], [np.inf, -30.0], [0.1]):
        got = bn.erf(np.concatenate([extra, xs]))[len(extra):]
        assert np.max(np.abs(got - ref)) < 1e-14, extra
    x32 = xs.astype(np.float32)
    got32 = bn.erf(x32)
    assert got32.dtype == np.float32
    ref32 = np.array([math.erf(float(v)) for v in x32])
    assert np.max(np.abs(got32 - ref32)) < 4 * np.finfo(np.float32).eps


def test_erf_special_values_and_shapes():
    out = bn.erf(np.array([np.nan, np.inf, -np.inf]))
    assert np.isnan(out[0]) and out[1] == 1.0 and out[2] == -1.0
    assert np.ndim(bn.erf(0.5)) == 0 and abs(bn.erf(0.5) - math.erf(0.5)) < 3e-16
    assert bn.erf(np.arange(3)).dtype == np.float64
    assert bn.erf(np.ones((2, 3))).shape == (2, 3)
    xs = np.linspace(-3, 6, 301)
    ref = np.array([math.erfc(v) for v in xs])
    assert np.max(np.abs(bn.erfc(xs) - ref) / ref) < 1e-12


def test_relu_sigmoid():
    x = np.array([-2.0, 0.0, 3.0])
    np.testing.assert_array_equal(bn.relu(x), [0.0, 0.0, 3.0])
    np.testing.assert_allclose(bn.sigmoid(x), 1 / (1 + np.exp(-x)), rtol=1e-15)
    assert bn.sigmoid(-1000.0) == 0.0 and bn.sigmoid(1000.0) == 1.0
