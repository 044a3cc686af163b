"""A pullback of shifted reads as a book writes it: `dx[t] = Σ_l dy[t-l]·w[l]` for `Σ_kl dy[k]·w[l]·δ[t,k+l]`.

Transposing a read x[i+k] leaves a delta δ[t,k+l] the calculus cannot contract without a range condition; read
as "a tensor read outside its extent is 0" (a full correlation with the flipped kernel, a stencil's transpose)
it contracts. Each rewritten statement is shown only where it equals the derived one at random values (plain
loops, both read the same way), so a rewrite that is wrong is never shown.
"""
from __future__ import annotations

import math

import numpy as np
import sympy as sp

from derive.calculus.differential import Term
from derive.ir import nodes as ir
from derive.ir.masks import Iverson
from derive.ir.nodes import Extent, Idx, IndexSum


def contracted(ls):
    """ls with each delta that ties a summed index k to others, δ[t, k+l+c] where k is read plain by a tensor
    (dy[k]), contracted to k = t - l - c; ls itself where there is none."""
    terms, changed = [], False
    for t in ls.terms:
        u = _contract_term(t)
        changed |= u is not t
        terms.append(u)
    return type(ls)(ls.target, ls.indices, _as_written(terms)) if changed else ls


def _as_written(terms):
    """Terms as a book writes them: added before subtracted (dy[t-1] - dy[t], not -dy[t] + dy[t-1])."""
    return sorted(terms, key=lambda t: t.coeff.could_extract_minus_sign())


def _contract_term(t):
    while True:
        got = _one_delta(t)
        if got is None:
            return t
        t = got


def _one_delta(t):
    """t with one delta contracted, else None."""
    plain = [a for a in ir.accesses(t.atom) + ir.accesses(t.coeff)]
    for d in sp.Mul.make_args(t.coeff):
        if not isinstance(d, sp.KroneckerDelta):
            continue
        e = sp.expand(d.args[0] - d.args[1])
        # prefer the cotangent's index (dy[t-l]·w[l], the kernel read plain, as books write it)
        order = sorted(t.sums, key=lambda s: (s not in t.atom.args, s.name))
        for k in order:
            c = e.coeff(k)
            if c not in (1, -1) or k in (e - c * k).free_symbols:
                continue
            if not any(k in a.args for a in plain):     # a plain read keeps k in range: reads outside are 0
                continue
            value = -(e - c * k) / c
            sub = {k: value}
            return Term((t.coeff / d).xreplace(sub), tuple(s for s in t.sums if s != k), t.atom.xreplace(sub))
    return None


# -- the check: both statements by plain loops, every read outside its tensor 0 -----------------------------------


def agrees(old, new, seed=0):
    """Whether statements old and new have equal values at random tensors and distinct extents per index class;
    None where the check declines (past its grid budget, or a factor it does not value)."""
    rng = np.random.default_rng(seed)
    sizes: dict = {}

    def size(i):
        return sizes.setdefault(i.ext, 3 + len(sizes))

    shapes = _shapes(old.terms + new.terms, size)
    if sum(_work(s, size) for s in (old, new)) > CHECK_WORK:
        return None             # past what the check can hold in memory: the derived form is shown
    arrays = {name: rng.uniform(0.3, 0.9, shape) for name, shape in shapes.items()}
    try:
        with np.errstate(all="ignore"):
            want, got = (_statement(s, size, arrays) for s in (old, new))
    except Exception:           # a factor the grid does not value (a function, a reduction): not shown
        return None
    return bool(np.allclose(want, got, rtol=1e-10, atol=1e-12))


# grid points (output entries times summed positions, over every term) past which the check declines: each term
# is valued on the grid of its indices at once (conv2d's transposed reads: about 10⁶ points)
CHECK_WORK = 1 << 23


def _work(ls, size):
    out = math.prod(size(i) for i in ls.indices)
    return sum(out * math.prod(size(s) for s in t.sums) for t in ls.terms)


def _shapes(terms, size):
    """{tensor: shape}: an axis read plain (x[i]) has i's extent; one read only shifted (x[i+k]) reaches as far
    as its largest read."""
    plain: dict = {}
    reach: dict = {}
    for t in terms:
        for a in ir.accesses(t.coeff * t.atom):
            plain.setdefault((ir.acc_name(a), None, len(a.args)), 0)
            for ax, x in enumerate(a.args):
                key = (ir.acc_name(a), ax, len(a.args))
                if isinstance(x, Idx):
                    plain.setdefault(key, size(x))
                else:
                    top = x.xreplace({i: size(i) - 1 for i in x.atoms(Idx)})
                    reach[key] = max(reach.get(key, 1), int(top) + 1)
    out: dict = {}
    for key in set(plain) | set(reach):
        name, ax, n = key
        shape = out.setdefault(name, [1] * n)
        if ax is not None:
            shape[ax] = plain.get(key, reach.get(key))
    return {k: tuple(v) for k, v in out.items()}


def _statement(ls, size, arrays):
    """The statement's value: each term on the grid of its free and summed indices (one axis each), summed over
    the summed axes; a read outside its tensor is 0."""
    free = list(ls.indices)
    out = np.zeros([size(i) for i in free])
    for t in ls.terms:
        axes = free + [s for s in t.sums if s not in free]
        grid = {i: np.arange(size(i)).reshape([-1 if k == a else 1 for k in range(len(axes))])
                for a, i in enumerate(axes)}
        v = np.broadcast_to(_value(t.coeff * t.atom, grid, size, arrays), [size(i) for i in axes])
        out = out + v.sum(axis=tuple(range(len(free), len(axes))))
    return out


def _value(e, grid, size, array):
    """e's value on the grid (arrays broadcasting over the index axes)."""
    if isinstance(e, Idx):
        return grid[e]
    if ir.is_access(e):
        arr = array[ir.acc_name(e)]
        where = [np.asarray(_value(x, grid, size, array)) for x in e.args]
        inside = np.ones((), dtype=bool)
        for w, n in zip(where, arr.shape):
            inside = inside & (w >= 0) & (w < n)
        return np.where(inside, arr[tuple(np.clip(w, 0, n - 1) for w, n in zip(where, arr.shape))], 0.0)
    if isinstance(e, sp.KroneckerDelta):
        return (_value(e.args[0], grid, size, array) == _value(e.args[1], grid, size, array)).astype(float)
    if isinstance(e, Iverson):
        return np.asarray(_value(e.cond, grid, size, array), dtype=float)
    if isinstance(e, sp.core.relational.Relational):
        ops = {"==": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal, ">": np.greater,
               ">=": np.greater_equal}
        return ops[e.rel_op](_value(e.lhs, grid, size, array), _value(e.rhs, grid, size, array))
    if isinstance(e, Extent):
        return float(size(e.args[0]))
    if e.is_number:
        return float(e) if not e.is_Integer else int(e)
    if isinstance(e, sp.Add):
        return sum(_value(a, grid, size, array) for a in e.args)
    if isinstance(e, sp.Mul):
        return math.prod(_value(a, grid, size, array) for a in e.args)
    if isinstance(e, sp.Pow):
        return np.power(np.asarray(_value(e.base, grid, size, array), dtype=float),
                        _value(e.exp, grid, size, array))
    if isinstance(e, sp.Function) and e.args and hasattr(np, type(e).__name__):   # exp, tanh, sin ...
        return getattr(np, type(e).__name__)(*[np.asarray(_value(a, grid, size, array), dtype=float)
                                                for a in e.args])
    raise ValueError(f"no grid value for {type(e).__name__}")
