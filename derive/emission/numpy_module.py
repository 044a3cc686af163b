"""NumPy code generation: a Derivation becomes the forward function, frule and rrule of one op.

The mathematics is finished before this module runs; here we only choose evaluation order (what the
forward pass must keep for the pullback, what is computed lazily) and print through `emit_numpy`.
The module layout itself lives in templates/numpy_module.py.j2.
"""
from __future__ import annotations

import builtins
import itertools
import keyword
import pprint
from dataclasses import dataclass

import sympy as sp

from derive.calculus.differential import COT, GIVEN, TAN, Derivation, OpaqueLin, _factors, base_name, lin_reads
from derive.emission.numpy_print import CHUNK_NAME, Emitter, Stmt, Temporaries, _union, name_of, ref, render
from derive.ir import masks
from derive.ir import nodes as ir
from derive.ir.nodes import Extent, Idx, IndexSum
from derive.lowering import shifts
from derive.lowering.lower import user_name
from primitives.matrix import PRIMITIVES


@dataclass
class OpCode:
    name: str
    functions: str        # Python source of the op's three functions, indented for _define's body
    exports: list         # names the functions are exported under
    meta: dict            # the OPS entry
    local: dict = None    # export name -> the function's name inside _define (see op_function_name)


# Names the generated code itself uses without a leading '_' (everything else it creates starts with '_'): the
# array namespace, the tangents argument, the loop variables of fused chunks, a multi-output pullback's argument,
# extents (n_<class>), and every builtin. A user name never becomes one of these, nor starts with '_'.
_BARE_INTERNAL = frozenset({"np", "math", "tangents", "NoTangent", "ZeroTangent", "Thunk", "is_zero", "acc", "k",
                            "axis", "a", "dy", "export_ops", "OPS", "RULES"}) | frozenset(dir(builtins))


def _unsafe(n):
    return n in _BARE_INTERNAL or keyword.iskeyword(n) or keyword.issoftkeyword(n)


def _user_ident(name, taken):
    """The local Python name of a user's tensor (IR name): never one of the generated code's own names, never
    starting with '_' or 'n_' (where internal names live), distinct from every name already in `taken`."""
    n = name if not name.startswith(("_", "n_")) else "u" + name
    while _unsafe(n) or n in taken:
        n += "_"
    taken.add(n)
    return n


def _internal_ident(name, taken):
    """The local Python name of an IR-made tensor (_t0, _inv_A, _z3): it keeps its leading '_'."""
    n = name
    while n in taken:
        n += "_"
    taken.add(n)
    return n


def op_function_name(rule_name: str) -> str:
    """The name an op's forward function has inside `_define` (frule, rrule, pullback append a suffix): the rule's
    name, unless it could shadow one of the generated code's own names; those go under `_op_`."""
    return "_op_" + rule_name if rule_name.startswith("_") or _unsafe(rule_name) else rule_name


def _is_internal(name):
    return name.startswith("_") and not name.startswith("__")


class OpGen:
    def __init__(self, d: Derivation):
        self.d = d
        self.keep = set()          # inverses the function at hand computes anyway (see inverse_of)
        self.p = d.program
        self.counter = Temporaries()
        self.fn = op_function_name(self.p.name)
        taken = {self.fn + sfx for sfx in ("", "_frule", "_rrule", "_pullback")} | {CHUNK_NAME}
        self.names: dict = {}
        for v in self.p.all_vars:
            self.names[v.name] = _internal_ident("_" + v.name.lstrip("_"), taken) if _is_internal(v.name) \
                else _user_ident(v.name, taken)
        self.tan_names, self.cot_names = {}, {}
        for v in self.p.all_vars + [ir.TensorVar(z, "tensor", (), "temp") for z in d.tangent_temps]:
            self.tan_names[v.name] = _internal_ident("_d" + v.name.strip("_"), taken) if _is_internal(v.name) \
                else _user_ident("d" + v.name, taken)
        for v in self.p.all_vars + [ir.TensorVar(z, "tensor", (), "temp") for z in d.tangent_temps]:
            self.cot_names[v.name] = self.tan_names[v.name]
        self.given = {v.name: _user_ident("d" + v.name + "_in", taken) for v in self.p.outputs}
        # the extent of each class, read off the first input that carries it
        self.extent_src = {}
        for v in self.p.inputs:
            for a, c in enumerate(v.classes):
                self.extent_src.setdefault(c, (self.names[v.name], a))
        self.float_inputs = [self.names[v.name] for v in self.p.inputs if v.kind != "int"]
        # unbatched matrices that primitives with a `factored` form read: each is factored once per function
        # (runtime/primitives/_factor), and forward, pullback and the inverse_of solves share the factor
        self.factorable = {}
        for st in self.p.stmts + d.aux:
            X = st.args[0] if st.prim else None
            if X and PRIMITIVES[st.prim].factored is not None and self.p.var(X).rank == 2 \
                    and X not in self.factorable:
                self.factorable[X] = _internal_ident("_F_" + self.names[X].lstrip("_"), taken)
        # every variable is written into code as a reference (emit_numpy.ref): `render` then sees each read
        for table in (self.names, self.tan_names, self.cot_names, self.given, self.factorable):
            for k, v in table.items():
                table[k] = ref(v)
        self.factors = {}          # matrix variable -> its factor variable, where the function at hand has one
        self.centre = _centring(d)
        self._extent_home = None   # (lines, index, indent, classes defined) of the function being emitted

    # -- helpers ---------------------------------------------------------------------------------------------
    def extent_var(self, cls):
        """The variable holding an extent, defined at the top of the function at hand on its first use."""
        home = self._extent_home
        if home is not None and cls not in home[3] and cls in self.extent_src:
            lines, at, indent, defined = home
            n, a = self.extent_src[cls]
            lines.insert(at + len(defined), Stmt(indent, f"n_{cls} = {n}.shape[{a}]"))
            defined.add(cls)
        elif home is not None and cls not in home[3] and self.p.shifts and cls in self.p.shifts.derived:
            # an index read only through shifted subscripts: the valid range (derive.lowering.shifts)
            lines, at, indent, defined = home
            code = shifts.extent_code(self.p, cls, self.extent_var)
            for k, line in enumerate(code):
                lines.insert(at + len(defined) + k, Stmt(indent, line))
            defined.add(cls)
            defined.update(("line", cls, k) for k in range(1, len(code)))
        return f"n_{cls}"

    def extent_code(self, idx):
        return self.extent_var(idx.ext)

    def extents(self, em: Emitter):
        """Here, where the function starts, go the extents it reads, and only those: they are inserted as
        the code reading them is emitted (an elementwise op then reads none and accepts any shape, 0-d too)."""
        self._extent_home = (em.lines, len(em.lines), em.indent, set())
        if self.p.shifts:
            # every extent shifted subscripts fix, and every shifted read's range, is checked up front
            for cls in self.p.shifts.derived:
                self.extent_var(cls)
            lines, at, indent, defined = self._extent_home
            for k, line in enumerate(shifts.check_code(self.p, self.extent_var)):
                lines.insert(at + len(defined), Stmt(indent, line))
                defined.add(("check", k))

    def emit_centre(self, em: Emitter):
        """Move translation-invariant inputs to a common origin (their mean along the shifted axis) before
        anything is computed from them: the rule's value and derivatives are unchanged, and the expanded
        |x|² + |y|² - 2x·y (and the split x·Σ K - Σ K·y of its gradient) no longer cancel catastrophically
        for coordinates far from 0. x - c is exact where x and c are within a factor 2 (Sterbenz).

        The origin sums finite entries only (the others count as 0): a NaN or inf in one row of x would otherwise
        make c NaN and every row of the result NaN, where the rule's value is NaN (or, for inf, a limit) in that
        row alone. With every entry finite it is the mean, as before."""
        for cls, group in self.centre:
            c = em.tmp("shift")
            parts, counts = [], []
            for name in group:
                v, var = self.p.var(name), self.names[name]
                pos = v.classes.index(cls)
                other = tuple(k for k in range(v.rank) if k != pos)
                finite = f"np.where(np.isfinite({var}), {var}, 0.0)"
                parts.append(f"np.sum({finite}, axis={other if len(other) > 1 else other[0]})" if other else finite)
                counts.append(" * ".join(f"{var}.shape[{k}]" for k in other) or "1")
            em.line(f"{c} = ({' + '.join(parts)}) / max(1, {' + '.join(counts)})")
            for name in group:
                v, var = self.p.var(name), self.names[name]
                trail = v.rank - 1 - v.classes.index(cls)
                em.line(f"{var} = {var} - {c}" + (f"[:{', None' * trail}]" if trail else ""))

    def emitter(self, names, indent="        ", cache=None):
        em = Emitter(names, self.extent_code, indent, self.counter, cache)
        em.dtype_src = ", ".join(self.float_inputs) or None
        em.inverse_of = self.inverse_of(self.keep)
        em.factor_of = self.factors
        if self.p.shifts:
            em.axis_classes = {v.name: v.classes for v in self.p.all_vars}
        return em

    def start_factors(self, em: Emitter):
        """A new function: its inputs' factorisations (lazy, so one no code reads costs nothing) at its top."""
        self.factors = em.factor_of = {}
        for v in self.p.inputs:
            if v.name in self.factorable:
                self.emit_factor(em, v.name)

    def emit_factor(self, em: Emitter, X):
        spd = self.p.domains.get(X) == "spd" or self.p.var(X).domain == "spd"
        F = self.factorable[X]
        em.line(f"{F} = np.prim.factor({self.names[X]}{', spd=True' if spd else ''})")
        self.factors[self.names[X]] = F

    def inverse_of(self, keep=frozenset()):
        """Variables holding an unbatched inverse, and the matrix each inverts: contractions with them
        become solves, so the inverse need never be formed. Inverses in `keep` (outputs, or values the
        function computes anyway) are used as they are: a product with a known inverse is cheaper."""
        out = {}
        for st in self.p.stmts + self.d.aux:
            if st.prim == "inv" and self.p.var(st.args[0]).rank == 2 and st.target not in keep:
                out[self.names[st.target]] = self.names[st.args[0]]
        return out

    def needed_stmts(self, targets):
        """Primal statements (in order) needed to compute `targets`."""
        need = set(targets)
        out = []
        for st in reversed(self.p.stmts + self.d.aux):
            if st.target in need:
                out.append(st)
                need |= set(st.args) if st.prim else {ir.acc_name(a) for a in ir.accesses(st.expr)}
        order = {id(s): k for k, s in enumerate(self.p.stmts + self.d.aux)}
        return sorted(out, key=lambda s: order[id(s)])

    def emit_stmt(self, em: Emitter, st):
        tgt = self.names[st.target]
        if st.prim:
            em.line(f"{tgt} = {self.prim_code(st)}")
            if st.target in self.factorable:
                self.emit_factor(em, st.target)
            return
        expr = _expand_sums(st.expr)
        ci, big = _chunk_index(expr, st.indices)
        if ci is not None:
            self.emit_chunked(em, tgt, expr, st.indices, ci, big)
            return
        em.pref = tuple(st.indices)
        code, axes = em.emit(expr)
        em.line(f"{tgt} = {em.to_axes(code, axes, st.indices)}")
        if st.target in self.factorable:
            self.emit_factor(em, st.target)

    def prim_code(self, st):
        """A primitive statement's value: its declaration's NumPy implementation (primitives/matrix); the rule
        language and NumPy agree on the layout (batch axes first, matrix axes last)."""
        F = self.factors.get(self.names[st.args[0]])
        if F is not None and PRIMITIVES[st.prim].factored is not None:
            rest = "".join(", " + self.names[a] for a in st.args[1:])
            return f"np.prim.{st.prim}.factored({F}{rest})"
        args = ", ".join(self.names[a] for a in st.args)
        return f"np.prim.{st.prim}.forward({args})"

    def emit_opaque(self, em: Emitter, ls, tvar, atom_var):
        """target = prim.jvp/vjp(saved..., arg): a linear map given as code; a zero input gives a zero result."""
        av = atom_var(ls.arg)
        saved = ", ".join(self.names[s] for s in ls.saved)
        which = f", arg={ls.argnum}" if ls.argnum else ""      # the declaration's map of that argument
        em.line(f"{tvar} = _ZERO if is_zero({av}) else np.prim.{ls.prim}.{ls.mode}({saved}, {av}{which})")

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
        cands = []
        for ls in stmts:
            if not ls.terms or any(ir.acc_name(t.atom) not in atoms for t in ls.terms):
                continue
            e = sp.Add(*[_expand_sums(IndexSum(t.coeff * t.atom, list(t.sums))) for t in ls.terms])
            options = _chunk_candidates(e, ls.indices)
            if options:
                cands.append((ls, e, options))
        if len(cands) < 2:
            return {}
        classes = [c for c in dict.fromkeys(s.ext for s, _ in cands[0][2])
                   if all(any(s.ext == c for s, _ in o) for _, _, o in cands)]
        if not classes:
            return {}
        cls = classes[0]
        local = Idx("_ci", cls)
        plan = []          # (ls, expr with local, concat axis or None, big set)
        for ls, e, options in cands:
            ci, big = next((s, b) for s, b in options if s.ext == cls)
            axis = ls.indices.index(ci) if ci in ls.indices else None
            plan.append((ls, e.xreplace({ci: local}), axis, tuple(local if x == ci else x for x in big),
                         tuple(local if x == ci else x for x in ls.indices)))
        compared = False
        for k, (ls, e, axis, big, out_idx) in enumerate(plan):
            e, c = masks.positions_as_data(e, local, "_pos")
            plan[k], compared = (ls, e, axis, big, out_idx), compared or c
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
        pb.line(f"            acc = [[] if axis is not None else None for axis in {tuple(a for _, _, a, _, _ in plan)!r}]",
                once=False)
        pb.line(f"            for {s_} in range(0, {n}, {step}):", once=False)
        pb.line(f"                {part} = {fn}_slice(min({step}, {n} - {s_}), {_slice_args(sliced, names, s_, f'{s_} + {step}')})")
        pb.line(f"                for k, axis in enumerate({tuple(a for _, _, a, _, _ in plan)!r}):", once=False)
        pb.line("                    if axis is not None:")
        pb.line(f"                        acc[k].append({part}[k])")
        pb.line("                    else:")
        pb.line(f"                        acc[k] = {part}[k] if acc[k] is None else acc[k] + {part}[k]")
        pb.line(f"            {memo}.append(tuple(np.concatenate(a, axis=axis) if axis is not None else a for a, axis in "
                f"zip(acc, {tuple(a for _, _, a, _, _ in plan)!r})))", once=False)
        pb.line(f"    return {memo}[0]")
        result = {}
        for k, (ls, _, _, _, _) in enumerate(plan):
            T = base_name(ls.target)
            g = pb.tmp(f"pb_{T}_")
            pb.line(f"def {g}():", once=False)
            pb.line(f"    return {fn}()[{k}]")
            result[T] = f"Thunk({g})"
        return result

    def emit_scatter(self, em: Emitter, t, place, rest, target):
        """A term placed at shifted positions of its target (x̄[t] = Σ_{i+k=t} w[k]·ȳ[i], the transpose of a
        shifted read): G over the target's other indices and the indices of the positions, then added in place,
        one vectorised slice per kernel tap (runtime.shifts.scatter). Where it can be solved for the cotangent's
        own position it is a gather instead (emit_gather)."""
        gathered = self.emit_gather(em, t, place, rest, target)
        if gathered is not None:
            return gathered
        # in the subscripts' own (canonical) order: a set's order would change the code from run to run
        pos = list(dict.fromkeys(s for p in target if p in place for _, s in shifts.affine_parts(place[p])[0]))
        g_axes = tuple([p for p in target if p not in place] + pos)
        sums = [s for s in t.sums if s not in pos]
        e = _expand_sums(IndexSum(rest * t.atom, sums))
        em.pref = g_axes
        code, axes = em.emit(e)
        g = em.to_axes(code, axes, g_axes)
        em.pref = tuple(target)
        spec = shifts.scatter_spec(target, place, g_axes)
        shape = "(" + "".join(f"{self.extent_code(p)}, " for p in target) + ")"
        v = em.tmp("sc")
        em.line(f"{v} = np.shift_scatter({g}, {spec!r}, {shape})")
        return v

    def emit_gather(self, em: Emitter, t, place, rest, target):
        """The scatter x̄[t] = Σ_{i+k=t} w[k]·ȳ[i] as the gather x̄[t] = Σ_k w[k]·ȳ₀[t-k+K-1], ȳ₀ the cotangent
        padded with zeros (K-1 before, as many after): the transposed convolution as a convolution, whose
        contraction reads a window in place and never builds G, the product over every (position, tap) pair (nine
        times the input for a 3×3 kernel). Taken when each placed target index t = i + Σ c·k + const has exactly
        one index i of coefficient 1 that the linear atom ȳ reads (plainly, once) and nothing else of the term
        does, with every other index k of positive coefficient and absent from ȳ, and some tap k at all; else None
        (a stride, x[2i+k], stays a scatter: the gather would read mostly padding; a shift without taps, the
        stencil's u[i+1,j], is already one slice)."""
        atom = t.atom
        if (not ir.is_access(atom) or not all(isinstance(a, Idx) for a in atom.args)
                or len(set(atom.args)) != len(atom.args)):
            return None
        rows = {}
        for p in target:
            if p not in place:
                continue
            terms, const = shifts.affine_parts(place[p])
            own = [s for c, s in terms if c == 1 and s in atom.args]
            if len(own) != 1:
                return None
            others = [(c, s) for c, s in terms if s != own[0]]
            if any(c <= 0 or s in atom.args for c, s in others):
                return None
            rows[own[0]] = (p, others, const)
        solved = set(rows)
        if len(solved) != len(place) or rest.free_symbols & solved:
            return None
        if any(s in solved for _, others, _ in rows.values() for _, s in others):
            return None
        if not any(others for _, others, _ in rows.values()):
            return None                    # no taps: the scatter is a plain shift, as cheap as it gets
        ext = self.extent_code

        def span(others):                  # Σ c·(extent - 1) over the taps: how far the taps move a position
            return " + ".join(shifts._times(c, f"({ext(s)} - 1)") for c, s in others) or "0"
        # the cotangent padded: ȳ₀[const + span + e] = ȳ[e] along each solved axis, extent(t) + span long
        pad_spec, pad_shape = [], []
        for k, a in enumerate(atom.args):
            if a in rows:
                p, others, const = rows[a]
                lo = span(others) if const == 0 else f"{const}" if not others else f"{const} + {span(others)}"
                pad_spec.append(f"((({k}, 1),), {lo})")
                pad_shape.append(f"{ext(p)} + {span(others)}" if others else ext(p))
            else:
                pad_spec.append(f"((({k}, 1),), 0)")
                pad_shape.append(ext(a))
        padded = em.tmp("pad")
        em.line(f"{padded} = np.shift_scatter({em.names[ir.acc_name(atom)]}, ({', '.join(pad_spec)},), "
                f"({''.join(s + ', ' for s in pad_shape)}))")
        # its window W[.., t, k, ..] = ȳ₀[t - Σ c·k + span]: the atom's own indices, the targets, the taps
        vaxes = [a for a in atom.args if a not in rows]
        for a in atom.args:
            if a in rows:
                p, others, _ = rows[a]
                vaxes += [p] + [s for _, s in others if s not in vaxes]
        win_spec = []
        for a in atom.args:
            if a in rows:
                p, others, _ = rows[a]
                terms = [f"({vaxes.index(p)}, 1)"] + [f"({vaxes.index(s)}, {-c})" for c, s in others]
                win_spec.append(f"(({', '.join(terms)},), {span(others)})")
            else:
                win_spec.append(f"((({vaxes.index(a)}, 1),), 0)")
        window = em.tmp("gw")
        em.line(f"{window} = np.shift_window({padded}, ({', '.join(win_spec)},), "
                f"({''.join(ext(a) + ', ' for a in vaxes)}))")
        name = f"_gather_{window}"
        em.names[name] = window
        sums = [s for s in t.sums if s not in solved]
        e = _expand_sums(IndexSum(rest * ir.access(name, vaxes), sums))
        em.pref = tuple(target)
        code, axes = em.emit(e)
        return em.to_axes(code, axes, target)

    def emit_lin(self, em: Emitter, ls, tvar, atom_var, nonzero=frozenset()):
        """target = Σ terms, one guarded block per distinct linear atom (zero tangents cost nothing);
        atoms in `nonzero` need no guard. Returns True when target is surely an array afterwards.

        A factor every term shares over the target's own indices (tanh's 1 - y²) is applied once, to the
        sum, rather than to each term."""
        common = _common_factor(ls.terms, ls.indices)
        terms = ls.terms
        if common is not None:
            terms = [type(t)(_divide(t.coeff, common), t.sums, t.atom) for t in ls.terms]
        by_atom: dict = {}
        for t in terms:
            by_atom.setdefault(ir.acc_name(t.atom), []).append(t)
        # unguarded groups first: their subexpressions are computed unconditionally and can be shared
        order = sorted(by_atom, key=lambda a: atom_var(a) not in nonzero)
        em.pref = tuple(ls.indices)
        state = "unset"            # unset -> zero (ZeroTangent assigned) / array (surely assigned)
        for atom in order:
            terms_a = by_atom[atom]
            av = atom_var(atom)
            guarded = av not in nonzero
            if guarded:
                if state == "unset":
                    em.line(f"{tvar} = _ZERO")
                    state = "zero"
                em.line(f"if not is_zero({av}):")
                sub = em.nested()
            else:
                sub = em
            sub.names = dict(em.names)
            sub.names[atom] = av
            sub.pref = tuple(ls.indices)
            parts = []
            chunked: dict = {}
            for t in terms_a:
                place, rest = shifts.affine_deltas(t.coeff, ls.indices)
                if place:
                    parts.append(self.emit_scatter(sub, t, place, rest, ls.indices))
                    continue
                e = _expand_sums(IndexSum(t.coeff * t.atom, list(t.sums)))
                ci, big = _chunk_index(e, ls.indices)
                if ci is not None:
                    # terms sliced along the same index share one pass (and their subexpressions)
                    chunked.setdefault(ci, [big, []])[1].append(e)
                    if len(big) > len(chunked[ci][0]):
                        chunked[ci][0] = big
                    continue
                code, axes = sub.emit(e)
                parts.append(sub.to_axes(code, axes, ls.indices))
            for ci, (big, es) in chunked.items():
                v = sub.tmp("p")
                self.emit_chunked(sub, v, sp.Add(*es), ls.indices, ci, big)
                parts.append(v)
            total = " + ".join(parts).replace("+ -", "- ")
            if state == "unset":
                sub.line(f"{tvar} = {total}")
                state = "array"
            else:
                sub.line(f"{tvar} = _add({tvar}, {total})")
            if guarded:
                em.lines.extend(sub.lines)
        if state == "unset":
            em.line(f"{tvar} = _ZERO")
        if common is not None:
            if state != "array":
                em.line(f"if not is_zero({tvar}):")
                sub = em.nested()
            else:
                sub = em
            sub.pref = tuple(ls.indices)
            code, axes = sub.emit(common)
            sub.line(f"{tvar} = {tvar} * {sub.align(code, axes, tuple(ls.indices))}")
            if sub is not em:
                em.lines.extend(sub.lines)
        return state == "array"

    # -- the three functions ---------------------------------------------------------------------------------
    def forward(self):
        p = self.p
        self.keep = {v.name for v in p.outputs}
        args = ", ".join(self.names[v.name] for v in p.inputs)
        em = self.emitter(self.names)
        em.indent = "        "
        self.extents(em)
        self.emit_centre(em)
        self.start_factors(em)
        for st in self.needed_stmts({v.name for v in p.outputs}):
            self.emit_stmt(em, st)
        outs = ", ".join(self.names[v.name] for v in p.outputs)
        return [f"    def {self.fn}({args}):", *em.lines, f"        return {outs}"]

    def frule(self):
        p, d = self.p, self.d
        self.keep = {v.name for v in p.outputs} | {n for ls in d.pushforward for n in lin_reads(ls)}
        args = ", ".join(self.names[v.name] for v in p.inputs)
        em = self.emitter(self.names)
        tans = ", ".join(["_"] + [self.tan_names[v.name] for v in p.inputs])
        em.line(f"{tans}, = tangents" if len(p.inputs) == 0 else f"{tans} = tangents")
        self.extents(em)
        self.emit_centre(em)
        self.start_factors(em)
        needed_by_tangents = {n for ls in d.pushforward for n in lin_reads(ls)}
        for st in self.needed_stmts({v.name for v in p.outputs} | needed_by_tangents):
            self.emit_stmt(em, st)
        names = dict(self.names)
        computed = {v.name for v in p.inputs if v.kind != "int"}
        for ls in d.pushforward:
            T = base_name(ls.target)
            tv = self.tan_names[T]
            em.names = dict(names)

            def atom_var(a):
                return self.tan_names[base_name(a)]

            if isinstance(ls, OpaqueLin):
                if base_name(ls.arg) in computed:
                    self.emit_opaque(em, ls, tv, atom_var)
                    computed.add(T)
                continue
            live = [t for t in ls.terms if base_name(ir.acc_name(t.atom)) in computed]
            ls2 = type(ls)(ls.target, ls.indices, live)
            self.emit_lin(em, ls2, tv, atom_var)
            computed.add(T)
        for v in p.outputs:
            if v.name not in computed:
                em.line(f"{self.tan_names[v.name]} = _ZERO")
        outs = [self.names[v.name] for v in p.outputs]
        douts = [self.tan_names[v.name] for v in p.outputs]
        if len(outs) == 1:
            ret = f"{outs[0]}, {douts[0]}"
        else:
            ret = f"({', '.join(outs)}), ({', '.join(douts)})"
        return [f"    def {self.fn}_frule(tangents, {args}):", *em.lines, f"        return {ret}"]

    def rrule(self):
        p, d = self.p, self.d
        aux = {st.target for st in d.aux}
        self.keep = {v.name for v in p.outputs} | {n for ls in d.pullback for n in lin_reads(ls) if n not in aux}
        args = ", ".join(self.names[v.name] for v in p.inputs)
        em = self.emitter(self.names)
        self.extents(em)
        self.emit_centre(em)
        self.start_factors(em)
        aux_names = {st.target for st in d.aux}
        needed = {v.name for v in p.outputs}
        for ls in d.pullback:
            needed |= lin_reads(ls)
        primal_needed = {n for n in needed if n not in aux_names}
        for st in self.needed_stmts(primal_needed):
            if st.target not in aux_names:
                self.emit_stmt(em, st)
        # the pullback closure
        # the pullback closure sees the forward pass's values: shared subexpressions are not recomputed
        pb = self.emitter(self.names, indent="            ", cache=em.cache)
        outs = [v for v in p.outputs]
        if len(outs) == 1:
            arg = self.cot_arg(outs[0].name)
            head = Stmt.of(f"        def {self.fn}_pullback({arg}):", once=False)
            zero_check = f"is_zero({arg})"
        else:
            arg = "dy"
            head = Stmt.of(f"        def {self.fn}_pullback(dy):", once=False)
            pb.line(f"{', '.join(self.cot_arg(v.name) for v in outs)}, = dy")
            zero_check = " and ".join(f"is_zero({self.cot_arg(v.name)})" for v in outs)
        zeros = ", ".join(["_NO"] + ["_NO" if v.kind == "int" else "_ZERO" for v in p.inputs])
        pb.line(f"if {zero_check}:")
        pb.line(f"    return ({zeros},)" if not p.inputs else f"    return ({zeros})")
        for st in d.aux:
            if st.target in needed:
                pb.line(f"{self.names[st.target]} = {self.prim_code(st)}")
        inputs = {v.name for v in p.inputs}
        diff_inputs = [v for v in p.inputs if v.kind != "int"]
        lazy = len(diff_inputs) > 1
        # a single output's cotangent is an array past the early return; so is what it surely feeds
        nonzero = {self.cot_arg(outs[0].name)} if len(outs) == 1 else set()
        if lazy and len(outs) == 1:
            # subexpressions several inputs' cotangents share are computed once, before the thunks
            ybar = self.cot_arg(outs[0].name)
            pb.names = dict(pb.names)
            pb.names[COT + outs[0].name] = ybar
            for e, ls in _shared_groups([ls for ls in d.pullback if base_name(ls.target) in inputs],
                                        {COT + outs[0].name}):
                pb.pref = tuple(ls.indices)
                pb.emit(e)
        results = {}
        if lazy and len(outs) == 1:
            results.update(self.emit_fused_chunks(pb, [ls for ls in d.pullback if base_name(ls.target) in inputs],
                                                  {COT + outs[0].name: self.cot_arg(outs[0].name)}))
        for ls in d.pullback:
            T = base_name(ls.target)
            tv = self.tan_names[T]
            if T in results:
                continue
            if isinstance(ls, OpaqueLin):
                self.emit_opaque(pb, ls, tv, self.cot_atom_var)
                results[T] = tv
                continue
            if not ls.terms:
                results[T] = "_ZERO"
                continue
            if T in inputs and lazy:
                fn = pb.tmp(f"pb_{T}_")
                sub = pb.nested()
                self.emit_lin(sub, ls, tv, self.cot_atom_var, nonzero)
                pb.line(f"def {fn}():", once=False)
                pb.lines.extend(sub.lines)
                pb.line(f"    return {tv}")
                results[T] = f"Thunk({fn})"
            else:
                if self.emit_lin(pb, ls, tv, self.cot_atom_var, nonzero):
                    nonzero.add(tv)
                results[T] = tv
        ret = ["_NO"] + ["_NO" if v.kind == "int" else results.get(v.name, "_ZERO")
                                 for v in p.inputs]
        pb.line(f"return ({', '.join(ret)}{',' if len(ret) == 1 else ''})")
        y = ", ".join(self.names[v.name] for v in outs)
        y = y if len(outs) == 1 else f"({y})"
        return [f"    def {self.fn}_rrule({args}):", *em.lines, head, *pb.lines,
                f"        return {y}, {self.fn}_pullback"]

    def cot_arg(self, out_name):
        return self.given[out_name] if self._read_later(out_name) else self.cot_names[out_name]

    def _read_later(self, name):
        return any(ir.acc_name(t.atom) == GIVEN + name for ls in self.d.pullback for t in ls.terms)

    def cot_atom_var(self, atom):
        if atom.startswith(GIVEN):
            return self.given[base_name(atom)]
        return self.cot_names[base_name(atom)]

    def meta(self):
        """The OPS entry. It speaks to users (runtime error messages), so names are as the user wrote them."""
        p = self.p
        u = user_name

        def inp(v):
            m = {"name": u(v.name), "kind": v.kind}
            if v.kind == "tensor":
                m["indices"] = [u(i) for i in v.indices]
            return m

        return {
            "signature": p.signature,
            "inputs": [inp(v) for v in p.inputs],
            "outputs": [{"name": u(v.name), "indices": [u(i) for i in v.indices]} for v in p.outputs],
            "equal_extents": [[u(i) for i in x] for x in p.equal_extents],
            "domains": {u(k): v for k, v in p.domains.items()},
            **({"elementwise": True} if _is_elementwise(p) else {}),
            **({"extents": {u(k): v for k, v in p.extents.items()}} if p.extents else {}),
            **({"shifted": shifts.meta(p)} if p.shifts else {}),
            "source": p.source,
            **({"doc": p.doc} if p.doc else {}),   # the comment lines right above the rule
        }

    def generate(self) -> OpCode:
        p, d = self.p, self.d
        bodies = (self.forward(), self.frule(), self.rrule())
        # unread auxiliary values are left out: inverses the pullback turned into solves, factorisations no
        # code reads, temporaries the derivative made redundant
        droppable = [self.names[st.target] for st in d.aux] + [self.names[v.name] for v in p.temps] + \
            list(self.factorable.values())
        # what render may fold into the statement reading it: the emitters' temporaries, and the variables
        # (and tangents) the IR made; a variable the user named stays a named step
        internal = [v.name for v in p.all_vars if _is_internal(v.name)] + list(d.tangent_temps)
        foldable = self.counter.made | {name_of(self.names.get(n) or self.tan_names[n]) for n in internal} | \
            {name_of(self.tan_names[n]) for n in internal}
        droppable = [name_of(n) for n in droppable]
        fns = "\n".join(render(f, foldable, droppable) + "\n" for f in bodies)
        n = self.p.name
        sfx = ("", "_frule", "_rrule")
        return OpCode(n, fns, [n + x for x in sfx], self.meta(), {n + x: self.fn + x for x in sfx})


def _is_elementwise(p):
    """Every statement maps element to element over one index list: the op works for any shape."""
    idx = None
    if p.shifts:
        return False
    for st in p.stmts:
        if st.prim or st.expr.has(IndexSum) or st.expr.has(sp.KroneckerDelta) or st.expr.has(Extent):
            return False
        names = tuple(s.name for s in st.indices)
        idx = names if idx is None else idx
        if names != idx or len(names) != 1:
            return False
        for a in ir.accesses(st.expr):
            if a.args and tuple(a.args) != tuple(st.indices):
                return False
    # every tensor input is read over the output's own index (one unused, or over another index, would be
    # refused for a shape it may have), and no extent is fixed in the signature
    outs = {v.classes for v in p.outputs}
    return idx is not None and len(outs) == 1 and not p.extents and \
        all(v.kind != "tensor" or v.rank == 0 or v.classes in outs for v in p.inputs)


def _shared_groups(stmts, allowed_atoms):
    """Elementwise factor groups (as emit_product forms them) that occur in two or more statements."""
    from derive.emission.numpy_print import canonical_key

    seen: dict = {}
    for k, ls in enumerate(stmts):
        for t in ls.terms:
            if not t.sums:
                continue
            body = t.coeff * t.atom
            groups: dict = {}
            for f in _factors(body):
                if f.is_number:
                    continue
                groups.setdefault(frozenset(ir.free_indices(f, f.atoms(Idx))), []).append(f)
            for g in groups.values():
                if len(g) < 2:
                    continue
                names = {ir.acc_name(a) for f in g for a in ir.accesses(f)}
                linear = {n for n in names if n.startswith((TAN, COT, GIVEN))}
                if not linear <= allowed_atoms:
                    continue
                e = sp.Mul(*g, evaluate=False)
                key, _ = canonical_key(e)
                seen.setdefault(key, [e, ls, set()])[2].add(k)
    return [(e, ls) for e, ls, owners in seen.values() if len(owners) > 1]


def _common_factor(terms, indices):
    """A non-constant factor shared by every term, over the target's indices only (not summed)."""
    if len(terms) < 2:
        return None
    idx = set(indices)
    shared = None
    for t in terms:
        fs = [f for f in _factors(t.coeff) if not f.is_number]
        keys = {f for f in fs if f.atoms(Idx) and set(ir.free_indices(f, f.atoms(Idx))) <= idx
                and not (set(f.atoms(Idx)) & set(t.sums)) and not ir.is_access(f)}
        shared = keys if shared is None else shared & keys
        if not shared:
            return None
    return sp.Mul(*sorted(shared, key=str))


def _divide(c, f):
    fs = _factors(f)
    rest = list(_factors(c))
    for x in fs:
        rest.remove(x)
    return sp.Mul(*rest)


def _intermediates(e):
    """Index sets of the intermediates the emitter would build for e (functions, sums, powers)."""
    found: list = []

    def walk(x):
        if isinstance(x, IndexSum):
            inner = walk(x.body)
            return tuple(s for s in inner if s not in x.indices)
        if ir.is_access(x):
            return tuple(dict.fromkeys(x.args))
        if not x.args:
            return ()
        ax = _union([walk(a) for a in x.args])
        if isinstance(x, (sp.Function, sp.Add, sp.Pow)):
            found.append(ax)
        return ax

    top = walk(e)
    return found, top


def _centring(d: Derivation):
    """[(extent class, inputs)]: groups of inputs, each with one axis of that class, such that adding one
    vector c along that axis to all of them leaves every output unchanged (distances, differences), and
    whose generated code multiplies them out (_exposed). Centring them costs O(size of the inputs)."""
    p = d.program
    out = []
    if p.shifts:
        return out          # a shifted read (x[i+1] - x[i]) neither expands nor can be centred along its axis
    for cls in dict.fromkeys(c for v in p.inputs for c in v.classes):
        cands = [v.name for v in p.inputs if v.kind == "tensor" and v.classes.count(cls) == 1]
        if not cands or len(cands) > 4:
            continue
        for k in range(len(cands), 0, -1):
            group = next((g for g in itertools.combinations(cands, k) if _shift_invariant(p, cls, g)), None)
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


def _shift_invariant(prog, cls, group):
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
        if new != st.expr and (_expanded_terms(new) > _EXPAND_LIMIT or sp.expand(new - st.expr) != 0):
            tainted.add(st.target)
    return not any(v.name in tainted for v in prog.outputs)


_EXPAND_LIMIT = 4096


def _expanded_terms(e, cap=_EXPAND_LIMIT):
    """An upper estimate (capped just above `cap`) of how many terms sp.expand(e) builds at any level."""
    if not e.args:
        return 1
    if isinstance(e, sp.Add):
        return min(sum(_expanded_terms(a, cap) for a in e.args), cap + 1)
    if isinstance(e, sp.Mul):
        n = 1
        for a in e.args:
            n = min(n * _expanded_terms(a, cap), cap + 1)
        return n
    if isinstance(e, sp.Pow) and e.exp.is_Integer and e.exp > 1:
        b = _expanded_terms(e.base, cap)
        return 1 if b == 1 else min(b ** min(int(e.exp), 64), cap + 1)
    return max(_expanded_terms(a, cap) for a in e.args)   # a function, a sum: expanded inside, one term outside


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


def _exposed_anywhere(d, cls, group):
    p = d.program
    exprs = [_expand_sums(st.expr) for st in p.stmts if not st.prim]
    exprs += [_expand_sums(IndexSum(t.coeff * t.atom, list(t.sums))) for ls in d.pushforward + d.pullback
              for t in ls.terms]
    return any(_exposed(e, p, cls, group) for e in exprs)


def _needs_expansion(body):
    """True when a factor of the summand that is a sum (or a power of one) spans indices no single array of
    the summand carries: (x[i,d] - y[j,d])² would be a new N×M×D intermediate. Otherwise the factored form
    costs no more than the expansion and is better conditioned: (X[n,i] - μ[i])·S⁻¹[i,j]·(X[n,j] - μ[j])
    multiplied out cancels catastrophically for |μ| far above the spread of X."""
    arrays = [set(a.args) for a in ir.accesses(body)]
    for f in _factors(body):
        base = f.base if isinstance(f, sp.Pow) and f.exp.is_Integer and f.exp > 1 else f
        if isinstance(base, sp.Add):
            idx = set(ir.free_indices(base, base.atoms(Idx)))
            if not any(idx <= a for a in arrays if a is not None):
                return True
    return False


def _expand_sums(e):
    """Σ_d (x[i,d] - y[j,d])² -> Σ_d x[i,d]² + Σ_d y[j,d]² - 2·Σ_d x[i,d]·y[j,d] when every piece has fewer
    indices than the summand: no N×M×D intermediate, and the cross term is a matrix product. Only where the
    factored form would be such an intermediate (_needs_expansion); the cancellation this invites far from
    the origin is the reason OpGen centres translation-invariant inputs first (_translation_groups)."""
    if isinstance(e, IndexSum):
        body = _expand_sums(e.body)
        ks = list(e.indices)
        if not body.has(sp.Function) or not any(isinstance(x, sp.Function) and not ir.is_access(x)
                                                 for x in sp.preorder_traversal(body)):
            ex = sp.expand(body, deep=False, power_exp=False, power_base=False, log=False)
            idx = set(ir.free_indices(body, body.atoms(Idx)))
            def cheap(p):      # fewer indices than the summand, or a plain product a contraction evaluates
                if len(set(ir.free_indices(p, p.atoms(Idx)))) < len(idx):
                    return True
                return all(f.is_number or ir.is_access(f) for f in _factors(p))

            if _needs_expansion(body) and isinstance(ex, sp.Add) and all(cheap(p) for p in ex.args):
                out = []
                for p in ex.args:
                    pf = set(ir.free_indices(p, p.atoms(Idx)))
                    term = IndexSum(p, [k for k in ks if k in pf])
                    for k in ks:
                        if k not in pf:
                            term = term * Extent(k)
                    out.append(term)
                return sp.Add(*out)
        return IndexSum(body, ks)
    if not e.args or ir.is_access(e) or not e.has(IndexSum):
        return e
    return e.func(*[_expand_sums(a) for a in e.args])


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


def _chunk_candidates(e, out_indices):
    """Every (index, big intermediate) e could be sliced along: its own indices first, then summed ones."""
    ci, big = _chunk_index(e, out_indices)
    if ci is None:
        return []
    top = set(e.indices) if isinstance(e, IndexSum) else set()
    if isinstance(e, sp.Add):
        tops = [set(a.indices) if isinstance(a, IndexSum) else set() for a in e.args]
        top = set.intersection(*tops) if tops else set()
    return [(s, big) for s in list(out_indices) + sorted(top, key=str) if s in big]


def _chunk_index(e, out_indices):
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
    top = set(e.indices) if isinstance(e, IndexSum) else set()
    if isinstance(e, sp.Add):
        tops = [set(a.indices) if isinstance(a, IndexSum) else set() for a in e.args]
        top = set.intersection(*tops) if tops else set()
    for s in big:
        if s in top:
            return s, big
    return None, ()


def generate_op(d: Derivation) -> OpCode:
    return OpGen(d).generate()


def ops_literal(metas: dict) -> str:
    return pprint.pformat(metas, width=110, sort_dicts=False)
