"""The derived rules inside PyTorch and JAX (runtime.torch, runtime.jax) against the frameworks' native ops.

Three measurements, each side by side in one process with interleaved rounds and medians (issue #14 §5):

1. per-op overhead on small tensors: a derived op of `runtime.torch` against the native torch op: inference
   (no input requires grad), forward alone (inputs requiring grad, so an autograd node is recorded) and
   forward + backward. Target ≤ 1.5×.
2. an MLP training step, width 512, batch 256, float32: tanh(W1·x + c1) (the shipped `dense`), W2·h + c2
   (`linear`), mean squared error (`mse`), backward, SGD update; the same model written with torch's native
   ops. Target ≤ 1.2×.
3. `jax.jit(jax.value_and_grad(loss))` of that MLP built from `runtime.jax` ops against the same in native
   jax.numpy. Target ≤ 1.1×.

    PYTHONPATH=$PWD python benchmarks/bench_frameworks.py [--rounds 15] [--markdown] [--only op|mlp_torch|mlp_jax]

Threads are left as the frameworks set them; both sides of each ratio run under the same settings.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TARGETS = {"op": 1.5, "mlp_torch": 1.2, "mlp_jax": 1.1}


def _timed(fn, inner):
    t = time.perf_counter()
    for _ in range(inner):
        fn()
    return (time.perf_counter() - t) / inner


def side_by_side(cases, rounds, inner):
    """{name: median seconds per call} for callables timed in interleaved rounds after a warm-up."""
    for fn in cases.values():
        fn()
        fn()
    times = {k: [] for k in cases}
    for _ in range(rounds):
        for k, fn in cases.items():
            times[k].append(_timed(fn, inner))
    return {k: statistics.median(v) for k, v in times.items()}


# -- 1. per-op overhead --------------------------------------------------------------------------------------
def torch_ops(rounds):
    import torch

    import runtime.torch as rt

    torch.manual_seed(0)
    g = dict(dtype=torch.float32)
    rows = []

    def case(name, derived, native, args):
        plain = [a.detach().clone() for a in args]
        args = [a.detach().clone().requires_grad_(a.is_floating_point()) for a in args]

        def inference(f):
            return lambda: f(*plain)

        def fwd(f):
            return lambda: f(*args)

        def fwd_bwd(f):
            def run():
                out = f(*args)
                grads = torch.autograd.grad(out.sum(), [a for a in args if a.requires_grad])
                return grads
            return run

        for mode, wrap in (("inference", inference), ("forward", fwd), ("forward+backward", fwd_bwd)):
            med = side_by_side({"derived": wrap(derived), "native": wrap(native)}, rounds, 200)
            rows.append((f"{name} {mode}", med["derived"] * 1e6, med["native"] * 1e6,
                         med["derived"] / med["native"]))

    W, x, c = torch.randn(64, 64, **g), torch.randn(32, 64, **g), torch.randn(64, **g)
    case("linear 32×64→64", rt.linear, lambda W, x, c: torch.nn.functional.linear(x, W, c), [W, x, c])
    case("dense 32×64→64", rt.dense, lambda W, x, c: torch.tanh(torch.nn.functional.linear(x, W, c)), [W, x, c])
    v = torch.randn(256, **g)
    case("softmax 256", rt.softmax, lambda v: torch.softmax(v, 0), [v])
    case("logsumexp 256", rt.logsumexp, lambda v: torch.logsumexp(v, 0), [v])
    A = torch.randn(8, 8, **g) + 8 * torch.eye(8, **g)
    case("inv 8×8", rt.inv, torch.linalg.inv, [A])
    # the floor any custom op pays: the cheapest hand-written autograd.Function computing a matmul and its
    # two cotangents, against the derived matmul and against `@`
    P, Q = torch.randn(64, 64, **g), torch.randn(64, 64, **g)
    case("matmul 64×64", rt.matmul, torch.matmul, [P, Q])

    class HandMatmul(torch.autograd.Function):
        """What a user writes by hand: forward and backward, ctx style (no torch.func support)."""

        @staticmethod
        def forward(ctx, A, B):
            ctx.save_for_backward(A, B)
            return A @ B

        @staticmethod
        def backward(ctx, g):
            A, B = ctx.saved_tensors
            return g @ B.T, A.T @ g

    case("hand-written Function matmul 64×64", HandMatmul.apply, torch.matmul, [P, Q])
    return rows




# -- 2. MLP training step in torch -----------------------------------------------------------------------------
def torch_mlp(rounds, width=512, batch=256):
    import torch

    import runtime.torch as rt

    torch.manual_seed(0)
    g = dict(dtype=torch.float32)
    x, t = torch.randn(batch, width, **g), torch.randn(batch, width, **g)

    def params():
        s = width ** -0.5
        return [(s * torch.randn(width, width, **g)).requires_grad_(), torch.zeros(width, **g).requires_grad_(),
                (s * torch.randn(width, width, **g)).requires_grad_(), torch.zeros(width, **g).requires_grad_()]

    def step(loss, ps, lr=1e-3):
        def run():
            L = loss(*ps)
            gs = torch.autograd.grad(L, ps)
            with torch.no_grad():
                for p, g_ in zip(ps, gs):
                    p -= lr * g_
            return L
        return run

    def derived(W1, c1, W2, c2):
        return rt.mse(rt.linear(W2, rt.dense(W1, x, c1), c2), t)

    def native(W1, c1, W2, c2):
        h = torch.tanh(torch.nn.functional.linear(x, W1, c1))
        return torch.nn.functional.mse_loss(torch.nn.functional.linear(h, W2, c2), t)

    pd, pn = params(), params()
    with torch.no_grad():
        for a, b in zip(pd, pn):
            b.copy_(a)
    # the two models agree before they are timed
    ld, ln = derived(*pd), native(*pn)
    if not torch.allclose(ld, ln, rtol=1e-4):
        raise SystemExit(f"derived and native MLP losses differ: {ld.item()} vs {ln.item()}")
    med = side_by_side({"derived": step(derived, pd), "native": step(native, pn)}, rounds, 5)
    return [(f"MLP step {width}, batch {batch}, float32", med["derived"] * 1e3, med["native"] * 1e3,
             med["derived"] / med["native"])]


# -- 3. jit(value_and_grad) in JAX ---------------------------------------------------------------------------------
def jax_mlp(rounds, width=512, batch=256):
    import jax
    import jax.numpy as jnp

    import runtime.jax as rj

    k = jax.random.split(jax.random.PRNGKey(0), 4)
    x = jax.random.normal(k[0], (batch, width), jnp.float32)
    t = jax.random.normal(k[1], (batch, width), jnp.float32)
    s = width ** -0.5
    ps = (s * jax.random.normal(k[2], (width, width), jnp.float32), jnp.zeros(width, jnp.float32),
          s * jax.random.normal(k[3], (width, width), jnp.float32), jnp.zeros(width, jnp.float32))

    def derived(ps):
        W1, c1, W2, c2 = ps
        return rj.mse(rj.linear(W2, rj.dense(W1, x, c1), c2), t)

    def native(ps):
        W1, c1, W2, c2 = ps
        h = jnp.tanh(x @ W1.T + c1)
        return jnp.mean((h @ W2.T + c2 - t) ** 2)

    fd, fn = jax.jit(jax.value_and_grad(derived)), jax.jit(jax.value_and_grad(native))
    (ld, gd), (ln, gn) = fd(ps), fn(ps)
    if not np.allclose(ld, ln, rtol=1e-4) or not all(np.allclose(a, b, rtol=1e-3, atol=1e-6) for a, b in zip(gd, gn)):
        raise SystemExit("derived and native JAX MLPs disagree")

    def block(f):
        return lambda: jax.block_until_ready(f(ps))

    med = side_by_side({"derived": block(fd), "native": block(fn)}, rounds, 5)
    return [(f"jit(value_and_grad) MLP {width}, batch {batch}, float32", med["derived"] * 1e3,
             med["native"] * 1e3, med["derived"] / med["native"])]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=15, help="interleaved rounds; medians are reported")
    ap.add_argument("--markdown", action="store_true", help="print markdown tables for RESULTS.md")
    ap.add_argument("--only", choices=sorted(TARGETS), action="append",
                    help="run only this part (repeatable); default: all three")
    args = ap.parse_args(argv)
    ok = True
    sections = [("per-op overhead, runtime.torch vs native torch (µs per call)", "op", torch_ops),
                ("MLP training step, runtime.torch vs native torch (ms per step)", "mlp_torch", torch_mlp),
                ("MLP jit(value_and_grad), runtime.jax vs native jax.numpy (ms per call)", "mlp_jax", jax_mlp)]
    for title, key, fn in sections:
        if args.only and key not in args.only:
            continue
        try:
            rows = fn(args.rounds)
        except ImportError as exc:        # a framework (or its bridge) missing: say so, measure the rest
            print(f"\n{title}: skipped, {exc}")
            continue
        target = TARGETS[key]
        print(f"\n{title}; target ≤ {target}×")
        if args.markdown:
            print("\n| case | derived | native | ratio | met |\n|---|---:|---:|---:|---|")
        for name, d, n, r in rows:
            met = r <= target
            ok &= met
            if args.markdown:
                print(f"| {name} | {d:.3f} | {n:.3f} | {r:.2f} | {'yes' if met else 'no'} |")
            else:
                print(f"  {name:50s} derived {d:10.3f}  native {n:10.3f}  ratio {r:5.2f}  {'ok' if met else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
