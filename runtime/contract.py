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

Where the large operand cannot be viewed as a matrix (a window: that copy is the im2col of a convolution, nine
times the image for a 3×3 kernel) and the native CPU kernels can be built here (runtime.native), the pair is
computed by runtime/contract_native.cpp instead, reading that operand in place through offset tables: no copy, and
register-tiled loops the compiler vectorises for this CPU (`_native`). TENSOR_RULES_NATIVE=0 keeps the copy and
BLAS; =1 takes the native path for every size.
"""
from __future__ import annotations

import threading
from pathlib import Path

import numpy as _np

from runtime import native

try:
    from numpy.lib.array_utils import byte_bounds as _byte_bounds
except ImportError:                      # NumPy < 2
    _byte_bounds = _np.byte_bounds

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
    if not _mergeable(big, lbig, gb):
        r = _native(big, lbig, small, lsmall, batch, contr, free_big, free_small, mem[-1])
        if r is not None:
            have = batch + free_small + free_big
            return r.transpose([have.index(l) for l in out])
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


def _mergeable(x, labels, groups):
    """Whether x permuted to the groups merges into one axis per group without a copy."""
    for g in groups:
        axes = [labels.index(l) for l in g if x.shape[labels.index(l)] != 1]
        if any(x.strides[a] != x.strides[b] * x.shape[b] for a, b in zip(axes, axes[1:])):
            return False
    return True


# ------------------------------------------------------------------------------------------- native path
NATIVE_MIN_WORK = 1 << 18    # multiply-adds below which the copy and BLAS cost less than a call into the library
ADD_MIN = 1 << 14           # elements below which add_into leaves the add to NumPy
_LIB: list = []              # [library or None] once loaded
_LIB_LOCK = threading.Lock()


def _library():
    if not _LIB:
        with _LIB_LOCK:
            if not _LIB:
                ok, _why = native.available()
                lib = None
                if ok:
                    try:
                        source = Path(__file__).with_name("contract_native.cpp").read_text()
                        lib = native.load_library(source, what="runtime/contract_native.cpp")
                    except (OSError, RuntimeError):
                        lib = None
                _LIB.append(lib)
    return _LIB[0]


def _offsets(x, labels, which):
    """Element offsets of x over the labels `which`, in C order of that list (int64, at least one entry)."""
    size = x.itemsize
    off = _np.zeros((), dtype=_np.int64)
    for l in which:
        a = labels.index(l)
        off = off[..., None] + _np.arange(x.shape[a], dtype=_np.int64) * (x.strides[a] // size)
    return _np.ascontiguousarray(off.reshape(-1))


def _extent(x, labels, which):
    return int(_np.prod([x.shape[labels.index(l)] for l in which], dtype=_np.int64))


def _native(big, lbig, small, lsmall, batch, contr, free_big, free_small, inner):
    """The pair through runtime/contract_native.cpp, big read in place; an array with axes batch + free_small +
    free_big (C order), or None where that path does not apply (then the caller copies and calls BLAS)."""
    # the library reads machine floats: a big-endian array ('>f8', from a FITS file or another machine's .npy)
    # would be read byte-swapped, so it goes to BLAS, which converts
    if (native.mode() == "off" or big.dtype != small.dtype or big.dtype.char not in "fd"
            or not big.dtype.isnative):
        return None
    size = big.itemsize
    # the big operand's unit-stride axis is vectorised: a kept one (free_big[-1]) or a summed one (contr[-1])
    big_left = inner in contr
    if inner in batch or big.strides[lbig.index(inner)] != size or any(s % size for s in big.strides):
        return None
    nb, M, N, K = (_extent(big, lbig, batch), _extent(small, lsmall, free_small), _extent(big, lbig, free_big),
                   _extent(big, lbig, contr))
    if native.mode() != "always" and nb * M * N * K < NATIVE_MIN_WORK:
        return None
    lib = _library()
    if lib is None:
        return None
    suffix = "f32" if big.dtype.char == "f" else "f64"
    hi = _byte_bounds(big)[1]
    bb = _offsets(big, lbig, batch)
    p = lambda a: a.ctypes.data          # noqa: E731
    if not big_left:
        v = free_big[-1]
        V = big.shape[lbig.index(v)]
        bn, bk = _offsets(big, lbig, free_big[:-1]), _offsets(big, lbig, contr)
        S = _np.ascontiguousarray(small.transpose([lsmall.index(l) for l in batch + contr + free_small]))
        out = _np.empty((nb, M, N // V, V), dtype=big.dtype)
        lib.call(f"tr_contract_free_{suffix}", [
            ("p", p(S)), ("p", p(big)), ("p", hi), ("p", p(bb)), ("p", p(bn)), ("p", p(bk)), ("i64", nb),
            ("i64", M), ("i64", N // V), ("i64", K), ("i64", V), ("p", p(out))])
    else:
        u = contr[-1]
        U = big.shape[lbig.index(u)]
        bn, bk = _offsets(big, lbig, free_big), _offsets(big, lbig, contr[:-1])
        # packed with a vector's worth of zeros after it, so that no read of it needs an edge check
        pad = _np.zeros(nb * M * K + 64 // big.itemsize, dtype=big.dtype)
        A = pad[:nb * M * K].reshape([small.shape[lsmall.index(l)] for l in batch + free_small + contr])
        A[...] = small.transpose([lsmall.index(l) for l in batch + free_small + contr])
        out = _np.empty((nb, M, N), dtype=big.dtype)
        lib.call(f"tr_contract_reduced_{suffix}", [
            ("p", p(A)), ("p", p(pad) + pad.nbytes), ("p", p(big)), ("p", hi), ("p", p(bb)), ("p", p(bn)),
            ("p", p(bk)), ("i64", nb), ("i64", M), ("i64", N), ("i64", K // U), ("i64", U), ("p", p(out))])
    shape = [big.shape[lbig.index(l)] for l in batch + free_big]
    shape = shape[:len(batch)] + [small.shape[lsmall.index(l)] for l in free_small] + shape[len(batch):]
    return out.reshape(shape)


def add_into(dst, src):
    """dst += src in place (dst a writable view, src of its shape): for two NumPy arrays not overlapping, through
    the native library's strided loop where it is built and they are large enough; else the arrays' own add (a
    torch tensor's too). The sums are the same either way (one addition per element)."""
    if (isinstance(dst, _np.ndarray) and isinstance(src, _np.ndarray) and dst.shape == src.shape
            and dst.dtype == src.dtype and dst.dtype.char in "fd" and dst.dtype.isnative and 0 < dst.ndim <= 32
            and (dst.size >= ADD_MIN or native.mode() == "always") and dst.flags.writeable
            and not any(st % dst.itemsize for st in dst.strides + src.strides)
            and not _np.may_share_memory(dst, src)):
        lib = _library()
        if lib is not None:
            size = dst.itemsize
            shape = _np.array(dst.shape, dtype=_np.int64)
            so = _np.array([st // size for st in dst.strides], dtype=_np.int64)
            sg = _np.array([st // size for st in src.strides], dtype=_np.int64)
            lib.call(f"tr_add_views_{'f32' if dst.dtype.char == 'f' else 'f64'}", [
                ("p", dst.ctypes.data), ("p", src.ctypes.data), ("i32", dst.ndim), ("p", shape.ctypes.data),
                ("p", so.ctypes.data), ("p", sg.ctypes.data)])
            return
    dst += src
