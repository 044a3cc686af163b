"""CUDA code generation (derive/emission/cuda.py, derive/emission/kernel_plan.py) and its runtime (runtime/cuda.py).

(a) every .cu in generated/cuda/ and the .cu of representative rules compile with nvcc, float32 and float64;
(b) every op's kernels agree with its NumPy code — on a GPU when there is one, and always on the CPU emulation
    of tests/codegen/cuda_emu.py, which runs the same kernels and launch plans on threads;
(c) generation is deterministic; (d) statements are classified as designed.
"""
from __future__ import annotations

import concurrent.futures as cf
import importlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import textwrap
from pathlib import Path

import cuda_emu  # tests/codegen/cuda_emu.py (pytest puts this directory on sys.path)
import numpy as np
import pytest

from derive import api
from derive.emission import cuda as codegen_cuda
from derive.emission.kernel_plan import CudaPrinter
from derive.verification import verify
from runtime import backend_numpy
from runtime import cuda as rc
from runtime.tangents import ZeroTangent, is_zero, unthunk

ROOT = Path(__file__).resolve().parents[2]
GENERATED = ROOT / "generated" / "cuda"
NVCC = shutil.which("nvcc") or next((p for p in ("/usr/local/bin/nvcc", "/usr/local/cuda/bin/nvcc")
                                     if os.path.exists(p)), None)
LABEL = "tests/codegen/representative.rules"

# Index structures the shipped rules (rules/*.rules) lack: a two-layer network, a column sum, a fused
# elementwise chain with a broadcast scalar, batched solve with a matrix right-hand side, batched det, a
# statement of three factors over two reduced indices, softmax written as a quotient, a contraction scaled
# by a scalar parameter (read by the tiled kernel from device memory).
REPRESENTATIVE = textwrap.dedent("""\
    mlp(W[o,i], x[b,i], c[o], V[p,o]) -> z[b,p] = V[p,o] * tanh(W[o,i] * x[b,i] + c[o])
    colsum(A[k,o]) -> c[o] = sum(k, A[k,o])
    chain(x[i], y[i], s) -> z[i]:
        t[i] = sigmoid(x[i]) * y[i] + s
        z[i] = exp(t[i]) * t[i]
    bsolve(A[b,i,j], y[b,j,k]) -> x[b,i,k] = solve(A[b,i,j], y[b,j,k])
    bdet(A[b,i,j]) -> d[b] = det(A[b,i,j])
    triple(A[i,j]) -> y[i] = sum(j, sum(k, A[i,j] * A[j,k] * A[k,i]))
    softmax_q(x[i]) -> y[i] = exp(x[i]) / sum(j, exp(x[j]))
    scaled(A[i,k], B[k,j], s) -> C[i,j] = s * A[i,k] * B[k,j]
""")

# small extents exercise fallbacks and edge cases; large ones (not multiples of any tile) the tiled paths
SMALL = {c: n for c, n in zip("ijkbodpc", (5, 6, 4, 3, 7, 3, 2, 5))}
LARGE = {c: n for c, n in zip("ijkbodpc", (131, 67, 70, 3, 75, 3, 66, 33))}
# on a GPU every op runs at large extents; the shifted reads of the convolutions need input axes longer than their
# kernels (x[i+k] reads inside x only), so conv.rules gets its own (none a multiple of a tile either)
CONV_LARGE = {"t": 301, "k": 7, "c": 5, "s": 37, "o": 6, "p": 3, "q": 3, "n": 2}
LARGE_OPS = {"matmul", "dense", "mlp", "softmax_q", "scaled", "colsum", "matvec", "quad", "bilinear", "bmm",
             "linear", "mse", "cross_entropy", "gaussian_kernel_sum", "batched_matmul", "outer", "sum"}


# ------------------------------------------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def representative():
    results = api.derive_text(REPRESENTATIVE, LABEL)
    bad = [r.name for r in results if not r.ok]
    assert not bad, f"representative rules failed verification: {bad}"
    return results


@pytest.fixture(scope="module")
def rep_files(representative):
    return codegen_cuda.generate_cuda(representative, LABEL)


def _shipped():
    return sorted(GENERATED.glob("*.cu")) if GENERATED.is_dir() else []


def _sources(rep_files):
    out = {p.name: p.read_text() for p in _shipped()}
    out["representative.cu"] = rep_files["representative.cu"]
    return out


_POOL = cf.ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2))


def _nvcc_ptx(source):
    with tempfile.TemporaryDirectory() as d:
        cu, ptx = Path(d) / "k.cu", Path(d) / "k.ptx"
        cu.write_text(source)
        res = subprocess.run([NVCC, "-ptx", "-arch=sm_90", "-o", str(ptx), str(cu)], capture_output=True, text=True)
        return res.returncode, res.stderr, ptx.read_text() if ptx.exists() else ""


@pytest.fixture(scope="module")
def compiled(rep_files):
    """nvcc and (for the emulation) g++ jobs for every source, started together so they overlap."""
    srcs = _sources(rep_files)
    jobs = {}
    if NVCC:
        jobs.update({("nvcc", k): _POOL.submit(_nvcc_ptx, v) for k, v in srcs.items()})
    if cuda_emu.available()[0]:
        jobs.update({("emu", k): _POOL.submit(cuda_emu.build, v) for k, v in srcs.items()})
    return srcs, jobs


# ------------------------------------------------------------------------------------------------- (a) nvcc
def _cu_ids():
    return [p.name for p in _shipped()] + ["representative.cu"]


@pytest.mark.slow
@pytest.mark.parametrize("name", _cu_ids())
def test_nvcc_compiles(name, compiled, rep_files):
    if not NVCC:
        pytest.skip("nvcc not found on PATH, /usr/local/bin or /usr/local/cuda/bin: the compile check needs it")
    srcs, jobs = compiled
    rc_, err, ptx = jobs[("nvcc", name)].result()
    assert rc_ == 0, f"nvcc failed on {name}:\n{err[-4000:]}"
    assert "error" not in err.lower(), err[-4000:]
    # every kernel a launch plan names exists, in float32 and float64
    manifest = json.loads(rep_files["representative.json"] if name == "representative.cu"
                          else (GENERATED / name).with_suffix(".json").read_text())
    entries = set(re.findall(r"\.entry (\w+)\(", ptx))
    for kernel in _plan_kernels(manifest):
        for sfx in ("_f32", "_f64"):
            assert kernel + sfx in entries, f"{name}: kernel {kernel}{sfx} is named by the plan but not compiled"


def _plan_kernels(manifest):
    out = set()

    def step_kernels(s):
        if "kernel" in s:
            out.add(s["kernel"])
        for v in s.get("variants", {}).values():
            out.add(v["kernel"])
        if "fallback" in s:
            step_kernels(s["fallback"])

    for op in manifest["ops"].values():
        for prog in op["programs"].values():
            for s in prog["steps"]:
                step_kernels(s)
    return out


# ------------------------------------------------------------------------------------------------- (b) kernels
def _cases():
    cases = []
    for p in _shipped():
        js = p.with_suffix(".json")
        if js.exists():
            for op in json.loads(js.read_text())["ops"]:
                cases.append((p.stem, op))
    ops = re.findall(r"^(\w+)\(", REPRESENTATIVE, re.M)
    cases += [("representative", op) for op in ops]
    return cases


@pytest.fixture(scope="module")
def references(representative):
    """name of a source -> (the NumPy functions of its ops, their OPS metadata)."""
    out = {}
    src = api.render_module(representative, LABEL, export=False)
    ns: dict = {}
    exec(compile(src, "<representative>", "exec"), ns)
    out["representative"] = (ns["_define"](backend_numpy), ns["OPS"])
    for p in _shipped():
        try:
            mod = importlib.import_module(f"generated.{p.stem}")
        except ImportError:
            continue
        out[p.stem] = (mod._define(backend_numpy), mod.OPS)
    return out


def _module(source_name, rep_files):
    if source_name == "representative":
        return rc.Module(source_name, rep_files["representative.cu"], json.loads(rep_files["representative.json"]))
    p = GENERATED / f"{source_name}.cu"
    return rc.Module(f"generated.{source_name}", p.read_text(), json.loads(p.with_suffix(".json").read_text()))


@pytest.fixture(params=["gpu", "emu"])
def device(request, compiled):
    if request.param == "gpu":
        ok, why = rc.available()
        if not ok:
            pytest.skip(f"no GPU run: {why}")
        return rc.device(), LARGE
    ok, why = cuda_emu.available()
    if not ok:
        pytest.skip(f"no CPU emulation: {why}")
    return cuda_emu.EmuDevice(sm_count=2), None


def _host(x):
    if x is None or is_zero(x):
        return x
    return np.asarray(x.get() if hasattr(x, "get") else x, dtype=np.float64)


def _close(got, want, dtype, what):
    want = unthunk(want)
    if is_zero(want) or want is None:
        assert got is None or is_zero(got), f"{what}: expected a zero tangent, got {got!r}"
        return
    got, want = _host(got), np.asarray(want, dtype=np.float64)
    assert got is not None and not is_zero(got), f"{what}: got a zero tangent, expected values"
    assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
    rtol = 2e-3 if dtype == np.float32 else 1e-9
    scale = max(1.0, float(np.max(np.abs(want))) if want.size else 1.0)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol * scale, err_msg=what)


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["f64", "f32"])
@pytest.mark.parametrize("source,op", _cases(), ids=[f"{s}:{o}" for s, o in _cases()])
def test_kernels_match_numpy(source, op, dtype, device, references, rep_files, compiled):
    dev, sizes = device
    if sizes is None and dtype == np.float32 and source != "representative":
        pytest.skip("emulation runs float32 on the representative rules only (the same template as float64)")
    if source not in references:
        pytest.skip(f"no NumPy module for {source}")
    fns, OPS = references[source]
    if sizes is None:                           # the emulation: large extents only where they are cheap
        sizes = LARGE if op in LARGE_OPS else SMALL
    elif source == "conv":
        sizes = CONV_LARGE
    _match_numpy(_module(source, rep_files), fns, OPS, op, dtype, dev, sizes)


def _match_numpy(mod, fns, OPS, op, dtype, dev, sizes):
    """forward, frule (primal and tangent) and rrule (primal and cotangents) of `op` on the device against the
    NumPy module's functions, at random inputs on the op's domains."""
    meta = OPS[op]
    letters = {l: sizes.get(l, 4) for inp in meta["inputs"] for l in inp.get("indices", [])}
    rng = np.random.default_rng(sum(map(ord, op)))
    args64 = verify.sample_inputs(meta, rng, letters)
    if meta.get("elementwise"):
        args64 = [a.reshape(2, -1) if isinstance(a, np.ndarray) and a.size % 2 == 0 else a for a in args64]
    args = [a.astype(dtype) if isinstance(a, np.ndarray) else a for a in args64]
    dargs = [dev.asarray(a, dtype) if isinstance(a, np.ndarray) else a for a in args]

    y = rc.call(mod, op, "forward", dargs, dev)
    _check_outputs(y, fns[op](*args64), dtype, f"{op} forward")

    tans64 = [ZeroTangent()] + [rng.standard_normal(np.shape(a)) if isinstance(a, np.ndarray) else
                                (float(rng.standard_normal()) if inp["kind"] == "scalar" else ZeroTangent())
                                for a, inp in zip(args64, meta["inputs"])]
    if len(tans64) > 2:
        tans64[1] = ZeroTangent()               # a zero tangent among live ones
    tans = [dev.asarray(t.astype(dtype), dtype) if isinstance(t, np.ndarray) else t for t in tans64]
    y2, dy = rc.call(mod, op, "frule", (tuple(tans),) + tuple(dargs), dev)
    y2n, dyn = fns[op + "_frule"](tuple(tans64), *args64)
    _check_outputs(y2, y2n, dtype, f"{op} frule primal")
    _check_outputs(dy, dyn, dtype, f"{op} frule tangent")

    y3, pullback = rc.call(mod, op, "rrule", dargs, dev)
    y3n, pullback_n = fns[op + "_rrule"](*args64)
    _check_outputs(y3, y3n, dtype, f"{op} rrule primal")
    multi = isinstance(y3n, tuple)
    ybar64 = tuple(rng.standard_normal(np.shape(v)) for v in y3n) if multi else rng.standard_normal(np.shape(y3n))
    ybar = tuple(dev.asarray(v.astype(dtype), dtype) for v in ybar64) if multi else dev.asarray(
        ybar64.astype(dtype), dtype)
    cots, cots_n = pullback(ybar), pullback_n(ybar64)
    assert len(cots) == len(cots_n)
    for k, (c, cn) in enumerate(zip(cots[1:], cots_n[1:])):
        _close(c, cn, dtype, f"{op} pullback, cotangent of argument {k}")


def _check_outputs(got, want, dtype, what):
    if isinstance(want, tuple):
        for k, (g, w) in enumerate(zip(got, want)):
            _close(g, w, dtype, f"{what} [{k}]")
    else:
        _close(got, want, dtype, what)


# log-sum-exp and softmax evaluated with the maximum subtracted first, as the NumPy code does: logits far
# beyond exp's range (float32 overflows above ~88, float64 above ~709; both underflow below about -100 / -745).
# The long extents run the split reductions (several warps and blocks per row, merged atomically).
STABLE_OPS = [("nn", "logsumexp"), ("nn", "softmax"), ("nn", "log_softmax"), ("nn", "cross_entropy"),
              ("representative", "softmax_q")]
STABLE_REGIMES = [(np.float64, 1000.0), (np.float32, 1000.0), (np.float32, 100.0), (np.float64, -1000.0),
                  (np.float32, -150.0)]


@pytest.mark.parametrize("n", [7, 3000], ids=["short", "long"])
@pytest.mark.parametrize("dtype,shift", STABLE_REGIMES,
                         ids=[f"{np.dtype(d).name}@{s:g}" for d, s in STABLE_REGIMES])
@pytest.mark.parametrize("source,op", STABLE_OPS, ids=[f"{s}:{o}" for s, o in STABLE_OPS])
def test_logsumexp_kernels_are_stable(source, op, dtype, shift, n, device, references, rep_files, compiled):
    dev, _ = device
    fns, OPS = references[source]
    mod = _module(source, rep_files)
    rng = np.random.default_rng(n + abs(int(shift)))
    shapes = [(3, n), (3, n)] if op == "cross_entropy" else [(n,)]
    # rounded to dtype first, so the float64 NumPy reference sees the very inputs the kernels get
    args64 = [(shift + rng.standard_normal(shapes[0])).astype(dtype).astype(np.float64)]
    if op == "cross_entropy":
        args64.append(rng.random(shapes[1]).astype(dtype).astype(np.float64))
    args = [dev.asarray(a, dtype) for a in args64]

    want = fns[op](*args64)
    assert np.all(np.isfinite(want)), "the NumPy reference overflowed"
    _check_outputs(rc.call(mod, op, "forward", args, dev), want, dtype, f"{op} forward")

    tans64 = [ZeroTangent()] + [rng.standard_normal(a.shape).astype(dtype).astype(np.float64) for a in args64]
    tans = [ZeroTangent()] + [dev.asarray(t, dtype) for t in tans64[1:]]
    y2, dy = rc.call(mod, op, "frule", (tuple(tans),) + tuple(args), dev)
    y2n, dyn = fns[op + "_frule"](tuple(tans64), *args64)
    _check_outputs(y2, y2n, dtype, f"{op} frule primal")
    _check_outputs(dy, dyn, dtype, f"{op} frule tangent")

    y3, pullback = rc.call(mod, op, "rrule", args, dev)
    y3n, pullback_n = fns[op + "_rrule"](*args64)
    _check_outputs(y3, y3n, dtype, f"{op} rrule primal")
    ybar64 = rng.standard_normal(np.shape(y3n)).astype(dtype).astype(np.float64)
    cots, cots_n = pullback(dev.asarray(ybar64, dtype)), pullback_n(ybar64)
    for k, (c, cn) in enumerate(zip(cots[1:], cots_n[1:])):
        assert np.all(np.isfinite(_host(c))), f"{op} pullback, cotangent of argument {k}: not finite"
        _close(c, cn, dtype, f"{op} pullback, cotangent of argument {k}")


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["f64", "f32"])
def test_logsumexp_kernels_infinite_maximum(dtype, device, references, rep_files, compiled):
    """An infinite maximum shifts by 0, as in the NumPy code: all -inf gives -inf (not NaN), and a -inf logit
    among finite ones has probability 0."""
    dev, _ = device
    fns, _ = references["nn"]
    mod = _module("nn", rep_files)
    for n in (5, 3000):
        x = np.full(n, -np.inf)
        y = _host(rc.call(mod, "logsumexp", "forward", [dev.asarray(x, dtype)], dev))
        assert y == -np.inf, y
        x = 1000.0 + np.arange(n) % 7
        x[1] = -np.inf
        for op in ("logsumexp", "softmax", "log_softmax"):
            got = _host(rc.call(mod, op, "forward", [dev.asarray(x, dtype)], dev))
            want = fns[op](x)
            np.testing.assert_array_equal(np.isfinite(got), np.isfinite(want), err_msg=op)
            ok = np.isfinite(want)
            np.testing.assert_allclose(got[ok], want[ok], rtol=2e-3 if dtype == np.float32 else 1e-9, err_msg=op)


# log-sum-exps the shipped rules lack: down the columns (the `rows` variant), and summed inside the statement
# (its pullback's coefficient is exp(z)/Σ exp(z), not rewritten through an output)
LSE_RULES = textwrap.dedent("""\
    collse(A[k,o]) -> c[o] = log(sum(k, exp(A[k,o])))
    tot(z[b,k]) -> L[] = sum(b, log(sum(k, exp(z[b,k]))))
""")


@pytest.fixture(scope="module")
def lse_rules():
    label = "tests/codegen/lse.rules"
    results = api.derive_text(LSE_RULES, label)
    files = codegen_cuda.generate_cuda(results, label)
    ns: dict = {}
    exec(compile(api.render_module(results, label, export=False), label, "exec"), ns)
    return rc.Module("lse", files["lse.cu"], json.loads(files["lse.json"])), ns["_define"](backend_numpy)


def test_max_reduction_merges_split_partials(device, lse_rules):
    """One thread per column, the long reduction split across blocks, whose partial maxima meet in the atomic
    maximum; each column's maximum in another chunk, and a column of -inf."""
    dev, _ = device
    mod, fns = lse_rules
    rng = np.random.default_rng(7)
    nk, no = 1100, 300
    for dtype, shift in ((np.float64, 1000.0), (np.float64, -1000.0), (np.float32, 100.0), (np.float32, -150.0)):
        A = shift + rng.standard_normal((nk, no))
        A[(np.arange(no) * 7) % nk, np.arange(no)] += 30.0
        A[:, 0] = -np.inf
        A = A.astype(dtype).astype(np.float64)
        if isinstance(dev, cuda_emu.EmuDevice):
            dev.launches.clear()
        got = _host(rc.call(mod, "collse", "forward", [dev.asarray(A, dtype)], dev))
        with np.errstate(divide="ignore"):
            want = fns["collse"](A)
        assert got[0] == -np.inf and want[0] == -np.inf
        np.testing.assert_allclose(got[1:], want[1:], rtol=2e-6 if dtype == np.float32 else 1e-12)
        if isinstance(dev, cuda_emu.EmuDevice):
            name, grid = dev.launches[0][:2]
            assert name.endswith("_rows" + ("_f32" if dtype == np.float32 else "_f64")) and grid[1] > 1, (name, grid)


@pytest.mark.parametrize("dtype,shift", STABLE_REGIMES, ids=[f"{np.dtype(d).name}@{s:g}" for d, s in STABLE_REGIMES])
def test_softmax_in_a_pullback_is_stable(dtype, shift, device, lse_rules):
    dev, _ = device
    mod, fns = lse_rules
    rng = np.random.default_rng(abs(int(shift)))
    z = (shift + rng.standard_normal((4, 700))).astype(dtype).astype(np.float64)
    y, pullback = rc.call(mod, "tot", "rrule", [dev.asarray(z, dtype)], dev)
    yn, pullback_n = fns["tot_rrule"](z)
    _close(y, yn, dtype, "tot rrule primal")
    (_, bz), (_, bzn) = pullback(dev.asarray(1.5, dtype)), pullback_n(1.5)
    assert np.all(np.isfinite(bzn)) and np.all(np.isfinite(_host(bz))), "tot pullback: not finite"
    _close(bz, bzn, dtype, "tot pullback")


# accuracy at the scales of tests/codegen/test_accuracy.py, for the kernels with the same structure: the
# logistic functions in both tails, log-softmax far from 0 ((x - M) - log Σ, not x - (log Σ + M)), and det's
# derivative at singular matrices (through the adjugate, which a batched kernel computes by LU)
# Matrix primitives whose differentials are linear maps given as code (OpaqueLin): their forward values and
# their declared jvp/vjp run through the generic matrix-primitive kernel (the declaration's Cuda device
# functions), unbatched and batched over a leading axis, and inside a contraction (sqrtq).
SPECTRAL_RULES = textwrap.dedent("""\
    chol(A[i,j]: spd) -> L[i,j] = cholesky(A[i,j])
    bchol(A[b,i,j]: spd) -> L[b,i,j] = cholesky(A[b,i,j])
    eigv(A[i,j]: symmetric) -> w[i] = eigvalsh(A[i,j])
    beigv(A[b,i,j]: symmetric) -> w[b,i] = eigvalsh(A[b,i,j])
    beigV(A[b,i,j]: symmetric) -> V[b,i,j] = eigvecsh(A[b,i,j])
    expm_(A[i,j]) -> E[i,j] = expm(A[i,j])
    bexpm(A[b,i,j]) -> E[b,i,j] = expm(A[b,i,j])
    blogm(S[b,i,j]: spd) -> L[b,i,j] = logm(S[b,i,j])
    sqrtq(S[i,j]: spd, x[i]) -> y[] = sqrtm(S)[i,j] * x[i] * x[j]
""")
SPECTRAL_OPS = re.findall(r"^(\w+)\(", SPECTRAL_RULES, re.M)


@pytest.fixture(scope="module")
def spectral():
    """(kernel files, NumPy functions, OPS) of SPECTRAL_RULES, the emulation build started at once."""
    label = "tests/codegen/spectral.rules"
    results = api.derive_text(SPECTRAL_RULES, label)
    # the NumPy module is the reference: its derivatives must pass the verifier's finite-difference and adjoint
    # checks (r.check; derive/verification/reference.py has no mpmath values for these primitives, so r.ok is not asked)
    bad = [(r.name, r.error) for r in results if r.check is None or not r.check.ok]
    assert not bad, f"spectral rules failed verification: {bad}"
    files = codegen_cuda.generate_cuda(results, label)
    assert not json.loads(files["spectral.json"])["unsupported"]
    ns: dict = {}
    exec(compile(api.render_module(results, label, export=False), "<spectral>", "exec"), ns)
    if cuda_emu.available()[0]:
        _POOL.submit(cuda_emu.build, files["spectral.cu"])
    return files, ns["_define"](backend_numpy), ns["OPS"]


@pytest.mark.slow
def test_spectral_kernels_compile(spectral):
    if not NVCC:
        pytest.skip("nvcc not found on PATH, /usr/local/bin or /usr/local/cuda/bin: the compile check needs it")
    files, _, _ = spectral
    rc_, err, ptx = _nvcc_ptx(files["spectral.cu"])
    assert rc_ == 0, f"nvcc failed on spectral.cu:\n{err[-4000:]}"
    entries = set(re.findall(r"\.entry (\w+)\(", ptx))
    manifest = json.loads(files["spectral.json"])
    fns = {s.get("fn") for op in manifest["ops"].values() for p in op["programs"].values() for s in p["steps"]}
    for prim in ("cholesky", "eigvalsh", "eigvecsh", "expm", "logm", "sqrtm"):
        for d in ("", "_jvp", "_vjp"):
            assert f"tr_{prim}{d}" in fns, f"no step calls tr_{prim}{d}"
    for kernel in _plan_kernels(manifest):
        for sfx in ("_f32", "_f64"):
            assert kernel + sfx in entries, f"kernel {kernel}{sfx} is named by the plan but not compiled"


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["f64", "f32"])
@pytest.mark.parametrize("op", SPECTRAL_OPS)
def test_spectral_kernels_match_numpy(op, dtype, device, spectral):
    dev, sizes = device
    if sizes is None and dtype == np.float32 and op.startswith("b"):
        pytest.skip("emulation runs float32 on the unbatched rules only (the same kernels as the batched ones)")
    files, fns, OPS = spectral
    mod = rc.Module("spectral", files["spectral.cu"], json.loads(files["spectral.json"]))
    _match_numpy(mod, fns, OPS, op, dtype, dev, sizes or {"i": 5, "j": 5, "b": 3})


ACC_RULES = textwrap.dedent("""\
    logsig(x[i]) -> y[i] = log(sigmoid(x[i]))
    bdet(A[b,i,j]) -> d[b] = det(A[b,i,j])
""")
ACC_TOL = {np.float64: 1e-6, np.float32: 1e-3}


@pytest.fixture(scope="module")
def acc_rules():
    label = "tests/codegen/accuracy.rules"
    results = api.derive_text(ACC_RULES, label)
    files = codegen_cuda.generate_cuda(results, label)
    return rc.Module("accuracy", files["accuracy.cu"], json.loads(files["accuracy.json"]))


def _rel_close(got, want, dtype, what):
    got, want = _host(got), np.asarray(want, np.float64)
    assert np.all(np.isfinite(got)), f"{what}: not finite: {got}"
    np.testing.assert_allclose(got, want, rtol=ACC_TOL[dtype], atol=0, err_msg=what)


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["f64", "f32"])
def test_logistic_kernels_are_accurate_in_both_tails(dtype, device, acc_rules):
    import mpmath

    mpmath.mp.dps = 50
    dev, _ = device
    mod = _module("elementwise", None)
    x = np.array([-87.0, -20.0, -1.0, 0.0, 2.0, 20.0, 87.0] if dtype == np.float32 else
                 [-700.0, -40.0, -1.0, 0.0, 2.0, 40.0, 700.0], dtype)
    sig = np.array([float(1 / (1 + mpmath.exp(-mpmath.mpf(float(v))))) for v in x])
    sig_neg = np.array([float(1 / (1 + mpmath.exp(mpmath.mpf(float(v))))) for v in x])
    log_sig = np.array([float(-mpmath.log1p(mpmath.exp(-mpmath.mpf(float(v))))) for v in x])
    dx = dev.asarray(x, dtype)
    # through tanh, sigmoid(-20) was 0 in float32 and sigmoid(-40) in float64
    _rel_close(rc.call(mod, "sigmoid", "forward", [dx], dev), sig, dtype, "sigmoid")
    _, pullback = rc.call(mod, "sigmoid", "rrule", [dx], dev)
    _rel_close(pullback(dev.asarray(np.ones_like(x), dtype))[1], sig * sig_neg, dtype, "sigmoid'")
    _, pullback = rc.call(mod, "softplus", "rrule", [dx], dev)
    _rel_close(pullback(dev.asarray(np.ones_like(x), dtype))[1], sig, dtype, "softplus'")
    _rel_close(rc.call(acc_rules, "logsig", "forward", [dx], dev), log_sig, dtype, "log sigmoid")
    _, pullback = rc.call(acc_rules, "logsig", "rrule", [dx], dev)
    _rel_close(pullback(dev.asarray(np.ones_like(x), dtype))[1], sig_neg, dtype, "log sigmoid'")


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["f64", "f32"])
def test_gelu_kernels_are_accurate_in_the_left_tail(dtype, device):
    """gelu = x·erfc(-x/√2)/2 and its derivative against mpmath: through 1 + erf(x/√2) the value was 0 (true
    -7.6e-23 at x = -10) and the derivative 1 % off."""
    import mpmath

    mpmath.mp.dps = 50
    dev, _ = device
    mod = _module("elementwise", None)
    x = np.array([-12.0, -10.0, -5.0, -1.0, 0.0, 0.5, 3.0, 10.0] if dtype == np.float32 else
                 [-35.0, -20.0, -10.0, -3.0, -0.5, 0.0, 1.0, 10.0, 40.0], dtype)
    v = [mpmath.mpf(float(t)) for t in x]
    want = np.array([float(t * mpmath.erfc(-t / mpmath.sqrt(2)) / 2) for t in v])
    slope = np.array([float(mpmath.erfc(-t / mpmath.sqrt(2)) / 2 + t * mpmath.exp(-t * t / 2) /
                            mpmath.sqrt(2 * mpmath.pi)) for t in v])
    dx = dev.asarray(x, dtype)
    _rel_close(rc.call(mod, "gelu", "forward", [dx], dev), want, dtype, "gelu")
    _, pullback = rc.call(mod, "gelu", "rrule", [dx], dev)
    _rel_close(pullback(dev.asarray(np.ones_like(x), dtype))[1], slope, dtype, "gelu'")
    _, dy = rc.call(mod, "gelu", "frule", [(ZeroTangent(), dev.asarray(np.ones_like(x), dtype)), dx], dev)
    _rel_close(dy, slope, dtype, "gelu' (pushforward)")


@pytest.mark.parametrize("dtype,x", [(np.float32, [1e4, 1e4 - 1, 0.0]), (np.float64, [1e15, 1e15 - 1, 0.0])],
                         ids=["f32@1e4", "f64@1e15"])
def test_log_softmax_kernels_far_from_zero(dtype, x, device):
    dev, _ = device
    mod = _module("nn", None)
    x = np.array(x, dtype)
    want = np.array([-np.log1p(np.exp(-1.0)), -1 - np.log1p(np.exp(-1.0)), -float(x[0]) - np.log1p(np.exp(-1.0))])
    got = _host(rc.call(mod, "log_softmax", "forward", [dev.asarray(x, dtype)], dev))
    _rel_close(got, want, dtype, "log_softmax")            # float64 at 1e15 gave -0.375 for -0.3133
    # and float32 at 1e4 a few ulps off, not 7e-4 (-0.31348 for -0.31326)
    np.testing.assert_allclose(got[:2], want[:2], rtol=8 * np.finfo(dtype).eps)
    soft = rc.call(mod, "softmax", "forward", [dev.asarray(x, dtype)], dev)
    _rel_close(_host(soft)[:2], np.exp(want[:2]), dtype, "softmax")


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["f64", "f32"])
def test_det_pullback_kernels_at_singular_matrices(dtype, device, acc_rules):
    dev, _ = device
    # batch members: rank 1, rank 2, zero, regular; adj(A)ᵀ by cofactors, written out for 3 x 3
    A = np.stack([np.outer([1.0, 2.0, 3.0], [1.0, -1.0, 2.0]), [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]],
                  np.zeros((3, 3)), [[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]]])

    def adj(M):
        c = lambda r, k: np.delete(np.delete(M, r, 0), k, 1)
        return np.array([[(-1) ** (i + j) * np.linalg.det(c(j, i)) for j in range(3)] for i in range(3)])

    want = np.stack([adj(A[b]).T for b in range(A.shape[0])]) * 1.5
    _, pullback = rc.call(acc_rules, "bdet", "rrule", [dev.asarray(A, dtype)], dev)
    got = _host(pullback(dev.asarray(np.full(A.shape[0], 1.5), dtype))[1])
    np.testing.assert_allclose(got, want, rtol=ACC_TOL[dtype], atol=ACC_TOL[dtype] * np.max(np.abs(want)))
    mod = _module("linalg", None)
    _, pullback = rc.call(mod, "det", "rrule", [dev.asarray(np.array([[1.0, 2.0], [2.0, 4.0]]), dtype)], dev)
    np.testing.assert_allclose(_host(pullback(dev.asarray(1.0, dtype))[1]), [[4.0, -2.0], [-2.0, 1.0]],
                               atol=ACC_TOL[dtype])


# ------------------------------------------------------------------------------------------------- (c) determinism
def test_generation_is_deterministic(representative, rep_files):
    again = codegen_cuda.generate_cuda(api.derive_text(REPRESENTATIVE, LABEL, verify_rules=False), LABEL)
    assert again == rep_files
    cu = rep_files["representative.cu"]
    assert cu.startswith(f"// @generated from {LABEL} by `derive-rules`")
    manifest = json.loads(rep_files["representative.json"])
    assert manifest["generated_from"] == LABEL and manifest["command"] == "derive-rules"
    assert set(rep_files) == {"representative.cu", "representative.json"}


def test_kernel_names_are_unique_c_identifiers(rep_files):
    cu = rep_files["representative.cu"]
    names = re.findall(r'extern "C" __global__ void __launch_bounds__\(TR_BLOCK\) (\w+)\(', cu)
    assert len(names) == len(set(names))
    assert all(re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", n) and "__" not in n for n in names)
    assert {n[:-4] for n in names} >= _plan_kernels(json.loads(rep_files["representative.json"]))


# ------------------------------------------------------------------------------------------------- (d) classes
@pytest.fixture(scope="module")
def plans(rep_files):
    """op -> launch plan, for the representative rules and every rule in rules/*.rules (generated here)."""
    out = dict(json.loads(rep_files["representative.json"])["ops"])
    for p in sorted((ROOT / "rules").glob("*.rules")):
        label = f"rules/{p.name}"
        files = codegen_cuda.generate_cuda(api.derive_text(p.read_text(), label, verify_rules=False), label)
        out.update(json.loads(files[f"{p.stem}.json"])["ops"])
    return out


def _steps(plans, op, prog):
    return plans[op]["programs"][prog]["steps"]


def _classes(plans, op, prog):
    return [s["class"] for s in _steps(plans, op, prog)]


def test_contractions_are_tiled(plans):
    assert _classes(plans, "matmul", "forward") == ["gemm"]
    assert _classes(plans, "matmul", "pullback") == ["gemm", "gemm"]
    # a batch axis on one operand only is a row axis of the flat view; the shared operand's pullback reduces it
    (fwd,) = _steps(plans, "batched_matmul", "forward")
    assert sorted(d[0] for d in fwd["groups"]["m"] + fwd["groups"]["n"]) == ["b", "i", "j"]
    assert fwd["groups"]["z"] == []
    pb = _steps(plans, "batched_matmul", "pullback")
    assert any(s["class"] == "gemm" and sorted(d[0] for d in s["groups"]["k"]) == ["b", "i"] for s in pb)
    # both operands batched: a batch group
    assert [d[0] for d in _steps(plans, "bmm", "forward")[0]["groups"]["z"]] == ["b"]


def test_nonlinear_layer_is_contraction_then_elementwise(plans):
    assert _classes(plans, "dense", "forward") == ["gemm", "map"]
    # the bias cotangent is a column sum; the others are contractions of (1 - y²)·ȳ
    assert _classes(plans, "dense", "pullback") == ["map", "gemm", "gemm", "reduce"]
    # the hidden layer is computed once per program and never recomputed inside a reduction
    for prog in ("forward", "pullback"):
        assert "gemm" in _classes(plans, "mlp", prog)
        for s in _steps(plans, "mlp", prog):
            if s["class"] == "reduce":
                assert len(s["red"]) == 1, s


def test_kernel_sum_is_map_reduce_without_the_matrix(plans):
    (fwd,) = _steps(plans, "gaussian_kernel_sum", "forward")
    assert fwd["class"] == "reduce" and fwd["prefer"] == "rows"
    assert fwd["rows"] == ["i"] and fwd["red"] == ["j"]
    assert sorted(map(tuple, fwd["stage"])) == [(), ("d",)]           # b[j] and y[j, :] staged per tile
    for prog in plans["gaussian_kernel_sum"]["programs"].values():
        for buf, classes in prog["buffers"].items():
            assert not {"i", "j"} <= set(classes), f"{buf} materializes the N×M kernel matrix"


def test_elementwise_chain_is_one_kernel_per_direction(plans):
    for prog in ("forward", "frule", "rrule"):
        assert _classes(plans, "chain", prog) == ["map"], prog
        assert _classes(plans, "gelu", prog) == ["map"], prog
    assert _classes(plans, "gelu", "pullback") == ["map"]
    (st,) = _steps(plans, "chain", "forward")
    assert [o["buf"] for o in st["outputs"]] == ["z"]                 # t stays in registers
    (st,) = _steps(plans, "chain", "rrule")
    assert [o["buf"] for o in st["outputs"]] == ["t", "z"]            # ... unless the pullback reads it
    # one pass for every elementwise cotangent; the broadcast scalar s adds its sum over i
    pb = _steps(plans, "chain", "pullback")
    assert [s["class"] for s in pb] == ["map", "reduce"]
    assert [o["buf"] for o in pb[0]["outputs"]] == ["b:t", "b:x", "b:y"] and pb[1]["rows"] == []


def test_reductions_hoist_invariants(plans):
    # softmax: the maximum, then Σ exp(x - max), are reduced once each to a scalar, then one elementwise pass
    assert _classes(plans, "softmax_q", "forward") == ["reduce", "reduce", "map"]
    mx, sm = _steps(plans, "softmax_q", "forward")[:2]
    assert mx["rows"] == sm["rows"] == [] and mx.get("op") == "max" and "op" not in sm
    assert _classes(plans, "softmax_q", "pullback") == ["reduce", "map"]


def test_matrix_primitives_are_batched_kernels(plans):
    # one generic kernel: the plan names the declaration's device function and its workspace numbers
    from primitives.matrix import PRIMITIVES

    (s,) = _steps(plans, "batched_inv", "forward")
    assert (s["class"], s["fn"], s["batch"]) == ("prim", "tr_inv", ["b"])
    assert s["ws"] == list(PRIMITIVES["inv"].cuda.ws)
    (s,) = _steps(plans, "bsolve", "forward")
    assert (s["fn"], s["rhs"], s["batch"], s["ws"]) == ("tr_solve", "k", ["b"], list(PRIMITIVES["solve"].cuda.ws))
    assert s["operands"] == [["i", "i"], ["i", "k"], ["i", "k"]]     # A (square: one extent class), y, x
    assert _steps(plans, "bdet", "forward")[0]["fn"] == "tr_det"
    assert _steps(plans, "logdet", "forward")[0]["fn"] == "tr_logdet"


def test_unclassifiable_statement_falls_back_to_a_plain_reduction(plans):
    steps = _steps(plans, "triple", "forward")
    assert steps and all(s["class"] in ("reduce", "gemm", "map") for s in steps)


def test_warp_variant_preferred_when_reduced_axis_is_contiguous(plans):
    (s,) = _steps(plans, "matvec", "forward")
    assert s["class"] == "reduce" and s["prefer"] == "warp"
    (s,) = _steps(plans, "colsum", "forward")
    assert s["prefer"] == "rows"


class _Ctx:
    def index(self, s):
        return s.name

    def extent(self, c):
        return f"n_{c}"

    def access(self, e):
        return f"{e.func.__name__}[...]"


def test_printer_keeps_float32_float32():
    import sympy as sp

    from derive.ir import nodes as ir
    x, y = sp.symbols("x y", real=True)
    p = CudaPrinter(_Ctx())
    assert p.doprint(x ** 2) == "tr_sq(x)"
    assert p.doprint(1 / sp.sqrt(x)) == "rsqrt(x)"
    assert p.doprint(sp.Rational(1, 3) * x) == "T(0.3333333333333333)*x"
    assert p.doprint(ir.where(x > 0, x, y / 10)) == "((x > T(0)) ? (x) : (T(0.1)*y))"
    assert p.doprint(-x / 3) == "-T(0.3333333333333333)*x"
    assert p.doprint(ir.sigmoid(x)) == "tr_sigmoid(x)"
    assert p.doprint(sp.Abs(x) + sp.pi) == "fabs(x) + T(3.141592653589793)"


def test_no_double_literals_in_kernels(rep_files):
    body = rep_files["representative.cu"].split("// ---- the generic tiled contraction")[1]
    # every floating literal is wrapped as T(...), so float32 kernels never compute in double
    bare = re.findall(r"(?<![\w(])\d+\.\d+(?![\w)])", body)
    assert not bare, bare[:5]


# ------------------------------------------------------------------------------------------------- runtime
def test_unavailable_backend_says_why():
    ok, why = rc.available()
    if ok:
        pytest.skip("a GPU is available here")
    assert why
    with pytest.raises(RuntimeError, match="unavailable"):
        rc.dispatch("generated.linalg", "matmul", "forward", (object(), object()))
    with pytest.raises(RuntimeError, match="unavailable"):
        rc.dispatch("generated.linalg", "matmul_rrule", (object(), object()))


def test_cubin_cache_key():
    k = rc.cache_key("src", "sm_90")
    assert k == rc.cache_key("src", "sm_90") and len(k) == 64
    assert k != rc.cache_key("src", "sm_80") and k != rc.cache_key("src2", "sm_90")
    assert k != rc.cache_key("src", "sm_90", ("-O2",))
