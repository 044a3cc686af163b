"""Generated numerics a new user meets that the accuracy suite did not: derivatives of spellings users write
(a cross-entropy through log Σ exp, the logistic function written out), at realistic magnitudes. References are
mpmath at 50 digits or closed forms (softmax(x) - t, σ(x)·σ(-x))."""
from __future__ import annotations

import mpmath
import numpy as np
import pytest

from derive import api
from runtime import backend_numpy
from runtime.tangents import unthunk

mpmath.mp.dps = 50
TOL = {np.float64: 1e-6, np.float32: 1e-3}


def _ops(text):
    results = api.derive_text(text, "<adv9>")
    assert all(r.ok for r in results), [(r.name, r.error, r.check and r.check.problems) for r in results]
    ns: dict = {}
    exec(compile(api.render_module(results, "<adv9>", export=False), "<adv9>", "exec"), ns)
    return ns["_define"](backend_numpy)


def _mp_softmax(x):
    e = [mpmath.exp(mpmath.mpf(float(v))) for v in x]
    s = mpmath.fsum(e)
    return np.array([float(v / s) for v in e])


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["f64", "f32"])
@pytest.mark.parametrize("base", [1e3, -1e3, 1e4])
def test_cross_entropy_gradient_is_shifted(dtype, base):
    # the softmax inside d/dx of -Σ t·(x - log Σ exp x) was exp(x)/Σ exp(x) unshifted in the pullback and the
    # frule (the reciprocal grouped with the cotangent hid it from the shift): inf/inf = NaN at x = 1000
    f = _ops("xent(x[i], t[i]) -> y[] = -t[i] * (x[i] - log(sum(j, exp(x[j]))))")
    x = (base + np.array([0.0, -1.0, -30.0, 2.0, 0.5])).astype(dtype)
    t = np.array([0.1, 0.2, 0.3, 0.2, 0.2], dtype)
    want = _mp_softmax(x) * float(np.sum(t, dtype=np.float64)) - t.astype(np.float64)
    _, pb = f["xent_rrule"](x, t)
    g = np.asarray(unthunk(pb(dtype(1))[1]), dtype=np.float64)
    assert np.all(np.isfinite(g)), g
    assert np.max(np.abs(g - want)) / np.max(np.abs(want)) <= TOL[dtype]
    e = np.zeros_like(x)
    e[3] = 1
    _, dy = f["xent_frule"]((None, e, np.zeros_like(t)), x, t)
    assert np.isfinite(dy) and abs(float(dy) - want[3]) <= TOL[dtype] * np.max(np.abs(want))


@pytest.mark.parametrize("dtype,lo", [(np.float64, -800.0), (np.float32, -90.0)], ids=["f64", "f32"])
def test_written_out_logistic_has_a_finite_derivative_in_its_tails(dtype, lo):
    # 1/(1 + exp(-x)) differentiated literally is exp(-x)·y² = inf·0 = NaN where exp(-x) overflows
    f = _ops("sig(x[i]) -> y[i] = 1 / (1 + exp(-x[i]))\nsig_s(x[i], s) -> y[i] = s / (1 + exp(x[i]))")
    x = np.array([lo, -30.0, -1.0, 0.0, 2.0, 40.0], dtype)
    xm = [mpmath.mpf(float(v)) for v in x]
    sig = np.array([float(1 / (1 + mpmath.exp(-v))) for v in xm])
    dsig = np.array([float(mpmath.exp(-v) / (1 + mpmath.exp(-v)) ** 2) for v in xm])
    y, pb = f["sig_rrule"](x)
    g = np.asarray(unthunk(pb(np.ones_like(x))[1]), dtype=np.float64)
    assert np.all(np.isfinite(g)), g
    normal = np.abs(sig) > np.finfo(dtype).tiny          # a subnormal result keeps fewer digits
    assert np.max(np.abs(y - sig)[normal] / sig[normal]) <= TOL[dtype]
    assert np.max(np.abs(g - dsig)[normal] / dsig[normal]) <= TOL[dtype]
    # s / (1 + exp(x)) is s·σ(-x)
    y2, pb2 = f["sig_s_rrule"](-x, dtype(2))
    g2 = np.asarray(unthunk(pb2(np.ones_like(x))[1]), dtype=np.float64)
    assert np.all(np.isfinite(g2)) and np.max(np.abs(y2 - 2 * sig)[normal] / sig[normal]) <= TOL[dtype]
    assert np.max(np.abs(g2 + 2 * dsig)[normal] / dsig[normal]) <= TOL[dtype]
