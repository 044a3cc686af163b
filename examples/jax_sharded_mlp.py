"""A loss and its gradient built from derived ops (rules/nn.rules: dense, linear, mse) under `jax.jit`, with the
batch sharded over 2 host devices by a NamedSharding, against the same computation unsharded.

JAX splits the batch between the devices and inserts the all-reduce of the parameter gradients itself: the
derived rules need nothing of their own to scale out. Run: `python examples/jax_sharded_mlp.py` (it sets
XLA_FLAGS for 2 CPU devices before JAX is imported, unless XLA_FLAGS is already set). Prints one line per check
and `OK` last; exits 1 on a mismatch.
"""
from __future__ import annotations

import os
import sys

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=2")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import jax  # noqa: E402

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

import runtime.jax as rj  # noqa: E402


def init_params(sizes=(4, 16, 16, 1), seed=1):
    rng = np.random.default_rng(seed)
    return [{"W": jnp.asarray(rng.standard_normal((n_out, n_in)) / np.sqrt(n_in)), "c": jnp.zeros(n_out)}
            for n_in, n_out in zip(sizes[:-1], sizes[1:])]


def loss(params, x, t):
    h = x
    for layer in params[:-1]:
        h = rj.dense(layer["W"], h, layer["c"])          # tanh(W·h + c), batched over rows
    return rj.mse(rj.linear(params[-1]["W"], h, params[-1]["c"]), t)


def main(batch=64):
    devices = jax.devices()
    if len(devices) < 2:
        print(f"need 2 devices, have {len(devices)} (set XLA_FLAGS=--xla_force_host_platform_device_count=2 "
              f"before importing jax)")
        return 1
    rng = np.random.default_rng(0)
    x = rng.uniform(-1.0, 1.0, (batch, 4))
    t = np.sin(x.sum(axis=1, keepdims=True))
    params = init_params()
    step = jax.jit(jax.value_and_grad(loss))

    value, grads = step(params, jnp.asarray(x), jnp.asarray(t))                 # one device

    mesh = Mesh(np.array(devices[:2]), ("batch",))
    rows = NamedSharding(mesh, P("batch", None))
    xs, ts = jax.device_put(x, rows), jax.device_put(t, rows)
    params_r = jax.device_put(params, NamedSharding(mesh, P()))                  # replicated
    value_s, grads_s = step(params_r, xs, ts)

    shards = sorted(str(s.device) for s in xs.addressable_shards)
    print(f"input sharded over {len(shards)} devices: {', '.join(shards)}; rows per shard "
          f"{[s.data.shape[0] for s in xs.addressable_shards]}")
    err_v = abs(float(value_s) - float(value)) / abs(float(value))
    err_g = max(float(jnp.max(jnp.abs(a - b)) / (jnp.max(jnp.abs(b)) + 1e-300))
                for a, b in zip(jax.tree_util.tree_leaves(grads_s), jax.tree_util.tree_leaves(grads)))
    print(f"loss sharded {float(value_s):.17g} unsharded {float(value):.17g} relative error {err_v:.2e}")
    print(f"gradient max relative error {err_g:.2e}")
    ok = err_v < 1e-12 and err_g < 1e-12
    print("OK" if ok else "MISMATCH")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
