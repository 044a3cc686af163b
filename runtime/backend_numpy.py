# isort: skip_file
"""The plain namespace generated code runs on: NumPy itself plus the few functions it lacks.

`_define(np)` in a generated module receives this module; any name not defined here falls back to NumPy.
The rule language's built-ins NumPy lacks come from primitives.special, named by primitives.elementwise.
"""
from __future__ import annotations

import builtins as _builtins
import importlib as _importlib
import itertools as _itertools
import math as _math
import sys as _sys

import numpy as _numpy
from numpy import *  # noqa: F401,F403  (the namespace *is* NumPy's)
from numpy import linalg, abs, sum, prod, max, min, round, pi, e, inf, nan, newaxis  # noqa: F401

from primitives import special as _special
from primitives.elementwise import ROWS as _ROWS
from primitives.matrix import Calls
from primitives.special import adjugate, erfc, others_product  # noqa: F401

def _on_first_call(ref):
    """module:attribute of an optional dependency (scipy.special:erfinv), imported when first called."""
    module, attr = ref.split(":")
    found = []

    def fn(*args, **kw):
        if not found:
            found.append(getattr(_importlib.import_module(module), attr))
        return found[0](*args, **kw)
    fn.__name__ = attr
    return fn


for _row in _ROWS:
    if _row.impl is not None:
        globals()[_row.numpy] = _on_first_call(_row.impl) if ":" in _row.impl else getattr(_special, _row.impl)


def __getattr__(name):
    return getattr(_numpy, name)


def lse_functions(xp):
    """lse_shift and logsumexp over the namespace xp (NumPy here; jax.numpy and runtime.tnp use the same two,
    torch spells its own).

    lse_shift(x, axis): the shift of a log-sum-exp over `axis` (derive/emission/numpy_print.py's _lse_parts), the maximum
    with its axes kept at extent 1, and 0 where that is not finite (all -inf, some +inf, a NaN, an empty axis),
    so that x - shift is never -inf - (-inf). logsumexp(x, axis): log Σ exp(x) over `axis` (those axes dropped)
    without overflow, shifted by it: what the generated code computed in line before the whole log-sum-exp was
    one namespace call."""
    def lse_shift(x, axis):
        m = xp.max(x, axis=axis, keepdims=True, initial=-_numpy.inf)
        return xp.where(xp.isfinite(m), m, 0.0)

    def logsumexp(x, axis):
        m = lse_shift(x, axis)
        return xp.log(xp.sum(xp.exp(x - m), axis=axis)) + xp.sum(m, axis=axis)
    return lse_shift, logsumexp


lse_shift, logsumexp = lse_functions(_numpy)

# checked_sum (below): the summed extent up to which the direct form is summed slice by slice (as fast as the
# expansion there: benchmarks/bench_side_by_side.py --checked-sum), the factor by which the bound of the
# expansion's terms may exceed its computed value before the entry is recomputed directly, and the share of
# entries past which all are recomputed directly (cheaper than gathering them one by one)
DIRECT_EXTENT = 8
CANCEL_RATIO = 8.0
DIRECT_SHARE = 0.25


CHECK_BLOCK = 1 << 16      # entries summed or checked at a time: the blocks of rows stay in cache


def _block_rows(rows, shape_rest):
    return _builtins.max(1, CHECK_BLOCK // _builtins.max(1, _math.prod(shape_rest)))


def direct_sum(extents, direct, rows, block, concat):
    """Σ over every position k of `extents` (tuples) of direct(k, r, m), one slice at a time, at the rows of the
    slice r (m of them): all rows at once where block is None, else `block` rows at a time, joined by concat."""
    def at_rows(r, m):
        terms = (direct(k, r, m) for k in _itertools.product(*[range(n) for n in extents]))
        acc = next(terms) * 1           # a new array: a summand may be a view of an input
        for t in terms:                 # in place where rows are blocked (NumPy, torch); XLA and traces add anew
            acc = acc + t if block is None else acc.__iadd__(t)
        return acc
    if block is None or block >= rows:
        return at_rows(slice(None), rows)
    return concat([at_rows(slice(r0, _builtins.min(rows, r0 + block)), _builtins.min(rows, r0 + block) - r0)
                   for r0 in range(0, rows, block)])


def pairs_by_rows(direct, rows, per_row, budget, concat):
    """direct(r, m) over all rows by blocks of rows whose per-pair intermediate (per_row elements a row) holds at
    most `budget` elements, joined by concat (at once where concat is None)."""
    block = _builtins.max(1, budget // _builtins.max(1, per_row))
    if concat is None or block >= rows:
        return direct(slice(None), rows)
    return concat([direct(slice(r0, _builtins.min(rows, r0 + block)), _builtins.min(rows, r0 + block) - r0)
                   for r0 in range(0, rows, block)])


def checked_sum_function(xp, refine, blocked, concat=None, check_pairs=True):
    """checked_sum over the namespace xp: a sum whose expansion into contractions may cancel
    (derive/emission/numpy_direct.py). Arguments: the summed extents; the extent of the first free axis (rows);
    direct(k, r, m): the summand at position k over the free axes at the rows of the slice r (m of them);
    at(pos): the sum at the entries listed by `pos` (one index array per free axis); expanded(): the expanded
    value; bound(r, m): a bound of the expansion's terms at rows r. Where the summed extent is small the direct
    form (by blocks of rows where `blocked`: NumPy and torch, whose every step is a new array); else the
    expansion, with the entries whose value is small beside the bound (`cancelled`) recomputed directly by
    refine(value, bound, extent, all_direct, at).

    A sum of terms that differ in sign (Σ_j c·(x_i - y_j), a kept difference) passes `budget` and `floor`:
    direct(r, m) is then the sum itself at rows r, read per pair (its summand per position would be a loop over a
    long extent), evaluated by blocks of rows whose per-pair intermediate holds at most `budget` elements, and
    floor(r, m) a lower bound of Σ |summand| besides |value| (the direct form's own rounding scale): an entry
    whose bound is within CANCEL_RATIO of it is vouched for however small its value. Where not `check_pairs`
    (JAX) such a sum is read per pair, unchecked."""
    def checked_sum(extents, rows, direct, at, expanded, bound, floor=None, budget=None):
        n = _math.prod(extents)

        def all_direct():
            if budget is not None:
                probe = direct(slice(0, 1), 1)
                return pairs_by_rows(direct, rows, n * _math.prod(probe.shape[1:]), budget, concat)
            probe = direct(tuple(0 for _ in extents), slice(0, 1), 1)
            block = _block_rows(rows, probe.shape[1:]) if blocked else None
            return direct_sum(extents, direct, rows, block, concat)
        if 0 < n <= DIRECT_EXTENT or budget is not None and not check_pairs:
            return all_direct()
        value = expanded()
        if n == 0 or rows == 0:
            return value
        return refine(value, bound if floor is None else floored(xp, bound, floor), n, all_direct, at)
    return checked_sum


def floored(xp, bound, floor):
    """checked_sum's bound, 0 where it is within CANCEL_RATIO of floor (a lower bound of the direct form's
    Σ |summand|): the check then passes whatever the value, unless it is NaN (0 <= nan fails)."""
    def check(r, m):
        b = bound(r, m)
        return xp.where(b <= CANCEL_RATIO * floor(r, m), 0.0 * b, b)
    return check


def cancelled(xp, value, bound):
    """The entries the expansion cannot vouch for: its terms' bound above CANCEL_RATIO·|value|, or NaN."""
    return ~(bound <= CANCEL_RATIO * xp.abs(value))


def refine_by_gathering(xp, nonzero, concat, copy):
    """checked_sum's refine over a namespace with boolean nonzero and item assignment (NumPy, torch): the value
    checked by blocks of rows, the flagged entries gathered and recomputed (all recomputed where many are)."""
    def flagged(value, bound):
        rows = value.shape[0]
        step = _block_rows(rows, value.shape[1:])
        found = []
        for r0 in range(0, rows, step):
            r1 = _builtins.min(rows, r0 + step)
            ok = bound(slice(r0, r1), r1 - r0) <= CANCEL_RATIO * xp.abs(value[r0:r1])     # False at NaN
            if not ok.all().item():       # not bool(): under torch.func.jvp that reads the tensor as a NumPy array
                pos = nonzero(~ok)
                found.append((pos[0] + r0,) + tuple(pos[1:]))
        return tuple(concat([f[a] for f in found]) for a in range(value.ndim)) if found else None

    def refine(value, bound, n, all_direct, at):
        pos = flagged(value, bound)
        if pos is None:
            return value
        count = int(pos[0].shape[0])
        if count > DIRECT_SHARE * _numpy.prod(value.shape):
            return all_direct()
        value = copy(value)
        step = _builtins.max(1, int(_numpy.prod(value.shape)) // n)     # the gathered rows hold no more than the value
        for s in range(0, count, step):
            part = tuple(p[s:s + step] for p in pos)
            value[part] = at(part)
        return value
    return refine


checked_sum = checked_sum_function(_numpy, refine_by_gathering(_numpy, _numpy.nonzero, _numpy.concatenate,
                                                               lambda v: _numpy.array(v, copy=True)),
                                   blocked=True, concat=_numpy.concatenate)

prim = Calls(_sys.modules[__name__])  # the matrix primitives' declared functions, over this namespace (np.prim.inv.forward)

from runtime.shifts import window as shift_window, scatter as shift_scatter  # noqa: E402,F401  (x[i+k])
from runtime.contract import einsum  # noqa: E402,F401  (pairs as one GEMM in the operands' memory order)
