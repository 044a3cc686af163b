"""Generated NumPy ops with runtime.contract's pairwise einsum against plain np.einsum, side by side in one run.

Each op's module is built twice from its `_define`: once with runtime.backend_numpy as shipped (einsum =
runtime.contract.einsum) and once with a namespace whose einsum is np.einsum(optimize=True); interleaved
rounds, medians of forward + rrule + pullback, and their ratio (below 1: contract is faster).
`python benchmarks/bench_contract.py [--repeats 9]`
"""
from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
import types
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import runtime.backend_numpy as backend_numpy  # noqa: E402
from runtime.tangents import unthunk  # noqa: E402

CASES = [  # (module, op, input shapes), float64 unless noted
    ("linalg", "matmul", [(256, 256), (256, 256)]),
    ("nn", "dense", [(64, 512), (256, 512), (64,)]),
    ("linalg", "mahalanobis", [(200,), (200, 200)]),
    ("batched", "bmm", [(64, 32, 32), (64, 32, 32)]),
    ("conv", "conv2d_batch", [(16, 32, 32, 32), (32, 32, 3, 3)]),
]


def plain_namespace():
    ns = types.ModuleType("plain_backend")
    ns.__dict__.update(backend_numpy.__dict__)
    ns.einsum = lambda s, *ops, **kw: np.einsum(s, *ops, **{"optimize": True, **kw})
    return ns


def one_round(fns, name, args):
    t0 = time.perf_counter()
    fns[name](*args)
    y, pb = fns[name + "_rrule"](*args)
    g = np.ones_like(np.asarray(y if not isinstance(y, tuple) else y[0]))
    for c in pb(g if not isinstance(y, tuple) else tuple(np.ones_like(v) for v in y)):
        unthunk(c)
    return time.perf_counter() - t0


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=9)
    a = ap.parse_args(argv)
    rng = np.random.default_rng(0)
    plain = plain_namespace()
    print(f"{'op':<16}{'contract':>12}{'np.einsum':>12}{'ratio':>8}")
    for module, op, shapes in CASES:
        mod = importlib.import_module(f"generated.{module}")
        ours, theirs = mod._define(backend_numpy), mod._define(plain)
        args = [rng.normal(size=s) for s in shapes]
        if op == "mahalanobis":
            args[1] = args[1] @ args[1].T + 200 * np.eye(200)
        if op == "conv2d_batch":
            args = [x.astype(np.float32) for x in args]
        t_o, t_p = [], []
        for _ in range(2):
            one_round(ours, op, args), one_round(theirs, op, args)
        for _ in range(a.repeats):
            t_o.append(one_round(ours, op, args))
            t_p.append(one_round(theirs, op, args))
        mo, mp = statistics.median(t_o), statistics.median(t_p)
        print(f"{op:<16}{mo * 1e3:>10.2f}ms{mp * 1e3:>10.2f}ms{mo / mp:>7.2f}x")


if __name__ == "__main__":
    main()
