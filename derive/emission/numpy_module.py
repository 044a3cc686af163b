"""NumPy code generation: a Derivation becomes the forward function, frule and rrule of one op.

The mathematics is finished before this module runs; here we only choose evaluation order (what the
forward pass must keep for the pullback, what is computed lazily), name the variables and centre translation-
invariant inputs, and print through numpy_print (sliced passes: numpy_chunks; shifted placements: numpy_shifted).
The module layout itself lives in templates/numpy_module.py.j2.
"""
from __future__ import annotations

import builtins
import keyword
import pprint
from dataclasses import dataclass

import sympy as sp

from derive.calculus.differential import (COT, GIVEN, TAN, Derivation, OpaqueLin, base_name, factors, lin_atoms,
                                          lin_reads)
from derive.calculus.logsumexp import inline_log_sum_exp
from derive.emission import centring
from derive.emission.numpy_chunks import Chunker, chunk_index, expand_sums
from derive.emission.numpy_contract import is_sum_of_exp, stable_softmax
from derive.emission.numpy_print import CHUNK_NAME, Emitter, Stmt, Temporaries, canonical_key, name_of, ref, render
from derive.emission.numpy_shifted import emit_scatter
from derive.ir import nodes as ir
from derive.ir.names import user_name
from derive.ir.nodes import Idx, IndexSum
from derive.lowering import shifts
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


@dataclass
class OpNames:
    """The Python names of one op's variables in its generated functions: each table maps an IR name to a
    reference (numpy_print.ref); extent_src and float_inputs hold plain names."""

    fn: str                 # the forward function's name (frule, rrule, pullback append a suffix)
    names: dict             # primal values
    tan_names: dict         # tangents
    cot_names: dict         # cotangents (the tangents' names: a function holds one or the other)
    given: dict             # an output's cotangent as passed in, where the pullback also reads it as data
    factorable: dict        # matrix -> its factorisation's variable
    extent_src: dict        # extent class -> (input name, axis) it is read off
    float_inputs: list


def _op_names(d: Derivation) -> OpNames:
    p = d.program
    fn = op_function_name(p.name)
    taken = {fn + sfx for sfx in ("", "_frule", "_rrule", "_pullback")} | {CHUNK_NAME}
    names: dict = {}
    for v in p.all_vars:
        names[v.name] = _internal_ident("_" + v.name.lstrip("_"), taken) if _is_internal(v.name) \
            else _user_ident(v.name, taken)
    tan_names, cot_names = {}, {}
    for v in p.all_vars + [ir.TensorVar(z, "tensor", (), "temp") for z in d.tangent_temps]:
        tan_names[v.name] = _internal_ident("_d" + v.name.strip("_"), taken) if _is_internal(v.name) \
            else _user_ident("d" + v.name, taken)
    for v in p.all_vars + [ir.TensorVar(z, "tensor", (), "temp") for z in d.tangent_temps]:
        cot_names[v.name] = tan_names[v.name]
    given = {v.name: _user_ident("d" + v.name + "_in", taken) for v in p.outputs}
    # the extent of each class, read off the first input that carries it
    extent_src = {}
    for v in p.inputs:
        for a, c in enumerate(v.classes):
            extent_src.setdefault(c, (names[v.name], a))
    float_inputs = [names[v.name] for v in p.inputs if v.kind != "int"]
    # unbatched matrices that primitives with a `factored` form read: each is factored once per function
    # (primitives/factor.py), and forward, pullback and the inverse_of solves share the factor
    factorable = {}
    for st in p.stmts + d.aux:
        X = st.args[0] if st.prim else None
        if X and PRIMITIVES[st.prim].factored is not None and p.var(X).rank == 2 \
                and X not in factorable:
            factorable[X] = _internal_ident("_F_" + names[X].lstrip("_"), taken)
    # every variable is written into code as a reference (emit_numpy.ref): `render` then sees each read
    for table in (names, tan_names, cot_names, given, factorable):
        for k, v in table.items():
            table[k] = ref(v)
    return OpNames(fn, names, tan_names, cot_names, given, factorable, extent_src, float_inputs)


class OpGen:
    def __init__(self, d: Derivation):
        self.d = d = inline_log_sum_exp(d)      # lse - z as (z - max) - log Σ exp(z - max) (calculus.logsumexp)
        self.keep = set()          # inverses the function at hand computes anyway (see inverse_of)
        self.p = d.program
        self.counter = Temporaries()
        self.chunker = Chunker(self.extent_var, self.counter)
        nm = _op_names(d)
        self.fn, self.names, self.tan_names, self.cot_names = nm.fn, nm.names, nm.tan_names, nm.cot_names
        self.given, self.factorable = nm.given, nm.factorable
        self.extent_src, self.float_inputs = nm.extent_src, nm.float_inputs
        self.factors = {}          # matrix variable -> its factor variable, where the function at hand has one
        self.centre = centring.groups(d)
        self.read_given = self.chunker.given = centring.reading_given(self.p, self.centre) if self.centre else None
        for _, group in self.centre:           # each centred input also as passed (_emit_centre's alias)
            for name in group:
                self.names[centring.given_name(name)] = f"_given_{self.names[name]}"
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

    def emitter(self, names, indent="        ", cache=None):
        em = Emitter(names, self.extent_code, indent, self.counter, cache)
        em.dtype_src = ", ".join(self.float_inputs) or None
        em.inverse_of = self.inverse_of(self.keep)
        em.factor_of = self.factors
        if self.p.shifts:
            em.axis_classes = {v.name: v.classes for v in self.p.all_vars}
        return em

    def begin(self, em: Emitter):
        """A function's top: the extents it reads, its inputs centred, their factorisations."""
        self.extents(em)
        _emit_centre(em, self.centre, self.p, self.names)
        self.start_factors(em)

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
        expr = expand_sums(st.expr, self.read_given)
        ci, big = chunk_index(expr, st.indices)
        if ci is not None:
            self.chunker.emit_chunked(em, tgt, expr, st.indices, ci, big)
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
            total = " + ".join(self.lin_parts(sub, terms_a, ls.indices)).replace("+ -", "- ")
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
            self._times_common(em, tvar, common, ls.indices, surely_array=state == "array")
        return state == "array"

    def lin_parts(self, sub: Emitter, terms, indices):
        """The codes of terms summed into a target over `indices`: placed at shifted positions (a scatter or a
        gather), sliced (terms sliced along the same index share one pass), or whole."""
        parts = []
        chunked: dict = {}
        for t in terms:
            place, rest = shifts.affine_deltas(t.coeff, indices)
            if place:
                parts.append(emit_scatter(sub, t, place, rest, indices, self.extent_code))
                continue
            e = expand_sums(IndexSum(t.coeff * t.atom, list(t.sums)), self.read_given)
            ci, big = chunk_index(e, indices)
            if ci is not None:
                # terms sliced along the same index share one pass (and their subexpressions)
                chunked.setdefault(ci, [big, []])[1].append(e)
                if len(big) > len(chunked[ci][0]):
                    chunked[ci][0] = big
                continue
            code, axes = sub.emit(e)
            parts.append(sub.to_axes(code, axes, indices))
        for ci, (big, es) in chunked.items():
            v = sub.tmp("p")
            self.chunker.emit_chunked(sub, v, sp.Add(*es), indices, ci, big)
            parts.append(v)
        return parts

    @staticmethod
    def _times_common(em: Emitter, tvar, common, indices, surely_array):
        """tvar times the factor every term shared (applied once, to the sum; a zero tangent stays zero)."""
        if not surely_array:
            em.line(f"if not is_zero({tvar}):")
            sub = em.nested()
        else:
            sub = em
        sub.pref = tuple(indices)
        code, axes = sub.emit(common)
        sub.line(f"{tvar} = {tvar} * {sub.align(code, axes, tuple(indices))}")
        if sub is not em:
            em.lines.extend(sub.lines)

    # -- the three functions ---------------------------------------------------------------------------------
    def forward(self):
        p = self.p
        self.keep = {v.name for v in p.outputs}
        args = ", ".join(self.names[v.name] for v in p.inputs)
        em = self.emitter(self.names)
        em.indent = "        "
        self.begin(em)
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
        self.begin(em)
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
        self.begin(em)
        aux_names = {st.target for st in d.aux}
        needed = {v.name for v in p.outputs}
        for ls in d.pullback:
            needed |= lin_reads(ls)
        primal_needed = {n for n in needed if n not in aux_names}
        for st in self.needed_stmts(primal_needed):
            if st.target not in aux_names:
                self.emit_stmt(em, st)
        # the pullback closure sees the forward pass's values: shared subexpressions are not recomputed
        pb = self.emitter(self.names, indent="            ", cache=em.cache)
        outs = [v for v in p.outputs]
        head = self._pullback_head(pb, outs, needed)
        results = self._pullback_results(pb, outs)
        ret = ["_NO"] + ["_NO" if v.kind == "int" else results.get(v.name, "_ZERO")
                                 for v in p.inputs]
        pb.line(f"return ({', '.join(ret)}{',' if len(ret) == 1 else ''})")
        y = ", ".join(self.names[v.name] for v in outs)
        y = y if len(outs) == 1 else f"({y})"
        return [f"    def {self.fn}_rrule({args}):", *em.lines, head, *pb.lines,
                f"        return {y}, {self.fn}_pullback"]

    def _pullback_head(self, pb: Emitter, outs, needed):
        """The pullback's `def` line (returned) and its first lines: the cotangents unpacked, an early return
        when all are zero, the auxiliary values it reads."""
        p, d = self.p, self.d
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
        return head

    def _pullback_results(self, pb: Emitter, outs):
        """{input: its cotangent's code}: with several differentiable inputs each is a Thunk, computed when used
        (their shared subexpressions once, before them, and sliced cotangents in one fused pass)."""
        p, d = self.p, self.d
        inputs = {v.name for v in p.inputs}
        diff_inputs = [v for v in p.inputs if v.kind != "int"]
        lazy = len(diff_inputs) > 1
        private = _private_temps(d, inputs) if lazy else {}
        # a single output's cotangent is an array past the early return; so is what it surely feeds
        nonzero = {self.cot_arg(outs[0].name)} if len(outs) == 1 else set()
        if lazy and len(outs) == 1:
            # subexpressions several inputs' cotangents share are computed once, before the thunks
            ybar = self.cot_arg(outs[0].name)
            pb.names = dict(pb.names)
            pb.names[COT + outs[0].name] = ybar
            for e, ls in _shared_groups([ls for ls in d.pullback if base_name(ls.target) in inputs.union(private)],
                                        {COT + outs[0].name}):
                pb.pref = tuple(ls.indices)
                pb.emit(e)
        results = {}
        if lazy and len(outs) == 1:
            results.update(self.chunker.emit_fused_chunks(
                pb, [ls for ls in d.pullback if base_name(ls.target) in inputs],
                {COT + outs[0].name: self.cot_arg(outs[0].name)}))
        for ls in d.pullback:
            T = base_name(ls.target)
            tv = self.tan_names[T]
            if T in results or T in private:
                continue
            if isinstance(ls, OpaqueLin):
                self.emit_opaque(pb, ls, tv, self.cot_atom_var)
                results[T] = tv
                continue
            if not ls.terms:
                results[T] = "_ZERO"
                continue
            if T in inputs and lazy:
                own = [k for k in d.pullback if private.get(base_name(k.target)) == T]
                results[T] = _thunk(self, pb, own + [ls], nonzero)
            else:
                if self.emit_lin(pb, ls, tv, self.cot_atom_var, nonzero):
                    nonzero.add(tv)
                results[T] = tv
        return results

    def cot_arg(self, out_name):
        return self.given[out_name] if self._read_later(out_name) else self.cot_names[out_name]

    def _read_later(self, name):
        return any(ir.acc_name(t.atom) == GIVEN + name for ls in self.d.pullback for t in ls.terms)

    def cot_atom_var(self, atom):
        if atom.startswith(GIVEN):
            return self.given[base_name(atom)]
        return self.cot_names[base_name(atom)]

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
        return OpCode(n, fns, [n + x for x in sfx], op_meta(self.p), {n + x: self.fn + x for x in sfx})


def op_meta(p):
    """The OPS entry. It speaks to users (runtime error messages), so names are as the user wrote them."""
    u = user_name

    def inp(v):
        m = {"name": u(v.name), "kind": v.kind}
        if v.kind == "tensor":
            m["indices"] = [u(i) for i in v.indices]
        if v.domain:        # declared in the header (`domains` also holds the inferred ones)
            m["domain"] = v.domain
        return m

    return {
        "signature": p.signature,
        "inputs": [inp(v) for v in p.inputs],
        "outputs": [{"name": u(v.name), "indices": [u(i) for i in v.indices]} for v in p.outputs],
        "equal_extents": [[u(i) for i in x] for x in p.equal_extents],
        "domains": {u(k): v for k, v in p.domains.items()},
        **({"elementwise": True} if p.elementwise else {}),
        **({"extents": {u(k): v for k, v in p.extents.items()}} if p.extents else {}),
        **({"shifted": shifts.meta(p)} if p.shifts else {}),
        "source": p.source,
        **({"doc": p.doc} if p.doc else {}),   # the comment lines right above the rule
    }


def _thunk(gen: OpGen, pb: Emitter, stmts, nonzero) -> str:
    """`Thunk(fn)` of a function emitted into pb that computes stmts in order and returns the last one's target
    (an input's cotangent, after the temporaries only it reads)."""
    fn, sub, inner = pb.tmp(f"pb_{base_name(stmts[-1].target)}_"), pb.nested(), set(nonzero)
    for ls in stmts:
        tv = gen.tan_names[base_name(ls.target)]
        if gen.emit_lin(sub, ls, tv, gen.cot_atom_var, inner):
            inner.add(tv)
    pb.line(f"def {fn}():", once=False)
    pb.lines.extend(sub.lines)
    pb.line(f"    return {tv}")
    return f"Thunk({fn})"


def _private_temps(d: Derivation, inputs) -> dict:
    """{cotangent temporary: the input whose cotangent alone reads it}: a symmetric input's unprojected
    cotangent G, which its statement sym(G) reads, is computed inside that input's Thunk, so a pullback whose
    caller reads only another input's cotangent never computes it."""
    temps = set(d.tangent_temps)
    out = {}
    for ls in d.pullback:
        T = base_name(ls.target)
        if T not in temps or isinstance(ls, OpaqueLin):
            continue
        readers = [r for r in d.pullback if r is not ls and ls.target in lin_atoms(r)]
        if len(readers) == 1 and base_name(readers[0].target) in inputs:
            out[T] = base_name(readers[0].target)
    return out


def _shared_groups(stmts, allowed_atoms):
    """Elementwise factor groups (as emit_product forms them) that occur in two or more statements."""
    seen: dict = {}
    for k, ls in enumerate(stmts):
        for t in ls.terms:
            if not t.sums:
                continue
            body = t.coeff * t.atom
            groups: dict = {}
            for f in stable_softmax(list(factors(body))):     # as emit_product groups them
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
        # a reciprocal of Σ exp stays with the exp it divides: emit_product shifts the pair by the maximum
        fs = [f for f in factors(t.coeff) if not f.is_number
              and not (isinstance(f, sp.Pow) and f.exp == -1 and is_sum_of_exp(f.base))]
        keys = {f for f in fs if f.atoms(Idx) and set(ir.free_indices(f, f.atoms(Idx))) <= idx
                and not (set(f.atoms(Idx)) & set(t.sums)) and not ir.is_access(f)}
        shared = keys if shared is None else shared & keys
        if not shared:
            return None
    return sp.Mul(*sorted(shared, key=str))


def _divide(c, f):
    fs = factors(f)
    rest = list(factors(c))
    for x in fs:
        rest.remove(x)
    return sp.Mul(*rest)


def _emit_centre(em: Emitter, groups, p, names):
    """Move translation-invariant inputs to a common origin (their mean along the shifted axis) before
    anything is computed from them: the rule's value and derivatives are unchanged, and the expanded
    |x|² + |y|² - 2x·y (and the split x·Σ K - Σ K·y of its gradient) no longer cancel catastrophically
    for coordinates far from 0. x - c is exact where x and c are within a factor 2 (Sterbenz).

    The origin sums finite entries only (the others count as 0): a NaN or inf in one row of x would otherwise
    make c NaN and every row of the result NaN, where the rule's value is NaN (or, for inf, a limit) in that
    row alone. With every entry finite it is the mean, as before."""
    for cls, group in groups:
        c = em.tmp("shift")
        parts, counts = [], []
        for name in group:
            v, var = p.var(name), names[name]
            pos = v.classes.index(cls)
            other = tuple(k for k in range(v.rank) if k != pos)
            finite = f"np.where(np.isfinite({var}), {var}, 0.0)"
            parts.append(f"np.sum({finite}, axis={other if len(other) > 1 else other[0]})" if other else finite)
            counts.append(" * ".join(f"{var}.shape[{k}]" for k in other) or "1")
        em.line(f"{c} = ({' + '.join(parts)}) / max(1, {' + '.join(counts)})")
        for name in group:
            v, var = p.var(name), names[name]
            em.line(f"{names[centring.given_name(name)]} = {var}")
            trail = v.rank - 1 - v.classes.index(cls)
            em.line(f"{var} = {var} - {c}" + (f"[:{', None' * trail}]" if trail else ""))


def generate_op(d: Derivation) -> OpCode:
    return OpGen(d).generate()


def ops_literal(metas: dict) -> str:
    return pprint.pformat(metas, width=110, sort_dicts=False)
