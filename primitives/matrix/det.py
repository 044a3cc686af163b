"""det(X): the determinant; d det(X) = tr(adj(X)·dX), which holds at singular X too (the adjugate exists
there, where det(X)·X⁻¹ does not)."""
import numpy as np

from primitives.matrix import Cuda, MatrixPrimitive

PRIMITIVE = MatrixPrimitive(
    name="det",
    doc="the determinant of a square matrix",
    forward=np.linalg.det,
    result="scalar",
    domain="wellcond",
    differential="dR = adj(X)[j,i] * dX[i,j]",
    show="det({X})",
    show_latex=r"\det({X})",
    factored=lambda F: F.det(),   # from the shared factorisation of X (_factor)
    cuda=Cuda(forward="tr_det", ws=(1, 0, 1, 0)),
)
