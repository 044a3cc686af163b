"""Checks for users' rules (ChainRulesTestUtils' test_rrule / test_frule): finite differences and the
adjoint identity in float64 at a given point, reporting the worst relative error and where it occurs.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

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
    from runtime.registry import Op, _resolve

    r = _resolve(f)
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


def _rand_like(rng, x):
    return float(rng.standard_normal()) if np.ndim(x) == 0 and not isinstance(x, np.ndarray) \
        else rng.standard_normal(np.shape(x))


def _perturb(args, i, delta):
    out = list(args)
    out[i] = args[i] + delta
    return out


def _inner(ys, dys):
    return sum(float(np.sum(np.asarray(a, dtype=np.float64) * np.asarray(b, dtype=np.float64)))
               for a, b in zip(ys, dys))


def _errors(a, b, atol):
    """Elementwise relative error of a against the reference b; inf wherever either is NaN or Inf: a value
    that is not finite is never dropped, and a reference that is not finite (a point outside the function's
    domain, or at a singularity) verifies nothing, so it cannot pass either."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    finite = np.isfinite(a) & np.isfinite(b)
    floor = max(atol, 1e-3 * float(np.max(np.abs(np.where(np.isfinite(b), b, 0.0)), initial=0.0)))
    with np.errstate(all="ignore"):
        err = np.abs(a - b) / np.maximum(np.maximum(np.abs(a), np.abs(b)), floor)
    return np.where(finite, err, np.inf)


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
    from runtime.registry import CustomOp, _resolve

    f = _resolve(op)
    return f.user_frule is not None if isinstance(f, CustomOp) else True


def check_rrule(op, *args, rtol=1e-5, atol=1e-8, eps=1e-6, seed=0, max_elements=400, verbose=False):
    """Check `rrule(op, *args)`: primal against the forward function, each argument's cotangent elementwise
    against central finite differences of <dy, f(x)> (random directions for large arguments), and the
    adjoint identity against `frule` when one exists. Returns a CheckReport; raises AssertionError with it
    when the worst relative error exceeds rtol."""
    from runtime.registry import rrule, frule

    label, in_names, out_names, forward = _describe(op)
    args = [_as64(a) for a in args]
    in_names = in_names or [f"arg{i}" for i in range(len(args))]
    rng = np.random.default_rng(seed)
    report = CheckReport(label, tol=rtol)

    y, pullback = rrule(op, *args)
    ys = _tuple(y)
    y_ref = _tuple(forward(*args))
    for k, (a, b) in enumerate(zip(ys, y_ref)):
        e = _errors(a, b, atol)
        report.record(float(np.max(e, initial=0.0)), f"primal {(out_names or ['y'] * len(ys))[k]}",
                      "rrule's primal vs the forward function" + _why(a, b))
    dys = tuple(rng.standard_normal(np.shape(v)) for v in ys)
    cots = pullback(dys if isinstance(y, tuple) else dys[0])
    cots = tuple(unthunk(c) for c in cots)
    if len(cots) != len(args) + 1:
        raise AssertionError(f"{label}: pullback returned {len(cots)} cotangents, expected {len(args) + 1} "
                             f"(d_self first)")
    cots = cots[1:]

    def probe(xs):
        return _inner(_tuple(forward(*xs)), dys)

    for i, (a, c) in enumerate(zip(args, cots)):
        if not _is_diff(a):
            if not (is_zero(c)):
                report.record(np.inf, in_names[i], "a non-differentiable argument got a cotangent")
            continue
        if isinstance(c, NoTangent):
            report.record(np.inf, in_names[i], "NoTangent for a differentiable argument")
            continue
        cd = _dense(c, a)
        if np.shape(cd) != np.shape(a):
            report.record(np.inf, in_names[i], f"cotangent shape {np.shape(cd)} != argument shape {np.shape(a)}")
            continue
        size = int(np.size(a))
        if size <= max_elements:
            fd = np.empty(size)
            for j in range(size):
                e = np.zeros(size)
                e[j] = eps
                e = e.reshape(np.shape(a)) if np.ndim(a) else float(e[0])
                fd[j] = (probe(_perturb(args, i, e)) - probe(_perturb(args, i, -e))) / (2 * eps)
            err = _errors(cd.ravel(), fd, atol)
            j = int(np.argmax(err))
            report.record(float(err[j]), _loc(in_names[i], np.shape(a), j),
                          f"rrule gives {cd.ravel()[j]:.6g}, finite differences {fd[j]:.6g}"
                          + _why(cd.ravel()[j], fd[j]))
        else:
            for _ in range(3):
                v = rng.standard_normal(np.shape(a))
                fd = (probe(_perturb(args, i, eps * v)) - probe(_perturb(args, i, -eps * v))) / (2 * eps)
                got = float(np.sum(cd * v))
                report.record(float(_errors(got, fd, atol)), f"{in_names[i]} (random direction)",
                              f"<cotangent, v> = {got:.6g}, finite differences {fd:.6g}" + _why(got, fd))

    # adjoint identity against the frule, where there is one; a frule that exists but raises is a failure,
    # not a reason to skip the check
    tangents = tuple(_rand_like(rng, a) if _is_diff(a) else NoTangent() for a in args)
    if _has_frule(op):
        try:
            _, dy = frule((NoTangent(),) + tangents, op, *args)
        except Exception as exc:
            raise AssertionError(f"{label}: its frule raised {type(exc).__name__}: {exc}") from exc
    else:
        dy = None
        report.lines.append("adjoint identity: skipped (no frule registered for this function)")
    if dy is not None:
        lhs = _inner([_dense(d, v) for d, v in zip(_tuple(dy), ys)], dys)
        rhs = sum(float(np.sum(_dense(c, a) * t)) for a, c, t in zip(args, cots, tangents) if _is_diff(a))
        report.record(float(_errors(lhs, rhs, atol)), "adjoint identity",
                      f"<dy_bar, frule(dx)> = {lhs:.6g}, <rrule(dy_bar), dx> = {rhs:.6g}" + _why(lhs, rhs))
    if verbose:
        print(report)
    if not report.ok:
        raise AssertionError(str(report))
    return report


def check_frule(op, *args, rtol=1e-5, atol=1e-8, eps=1e-6, seed=0, verbose=False):
    """Check `frule(tangents, op, *args)` with random tangents: its output tangent elementwise against central
    finite differences along those tangents, and the adjoint identity against `rrule` when one exists."""
    from runtime.registry import frule, rrule

    label, in_names, out_names, forward = _describe(op)
    args = [_as64(a) for a in args]
    rng = np.random.default_rng(seed)
    report = CheckReport(label, tol=rtol)
    tangents = tuple(_rand_like(rng, a) if _is_diff(a) else NoTangent() for a in args)
    y, dy = frule((NoTangent(),) + tangents, op, *args)
    ys, dys = _tuple(y), _tuple(dy)
    out_names = out_names or ([f"y[{k}]" for k in range(len(ys))] if isinstance(y, tuple) else ["y"])

    def along(s):
        return [a + s * t if _is_diff(a) else a for a, t in zip(args, tangents)]

    y_ref = _tuple(forward(*args))
    plus, minus = _tuple(forward(*along(eps))), _tuple(forward(*along(-eps)))
    for k in range(len(ys)):
        e = _errors(ys[k], y_ref[k], atol)
        report.record(float(np.max(e, initial=0.0)), f"primal {out_names[k]}",
                      "frule's primal vs the forward function" + _why(ys[k], y_ref[k]))
        fd = (np.asarray(plus[k], dtype=np.float64) - np.asarray(minus[k], dtype=np.float64)) / (2 * eps)
        got = _dense(dys[k], ys[k])
        if got.shape != fd.shape:
            report.record(np.inf, out_names[k], f"tangent shape {got.shape} != output shape {fd.shape}")
            continue
        err = _errors(got.ravel(), fd.ravel(), atol)
        j = int(np.argmax(err)) if err.size else 0
        if err.size:
            report.record(float(err[j]), _loc(out_names[k], fd.shape, j),
                          f"frule gives {got.ravel()[j]:.6g}, finite differences {fd.ravel()[j]:.6g}"
                          + _why(got.ravel()[j], fd.ravel()[j]))
    try:
        _, pullback = rrule(op, *args)
    except Exception:
        pullback = None
    if pullback is not None:
        ybar = tuple(rng.standard_normal(np.shape(v)) for v in ys)
        cots = tuple(unthunk(c) for c in pullback(ybar if isinstance(y, tuple) else ybar[0]))[1:]
        lhs = _inner([_dense(d, v) for d, v in zip(dys, ys)], ybar)
        rhs = sum(float(np.sum(_dense(c, a) * t)) for a, c, t in zip(args, cots, tangents) if _is_diff(a))
        report.record(float(_errors(lhs, rhs, atol)), "adjoint identity",
                      f"<y_bar, frule(dx)> = {lhs:.6g}, <rrule(y_bar), dx> = {rhs:.6g}" + _why(lhs, rhs))
    if verbose:
        print(report)
    if not report.ok:
        raise AssertionError(str(report))
    return report
