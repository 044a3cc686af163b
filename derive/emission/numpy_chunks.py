"""Bounding the largest intermediate of the generated NumPy code: index sums multiplied out where the factored
form would be a new N×M×D array (expand_sums), and statements evaluated over slices of one index (Chunker).

`chunk_index` chooses the index to slice along; `Chunker` prints the sliced evaluation, one statement at a time or
several cotangents in one pass (the kernel sum's, so its N×M kernel is evaluated once per slice).
"""
from __future__ import annotations

import sympy as sp

from derive.calculus.differential import base_name, factors, spread_difference
from derive.emission.numpy_direct import CheckedDifference, CheckedSum, checkable, distributed, kept_difference
from derive.emission.numpy_print import CHUNK_NAME, Emitter
from derive.emission.numpy_text import union
from derive.ir import masks
from derive.ir import nodes as ir
from derive.ir.nodes import Extent, Idx, IndexSum
from derive.lowering import shifts


def _intermediates(e):
    """Index sets of the intermediates the emitter would build for e (functions, sums, powers)."""
    found: list = []

    def walk(x):
        if isinstance(x, CheckedSum):        # its direct form is summed slice by slice, or (a CheckedDifference)
            return walk(x.args[1])           # by blocks of rows within the budget: only its expansion counts
        if isinstance(x, IndexSum):
            inner = walk(x.body)
            return tuple(s for s in inner if s not in x.indices)
        if ir.is_access(x):
            return tuple(dict.fromkeys(x.args))
        if not x.args:
            return ()
        ax = union([walk(a) for a in x.args])
        if isinstance(x, (sp.Function, sp.Add, sp.Pow)):
            found.append(ax)
        return ax

    top = walk(e)
    return found, top


EXPAND_LIMIT = 4096


def expanded_terms(e, cap=EXPAND_LIMIT):
    """An upper estimate (capped just above `cap`) of how many terms sp.expand(e) builds at any level."""
    if not e.args:
        return 1
    if isinstance(e, sp.Add):
        return min(sum(expanded_terms(a, cap) for a in e.args), cap + 1)
    if isinstance(e, sp.Mul):
        n = 1
        for a in e.args:
            n = min(n * expanded_terms(a, cap), cap + 1)
        return n
    if isinstance(e, sp.Pow) and e.exp.is_Integer and e.exp > 1:
        b = expanded_terms(e.base, cap)
        return 1 if b == 1 else min(b ** min(int(e.exp), 64), cap + 1)
    return max(expanded_terms(a, cap) for a in e.args)   # a function, a sum: expanded inside, one term outside


def _needs_expansion(body):
    """True when a factor of the summand that is a sum (or a power of one) spans indices no single array of
    the summand carries: (x[i,d] - y[j,d])² would be a new N×M×D intermediate. Otherwise the factored form
    costs no more than the expansion and is better conditioned: (X[n,i] - μ[i])·S⁻¹[i,j]·(X[n,j] - μ[j])
    multiplied out cancels catastrophically for |μ| far above the spread of X."""
    arrays = [set(a.args) for a in ir.accesses(body)]
    for f in factors(body):
        base = f.base if isinstance(f, sp.Pow) and f.exp.is_Integer and f.exp > 1 else f
        if isinstance(base, sp.Add):
            idx = set(ir.free_indices(base, base.atoms(Idx)))
            if not any(idx <= a for a in arrays if a is not None):
                return True
    return False


def expand_sums(e, given=None):
    """Σ_d (x[i,d] - y[j,d])² -> Σ_d x[i,d]² + Σ_d y[j,d]² - 2·Σ_d x[i,d]·y[j,d] when every piece has fewer
    indices than the summand: no N×M×D intermediate, and the cross term is a matrix product. Only where the
    factored form would be such an intermediate (_needs_expansion); the cancellation this invites far from
    the origin is the reason OpGen centres translation-invariant inputs first (_translation_groups); centring
    cannot help two clusters far from each other, so the expansion comes as a numpy_direct.CheckedSum, whose
    printing falls back on the direct form where the expansion cancels. A difference of reads the derivation
    keeps whole inside the sum (Σ_j w·(x[i,d] - y[j,d])) comes as a numpy_direct.CheckedDifference: its direct
    form reads the difference per pair, its expansion is distributed (matrix products), checked the same way."""
    if isinstance(e, IndexSum):
        ks = list(e.indices)
        kept = kept_difference(e.body, ks)
        if kept is not None:
            w, difference = expand_sums(kept[0], given), kept[1]
            return CheckedDifference(IndexSum(w * (given(difference) if given else difference), ks),
                                     distributed(w, difference, ks), IndexSum(w * difference, ks))
        body = expand_sums(e.body, given)
        if not body.has(sp.Function) or not any(isinstance(x, sp.Function) and not ir.is_access(x)
                                                 for x in sp.preorder_traversal(body)):
            ex = sp.expand(body, deep=False, power_exp=False, power_base=False, log=False)
            idx = set(ir.free_indices(body, body.atoms(Idx)))
            def cheap(p):      # fewer indices than the summand, or a plain product a contraction evaluates
                if len(set(ir.free_indices(p, p.atoms(Idx)))) < len(idx):
                    return True
                return all(f.is_number or ir.is_access(f) for f in factors(p))

            if _needs_expansion(body) and isinstance(ex, sp.Add) and all(cheap(p) for p in ex.args):
                out = []
                for p in ex.args:
                    pf = set(ir.free_indices(p, p.atoms(Idx)))
                    term = IndexSum(p, [k for k in ks if k in pf])
                    for k in ks:
                        if k not in pf:
                            term = term * Extent(k)
                    out.append(term)
                if checkable(body, ks):        # given: the direct form reading inputs as passed (centring)
                    direct = IndexSum(body, ks)
                    return CheckedSum(given(direct) if given else direct, sp.Add(*out), direct)
                return sp.Add(*out)
        return IndexSum(body, ks)
    if given and isinstance(e, sp.Add) and spread_difference(e.args):
        return given(e)         # a difference the derivation keeps whole, x[i,d] - y[j,d], read as passed too
    if not e.args or ir.is_access(e) or not e.has(IndexSum):
        return e
    return e.func(*[expand_sums(a, given) for a in e.args])


def _slice_accesses(exprs, local):
    """Accesses that carry the slice index become parameters of the slice function: returns
    ({(tensor, axes carrying it): parameter name}, {access: access of the parameter})."""
    sliced: dict = {}
    rep = {}
    for e in exprs:
        for a in ir.accesses(e):
            if local in a.args:
                key = (ir.acc_name(a), tuple(k for k, x in enumerate(a.args) if x == local))
                sliced.setdefault(key, f"_s{len(sliced)}_{ir.acc_name(a).replace(':', '_')}")
                rep[a] = ir.access(sliced[key], a.args)
    return sliced, rep


def _slice_args(sliced, names, lo, hi):
    """The caller's arguments for one slice: each array cut to lo:hi along the axes that carry the index."""
    out = []
    for name, positions in sliced:
        key = [f"{lo}:{hi}" if k in positions else ":" for k in range(max(positions) + 1)]
        out.append(f"{names.get(name, name)}[{', '.join(key)}]")
    return ", ".join(out)


def _summed(e) -> set:
    """The indices e sums over at its top (a sum, a checked difference's, or those every term of an Add sums)."""
    if isinstance(e, sp.Add):
        return set.intersection(*[_summed(a) for a in e.args])
    if isinstance(e, CheckedDifference):
        return set(e.args[0].indices)
    return set(e.indices) if isinstance(e, IndexSum) else set()


def chunk_candidates(e, out_indices):
    """Every (index, big intermediate) e could be sliced along: its own indices first, then summed ones."""
    ci, big = chunk_index(e, out_indices)
    if ci is None:
        return []
    top = _summed(e)
    return [(s, big) for s in list(out_indices) + sorted(top, key=str) if s in big]


def chunk_index(e, out_indices):
    """The index to slice e along when some intermediate spans more indices than any array it is built
    from and than the result (the kernel sum's N×M matrix); None when e is cheap enough whole."""
    if shifts.has_affine(e):
        return None, ()        # a shifted read is a strided view: no intermediate is materialized to slice
    found, _ = _intermediates(e)
    arrays = [set(a.args) for a in ir.accesses(e)]
    big_sets = [ax for ax in found if len(ax) >= 2 and not set(ax) <= set(out_indices)
                and not any(set(ax) <= arr for arr in arrays)]
    if not big_sets:
        return None, ()
    big = max(big_sets, key=len)
    for s in out_indices:
        if s in big:
            return s, big
    top = _summed(e)
    for s in big:
        if s in top:
            return s, big
    return None, ()


class Chunker:
    """Prints statements sliced along one index of an op's function; extent_var(class) is the function's
    variable holding an extent (OpGen.extent_var), counter its temporaries."""

    def __init__(self, extent_var, counter, given=None):
        self.extent_var = extent_var
        self.counter = counter
        self.given = given            # expand_sums' rewriting of direct forms (centring.reading_given)

    def extent_code(self, idx):
        return self.extent_var(idx.ext)

    def emit_chunked(self, em: Emitter, tgt, expr, indices, ci, big):
        """T[indices] = expr evaluated over slices of index ci, so the largest intermediate stays bounded:
        slices are concatenated when ci is an index of the result, and added when ci is summed."""
        local = Idx("_ci", ci.ext)
        body_expr, compared = masks.positions_as_data(expr.xreplace({ci: local}), local, "_pos")
        if compared:       # a comparison of the sliced index reads its positions, sliced with the data
            em.names = dict(em.names, _pos=f"np.arange({self.extent_code(ci)})")
        sliced, rep = _slice_accesses([body_expr], local)
        body_expr = body_expr.xreplace(rep)
        fn = em.tmp("chunk")
        params = list(sliced.values())
        names = dict(em.names)
        for p in params:
            names[p] = p
        sub = Emitter(names, lambda s: "_m" if s == local else self.extent_code(s), em.indent + "    ",
                      self.counter)
        sub.dtype_src, sub.inverse_of, sub.factor_of = em.dtype_src, em.inverse_of, em.factor_of
        sub.big_ext = frozenset(x.ext for x in big)
        concat = ci in indices
        out_idx = tuple(local if s == ci else s for s in indices)
        sub.pref = out_idx
        code, axes = sub.emit(body_expr)
        sub.line(f"return {sub.to_axes(code, axes, out_idx)}")
        em.line(f"def {fn}(_m, {', '.join(params)}):", once=False)
        em.lines.extend(sub.lines)
        # how many slices of the chunk index fit the budget
        per_row = " * ".join(self.extent_code(s) for s in big if s != ci) or "1"
        n = self.extent_code(ci)
        step = em.tmp("step")
        em.line(f"{step} = max(1, {CHUNK_NAME} // max(1, {per_row}))")

        whole = ", ".join(em.names[name] for name, _ in sliced)
        em.line(f"if {step} >= {n}:")
        em.line(f"    {tgt} = {fn}({n}, {whole})")
        em.line("else:")
        s = em.tmp("s")
        part = f"{fn}(min({step}, {n} - {s}), {_slice_args(sliced, em.names, s, f'{s} + {step}')})"
        if concat:
            em.line(f"    {tgt} = np.concatenate([{part} for {s} in range(0, {n}, {step})], "
                    f"axis={indices.index(ci)})", once=False)
        else:
            em.line(f"    {tgt} = 0.0")
            em.line(f"    for {s} in range(0, {n}, {step}):", once=False)
            em.line(f"        {tgt} = {tgt} + {part}")

    def emit_fused_chunks(self, pb: Emitter, stmts, atoms):
        """Cotangents of several inputs that all need slicing along indices of one extent class (the kernel
        sum's x̄, ȳ, b̄, s̄ along i) are computed in ONE sliced pass, so the N×M kernel is evaluated once per
        slice for all of them (KeOps style). Each input still gets a Thunk; the first one used runs the pass.
        Returns {input name: Thunk expression} for the statements fused (none if fewer than two qualify)."""
        planned = _fused_plan(stmts, atoms, self.given)
        if planned is None:
            return {}
        cls, local, plan, compared = planned
        sliced, rep = _slice_accesses([e for _, e, _, _, _ in plan], local)
        names = dict(pb.names)
        if compared:       # a comparison of the sliced index reads its positions, sliced with the data
            names["_pos"] = f"np.arange({self.extent_var(cls)})"
        names.update(atoms)
        for p in sliced.values():
            names[p] = p
        fn, n = pb.tmp("fused"), self.extent_var(cls)
        sub = Emitter(names, lambda x: "_m" if x == local else self.extent_code(x), pb.indent + "        ",
                      self.counter, pb.cache)
        sub.dtype_src, sub.inverse_of, sub.factor_of = pb.dtype_src, pb.inverse_of, pb.factor_of
        sub.big_ext = frozenset(x.ext for _, _, _, big, _ in plan for x in big)
        outs = []
        for ls, e, axis, big, out_idx in plan:
            sub.pref = out_idx
            code, axes = sub.emit(e.xreplace(rep))
            v = sub.tmp("r")
            sub.line(f"{v} = {sub.to_axes(code, axes, out_idx)}")
            outs.append(v)
        sub.line(f"return ({', '.join(outs)},)")
        per_row = [" * ".join(self.extent_code(x) for x in big if x != local) or "1" for _, _, _, big, _ in plan]
        self._fused_pass(pb, fn, n, sub, sliced, names, per_row, tuple(a for _, _, a, _, _ in plan))
        result = {}
        for k, (ls, _, _, _, _) in enumerate(plan):
            T = base_name(ls.target)
            g = pb.tmp(f"pb_{T}_")
            pb.line(f"def {g}():", once=False)
            pb.line(f"    return {fn}()[{k}]")
            result[T] = f"Thunk({g})"
        return result

    @staticmethod
    def _fused_pass(pb, fn, n, sub, sliced, names, per_row, concat_axes):
        """fn(): the sliced pass, run once (memoized) — whole when the budget allows, else slice by slice, each
        result concatenated along its axis (concat_axes) or, where the slice index is summed, added."""
        memo, step, s_, part = pb.tmp("memo"), pb.tmp("step"), pb.tmp("s"), pb.tmp("part")

        pb.line(f"{memo} = []")
        pb.line(f"def {fn}():", once=False)
        pb.line("    if not " + memo + ":")
        pb.line(f"        def {fn}_slice(_m, {', '.join(sliced.values())}):", once=False)
        pb.lines.extend(st.deeper("    ") for st in sub.lines)
        pb.line(f"        {step} = max(1, {CHUNK_NAME} // max(1, {', '.join(per_row)}{', 1' if len(per_row) == 1 else ''}))")
        pb.line(f"        if {step} >= {n}:")
        whole = ", ".join(names.get(name, name) for (name, _) in sliced)
        pb.line(f"            {memo}.append({fn}_slice({n}, {whole}))")
        pb.line("        else:")
        pb.line(f"            acc = [[] if axis is not None else None for axis in {concat_axes!r}]",
                once=False)
        pb.line(f"            for {s_} in range(0, {n}, {step}):", once=False)
        pb.line(f"                {part} = {fn}_slice(min({step}, {n} - {s_}), {_slice_args(sliced, names, s_, f'{s_} + {step}')})")
        pb.line(f"                for k, axis in enumerate({concat_axes!r}):", once=False)
        pb.line("                    if axis is not None:")
        pb.line(f"                        acc[k].append({part}[k])")
        pb.line("                    else:")
        pb.line(f"                        acc[k] = {part}[k] if acc[k] is None else acc[k] + {part}[k]")
        pb.line(f"            {memo}.append(tuple(np.concatenate(a, axis=axis) if axis is not None else a for a, axis in "
                f"zip(acc, {concat_axes!r})))", once=False)
        pb.line(f"    return {memo}[0]")


def _fused_plan(stmts, atoms, given=None):
    """(extent class, slice index, [(statement, expression over the slice index, concat axis or None, big
    intermediate, output indices)], whether a comparison reads the slice positions) for the statements that
    can share one sliced pass, or None when fewer than two can."""
    cands = []
    for ls in stmts:
        if not ls.terms or any(ir.acc_name(t.atom) not in atoms for t in ls.terms):
            continue
        e = sp.Add(*[expand_sums(IndexSum(t.coeff * t.atom, list(t.sums)), given) for t in ls.terms])
        options = chunk_candidates(e, ls.indices)
        if options:
            cands.append((ls, e, options))
    if len(cands) < 2:
        return None
    classes = [c for c in dict.fromkeys(s.ext for s, _ in cands[0][2])
               if all(any(s.ext == c for s, _ in o) for _, _, o in cands)]
    if not classes:
        return None
    cls = classes[0]
    local = Idx("_ci", cls)
    plan = []
    for ls, e, options in cands:
        ci, big = next((s, b) for s, b in options if s.ext == cls)
        axis = ls.indices.index(ci) if ci in ls.indices else None
        plan.append((ls, e.xreplace({ci: local}), axis, tuple(local if x == ci else x for x in big),
                     tuple(local if x == ci else x for x in ls.indices)))
    compared = False
    for k, (ls, e, axis, big, out_idx) in enumerate(plan):
        e, c = masks.positions_as_data(e, local, "_pos")
        plan[k], compared = (ls, e, axis, big, out_idx), compared or c
    return cls, local, plan, compared
