"""eigvecsh(A): the eigenvectors of a symmetric matrix (A's lower triangle) as columns, in the order of
eigvalsh's ascending eigenvalues.

Sign convention: in each eigenvector the component of largest absolute value is positive (the first such on a
tie); NumPy/LAPACK leave the sign arbitrary. With M = Vᵀ·sym(dA)·V and F[i,j] = 1/(w_j - w_i) (0 on the
diagonal): dV = V·(F∘M), and Ā = sym(V·(F∘(Vᵀ·V̄))·Vᵀ). Eigenvectors are not differentiable where eigenvalues
repeat (F is infinite there): a degenerate eigenspace has no distinguished basis."""
import numpy as np

from primitives.matrix import Cuda, MatrixPrimitive
from primitives.spectral import EIGEN_WHERE
from primitives.sym import T, eigh, gap_inverse, sym


def _forward(A):
    return eigh(A)[1]


def _jvp(xp, w, V, dA):
    M = xp.matmul(xp.matmul(T(xp, V), sym(xp, dA)), V)
    return xp.matmul(V, gap_inverse(xp, w) * M)


def _vjp(xp, w, V, Vbar):
    return sym(xp, xp.matmul(xp.matmul(V, gap_inverse(xp, w) * xp.matmul(T(xp, V), Vbar)), T(xp, V)))


PRIMITIVE = MatrixPrimitive(
    name="eigvecsh",
    doc="the eigenvectors (columns) of a symmetric matrix, in ascending order of their eigenvalues, each with its "
        "component of largest magnitude positive",
    forward=_forward,
    result="square",
    domain="symmetric",
    symmetric=True,
    jvp=_jvp,
    vjp=_vjp,
    saves=("eigvalsh", "R"),
    show="V({X})",
    show_latex=r"V({X})",
    show_jvp="d{R} = {R}·(F∘({R}ᵀ·d{X}·{R}))",
    show_vjp="d{X} = sym({R}·(F∘({R}ᵀ·d{R}))·{R}ᵀ)",
    show_where=(EIGEN_WHERE[0], ("F", "Fᵢⱼ = 1/(λⱼ - λᵢ), Fᵢᵢ = 0",
                                 r"F_{ij} = \frac{1}{\lambda_j - \lambda_i},\ F_{ii} = 0",
                                 lambda X: gap_inverse(np, eigh(X)[0]))),
    cuda=Cuda(forward="tr_eigvecsh", ws=(2, 0, 3, 3), jvp="tr_eigvecsh_jvp", jvp_ws=(2, 0, 0, 0),
              vjp="tr_eigvecsh_vjp", vjp_ws=(2, 0, 0, 0)),
)
