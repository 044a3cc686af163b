"""conv2d forward + backward: the generated rule (rules/conv.rules: conv2d_batch) against torch.nn.functional.conv2d
on the CPU, in one run, interleaved rounds, medians and their ratio.

Batch 16, 32 -> 32 channels, 32×32 input, 3×3 kernel, float32, no padding (both "valid"). One round of ours is
`y, pb = conv2d_batch_rrule(x, K)` then both cotangents of `pb(g)` unthunked; one round of torch is the forward
with autograd on and `y.backward(g)`. Target: ours ≤ 2× torch.

The generated code runs as shipped: with a C++ compiler, the window contractions go to runtime/contract_native.cpp
(read in place, no im2col copy) and the input cotangent is a gather over the padded cotangent. The same rounds also
time it with TENSOR_RULES_NATIVE=0 (copies and NumPy's BLAS), for comparison; the target applies to the default.

Threads matter more than anything else on a shared machine: with both libraries' default thread pools and other
jobs running, torch's threads wait on each other and its time can grow thirtyfold, so compare single-threaded
(`OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1`, set before Python starts) unless the machine is idle.
The load average is printed with the result.
`python benchmarks/bench_conv.py [--repeats 7] [--batch 16] [--channels 32] [--size 32] [--markdown]`
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--channels", type=int, default=32)
    ap.add_argument("--size", type=int, default=32)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)

    import torch

    import generated.conv as G
    from runtime.tangents import unthunk

    rng = np.random.default_rng(0)
    n, c, s = args.batch, args.channels, args.size
    x = rng.standard_normal((n, c, s, s)).astype(np.float32)
    K = (rng.standard_normal((c, c, 3, 3)) / 17).astype(np.float32)
    g = rng.standard_normal((n, c, s - 2, s - 2)).astype(np.float32)
    X, KK, Gt = torch.from_numpy(x), torch.from_numpy(K), torch.from_numpy(g)

    phases = {"forward (rrule)": [], "x cotangent": [], "K cotangent": []}

    def ours():
        t0 = time.perf_counter()
        y, pb = G.conv2d_batch_rrule(x, K)
        t1 = time.perf_counter()
        _, dx, dK = pb(g)
        dx = unthunk(dx)
        t2 = time.perf_counter()
        dK = unthunk(dK)
        for k, t in zip(phases, (t1 - t0, t2 - t1, time.perf_counter() - t2)):
            phases[k].append(t)
        return y, dx, dK

    def theirs():
        Xr = X.clone().requires_grad_(True)
        Kr = KK.clone().requires_grad_(True)
        y = torch.nn.functional.conv2d(Xr, Kr)
        y.backward(Gt)
        return y, Xr.grad, Kr.grad

    # the same numbers first (float32 sums in a different order: relative 1e-4)
    a, b = ours(), theirs()
    for u, v, what in zip(a, b, ("y", "dx", "dK")):
        v = v.detach().numpy()
        err = float(np.max(np.abs(u - v)) / np.max(np.abs(v)))
        if err > 1e-4 or u.dtype != np.float32:
            raise SystemExit(f"{what} differs from torch: relative {err:.2e}, dtype {u.dtype}")

    def numpy_only():
        os.environ["TENSOR_RULES_NATIVE"] = "0"
        try:
            t0 = time.perf_counter()
            y, pb = G.conv2d_batch_rrule(x, K)
            _, dx, dK = pb(g)
            unthunk(dx), unthunk(dK)
            return time.perf_counter() - t0
        finally:
            if native_env is None:
                os.environ.pop("TENSOR_RULES_NATIVE", None)
            else:
                os.environ["TENSOR_RULES_NATIVE"] = native_env

    native_env = os.environ.get("TENSOR_RULES_NATIVE")
    times = {"ours": [], "torch": [], "numpy": []}
    for _ in range(args.repeats):          # interleaved: a load change on the shared machine hits both
        for name, f in (("ours", ours), ("torch", theirs)):
            t0 = time.perf_counter()
            f()
            times[name].append(time.perf_counter() - t0)
        times["numpy"].append(numpy_only())
    med = {k: statistics.median(v) for k, v in times.items()}
    parts = ", ".join(f"{k} {statistics.median(v[-args.repeats:]) * 1e3:.1f} ms" for k, v in phases.items())
    ratio = med["ours"] / med["torch"]
    head = (f"conv2d forward+backward, batch {n}, {c}->{c} channels, {s}x{s}, 3x3, float32, "
            f"torch {torch.__version__} CPU ({torch.get_num_threads()} threads; OMP_NUM_THREADS="
            f"{os.environ.get('OMP_NUM_THREADS', 'unset')}), {args.repeats} rounds, medians, load average "
            f"{os.getloadavg()[0]:.1f}")
    rows = [("generated conv2d_batch (rrule + pullback)", med["ours"]), ("torch conv2d (forward + backward)",
                                                                           med["torch"]),
            ("generated, TENSOR_RULES_NATIVE=0", med["numpy"])]
    if args.markdown:
        print(f"{head}\n\n| | ms |\n|---|---:|")
        for name, t in rows:
            print(f"| {name} | {t * 1e3:.1f} |")
        print(f"| ratio generated / torch | {ratio:.2f}× (target ≤ 2×) |")
        print(f"\nGenerated, by phase (medians): {parts}.")
    else:
        print(head)
        for name, t in rows:
            print(f"  {name:45s} {t * 1e3:8.1f} ms")
        print(f"  {'ratio generated / torch':45s} {ratio:8.2f}x  (target <= 2x)")
        print(f"  generated, by phase (medians): {parts}")
    return 0 if ratio <= 2 else 1


if __name__ == "__main__":
    sys.exit(main())
