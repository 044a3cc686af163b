"""expm(A): the matrix exponential of a general square matrix (scipy.linalg.expm: scaling and squaring with
Padé approximants, Al-Mohy & Higham 2009).

The pushforward is the Fréchet derivative L(A, dA), the top-right block of expm([[A, dA], [0, A]]) (Higham,
Functions of Matrices, 2008, eq. 3.16 / Mathias 1996); the pullback is its transpose, the Fréchet derivative
at Aᵀ: Ā = L(Aᵀ, Ē). SciPy is the well-kept implementation NumPy lacks; these maps are NumPy code, not traced
operations, so runtime.tnp differentiates expm once."""
import numpy as np

from primitives.matrix import Cuda, MatrixPrimitive


def _expm(A):
    import scipy.linalg

    return scipy.linalg.expm(np.asarray(A))


def frechet(A, E):
    """L(A, E) through the block-triangular identity, batched over leading axes."""
    A, E = np.asarray(A), np.asarray(E)
    A, E = np.broadcast_arrays(A, E)
    n = A.shape[-1]
    # the arguments' floating dtype out (float32 stays float32, as JAX and torch keep it), computed in float64
    # (rounded once at the end: the tangent of float32 data to float32's precision)
    out = np.result_type(A, E, np.float32)
    big = np.zeros(A.shape[:-2] + (2 * n, 2 * n), dtype=np.result_type(out, np.float64))
    big[..., :n, :n] = A
    big[..., n:, n:] = A
    big[..., :n, n:] = E
    return _expm(big)[..., :n, n:].astype(out, copy=False)


def _jvp(xp, A, dA):
    return frechet(A, dA)


def _vjp(xp, A, Ebar):
    return frechet(np.swapaxes(A, -1, -2), Ebar)


PRIMITIVE = MatrixPrimitive(
    name="expm",
    doc="the matrix exponential",
    forward=_expm,
    result="square",
    keeps_symmetry=True,
    jvp=_jvp,
    vjp=_vjp,
    saves=("X",),
    traceable=False,
    # e^709 is float64's largest value; past ‖A‖₁ ≈ 700 scaling and squaring overflows in its intermediates
    # (and the value itself may), even where the true exponential of a non-normal matrix is finite
    max_norm=700.0,
    show="exp({X})",
    show_latex=r"e^{{{X}}}",
    show_jvp="d{R} = L_exp({X}, d{X})",
    show_vjp="d{X} = L_exp({X}ᵀ, d{R})",
    # L_exp(Xᵀ, c·I) = c·exp(Xᵀ) = c·exp(X)ᵀ: I commutes with Xᵀ, so the integrand is c·exp(Xᵀ) for every s
    vjp_at_identity="dX[i,j] = dR * R[j,i]",
    show_where=(("L_exp", "L_exp(A, E) = ∫₀¹ exp(s·A)·E·exp((1 - s)·A) ds, the derivative of exp at A along E",
                 r"L_{\exp}(A, E) = \int_0^1 e^{sA} E\, e^{(1 - s)A}\, \mathrm{d}s", lambda X: frechet),),
    cuda=Cuda(forward="tr_expm", ws=(7, 0, 1, 0), jvp="tr_expm_jvp", jvp_ws=(36, 0, 2, 0),
              vjp="tr_expm_vjp", vjp_ws=(36, 0, 2, 0)),
)
