"""sqrtm(S): the principal square root of a symmetric positive definite matrix, V·diag(√w)·Vᵀ.

Derivative (Daleckii–Krein): dR = V·(G∘(Vᵀ·sym(dS)·V))·Vᵀ with G[i,j] = 1/(√w_i + √w_j), the divided
difference of √ written without cancellation. Self-adjoint: the pullback applies the same map to R̄."""
import numpy as np

from primitives.matrix import Cuda, MatrixPrimitive
from primitives.spectral import EIGEN_WHERE, daleckii_krein, eigh, forward


def _gap_sum(w, xp=np):
    r = xp.sqrt(w)
    return 1.0 / (xp.expand_dims(r, -1) + xp.expand_dims(r, -2))


def _jvp(xp, w, V, dS):
    return daleckii_krein(xp, _gap_sum(w, xp), V, dS)


PRIMITIVE = MatrixPrimitive(
    name="sqrtm",
    doc="the principal square root of a symmetric positive definite matrix",
    forward=forward(np.sqrt),
    result="square",
    domain="spd",
    symmetric=True,
    keeps_symmetry=True,
    jvp=_jvp,
    vjp=_jvp,
    saves=("eigvalsh", "eigvecsh"),
    show="√{X}",
    show_latex=r"{X}^{{1/2}}",
    show_jvp="d{R} = V·(G∘(Vᵀ·d{X}·V))·Vᵀ",
    show_vjp="d{X} = sym(V·(G∘(Vᵀ·d{R}·V))·Vᵀ)",
    # V·(G∘(Vᵀ·c·I·V))·Vᵀ = c·V·diag(1/(2√λ))·Vᵀ = c·R⁻¹/2
    vjp_at_identity="dX[i,j] = dR * inv(R)[i,j] / 2",
    show_where=EIGEN_WHERE + (("G", "Gᵢⱼ = 1/(√λᵢ + √λⱼ)", r"G_{ij} = \frac{1}{\sqrt{\lambda_i} + \sqrt{\lambda_j}}",
                               lambda X: _gap_sum(eigh(X)[0])),),
    cuda=Cuda(forward="tr_sqrtm", ws=(3, 0, 4, 3), jvp="tr_sqrtm_jvp", jvp_ws=(2, 0, 2, 0),
              vjp="tr_sqrtm_vjp", vjp_ws=(2, 0, 2, 0)),
)
