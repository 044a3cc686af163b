"""Centring translation-invariant inputs: which inputs (`groups`), and the kernel plans' centred buffers.

Inputs whose common shift along one axis leaves every output unchanged (x and y in a distance |x_i - y_j|²) are
moved to a common origin, their mean along that axis, before anything is computed from them: the value and the
derivatives are unchanged, and the expanded |x|² + |y|² - 2x·y no longer cancels catastrophically for coordinates
far from 0 (the gradient's x_i - y_j the derivation keeps whole: calculus.differential.spread_difference). x - c is exact where x and c are within a
factor 2 (Sterbenz). The origin sums finite entries only (the others count as 0): a NaN or inf in one row of x
would otherwise make c NaN and every row of the result NaN, where the rule's value is NaN (or, for inf, a limit)
in that row alone.

The NumPy code centres at the top of each function (numpy_module's _emit_centre); the kernel plans (kernels.OpPlan)
compute the same origin and centred copies as their programs' first steps (`plan_centre`) and read the copies
wherever the rule reads the inputs (`centred`): the rrule keeps the copies for its pullback, as the NumPy
pullback closure keeps its centred inputs.
"""
from __future__ import annotations

import itertools

import sympy as sp

from derive.emission.kernel_plan import finite_or_zero
from derive.emission.numpy_chunks import EXPAND_LIMIT, expand_sums, expanded_terms
from derive.ir import nodes as ir
from derive.ir.nodes import Extent, Idx, IndexSum


def groups(d):
    """[(extent class, inputs)]: groups of inputs, each with one axis of that class, such that adding one
    vector c along that axis to all of them leaves every output unchanged (distances, differences), and
    whose generated code multiplies them out (exposed). Centring them costs O(size of the inputs)."""
    p = d.program
    out = []
    if p.shifts:
        return out          # a shifted read (x[i+1] - x[i]) neither expands nor can be centred along its axis
    for cls in dict.fromkeys(c for v in p.inputs for c in v.classes):
        cands = [v.name for v in p.inputs if v.kind == "tensor" and v.classes.count(cls) == 1]
        if not cands or len(cands) > 4:
            continue
        for k in range(len(cands), 0, -1):
            group = next((g for g in itertools.combinations(cands, k) if shift_invariant(p, cls, g)), None)
            if group is not None:
                if _exposed_anywhere(d, cls, group):
                    out.append((cls, list(group)))
                break
    return out


def _shifted(e, prog, cls, group):
    """e with every access X[..d..] of a tensor X in group replaced by X[..d..] + c[d] (d its axis of class cls)."""
    c = ir.tensor_fn("_shift_c")
    rep = {}
    for a in ir.accesses(e, set(group)):
        pos = prog.var(ir.acc_name(a)).classes.index(cls)
        rep[a] = a + c(a.args[pos])
    return e.xreplace(rep) if rep else e


def shift_invariant(prog, cls, group):
    """Every output provably unchanged when the group is shifted (SymPy cancels x + c - (y + c) as it builds
    the expression; failing that, after expansion). Conservative: a temporary that is not invariant
    (|x|², say) makes whatever reads it count as not invariant."""
    tainted = set()
    for st in prog.stmts:
        reads = set(st.args) if st.prim else {ir.acc_name(a) for a in ir.accesses(st.expr)}
        if reads & tainted or (st.prim and reads & set(group)):
            tainted.add(st.target)
            continue
        if st.prim:
            continue
        new = _shifted(st.expr, prog, cls, group)
        # a text whose expansion would be huge (a product of 100 binomials) is not proved invariant: expanding
        # it took minutes; not centring only forgoes an accuracy gain the reference check would still demand
        if new != st.expr and (expanded_terms(new) > EXPAND_LIMIT or sp.expand(new - st.expr) != 0):
            tainted.add(st.target)
    return not any(v.name in tainted for v in prog.outputs)


def given_name(name: str) -> str:
    """The access name of input `name` as passed, before centring (an internal name: it starts with '_')."""
    return f"_given_{name}"


def reading_given(prog, groups_):
    """expand_sums' `given`: a checked sum's direct form, or a difference x[i,d] - y[j,d] the derivation keeps
    whole (calculus.differential.spread_difference: the kernel sum's x̄), reading each group's inputs as passed,
    not centred, where the group's shift leaves it unchanged. It needs no common origin, and the centring's
    rounding, |x - c|·eps, would be its only error (two clusters whose centroid is not exactly 0: 3 % in float32
    at 1e6, 2 % in the x-cotangent); the expansion beside a direct form keeps the centred inputs (its unflagged
    entries are those far apart beside |x - c|)."""
    def rewrite(direct):
        body = direct.body if isinstance(direct, IndexSum) else direct
        for cls, group in groups_:
            found = ir.accesses(direct, set(group))
            new = _shifted(body, prog, cls, group)
            if not found or (new != body and (expanded_terms(new) > EXPAND_LIMIT or sp.expand(new - body) != 0)):
                continue
            direct = direct.xreplace({a: ir.access(given_name(ir.acc_name(a)), a.args) for a in found})
        return direct
    return rewrite


def _exposed(e, prog, cls, group):
    """True when e uses a tensor of the group other than inside a difference the shift cancels in
    ((x[i,d] - y[j,d]) is safe; x[i,d]·y[j,d] and x[i,d]·Σ_j K[i,j] are not)."""
    if ir.is_access(e):
        return ir.acc_name(e) in group
    if not e.args:
        return False
    if isinstance(e, sp.Add) and ir.accesses(e, set(group)) and _shifted(e, prog, cls, group) == e:
        return False
    return any(_exposed(a, prog, cls, group) for a in e.args)


def _exprs(stmts, lins, expand=True):
    out = [st.expr for st in stmts if not st.prim]
    out += [IndexSum(t.coeff * t.atom, list(t.sums)) for ls in lins for t in getattr(ls, "terms", ())]
    return [expand_sums(e) for e in out] if expand else out


def _exposed_anywhere(d, cls, group):
    """Whether the NumPy code multiplies the group out (it expands Σ_d (x - y)², numpy_chunks.expand_sums)."""
    return any(_exposed(e, d.program, cls, group) for e in _exprs(d.program.stmts, d.pushforward + d.pullback))


def exposed_in(prog, groups_, stmts, lins):
    """The groups that these statements and linear statements (one kernel plan's program) multiply out, as they
    stand (the planner expands no sum): the ones worth centring there (a kernel sum's forward reads only x - y,
    its pullback x_i·Σ_j K)."""
    exprs = _exprs(stmts, lins, expand=False)
    return [(cls, group) for cls, group in groups_ if any(_exposed(e, prog, cls, group) for e in exprs)]


# -- the kernel plans ------------------------------------------------------------------------------------------
def centred_name(name: str) -> str:
    """The buffer holding input `name` moved to its group's origin (an internal name: it starts with '_')."""
    return f"_centred_{name}"


def origin_name(k: int) -> str:
    return f"_origin{k}"


def buffers(prog, groups_) -> dict:
    """{buffer: extent classes} of the origins and centred copies a plan computes."""
    out = {}
    for k, (cls, group) in enumerate(groups_):
        out[origin_name(k)] = (cls,)
        for name in group:
            out[centred_name(name)] = tuple(prog.var(name).classes)
    return out


def plan_centre(planner, prog, groups_):
    """The origin of each group, c[d] = Σ finite entries / count, then each input's centred copy x - c (a program's
    first pieces, before anything reads the inputs)."""
    for k, (cls, group) in enumerate(groups_):
        # names of their own per input and axis: SymPy orders the extents in `count` by name, never by hash
        axes = {name: [Idx(f"_q{k}_{m}_{a}", c) for a, c in enumerate(prog.var(name).classes)]
                for m, name in enumerate(group)}
        d = Idx(f"_q{k}_d", cls)
        count = sp.Add(*[sp.Mul(*[Extent(s) for s in idx if s.ext != cls]) for idx in axes.values()])
        terms = []
        for name, idx in axes.items():
            idx = [d if s.ext == cls else s for s in idx]
            terms.append(IndexSum(finite_or_zero(ir.access(name, tuple(idx))), [s for s in idx if s is not d])
                         / count)
        planner.assign(origin_name(k), (d,), terms)
        for name, idx in axes.items():
            at = tuple(d if s.ext == cls else s for s in idx)
            planner.assign(centred_name(name), at, [ir.access(name, at) - ir.access(origin_name(k), (d,))])


def centred(e, groups_):
    """e reading each centred input's copy where it read the input."""
    names = {name: centred_name(name) for _, group in groups_ for name in group}
    rep = {a: ir.access(names[ir.acc_name(a)], a.args) for a in ir.accesses(e, set(names))}
    return e.xreplace(rep) if rep else e
