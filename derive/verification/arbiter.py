"""The reference evaluator as the judge where the native kernels and the NumPy code disagree far from the origin.

At inputs moved to 1e3 or 1e6 either may be the one that lost digits (the native kernels' uncentred kernel-sum
gradient; NumPy and native both, in an underflowing log Σ exp). The rule's text evaluated in mpmath
(derive.verification.reference) decides: a value or a pushforward is compared whole with the text's value, or its
derivative along the tangent (a central difference at DPS digits, whose step is far below the inputs' spacing); a
cotangent along the direction in which the two disagree, v = native - NumPy, through ⟨x̄, v⟩ = ⟨ȳ, J·v⟩ (the
adjoint identity), so one derivative of the text decides for every entry of v. The native code is wrong where it
errs by more than the tolerance and by more than SLACK times the NumPy code's error there; where the text has no
finite value in float64 (exp(1e6)), or cannot be evaluated in time, nothing is decided.
"""
from __future__ import annotations

import time

import mpmath
import numpy as np

from derive.verification import reference

DPS = 50
STEP = 1e-15            # the central difference's step, relative to the inputs' size (its error ~ STEP², DPS digits)
SLACK = 4.0
WORK = 100_000          # expressions per statement the reference evaluates whole (verify.REFERENCE_WORK)


class Undecided(Exception):
    """The reference cannot judge this point (outside float64's range, unreadable, out of time, sampled)."""


class Arbiter:
    """Judges native against NumPy results of one op at inputs `x` (float64 values of what both computed from)."""

    def __init__(self, rule, meta, x, seconds):
        self.rule, self.meta, self.x = rule, meta, x
        self.outs = [o["name"] for o in meta["outputs"]]
        self.deadline = time.perf_counter() + seconds
        self._values = None

    # -- the text's values ---------------------------------------------------------------------------------------
    def _evaluate(self, inputs):
        """The outputs (object arrays of mpf) at `inputs` (mpf values), every entry computed; else Undecided."""
        left = self.deadline - time.perf_counter()
        if left <= 0:
            raise Undecided("out of time")
        named = {inp["name"]: v for inp, v in zip(self.meta["inputs"], inputs)}
        try:
            res = reference.evaluate_sampled(self.rule, named, precision="mp", dps=DPS, work=WORK, entries=0,
                                             seconds=left, outputs=self.outs)
        except (reference.ReferenceError_, reference.OutOfTime, ArithmeticError, ValueError, ZeroDivisionError) as e:
            raise Undecided(str(e)) from None
        if any(mask is not None for _, mask in res.values()):
            raise Undecided("the reference computed some entries only")
        return [np.asarray(res[o][0], dtype=object) for o in self.outs]

    def _inputs(self, direction=None, h=0):
        out = []
        for k, (inp, v) in enumerate(zip(self.meta["inputs"], self.x)):
            if inp["kind"] == "int":
                out.append(int(v))
                continue
            a = np.asarray(v, dtype=np.float64)
            d = None if direction is None or direction[k] is None else np.asarray(direction[k], dtype=np.float64)
            m = np.empty(a.shape, dtype=object)
            for idx in np.ndindex(*a.shape):
                m[idx] = mpmath.mpf(float(a[idx])) + (h * mpmath.mpf(float(d[idx])) if d is not None else 0)
            out.append(m if inp["kind"] == "tensor" else m[()])
        return out

    def values(self):
        """The outputs as float64 arrays; Undecided where one is not finite in float64 (outside the domain)."""
        if self._values is None:
            with mpmath.workdps(DPS):
                vals = [_floats(v) for v in self._evaluate(self._inputs())]
            if not all(np.all(np.isfinite(v)) for v in vals):
                raise Undecided("the value is not finite in float64")
            self._values = vals
        return self._values

    def derivative(self, direction):
        """J·direction (direction: one array or number per input, None for 0), per output, as float64 arrays."""
        self.values()
        size = max(max((abs(float(np.max(np.abs(np.asarray(v, float))))) for v in self.x
                        if np.size(v) and not isinstance(v, int)), default=1.0), 1.0)
        dmax = max(float(np.max(np.abs(np.asarray(d, float)))) if np.size(d) else 0.0
                   for d in direction if d is not None)
        if not dmax > 0 or not np.isfinite(dmax):
            raise Undecided("no direction")
        with mpmath.workdps(DPS):
            h = mpmath.mpf(STEP) * size / dmax
            hi = self._evaluate(self._inputs(direction, h))
            lo = self._evaluate(self._inputs(direction, -h))
            return [_floats((a - b) / (2 * h)) for a, b in zip(hi, lo)]


def _floats(a):
    a = np.asarray(a, dtype=object)
    return np.array([float(v) for v in a.flat], dtype=np.float64).reshape(a.shape)


def relative_error(a, b):
    """max |a - b| over the finite entries of b, relative to max(1, max |b|); inf where the shapes differ or a
    has a non-finite entry that b does not have in the same place (NaN for NaN, each infinity with its sign)."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        return float("inf")
    if a.size == 0:
        return 0.0
    fin = np.isfinite(b)
    # the same non-finite entries: NaN where NumPy has NaN, and each infinity with its sign
    if not (np.array_equal(np.isnan(a), np.isnan(b)) and np.array_equal(np.isposinf(a), np.isposinf(b))
            and np.array_equal(np.isneginf(a), np.isneginf(b))):
        return float("inf")
    if not np.any(fin):
        return 0.0
    scale = max(1.0, float(np.max(np.abs(b[fin]))))
    return float(np.max(np.abs(a[fin] - b[fin]))) / scale


def judge(arbiter: Arbiter, kind, native, numpy, tol, probe):
    """(native's error, NumPy's error) against the text where they disagree, relative to the quantity's size:
    kind ("value", j) is output j, ("tangent", j) output j's pushforward along probe["tangents"], ("cotangent", k)
    input k's cotangent at the output cotangents probe["ybar"]. Undecided where the text cannot judge."""
    what, j = kind
    if what == "value":
        want = arbiter.values()[j]
        return relative_error(native, want), relative_error(numpy, want)
    if what == "tangent":
        want = arbiter.derivative(probe["tangents"])[j]
        return relative_error(native, want), relative_error(numpy, want)
    return _cotangent_errors(arbiter, j, native, numpy, probe["ybar"])


def _cotangent_errors(arbiter, k, native, numpy, ybar):
    a, b = np.asarray(native, dtype=np.float64), np.asarray(numpy, dtype=np.float64)
    if not np.all(np.isfinite(a)) or not np.all(np.isfinite(b)):
        arbiter.values()          # a point inside the domain: the one with a NaN or inf is wrong
        return (0.0 if np.all(np.isfinite(a)) else float("inf")), (0.0 if np.all(np.isfinite(b)) else float("inf"))
    v = a - b
    direction = [None] * len(arbiter.x)
    direction[k] = v if np.ndim(v) else float(v)
    jv = arbiter.derivative(direction)
    ybars = ybar if isinstance(ybar, tuple) else (ybar,)
    want = sum(float(np.sum(np.asarray(g, np.float64) * d)) for g, d in zip(ybars, jv))
    scale = float(np.linalg.norm(v)) * max(float(np.linalg.norm(a)), float(np.linalg.norm(b)), 1.0)
    return abs(float(np.sum(a * v)) - want) / scale, abs(float(np.sum(b * v)) - want) / scale


def native_is_wrong(errors, tol) -> bool:
    err_native, err_numpy = errors
    return err_native > tol and err_native > SLACK * err_numpy
