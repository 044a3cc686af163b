"""solve(X, B): R = X⁻¹·B for a square X and a right-hand side B (a vector, or a matrix of columns).

dR = X⁻¹·(dB - dX·R): the pullback solves with Xᵀ once, B̄ = X⁻ᵀ·R̄, and X̄ = -B̄·Rᵀ."""
import numpy as np

from primitives.matrix import Cuda, MatrixPrimitive


def _solve(X, B):
    if np.ndim(B) in (1, np.ndim(X) - 1):      # a vector, or a batch of vectors
        return np.linalg.solve(X, np.asarray(B)[..., None])[..., 0]
    return np.linalg.solve(X, B)


PRIMITIVE = MatrixPrimitive(
    name="solve",
    doc="the solution R of X·R = B",
    forward=_solve,
    args=("X", "B"),
    arg_kinds=("square", "rhs"),
    result="rhs",
    domain="wellcond",
    differential="dZ[i,r] = dB[i,r] - dX[i,l] * R[l,r]; dR[i,r] = inv(X)[i,k] * dZ[k,r]",
    optional="r",
    show="solve({X}, {B})",
    show_latex=r"{X}^{{-1}} {B}",
    factored=lambda F, B, trans=False: F.solve(B, trans),   # from the shared factorisation of X (_factor)
    cuda=Cuda(forward="tr_solve", ws=(1, 1, 1, 0)),
)
