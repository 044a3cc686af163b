"""A pullback of shifted reads as a book writes it: `dx[t] = Σ_l dy[t-l]·w[l]` for `Σ_kl dy[k]·w[l]·δ[t,k+l]`.

Transposing a read x[i+k] leaves a delta δ[t,k+l] the calculus cannot contract without a range condition; read
as "a tensor read outside its extent is 0" (a full correlation with the flipped kernel, a stencil's transpose)
it contracts. Each rewritten statement is shown only where it equals the derived one at random values (plain
loops, both read the same way), so a rewrite that is wrong is never shown.
"""
from __future__ import annotations

import itertools
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


def agrees(old, new, seed=0) -> bool:
    """Whether statements old and new have equal values at random tensors and distinct extents per index class."""
    rng = np.random.default_rng(seed)
    sizes: dict = {}

    def size(i):
        return sizes.setdefault(i.ext, 3 + len(sizes))

    shapes = _shapes(old.terms + new.terms, size)
    arrays = {name: rng.uniform(0.3, 0.9, shape) for name, shape in shapes.items()}
    try:
        want, got = (_statement(s, size, arrays) for s in (old, new))
    except Exception:           # a factor these loops do not value (a function, a reduction): not shown
        return False
    return bool(np.allclose(want, got, rtol=1e-10, atol=1e-12))


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
    free = list(ls.indices)
    out = np.zeros([size(i) for i in free])
    for pos in itertools.product(*[range(size(i)) for i in free]):
        env = dict(zip(free, pos))
        out[pos] = sum(_summed(t.coeff * t.atom, t.sums, env, size, arrays) for t in ls.terms)
    return out


def _summed(e, sums, env, size, array):
    total = 0.0
    for pos in itertools.product(*[range(size(s)) for s in sums]):
        total += _value(e, {**env, **dict(zip(sums, pos))}, size, array)
    return total


def _value(e, env, size, array):
    if ir.is_access(e):
        arr = array[ir.acc_name(e)]
        where = tuple(int(x.xreplace(env)) for x in e.args)
        if any(w < 0 or w >= n for w, n in zip(where, arr.shape)):
            return 0.0
        return float(arr[where])
    if isinstance(e, sp.KroneckerDelta):
        return float(int(e.args[0].xreplace(env)) == int(e.args[1].xreplace(env)))
    if isinstance(e, Iverson):
        return float(bool(e.cond.xreplace(env)))
    if isinstance(e, Extent):
        return float(size(e.args[0]))
    if isinstance(e, IndexSum):
        return _summed(e.body, e.indices, env, size, array)
    if e.is_number:
        return float(e)
    if isinstance(e, sp.Add):
        return math.fsum(_value(a, env, size, array) for a in e.args)
    if isinstance(e, sp.Mul):
        return math.prod(_value(a, env, size, array) for a in e.args)
    if isinstance(e, sp.Pow):
        return _value(e.base, env, size, array) ** _value(e.exp, env, size, array)
    if isinstance(e, sp.Function) and e.args:          # exp, tanh, sigmoid: SymPy's value at the numbers
        return float(e.func(*[sp.Float(_value(a, env, size, array)) for a in e.args]).evalf())
    raise ValueError(f"no loop value for {type(e).__name__}")
