"""CUDA kernels for index comparisons (derive/ir/masks.py) beyond rules/masks.rules (whose kernels test_cuda.py
checks with every shipped op): a bracket inside a contraction, against a constant and an extent, inside a kernel
sum, and a causal softmax in float32 -- nvcc compiles them and the CPU emulation matches the NumPy code."""
from __future__ import annotations

import json

import cuda_emu
import numpy as np
import pytest
from test_cuda import NVCC, SMALL, _match_numpy, _nvcc_ptx

from derive import api
from derive.emission import cuda as codegen_cuda
from runtime import backend_numpy
from runtime import cuda as rc

RULES = """\
upper_matmul(A[i,j], B[j,k]) -> C[i,k] = where(i < k, 1, 0) * A[i,j] * B[j,k]
trmv(A[i,j], x[j]) -> y[i] = sum(j, where(j <= i, A[i,j], 0) * x[j])
edges(x[i]) -> y[i] = where(i >= 1, x[i], 0) + where(i < size(i) - 1, 2 * x[i], 0)
causal_ks(x[i,d], b[i]) -> y[i] = sum(j, where(j <= i, exp(-sum(d, (x[i,d] - x[j,d])**2)) * b[j], 0))
csm(s[i,j]) -> y[i,j]:
    m[i,j] = where(j <= i, s[i,j], -inf)
    y[i,j] = exp(m[i,j] - log(sum(k, exp(m[i,k]))))
"""
LABEL = "tests/codegen/masks_extra.rules"


@pytest.fixture(scope="module")
def built():
    results = api.derive_text(RULES, LABEL)
    assert all(r.ok for r in results), [(r.name, r.error or r.check.problems) for r in results if not r.ok]
    files = codegen_cuda.generate_cuda(results, LABEL)
    ns: dict = {}
    exec(compile(api.render_module(results, LABEL, export=False), "<masks>", "exec"), ns)
    return files, ns["_define"](backend_numpy), ns["OPS"]


def test_nvcc_compiles(built):
    if not NVCC:
        pytest.skip("nvcc is not installed")
    rc_, err, _ = _nvcc_ptx(built[0]["masks_extra.cu"])
    assert rc_ == 0, err


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["f64", "f32"])
@pytest.mark.parametrize("op", ["upper_matmul", "trmv", "edges", "causal_ks", "csm"])
def test_emulated_kernels_match_numpy(built, op, dtype):
    ok, why = cuda_emu.available()
    if not ok:
        pytest.skip(f"no CPU emulation: {why}")
    files, fns, OPS = built
    mod = rc.Module("masks_extra", files["masks_extra.cu"], json.loads(files["masks_extra.json"]))
    _match_numpy(mod, fns, OPS, op, dtype, cuda_emu.EmuDevice(sm_count=2), SMALL)


def test_a_masked_out_infinity_gives_zero_not_nan(built):
    """[j ≤ i]·u prints as a select: where the bracket is 0, u = ±inf or NaN must give 0 (as NumPy's np.where),
    not 0·inf = NaN. trmv with A = inf above the diagonal: every y_i is finite."""
    ok, why = cuda_emu.available()
    if not ok:
        pytest.skip(f"no CPU emulation: {why}")
    files, fns, OPS = built
    mod = rc.Module("masks_extra", files["masks_extra.cu"], json.loads(files["masks_extra.json"]))
    rng = np.random.default_rng(0)
    A = rng.standard_normal((5, 5))
    A[np.triu_indices(5, 1)] = np.inf
    x = rng.standard_normal(5)
    got = rc.call(mod, "trmv", "forward", [A, x], cuda_emu.EmuDevice(sm_count=2))
    want = np.tril(np.where(np.isinf(A), 0, A)) @ x
    assert np.all(np.isfinite(got)) and np.allclose(got, want, rtol=1e-12, atol=0)
