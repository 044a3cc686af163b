"""Pairwise contractions for generated NumPy code: `einsum("ab,bc->ac", u, v)` as one BLAS GEMM (a stack of them
over shared free indices) whose memory layout is chosen from the operands' strides at run time.

np.einsum(optimize=True) hands a pair to tensordot, which copies each operand with its contracted axes last
whatever its strides; for a strided window (runtime.shifts.window: x[c,h+p,w+q] read as a view) that copy runs
along a kernel axis three elements long and costs more than the GEMM. Here the larger operand is copied in its
own memory order (its unit-stride axis stays innermost: the im2col copy of a convolution moves rows of the
image), it becomes the left or the right GEMM factor according to whether that axis is contracted or kept, the
smaller operand adapts (BLAS takes it transposed where that saves a copy), and the product is returned as a
view in the requested axis order. Anything else (one operand, repeated or broadcast labels, non-float dtypes)
goes to np.einsum unchanged.
"""
from __future__ import annotations

import numpy as _np

_BLAS = frozenset("fdFD")


def einsum(subscripts, *operands, **kw):
    if len(operands) == 2 and isinstance(subscripts, str) and set(kw) <= {"optimize"}:
        r = _pair(subscripts, *operands)
        if r is not None:
            return r
    return _np.einsum(subscripts, *operands, **kw)


def _memory_order(x, labels):
    """x's labels outermost first: by stride, larger extents inner among equal strides (x[h+p] has h and p
    at one stride; the window's long axis should be the contiguous run)."""
    return sorted(labels, key=lambda l: (-abs(x.strides[labels.index(l)]), x.shape[labels.index(l)]))


def _as(x, labels, groups, transposed=False):
    """x with its axes permuted to the concatenated groups and each group merged into one axis. `transposed`
    lays the last two groups out swapped in memory and returns their transposed view (for BLAS)."""
    order = [l for g in groups for l in g]
    if transposed:
        order = [l for g in groups[:-2] + [groups[-1], groups[-2]] for l in g]
    v = x.transpose([labels.index(l) for l in order])
    sizes = [int(_np.prod([x.shape[labels.index(l)] for l in g], dtype=_np.int64)) for g in groups]
    if transposed:
        sizes[-2], sizes[-1] = sizes[-1], sizes[-2]
    try:
        m = _np.reshape(v, sizes, copy=False)
        copied = False
    except ValueError:
        m = _np.reshape(v, sizes)
        copied = True
    except TypeError:                    # NumPy < 2.1 has no copy=: a reshape that copied owns new memory
        m = _np.reshape(v, sizes)
        copied = not _np.may_share_memory(m, v)
    return (_np.swapaxes(m, -1, -2) if transposed else m), copied


def _pair(subscripts, a, b):
    try:
        ins, out = subscripts.replace(" ", "").split("->")
        la, lb = ins.split(",")
    except ValueError:
        return None
    a, b = _np.asarray(a), _np.asarray(b)
    if (not (la + lb).isalpha() or len(set(la)) != len(la) or len(set(lb)) != len(lb) or len(set(out)) != len(out)
            or a.ndim != len(la) or b.ndim != len(lb) or a.dtype.char not in _BLAS or b.dtype.char not in _BLAS
            or a.size == 0 or b.size == 0 or not set(out) <= set(la) | set(lb)):
        return None
    if any(a.shape[la.index(l)] != b.shape[lb.index(l)] for l in set(la) & set(lb)):
        return None                      # einsum's own broadcasting and error messages
    # a label only one operand has and the result lacks is summed in that operand first
    for which in (0, 1):
        x, lx, ly = (a, la, lb) if which == 0 else (b, lb, la)
        private = [l for l in lx if l not in ly and l not in out]
        if private:
            x = x.sum(axis=tuple(lx.index(l) for l in private))
            lx = "".join(l for l in lx if l not in private)
            if which == 0:
                a, la = x, lx
            else:
                b, lb = x, lx
    contr = [l for l in la if l in lb and l not in out]
    if not contr or not la or not lb:
        return None
    big, lbig, small, lsmall = (a, la, b, lb) if a.size >= b.size else (b, lb, a, la)
    # extent-1 axes have no meaningful stride: outermost
    mem = sorted(_memory_order(big, lbig), key=lambda l: big.shape[lbig.index(l)] > 1)
    batch = [l for l in mem if l in lsmall and l in out]
    contr = [l for l in mem if l in contr]
    free_big = [l for l in mem if l not in lsmall]
    free_small = [l for l in _memory_order(small, lsmall) if l not in lbig]
    big_left = mem[-1] in contr          # the big operand's contiguous axis stays innermost in its copy
    gb = [batch, free_big, contr] if big_left else [batch, contr, free_big]
    gs = [batch, contr, free_small] if big_left else [batch, free_small, contr]
    B, _ = _as(big, lbig, gb)
    S, copied = _as(small, lsmall, gs)
    if copied:
        # copy the small operand with its own innermost axis innermost, BLAS reads it transposed
        inner = _memory_order(small, lsmall)[-1]
        if inner not in gs[-1]:
            S, _ = _as(small, lsmall, gs, transposed=True)
    if not batch:
        B, S = B[0], S[0]
    r = _np.matmul(B, S) if big_left else _np.matmul(S, B)
    fl, fr = (free_big, free_small) if big_left else (free_small, free_big)
    have = batch + fl + fr
    r = r.reshape([(a.shape[la.index(l)] if l in la else b.shape[lb.index(l)]) for l in have])
    return r.transpose([have.index(l) for l in out])
