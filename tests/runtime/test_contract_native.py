"""runtime/contract_native.cpp: window contractions read in place (no im2col copy) and the strided adds of a shifted
scatter, against np.einsum / NumPy's add in float64, at sizes that take the native path, tails and edges included."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from runtime import contract, native, shifts

ok, why = native.available()
pytestmark = pytest.mark.skipif(not ok, reason=f"native CPU kernels unavailable here: {why}")

SPEC2D = ((((0, 1),), 0), (((1, 1),), 0), (((2, 1), (3, 1)), 0), (((4, 1), (5, 1)), 0))


@pytest.fixture
def spy(monkeypatch):
    """Counts the contractions the native library computed."""
    used = []
    real = contract._native

    def wrapped(*a, **k):
        r = real(*a, **k)
        used.append(r is not None)
        return r
    monkeypatch.setattr(contract, "_native", wrapped)
    return used


def window(x, p, q):
    n, c, s, t = x.shape
    return shifts.window(x, SPEC2D, (n, c, s - p + 1, p, q, t - q + 1))      # [n, c, h, p, q, w]


def f64(*arrays):
    return [a.astype(np.float64) for a in arrays]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n,c,o,s,t,p,q", [(2, 3, 5, 9, 11, 3, 3), (1, 4, 9, 6, 40, 2, 5), (3, 2, 17, 20, 18, 1, 4),
                                           (2, 5, 3, 9, 8, 7, 7), (1, 1, 1, 4, 5, 3, 3)])
def test_both_forms_match_einsum(monkeypatch, spy, dtype, n, c, o, s, t, p, q):
    """Forward (the kept unit-stride axis w vectorised), the kernel's cotangent (the summed axis w vectorised) and
    the transposed product the scatter needs, for extents that leave vector tails of every length."""
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "1")
    rng = np.random.default_rng(n * 100 + t)
    x = rng.standard_normal((n, c, s, t)).astype(dtype)
    K = rng.standard_normal((o, c, p, q)).astype(dtype)
    g = rng.standard_normal((n, o, s - p + 1, t - q + 1)).astype(dtype)
    W = window(x, p, q)
    tol = dict(rtol=2e-5, atol=2e-5 * c * p * q) if dtype == np.float32 else dict(rtol=1e-12, atol=1e-12 * c * p * q)
    for subs, a, b in (("ocpq,nchpwq->nohw", K, W.transpose(0, 1, 2, 3, 5, 4)),   # forward
                       ("nohw,nchpwq->ocpq", g, W.transpose(0, 1, 2, 3, 5, 4)),   # kernel cotangent
                       ("ocpq,nohw->nchpwq", K, g)):                              # input cotangent, before the scatter
        spy.clear()
        got = contract.einsum(subs, a, b, optimize=True)
        if "nchpwq" in subs.split("->")[0]:      # the window: no matrix without a copy, so always native
            assert spy == [True], subs
        want = np.einsum(subs, *f64(a, b))
        assert got.dtype == dtype and got.shape == want.shape
        np.testing.assert_allclose(got, want, **tol)


def test_batch_labels_and_negative_strides(monkeypatch, spy):
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "1")
    rng = np.random.default_rng(3)
    x = rng.standard_normal((4, 3, 10, 21))
    K = rng.standard_normal((4, 5, 3, 2, 2))                                      # a kernel per batch element b
    W = window(x, 2, 2)[:, :, ::-1]                                              # h reversed: a negative stride
    got = contract.einsum("bocpq,bchpwq->bohw", K, W.transpose(0, 1, 2, 3, 5, 4), optimize=True)
    assert spy == [True]
    want = np.einsum("bocpq,bchpwq->bohw", K, np.array(W.transpose(0, 1, 2, 3, 5, 4)))
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-11)


def test_strided_windows_and_what_it_does_not_take(monkeypatch, spy):
    """A strided window (x[2i+k]) is still right; mixed dtypes, an operand with no unit-stride axis, and
    TENSOR_RULES_NATIVE=0 go to the copy and BLAS."""
    rng = np.random.default_rng(5)
    x = rng.standard_normal((3, 41))
    w = rng.standard_normal(5)
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "1")
    strided = shifts.window(x, ((((0, 1),), 0), (((1, 2), (2, 1)), 0)), (3, 19, 5))
    np.testing.assert_allclose(contract.einsum("nik,k->ni", strided, w, optimize=True),
                               np.einsum("nik,k->ni", np.array(strided), w), rtol=1e-12)
    spy.clear()
    K = rng.standard_normal((4, 2, 3, 3)).astype(np.float32)
    xx = rng.standard_normal((2, 2, 9, 9))
    W = window(xx, 3, 3).transpose(0, 1, 2, 3, 5, 4)
    got = contract.einsum("ocpq,nchpwq->nohw", K, W, optimize=True)
    assert got.dtype == np.float64 and not any(spy)
    np.testing.assert_allclose(got, np.einsum("ocpq,nchpwq->nohw", K.astype(float), np.array(W)), rtol=1e-6)
    no_unit = window(np.asfortranarray(xx)[::-1, :, :, ::2], 3, 3).transpose(0, 1, 2, 3, 5, 4)
    np.testing.assert_allclose(contract.einsum("ocpq,nchpwq->nohw", K.astype(float), no_unit, optimize=True),
                               np.einsum("ocpq,nchpwq->nohw", K.astype(float), np.array(no_unit)), rtol=1e-12)
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "0")
    contract.einsum("ocpq,nchpwq->nohw", K.astype(float), W, optimize=True)
    assert not any(spy)


def test_nan_and_inf_propagate_as_in_einsum(monkeypatch):
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "1")
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 3, 8, 37))
    x[1, 2, 4, 20] = np.nan
    x[0, 1, 2, 5] = np.inf
    K = rng.standard_normal((4, 3, 3, 3))
    g = rng.standard_normal((2, 4, 6, 35))
    W = window(x, 3, 3).transpose(0, 1, 2, 3, 5, 4)
    for subs, a, b in (("ocpq,nchpwq->nohw", K, W), ("nohw,nchpwq->ocpq", g, W)):
        got = contract.einsum(subs, a, b, optimize=True)
        with np.errstate(invalid="ignore"):
            want = np.einsum(subs, a, np.array(b))
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
        np.testing.assert_array_equal(np.isposinf(got), np.isposinf(want))
        fin = np.isfinite(want)
        np.testing.assert_allclose(got[fin], want[fin], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_nan_next_to_the_view_never_leaks(monkeypatch, dtype):
    """Vector lanes past the end of the summed axis read the memory after each row; NaN there must not reach the
    sums (they are zeroed before the multiply), nor lanes past the kept axis the outputs (they are dropped)."""
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "1")
    rng = np.random.default_rng(2)
    full = np.full((2, 3, 9, 64), np.nan, dtype=dtype)
    full[..., :23] = rng.standard_normal((2, 3, 9, 23))
    x = full[..., :23]
    K = rng.standard_normal((5, 3, 2, 3)).astype(dtype)
    g = rng.standard_normal((2, 5, 8, 21)).astype(dtype)
    W = window(x, 2, 3).transpose(0, 1, 2, 3, 5, 4)
    for subs, a, b in (("ocpq,nchpwq->nohw", K, W), ("nohw,nchpwq->ocpq", g, W)):
        got = contract.einsum(subs, a, b, optimize=True)
        assert np.isfinite(got).all(), subs
        np.testing.assert_allclose(got, np.einsum(subs, *f64(a, np.array(b))), rtol=1e-4, atol=1e-4)


def test_never_reads_past_the_array_end():
    """Arrays whose last element ends at a page the process may not read: a vector load past the end would kill the
    process (run in a child so that a fault fails this test, not the session)."""
    code = textwrap.dedent(f"""
        import ctypes, mmap, numpy as np
        from runtime import contract, shifts
        PAGE = mmap.PAGESIZE
        spec = {SPEC2D!r}
        libc = ctypes.CDLL(None)
        keep = []
        def at_page_end(shape, dtype, rng):
            n = int(np.prod(shape)); size = n * np.dtype(dtype).itemsize
            pages = -(-size // PAGE) + 1
            buf = mmap.mmap(-1, (pages + 1) * PAGE)
            addr = ctypes.addressof(ctypes.c_char.from_buffer(buf))
            assert libc.mprotect(ctypes.c_void_p(addr + pages * PAGE), PAGE, 0) == 0
            a = np.frombuffer(buf, dtype=dtype, count=n, offset=pages * PAGE - size).reshape(shape)
            a[...] = rng.standard_normal(shape)
            keep.append(buf)
            return a
        rng = np.random.default_rng(0)
        for dtype in (np.float32, np.float64):
            for (n, c, o, s, t) in ((2, 3, 4, 7, 19), (1, 2, 9, 5, 33), (3, 1, 2, 4, 3)):
                x = at_page_end((n, c, s, t), dtype, rng)
                g = at_page_end((n, o, s - 2, t - 2), dtype, rng)
                K = at_page_end((o, c, 3, 3), dtype, rng)
                W = shifts.window(x, spec, (n, c, s - 2, 3, 3, t - 2)).transpose(0, 1, 2, 3, 5, 4)
                for subs, a, b in (("ocpq,nchpwq->nohw", K, W), ("nohw,nchpwq->ocpq", g, W), ("ocpq,nohw->nchpwq", K, g)):
                    got = contract.einsum(subs, a, b, optimize=True)
                    want = np.einsum(subs, a.astype(float), np.array(b, dtype=float))
                    assert np.allclose(got, want, rtol=1e-4, atol=1e-4), subs
                dx = shifts.scatter(contract.einsum("ocpq,nohw->nchpwq", K, g, optimize=True), spec, (n, c, s, t))
        print("ok")
    """)
    env = dict(os.environ, TENSOR_RULES_NATIVE="1", PYTHONPATH=os.pathsep.join(sys.path))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0 and r.stdout.strip() == "ok", (r.returncode, r.stderr[-2000:])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_scatter_adds_are_numpys(monkeypatch, dtype):
    """The native strided adds give the scatter NumPy's result bit for bit (one addition per element per tap, in
    the same tap order), on a permuted view and on a contiguous one."""
    rng = np.random.default_rng(4)
    g = rng.standard_normal((3, 4, 10, 3, 12, 2)).astype(dtype)
    for G in (g, np.ascontiguousarray(g.transpose(1, 0, 2, 3, 5, 4)).transpose(1, 0, 2, 3, 5, 4)):
        monkeypatch.setenv("TENSOR_RULES_NATIVE", "0")
        want = shifts.scatter(G, SPEC2D, (3, 4, 12, 13))
        monkeypatch.setenv("TENSOR_RULES_NATIVE", "1")
        got = shifts.scatter(G, SPEC2D, (3, 4, 12, 13))
        np.testing.assert_array_equal(got, want)
    # and the mathematics: each element lands at its shifted position
    ref = np.zeros((3, 4, 12, 13))
    for p in range(3):
        for q in range(2):
            ref[:, :, p:p + 10, q:q + 12] += g[:, :, :, p, :, q]
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5)


def test_add_into_leaves_small_or_foreign_arrays_to_numpy(monkeypatch):
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "auto")
    a = np.zeros((4, 5))
    contract.add_into(a[:, ::2], np.ones((4, 3)))
    np.testing.assert_array_equal(a[:, ::2], 1)
    b = np.zeros(6, dtype=np.int64)
    contract.add_into(b, np.arange(6))
    np.testing.assert_array_equal(b, np.arange(6))


@pytest.mark.parametrize("order", [">", "<"])
def test_byte_order_is_respected(monkeypatch, order):
    """A big-endian array (a FITS file, another machine's .npy) is not machine floats: the library must not read
    it (it would read the bytes swapped); the answer is einsum's either way."""
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "1")
    rng = np.random.default_rng(6)
    x = rng.standard_normal((2, 3, 9, 33))
    K = rng.standard_normal((4, 3, 3, 3))
    g = rng.standard_normal((2, 4, 7, 31))
    W = window(x.astype(order + "f8"), 3, 3).transpose(0, 1, 2, 3, 5, 4)
    for subs, a, b in (("ocpq,nchpwq->nohw", K.astype(order + "f8"), W), ("nohw,nchpwq->ocpq", g.astype(order + "f8"), W)):
        np.testing.assert_allclose(contract.einsum(subs, a, b, optimize=True), np.einsum(subs, a, np.array(b)),
                                   rtol=1e-12, atol=1e-12)
    G = rng.standard_normal((2, 3, 10, 3, 12, 2))
    np.testing.assert_allclose(shifts.scatter(G.astype(order + "f4"), SPEC2D, (2, 3, 12, 13)),
                               shifts.scatter(G, SPEC2D, (2, 3, 12, 13)), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("native_mode", ["0", "1"])
def test_scatter_with_negative_coefficients(monkeypatch, native_mode):
    """The transpose of a window read backwards (what the traced runtime differentiates a gather pullback into):
    the vectorised axis may have the negative coefficient, and its slice may run down to index 0."""
    monkeypatch.setenv("TENSOR_RULES_NATIVE", native_mode)
    rng = np.random.default_rng(7)
    for ext, const in (((5, 3), 2), ((2, 6), 5), ((3, 6), 5), ((4, 4), 3)):
        g = rng.standard_normal(ext)
        spec = ((((0, 1), (1, -1)), const),)
        n = ext[0] + const
        want = np.zeros(n)
        for i in range(ext[0]):
            for k in range(ext[1]):
                want[i - k + const] += g[i, k]
        np.testing.assert_allclose(shifts.scatter(g, spec, (n,)), want, rtol=1e-14, atol=1e-14)
        # and the window it transposes: <window(y), g> = <y, scatter(g)>
        y = rng.standard_normal(n)
        assert abs(np.sum(shifts.window(y, spec, ext) * g) - np.dot(y, want)) < 1e-12
