"""The Gaussian kernel sum's forward plus its gradient with respect to x: the generated op (native CPU kernels and
the NumPy code) against pykeops on the CPU, side by side in interleaved rounds (issue #15 §3).

out[i] = Σ_j exp(-|x_i - y_j|² / s) b_j, N = M = 20 000, D = 3 by default. Ours: `y, pb = op.rrule(x, y, b, s)`
then `pb(e)[1]` unthunked (the rrule computes the forward). pykeops: `Genred` of the same formula, then `Genred`
of its `Grad` with respect to x (the classic KeOps pair), backend "CPU". Before timing, the x gradients are
compared (relative to the largest entry; target ≤ 1e-9 in float64). Target: native ≥ 1.5× faster than pykeops.
`python benchmarks/bench_keops.py [--n 20000] [--repeats 5] [--markdown]` (about a minute, plus pykeops' first
compile; `--numpy` adds the NumPy code, about 5 s a round).
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _keops(dtype, d):
    from pykeops.numpy import Genred

    formula = "Exp(-SqDist(x,y)/s)*b"
    args = [f"x=Vi({d})", f"y=Vj({d})", "b=Vj(1)", "s=Pm(1)"]
    fwd = Genred(formula, args, reduction_op="Sum", axis=1, dtype=dtype)
    grad = Genred(f"Grad({formula},x,e)", args + ["e=Vi(1)"], reduction_op="Sum", axis=1, dtype=dtype)

    def run(x, y, b, s, e):
        sv = np.array([s], dtype=x.dtype)
        out = fwd(x, y, b[:, None], sv, backend="CPU")
        gx = grad(x, y, b[:, None], sv, e[:, None], backend="CPU")
        return out[:, 0], gx
    return run


def _ours(native):
    import generated.nn as nn
    from runtime.tangents import unthunk

    def run(x, y, b, s, e):
        os.environ["TENSOR_RULES_NATIVE"] = "1" if native else "0"
        out, pb = nn.gaussian_kernel_sum.op.rrule(x, y, b, s)
        return out, unthunk(pb(e)[1])
    return run


def _rel(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return float(np.max(np.abs(a - b)) / np.max(np.abs(b)))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=20_000)
    ap.add_argument("--d", type=int, default=3)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--numpy", action="store_true", help="also time the generated NumPy code")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args(argv)
    rng = np.random.default_rng(0)
    n = a.n
    base = [rng.standard_normal((n, a.d)), rng.standard_normal((n, a.d)), rng.standard_normal(n), 0.5,
            rng.standard_normal(n)]
    rows = []
    for dtype in ("float64", "float32"):
        data = [v.astype(dtype) if isinstance(v, np.ndarray) else v for v in base]
        cases = {"native": _ours(True), "pykeops": _keops(dtype, a.d)}
        if a.numpy:
            cases["numpy"] = _ours(False)
        results = {k: f(*data) for k, f in cases.items()}           # warm-up: compiles, caches
        errs = {k: (_rel(r[0], results["pykeops"][0]), _rel(r[1], results["pykeops"][1]))
                for k, r in results.items() if k != "pykeops"}
        times = {k: [] for k in cases}
        for _ in range(a.repeats):
            for k, f in cases.items():
                t0 = time.perf_counter()
                f(*data)
                times[k].append(time.perf_counter() - t0)
        med = {k: statistics.median(v) for k, v in times.items()}
        for k in cases:
            rows.append((dtype, k, med[k], med["pykeops"] / med[k], errs.get(k)))
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3]) if Path("/proc/loadavg").exists() else "n/a"
    import pykeops

    head = (f"N = M = {n}, D = {a.d}, {a.repeats} interleaved rounds, medians; pykeops {pykeops.__version__}, "
            f"{os.cpu_count()} cores ({platform.processor() or platform.machine()}), load {load}")
    print(head)
    from runtime import native

    st = native.stats()
    print(f"native kernels: compiled in this process {st['compiles']} s (first call), cache hits {st['cache_hits']}")
    if a.markdown:
        print("\n| dtype | implementation | forward + ∇ₓ s | pykeops / this | rel. diff. out, ∇ₓ vs pykeops |")
        print("|---|---|---:|---:|---|")
    for dtype, k, t, ratio, err in rows:
        e = "—" if err is None else f"{err[0]:.1e}, {err[1]:.1e}"
        if a.markdown:
            print(f"| {dtype} | {k} | {t:.3f} | {ratio:.2f} | {e} |")
        else:
            print(f"{dtype:8s} {k:8s} {t:8.3f} s  pykeops/this {ratio:5.2f}  diff {e}")
    bad = [r for r in rows if r[1] == "native" and r[0] == "float64" and not (r[4][1] <= 1e-9)]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
