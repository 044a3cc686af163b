"""Train a small MLP (dense+tanh layers, linear read-out, MSE loss) by plain gradient descent.

Every array operation in the model is a generated op (generated.nn.dense / linear / mse); the runtime's
reverse mode chains their pullbacks. Run: `python -m examples.train_mlp` (or `python examples/train_mlp.py`).
"""
from __future__ import annotations

import numpy as np

from generated import nn
from runtime import value_and_grad
from runtime.pytree import tree_map


def make_data(n=64, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1.0, 1.0, (n, 2))
    t = (np.sin(2.0 * x[:, 0]) * np.cos(1.5 * x[:, 1]))[:, None]
    return x, t


def init_params(sizes=(2, 16, 16, 1), seed=1):
    rng = np.random.default_rng(seed)
    return [{"W": rng.standard_normal((n_out, n_in)) / np.sqrt(n_in), "c": np.zeros(n_out)}
            for n_in, n_out in zip(sizes[:-1], sizes[1:])]


def predict(params, x):
    h = x
    for layer in params[:-1]:
        h = nn.dense(layer["W"], h, layer["c"])  # tanh(W h + c), batched over rows
    return nn.linear(params[-1]["W"], h, params[-1]["c"])


def loss(params, x, t):
    return nn.mse(predict(params, x), t)


def train(params, x, t, steps=3000, lr=0.1):
    loss_and_grad = value_and_grad(loss)
    history = []
    for _ in range(steps):
        value, g = loss_and_grad(params, x, t)
        history.append(float(value))
        params = tree_map(lambda p, dp: p - lr * dp, params, g)
    history.append(float(loss(params, x, t)))
    return params, history


def main(steps=3000, lr=0.1, verbose=True):
    x, t = make_data()
    params, history = train(init_params(), x, t, steps=steps, lr=lr)
    # a small enough step descends every time: a rise would point at a wrong gradient (at lr = 0.3 it
    # oscillates, the ordinary edge-of-stability behaviour of gradient descent)
    rises = sum(b > a for a, b in zip(history, history[1:]))
    result = {"initial_loss": history[0], "final_loss": history[-1], "ratio": history[0] / history[-1],
              "rises": rises}
    if verbose:
        for k in (0, 10, 100, 1000, len(history) - 1):
            if k < len(history):
                print(f"step {k:5d}  loss {history[k]:.3e}")
        print(f"loss fell {result['ratio']:.0f}x, rising in {rises} of {steps} steps")
    return result


if __name__ == "__main__":
    main()
