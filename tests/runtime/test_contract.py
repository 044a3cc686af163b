"""runtime.contract: pairwise einsum as one GEMM in the operands' memory order, against np.einsum in float64."""
import numpy as np
import pytest

from runtime import backend_numpy, contract, shifts

CASES = ["abcd,ebfcdg->eafg", "abcd,aecfdg->befg", "abcd,eafg->ebfcgd", "ij,jk->ik", "ij,jk->ki", "bij,bjk->bik",
         "bij,bjk->kbi", "ijk,jl->lki", "ij,ij->i", "ij,ij->", "ijz,jk->ik", "i,i->", "ij,kj->ki", "abc,ac->ab"]


@pytest.mark.parametrize("subs", CASES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64])
def test_matches_einsum_and_keeps_dtype(subs, dtype):
    rng = np.random.default_rng(len(subs))
    (la, lb), out = subs.split("->")[0].split(","), subs.split("->")[1]
    ext = {l: int(rng.integers(1, 5)) for l in set(la + lb)}
    a = rng.standard_normal([ext[l] for l in la]).astype(dtype)
    b = rng.standard_normal([ext[l] for l in lb]).astype(dtype)
    for A in (a, np.asfortranarray(a), a[..., ::-1] if a.ndim else a):
        want = np.einsum(subs, A.astype(np.complex128), b.astype(np.complex128))
        got = contract.einsum(subs, A, b, optimize=True)
        assert got.dtype == dtype and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_convolution_window_goes_to_one_gemm(monkeypatch):
    """The im2col contraction of a shifted read is planned here, not handed to np.einsum (whose tensordot copies
    the window along its three-element kernel axis), and the generated code's namespace uses it."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, 7, 6)).astype(np.float32)
    K = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
    spec = ((((0, 1),), 0), (((1, 1),), 0), (((2, 1), (3, 1)), 0), (((4, 1), (5, 1)), 0))
    win = shifts.window(x, spec, (2, 3, 5, 3, 3, 4))
    want = np.zeros((2, 4, 5, 4))
    for p in range(3):
        for q in range(3):
            want += np.einsum("oc,nchw->nohw", K[:, :, p, q].astype(float), x[:, :, p:p + 5, q:q + 4].astype(float))
    monkeypatch.setattr(contract._np, "einsum", None)
    got = backend_numpy.einsum("abcd,ebfcdg->eafg", K, win, optimize=True)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_unplanned_forms_fall_back_to_numpy():
    a = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(contract.einsum("ii->i", np.eye(3)), np.ones(3))
    np.testing.assert_array_equal(contract.einsum("ij->ji", a), a.T)
    np.testing.assert_array_equal(contract.einsum("ij,j->i", np.ones((2, 3), int), np.ones(3, int)), [3, 3])
    with pytest.raises(ValueError):
        contract.einsum("ij,jk->ik", a, a, optimize=True)


def test_extent_one_axes():
    """Every axis of extent 1 (the random-program fuzzer's batched_solve on 1×1×1): no axis counted twice."""
    A, x = np.full((1, 1, 1), 2.0), np.full((1, 1), 3.0)
    np.testing.assert_array_equal(contract.einsum("abc,ac->ab", A, x, optimize=True), [[6.0]])
    np.testing.assert_array_equal(contract.einsum("abc,ac->ab", np.ones((1, 4, 1)), x, optimize=True), [[3.0] * 4])
