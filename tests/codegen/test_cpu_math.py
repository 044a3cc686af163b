"""templates/cpu_math.h (exp, erf, erfc for the native CPU backend) and the small helpers of
templates/cpu_helpers.h.j2 compiled by g++ into a small library and applied over arrays through ctypes: accuracy
against math/mpmath/NumPy, special values, vectorization of the loops that call them (with AVX-512, AVX2 only and
SSE4 only), and bit-identical results with and without OpenMP and vectorization and for AVX2 and native builds."""
import ctypes
import math
import re
import shutil
import subprocess
from pathlib import Path

import mpmath
import numpy as np
import pytest

GXX = shutil.which("g++")
pytestmark = pytest.mark.skipif(GXX is None, reason="g++ is not installed: templates/cpu_math.h is not compiled")

ROOT = Path(__file__).resolve().parents[2]
HEADER_DIR = ROOT / "templates"
SOURCE = r"""
#include "cpu_helpers.h"
#define APPLY(name, T, f) \
    extern "C" void name(const T* x, T* y, long n) { _Pragma("omp simd") for (long i = 0; i < n; ++i) y[i] = f(x[i]); }
APPLY(exp_d, double, tr_exp)
APPLY(exp_f, float, tr_exp)
APPLY(erf_d, double, tr_erf)
APPLY(erf_f, float, tr_erf)
APPLY(erfc_d, double, tr_erfc)
APPLY(erfc_f, float, tr_erfc)
APPLY(tanh_d, double, tr_tanh)
APPLY(tanh_f, float, tr_tanh)
APPLY(sigmoid_d, double, tr_sigmoid)
APPLY(sigmoid_f, float, tr_sigmoid)
APPLY(relu_d, double, tr_relu)
APPLY(step_d, double, tr_step)
APPLY(sign_d, double, tr_sign)
extern "C" void gelu_d(const double* x, double* y, long n) {
#pragma omp simd
    for (long i = 0; i < n; ++i) y[i] = 0.5 * x[i] * (1.0 + tr_erf(x[i] * M_SQRT1_2));
}
extern "C" void where_d(const double* x, double* y, long n) {
#pragma omp simd
    for (long i = 0; i < n; ++i) y[i] = tr_select(x[i] > 0.5, tr_exp(-x[i]), 0.0) * x[i] + 1.0;
}
extern "C" void gauss_d(const double* x, double* y, long n) {   // the Gaussian kernel sum's inner loop
    double a = 0.0;
#pragma omp simd reduction(+:a)
    for (long i = 0; i < n; ++i) a += x[n - 1 - i] * tr_exp(-x[i] / x[0]);
    y[0] = a;
}
extern "C" void store_d(const double* x, double* y, long n) {   // y += sigmoid(x) through tr_store
#pragma omp simd
    for (long i = 0; i < n; ++i) tr_store(y, i, tr_sigmoid(x[i]), 1);
}
"""
# each function's loop, by a text on its line
LOOPS = {"gelu_d": "M_SQRT1_2", "where_d": "tr_select(x[i] > 0.5", "gauss_d": "a += x[n - 1 - i]",
         "store_d": "tr_store(y, i"}
FUNCTIONS = ("exp_d", "exp_f", "erf_d", "erf_f", "erfc_d", "erfc_f", "tanh_d", "tanh_f", "sigmoid_d", "sigmoid_f", "relu_d", "step_d",
             "sign_d", "gelu_d", "where_d", "gauss_d", "store_d")
# AVX-512 (where the CPU has it), AVX2 + FMA only (most laptops and many servers), SSE4.2 without FMA (compiled,
# and run where the CPU has AVX2 and FMA: the haswell build must give the native build's bits)
BUILDS = {"openmp": ["-fopenmp"], "plain": [], "scalar": ["-fno-tree-vectorize"],
          "haswell": ["-fopenmp", "-march=haswell"], "sse4": ["-fopenmp", "-march=x86-64-v2"]}
# the header's multiply-adds are explicit fmas; -ffp-contract=off keeps g++ from fusing the loop body's own
# (0.5·x·(1 + erf)) differently in vector and scalar code, which changed 2% of gelu's results by an ulp
FLAGS = ["-O3", "-march=native", "-std=c++17", "-ffp-contract=off", "-fno-math-errno", "-fPIC", "-shared"]


def _cpu_flags():
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return set()
    line = next((t for t in text.splitlines() if t.startswith("flags")), "")
    return set(line.split(":", 1)[-1].split())


def _needs_x86(name):
    if name not in ("haswell", "sse4"):
        return None
    probe = subprocess.run([GXX, "-march=haswell", "-x", "c++", "-fsyntax-only", "-"], input="int x;\n",
                           capture_output=True, text=True)
    return None if probe.returncode == 0 else f"{GXX} does not take -march=haswell (not an x86-64 compiler)"


class Lib:
    def __init__(self, path):
        self.dll = ctypes.CDLL(str(path))

    def __call__(self, name, x):
        x = np.ascontiguousarray(x, dtype=np.float32 if name.endswith("_f") else np.float64)
        return self.call_inplace(name, x, np.zeros_like(x))

    def call_inplace(self, name, x, y):
        getattr(self.dll, name)(x.ctypes.data_as(ctypes.c_void_p), y.ctypes.data_as(ctypes.c_void_p),
                                ctypes.c_long(x.size))
        return y


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    """{build: Lib or the reason it cannot run here}, {build: g++'s vectorization report}"""
    tmp = tmp_path_factory.mktemp("cpu_math")
    from derive.emission.templates import template_env

    # the helpers as the generated .cpp files carry them (rendered: they include cpu_math.h and max_keys.j2)
    (tmp / "cpu_helpers.h").write_text(template_env().get_template("cpu_helpers.h.j2").render())
    (tmp / "k.cpp").write_text(SOURCE)
    libs, reports = {}, {}
    cpu = _cpu_flags()
    for name, flags in BUILDS.items():
        why = _needs_x86(name)
        if why:
            libs[name] = reports[name] = why
            continue
        out = tmp / f"k_{name}.so"
        cmd = [GXX, *FLAGS, f"-I{HEADER_DIR}", f"-I{tmp}", *flags,
               "-fopt-info-vec-optimized", str(tmp / "k.cpp"), "-o", str(out)]
        done = subprocess.run(cmd, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        reports[name] = done.stderr
        need = {"haswell": {"avx2", "fma"}, "sse4": {"sse4_2"}}.get(name, set())
        libs[name] = Lib(out) if need <= cpu else f"this CPU lacks {sorted(need - cpu)} for the {name} build"
    return libs, reports


@pytest.fixture(scope="module")
def lib(builds):
    return builds[0]["openmp"]


def _ulps(got, want, dtype):
    want = np.asarray(want, dtype=np.float64)
    spacing = np.spacing(np.abs(want).astype(dtype)).astype(np.float64)
    return np.abs(got.astype(np.float64) - want) / spacing


def _loop_line(name):
    marker = LOOPS.get(name, f"APPLY({name},")
    return next(i for i, text in enumerate(SOURCE.splitlines(), 1) if marker in text)


@pytest.mark.parametrize("build", ["openmp", "haswell", "sse4"])
def test_every_loop_is_vectorized(builds, build):
    """With AVX-512 masks g++ if-converts almost anything; with AVX2 or SSE4 only a ?: whose arm is a constant
    became a branch with arithmetic moved into it and left the loop scalar ("control flow in loop")."""
    report = builds[1][build]
    if not report.startswith("/") and "vectorized" not in report:
        pytest.skip(report)
    report = report.splitlines()
    for name in FUNCTIONS:
        line = _loop_line(name)
        assert any(f"k.cpp:{line}:" in r and "loop vectorized" in r for r in report), (build, name)


def test_a_loop_storing_through_tr_store_vectorizes_with_avx2(builds):
    """tr_store has no null test (runtime/native.py passes scratch memory for an output nobody reads): with one,
    g++ moved the loop body into the branch and left it scalar without AVX-512's masks."""
    report = builds[1]["haswell"]
    if "vectorized" not in report:
        pytest.skip(report)
    line = _loop_line("store_d")
    assert any(f"k.cpp:{line}:" in r and "loop vectorized" in r for r in report.splitlines())


def _inputs():
    rng = np.random.default_rng(7)
    return np.concatenate([rng.uniform(-30, 30, 5000), rng.uniform(-800, 800, 5000), rng.standard_normal(5000),
                           [0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, 0.46875, 4.0, 709.78, -745.13]])


def test_results_are_identical_with_and_without_openmp_and_vectorization_and_avx512(builds):
    libs = {build: lib for build, lib in builds[0].items() if build != "sse4"}    # sse4 has no FMA: other bits
    missing = [why for why in libs.values() if isinstance(why, str)]
    x = _inputs()
    for name in FUNCTIONS:
        if name == "gauss_d":
            continue                       # a sum: its order depends on the vector width
        outs = {build: lib(name, x) for build, lib in libs.items() if not isinstance(lib, str)}
        uint = np.uint32 if name.endswith("_f") else np.uint64
        ref = outs["openmp"].view(uint)
        for build, out in outs.items():
            np.testing.assert_array_equal(out.view(uint), ref, err_msg=f"{name}: {build} differs from openmp")
    if missing:
        pytest.skip("; ".join(missing))


def test_helpers_against_numpy(lib):
    x = _inputs()
    x = x[~np.isnan(x)]
    np.testing.assert_array_equal(lib("relu_d", x), np.maximum(x, 0.0))
    np.testing.assert_array_equal(lib("step_d", x), (x > 0).astype(float))
    np.testing.assert_array_equal(lib("sign_d", x), np.sign(x) + 0.0)
    mpmath.mp.dps = 30
    pts = np.concatenate([np.linspace(-740, 40, 1561), [0.0, -0.0, np.inf, -np.inf]])
    want = [float(1 / (1 + mpmath.exp(-mpmath.mpf(float(v))))) for v in pts]
    assert np.max(_ulps(lib("sigmoid_d", pts), want, np.float64)) <= 2
    assert np.max(_ulps(lib("sigmoid_f", pts.astype(np.float32)), want, np.float32)) <= 2
    xs = np.linspace(-5, 5, 1001)
    want = np.where(xs > 0.5, np.exp(-xs), 0.0) * xs + 1.0
    np.testing.assert_allclose(lib("where_d", xs), want, rtol=2e-16, atol=0)
    y = np.linspace(0, 1, 1001)
    store = lib.call_inplace("store_d", xs, y.copy())
    np.testing.assert_allclose(store, y + 1 / (1 + np.exp(-xs)), rtol=4e-16, atol=1e-300)
    pos = np.linspace(0.5, 3, 1000)
    got = lib("gauss_d", pos)[0]
    assert got == pytest.approx(float(np.sum(pos[::-1] * np.exp(-pos / pos[0]))), rel=1e-14)


# a call into libm (no vector version; tr_softplus calls log1p): the kernels of an op through log or sin (which
# runtime.torch runs natively on small tensors, the NumPy runtime never) keep such loops scalar by design
_LIBM_CALL = re.compile(r"(?<![\w.])(sin|cos|tan|asin|acos|atan|sinh|cosh|log|log1p|expm1|pow|atan2|tr_softplus)\(")


def _simd_loops(path, skip_libm=False):
    """line of each `omp simd` loop of a generated .cpp -> its last line (without the loops calling libm when
    skip_libm)"""
    lines = path.read_text().splitlines()
    loops = {}
    for i, text in enumerate(lines):
        if "omp simd" in text:
            depth, j = 0, i + 1
            while True:
                depth += lines[j].count("{") - lines[j].count("}")
                if depth <= 0 and "{" in "".join(lines[i + 1:j + 1]):
                    break
                j += 1
            if not (skip_libm and _LIBM_CALL.search("\n".join(lines[i + 1:j + 1]))):
                loops[i + 2] = j + 1
    return loops


@pytest.mark.slow
@pytest.mark.parametrize("name", ["nn", "elementwise"])
def test_generated_kernels_vectorize_with_avx2_only(name, tmp_path):
    """The issue's reproducer: the shipped kernels' simd loops (the Gaussian kernel sum's among them) compiled for
    an AVX2 + FMA CPU without AVX-512, with runtime/native.py's flags."""
    why = _needs_x86("haswell")
    if why:
        pytest.skip(why)
    from runtime import native
    path = ROOT / "generated" / "cpu" / f"{name}.cpp"
    flags = [f for f in native.FLAGS if not f.startswith("-march")]
    # -fno-ipa-icf: two kernels whose code is identical would be merged before vectorization, and only one of
    # them reported
    done = subprocess.run([GXX, *flags, "-march=haswell", "-fno-ipa-icf", str(path), "-o", str(tmp_path / "k.so"),
                           "-fopt-info-vec-optimized"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    ok = {int(n) for n in re.findall(rf"{name}\.cpp:(\d+):\d+: optimized: loop vectorized", done.stderr)}
    loops = _simd_loops(path, skip_libm=True)
    assert loops
    scalar = [first for first, last in loops.items() if not any(first <= n <= last for n in ok)]
    assert not scalar, f"{name}.cpp: simd loops at lines {scalar} are not vectorized for -march=haswell"


def test_exp_double_within_2_ulp_across_its_range(lib):
    rng = np.random.default_rng(1)
    xs = np.concatenate([rng.uniform(-745.0, 709.78, 3000), rng.uniform(-1, 1, 1000), np.linspace(-745, 709.78, 2001),
                         [-745.13, -708.4, -708.39, -0.5 * math.log(2), 0.5 * math.log(2), 1e-300, -1e-300]])
    mpmath.mp.dps = 40
    want = [float(mpmath.exp(mpmath.mpf(float(v)))) for v in xs]
    assert np.max(_ulps(lib("exp_d", xs), want, np.float64)) <= 2
    many = rng.uniform(-745.0, 709.78, 300000)     # and against libm (itself within an ulp) at many more points
    assert np.max(_ulps(lib("exp_d", many), [math.exp(v) for v in many], np.float64)) <= 2


def test_exp_special_values(lib):
    x = np.array([np.nan, np.inf, -np.inf, 709.79, 710.0, 1e300, -746.0, -1e300, 0.0, -0.0])
    got = lib("exp_d", x)
    assert np.isnan(got[0])
    np.testing.assert_array_equal(got[1:], [np.inf, 0.0, np.inf, np.inf, np.inf, 0.0, 0.0, 1.0, 1.0])
    assert lib("exp_d", np.array([-745.13]))[0] == 5e-324             # the smallest subnormal, not flushed
    assert np.isfinite(lib("exp_d", np.array([709.78]))[0])


def test_exp_float(lib):
    rng = np.random.default_rng(2)
    x = np.concatenate([rng.uniform(-103.9, 88.72, 200000), [-87.3, -87.4, -100.0, 0.0]]).astype(np.float32)
    want = np.exp(x.astype(np.float64))
    assert np.max(_ulps(lib("exp_f", x), want, np.float32)) <= 2
    got = lib("exp_f", np.array([np.nan, np.inf, -np.inf, 88.73, -104.0], np.float32))
    assert np.isnan(got[0])
    np.testing.assert_array_equal(got[1:], [np.inf, 0.0, np.inf, 0.0])


def _erf_points():
    rng = np.random.default_rng(3)
    edges = [0.46875, 4.0, 6.0]
    near = [np.nextafter(e, s) for e in edges for s in (0, 10)]
    return np.concatenate([np.linspace(-7, 7, 140001), rng.uniform(-7, 7, 100000), rng.standard_normal(50000),
                           edges, near, np.negative(near), 10.0 ** rng.uniform(-320, -1, 2000)])


def test_erf_double_relative_error_against_math_erf(lib):
    xs = _erf_points()
    want = np.array([math.erf(v) for v in xs])
    err = np.abs(lib("erf_d", xs) - want)
    # relative 1e-15, or one unit of the smallest subnormal where erf(x) = 1.13·x is itself subnormal
    assert np.all(err <= np.maximum(1e-15 * np.abs(want), 5e-324))
    got = lib("erf_d", np.array([0.0, -0.0, np.inf, -np.inf, 1e300, -30.0, np.nan]))
    assert not np.signbit(got[0]) and np.signbit(got[1]) and got[1] == 0.0
    np.testing.assert_array_equal(got[2:6], [1.0, -1.0, 1.0, -1.0])
    assert np.isnan(got[6])


def test_erfc_double_relative_error_in_the_far_tail_against_mpmath(lib):
    mpmath.mp.dps = 30
    rng = np.random.default_rng(4)
    xs = np.concatenate([np.linspace(-6, 26.5, 3001), rng.uniform(0.4, 26.5, 1500), [0.46875, 4.0, 26.0]])
    want = np.array([float(mpmath.erfc(mpmath.mpf(float(v)))) for v in xs])
    assert np.max(np.abs(lib("erfc_d", xs) - want) / want) <= 1e-14
    got = lib("erfc_d", np.array([np.inf, -np.inf, 0.0, -0.0, 28.0, 1e300, -1e300, np.nan]))
    np.testing.assert_array_equal(got[:7], [0.0, 2.0, 1.0, 1.0, 0.0, 0.0, 2.0])
    assert np.isnan(got[7])


def test_erf_and_erfc_float(lib):
    rng = np.random.default_rng(5)
    x = np.concatenate([rng.uniform(-6, 6, 50000), rng.uniform(0, 11, 20000), [0.0, 1e-40]]).astype(np.float32)
    want = np.array([math.erf(float(v)) for v in x])
    assert np.max(_ulps(lib("erf_f", x), want, np.float32)) <= 1
    wantc = np.array([math.erfc(float(v)) for v in x])
    assert np.max(_ulps(lib("erfc_f", x), wantc, np.float32)) <= 1


def test_tanh_against_mpmath_and_special_values(lib):
    mpmath.mp.dps = 40
    rng = np.random.default_rng(6)
    edge = [np.nextafter(0.625, s) for s in (0, 1)] + [0.625]
    xs = np.concatenate([np.linspace(-25, 25, 20001), rng.uniform(-1, 1, 5000), 10.0 ** rng.uniform(-310, 1.5, 3000),
                         edge, np.negative(edge)])
    xs = np.concatenate([xs, -xs])
    want = [float(mpmath.tanh(mpmath.mpf(float(v)))) for v in xs]
    assert np.max(_ulps(lib("tanh_d", xs), want, np.float64)) <= 2
    got = lib("tanh_d", np.array([0.0, -0.0, np.inf, -np.inf, 400.0, -1e300, np.nan, 5e-324]))
    assert not np.signbit(got[0]) and np.signbit(got[1]) and got[1] == 0.0
    np.testing.assert_array_equal(got[2:6], [1.0, -1.0, 1.0, -1.0])
    assert np.isnan(got[6]) and got[7] == 5e-324
    x32 = np.concatenate([rng.uniform(-12, 12, 100000), [0.0, 1e-40, 0.625, 9.1]]).astype(np.float32)
    assert np.max(_ulps(lib("tanh_f", x32), np.tanh(x32.astype(np.float64)), np.float32)) <= 1


def test_gelu_loop(lib):
    x = np.linspace(-10, 10, 20001)
    want = np.array([0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in x])
    # 1 + erf cancels for x << 0: erf's error (<= 1e-15 relative) becomes an error of order eps·|x| there
    assert np.all(np.abs(lib("gelu_d", x) - want) <= 1e-15 * np.abs(want) + 2.3e-16 * np.abs(x))
