"""Numerical proof of a derived rule before it is emitted: the emitted code itself is run.

The pushforward is checked against central finite differences of the forward function, the pullback
against the pushforward through the adjoint identity ⟨ȳ, J·ẋ⟩ = ⟨Jᵀ·ȳ, ẋ⟩, in float64 at random points,
with inputs drawn from each argument's domain (declared, or inferred: positive, SPD, well-conditioned).
Nothing is dropped: a NaN or Inf where the finite differences are finite fails. Free index classes get
distinct extents, ascending and then descending, so a rule is met tall and wide; a point where the primal
itself is ill posed (not finite, a matrix near singular) is skipped, never counted as a pass, and a rule
passes only if no well-posed point fails and there is one. The sliced (chunked) passes the code ships are run
under a tiny chunk budget and compared with the one-shot results. An input declared or inferred `spd` or
`symmetric` lives on symmetric matrices: its points and its tangents are symmetric (output cotangents stay general),
and where declared its own cotangent must be symmetric too (the pullback returns sym(G)).
The numeric core (differences, the adjoint identity, relative errors, tangents) is runtime.checking, shared
with the user-facing check_rrule / check_frule.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

import numpy as np

from derive.emission.numpy_print import CHUNK_NAME
from derive.language import domains
from derive.verification import reference
from primitives.matrix import Calls
from runtime import backend_numpy, checking
from runtime.checking import finite as _finite
from runtime.checking import flat as _flat
from runtime.checking import rel_error as _rel
from runtime.tangents import NoTangent, is_zero, unthunk

SIZES = (3, 4, 5, 6, 7, 8)       # extents of free index classes, in order of first appearance (then reversed)
FD_STEPS = checking.FD_STEPS
FD_TOL = 1e-6
ADJ_TOL = 1e-10
# asymmetry max |G - Gᵀ| / max |G| a declared symmetric input's cotangent may have: sym(G) has none, a G symmetric by
# its form (S⁻¹ of an spd S, whose LAPACK inverse is symmetric to rounding) about cond(S)·1e-16, at most 1e-10 at the
# points checked (COND_LIMIT); a cotangent that is not symmetric at all has O(1)
SYM_TOL = 1e-8
COND_LIMIT = 1e6                 # a matrix handed to inv/det/solve conditioned worse than this: ill posed
# np.linalg functions whose argument's condition number is watched: near singular, the primal is ill posed
CONDITIONED = ("inv", "det", "slogdet", "solve", "cholesky")
CHUNK_BUDGETS = (1, 16)          # chunk budgets (elements per slice) the sliced passes are compared under
CHUNK_TOL = 1e-10
# runtime.backend_numpy settings under which each checked_sum (derive/emission/numpy_direct.py) takes its other
# paths at the small extents verification samples: the expansion and its check by blocks of one row, then every
# entry flagged and gathered (each path is exact or close to it there: all must agree with the direct form)
CHECKED_SUM_PATHS = ({"DIRECT_EXTENT": 0, "CHECK_BLOCK": 1},
                     {"DIRECT_EXTENT": 0, "CANCEL_RATIO": 0.0, "DIRECT_SHARE": 1.0, "CHECK_BLOCK": 1})
# The bounds a check's errors are reported under (Check.figures): powers of ten from a floor a decade or more
# above the rounding noise of the shipped rules (finite differences up to 6e-10, adjoint up to 8e-15, reference
# up to 2e-13) to the tolerance itself.
FIGURE_LADDERS = {"finite_differences": (1e-8, 1e-7, 1e-6), "adjoint": (1e-12, 1e-11, 1e-10),
                  "reference": (1e-11, 1e-10, 1e-9, 1e-8, 1e-7, 1e-6)}


@dataclass
class Check:
    fd_error: float = 0.0          # worst relative error of the pushforward against finite differences
    adjoint_error: float = 0.0     # worst relative error of the adjoint identity
    primal_error: float = 0.0      # frule/rrule primal vs forward
    chunk_error: float = 0.0       # worst relative difference of the chunked passes from the one-shot ones
    reference_error: float = 0.0   # worst relative error of the forward value against derive.verification.reference
    reference_points: int = 0      # points where the reference evaluator's value was compared
    # outputs the reference evaluator computed at random entries only (the rest over its work budget):
    # {output: [fewest entries compared at a point, entries]}; empty where every entry was compared
    reference_sampled: dict = field(default_factory=dict)
    points: int = 0                # well-posed points checked
    skipped: int = 0               # ill-posed points: neither a pass nor a failure
    extents: list = field(default_factory=list)   # {index: extent} of each assignment with a checked point
    problems: list = field(default_factory=list)
    notes: list = field(default_factory=list)     # why points were skipped
    warnings: list = field(default_factory=list)  # what holds but a user should know (a text that cancels)

    @property
    def ok(self) -> bool:
        return not self.problems

    def extents_text(self) -> str:
        return "; ".join(" ".join(f"{k}={v}" for k, v in e.items()) for e in self.extents)

    def warn(self, msg):
        if msg not in self.warnings:
            self.warnings.append(msg)

    def problem(self, msg):
        if msg not in self.problems:
            self.problems.append(msg)

    def figures(self) -> dict:
        """The check's figures as written into generated modules (op.rule): the bounds of FIGURE_LADDERS each
        error lies under, the number of points and the extents. Deterministic where the raw errors are not:
        they are rounding noise that changes with the BLAS kernels of the machine (measured: switching
        OpenBLAS's core type moved the raw errors of 15 to 31 of the 50 shipped rules, 12 of them across a
        power of ten), while the lowest bound of each ladder sits a decade or more above what well-behaved
        rules show, so generated/ is the same on every machine and `derive-rules --check` can compare it."""
        def bound(kind, err):
            ladder = FIGURE_LADDERS[kind]
            # None: above the tolerance (a failure), or not a number
            return next((b for b in ladder if err < b), ladder[-1] if err <= ladder[-1] else None)
        return {
            "finite_differences": {"below": bound("finite_differences", self.fd_error), "tolerance": FD_TOL},
            "adjoint": {"below": bound("adjoint", self.adjoint_error), "tolerance": ADJ_TOL},
            "reference": {"below": bound("reference", self.reference_error) if self.reference_points else None,
                          "tolerance": REFERENCE_TOL, "points": self.reference_points,
                          **({"sampled": {k: {"entries": n, "of": of} for k, (n, of) in self.reference_sampled.items()}}
                             if self.reference_sampled else {})},
            "points": self.points,
            "skipped": self.skipped,
            "extents": [dict(e) for e in self.extents],
        }


# -- extents and inputs -----------------------------------------------------------------------------------------


def index_classes(meta):
    """{index: the first index of its equal_extents group}: indices declared to share one extent."""
    classes = {}
    for group in meta.get("equal_extents", []):
        for l in group:
            classes[l] = group[0]
    return classes


def extent_assignments(meta) -> list:
    """Extents (by class) to verify at: each free class a distinct extent ≥ 3, ascending in order of first
    appearance, then descending, so every pair of classes is met both ways (X tall and wide); extents declared
    in the header (x[i:3]) stay as declared."""
    classes = index_classes(meta)
    fixed = {classes.get(l, l): n for l, n in meta.get("extents", {}).items()}
    free = []
    for inp in meta["inputs"]:
        for l in inp.get("indices", []) if inp["kind"] == "tensor" else []:
            c = classes.get(l, l)
            if c not in fixed and c not in free:
                free.append(c)
    # shifted subscripts (x[i+k]): the indices they give extents to are chosen, the input axes they read follow
    reaches = meta.get("shifted", [])
    read = {classes.get(a, a) for a, _, _ in reaches}
    for _, terms, _ in reaches:
        for _, l in terms:
            c = classes.get(l, l)
            if c not in fixed and c not in free and c not in read:
                free.append(c)
    free = [c for c in free if c not in read]
    sizes = [SIZES[k] if k < len(SIZES) else SIZES[-1] + 1 + k for k in range(len(free))]
    out = [{**fixed, **dict(zip(free, sizes))}]
    if len(free) > 1:
        out.append({**fixed, **dict(zip(free, reversed(sizes)))})
    return [reached_extents(ext, reaches, classes) for ext in out]


def reached_extents(ext, reaches, classes):
    """Input extents that the shifted reads need (the largest over each axis's reads), computed once every
    extent a read depends on is known (a chain of convolutions needs several rounds)."""
    ext = dict(ext)
    cls = lambda l: classes.get(l, l)      # noqa: E731
    todo = {}
    for a, terms, const in reaches:
        if cls(a) not in ext:
            todo.setdefault(cls(a), []).append((terms, const))
    while todo:
        ready = [a for a, rs in todo.items() if all(cls(l) in ext for terms, _ in rs for _, l in terms)]
        if not ready:
            break
        for a in ready:
            # a stride leaves a remainder: one element more, so that rounding down is exercised too
            ext[a] = max(const + 1 + sum(c * (ext[cls(l)] - 1) for c, l in terms) + max(c for c, _ in terms) - 1
                         for terms, const in todo.pop(a))
    return ext


def _by_letter(meta, ext):
    classes = index_classes(meta)
    out = {}
    for inp in meta["inputs"]:
        for l in inp.get("indices", []) if inp["kind"] == "tensor" else []:
            out.setdefault(l, ext[classes.get(l, l)])
    return out


def sample_inputs(meta, rng, sizes=None):
    """Random arguments for an op from its OPS metadata: shapes from `sizes` (index -> extent; by default the
    first of extent_assignments), entries from each input's domain."""
    classes = index_classes(meta)
    ext = dict(extent_assignments(meta)[0])
    for l, n in (sizes or {}).items():
        ext[classes.get(l, l)] = n
    args = []
    for inp in meta["inputs"]:
        if inp["kind"] == "int":
            args.append(2)
            continue
        dom = meta.get("domains", {}).get(inp["name"], "real")
        if inp["kind"] == "scalar":
            args.append(float(domains.sample((), dom, rng)) if dom != "real" else float(rng.uniform(0.6, 1.4)))
            continue
        args.append(domains.sample([ext[classes.get(l, l)] for l in inp["indices"]], dom, rng))
    return args


# -- the namespace verification runs generated code on ------------------------------------------------------------


class _WatchedLinalg:
    def __init__(self, watch):
        self._watch = watch

    def _seen(self, a, prim=None):
        if prim is not None and prim.max_norm is not None:
            a = np.asarray(a, dtype=float)
            if a.size and float(np.max(np.sum(np.abs(a), axis=-2))) > prim.max_norm:
                self._watch.worst_cond = np.inf     # beyond what float64 can compute: ill posed here
                return
        if prim is not None and prim.domain not in ("wellcond", "spd"):
            return          # expm, eigh: defined and well conditioned at singular matrices
        try:
            c = float(np.max(np.linalg.cond(np.asarray(a, dtype=float)), initial=0.0))
        except (np.linalg.LinAlgError, ValueError):
            c = np.inf
        self._watch.worst_cond = max(self._watch.worst_cond, c if c == c else np.inf)

    def __getattr__(self, name):
        fn = getattr(np.linalg, name)
        if name not in CONDITIONED:
            return fn

        def watched(a, *args, **kw):
            self._seen(a)
            return fn(a, *args, **kw)
        return watched


class Watched:
    """The runtime's NumPy namespace with the condition number of every argument of a CONDITIONED function recorded:
    how verification tells a point where the primal is ill posed (a singular XᵀX) from a wrong derivative."""

    def __init__(self):
        self._base = backend_numpy
        self.worst_cond = 0.0
        self.linalg = _WatchedLinalg(self)
        self.prim = Calls(self, watch=self.linalg._seen)

    def __getattr__(self, name):
        v = getattr(self._base, name)
        setattr(self, name, v)
        return v


class Loaded(dict):
    """An op table from a generated module's `_define`, built over a Watched namespace, with the module."""

    watch: Watched | None = None
    module: dict | None = None


def load(module) -> Loaded:
    """The ops of a generated module (its namespace dict or the module) ready for check_op."""
    ns = module if isinstance(module, dict) else vars(module)
    watch = Watched()
    fns = Loaded(ns["_define"](watch))
    fns.watch, fns.module = watch, ns
    return fns


# -- comparisons (runtime.checking) -------------------------------------------------------------------------------


def _space(inp, meta) -> str:
    """The tangent space of an input: symmetric matrices for a declared or inferred spd/symmetric domain."""
    if inp["kind"] != "tensor":
        return "real"
    return checking.space_of_domain(meta.get("domains", {}).get(inp["name"], "real"), len(inp.get("indices", [])))


def _tangents(x, meta, rng, width=False):
    """A random tangent for each differentiable input (None for an int), in its tangent space."""
    return [None if inp["kind"] == "int" else
            checking.random_like(v, rng, _space(inp, meta)) * (_width(inp, meta) if width else 1.0)
            for v, inp in zip(x, meta["inputs"])]


class _IllPosed(Exception):
    pass


# -- the check ---------------------------------------------------------------------------------------------------


def check_op(name, fns, meta, seeds=(0, 1), module=None) -> Check:
    """Check one op's emitted forward, frule and rrule at random points of every extent assignment.

    `fns` is the op table (best from `load`, whose namespace reveals near-singular matrices); `module`, the
    generated module's namespace (implied by `load`), lets the chunked passes be compared with one-shot ones."""
    watch = getattr(fns, "watch", None)
    module = module if module is not None else getattr(fns, "module", None)
    if module is not None and not isinstance(module, dict):
        module = vars(module)
    chk = Check()
    for a, ext in enumerate(extent_assignments(meta)):
        sizes = _by_letter(meta, ext)
        checked = 0
        for seed in seeds:
            rng = np.random.default_rng(seed if a == 0 else (seed, a))
            x = sample_inputs(meta, rng, ext)
            try:
                vals = _check_point(chk, name, fns, meta, x, rng, watch)
            except _IllPosed as why:
                chk.skipped += 1
                note = f"{' '.join(f'{k}={v}' for k, v in sizes.items())}: {why}"
                if note not in chk.notes:
                    chk.notes.append(note)
                continue
            if checked == 0 and module is not None and CHUNK_NAME in module:
                _compare_chunked(chk, module, name, fns, x, vals)
            checked += 1
        if checked:
            chk.extents.append(sizes)
    if chk.points == 0:
        # the signature writes a declared domain after ': ' (and an integer parameter as ': int')
        declared = re.search(r": (?!int[,)])", meta.get("signature", "").split(" -> ")[0]) is not None
        hint = "" if declared else (" (if the inputs live on part of the real line, declare it in the header, "
                                    "e.g. x[i]: (1, inf))")
        chk.problem(f"no well-posed point to check at{hint}: " + "; ".join(chk.notes))
    if chk.primal_error > 1e-12:
        chk.problem(f"frule/rrule primal differs from the forward function (rel. error {chk.primal_error:.2e})")
    if chk.fd_error > FD_TOL:
        chk.problem(f"pushforward disagrees with finite differences (rel. error {chk.fd_error:.2e})")
    if chk.adjoint_error > ADJ_TOL:
        chk.problem(f"pullback is not the adjoint of the pushforward (rel. error {chk.adjoint_error:.2e})")
    if chk.chunk_error > CHUNK_TOL:
        chk.problem(f"the chunked (sliced) pass differs from the one-shot pass (rel. error {chk.chunk_error:.2e})")
    return chk


def _run(name, fns, x, xdot, ybar):
    """Forward, frule and rrule (with its pullback applied) at one point: what the chunked pass must repeat."""
    tangents = (NoTangent(),) + tuple(t if t is not None else NoTangent() for t in xdot)
    y = fns[name](*x)
    y1, ydot = fns[name + "_frule"](tangents, *x)
    y2, pb = fns[name + "_rrule"](*x)
    grads = tuple(unthunk(g) for g in pb(ybar))
    return y, y1, ydot, y2, grads


def _width(inp, meta):
    """How far a tangent may reach: a finite interval narrower than 1 scales it, so that x ± h·ẋ stays inside
    (x: (0, 1e-8) is sampled 2e-9 to 8e-9, and a step of 1e-7 would leave it). Only as far as that needs: the
    steps (≤ 1e-4·|ẋ|) then reach a few percent of the width, inside the sampling margin of 20 %."""
    iv = domains.interval(meta.get("domains", {}).get(inp["name"], "real"))
    return min(1.0, 100.0 * (iv[1] - iv[0])) if iv is not None else 1.0


def _check_point(chk, name, fns, meta, x, rng, watch):
    f = fns[name]
    diff = [inp["kind"] != "int" for inp in meta["inputs"]]
    if watch is not None:
        watch.worst_cond = 0.0
    with np.errstate(all="ignore"):
        try:
            y = f(*x)
            if not _finite(y):
                raise _IllPosed("the forward pass is not finite")
            xdot = _tangents(x, meta, rng, width=True)
            fds = checking.differences(f, x, xdot, FD_STEPS)
            # the pushforward along each tangent the differences really took (rounded x ± h·ẋ)
            fds = [(fd, fns[name + "_frule"]((NoTangent(),) + tuple(NoTangent() if t is None else t for t in t_h),
                                             *x)[1]) for fd, t_h in fds]
            ybar = checking.random_like(y, rng)      # cotangents stay general, even of a symmetric output
            vals = _run(name, fns, x, xdot, ybar)
        except np.linalg.LinAlgError as exc:
            if watch is not None and watch.worst_cond > COND_LIMIT:
                raise _IllPosed(f"a singular matrix ({exc})") from None
            raise
    if watch is not None and watch.worst_cond > COND_LIMIT:
        raise _IllPosed(f"a matrix has condition number {watch.worst_cond:.1e} > {COND_LIMIT:.0e}")
    if not fds:
        raise _IllPosed("finite differences are not finite, or the inputs are too large for a step to move them")
    _, y1, ydot, y2, grads = vals
    chk.points += 1
    # a NaN or Inf where the forward value and finite differences are finite is a failure, never dropped
    if not (_finite(y1) and _finite(y2)):
        chk.problem("frule/rrule primal is not finite (NaN or Inf) where the forward function is finite")
    if not _finite(ydot, y):
        chk.problem("pushforward is not finite (NaN or Inf) where finite differences are finite")
    if not all(_finite(g, xi) for g, xi, d in zip(grads[1:], x, diff) if d):
        chk.problem("pullback is not finite (NaN or Inf) where finite differences are finite")
    chk.primal_error = max(chk.primal_error, _rel(y1, y), _rel(y2, y))
    with np.errstate(all="ignore"):
        ynorm = float(np.linalg.norm(_flat(y)))
    chk.fd_error = max(chk.fd_error, min(_rel(yd, fd, floor=1e-3 * (1.0 + ynorm)) for fd, yd in fds))
    if type(grads[0]).__name__ != "NoTangent":
        chk.problem("the pullback's first cotangent (for the function itself) must be NoTangent()")
    adj, _, _ = checking.adjoint_error(ybar, ydot, grads[1:], xdot)
    chk.adjoint_error = max(chk.adjoint_error, adj)
    _in_tangent_spaces(chk, meta, grads[1:])
    return xdot, ybar, vals


def _in_tangent_spaces(chk, meta, grads):
    """The cotangent of an input declared `spd` or `symmetric` is symmetric: the adjoint identity along symmetric
    tangents cannot see its antisymmetric part, so it is checked apart."""
    for inp, g in zip(meta["inputs"], grads):
        if inp.get("domain") not in domains.MATRIX:
            continue
        g = unthunk(g)
        if g is None or is_zero(g):
            continue
        asym = checking.asymmetry(g)
        what = f"the cotangent of {inp['name']} (declared {inp['domain']}) is not in its tangent space"
        if not asym <= SYM_TOL and not any(p.startswith(what) for p in chk.problems):   # once, at the first point
            chk.problem(f"{what}: not symmetric (max |G - Gᵀ| / max |G| = {asym:.2g})")


def _compare_chunked(chk, module, name, fns, x, point):
    """Run the point again with the sliced passes cut into tiny slices (one row, then a few rows with a ragged
    last slice), and with each checked_sum on its other paths (CHECKED_SUM_PATHS), and compare every output with
    the one-shot results."""
    xdot, ybar, ref = point
    old = module[CHUNK_NAME]
    runs = [(budget, {}) for budget in CHUNK_BUDGETS] + [(old, paths) for paths in CHECKED_SUM_PATHS]
    for budget, paths in runs:
        saved = {k: getattr(backend_numpy, k) for k in paths}
        module[CHUNK_NAME] = budget
        for k, v in paths.items():
            setattr(backend_numpy, k, v)
        try:
            with np.errstate(all="ignore"):
                got = _run(name, fns, x, xdot, ybar)
        finally:
            module[CHUNK_NAME] = old
            for k, v in saved.items():
                setattr(backend_numpy, k, v)
        pairs = list(zip(got[:4], ref[:4])) + [(_flat(a, xi), _flat(b, xi))
                                               for a, b, xi in zip(got[4][1:], ref[4][1:], x)]
        for a, b in pairs:
            if _finite(b):     # a one-shot value that is not finite has failed already
                chk.chunk_error = max(chk.chunk_error, _rel(a, b))

# -- forward values against the reference evaluator (derive.verification.reference) ------------------------------------------
# Each (offset, scale) pair moves the sampled inputs to offset + scale·x where the domain allows (real and
# positive tensors; SPD and well-conditioned matrices are only scaled; scalar parameters, which are mostly
# hyperparameters such as a kernel's bandwidth, and integers stay). The reference runs in mpmath, so an
# intermediate that overflows float64 does not spoil it; points where its value is not finite in float64
# (exp(1e6)) are outside the rule's domain and skipped. Besides the sampled point itself, the scales are
# realistic magnitudes, where code that expands (x - μ)ᵀS⁻¹(x - μ) or |x|² + |y|² - 2x·y cancels
# catastrophically, or softmax that is not shifted by its maximum loses its digits (issue 9): numerically
# faithful code passes them, and a rule whose generated code is not fails verification.
REFERENCE_SCALES = ((0.0, 1.0), (1e3, 1.0), (-1e3, 1.0), (1e6, 1.0), (0.0, 1e3), (1e3, 1e-3))
STRICT_REFERENCE_SCALES = REFERENCE_SCALES   # the name tests and callers used while the default was unshifted
REFERENCE_TOL = 1e-6
REFERENCE_DPS = 30
# The reference evaluator contracts sums factor by factor and computes each output whole where that takes at most
# REFERENCE_WORK evaluated expressions per statement (every shipped rule); beyond, at REFERENCE_ENTRIES random
# entries or more (the count is of expressions, so the entries do not depend on the machine), and the record says
# so (figures: reference.sampled). REFERENCE_SECONDS bounds the whole comparison's wall time: the points it does not
# reach are reported as not compared, never waited for.
REFERENCE_WORK = 100_000
REFERENCE_ENTRIES = 64
REFERENCE_SECONDS = 20.0


def check_reference(chk: Check, name, fns, meta, rule, scales=None, seed=0) -> Check:
    """Compare the emitted forward function's values with derive.verification.reference's reading of the rule's text
    (mpmath, REFERENCE_DPS digits) at the sampled point moved by each (offset, scale); record the worst relative
    error in chk.reference_error and a problem above REFERENCE_TOL."""
    if rule is None:
        return chk
    f = fns[name]
    watch = getattr(fns, "watch", None)
    outs = [o["name"] for o in meta["outputs"]]
    lost, overflow = [], []          # where the text itself loses digits, or overflows
    unread = None                    # why the reference evaluator could not read the rule, if it could not
    # at extents where check_op found a well-posed point (a least-squares rule only tall), not the first ones
    sizes = chk.extents[0] if chk.extents else None
    deadline = time.perf_counter() + REFERENCE_SECONDS
    scales = REFERENCE_SCALES if scales is None else scales
    for k, (offset, scale) in enumerate(scales):
        x = sample_inputs(meta, np.random.default_rng(seed), sizes)
        moved = [moved_input(v, inp, meta.get("domains", {}).get(inp["name"], "real"), offset, scale)
                 for inp, v in zip(meta["inputs"], x)]
        if any(m is None for m in moved):
            continue
        try:
            want, why = _reference_values(rule, meta, moved, outs, deadline)
        except reference.OutOfTime as e:
            _warn_out_of_time(chk, e, len(scales) - k)
            break
        unread = why if why is not None else unread
        if want is None:
            continue
        got, ill_posed = _generated_values(f, watch, moved)
        if ill_posed:
            continue        # a matrix near singular (XᵀX far from the origin): ill posed, as check_op skips it
        where = f"at inputs offset by {offset:g}, scaled by {scale:g}"
        _derivatives_finite(chk, name, fns, meta, moved, got, where)
        err = worst_rel(got, want)
        chk.reference_points += 1
        chk.reference_error = max(chk.reference_error, err)
        _note_sampled(chk, outs, want)
        if err > REFERENCE_TOL:
            _judge_reference(chk, err, _text_error(rule, meta, moved, outs, want, deadline), where, lost, overflow)
    _warn_reference(chk, lost, overflow, unread)
    return chk


def _warn_out_of_time(chk, exc, left):
    chk.warn(f"the forward value was not compared with the reference evaluation of the rule's text at {left} of "
             f"its points ({chk.reference_points} compared): {exc} (REFERENCE_SECONDS)")


def _note_sampled(chk, outs, want):
    for o, (_, got) in zip(outs, want):
        if got is not None:
            n = int(np.count_nonzero(got))
            old = chk.reference_sampled.get(o)
            chk.reference_sampled[o] = [min(n, old[0]) if old else n, int(got.size)]


def _reference_values(rule, meta, moved, outs, deadline=None, precision="mp"):
    """(the outputs' exact values at inputs `moved`, None), or (None, why the reference evaluator cannot read the
    rule, or None where this point only has no finite value in float64). Each output's value is (a float array,
    None) where every entry was computed, or (a float array with NaN where none was, the entries computed).
    OutOfTime past `deadline` (perf_counter seconds)."""
    left = None if deadline is None else max(0.0, deadline - time.perf_counter())
    try:
        res = reference.evaluate_sampled(rule, {i["name"]: v for i, v in zip(meta["inputs"], moved)},
                                         precision=precision, dps=REFERENCE_DPS, work=REFERENCE_WORK,
                                         entries=REFERENCE_ENTRIES, seconds=left, outputs=outs)
        want = tuple((_floats(res[o][0]), res[o][1]) for o in outs)
    except reference.ReferenceError_ as e:
        return None, str(e)
    except (ArithmeticError, ValueError, ZeroDivisionError):
        return None, None
    if not all(np.all(np.isfinite(_at(w, got))) and np.max(np.abs(_at(w, got)), initial=0.0) < 1e300
               for w, got in want):
        return None, None
    return want, None


def _floats(values):
    return np.array([np.nan if x is None else float(x) for x in values.flat], dtype=float).reshape(values.shape)


def _at(a, got):
    """The entries of a where `got` (None: all of them)."""
    return np.asarray(a) if got is None else np.asarray(a)[got]


def _generated_values(f, watch, moved):
    """(the emitted forward function's outputs at `moved`, or None where it raised; whether a matrix it handed to
    a CONDITIONED function was near singular)."""
    if watch is not None:
        watch.worst_cond = 0.0
    with np.errstate(all="ignore"):
        try:
            got = f(*moved)
        except (ArithmeticError, ValueError, np.linalg.LinAlgError):
            got = None
    return got, watch is not None and watch.worst_cond > COND_LIMIT


def _judge_reference(chk, err, text_err, where, lost, overflow):
    """An error above REFERENCE_TOL: a problem of the generated code, unless the text as written loses as much."""
    if err <= TEXT_SLACK * text_err:
        # the digits are lost by the formula as written, not by the generated code: evaluating the text
        # itself in float64 (compensated sums) loses as many. Say so; the code is as faithful as the text.
        if not np.isfinite(err):
            overflow.append(where)
        else:
            lost.append(f"{where} (as written in float64 it errs by {text_err:.1e}, the generated code by "
                        f"{err:.1e})")
        return
    chk.problem(f"forward value differs from the reference evaluation of the rule's text (rel. "
                f"error {err:.2e} {where})")


def _warn_reference(chk, lost, overflow, unread):
    """One warning for each kind, naming every place it showed (not four near-identical lines)."""
    remedy = (" (write it so that no intermediate cancels or overflows: (x - m)² rather than x² - 2xm + m², "
              "exp(x - max x) rather than exp(x))")
    if overflow:
        chk.warn(f"the generated code gives NaN or Inf {'; '.join(overflow)}, where the exact value is finite; so "
                 f"does the rule's text evaluated as written in float64 (an intermediate overflows){remedy}")
    if lost:
        chk.warn(f"the rule's text loses digits {'; '.join(lost)}{remedy}")
    if unread is not None and chk.reference_points == 0:
        # never a silent "reference 0.0": say that the forward value was not compared with the text's reading
        chk.warn(f"the forward value was not compared with the reference evaluation of the rule's text: the "
                 f"reference evaluator cannot read it ({unread})")


def _derivatives_finite(chk, name, fns, meta, x, y, where):
    """A NaN in the pushforward or pullback at a moved point where the forward value is finite is a failure:
    derivative code that divides inf by inf (an unshifted softmax, exp(-x)·σ² of a written-out logistic) is
    wrong there, whatever the small sampled points said. (An infinite derivative may be a true overflow.)"""
    if y is None or not _finite(y):
        return
    if name + "_frule" not in fns or name + "_rrule" not in fns:
        return              # a bare forward function (a test's stand-in) has no derivatives to check
    rng = np.random.default_rng(0)
    diff = [inp["kind"] != "int" for inp in meta["inputs"]]
    with np.errstate(all="ignore"):
        try:
            xdot = _tangents(x, meta, rng)
            _, _, ydot, _, grads = _run(name, fns, x, xdot, checking.random_like(y, rng))
        except (ArithmeticError, ValueError, np.linalg.LinAlgError):
            return

    def nan(v, like):
        f = _flat(v, like)
        return f is not None and bool(np.any(np.isnan(f)))
    if nan(ydot, y) or any(nan(g, xi) for g, xi, d in zip(grads[1:], x, diff) if d):
        chk.problem(f"a derivative is NaN {where}, where the forward value is finite")


TEXT_SLACK = 64   # the generated code may lose up to this many times what the text, evaluated as written, loses


def worst_rel(got, want):
    """The worst relative error of the outputs `got` (None: not computed) against the reference values `want`
    ((values, entries computed or None) per output, as _reference_values gives them, or bare arrays)."""
    got = got if isinstance(got, tuple) else (got,)
    want = [w if isinstance(w, tuple) else (w, None) for w in want]
    return max((_rel(_at(g, m), _at(w, m), floor=1e-300, relative_to="want")
                if g is not None and np.shape(g) == np.shape(w) else np.inf
                for g, (w, m) in zip(got, want)), default=0.0)


def _text_error(rule, meta, moved, outs, want, deadline=None):
    """The relative error of the rule's text evaluated as written in float64 (derive.verification.reference, compensated
    sums), against the high-precision value: what any faithful float64 code of that formula loses."""
    left = None if deadline is None else max(0.0, deadline - time.perf_counter())
    try:
        with np.errstate(all="ignore"):
            base = reference.evaluate_sampled(rule, {i["name"]: v for i, v in zip(meta["inputs"], moved)},
                                              precision="f64", work=REFERENCE_WORK, entries=REFERENCE_ENTRIES,
                                              seconds=left, outputs=outs)
    except (reference.ReferenceError_, reference.OutOfTime, ArithmeticError, ValueError, ZeroDivisionError):
        return 0.0
    # the entries both evaluations computed (the same ones, unless their work differed)
    both = [m if n is None else n if m is None else m & n for (_, m), (_, n) in zip(want, (base[o] for o in outs))]
    return worst_rel(tuple(_at(_floats(base[o][0]), m) for o, m in zip(outs, both)),
                     tuple(_at(w, m) for (w, _), m in zip(want, both)))


def moved_input(v, inp, dom, offset, scale):
    """v moved to offset + scale·v inside its domain, or None where the domain does not allow the move (an
    interval is only checked where it was sampled); scalar and int parameters stay."""
    if inp["kind"] != "tensor" or (offset == 0.0 and scale == 1.0):
        return v
    if dom in ("spd", "wellcond"):
        return v * scale
    if dom == "symmetric":
        return v * scale + offset
    if dom in ("positive", "negative") and offset < 0:
        return None         # the same move as the positive offset
    if dom == "positive":
        return v * scale + abs(offset)
    if dom == "negative":
        return v * scale - abs(offset)
    if dom in ("real", "nonzero"):
        return v * scale + offset
    return None
