"""Functions of symmetric positive definite matrices through the eigendecomposition S = V·diag(w)·Vᵀ:
f(S) = V·diag(f(w))·Vᵀ, and the Daleckii–Krein derivative df = V·(G∘(Vᵀ·sym(dS)·V))·Vᵀ with G the divided
differences of f on the eigenvalues (f'(w_i) on the diagonal). That map is self-adjoint, so it is also the
pullback."""
import numpy as np

from primitives.sym import T, eigh, sym


def forward(f):
    def apply(S):
        w, V = eigh(S)
        return (V * f(w)[..., None, :]) @ np.swapaxes(V, -1, -2)
    return apply


def daleckii_krein(xp, G, V, E):
    return xp.matmul(xp.matmul(V, G * xp.matmul(xp.matmul(T(xp, V), sym(xp, E)), V)), T(xp, V))


# The symbols the eigendecomposition's maps show (MatrixPrimitive.show_where): λ and V of X = V·diag(λ)·Vᵀ
EIGEN_WHERE = (
    ("λ", "λ = λ({X}), the eigenvalues of {X}, ascending", r"\lambda = \lambda({X})", lambda X: eigh(X)[0]),
    ("V", "V = V({X}), its eigenvectors as columns: {X} = V·diag(λ)·Vᵀ",
     r"V = V({X}),\ {X} = V \operatorname{diag}(\lambda) V^{\top}", lambda X: eigh(X)[1]),
)
