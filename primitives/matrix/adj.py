"""adj(X): the adjugate, det's derivative (internal: d det(X) = tr(adj(X)·dX), defined at singular X too).

Its own derivative (det's second) is a linear map without an index form: `primitives.special.adjugate_jvp`,
through the SVD, with the transpose E -> d adj(X)[Eᵀ]ᵀ (det's Hessian is a symmetric bilinear form). It is
written in NumPy, not in traced operations, so det's third derivative is not available in runtime.tnp."""
import numpy as np

from primitives import special
from primitives.matrix import Cuda, MatrixPrimitive


def _jvp(xp, X, E):
    return special.adjugate_jvp(X, E)


def _vjp(xp, X, G):
    return np.swapaxes(special.adjugate_jvp(X, np.swapaxes(G, -1, -2)), -1, -2)


PRIMITIVE = MatrixPrimitive(
    name="adj",
    doc="the adjugate (det(X)·X⁻¹ where X is invertible, continuous at singular X)",
    forward=special.adjugate,
    result="square",
    keeps_symmetry=True,
    jvp=_jvp,
    vjp=_vjp,
    saves=("X",),
    traceable=False,
    show="adj({X})",
    show_latex=r"\operatorname{{adj}}({X})",
    show_jvp="d{R} = L_adj({X}, d{X})",
    show_vjp="d{X} = L_adj({X}, d{R}ᵀ)ᵀ",
    show_where=(("L_adj", "L_adj(A, E) = the derivative of adj at A along E",
                 r"L_{\operatorname{adj}}(A, E) = \text{the derivative of } \operatorname{adj} \text{ at } A "
                 r"\text{ along } E", lambda X: special.adjugate_jvp),),
    cuda=Cuda(forward="tr_adj", ws=(2, 0, 1, 0)),
    user=False,
)
