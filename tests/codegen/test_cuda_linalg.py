"""The block-cooperative device functions of the matrix primitives (templates/cuda_linalg.cuh.j2).

Thin test kernels (one block per matrix, a batch of three) are (a) compiled by nvcc and (b) run in the CPU
emulation of tests/codegen/cuda_emu.py, in float64 and float32, for several block sizes and n; values are
compared with NumPy/SciPy, derivatives with finite differences of NumPy references and the adjoint identity.
Every output starts as NaN (an element never written shows), every workspace is its documented size plus a
guard that must stay untouched, and the inputs must come back unchanged.
"""
from __future__ import annotations

import concurrent.futures as cf
import ctypes
import hashlib
import os
import shutil
import subprocess
import tempfile
import zlib
from pathlib import Path

import cuda_emu  # tests/codegen/cuda_emu.py (pytest puts this directory on sys.path)
import jinja2
import numpy as np
import pytest

scipy_linalg = pytest.importorskip("scipy.linalg", reason="scipy (the [test] extra) gives the expm references")

ROOT = Path(__file__).resolve().parents[2]
NVCC = shutil.which("nvcc") or next((p for p in ("/usr/local/bin/nvcc", "/usr/local/cuda/bin/nvcc")
                                     if os.path.exists(p)), None)

# the workspace each function documents, in elements of T
WS = {
    "cholesky": lambda n: 0,
    "cholesky_jvp": lambda n: n * n,
    "cholesky_vjp": lambda n: n * n,
    "eigh": lambda n: 2 * n * n + 2 * n + 3,
    "eigh_jvp": lambda n: 2 * n * n,
    "eigh_vjp": lambda n: 2 * n * n,
    "expm": lambda n: 7 * n * n + n,
    "expm_frechet": lambda n: 36 * n * n + 2 * n,
    "eig_fn": lambda n: 0,
    "daleckii_krein": lambda n: 2 * n * n,
}
GUARD = 16
SENTINEL = 12345.0

# name -> (kernel parameters, call); pointers named in `vec` are n per matrix, `opt` ones may be null
KERNELS = {
    "cholesky": ("const T* A, T* L", "tr_cholesky<T>(M(A), M(L), W, n)"),
    "cholesky_jvp": ("const T* L, const T* dA, T* dL", "tr_cholesky_jvp<T>(M(L), M(dA), M(dL), W, n)"),
    "cholesky_vjp": ("const T* L, const T* Lb, T* Ab", "tr_cholesky_vjp<T>(M(L), M(Lb), M(Ab), W, n)"),
    "eigh": ("const T* A, T* w, T* V", "tr_eigh<T>(M(A), N(w), M(V), W, n)"),
    "eigh_jvp": ("const T* w, const T* V, const T* dA, T* dw, T* dV",
                 "tr_eigh_jvp<T>(N(w), M(V), M(dA), N(dw), M(dV), W, n)"),
    "eigh_vjp": ("const T* w, const T* V, const T* wb, const T* Vb, T* Ab",
                 "tr_eigh_vjp<T>(N(w), M(V), N(wb), M(Vb), M(Ab), W, n)"),
    "expm": ("const T* A, T* E", "tr_expm<T>(M(A), M(E), W, n)"),
    "expm_frechet": ("const T* A, const T* dA, T* dE, int tr",
                     "tr_expm_frechet<T>(M(A), M(dA), M(dE), tr, W, n)"),
    "eig_fn": ("const T* V, const T* fw, T* F", "tr_eig_fn<T>(M(V), N(fw), M(F), W, n)"),
    "daleckii_krein": ("const T* w, const T* V, const T* fw, const T* dfw, const T* dS, T* dF",
                       "tr_daleckii_krein<T>(N(w), M(V), N(fw), N(dfw), M(dS), M(dF), W, n)"),
}

KERNEL = """extern "C" __global__ void __launch_bounds__(TR_BLOCK) t_{name}_{s}({params}, T* ws, int n, int wsz) {{
    const long long b = blockIdx.x, nn = (long long)n * n;
    T* const W = ws + b * wsz;
    {call};
}}
"""


def source():
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(ROOT / "templates")), keep_trailing_newline=True,
                             trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
    parts = [env.get_template("cuda_helpers.cuh.j2").render(), env.get_template("cuda_linalg.cuh.j2").render(),
             "// a null pointer stays null; M: this block's matrix, N: its vector\n"
             "#define M(p) ((p) ? (p) + b * nn : nullptr)\n#define N(p) ((p) ? (p) + b * n : nullptr)\n"]
    for t, s in (("float", "f32"), ("double", "f64")):
        parts.append(f"#define T {t}\n")
        for name, (params, call) in KERNELS.items():
            parts.append(KERNEL.format(name=name, s=s, params=params, call=call))
        parts.append("#undef T\n")
    return "\n".join(parts)


SOURCE = source()
_POOL = cf.ThreadPoolExecutor(max_workers=2)
_NVCC_CACHE = Path(tempfile.gettempdir()) / f"tensor-rules-nvcc-{os.getuid()}"


def _nvcc_ptx(src):
    """nvcc's verdict on src, cached by content (a pass is remembered, a failure always rerun)."""
    key = hashlib.sha256(src.encode()).hexdigest()[:24]
    ok = _NVCC_CACHE / f"{key}.ok"
    if ok.exists():
        return 0, ""
    with tempfile.TemporaryDirectory() as d:
        cu = Path(d) / "linalg.cu"
        cu.write_text(src)
        res = subprocess.run([NVCC, "-ptx", "-arch=sm_90", "-o", str(Path(d) / "linalg.ptx"), str(cu)],
                             capture_output=True, text=True)
    if res.returncode == 0:
        _NVCC_CACHE.mkdir(parents=True, exist_ok=True)
        ok.touch()
    return res.returncode, res.stderr


@pytest.fixture(scope="module")
def jobs():
    """nvcc and the emulation's g++ started together, so the two compiles overlap."""
    out = {}
    if NVCC:
        out["nvcc"] = _POOL.submit(_nvcc_ptx, SOURCE)
    if cuda_emu.available()[0]:
        out["emu"] = _POOL.submit(cuda_emu.build, SOURCE)
    return out


def test_nvcc_compiles(jobs):
    if "nvcc" not in jobs:
        pytest.skip("nvcc not found on PATH, /usr/local/bin or /usr/local/cuda/bin: the compile check needs it")
    rc, err = jobs["nvcc"].result()
    assert rc == 0, f"nvcc failed on the linalg test kernels:\n{err[-4000:]}"


@pytest.fixture(scope="module")
def lib(jobs):
    ok, why = cuda_emu.available()
    if not ok:
        pytest.skip(why)
    return ctypes.CDLL(str(jobs["emu"].result()))


class Run:
    """Launch t_<name>_<f32|f64> over a batch, one block per matrix, and check the contract around it."""

    def __init__(self, lib, dtype, block):
        self.lib, self.dtype, self.block = lib, np.dtype(dtype), block

    def __call__(self, name, n, ins, outs, tr=None):
        """ins: name -> batch array (or None); outs: name -> per-matrix shape (or None: a null pointer)."""
        nb = next(a.shape[0] for a in ins.values() if a is not None)
        ins = {k: None if a is None else np.ascontiguousarray(a, dtype=self.dtype) for k, a in ins.items()}
        before = {k: a.copy() for k, a in ins.items() if a is not None}
        res = {k: None if s is None else np.full((nb,) + s, np.nan, self.dtype) for k, s in outs.items()}
        wsz = WS[name](n) + GUARD
        ws = np.full((nb, wsz), SENTINEL, self.dtype)
        ptr = lambda a: ctypes.c_void_p(None if a is None else a.ctypes.data)
        vals = [ptr(a) for a in ins.values()] + [ptr(a) for a in res.values()]
        if tr is not None:
            vals.append(ctypes.c_int32(tr))
        vals += [ptr(ws), ctypes.c_int32(n), ctypes.c_int32(wsz)]
        arr = (ctypes.c_void_p * len(vals))(*[ctypes.cast(ctypes.pointer(v), ctypes.c_void_p) for v in vals])
        fn = getattr(self.lib, f"emu_t_{name}_{'f32' if self.dtype == np.float32 else 'f64'}")
        fn.restype = None
        fn(ctypes.c_uint(nb), ctypes.c_uint(1), ctypes.c_uint(1), ctypes.c_uint(self.block), arr)
        for k, a in before.items():
            np.testing.assert_array_equal(ins[k], a, err_msg=f"{name} wrote its input {k}")
        assert (ws[:, wsz - GUARD:] == SENTINEL).all(), f"{name} used more workspace than WS[{name!r}]({n})"
        return [None if a is None else a.astype(np.float64) for a in res.values()]


DTYPES = {"f64": np.float64, "f32": np.float32}
NS = (1, 2, 3, 5, 8, 16)
BLOCKS = (1, 32, 64)
# relative error allowed against the float64 reference of the (float32-rounded) inputs: a few thousand
# roundoffs, n up to 16; the measured errors are printed at the end of the module (pytest -s)
TOL = {np.float64: 1e-12, np.float32: 3e-5}
ERRORS: dict = {}  # the largest error measured per check, printed by test_report


def close(key, got, ref, dtype, scale=None, tol=None):
    scale = max(np.max(np.abs(ref)), 1e-300) if scale is None else scale
    err = np.max(np.abs(got - ref)) / scale if ref.size else 0.0
    ERRORS[key] = max(ERRORS.get(key, 0.0), err)
    tol = TOL[dtype] if tol is None else tol
    assert np.all(np.isfinite(got)), f"{key}: non-finite output"
    assert err <= tol, f"{key}: relative error {err:.3g} > {tol:.3g}"


@pytest.fixture(params=[(d, b) for d in DTYPES for b in BLOCKS], ids=lambda p: f"{p[0]}-b{p[1]}")
def run(request, lib):
    d, b = request.param
    return Run(lib, DTYPES[d], b)


_MEMO: dict = {}


def memo(key, f):
    """A slow reference (scipy's expm) computed once for all the block sizes that share its inputs."""
    if key not in _MEMO:
        _MEMO[key] = f()
    return _MEMO[key]


def rng_for(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


# ------------------------------------------------------------------------------------------------ references
def spd(rng, n, nb=3):
    B = rng.standard_normal((nb, n, n))
    return B @ B.transpose(0, 2, 1) / n + np.eye(n)


def sym_with_spectrum(rng, w):
    Q, _ = np.linalg.qr(rng.standard_normal((len(w), len(w))))
    return Q @ np.diag(w) @ Q.T


def garbage_above(rng, A):
    """A's lower triangle with noise above it: the functions that read the lower triangle must ignore it."""
    return np.tril(A) + np.triu(rng.standard_normal(A.shape), 1)


def sign_fix(V):
    idx = np.argmax(np.abs(V), axis=0)  # the first one on a tie
    s = np.sign(V[idx, np.arange(V.shape[1])])
    return V * np.where(s == 0, 1.0, s)


def eigh_ref(A):
    w, V = np.linalg.eigh(A)  # reads the lower triangle
    return w, sign_fix(V)


def sym(X):
    return 0.5 * (X + X.swapaxes(-1, -2))


def phi(X):
    return np.tril(X, -1) + 0.5 * np.diag(np.diag(X))


def chol_jvp_ref(L, dA):
    Li = np.linalg.inv(L)
    return L @ phi(Li @ sym(dA) @ Li.T)


def chol_vjp_ref(L, Lb):
    Li = np.linalg.inv(L)
    return sym(Li.T @ phi(L.T @ Lb) @ Li)


def eigh_F(w):
    d = w[None, :] - w[:, None]
    with np.errstate(divide="ignore"):
        F = 1.0 / d
    np.fill_diagonal(F, 0.0)
    return F


def eigh_jvp_ref(w, V, dA):
    M = V.T @ sym(dA) @ V
    return np.diag(M).copy(), V @ (eigh_F(w) * M)


def eigh_vjp_ref(w, V, wb, Vb):
    return sym(V @ (np.diag(wb) + eigh_F(w) * (V.T @ Vb)) @ V.T)


def dk_tol(dtype):
    return np.finfo(dtype).eps ** (1 / 3)


def dk_ref(w, V, fw, dfw, dS, tol):
    d = w[:, None] - w[None, :]
    near = np.abs(d) <= tol * np.maximum(np.abs(w[:, None]), np.abs(w[None, :]))
    with np.errstate(divide="ignore", invalid="ignore"):
        G = np.where(near, 0.5 * (dfw[:, None] + dfw[None, :]), (fw[:, None] - fw[None, :]) / d)
    return V @ (G * (V.T @ sym(dS) @ V)) @ V.T


def fn_spd(S, f):
    """f(S) of a symmetric positive definite S through numpy's eigh (logm, sqrtm)."""
    w, V = np.linalg.eigh(S)
    return V @ np.diag(f(w)) @ V.T


def fd(f, x, dx, h=1e-6):
    return (f(x + h * dx) - f(x - h * dx)) / (2 * h)


def cast(dtype, *xs):
    """The inputs as the kernel sees them, back in float64 for the references."""
    return [x.astype(dtype).astype(np.float64) for x in xs]


# ------------------------------------------------------------------------------------------------- Cholesky
@pytest.mark.parametrize("n", NS)
def test_cholesky(run, n):
    rng = rng_for("chol", n)
    A = spd(rng, n)
    A[1] = -A[1]  # not positive definite: NaN throughout
    Ain = garbage_above(rng, A)
    (A64,) = cast(run.dtype, Ain)
    (L,) = run("cholesky", n, {"A": Ain}, {"L": (n, n)})
    for b in (0, 2):
        close(f"cholesky/{run.dtype}", L[b], np.linalg.cholesky(A64[b]), run.dtype.type)
    assert np.isnan(L[1]).all(), "a matrix that is not positive definite must give NaN"


@pytest.mark.parametrize("n", NS)
def test_cholesky_jvp_vjp(run, n):
    rng = rng_for("cholj", n)
    L = np.linalg.cholesky(spd(rng, n))
    dA, Lb = rng.standard_normal((2, 3, n, n))
    L64, dA64, Lb64 = cast(run.dtype, L, dA, Lb)
    (dL,) = run("cholesky_jvp", n, {"L": L, "dA": dA}, {"dL": (n, n)})
    (Ab,) = run("cholesky_vjp", n, {"L": L, "Lb": Lb}, {"Ab": (n, n)})
    t = run.dtype.type
    for b in range(3):
        close(f"cholesky_jvp/{run.dtype}", dL[b], chol_jvp_ref(L64[b], dA64[b]), t)
        close(f"cholesky_vjp/{run.dtype}", Ab[b], chol_vjp_ref(L64[b], Lb64[b]), t)
        lhs, rhs = np.sum(Lb64[b] * dL[b]), np.sum(Ab[b] * dA64[b])
        close(f"cholesky adjoint/{run.dtype}", np.array(lhs), np.array(rhs), t,
              scale=np.linalg.norm(Lb64[b]) * np.linalg.norm(dL[b]) + 1e-300)
    if run.dtype == np.float64 and run.block == 32:  # finite differences of numpy's Cholesky along a symmetric tangent
        S = sym(dA64[:1])
        (dLs,) = run("cholesky_jvp", n, {"L": L[:1], "dA": S}, {"dL": (n, n)})
        close("cholesky_jvp FD", dLs[0], fd(np.linalg.cholesky, L64[0] @ L64[0].T, S[0]), t, tol=1e-7)


# ----------------------------------------------------------------------------------------------------- eigh
@pytest.mark.parametrize("n", NS)
def test_eigh(run, n):
    rng = rng_for("eigh", n)
    A = np.stack([sym_with_spectrum(rng, np.sort(np.linspace(-3, 3, n) + 0.05 * rng.standard_normal(n)))
                  for _ in range(2)] + [np.diag(np.arange(n, 0, -1.0))])  # already diagonal, in descending order
    Ain = garbage_above(rng, A)
    (A64,) = cast(run.dtype, Ain)
    w, V = run("eigh", n, {"A": Ain}, {"w": (n,), "V": (n, n)})
    t = run.dtype.type
    for b in range(3):
        wr, Vr = eigh_ref(A64[b])
        close(f"eigh w/{run.dtype}", w[b], wr, t)
        close(f"eigh V/{run.dtype}", V[b], Vr, t)


@pytest.mark.parametrize("n", (3, 8))
def test_eigh_repeated(run, n):
    """Repeated eigenvalues: the vectors are any orthonormal basis of the eigenspace, so check A V = V diag(w)."""
    rng = rng_for("eighrep", n)
    spec = np.repeat(np.arange(1.0, n), 2)[:n]
    A = np.stack([sym_with_spectrum(rng, spec), 2 * np.eye(n), np.zeros((n, n))])
    (A64,) = cast(run.dtype, A)
    w, V = run("eigh", n, {"A": A}, {"w": (n,), "V": (n, n)})
    t = run.dtype.type
    for b in range(3):
        close(f"eigh repeated w/{run.dtype}", w[b], np.linalg.eigvalsh(A64[b]), t)
        close(f"eigh repeated AV/{run.dtype}", A64[b] @ V[b], V[b] * w[b], t, scale=max(1.0, np.abs(w[b]).max()))
        close(f"eigh repeated VtV/{run.dtype}", V[b].T @ V[b], np.eye(n), t)
        assert (V[b][np.argmax(np.abs(V[b]), axis=0), np.arange(n)] > 0).all(), "sign convention"


def test_eigh_sign_tie(run):
    """[[2, 1], [1, 2]]: eigenvectors (1, -1)/√2 and (1, 1)/√2 (by hand), their components equal in magnitude, so
    the sign convention's tie rule decides: the first component is the positive one."""
    A = np.array([[[2.0, 1.0], [1.0, 2.0]]])
    w, V = run("eigh", 2, {"A": A}, {"w": (2,), "V": (2, 2)})
    close(f"eigh sign tie w/{run.dtype}", w[0], np.array([1.0, 3.0]), run.dtype.type)
    close(f"eigh sign tie V/{run.dtype}", V[0], np.array([[1.0, 1.0], [-1.0, 1.0]]) / np.sqrt(2), run.dtype.type)


@pytest.mark.parametrize("n", NS)
def test_eigh_jvp_vjp(run, n):
    rng = rng_for("eighj", n)
    t = run.dtype.type
    A = np.stack([sym_with_spectrum(rng, np.linspace(-2, 2, n) + 0.03 * rng.standard_normal(n)) for _ in range(3)])
    (A,) = cast(run.dtype, A)
    wV = [eigh_ref(a) for a in A]
    w, V = np.stack([x[0] for x in wV]), np.stack([x[1] for x in wV])
    dA, Vb = rng.standard_normal((2, 3, n, n))
    wb = rng.standard_normal((3, n))
    w64, V64, dA64, Vb64, wb64 = cast(run.dtype, w, V, dA, Vb, wb)
    dw, dV = run("eigh_jvp", n, {"w": w, "V": V, "dA": dA}, {"dw": (n,), "dV": (n, n)})
    (only_dw,) = run("eigh_jvp", n, {"w": w, "V": V, "dA": dA}, {"dw": (n,), "dV": None})[:1]
    (Ab,) = run("eigh_vjp", n, {"w": w, "V": V, "wb": wb, "Vb": Vb}, {"Ab": (n, n)})
    (Ab_w,) = run("eigh_vjp", n, {"w": w, "V": V, "wb": wb, "Vb": None}, {"Ab": (n, n)})
    (Ab_V,) = run("eigh_vjp", n, {"w": w, "V": V, "wb": None, "Vb": Vb}, {"Ab": (n, n)})
    # the spread of the spectrum over its smallest gap amplifies the float32 rounding of the inputs
    tol = TOL[t] * (1 if t == np.float64 else 4 / np.diff(w64, axis=1).min(initial=1.0))
    for b in range(3):
        rdw, rdV = eigh_jvp_ref(w64[b], V64[b], dA64[b])
        close(f"eigh_jvp dw/{run.dtype}", dw[b], rdw, t)
        close(f"eigh_jvp dV/{run.dtype}", dV[b], rdV, t, tol=tol)
        np.testing.assert_array_equal(only_dw[b], dw[b])
        close(f"eigh_vjp/{run.dtype}", Ab[b], eigh_vjp_ref(w64[b], V64[b], wb64[b], Vb64[b]), t, tol=tol)
        close(f"eigh_vjp wbar only/{run.dtype}", Ab_w[b], eigh_vjp_ref(w64[b], V64[b], wb64[b], 0 * Vb64[b]), t)
        close(f"eigh_vjp Vbar only/{run.dtype}", Ab_V[b], eigh_vjp_ref(w64[b], V64[b], 0 * wb64[b], Vb64[b]), t,
              tol=tol)
        lhs = np.sum(wb64[b] * dw[b]) + np.sum(Vb64[b] * dV[b])
        close(f"eigh adjoint/{run.dtype}", np.array(lhs), np.array(np.sum(Ab[b] * dA64[b])), t,
              scale=np.linalg.norm(Ab[b]) * np.linalg.norm(dA64[b]), tol=tol)
    if t == np.float64 and run.block == 32:  # FD of numpy's eigh (sign convention applied), symmetric tangent
        S = sym(dA64[:1])
        got = run("eigh_jvp", n, {"w": w[:1], "V": V[:1], "dA": S}, {"dw": (n,), "dV": (n, n)})
        for i, f in enumerate((lambda a: eigh_ref(a)[0], lambda a: eigh_ref(a)[1])):
            close(f"eigh_jvp FD {'wV'[i]}", got[i][0], fd(f, A[0], S[0]), t, tol=1e-6)


# ----------------------------------------------------------------------------------------------------- expm
def expm_inputs(rng, n):
    R = rng.standard_normal((3, n, n)) / np.sqrt(n)
    # tiny (a low Padé degree), moderate, and large (several squarings; non-normal: strictly upper part added)
    return np.stack([1e-3 * R[0], R[1], 4 * R[2] + 3 * np.triu(rng.standard_normal((n, n)), 1) / np.sqrt(n)])


@pytest.mark.parametrize("n", NS)
def test_expm(run, n):
    rng = rng_for("expm", n)
    A = expm_inputs(rng, n)
    (A64,) = cast(run.dtype, A)
    (E,) = run("expm", n, {"A": A}, {"E": (n, n)})
    t = run.dtype.type
    for b in range(3):
        ref = memo(("expm", n, t, b), lambda: scipy_linalg.expm(A64[b]))
        # relative to the condition of expm at A (roughly e^{||A||}/||e^A||), capped for the float32 inputs
        close(f"expm/{run.dtype}", E[b], ref, t, tol=TOL[t] * (1 if b < 2 else 10))


@pytest.mark.parametrize("n", NS)
def test_expm_frechet(run, n):
    rng = rng_for("frechet", n)
    A = expm_inputs(rng, n)
    dA = rng.standard_normal((3, n, n))
    dA[0] *= 1e8  # a tangent far larger than A: the power-of-two scaling keeps the squarings of A's own
    A64, dA64 = cast(run.dtype, A, dA)
    t = run.dtype.type
    for tr in (0, 1):
        (dE,) = run("expm_frechet", n, {"A": A, "dA": dA}, {"dE": (n, n)}, tr=tr)
        for b in range(3):
            a = A64[b].T if tr else A64[b]
            ref = memo(("frechet", n, t, b, tr), lambda: scipy_linalg.expm_frechet(a, dA64[b], compute_expm=False))
            close(f"expm_frechet/{run.dtype}", dE[b], ref, t, tol=TOL[t] * (1 if b < 2 else 10))
    if t == np.float64 and run.block == 32:
        (fwd,) = run("expm_frechet", n, {"A": A[1:2], "dA": dA[1:2]}, {"dE": (n, n)}, tr=0)
        close("expm_frechet FD", fwd[0], fd(scipy_linalg.expm, A64[1], dA64[1]), t, tol=1e-7)
        # the pullback is the Fréchet derivative at A^T: <Eb, L(A, dA)> = <L(A^T, Eb), dA>
        Eb = rng.standard_normal((1, n, n))
        (bwd,) = run("expm_frechet", n, {"A": A[1:2], "dA": Eb}, {"dE": (n, n)}, tr=1)
        close("expm adjoint", np.array(np.sum(Eb[0] * fwd[0])), np.array(np.sum(bwd[0] * dA64[1])), t,
              scale=np.linalg.norm(Eb) * np.linalg.norm(fwd))


# Higham's bounds θ_m on ||A||_1 for the Padé degrees m (float64: 3, 5, 7, 9, 13; float32: 3, 5, 7)
THETA = {np.float64: (1.495585217958292e-2, 2.539398330063230e-1, 9.504178996162932e-1, 2.097847961257068,
                      5.371920351148152),
         np.float32: (4.258730016922831e-1, 1.880152677804762, 3.925724783138660)}


@pytest.mark.parametrize("dtype", DTYPES)
def test_expm_each_degree(lib, dtype):
    """1-norms just under each θ_m (the worst truncation error of each degree), and under θ_max·2^3 (three
    squarings); then a non-finite A, which gives NaN."""
    t = DTYPES[dtype]
    rng = rng_for("expm-deg", dtype)
    n = 6
    norms = THETA[t] + (8 * THETA[t][-1],)
    R = rng.standard_normal((len(norms), n, n))
    A = np.stack([r / np.abs(r).sum(axis=0).max() * th * 0.999 for r, th in zip(R, norms)])
    (A64,) = cast(t, A)
    (E,) = Run(lib, t, 32)("expm", n, {"A": A}, {"E": (n, n)})
    for b in range(len(norms)):
        close(f"expm each degree/{np.dtype(t)}", E[b], scipy_linalg.expm(A64[b]), t)
    A[1, 2, 3] = np.inf
    (E,) = Run(lib, t, 32)("expm", n, {"A": A[:2]}, {"E": (n, n)})
    assert np.isnan(E[1]).all() and np.isfinite(E[0]).all()


def test_larger_n(lib):
    """n = 40, past a warp, with a block of 7 threads (each thread many rows and columns)."""
    rng = rng_for("large")
    n, run = 40, Run(lib, np.float64, 7)
    S = spd(rng, n, 1)
    A = rng.standard_normal((1, n, n)) / np.sqrt(n)
    w, V = run("eigh", n, {"A": S}, {"w": (n,), "V": (n, n)})
    wr, Vr = eigh_ref(S[0])
    close("larger n eigh w", w[0], wr, np.float64)
    close("larger n eigh V", V[0], Vr, np.float64, tol=1e-10)  # eps·||S|| over the smallest gap
    (E,) = run("expm", n, {"A": A}, {"E": (n, n)})
    close("larger n expm", E[0], scipy_linalg.expm(A[0]), np.float64)
    (L,) = run("cholesky", n, {"A": S}, {"L": (n, n)})
    close("larger n cholesky", L[0], np.linalg.cholesky(S[0]), np.float64)


# ------------------------------------------------------------------------ functions of symmetric matrices
@pytest.mark.parametrize("n", NS)
def test_eig_fn_and_daleckii_krein(run, n):
    rng = rng_for("dk", n)
    t = run.dtype.type
    S = spd(rng, n)
    if n >= 3:  # repeated and nearly repeated eigenvalues: the derivative branch of G
        S[2] = sym_with_spectrum(rng, np.concatenate([[2.0, 2.0, 2.0 * (1 + 1e-9)], np.linspace(3, 4, n - 3)]))
    (S,) = cast(run.dtype, S)
    wV = [np.linalg.eigh(s) for s in S]
    w, V = np.stack([x[0] for x in wV]), np.stack([x[1] for x in wV])
    w, V = cast(run.dtype, w, V)
    dS, X = rng.standard_normal((2, 3, n, n))
    (dS64, X64) = cast(run.dtype, dS, X)
    for name, f, df in (("log", np.log, lambda x: 1 / x), ("sqrt", np.sqrt, lambda x: 0.5 / np.sqrt(x))):
        fw, dfw = cast(run.dtype, f(w), df(w))
        (F,) = run("eig_fn", n, {"V": V, "fw": fw}, {"F": (n, n)})
        (dF,) = run("daleckii_krein", n, {"w": w, "V": V, "fw": fw, "dfw": dfw, "dS": dS}, {"dF": (n, n)})
        (dX,) = run("daleckii_krein", n, {"w": w, "V": V, "fw": fw, "dfw": dfw, "dS": X}, {"dF": (n, n)})
        for b in range(3):
            close(f"eig_fn/{run.dtype}", F[b], V[b] @ np.diag(fw[b]) @ V[b].T, t)
            np.testing.assert_array_equal(F[b], F[b].T)
            ref = dk_ref(w[b], V[b], fw[b], dfw[b], dS64[b], dk_tol(t))
            close(f"daleckii_krein/{run.dtype}", dF[b], ref, t)
            # self-adjoint: <X, D(dS)> = <D(X), dS>
            close(f"daleckii_krein adjoint/{run.dtype}", np.array(np.sum(X64[b] * dF[b])),
                  np.array(np.sum(dX[b] * dS64[b])), t, scale=np.linalg.norm(X64[b]) * np.linalg.norm(dF[b]))
        if t == np.float64 and run.block == 32:  # the derivative of f(S) itself, by finite differences
            for b in range(3):
                num = fd(lambda s: fn_spd(s, f), S[b], sym(dS64[b]), h=1e-5)
                close(f"daleckii_krein FD {name}", dF[b], num, t, tol=1e-6)
        if t == np.float64 and run.block == 32 and name == "sqrt":  # the value, against scipy
            for b in range(3):
                close("eig_fn vs scipy sqrtm", F[b], np.real(scipy_linalg.sqrtm(S[b])), t)


@pytest.fixture(scope="module", autouse=True)
def report_errors():
    """Prints the largest error of each check when the module ends (shown by pytest -s)."""
    yield
    for k in sorted(ERRORS):
        print(f"{k:45s} {ERRORS[k]:.3g}")
