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
