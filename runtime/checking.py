"""The numeric core of every derivative check: central finite differences, the adjoint identity, one relative
error, and random tangents (general, or symmetric for arguments that live on symmetric matrices).

derive.verification.verify (run on each derived rule before it is emitted) and runtime.testing (the user's check_rrule /
check_frule) both check through these functions. Plain NumPy, no SymPy. A NaN or Inf in a compared quantity is
never dropped: every comparison here reports it as an infinite error.

Symmetric tangents: a function of a symmetric matrix (cholesky, eigh, ... which read one triangle only) is
defined on the space of symmetric matrices, so its derivative is only measured along symmetric directions
ẋ = (T + Tᵀ)/2 (last two axes; leading axes are batch axes, as in NumPy), and a gradient is compared through its symmetric
part, which is all such a direction sees.
"""
from __future__ import annotations

import numpy as np

from runtime.tangents import is_zero, unthunk

FD_STEPS = (1e-4, 1e-5, 1e-6, 1e-7)    # central-difference steps tried (relative to a tangent of norm ~1)
SPACES = ("real", "symmetric")          # tangent spaces an argument can have
MATRIX_DOMAINS = ("spd", "symmetric")   # input domains (derive.language.domains) whose tangents are symmetric


# -- vectors ------------------------------------------------------------------------------------------------------


def flat(v, like=None):
    """v's entries as one flat float vector. A zero tangent (None, ZeroTangent, NoTangent) is None, or zeros the
    size of `like` (its counterpart) when one is given, so a tuple holding a zero tangent still flattens."""
    v = unthunk(v) if v is not None else None
    if isinstance(v, tuple):
        likes = like if isinstance(like, tuple) else (None,) * len(v)
        parts = [flat(x, l) for x, l in zip(v, likes)]
        if any(p is None for p in parts):
            return None
        return np.concatenate(parts) if parts else np.zeros(0)
    if v is None or is_zero(v):
        return None if like is None else np.zeros(np.size(flat(like, v) if isinstance(like, tuple) else like))
    return np.ravel(np.asarray(v, dtype=float))


def finite(v, like=None) -> bool:
    """True unless v holds a NaN or an Inf (a zero tangent is finite)."""
    f = flat(v, like)
    return f is None or bool(np.all(np.isfinite(f)))


def inner(a, b) -> float:
    """⟨a, b⟩ over all entries (tuples entry by entry); a zero tangent contributes 0, a size mismatch NaN."""
    if isinstance(a, tuple) or isinstance(b, tuple):
        a = a if isinstance(a, tuple) else (a,)
        b = b if isinstance(b, tuple) else (b,)
        return float(sum(inner(x, y) for x, y in zip(a, b))) if len(a) == len(b) else float("nan")
    fa, fb = flat(a), flat(b)
    if fa is None or fb is None:
        return 0.0
    if fa.shape != fb.shape:
        return float("nan")
    with np.errstate(all="ignore"):
        return float(fa @ fb)


def norm(v) -> float:
    with np.errstate(all="ignore"):
        f = flat(v)
        return 0.0 if f is None else float(np.linalg.norm(f))


def rel_error(got, want, floor=1e-8, *, per_entry=False, relative_to="both"):
    """The relative error of `got` against `want`: |got - want| / max(|got|, |want|, floor) in the 2-norm (with
    relative_to="want": / max(|want|, floor)), or entry by entry with per_entry=True (an array). `floor` keeps a
    derivative that is zero (a constant function) from dividing finite-difference noise by nothing. A NaN or Inf
    in either, or shapes that differ, give inf: a comparison never drops a NaN. A zero tangent is zeros."""
    fa, fb = flat(got, want), flat(want, got)
    if fa is None and fb is None:
        return np.zeros(0) if per_entry else 0.0
    fa = np.zeros_like(fb) if fa is None else fa
    fb = np.zeros_like(fa) if fb is None else fb
    if per_entry:
        if fa.shape != fb.shape:
            return np.full(max(fa.size, fb.size), np.inf)
        ok = np.isfinite(fa) & np.isfinite(fb)
        with np.errstate(all="ignore"):
            scale = np.abs(fb) if relative_to == "want" else np.maximum(np.abs(fa), np.abs(fb))
            err = np.abs(fa - fb) / np.maximum(scale, floor)
        return np.where(ok, err, np.inf)
    if fa.shape != fb.shape or not (np.all(np.isfinite(fa)) and np.all(np.isfinite(fb))):
        return np.inf
    with np.errstate(all="ignore"):     # norms of entries near 1e300 overflow: no RuntimeWarning for the user
        scale = np.linalg.norm(fb) if relative_to == "want" else max(np.linalg.norm(fa), np.linalg.norm(fb))
        err = float(np.linalg.norm(fa - fb) / max(scale, floor))
    return err if err == err else np.inf


# -- tangents -----------------------------------------------------------------------------------------------------


def symmetrize(x):
    """(x + xᵀ)/2 over the last two axes (leading axes are batch axes); exactly symmetric."""
    x = np.asarray(x, dtype=float)
    return (x + np.swapaxes(x, -1, -2)) / 2


def asymmetry(x) -> float:
    """max |x - xᵀ| over the last two axes relative to max |x|: 0 for an exactly symmetric matrix, inf for an
    array that is not square in its last two axes."""
    x = np.asarray(x, dtype=float)
    if x.ndim < 2 or x.shape[-2] != x.shape[-1]:
        return np.inf
    with np.errstate(all="ignore"):
        big = float(np.max(np.abs(x), initial=0.0))
        return float(np.max(np.abs(x - np.swapaxes(x, -1, -2)), initial=0.0)) / big if big else 0.0


def project(t, space):
    """A tangent (or cotangent) moved into `space`: its symmetric part for "symmetric", itself for "real"."""
    if space == "symmetric" and t is not None and not is_zero(t):
        return symmetrize(t)
    return t


def random_like(x, rng, space="real"):
    """A standard normal tangent shaped like x (a float for a scalar, tuples entry by entry); symmetric in its
    last two axes for space="symmetric" (the same draws, symmetrized)."""
    if isinstance(x, tuple):
        return tuple(random_like(v, rng) for v in x)
    t = rng.standard_normal(np.shape(x)) if np.ndim(x) else float(rng.standard_normal())
    return project(t, space)


def space_of_domain(dom, ndim) -> str:
    """The tangent space of an input whose derive.language.domains text is `dom`: symmetric for spd/symmetric matrices."""
    return "symmetric" if dom in MATRIX_DOMAINS and ndim >= 2 else "real"


# -- finite differences -------------------------------------------------------------------------------------------


def central_difference(f, x, xdot, h):
    """(f(x + h·ẋ) - f(x - h·ẋ)) / 2h over the arguments x (a list; an argument whose tangent is None or zero
    stays), and the tangent the difference actually took: x ± h·ẋ is rounded, so far from the origin (x ≈ 1e8,
    ulp 1.5e-8) the points moved by (x₊ - x₋)/2h, not by h·ẋ. A tuple output gives a tuple."""
    keep = [t is None or is_zero(t) for t in xdot]
    xp = [v if k else v + h * t for v, t, k in zip(x, xdot, keep)]
    xm = [v if k else v - h * t for v, t, k in zip(x, xdot, keep)]
    taken = [None if k else (a - b) / (2 * h) for a, b, k in zip(xp, xm, keep)]
    yp, ym = f(*xp), f(*xm)
    if isinstance(yp, tuple):
        return tuple((np.asarray(a, dtype=float) - np.asarray(b, dtype=float)) / (2 * h)
                     for a, b in zip(yp, ym)), taken
    return (np.asarray(yp, dtype=float) - np.asarray(ym, dtype=float)) / (2 * h), taken


def moved_enough(taken, xdot) -> bool:
    """Did the rounded steps x ± h·ẋ move the inputs along (most of) ẋ? At x = 1e300 they do not move at all,
    and a difference of zero against a derivative along a zero tangent would check nothing."""
    pairs = [(w, t) for t, w in zip(taken, xdot) if w is not None and not is_zero(w)]
    if not pairs:
        return True
    want = float(np.linalg.norm(np.concatenate([np.ravel(w) for w, _ in pairs])))
    got = float(np.linalg.norm(np.concatenate([np.ravel(np.asarray(t, dtype=float)) for _, t in pairs])))
    return want == 0.0 or got >= 0.5 * want


def differences(f, x, xdot, steps=FD_STEPS):
    """[(difference, tangent taken)] at each step whose difference is finite and whose steps moved the inputs:
    the finite differences a derivative along ẋ is compared with (the best agreement counts). Empty when no step
    gives one: nothing can be checked there."""
    out = []
    for h in steps:
        fd, taken = central_difference(f, x, xdot, h)
        if finite(fd) and moved_enough(taken, xdot):
            out.append((fd, taken))
    return out


# -- the adjoint identity -----------------------------------------------------------------------------------------


def adjoint_error(ybar, ydot, xbars, xdots, floor=0.0):
    """(error, ⟨ȳ, J·ẋ⟩, ⟨Jᵀ·ȳ, ẋ⟩): the relative error of the adjoint identity for a pushforward ydot = J·ẋ
    and the pullback's cotangents xbars = Jᵀ·ȳ, summed over the arguments whose tangent is not None. The scale
    has a floor of 1e-4·|ȳ|·|ẋ| (and `floor`), which lets a derivative that vanishes (a constant function) pass
    on rounding noise; a wrong pullback errs by O(|ȳ|·|J|·|ẋ|), far above it. Not finite: inf."""
    lhs = inner(ybar, ydot)
    rhs = float(sum(inner(g, t) for g, t in zip(xbars, xdots) if t is not None and not is_zero(t)))
    xs = [flat(t) for t in xdots if t is not None and not is_zero(t)]
    with np.errstate(all="ignore"):
        xnorm = float(np.linalg.norm(np.concatenate(xs))) if xs else 0.0
        scale = max(abs(lhs), abs(rhs), 1e-4 * norm(ybar) * xnorm, floor)
        if not (np.isfinite(lhs) and np.isfinite(rhs)):
            err = np.inf
        else:
            err = abs(lhs - rhs) / scale if lhs != rhs else 0.0
    return (float(err) if err == err else np.inf), lhs, rhs
