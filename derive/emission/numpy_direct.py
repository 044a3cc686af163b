"""Σ_d of a polynomial in arrays no single one of which spans the summand (‖x_i - y_j‖²): `CheckedSum` keeps its
direct form beside its expansion into contractions (numpy_chunks.expand_sums), and `emit_checked` prints it as
one call of the namespace's `checked_sum` (runtime.backend_numpy), which decides at run time.

The expansion ‖x‖² + ‖y‖² - 2x·y is a matrix product but cancels where the distance is small beside the norms
(two clusters far from each other, which centring at one origin cannot help). checked_sum sums the direct form
d by d where the summed extent is small (as fast there), and otherwise recomputes directly the entries whose
computed value is small beside a bound of the expansion's terms (Hölder: Σ_d |Π_k f_k| ≤ Π_k (Σ_d |f_k|^n)^(1/n),
each factor a sum over fewer indices), the entries the expansion cannot vouch for.
"""
from __future__ import annotations

import sympy as sp

from derive.ir import nodes as ir
from derive.ir.nodes import Extent, Idx, IndexSum


class CheckedSum(sp.Function):
    """CheckedSum(direct, expanded, expanded_from): the sum `direct` (an IndexSum) and the same value multiplied
    out from the sum `expanded_from` (direct itself, or direct reading centred inputs where direct reads them as
    passed: centring.reading_given); the check's bound is that of the terms of the expansion."""

    nargs = 3
    is_commutative = True
    is_real = True

    @classmethod
    def eval(cls, direct, expanded, expanded_from):
        return None


def checkable(body, ks) -> bool:
    """Whether the direct form can be printed slice by slice (every array read at plain indices, no sum inside)
    and has entries to recompute one by one (some index is not summed)."""
    if body.has(IndexSum) or body.has(ir.IndexReduce) or not (_indices(body) - set(ks)):
        return False
    return all(all(isinstance(a, Idx) for a in acc.args) for acc in ir.accesses(body))


def _indices(f):
    return set(ir.free_indices(f, f.atoms(Idx)))


def _term_bound(term, ks):
    """A bound of Σ_ks |term| (Hölder over the factors that carry a summed index)."""
    coeff, rest = term.as_coeff_Mul()
    outside, inside = [], {}
    for f in sp.Mul.make_args(rest):
        base, m = (f.base, int(f.exp)) if isinstance(f, sp.Pow) and f.exp.is_Integer and f.exp > 0 else (f, 1)
        if _indices(base) & set(ks):
            inside[base] = inside.get(base, 0) + m
        else:
            outside.append(sp.Abs(f))
    n = sum(inside.values())
    out = abs(coeff) * sp.Mul(*outside)
    if not inside:
        return out * sp.Mul(*[Extent(k) for k in ks])
    for f, m in inside.items():
        carried = [k for k in ks if k in _indices(f)]
        power = f ** n if n % 2 == 0 else sp.Abs(f) ** n
        norm = IndexSum(power, carried) * sp.Mul(*[Extent(k) for k in ks if k not in carried])
        out *= norm ** sp.Rational(m, n)
    return out


def bound(body, ks):
    """Σ over the terms of the multiplied-out body of a bound of Σ_ks |term|: the scale of the expansion's rounding."""
    ex = sp.expand(body, deep=False, power_exp=False, power_base=False, log=False)
    return sp.Add(*[_term_bound(t, ks) for t in sp.Add.make_args(ex)])


def _slice(em, body, ks, k):
    """body with every array read at the summed indices cut at the position tuple `k` (its other axes kept)."""
    names, rep = dict(em.names), {}
    for j, a in enumerate(ir.accesses(body)):
        if not set(a.args) & set(ks):
            continue
        key = ", ".join(f"{k}[{ks.index(x)}]" if x in ks else ":" for x in a.args)
        name = f"_slice{j}"
        names[name] = f"{em.names[ir.acc_name(a)]}[{key}]"
        rep[a] = ir.access(name, tuple(x for x in a.args if x not in ks))
    return body.xreplace(rep), names


def _gathered(em, body, free, pos, p):
    """body with every array read at listed positions of the free indices (`pos`: one index array per free
    axis), those axes becoming one axis p, NumPy's advanced indexing's order."""
    names, rep = dict(em.names), {}
    for j, a in enumerate(ir.accesses(body)):
        at = [k for k, x in enumerate(a.args) if x in free]
        if not at:
            continue
        key = ", ".join(f"{pos}[{free.index(x)}]" if x in free else ":" for x in a.args)
        name = f"_gather{j}"
        names[name] = f"{em.names[ir.acc_name(a)]}[{key}]"
        kept = [x for x in a.args if x not in free]
        if at == list(range(at[0], at[-1] + 1)):      # adjacent: the new axis where they were
            before = [x for k, x in enumerate(a.args) if k < at[0]]
            axes = before + [p] + kept[len(before):]
        else:
            axes = [p] + kept
        rep[a] = ir.access(name, tuple(axes))
    return body.xreplace(rep), names


def _function(em, hint, param, build):
    """def fn(param): return <build(sub-emitter)>, printed at em's level; returns fn's name."""
    fn = em.tmp(hint)
    sub = em.nested()
    code = build(sub)
    sub.line(f"return {code}")
    em.line(f"def {fn}({param}):", once=False)
    em.lines.extend(sub.lines)
    return fn


def _rows(names, e, first, r):
    """e with every array read along the free index `first` cut to the rows of the slice `r`."""
    names, rep = dict(names), {}
    for j, a in enumerate(ir.accesses(e)):
        if first not in a.args:
            continue
        key = ", ".join(r if x == first else ":" for x in a.args)
        name = f"_rows{j}"
        names[name] = f"{names[ir.acc_name(a)]}[{key}]"
        rep[a] = ir.access(name, a.args)
    return e.xreplace(rep), names


def emit_checked(em, e):
    """np.checked_sum(summed extents, rows, direct slice at rows r, direct at listed positions, expanded, bound at
    rows r): functions of blocks of rows (r a slice, m its length), so the direct sum and the check run in cache."""
    direct, expanded, source = e.args
    body, ks = direct.body, list(direct.indices)
    free = em.order(tuple(ir.free_indices(direct, direct.atoms(Idx))))
    k, pos, r, m = em.tmp("k"), em.tmp("pos"), em.tmp("r"), em.tmp("m")
    p = Idx("_p", ks[0].ext)

    def in_rows(sub, e, names):        # e at the rows r (m of them) of the first free axis
        e, sub.names = _rows(names, e, free[0], r)
        outer = sub.extent_code
        sub.extent_code = lambda s: m if s == free[0] else outer(s)
        sub.pref = free
        code, axes = sub.emit(e)
        return sub.to_axes(code, axes, free)

    def sliced(sub):
        return in_rows(sub, *_slice(em, body, ks, k))

    def at(sub):
        gb, sub.names = _gathered(em, body, free, pos, p)
        outer = sub.extent_code
        sub.extent_code = lambda s: f"len({pos}[0])" if s == p else outer(s)
        code, axes = sub.emit(IndexSum(gb, ks))
        return sub.to_axes(code, axes, (p,))

    def whole(sub):
        sub.pref = free
        code, axes = sub.emit(expanded)
        return sub.to_axes(code, axes, free)

    def bounded(sub):      # by blocks of rows: the check reads the value once, its bound is built in cache
        return in_rows(sub, bound(source.body, ks), em.names)

    fns = [_function(em, "direct", f"{k}, {r}, {m}", sliced), _function(em, "at", pos, at),
           _function(em, "expanded", "", whole)]
    for x in sp.preorder_traversal(bound(source.body, ks)):     # norms along the other axes: once, not per block
        if (isinstance(x, IndexSum) or isinstance(x, sp.Pow) and isinstance(x.base, IndexSum)) \
                and free[0] not in _indices(x):
            em.emit(x)
    fns.append(_function(em, "bound", f"{r}, {m}", bounded))
    extents = "(" + "".join(f"{em.extent_code(x)}, " for x in ks) + ")"
    return em.bind(e, f"np.checked_sum({extents}, {em.extent_code(free[0])}, {', '.join(fns)})", free, "d2")
