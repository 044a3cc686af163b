"""Σ_d of a polynomial in arrays no single one of which spans the summand (‖x_i - y_j‖²): `CheckedSum` keeps its
direct form beside its expansion into contractions (numpy_chunks.expand_sums), and `emit_checked` prints it as
one call of the namespace's `checked_sum` (runtime.backend_numpy), which decides at run time.

The expansion ‖x‖² + ‖y‖² - 2x·y is a matrix product but cancels where the distance is small beside the norms
(two clusters far from each other, which centring at one origin cannot help). checked_sum sums the direct form
d by d where the summed extent is small (as fast there), and otherwise recomputes directly the entries whose
computed value is small beside a bound of the expansion's terms (Hölder: Σ_d |Π_k f_k| ≤ Π_k (Σ_d |f_k|^n)^(1/n),
each factor a sum over fewer indices), the entries the expansion cannot vouch for.

`CheckedDifference` does the same for a difference of reads the derivation keeps whole inside a sum over an index
only some of them carry (Σ_j c[i,j]·(x[i,d] - y[j,d]), the kernel sum's x̄: calculus.differential.spread_difference):
its direct form reads the difference per pair, its expansion distributes it (x[i,d]·Σ_j c - Σ_j c·y[j,d], matrix
products), its bound is that expansion with every factor's absolute value, and, the terms differing in sign, the
expansion is also vouched for where the bound is within the check's ratio of Σ_j |c|·(x[i,d] - y[j,d]) (a lower
bound of the direct form's own Σ_j |c·(x - y)|).
"""
from __future__ import annotations

import sympy as sp

from derive.calculus.differential import spread_difference
from derive.emission.numpy_text import CHUNK_NAME, REF, is_simple
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


class CheckedDifference(CheckedSum):
    """CheckedDifference(direct, expanded, source): Σ_ks w·(x[i,d] - y[j,d]) (kept_difference) read per pair
    (`direct`, reading the inputs as passed where source reads them centred: centring.reading_given), and
    distributed (`expanded`: distributed(w, difference)); emit_checked builds the bound from source."""


def kept_difference(body, ks):
    """(w, difference) where body is w·difference, one difference of plain reads the derivation keeps whole
    (spread_difference) whose reads do not all carry the same summed indices (x[i,d] - y[j,d] summed over j):
    distributed, the reads that lack a summed index come out of the sum. None where no factor or more than
    one is such a difference, or where the sum leaves no index free (no rows to check)."""
    found = [f for f in sp.Mul.make_args(body) if isinstance(f, sp.Add) and spread_difference(f.args)]
    if len(found) != 1 or not (set(ir.free_indices(body, body.atoms(Idx))) - set(ks)):
        return None
    reads = [p.as_coeff_Mul()[1] for p in found[0].args]
    if not all(isinstance(x, Idx) for a in reads for x in a.args):
        return None
    if len({frozenset(set(a.args) & set(ks)) for a in reads}) < 2:
        return None
    return sp.Mul(*[f for f in sp.Mul.make_args(body) if f is not found[0]]), found[0]


def distributed(w, difference, ks):
    """Σ_ks w·difference with the difference distributed: Σ over its pieces n·read of n·Σ_ks w·read, the
    factors that carry no summed index outside the sum (x[i,d]·Σ_j w - Σ_j w·y[j,d])."""
    out = []
    for piece in difference.args:
        n, read = piece.as_coeff_Mul()
        fs = list(sp.Mul.make_args(w)) + [read]
        inside = [f for f in fs if _indices(f) & set(ks)]
        carried = [k for k in ks if any(k in _indices(f) for f in inside)]
        term = n * sp.Mul(*[f for f in fs if f not in inside]) * sp.Mul(*[Extent(k) for k in ks if k not in carried])
        out.append(term * IndexSum(sp.Mul(*inside), carried) if carried else term)
    return sp.Add(*out)


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
    rows r): functions of blocks of rows (r a slice, m its length), so the direct sum and the check run in cache.
    A CheckedDifference's direct form is the whole sum at rows r, read per pair (by blocks of rows within the
    module's chunk budget), and its check has a floor (runtime.backend_numpy.checked_sum_function)."""
    direct, expanded, source = e.args
    ks = list(direct.indices)
    if not isinstance(e, CheckedDifference):
        return _emit_call(em, e, direct.body, ks, expanded, bound(source.body, ks))
    w, given = kept_difference(direct.body, ks)
    w, size = _hoisted(em, w)
    difference = kept_difference(source.body, ks)[1]
    pieces = sp.Add(*[abs(n) * sp.Abs(x) for n, x in (p.as_coeff_Mul() for p in difference.args)])
    return _emit_call(em, e, w * given, ks, distributed(w, difference, ks), distributed(size, pieces, ks),
                      sp.Abs(distributed(size, difference, ks)))


def _hoisted(em, w):
    """(w, |w|): the product w with each factor that is no plain read (exp(-Σ_d (x - y)²/s): the kernel) computed
    once, before the checked sum's functions, which read it as an array (sliced, gathered), and |w| with each
    factor's absolute value (those computed once too: the bound and the floor both read them)."""
    out, size = [], []
    for f in sp.Mul.make_args(w):
        if f.is_number or isinstance(f, Extent) or ir.is_access(f) and all(isinstance(x, Idx) for x in f.args):
            out.append(f)
            size.append(sp.Abs(f))
            continue
        axes = em.order(tuple(ir.free_indices(f, f.atoms(Idx))))
        code, v, a = em.to_axes(*em.emit(f), axes), em.tmp("w"), em.tmp("w")
        if is_simple(code):        # a variable already (the kernel the other cotangents share)
            em.names[v.strip(REF)] = code
        else:
            em.line(f"{v} = {code}")
            em.names[v.strip(REF)] = v
        em.line(f"{a} = np.abs({em.names[v.strip(REF)]})")
        em.names[a.strip(REF)] = a
        out.append(ir.access(v.strip(REF), axes))
        size.append(ir.access(a.strip(REF), axes))
    return sp.Mul(*out), sp.Mul(*size)


def _emit_call(em, e, body, ks, expanded, bounds, floor=None):
    """The checked_sum call of Σ_ks body, its expansion, a bound of the expansion's terms and (a kept
    difference: the direct form read per pair) a floor."""
    free = em.order(tuple(ir.free_indices(IndexSum(body, ks), body.atoms(Idx))))
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

    def value(sub):
        sub.pref = free
        code, axes = sub.emit(expanded)
        return sub.to_axes(code, axes, free)

    fns = [_function(em, "direct", f"{k}, {r}, {m}", sliced) if floor is None else      # per pair: the whole sum
           _function(em, "direct", f"{r}, {m}", lambda sub: in_rows(sub, IndexSum(body, ks), em.names)),
           _function(em, "at", pos, at), _function(em, "expanded", "", value)]
    for x in sp.preorder_traversal(bounds + (0 if floor is None else floor)):     # norms along the other axes: once
        if (isinstance(x, (IndexSum, sp.Abs)) or isinstance(x, sp.Pow) and isinstance(x.base, IndexSum)) \
                and free[0] not in _indices(x):
            em.emit(x)
    # by blocks of rows: the check reads the value once, its bound is built in cache
    fns.append(_function(em, "bound", f"{r}, {m}", lambda sub: in_rows(sub, bounds, em.names)))
    extra = ""
    if floor is not None:
        fn = _function(em, "floor", f"{r}, {m}", lambda sub: in_rows(sub, floor, em.names))
        extra = f", floor={fn}, budget={CHUNK_NAME}"
    extents = "(" + "".join(f"{em.extent_code(x)}, " for x in ks) + ")"
    return em.bind(e, f"np.checked_sum({extents}, {em.extent_code(free[0])}, {', '.join(fns)}{extra})", free, "d2")
