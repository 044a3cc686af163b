"""cholesky(A): the lower factor L of a symmetric positive definite A = L·Lᵀ (read from A's lower triangle,
as numpy.linalg.cholesky does).

Symmetric-tangent convention (PyTorch's, JAX's, ChainRules'): A lives on symmetric matrices. The pushforward
is dL = L·Φ(L⁻¹·sym(dA)·L⁻ᵀ), Φ(X) the strictly lower part of X plus half its diagonal, and the pullback its
exact transpose Ā = sym(L⁻ᵀ·Φ(Lᵀ·L̄)·L⁻¹) (Murray 2016), a symmetric gradient. A finite difference along a
symmetric direction measures this derivative; one along a single upper entry does not (the factor never reads
it)."""
import numpy as np

from primitives.matrix import Cuda, MatrixPrimitive
from primitives.sym import T, sym


def _phi(xp, Y):
    """Φ(Y): the strictly lower part of Y plus half its diagonal, as (tril(Y) + tril(Y, -1))/2 -- linear in Y
    and in Y's dtype and namespace (a float64 mask promoted a float32 tangent, and torch refuses to mix them)."""
    return 0.5 * (xp.tril(Y) + xp.tril(Y, -1))


def _jvp(xp, L, dA):
    Li = xp.linalg.inv(L)
    return xp.matmul(L, _phi(xp, xp.matmul(xp.matmul(Li, sym(xp, dA)), T(xp, Li))))


def _vjp(xp, L, Lbar):
    Li = xp.linalg.inv(L)
    return sym(xp, xp.matmul(xp.matmul(T(xp, Li), _phi(xp, xp.matmul(T(xp, L), Lbar))), Li))


PRIMITIVE = MatrixPrimitive(
    name="cholesky",
    doc="the lower Cholesky factor of a symmetric positive definite matrix",
    forward=np.linalg.cholesky,
    result="square",
    domain="spd",
    symmetric=True,
    jvp=_jvp,
    vjp=_vjp,
    saves=("R",),
    show="chol({X})",
    show_latex=r"\operatorname{{chol}}({X})",
    show_jvp="d{R} = {R}·Φ({R}⁻¹·d{X}·{R}⁻ᵀ)",
    show_vjp="d{X} = sym({R}⁻ᵀ·Φ({R}ᵀ·d{R})·{R}⁻¹)",
    cuda=Cuda(forward="tr_cholesky", ws=(0, 0, 0, 0), jvp="tr_cholesky_jvp", jvp_ws=(2, 0, 0, 0),
              vjp="tr_cholesky_vjp", vjp_ws=(2, 0, 0, 0)),
)
