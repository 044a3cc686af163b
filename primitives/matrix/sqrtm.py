"""sqrtm(S): the principal square root of a symmetric positive definite matrix, V·diag(√w)·Vᵀ.

Derivative (Daleckii–Krein): dR = V·(G∘(Vᵀ·sym(dS)·V))·Vᵀ with G[i,j] = 1/(√w_i + √w_j), the divided
difference of √ written without cancellation. Self-adjoint: the pullback applies the same map to R̄."""
import numpy as np

from primitives.matrix import Cuda, MatrixPrimitive
from primitives.spectral import daleckii_krein, forward


def _jvp(xp, w, V, dS):
    r = xp.sqrt(w)
    return daleckii_krein(xp, 1.0 / (xp.expand_dims(r, -1) + xp.expand_dims(r, -2)), V, dS)


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
    show_jvp="d{R} = V·(G∘(Vᵀ·d{X}·V))·Vᵀ,  Gᵢⱼ = 1/(√λᵢ + √λⱼ)",
    show_vjp="d{X} = V·(G∘(Vᵀ·d{R}·V))·Vᵀ",
    cuda=Cuda(forward="tr_sqrtm", ws=(3, 0, 4, 3), jvp="tr_sqrtm_jvp", jvp_ws=(2, 0, 2, 0),
              vjp="tr_sqrtm_vjp", vjp_ws=(2, 0, 2, 0)),
)
