"""inv(X): the inverse of a square matrix; d inv(X) = -R·dX·R with R = X⁻¹."""
import numpy as np

from primitives.matrix import Cuda, MatrixPrimitive

PRIMITIVE = MatrixPrimitive(
    name="inv",
    doc="the inverse of a square matrix",
    forward=np.linalg.inv,
    result="square",
    keeps_symmetry=True,
    domain="wellcond",
    differential="dR[i,j] = -R[i,k] * dX[k,l] * R[l,j]",
    show="{X}⁻¹",
    show_latex="{X}^{{-1}}",
    factored=lambda F: F.inv(),   # from the shared factorisation of X (_factor)
    cuda=Cuda(forward="tr_inv", ws=(2, 0, 1, 0)),
)
