"""Checks for users' rules (ChainRulesTestUtils' test_rrule / test_frule): finite differences and the
adjoint identity in float64 at a given point, reporting the worst relative error and where it occurs. The
numeric core is runtime.checking, the one derive.verification.verify checks every derived rule with; an argument on
symmetric matrices (tangent_space) is checked along symmetric tangents.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from runtime import checking
from runtime.registry import CustomOp, Op, frule, resolve_function, rrule
from runtime.tangents import NoTangent, is_zero, unthunk


@dataclass
class CheckReport:
    """Outcome of check_rrule / check_frule: `worst` relative error, `where` it occurred, and every check."""

    op: str
    worst: float = 0.0
    where: str = ""
    tol: float = 0.0
    lines: list = field(default_factory=list)

    def record(self, err, where, detail):
        self.lines.append(f"{where}: relative error {err:.3g} ({detail})")
        if err > self.worst or not self.where:
            self.worst, self.where = float(err), where

    @property
    def ok(self):
        return self.worst <= self.tol

    def __str__(self):
        head = (f"{self.op}: worst relative error {self.worst:.3g} at {self.where} "
                f"({'ok' if self.ok else 'FAILED'}, tolerance {self.tol:.3g})")
        return "\n".join([head] + ["  " + line for line in self.lines])


# --------------------------------------------------------------------------- helpers
def _describe(f):

    r = resolve_function(f)
    if isinstance(r, Op):
        return r.signature, [p["name"] for p in r.inputs], [p["name"] for p in r.outputs], r.forward
    name = getattr(r, "name", None) or getattr(f, "__name__", "f")
    return name, None, None, r


def _is_diff(x):
    if isinstance(x, (bool, np.bool_, int, np.integer)):
        return False
    if isinstance(x, (float, np.floating)):
        return True
    return isinstance(x, np.ndarray) and x.dtype.kind == "f"


def _as64(x):
    if isinstance(x, np.ndarray) and x.dtype.kind == "f":
        return x.astype(np.float64)
    if isinstance(x, (float, np.floating)):
        return float(x)
    return x


def _tuple(y):
    return tuple(y) if isinstance(y, tuple) else (y,)


def _dense(t, like):
    t = unthunk(t)
    if is_zero(t):
        return np.zeros(np.shape(like))
    return np.asarray(t, dtype=np.float64)


def _errors(a, b, atol):
    """Elementwise relative error of a against the reference b; inf wherever either is NaN or Inf: a value
    that is not finite is never dropped, and a reference that is not finite (a point outside the function's
    domain, or at a singularity) verifies nothing, so it cannot pass either."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:      # a value of the wrong shape is wrong everywhere
        return np.full(max(a.size, b.size, 1), np.inf)
    floor = max(atol, 1e-3 * float(np.max(np.abs(np.where(np.isfinite(b), b, 0.0)), initial=0.0)))
    return checking.rel_error(a, b, floor, per_entry=True)


def _why(got, ref):
    """A note for a comparison whose values are not finite."""
    if not np.all(np.isfinite(ref)):
        return "; the reference is not finite here: the point is outside the domain or at a singularity"
    if not np.all(np.isfinite(got)):
        return "; NaN or Inf where the reference is finite"
    return ""


def _loc(name, shape, flat):
    if not shape:
        return name
    return f"{name}[{', '.join(str(int(i)) for i in np.unravel_index(flat, shape))}]"


# --------------------------------------------------------------------------- public checks
def _has_frule(op):
    """False only for a function given a hand-written rrule and no frule; everything else has a forward mode
    (generated ops their frule, plain functions and tnp primitives the tracer)."""

    f = resolve_function(op)
    return f.user_frule is not None if isinstance(f, CustomOp) else True


SYMMETRY_TOL = 1e-10    # a matrix whose asymmetry max|A - Aᵀ| / max|A| exceeds this is not symmetric


def _spaces(op, args, in_names, tangent_space):
    """(the tangent space, "real" or "symmetric", of each argument; the positions whose cotangent must lie in it).
    `tangent_space` maps an argument's position or name to its space; an argument it does not name is symmetric
    when the op declares (or infers) it spd or symmetric and the value given is symmetric, otherwise real. A
    space given here or declared in the op's header is a promise about the cotangent too (the pullback returns
    sym(G)); one only inferred (logdet's argument) is not: the op's pullback there is a general matrix's."""

    given = dict(tangent_space or {})
    r = resolve_function(op)
    doms = r.meta.get("domains", {}) if isinstance(r, Op) else {}
    declared = [p.get("domain", "") for p in r.inputs] if isinstance(r, Op) else [""] * len(args)
    out, required = [], set()
    for i, a in enumerate(args):
        keys = [k for k in (i, in_names[i]) if k in given]
        if len(keys) > 1 and given[keys[0]] != given[keys[1]]:
            raise ValueError(f"tangent_space names argument {i} ({in_names[i]}) twice, differently")
        space = given.pop(keys[0]) if keys else None
        for k in keys[1:]:
            given.pop(k)
        if space is None:
            space = checking.space_of_domain(doms.get(in_names[i], "real"), np.ndim(a))
            if space == "symmetric" and checking.asymmetry(a) > SYMMETRY_TOL:
                space = "real"      # a point off the declared domain: checked along every direction
            elif space == "symmetric" and declared[i] in checking.MATRIX_DOMAINS:
                required.add(i)
        elif space not in checking.SPACES:
            raise ValueError(f"tangent_space for {in_names[i]} must be one of {', '.join(checking.SPACES)}, "
                             f"not {space!r}")
        elif space == "symmetric":
            if not _is_diff(a) or np.ndim(a) < 2 or np.shape(a)[-2] != np.shape(a)[-1]:
                raise ValueError(f"tangent_space: {in_names[i]} is not a square matrix in its last two axes "
                                 f"(shape {np.shape(a)}), so it has no symmetric tangents")
            if checking.asymmetry(a) > SYMMETRY_TOL:
                raise ValueError(f"tangent_space: {in_names[i]} is declared symmetric but is not (max |A - Aᵀ| / "
                                 f"max |A| = {checking.asymmetry(a):.2g}); pass a symmetric point, e.g. (A + A.T)/2")
            required.add(i)
        out.append(space)
    if given:
        raise ValueError(f"tangent_space names no argument of {in_names}: {sorted(map(str, given))}")
    return out, required


def _symmetric_entries(shape):
    """Flat indices of the entries (..., r, c) with r <= c, and of their mirrors (..., c, r)."""
    idx = np.indices(shape).reshape(len(shape), -1)
    upper = idx[-2] <= idx[-1]
    mirror = np.ravel_multi_index((*idx[:-2], idx[-1], idx[-2]), shape)
    return np.flatnonzero(upper), mirror[upper]


def _sweep(probe, args, i, space, eps):
    """The gradient of the scalar `probe` with respect to argument i by central differences along each entry,
    or for space="symmetric" its symmetric part: along E_rc + E_cr (which measures G_rc + G_cr) for r < c and
    along E_rr; divided by the step x ± eps really took once rounded. Returns (flat gradient estimate, flat
    indices it covers, entries the step could not move)."""
    a = args[i]
    shape = np.shape(a)
    size = int(np.size(a))
    idx, mirror = _symmetric_entries(shape) if space == "symmetric" else (np.arange(size), np.arange(size))
    fd = np.full(size, np.nan)
    stuck = []
    for j, m in zip(idx, mirror):
        e = np.zeros(size)
        e[j] = e[m] = 1.0
        direction = [None] * len(args)
        direction[i] = e.reshape(shape) if np.ndim(a) else float(e[0])
        d, taken = checking.central_difference(probe, args, direction, eps)
        moved = float(np.ravel(taken[i])[j])     # x ± eps is rounded: far from 0 the step is not eps
        if not checking.moved_enough(taken, direction):
            stuck.append(j)
            moved = 1.0
        fd[j] = float(d) / moved / (2.0 if m != j else 1.0)
    return fd, idx, stuck


def check_rrule(op, *args, rtol=1e-5, atol=1e-8, eps=1e-6, seed=0, max_elements=400, verbose=False,
                tangent_space=None):
    """Check `rrule(op, *args)`: primal against the forward function, each argument's cotangent elementwise
    against central finite differences of <dy, f(x)> (random directions for large arguments), and the
    adjoint identity against `frule` when one exists. Returns a CheckReport; raises AssertionError with it
    when the worst relative error exceeds rtol.

    `tangent_space` ({position or argument name: "symmetric"}) says an argument lives on symmetric matrices (last
    two axes; leading axes are batch axes): a function of a symmetric matrix such as cholesky reads one triangle,
    so only symmetric directions measure its derivative. The argument's finite differences then move A[r,c] and
    A[c,r] together, its tangents are symmetric, and its cotangent must lie in that tangent space (be symmetric,
    within rtol) and is compared with them entry by entry. A generated op's argument declared or inferred
    `spd`/`symmetric` is symmetric by default when the value given is symmetric; where only inferred (logdet's
    argument, which the op treats as a general matrix) the cotangent is compared through its symmetric part
    (G + Gᵀ)/2, the only part a symmetric tangent sees, and need not be symmetric itself."""

    label, in_names, out_names, forward = _describe(op)
    args = [_as64(a) for a in args]
    in_names = in_names or [f"arg{i}" for i in range(len(args))]
    spaces, required = _spaces(op, args, in_names, tangent_space)
    rng = np.random.default_rng(seed)
    report = CheckReport(label, tol=rtol)

    y, pullback = rrule(op, *args)
    ys = _tuple(y)
    _check_primal(report, ys, _tuple(forward(*args)), out_names, atol)
    dys = tuple(rng.standard_normal(np.shape(v)) for v in ys)
    cots = tuple(unthunk(c) for c in pullback(dys if isinstance(y, tuple) else dys[0]))
    if len(cots) != len(args) + 1:
        raise AssertionError(f"{label}: pullback returned {len(cots)} cotangents, expected {len(args) + 1} "
                             f"(d_self first)")
    cots = cots[1:]

    def probe(*xs):
        return checking.inner(_tuple(forward(*xs)), dys)

    for i, (c, space) in enumerate(zip(cots, spaces)):
        _check_cotangent(report, probe, args, i, in_names[i], c, space, i in required, (eps, atol, max_elements),
                         rng)

    # adjoint identity against the frule, where there is one; a frule that exists but raises is a failure,
    # not a reason to skip the check
    tangents = _tangents(args, spaces, rng)
    if _has_frule(op):
        try:
            _, dy = frule((NoTangent(),) + tangents, op, *args)
        except Exception as exc:
            raise AssertionError(f"{label}: its frule raised {type(exc).__name__}: {exc}") from exc
        _adjoint(report, dys, _tuple(dy), cots, tangents, atol, "dy_bar")
    else:
        report.lines.append("adjoint identity: skipped (no frule registered for this function)")
    if verbose:
        print(report)
    if not report.ok:
        raise AssertionError(str(report))
    return report


def _check_primal(report, ys, y_ref, out_names, atol):
    for k, (a, b) in enumerate(zip(ys, y_ref)):
        e = _errors(a, b, atol)
        report.record(float(np.max(e, initial=0.0)), f"primal {(out_names or ['y'] * len(ys))[k]}",
                      "rrule's primal vs the forward function" + _why(a, b))


def _cotangent_to_check(report, name, a, c):
    """The argument's cotangent as a dense array, or None (with a failure recorded where it is one) when there is
    nothing to compare: a non-differentiable argument, NoTangent, or the wrong shape."""
    if not _is_diff(a):
        if not is_zero(c):
            report.record(np.inf, name, "a non-differentiable argument got a cotangent")
        return None
    if isinstance(c, NoTangent):
        report.record(np.inf, name, "NoTangent for a differentiable argument")
        return None
    cd = _dense(c, a)
    if np.shape(cd) != np.shape(a):
        report.record(np.inf, name, f"cotangent shape {np.shape(cd)} != argument shape {np.shape(a)}")
        return None
    return cd


def _check_cotangent(report, probe, args, i, name, c, space, in_space, settings, rng):
    """Argument i's cotangent c: in its tangent space where that is required (`in_space`), and against finite
    differences, entry by entry for a small argument, along random directions for a large one."""
    eps, atol, max_elements = settings
    cd = _cotangent_to_check(report, name, args[i], c)
    if cd is None:
        return
    if in_space:
        _check_in_space(report, name, cd)
    cd = checking.project(cd, space)
    if int(np.size(args[i])) <= max_elements:
        _check_elementwise(report, probe, args, i, name, cd, space, eps, atol)
    else:
        _check_directions(report, probe, args, i, name, cd, space, eps, atol, rng)


def _check_in_space(report, name, cd):
    """A cotangent promised on symmetric matrices is symmetric: along symmetric tangents (finite differences, the
    adjoint identity) its antisymmetric part is invisible, so it is measured apart, as max |G - Gᵀ| / max |G|."""
    asym = checking.asymmetry(cd)
    report.record(asym, f"{name} (tangent space)",
                  "the cotangent is symmetric" if asym <= report.tol else
                  f"the cotangent is not in its tangent space, the symmetric matrices: max |G - Gᵀ| / max |G| = "
                  f"{asym:.3g}; return its symmetric part (G + Gᵀ)/2")


def _check_elementwise(report, probe, args, i, name, cd, space, eps, atol):
    """Every entry of a small argument's cotangent against central finite differences."""
    a = args[i]
    sym = " (symmetric part)" if space == "symmetric" else ""
    fd, idx, stuck = _sweep(probe, args, i, space, eps)
    if stuck:
        report.record(np.inf, _loc(name, np.shape(a), stuck[0]),
                      f"a step of {eps:g} cannot move the argument here (it is too large): nothing is checked")
    got = np.ravel(cd)[idx]
    err = _errors(got, fd[idx], atol)
    j = int(np.argmax(err))
    report.record(float(err[j]), _loc(name, np.shape(a), idx[j]),
                  f"rrule gives {got[j]:.6g}{sym}, finite differences {fd[idx][j]:.6g}"
                  + _why(got[j], fd[idx][j]))


def _check_directions(report, probe, args, i, name, cd, space, eps, atol, rng):
    """A large argument's cotangent along three random directions."""
    for _ in range(3):
        v = checking.random_like(args[i], rng, space)
        direction = [None] * len(args)
        direction[i] = v
        fd, taken = checking.central_difference(probe, args, direction, eps)
        got = float(np.sum(cd * v))
        report.record(float(np.max(_errors(got, fd, atol))), f"{name} (random direction)",
                      f"<cotangent, v> = {got:.6g}, finite differences {float(fd):.6g}" + _why(got, fd))


def _tangents(args, spaces, rng):
    return tuple(checking.random_like(a, rng, space) if _is_diff(a) else NoTangent()
                 for a, space in zip(args, spaces))


def _adjoint(report, ybar, ydot, cots, tangents, atol, name):
    err, lhs, rhs = checking.adjoint_error(ybar, ydot, cots, tangents, floor=atol)
    report.record(err, "adjoint identity", f"<{name}, frule(dx)> = {lhs:.6g}, <rrule({name}), dx> = {rhs:.6g}"
                  + _why(lhs, rhs))


def check_frule(op, *args, rtol=1e-5, atol=1e-8, eps=1e-6, seed=0, verbose=False, tangent_space=None):
    """Check `frule(tangents, op, *args)` with random tangents: its output tangent elementwise against central
    finite differences along those tangents, and the adjoint identity against `rrule` when one exists.
    `tangent_space` says which arguments live on symmetric matrices, as for check_rrule: their tangents are
    symmetric."""

    label, in_names, out_names, forward = _describe(op)
    args = [_as64(a) for a in args]
    spaces, _ = _spaces(op, args, in_names or [f"arg{i}" for i in range(len(args))], tangent_space)
    rng = np.random.default_rng(seed)
    report = CheckReport(label, tol=rtol)
    tangents = _tangents(args, spaces, rng)
    y, dy = frule((NoTangent(),) + tangents, op, *args)
    ys, dys = _tuple(y), _tuple(dy)
    out_names = out_names or ([f"y[{k}]" for k in range(len(ys))] if isinstance(y, tuple) else ["y"])

    y_ref = _tuple(forward(*args))
    fd, taken = checking.central_difference(forward, args, tangents, eps)
    fd, dys_fd = _tuple(fd), dys
    if not checking.moved_enough(taken, tangents):
        report.record(np.inf, "finite differences", f"a step of {eps:g} cannot move the arguments (they are too "
                      f"large): nothing is checked")
    elif any(t is not None and not np.array_equal(t, v) for t, v in zip(taken, tangents) if _is_diff(v)):
        # x ± eps·t was rounded: compare the frule along the tangent the differences really took
        dys_fd = _tuple(frule((NoTangent(),) + tuple(NoTangent() if t is None else t for t in taken), op, *args)[1])
    for k in range(len(ys)):
        e = _errors(ys[k], y_ref[k], atol)
        report.record(float(np.max(e, initial=0.0)), f"primal {out_names[k]}",
                      "frule's primal vs the forward function" + _why(ys[k], y_ref[k]))
        got = _dense(dys_fd[k], ys[k])
        if got.shape != fd[k].shape:
            report.record(np.inf, out_names[k], f"tangent shape {got.shape} != output shape {fd[k].shape}")
            continue
        err = _errors(got.ravel(), fd[k].ravel(), atol)
        j = int(np.argmax(err)) if err.size else 0
        if err.size:
            report.record(float(err[j]), _loc(out_names[k], fd[k].shape, j),
                          f"frule gives {got.ravel()[j]:.6g}, finite differences {fd[k].ravel()[j]:.6g}"
                          + _why(got.ravel()[j], fd[k].ravel()[j]))
    try:
        _, pullback = rrule(op, *args)
    except Exception:
        pullback = None
    if pullback is not None:
        ybar = tuple(rng.standard_normal(np.shape(v)) for v in ys)
        cots = tuple(unthunk(c) for c in pullback(ybar if isinstance(y, tuple) else ybar[0]))[1:]
        _adjoint(report, ybar, dys, cots, tangents, atol, "y_bar")
    if verbose:
        print(report)
    if not report.ok:
        raise AssertionError(str(report))
    return report
