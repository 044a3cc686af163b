"""Helpers the declarations of symmetric-matrix primitives share, over an array namespace xp."""
import numpy as np


def T(xp, X):
    return xp.swapaxes(X, -1, -2)


def sym(xp, X):
    """The symmetric part (X + Xᵀ)/2: tangents of a symmetric argument, and the gradient returned for it."""
    return 0.5 * (X + T(xp, X))


def eigh(A):
    """numpy.linalg.eigh (A's lower triangle) with a sign convention: in each eigenvector (a column), the
    component of largest absolute value is positive (the first such on a tie), so eigenvectors are a function
    of A wherever the eigenvalues are distinct and no two components of a vector tie in magnitude. At a tie
    (the eigenvectors (1, ±1)/√2 of [[a, b], [b, a]]) the sign flips under some perturbations: eigenvectors are
    discontinuous there, as no sign convention is continuous everywhere."""
    w, V = np.linalg.eigh(A)
    if V.shape[-1] == 0:
        return w, V
    k = np.argmax(np.abs(V), axis=-2)[..., None, :]
    s = np.where(np.take_along_axis(V, k, axis=-2) < 0, -1.0, 1.0).astype(V.dtype)
    return w, V * s


def gap_inverse(xp, w):
    """F[i,j] = 1/(w[j] - w[i]) off the diagonal, 0 on it (eigenvectors' derivative; infinite at equal
    eigenvalues, where eigenvectors are not differentiable)."""
    n = w.shape[-1]
    eye = xp.asarray(np.eye(n, dtype=bool))   # a namespace's own array (torch.where takes no ndarray)
    d = xp.expand_dims(w, -2) - xp.expand_dims(w, -1)
    return xp.where(eye, 0.0, 1.0 / xp.where(eye, 1.0, d))
