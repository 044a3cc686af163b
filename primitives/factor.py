"""One factorisation of a square matrix, shared by every primitive applied to it (issue #11 §3).

`factor(X, spd)` returns a `Factor`: Cholesky (scipy.linalg.cho_factor) where X is declared or inferred spd,
LU (scipy.linalg.lu_factor) otherwise, or where X is not symmetric to rounding or the Cholesky fails (X not
numerically positive definite): the LU then gives what the unfactored primitives give. The decomposition is computed on first use and kept, so a
rule's forward pass and its pullback (a closure holding the Factor) pay for it once. Only unbatched (n, n)
NumPy matrices are factored; generated code keeps the unfactored primitives for batched matrices.
"""
from __future__ import annotations

import warnings

import numpy as np
import scipy.linalg as sla

COUNT = {"cholesky": 0, "lu": 0}      # factorisations performed (tests count them)


class Factor:
    __slots__ = ("X", "spd", "_kind", "_f", "_inv")

    def __init__(self, X, spd=False):
        self.X, self.spd, self._kind, self._f, self._inv = X, spd, None, None, None

    def _get(self):
        if self._kind is None:
            if self.spd and _symmetric(self.X):
                try:
                    self._f = cho_factor(self.X)
                    self._kind = "cholesky"
                    return self._f
                except np.linalg.LinAlgError:
                    pass
            self._f = lu_factor(self.X)
            self._kind = "lu"
        return self._f

    @property
    def kind(self):
        self._get()
        return self._kind

    def _nonsingular(self):
        f = self._get()
        if self._kind == "lu" and not np.all(np.diagonal(f[0])):
            raise np.linalg.LinAlgError("Singular matrix")    # as numpy.linalg.inv/solve say
        return f

    def solve(self, B, trans=False):
        """X⁻¹·B, or X⁻ᵀ·B with trans (B a vector or a matrix of columns)."""
        f = self._nonsingular()
        if self._inv is not None and np.ndim(B) == 1:
            return (self._inv.T if trans else self._inv) @ B
        B = np.asarray(B)
        if self._kind == "cholesky":
            return sla.cho_solve(f, B, check_finite=False)
        return sla.lu_solve(f, B, trans=1 if trans else 0, check_finite=False)

    def inv(self):
        if self._inv is None:
            f = self._nonsingular()
            n = self.X.shape[0]
            if self._kind == "cholesky":
                c, lower = f
                inv, info = sla.lapack.dpotri(c, lower=lower) if c.dtype == np.float64 else \
                    sla.lapack.get_lapack_funcs("potri", (c,))(c, lower=lower)
                if info != 0:
                    raise np.linalg.LinAlgError("Singular matrix")
                # potri fills one triangle: mirror it
                self._inv = np.tril(inv) + np.tril(inv, -1).T if lower else np.triu(inv) + np.triu(inv, 1).T
            else:
                self._inv = sla.lu_solve(f, np.eye(n, dtype=f[0].dtype), check_finite=False)
        return self._inv

    def logdet(self):
        """log |det X|."""
        f = self._get()
        d = np.diagonal(f[0])
        if self._kind == "cholesky":
            return 2.0 * np.sum(np.log(d))
        return np.sum(np.log(np.abs(d)))

    def det(self):
        f = self._get()
        d = np.diagonal(f[0])
        if self._kind == "cholesky":
            return np.prod(d) ** 2
        piv = f[1]
        sign = -1.0 if np.count_nonzero(piv != np.arange(piv.size)) % 2 else 1.0
        return sign * np.prod(d)


def _symmetric(X):
    """Cholesky reads one triangle: only a matrix symmetric to rounding gets it. Another (spd inferred from
    logdet, say, and a non-symmetric matrix passed) gets the LU, and the unfactored primitives' answer."""
    if np.array_equal(X, X.T):
        return True
    return np.max(np.abs(X - X.T)) <= 1e3 * np.finfo(X.dtype).eps * np.max(np.abs(X))


def cho_factor(X):
    COUNT["cholesky"] += 1
    c = sla.cho_factor(X, lower=True, check_finite=False)
    if not np.all(np.isfinite(np.diagonal(c[0]))):
        raise np.linalg.LinAlgError("not positive definite")
    return c


def lu_factor(X):
    COUNT["lu"] += 1
    with warnings.catch_warnings():      # a singular X: det is 0, and inv/solve raise (Factor._nonsingular)
        warnings.simplefilter("ignore", sla.LinAlgWarning)
        return sla.lu_factor(X, check_finite=False)


def factor(X, spd=False):
    """A (lazy) factorisation of the unbatched square matrix X."""
    return Factor(np.asarray(X), spd)
