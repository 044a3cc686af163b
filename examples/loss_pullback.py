"""A Zygote-style pullback of a minibatch loss over all parameters at once.

`loss, back = loss_pullback(params, xb, tb)` mirrors Zygote's `pullback(p -> loss(p, xb, tb), params)`:
`back(1.0)` returns the gradient for every parameter, in the parameters' own structure (here a list of
dicts of arrays), and is linear in its argument. Run: `python -m examples.loss_pullback`.
"""
from __future__ import annotations

import numpy as np

try:
    from examples.train_mlp import init_params, loss, make_data
except ModuleNotFoundError:  # run as a script, `python examples/loss_pullback.py`: examples/ is on sys.path
    from train_mlp import init_params, loss, make_data
from runtime import vjp
from runtime.pytree import flatten, tree_map


def loss_pullback(params, xb, tb):
    """(loss value, back): back(dl) -> cotangents of all parameters (a pytree like `params`)."""
    value, vjp_fn = vjp(lambda p: loss(p, xb, tb), params)
    return value, lambda dl: vjp_fn(dl)[0]


def minibatches(n, size, rng):
    order = rng.permutation(n)
    return [order[k:k + size] for k in range(0, n, size)]


def finite_difference_check(params, xb, tb, grads, n_checks=5, eps=1e-6, seed=0):
    """Largest relative error of a few gradient entries against central finite differences."""
    rng = np.random.default_rng(seed)
    leaves, _ = flatten(params)
    gleaves, _ = flatten(grads)
    worst = 0.0
    for _ in range(n_checks):
        k = int(rng.integers(len(leaves)))
        idx = tuple(int(rng.integers(s)) for s in leaves[k].shape)
        def shifted(delta):
            bumped = [a.copy() for a in leaves]
            bumped[k][idx] += delta
            it = iter(bumped)
            return loss(tree_map(lambda _: next(it), params), xb, tb)
        fd = (shifted(eps) - shifted(-eps)) / (2 * eps)
        worst = max(worst, abs(gleaves[k][idx] - fd) / max(abs(fd), 1e-8))
    return worst


def main(epochs=20, batch=32, lr=0.2, verbose=True):
    rng = np.random.default_rng(0)
    x, t = make_data(n=256)
    params = init_params()
    first = None
    for epoch in range(epochs):
        for idx in minibatches(len(x), batch, rng):
            value, back = loss_pullback(params, x[idx], t[idx])
            grads = back(1.0)
            if first is None:
                first = {"value": float(value), "fd_error": finite_difference_check(params, x[idx], t[idx], grads),
                         "linear": max(float(np.max(np.abs(a - 2 * b))) for a, b in
                                       zip(flatten(back(2.0))[0], flatten(grads)[0]))}
            params = tree_map(lambda p, g: p - lr * g, params, grads)
    final = float(loss(params, x, t))
    result = {"first_batch_loss": first["value"], "final_loss": final, "fd_error": first["fd_error"],
              "linearity_error": first["linear"], "structure": type(grads).__name__ + "[" + type(grads[0]).__name__ + "]"}
    if verbose:
        print(f"first minibatch loss {first['value']:.3e}; gradient vs finite differences: {first['fd_error']:.1e}")
        print(f"back(2.0) - 2*back(1.0): {first['linear']:.1e}; gradients come back as {result['structure']}")
        print(f"after {epochs} epochs of SGD: full-data loss {final:.3e}")
    return result


if __name__ == "__main__":
    main()
