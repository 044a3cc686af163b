"""checked_sum, the namespace call the generated code makes for Σ_d (x_i,d - y_j,d)² and its kind
(derive/emission/numpy_direct.py), on each namespace: which of its paths it takes (the direct form for a small
summed extent; the expansion, with none, a few or all entries recomputed), and each path's value against the
direct form accumulated in np.longdouble."""
from __future__ import annotations

import numpy as np
import pytest

from runtime import backend_numpy


def _points(d, far, rng, n=64):
    """n points, each p followed by -p (centroid 0), the first `far` of them near (1e6, ..., 1e6)."""
    p = rng.standard_normal((n // 2, d))
    p[:far // 2] += 1e6
    return np.stack([p, -p], axis=1).reshape(n, d)


def _calls(xp, x, y, log):
    """The three functions the generated code passes checked_sum, over xp, recording what they are asked."""
    def direct(k, r, m):
        log.append(("direct", k))
        e = x[r, k[0]][:, None] - y[:, k[0]]
        return e * e

    def at(pos):
        log.append(("at", len(pos[0])))
        e = x[pos[0], :] - y[pos[1], :]
        return xp.sum(e * e, axis=1)

    def expanded():
        log.append(("expanded",))
        a, b = xp.sum(x * x, axis=1), xp.sum(y * y, axis=1)
        return a[:, None] + b - 2.0 * (x @ xp.transpose(y))

    def bound(r, m):
        a, b = xp.sum(x[r] * x[r], axis=1), xp.sum(y * y, axis=1)
        return 2.0 * xp.sqrt(a)[:, None] * xp.sqrt(b) + a[:, None] + b
    return direct, at, expanded, bound


def _namespaces():
    out = [("numpy", backend_numpy, np.asarray, lambda f: f)]
    try:
        import torch

        from runtime import backend_torch
        out.append(("torch", backend_torch, torch.as_tensor, lambda f: f))
    except ImportError:
        pass
    try:
        import jax

        from runtime import backend_jax
        jax.config.update("jax_enable_x64", True)
        out.append(("jax", backend_jax, jax.numpy.asarray, jax.jit))
    except ImportError:
        pass
    from runtime import tnp
    out.append(("tnp", tnp, np.asarray, lambda f: f))
    return out


NAMESPACES = _namespaces()


@pytest.mark.parametrize("ns", NAMESPACES, ids=[n[0] for n in NAMESPACES])
@pytest.mark.parametrize("d,far,path", [(3, 64, "direct"), (64, 0, "expanded"), (64, 2, "a few gathered"),
                                        (64, 64, "all recomputed")])
def test_checked_sum_paths_and_values(ns, d, far, path):
    name, xp, asarray, jit = ns
    rng = np.random.default_rng(3)
    x, y = _points(d, far, rng), _points(d, far, rng)
    X, Y = x.astype(np.longdouble), y.astype(np.longdouble)
    want = np.sum((X[:, None, :] - Y[None, :, :]) ** 2, axis=-1).astype(np.float64)
    log: list = []

    def run(x, y):
        return xp.checked_sum((d,), x.shape[0], *_calls(xp, x, y, log))
    got = np.asarray(jit(run)(asarray(x), asarray(y)), np.float64)
    assert got.shape == want.shape and np.all(np.isfinite(got))
    err = np.max(np.abs(got - want) / np.maximum(want, 1.0))
    assert err <= 1e-12, (name, path, err)
    kinds = [e[0] for e in log]
    if path == "direct":
        assert "expanded" not in kinds and {e[1] for e in log} == {(k,) for k in range(d)}
    elif name != "jax":        # under jit every branch is traced once: which one ran is not observable here
        gathers = path == "a few gathered" and name != "tnp"    # traced values: where(flagged, direct, value)
        assert kinds[0] == "expanded"
        assert ("at" in kinds) == gathers, kinds
        assert ("direct" in kinds) == (path != "expanded" and not gathers), kinds
        if gathers:
            assert sum(n for k, *n in log if k == "at" for n in n) == 2      # (p, q) and (-p, -q): no other


@pytest.mark.parametrize("ns", [n for n in NAMESPACES if n[0] in ("numpy", "torch")], ids=lambda n: n[0])
def test_checked_sum_checks_row_blocks(ns, monkeypatch):
    """The check by blocks of rows (one row each here) finds the flagged entries at their own rows; the direct
    form by blocks of rows is the whole."""
    name, xp, asarray, _ = ns
    monkeypatch.setattr(backend_numpy, "CHECK_BLOCK", 1)
    rng = np.random.default_rng(4)
    x, y = _points(64, 2, rng), _points(64, 2, rng)
    x[[0, 1, 40, 41]], y[[0, 1, 40, 41]] = x[[40, 41, 0, 1]], y[[40, 41, 0, 1]]    # the far pairs at rows 40, 41
    log: list = []
    got = np.asarray(xp.checked_sum((64,), 64, *_calls(xp, asarray(x), asarray(y), log)), np.float64)
    X, Y = x.astype(np.longdouble), y.astype(np.longdouble)
    want = np.sum((X[:, None, :] - Y[None, :, :]) ** 2, axis=-1).astype(np.float64)
    assert np.max(np.abs(got - want) / np.maximum(want, 1.0)) <= 1e-12
    assert [e for e in log if e[0] == "at"] == [("at", 2)]
    whole = np.asarray(xp.checked_sum((3,), 64, *_calls(xp, asarray(x[:, :3]), asarray(y[:, :3]), log)), np.float64)
    X, Y = X[:, :3], Y[:, :3]
    want = np.sum((X[:, None, :] - Y[None, :, :]) ** 2, axis=-1).astype(np.float64)
    assert np.max(np.abs(whole - want) / np.maximum(want, 1.0)) <= 1e-12


def _difference_calls(xp, x, y, c, log):
    """The functions the generated code passes checked_sum for Σ_j c[i,j]·(x[i,d] - y[j,d]) (a kept difference:
    numpy_direct.CheckedDifference), over xp, recording what they are asked."""
    def direct(r, m):                 # per pair, at rows r
        log.append(("direct", m))
        return xp.sum(c[r][:, :, None] * (x[r][:, None, :] - y[None, :, :]), axis=1)

    def at(pos):
        log.append(("at", len(pos[0])))
        return xp.sum(c[pos[0], :] * (x[pos[0], pos[1]][:, None] - xp.transpose(y[:, pos[1]])), axis=1)

    def expanded():
        log.append(("expanded",))
        return x * xp.sum(c, axis=1)[:, None] - c @ y

    def bound(r, m):
        return xp.abs(x[r]) * xp.sum(xp.abs(c[r]), axis=1)[:, None] + xp.abs(c[r]) @ xp.abs(y)

    def floor(r, m):
        return xp.abs(x[r] * xp.sum(xp.abs(c[r]), axis=1)[:, None] - xp.abs(c[r]) @ y)
    return direct, at, expanded, bound, floor


@pytest.mark.parametrize("ns", NAMESPACES, ids=[n[0] for n in NAMESPACES])
@pytest.mark.parametrize("layout", ["cloud", "cloud without floor", "two clusters"])
def test_checked_sum_of_a_kept_difference(ns, layout):
    """Σ_j c·(x_i - y_j) with c of either sign: near the origin the expansion, a few entries gathered (the floor
    Σ_j |c|·(x_i - y_j) vouches for entries whose value the signs of c made small; without it nearly every
    entry is flagged and all are read per pair); two clusters far apart, every entry read per pair, by blocks of
    rows within the budget. JAX reads it per pair always (runtime.jax transposes the frule: no check on
    tangent values)."""
    name, xp, asarray, jit = ns
    rng = np.random.default_rng(5)
    x, y, c = rng.standard_normal((40, 6)), rng.standard_normal((50, 6)), rng.standard_normal((40, 50))
    if layout == "two clusters":      # c is 0 between them, as the kernel is: each sum is within a cluster
        x[::2] += 1e6
        y[::2] += 1e6
        c *= np.arange(40)[:, None] % 2 == np.arange(50) % 2
    X, Y, C = (v.astype(np.longdouble) for v in (x, y, c))
    want = np.einsum("ij,ijd->id", C, X[:, None, :] - Y[None, :, :]).astype(np.float64)
    log: list = []

    def run(x, y, c):
        direct, at, expanded, bound, floor = _difference_calls(xp, x, y, c, log)
        return xp.checked_sum((50,), 40, direct, at, expanded, bound,
                              floor=None if layout == "cloud without floor" else floor, budget=10 * 50 * 6)
    got = np.asarray(jit(run)(asarray(x), asarray(y), asarray(c)), np.float64)
    scale = np.einsum("ij,ijd->id", np.abs(C), np.abs(X[:, None, :] - Y[None, :, :])).astype(np.float64)
    assert np.max(np.abs(got - want) / scale) <= 1e-13, (name, layout)
    kinds = [e[0] for e in log]
    if name == "jax":
        assert "expanded" not in kinds and "at" not in kinds, kinds
    elif layout == "cloud" and name == "tnp":       # traced values: where(flagged, direct, value)
        assert "at" not in kinds and "direct" in kinds, kinds
    elif layout == "cloud":
        assert "direct" not in kinds and 0 < sum(e[1] for e in log if e[0] == "at") <= 0.15 * 40 * 6, log
    else:
        # all read per pair: a probe row, then blocks of 10 rows (all at once where no row blocks: tnp)
        assert "at" not in kinds and sum(e[1] for e in log if e[0] == "direct") == 41, log
        assert name == "tnp" or [e[1] for e in log if e[0] == "direct"] == [1, 10, 10, 10, 10], log
