"""GPU measurements of the generated CUDA kernels (generated/cuda/), printed as ratios to a reference.

  elementwise and reduction kernels at 1e8 float32 elements vs a device-to-device copy (effective bandwidth);
  the Gaussian kernel sum, forward + gradient, N = M = 1e5, D = 3, float32 vs PyTorch eager (chunked: its
  N×M matrix would not fit); the matmul-class kernels at 4096² float32 vs torch.matmul (TF32 off).

Needs a CUDA GPU, PyCUDA and (for the PyTorch comparisons) torch; without them it says so and exits 0.
    python benchmarks/bench_gpu.py [--quick]
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _setup():
    """(pycuda driver, gpuarray, torch or None) sharing the primary context of device 0, or None with why."""
    from runtime import cuda as rc

    ok, why = rc.available()
    if not ok:
        return None, why
    try:
        import torch
        if not torch.cuda.is_available():
            torch = None
        else:
            torch.cuda.init()
            torch.backends.cuda.matmul.allow_tf32 = False
            torch.backends.cudnn.allow_tf32 = False
    except ImportError:
        torch = None
    import atexit

    import pycuda.driver as drv
    from pycuda import gpuarray

    drv.init()
    if drv.Context.get_current() is None:
        ctx = drv.Device(0).retain_primary_context()   # the context torch uses too
        ctx.push()
        atexit.register(ctx.pop)
    return (drv, gpuarray, torch), ""


def _time_ms(drv, fn, reps, warmup=2):
    """Median milliseconds of fn() between CUDA events (the work is on the default stream)."""
    for _ in range(warmup):
        fn()
    drv.Context.synchronize()
    out = []
    for _ in range(reps):
        a, b = drv.Event(), drv.Event()
        a.record()
        fn()
        b.record()
        b.synchronize()
        out.append(a.time_till(b))
    return statistics.median(out)


def _time_torch_ms(torch, fn, reps, warmup=2):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    out = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        out.append(a.elapsed_time(b))
    return statistics.median(out)


def _row(what, ms, ref_ms, ref_name, note=""):
    print(f"  {what:<44} {ms:9.3f} ms   {ref_name} {ref_ms:9.3f} ms   ratio {ms / ref_ms:6.2f}  {note}")


def bench_bandwidth(drv, gpuarray, n, reps):
    from runtime import cuda as rc

    print(f"\nelementwise and reduction kernels, {n:.0e} float32 elements (ratio: time / time of a copy moving the "
          f"same bytes)")
    rng = np.random.default_rng(0)
    x = gpuarray.to_gpu(rng.standard_normal(n).astype(np.float32))
    g = gpuarray.to_gpu(rng.standard_normal(n).astype(np.float32))
    y = gpuarray.empty_like(x)
    copy_ms = _time_ms(drv, lambda: drv.memcpy_dtod(y.gpudata, x.gpudata, x.nbytes), reps)
    per_byte = copy_ms / (2 * x.nbytes)             # a copy reads and writes every byte once
    print(f"  device-to-device copy: {copy_ms:.3f} ms = {2 * x.nbytes / copy_ms / 1e6:.0f} GB/s")

    def run(label, fn, bytes_moved):
        ms = _time_ms(drv, fn, reps)
        _row(label, ms, per_byte * bytes_moved, "copy", f"{bytes_moved / ms / 1e6:.0f} GB/s")

    B = x.nbytes
    run("tanh forward (y = tanh x)", lambda: rc.dispatch("generated.elementwise", "tanh", "forward", (x,)), 2 * B)
    _, pb = rc.dispatch("generated.elementwise", "tanh", "rrule", (x,))
    run("tanh pullback (x̄ = (1 - y²)·ȳ)", lambda: pb(g), 3 * B)
    run("gelu forward", lambda: rc.dispatch("generated.elementwise", "gelu", "forward", (x,)), 2 * B)
    run("sum forward (Σ x, one scalar)", lambda: rc.dispatch("generated.nn", "sum", "forward", (x,)), B)
    run("logsumexp forward (two reductions + log)", lambda: rc.dispatch("generated.nn", "logsumexp", "forward", (x,)),
        B)


def bench_kernel_sum(drv, gpuarray, torch, n, m, d, reps):
    from runtime import cuda as rc

    print(f"\nGaussian kernel sum, N = {n:.0e}, M = {m:.0e}, D = {d}, float32: forward, and forward + gradient "
          f"(all four inputs)")
    rng = np.random.default_rng(1)
    xs = rng.standard_normal((n, d)).astype(np.float32)
    ys = rng.standard_normal((m, d)).astype(np.float32)
    bs = rng.standard_normal(m).astype(np.float32)
    s = 0.7
    x, y, b = (gpuarray.to_gpu(a) for a in (xs, ys, bs))
    ones = gpuarray.to_gpu(np.ones(n, np.float32))
    op = "gaussian_kernel_sum"

    def ours_fwd():
        return rc.dispatch("generated.nn", op, "forward", (x, y, b, s))

    def ours_grad():
        out, pb = rc.dispatch("generated.nn", op, "rrule", (x, y, b, s))
        return pb(ones)

    f_ms = _time_ms(drv, ours_fwd, reps)
    g_ms = _time_ms(drv, ours_grad, reps)
    if torch is None:
        print(f"  ours: forward {f_ms:.2f} ms, forward + gradient {g_ms:.2f} ms (no torch to compare with)")
        return
    tx, ty, tb = (torch.tensor(a, device="cuda") for a in (xs, ys, bs))
    ts = torch.tensor(s, device="cuda")
    chunk = max(1, min(n, (2 << 30) // (4 * m)))    # ≈2 GiB per N×M block (eager needs a few of them at once)

    def torch_fwd():
        with torch.no_grad():
            return torch.cat([(torch.exp(-((tx[i:i + chunk, None, :] - ty[None]) ** 2).sum(-1) / ts) @ tb)
                              for i in range(0, n, chunk)])

    def torch_grad():
        px, py, pb_, ps = (t.detach().requires_grad_() for t in (tx, ty, tb, ts))
        for i in range(0, n, chunk):               # each block's graph is freed before the next
            k = torch.exp(-((px[i:i + chunk, None, :] - py[None]) ** 2).sum(-1) / ps)
            (k @ pb_).sum().backward()
        return px.grad, py.grad, pb_.grad, ps.grad

    tf = _time_torch_ms(torch, torch_fwd, max(1, reps // 2), warmup=1)
    tg = _time_torch_ms(torch, torch_grad, max(1, reps // 2), warmup=1)
    _row("forward", f_ms, tf, "torch", f"(torch in row blocks of {chunk})")
    _row("forward + gradient", g_ms, tg, "torch")


def bench_matmul(drv, gpuarray, torch, n, reps):
    from runtime import cuda as rc

    print(f"\nmatmul-class kernels, {n}x{n} float32 (the generic tiled kernel; torch.matmul with TF32 off)")
    rng = np.random.default_rng(2)
    As, Bs, Gs = (rng.standard_normal((n, n)).astype(np.float32) for _ in range(3))
    A, B, G = (gpuarray.to_gpu(a) for a in (As, Bs, Gs))
    flops = 2.0 * n ** 3
    fwd = _time_ms(drv, lambda: rc.dispatch("generated.linalg", "matmul", "forward", (A, B)), reps)
    _, pb = rc.dispatch("generated.linalg", "matmul", "rrule", (A, B))
    pull = _time_ms(drv, lambda: pb(G), reps)      # Ā = Ḡ·Bᵀ and B̄ = Aᵀ·Ḡ: strided operands, no transposes
    bsz = 8
    Ab = gpuarray.to_gpu(rng.standard_normal((n // 4, n // 4, bsz)).astype(np.float32))
    Bb = gpuarray.to_gpu(rng.standard_normal((n // 4, n // 4, bsz)).astype(np.float32))
    bmm = _time_ms(drv, lambda: rc.dispatch("generated.batched", "bmm", "forward", (Ab, Bb)), reps)
    bflops = 2.0 * (n // 4) ** 3 * bsz
    if torch is None:
        print(f"  ours: C = A·B {fwd:.2f} ms ({flops / fwd / 1e9:.1f} TFLOP/s); pullback {pull:.2f} ms; "
              f"batched (last-axis batch) {bmm:.2f} ms (no torch to compare with)")
        return
    tA, tB, tG = (torch.tensor(a, device="cuda") for a in (As, Bs, Gs))
    tf = _time_torch_ms(torch, lambda: tA @ tB, reps)
    tp = _time_torch_ms(torch, lambda: (tG @ tB.T, tA.T @ tG), reps)
    tAb = torch.tensor(Ab.get(), device="cuda")
    tBb = torch.tensor(Bb.get(), device="cuda")
    # the same layout contract: batch last; torch needs it first, so the permutes count as part of its work
    tb = _time_torch_ms(torch, lambda: torch.bmm(tAb.permute(2, 0, 1), tBb.permute(2, 0, 1)).permute(1, 2, 0)
                        .contiguous(), reps)
    _row("C = A·B", fwd, tf, "torch", f"{flops / fwd / 1e9:.1f} vs {flops / tf / 1e9:.1f} TFLOP/s")
    _row("pullback (Ā = C̄·Bᵀ, B̄ = Aᵀ·C̄)", pull, tp, "torch")
    _row(f"batched {n // 4}² x {bsz}, batch axis last", bmm, tb, "torch", f"{bflops / bmm / 1e9:.1f} TFLOP/s")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller sizes and fewer repetitions")
    args = ap.parse_args(argv)
    env, why = _setup()
    if env is None:
        print(f"bench_gpu: skipped: {why}")
        return 0
    drv, gpuarray, torch = env
    dev = drv.Context.get_device()
    print(f"device: {dev.name()}  (sm_{''.join(map(str, dev.compute_capability()))}); "
          f"torch: {torch.__version__ if torch else 'not available'}")
    reps = 3 if args.quick else 10
    print("first calls compile the kernels (cached on disk afterwards)")
    bench_bandwidth(drv, gpuarray, 10 ** 7 if args.quick else 10 ** 8, reps)
    n = 10 ** 4 if args.quick else 10 ** 5
    bench_kernel_sum(drv, gpuarray, torch, n, n, 3, reps)
    bench_matmul(drv, gpuarray, torch, 1024 if args.quick else 4096, reps)
    return 0


if __name__ == "__main__":
    sys.exit(main())
