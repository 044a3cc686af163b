"""Numerical proof of a derived rule before it is emitted: the emitted code itself is run.

The pushforward is checked against central finite differences of the forward function, the pullback
against the pushforward through the adjoint identity ⟨ȳ, J·ẋ⟩ = ⟨Jᵀ·ȳ, ẋ⟩, in float64 at random points,
with inputs drawn from each argument's domain (positive, SPD, well-conditioned).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

SIZES = (3, 4, 2, 5, 6, 7)
FD_STEPS = (1e-4, 1e-5, 1e-6, 1e-7)
FD_TOL = 1e-6
ADJ_TOL = 1e-10


@dataclass
class Check:
    fd_error: float = 0.0          # worst relative error of the pushforward against finite differences
    adjoint_error: float = 0.0     # worst relative error of the adjoint identity
    primal_error: float = 0.0      # frule/rrule primal vs forward
    reference_error: float = 0.0   # worst relative error of the forward value against derive.reference
    points: int = 0
    problems: list = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def sample_inputs(meta, rng, sizes=None):
    """Random arguments for an op from its OPS metadata (shapes from index extents, domain hints)."""
    ext = dict(sizes or {})
    classes = {}
    for group in meta.get("equal_extents", []):
        for l in group:
            classes[l] = group[0]
    for l, n in meta.get("extents", {}).items():
        ext.setdefault(classes.get(l, l), n)
    k = 0
    args = []
    for inp in meta["inputs"]:
        if inp["kind"] == "int":
            args.append(2)
            continue
        dom = meta.get("domains", {}).get(inp["name"], "real")
        if inp["kind"] == "scalar":
            args.append(float(rng.uniform(0.5, 1.5) if dom == "positive" else rng.uniform(0.6, 1.4)))
            continue
        shape = []
        for l in inp["indices"]:
            c = classes.get(l, l)
            if c not in ext:
                ext[c] = SIZES[k % len(SIZES)]
                k += 1
            shape.append(ext[c])
        args.append(_draw(shape, dom, rng))
    return args


def _draw(shape, dom, rng):
    if dom == "positive":
        return rng.uniform(0.5, 1.5, shape)
    x = rng.uniform(-0.5, 0.5, shape)
    if dom in ("spd", "wellcond") and len(shape) >= 2 and shape[0] == shape[1]:
        n = shape[0]
        m = np.moveaxis(x, (0, 1), (-2, -1))
        if dom == "spd":
            m = m @ np.swapaxes(m, -1, -2) + np.eye(n)
        else:
            m = m + 2.0 * np.eye(n)
        return np.ascontiguousarray(np.moveaxis(m, (-2, -1), (0, 1)))
    return x


def _flat(v, like=None):
    """v's entries as one flat vector; a zero tangent is None, or zeros the size of `like` (its counterpart)
    when one is given, so a tuple holding a zero tangent (a constant output) still flattens."""
    if isinstance(v, tuple):
        likes = like if isinstance(like, tuple) else (None,) * len(v)
        parts = [_flat(x, l) for x, l in zip(v, likes)]
        if any(p is None for p in parts):
            return None
        return np.concatenate(parts) if parts else np.zeros(0)
    if v is None or type(v).__name__ in ("ZeroTangent", "NoTangent"):
        return None if like is None else np.zeros(np.size(_flat(like, v) if isinstance(like, tuple) else like))
    return np.ravel(np.asarray(v, dtype=float))


def _like(y, rng):
    if isinstance(y, tuple):
        return tuple(_like(v, rng) for v in y)
    return rng.standard_normal(np.shape(y)) if np.ndim(y) else float(rng.standard_normal())


def _dot(a, b):
    if isinstance(a, tuple):
        return sum(_dot(x, y) for x, y in zip(a, b))
    fa = _flat(a)
    fb = _flat(b)
    if fa is None or fb is None:
        return 0.0
    return float(fa @ fb)


def _rel(a, b, floor=1e-8):
    """Relative error; `floor` keeps a derivative that is zero (a constant function) from dividing
    finite-difference noise by nothing."""
    fa, fb = _flat(a, b), _flat(b, a)
    fa = np.zeros_like(fb) if fa is None else fa
    fb = np.zeros_like(fa) if fb is None else fb
    scale = max(np.linalg.norm(fa), np.linalg.norm(fb), floor)
    return float(np.linalg.norm(fa - fb) / scale)


def _central(f, x, xdot, h, multi):
    xp = [v + h * t if t is not None else v for v, t in zip(x, xdot)]
    xm = [v - h * t if t is not None else v for v, t in zip(x, xdot)]
    yp, ym = f(*xp), f(*xm)
    if multi:
        return tuple((a - b) / (2 * h) for a, b in zip(yp, ym))
    return (yp - ym) / (2 * h)


def check_op(name, fns, meta, seeds=(0, 1)) -> Check:
    """Check one op's emitted forward, frule and rrule at random points."""
    from runtime.tangents import unthunk

    f, frule, rrule = fns[name], fns[name + "_frule"], fns[name + "_rrule"]
    chk = Check()
    for seed in seeds:
        rng = np.random.default_rng(seed)
        x = sample_inputs(meta, rng)
        diff = [inp["kind"] != "int" for inp in meta["inputs"]]
        with np.errstate(all="ignore"):
            y = f(*x)
            if not np.all(np.isfinite(_flat(y))):
                chk.problems.append(f"the forward pass is not finite at a random point (seed {seed})")
                break
            xdot = [(_like(v, rng) if d else None) for v, d in zip(x, diff)]
            from runtime.tangents import NoTangent
            tangents = (NoTangent(),) + tuple(t if t is not None else NoTangent() for t in xdot)
            y1, ydot = frule(tangents, *x)
            # central differences at several steps; the best one (truncation vs rounding) is the estimate
            fds = [_central(f, x, xdot, h, isinstance(y, tuple)) for h in FD_STEPS]
            y2, pb = rrule(*x)
            ybar = _like(y, rng)
            grads = pb(ybar)
        chk.points += 1
        chk.primal_error = max(chk.primal_error, _rel(y1, y), _rel(y2, y))
        ynorm = float(np.linalg.norm(_flat(y)))
        chk.fd_error = max(chk.fd_error, min(_rel(ydot, fd, floor=1e-3 * (1.0 + ynorm)) for fd in fds))
        grads = tuple(unthunk(g) for g in grads)
        if type(grads[0]).__name__ != "NoTangent":
            chk.problems.append("the pullback's first cotangent (for the function itself) must be NoTangent()")
        lhs = _dot(ybar, ydot)
        rhs = sum(_dot(g, t) for g, t in zip(grads[1:], xdot) if t is not None)
        # the floor (a small multiple of |ȳ|·|ẋ|) lets a derivative that vanishes (a constant function)
        # pass on rounding noise; a wrong pullback errs by O(|ȳ|·|J|·|ẋ|), far above it
        xnorm = float(np.linalg.norm(np.concatenate([_flat(t) for t in xdot if t is not None] or [np.zeros(1)])))
        scale = max(abs(lhs), abs(rhs), 1e-4 * float(np.linalg.norm(_flat(ybar))) * xnorm)
        chk.adjoint_error = max(chk.adjoint_error, abs(lhs - rhs) / scale)
    if chk.primal_error > 1e-12:
        chk.problems.append(f"frule/rrule primal differs from the forward function (rel. error {chk.primal_error:.2e})")
    if chk.fd_error > FD_TOL:
        chk.problems.append(f"pushforward disagrees with finite differences (rel. error {chk.fd_error:.2e})")
    if chk.adjoint_error > ADJ_TOL:
        chk.problems.append(f"pullback is not the adjoint of the pushforward (rel. error {chk.adjoint_error:.2e})")
    return chk


# -- forward values against the reference evaluator (derive.reference) ------------------------------------------
# Each (offset, scale) pair moves the sampled inputs to offset + scale·x where the domain allows (real and
# positive tensors; SPD and well-conditioned matrices are only scaled; scalar parameters, which are mostly
# hyperparameters such as a kernel's bandwidth, and integers stay). The reference runs in mpmath, so an
# intermediate that overflows float64 does not spoil it; points where its value is not finite in float64
# (exp(1e6)) are outside the rule's domain and skipped. The default checks the
# meaning at the sampled point itself; STRICT_REFERENCE_SCALES adds realistic magnitudes, where code that
# expands (x - μ)ᵀS⁻¹(x - μ) or |x|² + |y|² - 2x·y cancels catastrophically and log(1 + exp(x)) overflows,
# for when the generated code is numerically faithful (issue 9, section 3).
REFERENCE_SCALES = ((0.0, 1.0),)
STRICT_REFERENCE_SCALES = ((0.0, 1.0), (1e3, 1.0), (1e6, 1.0), (0.0, 1e3), (1e3, 1e-3))
REFERENCE_TOL = 1e-6
REFERENCE_DPS = 30


def check_reference(chk: Check, name, fns, meta, rule, scales=None, seed=0) -> Check:
    """Compare the emitted forward function's values with derive.reference's reading of the rule's text
    (mpmath, REFERENCE_DPS digits) at the sampled point moved by each (offset, scale); record the worst relative
    error in chk.reference_error and a problem above REFERENCE_TOL."""
    from . import reference

    if rule is None:
        return chk
    f = fns[name]
    outs = [o["name"] for o in meta["outputs"]]
    for offset, scale in (REFERENCE_SCALES if scales is None else scales):
        x = sample_inputs(meta, np.random.default_rng(seed))
        moved = []
        for inp, v in zip(meta["inputs"], x):
            dom = meta.get("domains", {}).get(inp["name"], "real")
            if inp["kind"] != "tensor":
                moved.append(v)
            elif dom in ("spd", "wellcond"):
                moved.append(v * scale)
            else:
                moved.append(v * scale + (abs(offset) if dom == "positive" else offset))
        try:
            want = reference.evaluate(rule, {i["name"]: v for i, v in zip(meta["inputs"], moved)},
                                      precision="mp", dps=REFERENCE_DPS)
            want = tuple(np.array(want[o], dtype=float) for o in outs)
        except (reference.ReferenceError_, ArithmeticError, ValueError, ZeroDivisionError):
            continue
        if not all(np.all(np.isfinite(w)) and np.max(np.abs(w), initial=0.0) < 1e300 for w in want):
            continue
        with np.errstate(all="ignore"):
            try:
                got = f(*moved)
            except (ArithmeticError, ValueError, np.linalg.LinAlgError):
                got = None
        got = got if isinstance(got, tuple) else (got,)
        err = 0.0
        for g, w in zip(got, want):
            g = np.full(np.shape(w), np.nan) if g is None else np.asarray(g, dtype=float)
            scale_w = max(float(np.linalg.norm(w)), 1e-300)
            e = float(np.linalg.norm(g - w) / scale_w) if np.shape(g) == np.shape(w) else np.inf
            err = max(err, e if np.isfinite(e) else np.inf)
        chk.reference_error = max(chk.reference_error, err)
        if err > REFERENCE_TOL:
            chk.problems.append(f"forward value differs from the reference evaluation of the rule's text (rel. "
                                f"error {err:.2e} at inputs offset by {offset:g}, scaled by {scale:g})")
    return chk
