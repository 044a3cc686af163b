"""logm(S): the principal logarithm of a symmetric positive definite matrix, V·diag(log w)·Vᵀ.

Derivative (Daleckii–Krein): dL = V·(G∘(Vᵀ·sym(dS)·V))·Vᵀ with G[i,j] = (log w_i - log w_j)/(w_i - w_j),
written log1p((w_i - w_j)/w_j)/(w_i - w_j) so that close eigenvalues keep their digits, and 1/w_i where they
are equal. Self-adjoint: the pullback applies the same map to L̄ (and returns a symmetric gradient)."""
import numpy as np

from primitives.matrix import Cuda, MatrixPrimitive
from primitives.spectral import EIGEN_WHERE, daleckii_krein, eigh, forward


def _divided(xp, w):
    wi, wj = xp.expand_dims(w, -1), xp.expand_dims(w, -2)
    d = wi - wj
    same = d == 0
    safe = xp.where(same, 1.0, d)
    return xp.where(same, 1.0 / (wi + 0 * wj), xp.log1p(safe / wj) / safe)


def _jvp(xp, w, V, dS):
    return daleckii_krein(xp, _divided(xp, w), V, dS)


PRIMITIVE = MatrixPrimitive(
    name="logm",
    doc="the principal logarithm of a symmetric positive definite matrix",
    forward=forward(np.log),
    result="square",
    domain="spd",
    symmetric=True,
    keeps_symmetry=True,
    jvp=_jvp,
    vjp=_jvp,
    saves=("eigvalsh", "eigvecsh"),
    show="log({X})",
    show_latex=r"\log({X})",
    show_jvp="d{R} = V·(G∘(Vᵀ·d{X}·V))·Vᵀ",
    show_vjp="d{X} = sym(V·(G∘(Vᵀ·d{R}·V))·Vᵀ)",
    # V·(G∘(Vᵀ·c·I·V))·Vᵀ = c·V·diag(G_ii)·Vᵀ = c·V·diag(1/λ)·Vᵀ = c·X⁻¹
    vjp_at_identity="dX[i,j] = dR * inv(X)[i,j]",
    show_where=EIGEN_WHERE + (("G", "Gᵢⱼ = (log λᵢ - log λⱼ)/(λᵢ - λⱼ), Gᵢᵢ = 1/λᵢ",
                               r"G_{ij} = \frac{\log \lambda_i - \log \lambda_j}{\lambda_i - \lambda_j},\ "
                               r"G_{ii} = \frac{1}{\lambda_i}", lambda X: _divided(np, eigh(X)[0])),),
    cuda=Cuda(forward="tr_logm", ws=(3, 0, 4, 3), jvp="tr_logm_jvp", jvp_ws=(2, 0, 2, 0),
              vjp="tr_logm_vjp", vjp_ws=(2, 0, 2, 0)),
)
