"""eigvalsh(A): the eigenvalues of a symmetric matrix (A's lower triangle), ascending.

dw_i = v_iᵀ·sym(dA)·v_i (v_i the i-th eigenvector); the pullback is Ā = V·diag(w̄)·Vᵀ. Differentiable where
the eigenvalues are distinct; at a repeated eigenvalue the eigenvalues are not differentiable (their sum is)."""
import numpy as np

from primitives.matrix import Cuda, MatrixPrimitive
from primitives.spectral import EIGEN_WHERE
from primitives.sym import eigh, sym


def _forward(A):
    # from the eigendecomposition the derivative reads (LAPACK's values-only routine returns finite values for a
    # NaN input, where eigh propagates it)
    return eigh(A)[0]


def _jvp(xp, V, dA):
    return xp.einsum("...ki,...kl,...li->...i", V, sym(xp, dA), V)


def _vjp(xp, V, wbar):
    return xp.einsum("...ik,...k,...jk->...ij", V, wbar, V)


PRIMITIVE = MatrixPrimitive(
    name="eigvalsh",
    doc="the eigenvalues of a symmetric matrix, ascending",
    forward=_forward,
    result="vector",
    domain="symmetric",
    symmetric=True,
    jvp=_jvp,
    vjp=_vjp,
    saves=("eigvecsh",),
    show="λ({X})",
    show_latex=r"\lambda({X})",
    show_jvp="d{R} = diag(Vᵀ·d{X}·V)",
    show_vjp="d{X} = V·diag(d{R})·Vᵀ",
    # V·diag(c·𝟙)·Vᵀ = c·V·Vᵀ = c·I (V orthogonal): the sum of the eigenvalues is the trace
    vjp_at_identity="dX[i,j] = dR * I[i,j]",
    show_where=EIGEN_WHERE,
    cuda=Cuda(forward="tr_eigvalsh", ws=(3, 0, 2, 3), jvp="tr_eigvalsh_jvp", jvp_ws=(2, 0, 0, 0),
              vjp="tr_eigvalsh_vjp", vjp_ws=(2, 0, 0, 0)),
)
