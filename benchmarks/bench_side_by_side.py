"""Side by side: the kernel sum's rrule + pullback (N = M = 3000, D = 3, native kernels) and gelu's (2e6 elements)
through `generated`, for one checkout given as argv[1]; run it for two checkouts, interleaved:
    for t in OLD NEW OLD NEW; do OMP_NUM_THREADS=2 python benchmarks/bench_side_by_side.py $t; done
(prints the best of 5 in ms)."""
import sys, time, numpy as np
sys.path.insert(0, sys.argv[1])
import generated, derive
assert generated.__file__.startswith(sys.argv[1])
from runtime.tangents import unthunk
rng = np.random.default_rng(0)
x = rng.standard_normal((3000, 3)); y = rng.standard_normal((3000, 3)); b = rng.standard_normal(3000); s = 2.0
v = rng.standard_normal(2_000_000)
def ks():
    out, pb = generated.gaussian_kernel_sum_rrule(x, y, b, s); [unthunk(c) for c in pb(np.ones_like(out))]
def ge():
    out, pb = generated.gelu_rrule(v) if hasattr(generated, "gelu_rrule") else (None, None)
    [unthunk(c) for c in pb(np.ones_like(out))]
def ls():
    z = rng.standard_normal((1000, 500))
    out, pb = generated.row_logsumexp_rrule(z) if hasattr(generated, "row_logsumexp_rrule") else generated.logsumexp_rrule(z)
    [unthunk(c) for c in pb(np.ones_like(out))]
for f in (ks, ge):
    f(); ts = []
    for _ in range(5):
        t = time.perf_counter(); f(); ts.append(time.perf_counter() - t)
    print(sys.argv[1], f.__name__, round(min(ts) * 1e3, 2), "ms")
