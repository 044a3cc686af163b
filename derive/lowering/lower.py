"""Lowering: syntax tree -> Program (IR), with every semantic check of the language.

Owns program assembly: the header's declarations, each statement's left side and its checks, inference of
inputs/outputs for bare statements, and the finished Program. Expressions are derive.lowering.expressions', calls
derive.lowering.calls', extent classes derive.lowering.extents'.
"""
from __future__ import annotations

import keyword
import re

import sympy as sp

from derive.ir import nodes as ir
from derive.ir.masks import is_condition
from derive.ir.names import apart_from_internal, user_name, user_text
from derive.ir.nodes import Idx, Program, Stmt
from derive.language import ast as A
from derive.language import domains
from derive.language.errors import RuleError, did_you_mean
from derive.lowering import extents, reductions, shifts
from derive.lowering.expressions import ExpressionLowerer
from derive.lowering.text import call_node, index_names, index_node, names_inf, text_order, whole_tensor_call

# module-level names of a generated module that its rules' exports must not replace (everything else it uses
# is bound inside _define, and codegen keeps user names apart from it)
_MODULE_NAMES = {"OPS", "_define", "export_ops", "_CHUNK_ELEMENTS"}  # + emit_numpy.CHUNK_NAME
_RULE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class Lowerer(ExpressionLowerer):
    # -- entry point ---------------------------------------------------------------------------------------
    def lower(self) -> Program:
        r = self.rule
        # checked for a bare statement list too: its name (define(name=...), -e) becomes a Python name
        if not _RULE_NAME.fullmatch(r.name) or keyword.iskeyword(r.name):
            raise self.err(f"{r.name!r} is not a valid rule name (ASCII letters, digits and '_', not a Python "
                           f"keyword)", r.pos, len(r.name) if r.header else 1)
        if r.name in _MODULE_NAMES:
            raise self.err(f"'{r.name}' cannot name a rule (the generated module uses it)", r.pos, len(r.name))
        if r.header:
            seen = set()
            for p in list(r.inputs) + list(r.outputs):
                if p.name in seen:
                    raise self.err(f"'{p.name}' is declared twice in the header", p)
                seen.add(p.name)
                self.declare(p, "input" if p in r.inputs else "output")
        for st in r.statements:
            self.stmt_no += 1
            self.statement(st)
        if r.header:
            for p in r.outputs:
                if not self.tensors[p.name].assigned:
                    raise self.err(f"output '{p.name}' is never assigned", p)
        return self.finish()

    # -- the header ----------------------------------------------------------------------------------------
    def declare(self, p: A.Param, role):
        if p.kind == "tensor" and p.indices is not None:
            letters = []
            for k, ix in enumerate(p.indices):
                if ix.name in letters:
                    raise self.err(f"index '{ix.name}' appears twice in the declaration of '{p.name}'", ix)
                letters.append(ix.name)
            t = self.add_tensor(p.name, "tensor", len(p.indices), role, p.pos, tuple(letters))
            for k, ix in enumerate(p.indices):
                node = ("hdr", ix.name)
                self.uf.find(node)
                if ix.extent is not None:
                    prev = self.uf.size_of(node)
                    if prev and prev[0] != ix.extent:
                        raise self.err(f"index '{ix.name}' declared with extent {ix.extent} here but "
                                       f"{prev[0]} ({prev[1]})", ix)
                    self.uf.fix_size(node, ix.extent, f"{p.name}[{ix.name}:{ix.extent}]")
                self.uf.union(node, t.axis(k), ix.pos, self.name, f"index '{ix.name}': ")
        elif p.kind == "tensor":          # bare output: shape inferred from its statement
            self.add_tensor(p.name, "tensor", None, role, p.pos)
        else:
            if role == "output":
                raise self.err(f"output '{p.name}' must be a tensor (write {p.name}[] for a scalar)", p)
            self.add_tensor(p.name, p.kind, 0, role, p.pos)
        if p.domain is not None:
            self.declare_domain(p, self.tensors[p.name])

    def declare_domain(self, p: A.Param, t):
        """A declared domain must fit its tensor; spd and symmetric make the last two axes one extent."""
        dom, rank = p.domain.text, t.rank or 0
        least = domains.NAMED.get(dom, (0, ""))[0]
        if rank < least:
            what = f"{rank} ind{'ex' if rank == 1 else 'ices'}" if p.indices is not None else "none (a scalar)"
            raise self.err(f"domain '{dom}' needs a matrix (batch indices, then two indices); '{p.name}' has "
                           f"{what}", p.domain.pos, p.domain.width)
        if dom in domains.MATRIX:
            self.uf.union(t.axis(rank - 2), t.axis(rank - 1), p.domain.pos, self.name,
                          f"'{p.name}: {dom}' is square, but ")
        self.declared[p.name] = dom

    # -- statements ----------------------------------------------------------------------------------------
    def statement(self, st: A.Statement):
        tgt = st.target
        self.plain_left_side(tgt)
        st = shifts.normalize(st, self.name)
        self.letters = {}
        self.fresh_used = []
        target_letters = self.left_letters(tgt)
        self.target_letters = set(target_letters)
        self.shifted_reads = shifts.shifted_reads(st.expr)
        self.check_assignable(tgt)
        self.index_names = index_names(st)
        expr = self.right_side(st)
        self.name_unwritten_axes(st, expr)
        t = self.tensors.get(tgt.name)
        if t is not None and t.role == "input":
            raise self.err(f"'{tgt.name}' is read on the right and cannot also be assigned; name the result "
                           f"differently", tgt)
        syms = self.target_indices(st, expr, target_letters)
        t = self.target_tensor(tgt, t, syms)
        t.assigned = True
        self.emit(t.name, syms, expr, st.pos.line)

    def plain_left_side(self, tgt):
        if isinstance(tgt, A.Access):
            for ix in tgt.indices:
                if isinstance(ix, A.Affine):
                    raise self.err("the left side takes plain indices; write the shift on the right (for "
                                   "y[i+1] = x[i], write y[i] = x[i-1])", ix, max(1, len(ix.name)))

    def left_letters(self, tgt) -> tuple:
        """The letters of the left side, each once; () for a bare name."""
        if not isinstance(tgt, A.Access):
            return ()
        seen = []
        for ix in tgt.indices:
            if ix.name in seen:
                raise self.err(f"index '{ix.name}' appears twice on the left", ix)
            seen.append(ix.name)
        return tuple(seen)

    def check_assignable(self, tgt):
        t = self.tensors.get(tgt.name)
        if t is not None and t.role == "input":
            raise self.err(f"'{tgt.name}' is an input and cannot be assigned", tgt)
        if t is not None and t.assigned:
            raise self.err(f"'{tgt.name}' is assigned twice", tgt)
        if t is not None and t.read:
            raise self.err(f"'{tgt.name}' is used before it is assigned", t.pos)
        if not tgt.name.isidentifier():
            raise self.err(f"'{tgt.name}' is not a valid name", tgt)

    def right_side(self, st):
        expr = self.convert(st.expr, frozenset())
        infinite = (sp.zoo, sp.nan) if names_inf(st.expr) else (sp.zoo, sp.nan, sp.oo, -sp.oo)
        if isinstance(expr, sp.Basic) and expr.has(*infinite):
            raise self.err("this expression divides by zero (or is otherwise undefined) for every input",
                           st.expr, 1)
        return expr

    def name_unwritten_axes(self, st, expr):
        """`w[i] = eigvalsh(S)`, `B[i,j] = inv(A)`: a right side whose every axis is one no index names (a matrix
        function of a whole tensor) takes the left side's letters, in the order of its axes, as `w = eigvalsh(S)`
        would; a left side with another number of indices is refused, naming the call."""
        tgt = st.target
        if not isinstance(tgt, A.Access) or not isinstance(expr, sp.Basic):
            return
        free = self.free_letters(expr)
        if not free or any(s not in self.fresh_used for s in free) or any(ix.name in self.letters
                                                                             for ix in tgt.indices):
            return
        axes = next((list(a.args) for a in ir.accesses(expr) if set(a.args) == set(free)
                     and len(a.args) == len(free)), None)
        if axes is None:
            return
        if len(axes) != len(tgt.indices):
            call = whole_tensor_call(st.expr)
            raise self.err(f"{call or 'the right side'} has {len(axes)} ax{'i' if len(axes) == 1 else 'e'}s, which "
                           f"no index names, but '{tgt.name}' is written with {len(tgt.indices)} indices; write "
                           f"{tgt.name} = {call or '...'}, or index the argument with the letters you mean",
                           tgt.indices[0], len(tgt.indices[0].name))
        for ix, s in zip(tgt.indices, axes):
            self.letters[ix.name] = s

    def target_indices(self, st, expr, target_letters) -> tuple:
        """The symbols of the left side's axes: its letters, or for a bare name the right side's free indices."""
        tgt = st.target
        if is_condition(expr):
            raise self.err("a comparison is only allowed as the first argument of where()", st.expr)
        free = self.free_letters(expr)
        if isinstance(tgt, A.Name):
            free = text_order(free, st.expr)
            syms = tuple(free)
        else:
            for ix in tgt.indices:
                if ix.name not in self.letters:
                    raise self.err(f"index '{ix.name}' on the left is bound nowhere on the right"
                                   + (reductions.reduced_note(self, ix.name)
                                      or did_you_mean(ix.name, set(self.letters) - self.target_letters)), ix)
                s = self.letters[ix.name]
                if s not in free and isinstance(expr, sp.Basic) and s in expr.atoms(Idx):
                    raise self.err(f"index '{ix.name}' on the left is summed over on the right (a repeated "
                                   f"index or sum() binds it); rename one of them", ix)
                # else the right side bound it, but its terms in it cancelled (x[i] - x[i]): the value is
                # constant along it and is broadcast
            syms = tuple(self.letters[ix] for ix in target_letters)
            for ix, sym in zip(tgt.indices, syms):   # an extent no input gives is reported at the left side
                self.written_at[sym.ext] = ix
        extra = [s for s in free if s not in syms]
        unwritten = [s for s in extra if s in self.fresh_used]
        if unwritten and len(unwritten) < len(free):
            node = call_node(st.expr)
            raise self.err(f"the axes of {whole_tensor_call(st.expr) or 'a matrix function of a whole tensor'} are "
                           f"named by no index, so they cannot meet the indices beside it; index its argument with "
                           f"the letters you mean", (node.func_pos or node.pos) if node else st.expr,
                           len(node.func) if node else 1)
        if extra:
            s = self.likely_typo(extra, st.expr)
            raise self.err(f"index '{s.name}' appears once on the right and not on the left; "
                           f"sum over it with sum({s.name}, ...) or add it to the left side"
                           + did_you_mean(s.name, self.header_letters() | self.index_names),
                           index_node(st.expr, s.name) or st.expr, len(s.name))
        return syms

    def header_letters(self) -> set:
        return {l for t in self.tensors.values() for l in t.letters}

    def likely_typo(self, loose, node):
        """Of the indices that appear once, the one most likely mistyped: one the header does not use (B[kk,j]
        where the header has k), then the one the text writes least, then the first."""
        header = self.header_letters()
        written = [n.name for n in A.walk(node) if isinstance(n, A.Index)]
        return min(loose, key=lambda s: (s.name in header, written.count(s.name)))

    def target_tensor(self, tgt, t, syms):
        """The tensor the statement assigns (created here unless the header declares it), its axes joined with
        the classes of syms."""
        if t is None:
            role = "output" if not self.rule.header else "temp"
            t = self.add_tensor(tgt.name, "tensor", len(syms), role, tgt.pos)
            if len(set(s.name for s in syms)) == len(syms):
                t.first = tuple(s.name for s in syms)
        if t.rank is None:
            t.rank = len(syms)
        if t.rank != len(syms):
            raise self.err(f"'{tgt.name}' is declared with {t.rank} indices but assigned with {len(syms)}", tgt)
        for k, s in enumerate(syms):
            self.uf.union(s.ext, t.axis(k), tgt.pos, self.name, f"index '{s.name}' of '{tgt.name}': ")
        return t

    def emit(self, target, syms, expr, line):
        # `X[I] = T[I]` where T is the primitive just computed for this statement: compute X directly
        if (ir.is_access(expr) and self.stmts and self.stmts[-1].target == ir.acc_name(expr)
                and (self.stmts[-1].prim or reductions.is_stmt(self.stmts[-1]))
                and tuple(syms) == tuple(expr.args) == tuple(self.stmts[-1].indices)
                and self.tensors[ir.acc_name(expr)].role == "temp"):
            prev = self.stmts[-1]
            old = self.tensors.pop(prev.target)
            self.order.remove(prev.target)
            tt = self.tensors[target]
            for k in range(old.rank):
                self.uf.union(old.axis(k), tt.axis(k))
            prev.target = target
            return
        self.stmts.append(Stmt(target, tuple(syms), expr=expr, line=line))

    # -- finishing: resolve extent classes, build the Program ----------------------------------------------
    def finish(self) -> Program:
        # header letters first, so classes take their names
        for t in self.tensors.values():
            for l in t.letters:
                self.uf.name(("hdr", l))
        extents.name_indices(self.stmts, self.uf)
        inputs, outputs, temps = self.variables(extents.AxisLetters(self.uf))
        # every extent must be readable from an input's shape
        if not inputs:
            raise RuleError("the rule has no inputs, so there is nothing to differentiate", self.rule.pos,
                            rule=self.name)
        input_classes = {c for v in inputs for c in v.classes}
        shift_info = shifts.resolve(self.shift_constraints, self.uf.name, input_classes, self.rule.pos, self.name)
        at = {}
        for node, written in self.written_at.items():
            at.setdefault(self.uf.find(node), written)
        extents.check_known(self.stmts, input_classes | set(shift_info.derived), self.rule,
                            lambda cls: at.get(self.uf.roots.get(cls)))
        return self.program(inputs, outputs, temps, shift_info)

    def variables(self, letters: extents.AxisLetters):
        """(inputs, outputs, temps) as TensorVars: as the header has them, or for bare statements inferred (a
        statement's tensor that a later one reads is a temp)."""
        inputs, outputs, temps = [], [], []
        if self.rule.header:
            for p in self.rule.inputs:
                inputs.append(letters.var(self.tensors[p.name]))
            for p in self.rule.outputs:
                outputs.append(letters.var(self.tensors[p.name]))
            for n in self.order:
                if self.tensors[n].role == "temp":
                    temps.append(letters.var(self.tensors[n]))
            return inputs, outputs, temps
        read_later = set()
        for st in self.stmts:
            if st.expr is not None:
                read_later |= {ir.acc_name(a) for a in ir.accesses(st.expr)}
            read_later |= set(st.args)
        for n in self.order:
            t = self.tensors[n]
            if t.role == "input":
                inputs.append(letters.var(t))
            elif t.role == "output" and n not in read_later:
                outputs.append(letters.var(t))
            else:
                t.role = "temp"
                temps.append(letters.var(t))
        for v in temps:
            v.role = "temp"
        for v in outputs:
            v.role = "output"
        return inputs, outputs, temps

    def program(self, inputs, outputs, temps, shift_info) -> Program:
        doms = {v.name: self.declared.get(v.name) or self.domain.get(v.name, "real") for v in inputs
                if v.kind != "int"}
        for v in inputs:
            v.domain = self.declared.get(v.name, "")
        prog = Program(self.name, inputs, outputs, temps, self.stmts, {},
                       equal_extents=extents.equal_letters(inputs + outputs), doc=self.rule.doc, domains=doms)
        prog.shifts = shift_info
        for v in inputs:
            for l, c in zip(v.indices, v.classes):
                size = self.uf.declared_size(c)
                if size is not None:
                    prog.extents[l] = size
        prog.signature = signature(prog)
        return prog


def signature(prog: Program) -> str:
    def fmt(v):
        if v.kind == "int":
            return f"{user_name(v.name)}: int"
        text = (user_name(v.name) if v.kind == "scalar"
                else f"{user_name(v.name)}[{','.join(user_name(i) for i in v.indices)}]")
        return f"{text}: {v.domain}" if v.domain else text

    outs = [fmt(v) for v in prog.outputs]
    out = outs[0] if len(outs) == 1 else "(" + ", ".join(outs) + ")"
    return f"{prog.name}({', '.join(fmt(v) for v in prog.inputs)}) -> {out}"


def lower(rule: A.RuleDef) -> Program:
    try:
        return Lowerer(apart_from_internal(rule)).lower()
    except RuleError as exc:
        exc.message = user_text(exc.message)
        exc.args = (str(exc),)
        raise
