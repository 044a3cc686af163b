"""templates/cpu_math.h (exp, erf, erfc for the native CPU backend) compiled by g++ into a small library and
applied over arrays through ctypes: accuracy against math/mpmath/NumPy, special values, vectorization of
the loops that call it, and bit-identical results with and without OpenMP and vectorization."""
import ctypes
import math
import shutil
import subprocess
from pathlib import Path

import mpmath
import numpy as np
import pytest

GXX = shutil.which("g++")
pytestmark = pytest.mark.skipif(GXX is None, reason="g++ is not installed: templates/cpu_math.h is not compiled")

HEADER_DIR = Path(__file__).resolve().parents[2] / "templates"
SOURCE = r"""
#include "cpu_math.h"
#define APPLY(name, T, f) \
    extern "C" void name(const T* x, T* y, long n) { _Pragma("omp simd") for (long i = 0; i < n; ++i) y[i] = f(x[i]); }
APPLY(exp_d, double, tr_exp)
APPLY(exp_f, float, tr_exp)
APPLY(erf_d, double, tr_erf)
APPLY(erf_f, float, tr_erf)
APPLY(erfc_d, double, tr_erfc)
APPLY(erfc_f, float, tr_erfc)
extern "C" void gelu_d(const double* x, double* y, long n) {
#pragma omp simd
    for (long i = 0; i < n; ++i) y[i] = 0.5 * x[i] * (1.0 + tr_erf(x[i] * M_SQRT1_2));
}
"""
FUNCTIONS = ("exp_d", "exp_f", "erf_d", "erf_f", "erfc_d", "erfc_f", "gelu_d")
BUILDS = {"openmp": ["-fopenmp"], "plain": [], "scalar": ["-fno-tree-vectorize"]}
# the header's multiply-adds are explicit fmas; -ffp-contract=off keeps g++ from fusing the loop body's own
# (0.5·x·(1 + erf)) differently in vector and scalar code, which changed 2% of gelu's results by an ulp
FLAGS = ["-O3", "-march=native", "-std=c++17", "-ffp-contract=off", "-fPIC", "-shared"]


class Lib:
    def __init__(self, path):
        self.dll = ctypes.CDLL(str(path))

    def __call__(self, name, x):
        x = np.ascontiguousarray(x, dtype=np.float32 if name.endswith("_f") else np.float64)
        y = np.empty_like(x)
        getattr(self.dll, name)(x.ctypes.data_as(ctypes.c_void_p), y.ctypes.data_as(ctypes.c_void_p),
                                ctypes.c_long(x.size))
        return y


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cpu_math")
    (tmp / "k.cpp").write_text(SOURCE)
    libs, reports = {}, {}
    for name, flags in BUILDS.items():
        out = tmp / f"k_{name}.so"
        cmd = [GXX, *FLAGS, f"-I{HEADER_DIR}", *flags,
               "-fopt-info-vec-optimized", str(tmp / "k.cpp"), "-o", str(out)]
        done = subprocess.run(cmd, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        libs[name], reports[name] = Lib(out), done.stderr
    return libs, reports


@pytest.fixture(scope="module")
def lib(builds):
    return builds[0]["openmp"]


def _ulps(got, want, dtype):
    want = np.asarray(want, dtype=np.float64)
    spacing = np.spacing(np.abs(want).astype(dtype)).astype(np.float64)
    return np.abs(got.astype(np.float64) - want) / spacing


def test_every_loop_is_vectorized(builds):
    report = builds[1]["openmp"].splitlines()
    lines = SOURCE.splitlines()
    for name in FUNCTIONS:
        marker = "M_SQRT1_2" if name == "gelu_d" else f"APPLY({name},"      # the line of the loop
        line = next(i for i, text in enumerate(lines, 1) if marker in text)
        assert any(f"k.cpp:{line}:" in r and "loop vectorized" in r for r in report), (name, report)


def test_results_are_identical_with_and_without_openmp_and_vectorization(builds):
    libs = builds[0]
    rng = np.random.default_rng(7)
    x = np.concatenate([rng.uniform(-30, 30, 5000), rng.uniform(-800, 800, 5000), rng.standard_normal(5000),
                        [0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, 0.46875, 4.0, 709.78, -745.13]])
    for name in FUNCTIONS:
        outs = {build: lib(name, x) for build, lib in libs.items()}
        uint = np.uint32 if name.endswith("_f") else np.uint64
        ref = outs["openmp"].view(uint)
        for build, out in outs.items():
            np.testing.assert_array_equal(out.view(uint), ref, err_msg=f"{name}: {build} differs from openmp")


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


def test_gelu_loop(lib):
    x = np.linspace(-10, 10, 20001)
    want = np.array([0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in x])
    # 1 + erf cancels for x << 0: erf's error (<= 1e-15 relative) becomes an error of order eps·|x| there
    assert np.all(np.abs(lib("gelu_d", x) - want) <= 1e-15 * np.abs(want) + 2.3e-16 * np.abs(x))
