"""logdet(X): log |det X|; d logdet(X) = tr(X⁻¹·dX)."""
import numpy as np

from primitives.matrix import Cuda, MatrixPrimitive


def _logdet(X):
    return np.linalg.slogdet(X)[1]


PRIMITIVE = MatrixPrimitive(
    name="logdet",
    doc="log |det X| of a square matrix (log det X for X positive definite)",
    forward=_logdet,
    result="scalar",
    domain="spd",
    differential="dR = inv(X)[j,i] * dX[i,j]",
    show="log det({X})",
    show_latex=r"\log\det({X})",
    factored=lambda F: F.logdet(),   # from the shared factorisation of X (_factor)
    cuda=Cuda(forward="tr_logdet", ws=(1, 0, 1, 0)),
)
