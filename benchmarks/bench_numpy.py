"""Generated NumPy code: pullback cost relative to the forward, and the cost of the public wrappers.

Every op is timed two ways in the same run: through its public function in `generated` (export_ops:
arity/shape checks, dispatch) and through the raw implementation `_define(runtime.backend_numpy)` returns.
"pullback" = calling the rrule's pullback on a random cotangent and unthunking every cotangent it returns.
"""
from __future__ import annotations

import argparse
import importlib
import platform
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import runtime.backend_numpy as backend_numpy  # noqa: E402
from runtime.tangents import unthunk  # noqa: E402


@dataclass
class Case:
    label: str
    module: str     # generated.<module>
    op: str
    make_args: callable
    target: float   # pullback/forward must not exceed this
    times: dict = field(default_factory=dict)  # variant -> median seconds


def _rng():
    return np.random.default_rng(0)


def _matmul_args(n, dtype):
    def make():
        r = _rng()
        return (r.standard_normal((n, n)).astype(dtype), r.standard_normal((n, n)).astype(dtype))
    return make


def _inv_args(n):
    def make():
        r = _rng()
        return (r.standard_normal((n, n)) + n ** 0.5 * np.eye(n),)  # well conditioned
    return make


def _dense_args(batch, n_in, n_out):
    def make():
        r = _rng()
        return (r.standard_normal((n_out, n_in)) / n_in ** 0.5, r.standard_normal((batch, n_in)),
                r.standard_normal(n_out))
    return make


def _vec_args(n):
    def make():
        return (_rng().standard_normal(n),)
    return make


def cases(scale=1.0) -> list[Case]:
    n_mm, n_inv, n_el = max(8, int(1024 * scale)), max(8, int(512 * scale)), max(8, int(10 ** 6 * scale))
    return [
        Case(f"matmul n={n_mm} float64", "linalg", "matmul", _matmul_args(n_mm, np.float64), 2.2),
        Case(f"matmul n={n_mm} float32", "linalg", "matmul", _matmul_args(n_mm, np.float32), 2.2),
        Case(f"inv n={n_inv}", "linalg", "inv", _inv_args(n_inv), 2.5),
        Case("dense 256x512->512", "nn", "dense", _dense_args(256, 512, 512), 3.0),
        Case(f"tanh 1e{int(np.log10(n_el))}", "elementwise", "tanh", _vec_args(n_el), 3.0),
        Case(f"sigmoid 1e{int(np.log10(n_el))}", "elementwise", "sigmoid", _vec_args(n_el), 3.0),
        Case(f"gelu 1e{int(np.log10(n_el))}", "elementwise", "gelu", _vec_args(n_el), 3.0),
    ]


def _variants(case: Case) -> dict:
    """The callables to time for one case, keyed by variant name."""
    mod = importlib.import_module(f"generated.{case.module}")
    raw = mod._define(backend_numpy)
    impls = {
        "public": (getattr(mod, case.op), getattr(mod, case.op + "_rrule")),
        "raw": (raw[case.op], raw[case.op + "_rrule"]),
    }
    args = case.make_args()
    out = {}
    for kind, (fwd, rrule) in impls.items():
        y, pb = rrule(*args)
        dy = _rng().standard_normal(np.shape(y)).astype(np.result_type(y))

        def pullback(pb=pb, dy=dy):
            for c in pb(dy):
                unthunk(c)

        out[f"{kind}_fwd"] = (lambda f=fwd: f(*args))
        out[f"{kind}_rrule"] = (lambda r=rrule: r(*args))
        out[f"{kind}_pb"] = pullback
    if case.op == "matmul":
        a, b = args
        out["numpy_matmul"] = lambda: a @ b
    return out


def time_interleaved(fns: dict, repeats: int, warmup: int) -> dict:
    """Median seconds per callable; each round times every callable once, so drifting load hits all alike."""
    for _ in range(warmup):
        for f in fns.values():
            f()
    samples = {k: [] for k in fns}
    for _ in range(repeats):
        for k, f in fns.items():
            t0 = time.perf_counter()
            f()
            samples[k].append(time.perf_counter() - t0)
    return {k: statistics.median(v) for k, v in samples.items()}


def per_call_overhead(repeats: int) -> dict:
    """Per-call cost (µs) on tiny inputs, where the wrapper, not the arithmetic, dominates."""
    import generated.linalg as lin
    raw = lin._define(backend_numpy)
    a, b = _matmul_args(4, np.float64)()
    y, pb_pub = lin.matmul_rrule(a, b)
    _, pb_raw = raw["matmul_rrule"](a, b)
    dy = np.ones_like(y)
    fns = {
        "A @ B": lambda: a @ b,
        "raw matmul": lambda: raw["matmul"](a, b),
        "public matmul": lambda: lin.matmul(a, b),
        "raw matmul_rrule": lambda: raw["matmul_rrule"](a, b),
        "public matmul_rrule": lambda: lin.matmul_rrule(a, b),
        "raw pullback+unthunk": lambda: [unthunk(c) for c in pb_raw(dy)],
        "public pullback+unthunk": lambda: [unthunk(c) for c in pb_pub(dy)],
    }
    loops = 2000
    samples = {k: [] for k in fns}
    for _ in range(repeats):
        for k, f in fns.items():
            t0 = time.perf_counter()
            for _ in range(loops):
                f()
            samples[k].append((time.perf_counter() - t0) / loops * 1e6)
    return {k: statistics.median(v) for k, v in samples.items()}


def run(repeats: int, warmup: int, scale: float):
    all_cases = cases(scale)
    for c in all_cases:
        c.times = time_interleaved(_variants(c), repeats, warmup)
    return all_cases, per_call_overhead(max(5, repeats // 2))


def _ratios(t, kind):
    fwd, rr, pb = t[f"{kind}_fwd"], t[f"{kind}_rrule"], t[f"{kind}_pb"]
    return fwd, rr, pb, (rr + pb) / fwd, pb / fwd


def print_table(all_cases, overhead, repeats):
    print(f"NumPy {np.__version__}, median of {repeats} interleaved rounds; times in ms")
    hdr = f"{'case':24} {'impl':6} {'fwd':>8} {'rrule':>8} {'pullbk':>8} {'(rr+pb)/f':>9} {'pb/f':>6} {'target':>7} met"
    print(hdr)
    for c in all_cases:
        for kind in ("public", "raw"):
            fwd, rr, pb, tot, pbf = _ratios(c.times, kind)
            met = "yes" if pbf <= c.target else "NO"
            print(f"{c.label:24} {kind:6} {fwd*1e3:8.3f} {rr*1e3:8.3f} {pb*1e3:8.3f} {tot:9.2f} {pbf:6.2f} "
                  f"{'<= ' + format(c.target, 'g'):>7} {met}")
    print()
    print("generated matmul forward vs `A @ B` (target <= 1.1x)")
    for c in all_cases:
        if c.op == "matmul":
            t = c.times
            print(f"  {c.label:24} public {t['public_fwd'] / t['numpy_matmul']:.3f}x   raw "
                  f"{t['raw_fwd'] / t['numpy_matmul']:.3f}x   (A @ B {t['numpy_matmul']*1e3:.2f} ms)")
    print()
    print("wrapper overhead: public / raw forward")
    for c in all_cases:
        print(f"  {c.label:24} {c.times['public_fwd'] / c.times['raw_fwd']:.3f}x")
    print()
    print("per-call cost on 4x4 matmul (µs; what the wrapper adds to every call)")
    for k, v in overhead.items():
        print(f"  {k:26} {v:8.2f}")


def print_markdown(all_cases, overhead, repeats):
    print(f"Median of {repeats} interleaved rounds; times in ms; pullback = pullback(dy) + unthunk of every "
          "cotangent.\n")
    print("| case | impl | forward | rrule forward | pullback | (rrule+pullback)/forward | pullback/forward "
          "| target | met |")
    print("|---|---|---:|---:|---:|---:|---:|---|---|")
    for c in all_cases:
        for kind in ("public", "raw"):
            fwd, rr, pb, tot, pbf = _ratios(c.times, kind)
            met = "yes" if pbf <= c.target else "**no**"
            print(f"| {c.label} | {kind} | {fwd*1e3:.3f} | {rr*1e3:.3f} | {pb*1e3:.3f} | {tot:.2f} | {pbf:.2f} "
                  f"| ≤ {c.target:g} | {met} |")
    print("\n| matmul forward vs `A @ B` | `A @ B` ms | public / `A @ B` | raw / `A @ B` | target | met |")
    print("|---|---:|---:|---:|---|---|")
    for c in all_cases:
        if c.op == "matmul":
            t = c.times
            r = t["public_fwd"] / t["numpy_matmul"]
            print(f"| {c.label} | {t['numpy_matmul']*1e3:.2f} | {r:.3f} | {t['raw_fwd'] / t['numpy_matmul']:.3f} "
                  f"| ≤ 1.1 | {'yes' if r <= 1.1 else '**no**'} |")
    print("\n| per-call cost, 4×4 matmul | µs |")
    print("|---|---:|")
    for k, v in overhead.items():
        print(f"| {k} | {v:.2f} |")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=15, help="interleaved rounds; medians reported (default 15)")
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--scale", type=float, default=1.0, help="shrink the problem sizes (smoke test: 0.1)")
    ap.add_argument("--markdown", action="store_true", help="also print markdown tables for RESULTS.md")
    args = ap.parse_args(argv)
    print(f"python {platform.python_version()}, numpy {np.__version__}")
    all_cases, overhead = run(args.repeats, args.warmup, args.scale)
    print_table(all_cases, overhead, args.repeats)
    if args.markdown:
        print()
        print_markdown(all_cases, overhead, args.repeats)
    ok = all(_ratios(c.times, "public")[4] <= c.target for c in all_cases)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
