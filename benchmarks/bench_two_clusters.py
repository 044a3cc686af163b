"""The Gaussian kernel sum's generated NumPy code (forward, and rrule + every cotangent) of two checkouts side by
side in one process, rounds interleaved: a cloud around the origin and two clusters 1e3 apart (float64), at
D = 3 (checked_sum's direct form) and D = 64 (the expansion, entries it cannot vouch for recomputed), with each
value's error against a direct np.longdouble reference.

    OMP_NUM_THREADS=2 python benchmarks/bench_two_clusters.py OLD_CHECKOUT NEW_CHECKOUT [N] [ROUNDS]

Both modules run on the runtime of the first checkout on sys.path (NEW's: a superset). Prints the best time of
ROUNDS (default 3) per case in seconds, the ratio new/old, and the relative errors of the values.
"""
import os
import sys
import time
from pathlib import Path

import numpy as np

os.environ.setdefault("TENSOR_RULES_NATIVE", "0")
OLD, NEW = sys.argv[1], sys.argv[2]
N = int(sys.argv[3]) if len(sys.argv) > 3 else 3000
ROUNDS = int(sys.argv[4]) if len(sys.argv) > 4 else 3
sys.path.insert(0, NEW)
from runtime import backend_numpy  # noqa: E402
from runtime.tangents import unthunk  # noqa: E402


def ops(checkout):
    """The nn module's ops over NumPy, from the file's text (not imported: two copies would register twice)."""
    text = (Path(checkout) / "generated" / "nn.py").read_text()
    text = text[:text.rindex("globals().update(export_ops(")]
    scope = {"__name__": f"bench_nn_{abs(hash(checkout))}"}
    exec(compile(text, "nn.py", "exec"), scope)
    return scope["_define"](backend_numpy)


def data(kind, d, rng):
    x, y = rng.standard_normal((N, d)), rng.standard_normal((N, d))
    if kind == "clusters":
        x[::2] += 1e3
        y[::2] += 1e3
    return x, y, rng.standard_normal(N), float(2 * d)


def reference(x, y, b, s, rows=200):
    X, Y, B = (np.asarray(v, np.longdouble) for v in (x[:rows], y, b))
    d2 = np.sum((X[:, None, :] - Y[None, :, :]) ** 2, axis=-1)
    return np.exp(-d2 / s) @ B


def best(f):
    ts = []
    for _ in range(ROUNDS):
        t = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t)
    return min(ts)


def main():
    impl = {"old": ops(OLD), "new": ops(NEW)}
    rng = np.random.default_rng(0)
    print(f"N = M = {N}, best of {ROUNDS}, OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS')}")
    for kind in ("cloud", "clusters"):
        for d in (3, 64):
            args = data(kind, d, rng)
            want = reference(*args)
            row = {}
            for name in ("old", "new", "old", "new"):          # interleaved: load changes hit both
                g = impl[name]
                fwd = best(lambda: g["gaussian_kernel_sum"](*args))

                def grad():
                    out, pb = g["gaussian_kernel_sum_rrule"](*args)
                    [unthunk(c) for c in pb(np.ones_like(out))]
                gr = best(grad)
                prev = row.get(name, (np.inf, np.inf))
                row[name] = (min(prev[0], fwd), min(prev[1], gr))
            err = {n: float(np.max(np.abs(impl[n]["gaussian_kernel_sum"](*args)[:len(want)] - want))
                            / np.max(np.abs(want))) for n in ("old", "new")}
            (fo, go), (fn, gn) = row["old"], row["new"]
            print(f"{kind:8s} D={d:3d}  forward old {fo:.3f} s new {fn:.3f} s ({fn / fo:.2f}x)   "
                  f"gradient old {go:.3f} s new {gn:.3f} s ({gn / go:.2f}x)   "
                  f"error old {err['old']:.1e} new {err['new']:.1e}")


main()
