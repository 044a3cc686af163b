"""Riemannian gradients: the Stiefel manifold with its canonical metric, and Rⁿ with an SPD metric G.

Stiefel St(n, p) = {W : WᵀW = I}. For f(W) with Euclidean gradient G = ∇f, the Riemannian gradient under
the canonical metric g_W(ξ, η) = tr(ξᵀ(I - ½WWᵀ)η) is ξ = G - W GᵀW = A W with A = G Wᵀ - W Gᵀ (skew).
A step of Riemannian gradient descent retracts back onto the manifold, either by the Cayley transform
W⁺ = (I + τ/2 A)⁻¹(I - τ/2 A) W (generated.linalg.cayley of -τ/2·A) or by QR: W⁺ = qf(W - τξ).
For an SPD metric <u, v>_G = uᵀGv on Rⁿ the Riemannian gradient is G⁻¹∇f (generated.linalg.solve).
The objective is the Brockett-like f(W) = -½ tr(WᵀMW) (its minimum spans M's top-p eigenvectors), built
from generated ops. Run: `python -m examples.riemannian`.
"""
from __future__ import annotations

import numpy as np

from generated import linalg
from generated import nn
from runtime import grad, jvp


def brockett(W, M):
    return -0.5 * linalg.trace(linalg.matmul(linalg.transpose(W), linalg.matmul(M, W)))


def stiefel_canonical_gradient(W, egrad):
    """ξ = G - W GᵀW: tangent at W (Wᵀξ skew) and dual to df under the canonical metric."""
    return egrad - W @ egrad.T @ W


def canonical_metric(W, xi, eta):
    return float(np.sum(xi * (eta - 0.5 * W @ (W.T @ eta))))


def cayley_retraction(W, egrad, tau):
    A = egrad @ W.T - W @ egrad.T
    return linalg.matmul(linalg.cayley(-0.5 * tau * A), W)


def qr_retraction(W, xi, tau):
    Q, R = np.linalg.qr(W - tau * xi)
    return Q * np.where(np.diag(R) < 0, -1.0, 1.0)  # the unique Q with diag(R) > 0


def orthogonality_error(W):
    return float(np.linalg.norm(W.T @ W - np.eye(W.shape[1])))


def random_tangent(W, rng):
    n, p = W.shape
    O = rng.standard_normal((p, p))
    K = rng.standard_normal((n, p))
    return W @ (O - O.T) + (K - W @ (W.T @ K))


def stiefel_demo(n=8, p=3, steps=300, tau=0.3, seed=0):
    rng = np.random.default_rng(seed)
    B = rng.standard_normal((n, n))
    M = (B + B.T) / 2
    W0 = np.linalg.qr(rng.standard_normal((n, p)))[0]
    egrad = grad(brockett)(W0, M)
    xi = stiefel_canonical_gradient(W0, egrad)
    v = random_tangent(W0, rng)
    df_v = jvp(lambda W: brockett(W, M), (W0,), (v,))[1]
    out = {
        "tangent_error": float(np.linalg.norm(W0.T @ xi + xi.T @ W0)),
        "metric_duality_error": abs(canonical_metric(W0, xi, v) - float(df_v)) / abs(float(df_v)),
        "f0": float(brockett(W0, M)),
    }
    W1c = cayley_retraction(W0, egrad, 1e-2)
    W1q = qr_retraction(W0, xi, 1e-2)
    out.update(one_step_cayley_f=float(brockett(W1c, M)), one_step_cayley_orth=orthogonality_error(W1c),
               one_step_qr_f=float(brockett(W1q, M)), one_step_qr_orth=orthogonality_error(W1q))
    W = W0
    for _ in range(steps):
        W = cayley_retraction(W, grad(brockett)(W, M), tau)
    out["final_f"] = float(brockett(W, M))
    out["optimum"] = -0.5 * float(np.sum(np.sort(np.linalg.eigvalsh(M))[-p:]))
    out["final_orth"] = orthogonality_error(W)
    return out


def spd_demo(n=5, tau=0.1, seed=1):
    """Riemannian gradient G⁻¹∇f under <u, v>_G = uᵀGv, for f(x) = logsumexp(x) + ½ xᵀQx."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, n))
    G = X @ X.T + n * np.eye(n)
    Y = rng.standard_normal((n, n))
    Q = Y @ Y.T / n + np.eye(n)

    def f(x):
        return nn.logsumexp(x) + 0.5 * linalg.quadratic(x, Q)

    x = rng.standard_normal(n)
    g = grad(f)(x)
    rgrad = linalg.solve(G, g)
    v = rng.standard_normal(n)
    df_v = float(jvp(f, (x,), (v,))[1])
    x1 = x - tau * rgrad
    return {"metric_duality_error": abs(float(rgrad @ G @ v) - df_v) / abs(df_v),
            "f0": float(f(x)), "f1": float(f(x1)), "rgrad_vs_numpy": float(np.max(np.abs(rgrad - np.linalg.solve(G, g))))}


def main(verbose=True):
    st, sp = stiefel_demo(), spd_demo()
    if verbose:
        print("Stiefel, canonical metric:")
        print(f"  ||Wᵀξ + ξᵀW|| = {st['tangent_error']:.1e};  g(ξ, v) vs df[v]: {st['metric_duality_error']:.1e}")
        print(f"  one step: f {st['f0']:.6f} -> {st['one_step_cayley_f']:.6f} (Cayley, ||WᵀW - I|| = "
              f"{st['one_step_cayley_orth']:.1e}), {st['one_step_qr_f']:.6f} (QR, {st['one_step_qr_orth']:.1e})")
        print(f"  300 Cayley steps: f = {st['final_f']:.8f} (optimum {st['optimum']:.8f}), "
              f"||WᵀW - I|| = {st['final_orth']:.1e}")
        print("Rⁿ with an SPD metric G:")
        print(f"  <G⁻¹∇f, v>_G vs df[v]: {sp['metric_duality_error']:.1e}; one step: f {sp['f0']:.6f} -> {sp['f1']:.6f}")
    return {"stiefel": st, "spd": sp}


if __name__ == "__main__":
    main()
