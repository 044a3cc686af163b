"""Adversarial checks of the native CPU backend (issue #15): programs a new or hostile user would write, each found
to differ from the NumPy path (TENSOR_RULES_NATIVE=0) or to misbehave before its fix.

A user must see no difference between the two paths except speed: the same values, shapes, dtypes and types
(NumPy scalar or 0-d array, Thunk or array). Expected values come from the NumPy path or direct NumPy formulas,
never from the native path itself.
"""
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from runtime import native
from runtime.tangents import Thunk, ZeroTangent, unthunk

ROOT = Path(__file__).resolve().parents[2]
ok, why = native.available()
pytestmark = pytest.mark.skipif(not ok, reason=f"native CPU kernels unavailable here: {why}")


def _both(monkeypatch, fn):
    """fn() on the native path (every covered call) and on the NumPy path."""
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "1")
    got = fn()
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "0")
    want = fn()
    return got, want


def _kind(v):
    """What a user can tell apart without looking at values: the type, dtype and shape."""
    if isinstance(v, tuple):
        return tuple(_kind(x) for x in v)
    if isinstance(v, (np.ndarray, np.generic)):
        return type(v).__name__, str(v.dtype), np.shape(v)
    return (type(v).__name__,)


def _close(a, b, tol):
    a, b = np.asarray(unthunk(a), dtype=np.float64), np.asarray(unthunk(b), dtype=np.float64)
    return a.shape == b.shape and np.allclose(a, b, rtol=tol, atol=tol, equal_nan=True)


def _kernel_sum(x, y, b, s):
    return np.array([np.exp(-np.sum((xi - y) ** 2, axis=1) / s) @ b for xi in x])


# --------------------------------------------------------------------------------- results look like NumPy's
def test_zero_d_input_to_an_elementwise_op_gives_a_scalar_not_a_length_one_array(monkeypatch):
    """np.ascontiguousarray made the 0-d argument 1-d, so erf(np.array(1.5)) came back as shape (1,)."""
    from math import erf

    import generated.elementwise as el

    x = np.array(1.5)
    (y1, (fy1, dy1), (ry1, g1)), (y0, (fy0, dy0), (ry0, g0)) = _both(monkeypatch, lambda: (
        el.erf(x), el.erf.op.frule((ZeroTangent(), np.array(1.0)), x),
        (lambda r: (r[0], r[1](1.0)[1]))(el.erf.op.rrule(x))))
    assert _kind((y1, fy1, dy1, ry1, g1)) == _kind((y0, fy0, dy0, ry0, g0)) == (("float64", "float64", ()),) * 5
    assert abs(y1 - erf(1.5)) < 1e-15
    assert abs(g1 - 2 / np.sqrt(np.pi) * np.exp(-2.25)) < 1e-15


def test_a_scalar_output_is_a_numpy_scalar_as_on_the_numpy_path(monkeypatch):
    """logsumexp and cross_entropy returned 0-d arrays natively, NumPy scalars through NumPy (forward, frule, rrule)."""
    import generated.nn as nn

    rng = np.random.default_rng(0)
    x = rng.standard_normal(50)
    z, t = rng.standard_normal((6, 5)), rng.random((6, 5))
    for dtype in (np.float64, np.float32):
        xs, zs, ts = x.astype(dtype), z.astype(dtype), t.astype(dtype)
        got, want = _both(monkeypatch, lambda: (
            nn.logsumexp(xs), nn.logsumexp.op.frule((ZeroTangent(), np.ones_like(xs)), xs), nn.logsumexp.op.rrule(xs)[0],
            nn.cross_entropy(zs, ts), nn.cross_entropy.op.rrule(zs, ts)[0]))
        assert _kind(got) == _kind(want)
        assert type(got[0]) is np.dtype(dtype).type
        lse = np.log(np.sum(np.exp(x)))
        assert abs(got[0] - lse) <= (1e-12 if dtype == np.float64 else 1e-5) * abs(lse)


def test_the_gradient_of_a_scalar_parameter_is_a_numpy_scalar_of_the_arrays_dtype(monkeypatch):
    """d s of the kernel sum came back a Python float (float32 arrays: still a double) or a 0-d array natively;
    NumPy's np.sum gives np.float64 / np.float32."""
    import generated.nn as nn

    rng = np.random.default_rng(1)
    x, y, b, e = rng.standard_normal((30, 3)), rng.standard_normal((40, 3)), rng.standard_normal(40), \
        rng.standard_normal(30)
    for dtype in (np.float64, np.float32):
        for s in (0.7, np.array(0.7, dtype=dtype)):
            args = (x.astype(dtype), y.astype(dtype), b.astype(dtype), s)
            got, want = _both(monkeypatch, lambda: tuple(
                unthunk(g) for g in nn.gaussian_kernel_sum.op.rrule(*args)[1](e.astype(dtype))))
            assert _kind(got) == _kind(want)
            assert type(got[4]) is np.dtype(dtype).type
            # ds = Σ_ij e_i b_j K_ij d_ij / s²
            d2 = np.sum((x[:, None, :] - y[None]) ** 2, axis=2)
            ds = np.sum(e[:, None] * b[None] * np.exp(-d2 / 0.7) * d2) / 0.7 ** 2
            assert abs(got[4] - ds) <= (1e-10 if dtype == np.float64 else 1e-3) * max(1, abs(ds))


def test_pullbacks_of_ops_with_several_inputs_give_thunks_on_both_paths(monkeypatch):
    """The NumPy pullback of an op with several differentiable inputs returns one Thunk per input (a Thunk refuses
    NumPy's ufuncs: code written against native arrays broke on small calls); the native one now does too, and each
    Thunk runs only the steps its own gradient needs, when it is read."""
    import generated.masks as mk
    import generated.nn as nn

    rng = np.random.default_rng(2)
    cases = [(nn.gaussian_kernel_sum.op, (rng.standard_normal((8, 3)), rng.standard_normal((9, 3)),
                                          rng.standard_normal(9), 0.5), np.ones(8)),
             (mk.causal_attention.op, tuple(rng.standard_normal(s) for s in ((6, 3), (6, 3), (6, 2))), np.ones((6, 2))),
             (nn.logsumexp.op, (rng.standard_normal(9),), 1.0)]
    for op, args, ybar in cases:
        got, want = _both(monkeypatch, lambda: op.rrule(*args)[1](ybar))
        assert [type(g) for g in got] == [type(g) for g in want]
        assert all(_close(a, b, 1e-10) for a, b in zip(got[1:], want[1:]))
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "1")
    calls = []
    real = native._plan.Runner.run
    monkeypatch.setattr(native._plan.Runner, "run", lambda self, *a: calls.append(1) or real(self, *a))
    _, pb = nn.gaussian_kernel_sum.op.rrule(*cases[0][1])
    n = len(calls)
    g = pb(np.ones(8))
    assert isinstance(g[1], Thunk) and len(calls) == n          # nothing computed until read
    unthunk(g[1])
    assert len(calls) == n + 1                                  # the x gradient's steps only
    steps = []
    real_reduce = native.CpuRunner.step_reduce
    monkeypatch.setattr(native.CpuRunner, "step_reduce", lambda self, st, *a: steps.append(st["kernel"])
                        or real_reduce(self, st, *a))
    unthunk(pb(np.ones(8))[1])
    assert len(steps) == 1 and "_pb" in steps[0]               # one reduction: not the y, b and s ones


# ------------------------------------------------------------------------------------------ dtype promotion
def test_float32_arrays_with_a_float64_numpy_scalar_promote_as_numpy_does(monkeypatch):
    """np.float64 is a subclass of float, so covers() took it for a Python number and ran float32 kernels:
    the NumPy code promotes float32 arrays times a np.float64 (NEP 50) and returns float64."""
    import generated.nn as nn

    rng = np.random.default_rng(3)
    x, y, b = (rng.standard_normal(s).astype(np.float32) for s in ((40, 3), (50, 3), (50,)))
    s = np.float64(0.6)
    got, want = _both(monkeypatch, lambda: (
        nn.gaussian_kernel_sum(x, y, b, s),
        nn.gaussian_kernel_sum.op.frule((ZeroTangent(), x, y, b, 0.0), x, y, b, s)))
    assert _kind(got) == _kind(want)
    assert got[0].dtype == np.float64
    exact = _kernel_sum(x.astype(np.float64), y.astype(np.float64), b.astype(np.float64), 0.6)
    assert np.max(np.abs(got[0] - exact)) < 1e-6 * np.max(np.abs(exact))


def test_a_float64_cotangent_on_float32_primals_gives_a_float64_gradient(monkeypatch):
    """The native pullback cast the cotangent to float32 (softmax's gradient came back exactly 0 where NumPy has
    the float64 value); NumPy promotes it."""
    import generated.elementwise as el
    import generated.nn as nn

    rng = np.random.default_rng(4)
    x = rng.standard_normal(60).astype(np.float32)
    ybar = rng.standard_normal(60)                  # float64
    for op in (nn.softmax.op, el.gelu.op, nn.log_softmax.op):
        got, want = _both(monkeypatch, lambda: unthunk(op.rrule(x)[1](ybar)[1]))
        assert got.dtype == want.dtype == np.float64
        assert _close(got, want, 1e-12)
    # softmax by hand: dx = y ⊙ (ȳ - <ȳ, y>) with y the float32 softmax
    e = np.exp(x - x.max())
    y = (e / e.sum()).astype(np.float64)
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "1")
    assert _close(unthunk(nn.softmax.op.rrule(x)[1](ybar)[1]), y * (ybar - ybar @ y), 1e-6)


def test_a_list_cotangent_is_taken_as_on_the_numpy_path(monkeypatch):
    """A single output's cotangent given as a Python list: the native pullback once took it for one cotangent per
    output and answered wrongly. Every op now takes lists where it takes arrays (issue #28), on both paths alike:
    the list is the one output's cotangent, and both give erf's derivative times it."""
    import generated.elementwise as el

    x = np.linspace(-1, 1, 30)
    bar = np.linspace(0.5, 2.0, 30)
    want = 2 / np.sqrt(np.pi) * np.exp(-x * x) * bar
    for mode in ("1", "0"):
        monkeypatch.setenv("TENSOR_RULES_NATIVE", mode)
        got = el.erf.op.rrule(x)[1](list(bar))[1]
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12, atol=0)


# ------------------------------------------------------------------------------------ processes and compilers
def _script(tmp_path, body, env, timeout=240):
    f = tmp_path / "prog.py"
    f.write_text(textwrap.dedent(body))
    return subprocess.run([sys.executable, str(f)], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **env})


def test_a_process_forked_after_the_kernels_ran_does_not_hang(tmp_path):
    """multiprocessing's fork after a native call: the child's first OpenMP team waited forever for the parent's
    worker threads (libgomp is not fork-safe). Now the child runs its kernels on one thread."""
    res = _script(tmp_path, """
        import multiprocessing as mp, numpy as np
        import generated.nn as nn
        rng = np.random.default_rng(0)
        x, y, b = rng.standard_normal((3000, 3)), rng.standard_normal((3000, 3)), rng.standard_normal(3000)
        def f(i):
            return float(nn.gaussian_kernel_sum(x + i, y, b, 0.5).sum())
        if __name__ == "__main__":
            f(0)
            with mp.get_context("fork").Pool(2) as p:
                got = p.map(f, [0, 1])
            want = [float(sum(np.exp(-np.sum((xi + i - y) ** 2, axis=1) / 0.5) @ b for xi in x)) for i in (0, 1)]
            assert all(abs(g - w) <= 1e-9 * abs(w) for g, w in zip(got, want)), (got, want)
            print("ok")
        """, {"TENSOR_RULES_NATIVE": "1", "OMP_NUM_THREADS": "2"}, timeout=120)
    assert res.returncode == 0 and "ok" in res.stdout, res.stderr[-2000:]


def test_a_compiler_that_fails_on_the_kernels_falls_back_to_numpy_once(tmp_path):
    """A compiler that builds the probe but not a module's kernels: every op call raised the compiler error (and
    compiled again). Now: one warning, then the NumPy code; with TENSOR_RULES_NATIVE=1 (native asked for) the error."""
    cxx = tmp_path / "cxx"
    cxx.write_text('#!/bin/sh\nfor a in "$@"; do case "$a" in *.cpp) if grep -q tr_nn "$a"; then '
                   'echo "internal compiler error: planted" >&2; exit 1; fi;; esac; done\nexec g++ "$@"\n')
    cxx.chmod(0o755)
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    body = """
        import warnings, numpy as np
        import generated.nn as nn
        from runtime import native
        rng = np.random.default_rng(0)
        x, y, b = rng.standard_normal((40, 3)), rng.standard_normal((2000, 3)), rng.standard_normal(2000)
        want = np.array([np.exp(-np.sum((xi - y) ** 2, axis=1) / 0.5) @ b for xi in x])
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                got = [nn.gaussian_kernel_sum(x, y, b, 0.5) for _ in range(3)]
            except RuntimeError as exc:
                print("raised:", exc)
            else:
                assert all(np.max(np.abs(g - want)) < 1e-12 for g in got)
                print("warnings:", len([m for m in w if "planted" in str(m.message)]))
        print("compiles:", len(native.stats()["compiles"]))
        """
    auto = _script(tmp_path, body, {"CXX": str(cxx), "TENSOR_RULES_CACHE": str(cache), "TENSOR_RULES_NATIVE": "auto"})
    assert auto.returncode == 0, auto.stderr[-2000:]
    assert "warnings: 1" in auto.stdout and "compiles: 2" in auto.stdout, auto.stdout   # the probe, nn once
    forced = _script(tmp_path, body, {"CXX": str(cxx), "TENSOR_RULES_CACHE": str(cache), "TENSOR_RULES_NATIVE": "1"})
    assert "raised:" in forced.stdout and "planted" in forced.stdout, forced.stdout + forced.stderr[-2000:]


def test_a_cxx_that_is_not_a_compiler_is_named_as_such(monkeypatch, tmp_path):
    """CXX=/bin/true exits 0 and writes nothing: the reason said "No such file or directory: .../k.so"."""
    monkeypatch.setenv("CXX", "/bin/true")
    monkeypatch.setenv("TENSOR_RULES_CACHE", str(tmp_path))
    monkeypatch.setattr(native, "_LIBS", {})
    monkeypatch.setattr(native, "_PROBE", [])
    okay, reason = native.available()
    assert not okay and "wrote no shared library" in reason and "/bin/true" in reason


def test_a_kernel_function_is_typed_before_another_thread_can_call_it():
    """_Kernels.call published the ctypes function before setting its argtypes: a thread calling it in between
    passed 64-bit pointers through ctypes' default int conversion. Seen from the library: argtypes are set on
    the object before it becomes visible in the cache."""
    seen = []

    class Fn:
        def __init__(self):
            self.argtypes = None

        def __setattr__(self, key, value):
            if key in ("restype", "argtypes") and value is not None:
                seen.append(("typed", "f" in kernels._fns))
            object.__setattr__(self, key, value)

        def __call__(self, *a):
            seen.append(("called", self.argtypes is not None))

    class Lib:
        def __getitem__(self, name):
            return Fn()

        def __getattr__(self, name):
            return self[name]

    kernels = native._Kernels(Lib())
    kernels.call("f", [("p", 0), ("i64", 1)])
    assert ("typed", True) not in seen and ("called", True) in seen


# --------------------------------------------------------------------------------------------- rules of one's own
def _derive(rules_file, out):
    res = subprocess.run([sys.executable, "-m", "derive.cli", str(rules_file), "--out", str(out), "-q"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]


@pytest.mark.slow
def test_own_rules_named_like_shipped_ones_get_their_own_kernels_even_imported_under_another_name_or_reloaded(
        monkeypatch, tmp_path):
    """derive-rules FILE --out DIR writes DIR/cpu/<stem>.cpp. Before: a module loaded under another name
    (spec_from_file_location) looked for cpu/<its name>.cpp and silently ran NumPy only; a module regenerated and
    reloaded ran the kernels of its first version (the plan was cached by module name): a wrong answer."""
    import importlib.util

    rules = tmp_path / "nn.rules"
    ks = "gaussian_kernel_sum(x[i,d], y[j,d], b[j], s) -> out[i] = {} * sum(j, exp(-sum(d, (x[i,d] - y[j,d])**2) / s) * b[j])\n"
    rules.write_text(ks.format(2) + "pair_energy(x[i,d], w[j]) -> e[] = log(sum(i, j, exp(-sum(d, x[i,d]**2) * w[j])))\n")
    out = tmp_path / "out"
    _derive(rules, out)
    assert (out / "cpu" / "nn.cpp").is_file()

    from runtime import registry
    monkeypatch.setattr(registry, "_OPS", dict(registry._OPS))   # the ops it registers (logsumexp!) leave with it
    name = f"adv_own_nn_{os.getpid()}"
    spec = importlib.util.spec_from_file_location(name, out / "nn.py")
    mod = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, mod)
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "1")
    spec.loader.exec_module(mod)
    calls = []
    real = native.call
    monkeypatch.setattr(native, "call", lambda *a: calls.append(a[1]) or real(*a))
    rng = np.random.default_rng(5)
    x, xd, w = rng.standard_normal(300), rng.standard_normal((20, 3)), rng.random(15)
    import generated.nn as shipped
    ka, kb, kw = rng.standard_normal((7, 3)), rng.standard_normal((5, 3)), rng.standard_normal(5)

    def kernel(c):
        return c * np.exp(-np.sum((ka[:, None] - kb[None]) ** 2, axis=2) / 0.7) @ kw
    assert np.allclose(mod.gaussian_kernel_sum(ka, kb, kw, 0.7), kernel(2), rtol=1e-12, atol=0)
    assert np.allclose(shipped.gaussian_kernel_sum(ka, kb, kw, 0.7), kernel(1), rtol=1e-12, atol=0)  # untouched
    want = np.log(np.sum(np.exp(-np.sum(xd ** 2, axis=1)[:, None] * w[None])))
    assert abs(mod.pair_energy(xd, w) - want) < 1e-12
    assert calls.count("gaussian_kernel_sum") == 2 and "pair_energy" in calls   # own module natively, shipped too

    rules.write_text(ks.format(3))
    _derive(rules, out)
    spec.loader.exec_module(mod)                                              # what importlib.reload does
    calls.clear()
    assert np.allclose(mod.gaussian_kernel_sum(ka, kb, kw, 0.7), kernel(3), rtol=1e-12, atol=0)
    assert calls == ["gaussian_kernel_sum"]
