"""Reads and writes at shifted and strided positions (`x[2*i+k]`), for generated code (derive.lowering.shifts).

A spec gives, per array axis, ((view axis, coefficient), ...) and a constant offset: the element of view index
(i, k) along that axis is Σ coefficient·index + offset. `window` is the gather (a read-only strided view, no
copy), `scatter` its transpose (adds each element at its position; one vectorised add per kernel tap).
"""
from __future__ import annotations

import itertools

import numpy as _np

from runtime import contract as _contract


def reach(spec, shape):
    """The extent each array axis needs for the view `shape` to stay inside it (a negative coefficient, which
    generated gathers use to read a padded cotangent backwards, reaches furthest at its index 0)."""
    return tuple(const + sum(max(c, 0) * (shape[a] - 1) for a, c in row) + 1 for row, const in spec)


def low(spec, shape):
    """The smallest position each array axis is read at."""
    return tuple(const + sum(min(c, 0) * (shape[a] - 1) for a, c in row) for row, const in spec)


def check(name_shape, spec, shape):
    if any(s == 0 for s in shape):
        return
    start = low(spec, shape)
    if any(lo < 0 for lo in start):
        raise ValueError(f"a shifted subscript reads before the start of its tensor (positions from {start}, "
                         f"tensor of shape {tuple(name_shape)})")
    need = reach(spec, shape)
    if any(n > have for n, have in zip(need, name_shape)):
        raise ValueError(f"a shifted subscript reads past the end of its tensor: it needs extents {need}, the "
                         f"tensor has {tuple(name_shape)} (pad it, e.g. with np.pad)")


def window(x, spec, shape):
    """The view v[idx] = x[Σ coef·idx + const per axis] of shape `shape`, read-only."""
    x = _np.asarray(x)
    check(x.shape, spec, shape)
    if any(s == 0 for s in shape):
        return _np.zeros(shape, dtype=x.dtype)
    base = x[tuple(slice(const, None) for _, const in spec)]
    strides = [0] * len(shape)
    for d, (row, _) in enumerate(spec):
        for a, c in row:
            strides[a] += c * base.strides[d]
    return _np.lib.stride_tricks.as_strided(base, shape=tuple(shape), strides=tuple(strides), writeable=False)


def plan(spec, gshape):
    """For a scatter: per target axis the G axis written as a strided slice (the longest of its own axes), and
    the G axes looped over (the kernel taps: every other axis)."""
    count: dict = {}
    for row, _ in spec:
        for a, _c in row:
            count[a] = count.get(a, 0) + 1
    vec = []
    for row, _ in spec:
        own = [(gshape[a], a) for a, _c in row if count[a] == 1 and a not in vec]
        vec.append(max(own)[1] if own else None)
    loop = [a for a in range(len(gshape)) if a not in vec]
    return vec, loop


def scatter(g, spec, shape):
    """out (zeros of `shape`) with out[Σ coef·idx + const per axis] += g[idx] for every index of g."""
    g = _np.asarray(g)
    return _add_taps(_np.zeros(tuple(shape), dtype=g.dtype), g, spec, lambda piece, order: piece.transpose(order))


def _add_taps(out, g, spec, permuted):
    """out with every element of g added at its position: one strided-slice add per kernel tap (the axes of g
    `plan` loops over), g's written axes put in out's order by `permuted(piece, order)`."""
    if any(s == 0 for s in g.shape):
        return out
    check(tuple(out.shape), spec, tuple(g.shape))
    vec, loop = plan(spec, tuple(g.shape))
    kept = sorted(a for a in vec if a is not None)
    order = [kept.index(a) for a in vec if a is not None]
    for taps in itertools.product(*(range(g.shape[a]) for a in loop)):
        tap = dict(zip(loop, taps))
        piece = g[tuple(tap.get(a, slice(None)) for a in range(g.ndim))]
        if order != sorted(order):
            piece = permuted(piece, order)
        where = []
        for (row, const), v in zip(spec, vec):
            start = const + sum(c * tap[a] for a, c in row if a in tap)
            if v is None:
                where.append(start)
            else:
                c = dict(row)[v]
                stop = start + c * (g.shape[v] - 1) + (1 if c > 0 else -1)
                where.append(slice(start, stop if stop >= 0 else None, c))
        _contract.add_into(out[tuple(where)], piece)      # in place: NumPy's (or torch's) add, or the native loop
    return out


def positions(spec, shape, xp=_np):
    """One integer index array per array axis, broadcast over the view: x[positions(...)] is the window (a gather
    for namespaces without strided views)."""
    out = []
    for row, const in spec:
        p = const
        for a, c in row:
            r = xp.arange(shape[a]) * c
            p = p + xp.reshape(r, tuple(shape[a] if k == a else 1 for k in range(len(shape))))
        out.append(xp.broadcast_to(xp.asarray(p), tuple(shape)))
    return tuple(out)


def scatter_slices(g, spec, shape, xp):
    """`scatter` for a namespace with in-place slice assignment (torch): out[slices] += g[tap] per kernel tap."""
    out = xp.zeros(tuple(shape), dtype=g.dtype, device=g.device)
    return _add_taps(out, g, spec, lambda piece, order: piece.permute(*order))
