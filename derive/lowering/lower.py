"""Lowering: syntax tree -> Program (IR), with every semantic check of the language.

Owns Einstein summation, lifting matrix primitives into statements of their own, extent classes
(which axes must have equal sizes), inference of inputs/outputs for bare statements, and domain hints.
"""
from __future__ import annotations

import dataclasses
import itertools
import keyword
import math
import re
import sys

import sympy as sp
from sympy.logic.boolalg import BooleanAtom

from derive.ir import nodes as ir
from derive.ir.nodes import Extent, Idx, IndexSum, KroneckerDelta, Program, Stmt, TensorVar
from derive.language import ast as A
from derive.language import domains
from derive.language.errors import RuleError
from derive.lowering import batching, reductions, shifts

# module-level names of a generated module that its rules' exports must not replace (everything else it uses
# is bound inside _define, and codegen keeps user names apart from it)
_MODULE_NAMES = {"OPS", "_define", "export_ops", "_CHUNK_ELEMENTS"}  # + emit_numpy.CHUNK_NAME
_RULE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
RESERVED = set(ir.ELEMENTWISE) | set(ir.MATRIX_FUNCTIONS) | {"sum", "delta", "size", "max", "min", "prod", "inf"}
_ORDINAL = ("first", "second", "third")
_COMPARE = {"<": sp.StrictLessThan, "<=": sp.LessThan, ">": sp.StrictGreaterThan, ">=": sp.GreaterThan,
            "==": sp.Eq, "!=": sp.Ne}


def _is_condition(e) -> bool:
    """A comparison, also one SymPy has already decided (3 > 3 is sp.false): where() folds that to a branch."""
    return isinstance(e, BooleanAtom) or (isinstance(e, sp.Basic) and e.is_Relational)


_LOG10_MAX = math.log10(sys.float_info.max)
_LOG10_MIN = math.log10(sys.float_info.min)


def _log10_abs(e):
    """log10 |e| of a nonzero constant, without evaluating e itself (it may be 2**(10**10)); None if unknown."""
    if e.is_Rational:
        return None if e == 0 else math.log10(abs(e.p)) - math.log10(e.q)
    try:
        v = sp.Abs(e).evalf(15)
        return float(sp.log(v, 10).evalf(15)) if v.is_Float and v != 0 else None
    except (TypeError, ValueError, ArithmeticError):
        return None


_POOL = list("ijklmnpqrstuvw") + [f"i{q}" for q in range(2, 99)]


class _UnionFind:
    def __init__(self):
        self.parent: dict = {}
        self.size: dict = {}          # root -> (integer extent, where it was declared)

    def find(self, x):
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a, b, pos=None, rule=None, what=""):
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return
        sa, sb = self.size.get(ra), self.size.get(rb)
        if sa and sb and sa[0] != sb[0]:
            raise RuleError(f"{what}extent {sb[0]} ({sb[1]}) conflicts with extent {sa[0]} ({sa[1]})",
                            pos, rule=rule)
        self.parent[rb] = ra
        if sb and not sa:
            self.size[ra] = sb


class _Tensor:
    def __init__(self, name, kind, rank, role, pos, letters=()):
        self.name, self.kind, self.rank, self.role, self.pos = name, kind, rank, role, pos
        self.letters = letters
        self.assigned = False
        self.read = False

    def axis(self, k):
        return ("ax", self.name, k)


class Lowerer:
    def __init__(self, rule: A.RuleDef, taken_names=()):
        self.rule = rule
        self.name = rule.name
        self.uf = _UnionFind()
        self.tensors: dict[str, _Tensor] = {}
        self.order: list[str] = []
        self.stmts: list[Stmt] = []
        self.temp_counter = itertools.count()
        self.square_pairs: list = []
        self.domain: dict[str, str] = {}         # inferred hints (log's argument positive, logdet's spd)
        self.declared: dict[str, str] = {}       # domains the header declares (derive.language.domains text)
        self.stmt_no = 0
        self.shift_constraints: list = []        # shifted subscripts: (tensor, axis, terms, const, text, pos)
        self.shifted_reads: set = set()

    # -- errors --------------------------------------------------------------------------------------------
    def err(self, msg, node_or_pos, width=None):
        pos = node_or_pos if isinstance(node_or_pos, A.Pos) else getattr(node_or_pos, "pos", None)
        if width is None:
            width = len(getattr(node_or_pos, "name", "") or getattr(node_or_pos, "func", "") or "x")
        return RuleError(msg, pos, rule=self.name, width=width)

    # -- tensors -------------------------------------------------------------------------------------------
    def add_tensor(self, name, kind, rank, role, pos, letters=()):
        if not name.isidentifier():
            raise self.err(f"'{name}' is not a valid name", pos)
        if name in RESERVED:
            what = "constant" if name == "inf" else "function"
            raise self.err(f"'{name}' is a built-in {what} and cannot name a tensor", pos, len(name))
        if keyword.iskeyword(name):
            raise self.err(f"'{name}' is reserved and cannot name a tensor", pos, len(name))
        t = _Tensor(name, kind, rank, role, pos, letters)
        self.tensors[name] = t
        self.order.append(name)
        return t

    def new_temp(self, rank, pos):
        name = f"_t{next(self.temp_counter)}"
        return self.add_tensor(name, "tensor", rank, "temp", pos)

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
                    root = self.uf.find(node)
                    prev = self.uf.size.get(root)
                    if prev and prev[0] != ix.extent:
                        raise self.err(f"index '{ix.name}' declared with extent {ix.extent} here but "
                                       f"{prev[0]} ({prev[1]})", ix)
                    self.uf.size[root] = (ix.extent, f"{p.name}[{ix.name}:{ix.extent}]")
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
        if isinstance(tgt, A.Access):
            for ix in tgt.indices:
                if isinstance(ix, A.Affine):
                    raise self.err("the left side takes plain indices; write the shift on the right (for "
                                   "y[i+1] = x[i], write y[i] = x[i-1])", ix, max(1, len(ix.name)))
        st = shifts.normalize(st, self.name)
        self.letters: dict[str, Idx] = {}        # letter -> provisional index symbol for this statement
        self.fresh_used: list = []
        target_letters = ()
        if isinstance(tgt, A.Access):
            seen = []
            for ix in tgt.indices:
                if ix.name in seen:
                    raise self.err(f"index '{ix.name}' appears twice on the left", ix)
                seen.append(ix.name)
            target_letters = tuple(seen)
        self.target_letters = set(target_letters)
        self.shifted_reads = shifts.shifted_reads(st.expr)
        t = self.tensors.get(tgt.name)
        if t is not None and t.role == "input":
            raise self.err(f"'{tgt.name}' is an input and cannot be assigned", tgt)
        if t is not None and t.assigned:
            raise self.err(f"'{tgt.name}' is assigned twice", tgt)
        if t is not None and t.read:
            raise self.err(f"'{tgt.name}' is used before it is assigned", t.pos)
        if not tgt.name.isidentifier():
            raise self.err(f"'{tgt.name}' is not a valid name", tgt)

        self.index_names = _index_names(st)
        expr = self.convert(st.expr, frozenset())
        infinite = (sp.zoo, sp.nan) if _names_inf(st.expr) else (sp.zoo, sp.nan, sp.oo, -sp.oo)
        if isinstance(expr, sp.Basic) and expr.has(*infinite):
            raise self.err("this expression divides by zero (or is otherwise undefined) for every input",
                           st.expr, 1)
        t = self.tensors.get(tgt.name)
        if t is not None and t.role == "input":
            raise self.err(f"'{tgt.name}' is read on the right and cannot also be assigned; name the result "
                           f"differently", tgt)
        if _is_condition(expr):
            raise self.err("a comparison is only allowed as the first argument of where()", st.expr)
        free = self.free_letters(expr)
        if isinstance(tgt, A.Name):
            free = _text_order(free, st.expr)
            target_letters = tuple(s.name for s in free)
            syms = tuple(free)
        else:
            for ix in tgt.indices:
                if ix.name not in self.letters:
                    raise self.err(f"index '{ix.name}' on the left is bound nowhere on the right"
                                   + reductions.reduced_note(self, ix.name), ix)
                s = self.letters[ix.name]
                if s not in free and isinstance(expr, sp.Basic) and s in expr.atoms(Idx):
                    raise self.err(f"index '{ix.name}' on the left is summed over on the right (a repeated "
                                   f"index or sum() binds it); rename one of them", ix)
                # else the right side bound it, but its terms in it cancelled (x[i] - x[i]): the value is
                # constant along it and is broadcast
            syms = tuple(self.letters[ix] for ix in target_letters)
        extra = [s for s in free if s not in syms]
        if extra:
            s = extra[0]
            raise self.err(f"index '{s.name}' appears once on the right and not on the left; "
                           f"sum over it with sum({s.name}, ...) or add it to the left side",
                           _index_node(st.expr, s.name) or st.expr, 1)
        # the target tensor
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
        t.assigned = True
        self.emit(t.name, syms, expr, st.pos.line)

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

    def free_letters(self, e):
        return ir.free_indices(e, e.atoms(Idx) if isinstance(e, sp.Basic) else set())

    def fresh_letter(self, ext):
        """An index for a whole-tensor argument (`inv(A)`), named by a letter this statement does not use."""
        used = set(self.letters) | {s.name for s in self.fresh_used}
        name = next(x for x in _POOL if x not in used)
        s = Idx(name, ext)
        self.fresh_used.append(s)
        return s

    def index(self, ix):
        """The statement's symbol for index letter ix (an A.Index or A.Name)."""
        s = self.letters.get(ix.name)
        if s is None:
            if not ix.name.isidentifier():
                raise self.err(f"'{ix.name}' is not a valid index name", ix)
            s = self.letters[ix.name] = Idx(ix.name, ("st", self.stmt_no, ix.name))
        return s

    # -- expressions ---------------------------------------------------------------------------------------
    def convert(self, node, bound):
        m = getattr(self, "c_" + type(node).__name__)
        return m(node, bound)

    def c_Num(self, node, bound):
        try:
            # the parser keeps literals within float64's range; a zero may still carry any exponent (0e99999999999)
            return sp.S.Zero if float(node.value) == 0 else sp.Rational(node.value)
        except (TypeError, ValueError):
            raise self.err(f"'{node.value}' is not a number", node, len(node.value))

    def lookup(self, name, node, rank_hint):
        t = self.tensors.get(name)
        if t is None:
            if name in RESERVED:
                raise self.err(f"'{name}' is a function; call it as {name}(...)", node, len(name))
            if self.rule.header:
                raise self.err(f"unknown name '{name}'", node, len(name))
            t = self.add_tensor(name, "scalar" if rank_hint == 0 else "tensor", rank_hint, "input", node.pos)
        if t.role != "input" and not t.assigned:
            raise self.err(f"'{name}' is used before it is assigned", node, len(name))
        t.read = True
        return t

    def c_Name(self, node, bound):
        if node.name == "inf":
            return sp.oo
        if self.is_index_name(node):
            other = "j" if node.name != "j" else "i"
            raise self.err(f"index '{node.name}' cannot be used as a value (nor in arithmetic): compare it with "
                           f"another index or an integer, as in where({node.name} <= {other}, ..., 0), or use "
                           f"size({node.name}) for its extent", node)
        t = self.lookup(node.name, node, 0)
        if t.kind == "int":
            return ir.access(t.name, ())
        if t.rank:
            raise self.err(f"'{t.name}' has {t.rank} indices; index it ({t.name}[...]) or pass it to a matrix "
                           f"function", node)
        return ir.access(t.name, ())

    def c_Access(self, node, bound):
        t = self.lookup(node.name, node, len(node.indices))
        if t.kind != "tensor":
            raise self.err(f"'{t.name}' is a scalar parameter and takes no indices", node)
        if t.rank is None:
            t.rank = len(node.indices)
        if t.rank != len(node.indices):
            raise self.err(f"'{t.name}' has {t.rank} indices but is used with {len(node.indices)}", node)
        syms, args = [], []
        for k, ix in enumerate(node.indices):
            if isinstance(ix, A.Index) and (ix.name, t.name, k) in self.shifted_reads and ix.extent is None:
                # this axis is also read at ix + offset: this plain read bounds ix's range like that one
                ix = A.Affine(((1, ix),), 0, ix.pos, ix.name)
            if isinstance(ix, A.Affine):
                terms = tuple((c, self.index(tx)) for c, tx in ix.terms)
                self.shift_constraints.append((t.name, t.axis(k), terms, ix.const, ix.name, ix.pos))
                args.append(sp.Add(*[c * q for c, q in terms]) + ix.const)
                continue
            if ix.extent is not None:
                raise self.err("extents can only be declared in a rule's header", ix)
            s = self.index(ix)
            self.uf.union(s.ext, t.axis(k), ix.pos, self.name, f"index '{ix.name}' of '{t.name}': ")
            syms.append(s)
            args.append(s)
        if not t.letters and not getattr(t, "first", None) and len(set(syms)) == len(syms) == len(args):
            t.first = tuple(s.name for s in syms)
        return self.trace_repeats(ir.access(t.name, args), syms, bound)

    def trace_repeats(self, e, syms, bound):
        """A repeated index inside one access (A[i,i]) is summed: the trace."""
        rep = [s for s in dict.fromkeys(syms) if syms.count(s) > 1 and s.name not in self.target_letters
               and s.name not in bound]
        return IndexSum(e, rep) if rep else e

    def c_Neg(self, node, bound):
        return -self.scalar(node.operand, bound)

    def scalar(self, node, bound, what=None):
        e = self.convert(node, bound)
        if _is_condition(e):
            raise self.err("a comparison is only allowed as the first argument of where()", node)
        return e

    def c_BinOp(self, node, bound):
        e = self.binop(node, bound)
        if not _is_condition(e):
            for r in e.atoms(sp.Rational):
                self.check_range(_log10_abs(r), node)
        return e

    def is_index_name(self, node):
        """A bare name that stands for an index of this statement (not a tensor of the same name)."""
        return isinstance(node, A.Name) and node.name not in self.tensors and (
            node.name in self.letters or node.name in self.target_letters or node.name in self.index_names)

    def compared(self, node, bound):
        """A side of a comparison: an index stands for its position there (derive/ir/masks.py)."""
        if self.is_index_name(node):
            return self.index(node)
        return self.scalar(node, bound)

    def check_range(self, log10, node):
        """Refuse a constant outside float64's normal range: the generated code could not hold it."""
        if log10 is not None and log10 > _LOG10_MAX:
            raise self.err(f"this constant is about 1e{log10:.0f}, beyond float64's range (the largest number "
                           f"is about {sys.float_info.max:.1e})", node, len(node.op))
        if log10 is not None and log10 < _LOG10_MIN:
            raise self.err(f"this constant is about 1e{log10:.0f}, below float64's normal range (the smallest "
                           f"normal number is about {sys.float_info.min:.1e})", node, len(node.op))

    def binop(self, node, bound):
        op = node.op
        if op in _COMPARE:
            a, b = (self.compared(n, bound) for n in (node.left, node.right))
            if op in ("==", "!=") and isinstance(a, Idx) and isinstance(b, Idx):
                # i == j means delta(i, j), which pairs equal extents
                self.uf.union(a.ext, b.ext, node.pos, self.name, f"{node.op} of indices: ")
            self.no_hidden_clash([(node.left, a), (node.right, b)])
            rel = _COMPARE[op](a, b)
            if isinstance(rel, BooleanAtom) and (self.free_letters(a) or self.free_letters(b)):
                # decided (v[k] > v[k] is False) but over indices: kept as written, so that k still counts
                # where the text has it (two such factors sum over k); decided, it would vanish with its branch
                rel = _COMPARE[op](a, b, evaluate=False)
            return rel
        if op in "+-":
            # a chain of + and -, gathered without recursion (the parser nests it leftward, one level a term)
            # and added at once: 10 000 terms must neither exhaust Python's stack nor cost n² in SymPy
            signed = []
            n = node
            while isinstance(n, A.BinOp) and n.op in "+-":
                signed.append((n.right, n.op == "-"))
                n = n.left
            signed.append((n, False))
            signed.reverse()
            terms = [self.scalar(x, bound) for x, _ in signed]
            self.no_hidden_clash([(x, e) for (x, _), e in zip(signed, terms)])
            return sp.Add(*[-e if neg else e for e, (_, neg) in zip(terms, signed)])
        if op == "**":
            base, exp = self.scalar(node.left, bound), self.scalar(node.right, bound)
            self.no_hidden_clash([(node.left, base), (node.right, exp)])
            if base.is_number and exp.is_number and exp.is_real:
                # estimated through logarithms before SymPy evaluates it: 10**10**10 would take it minutes
                lb = _log10_abs(base)
                if lb is not None and lb != 0:
                    self.check_range(lb * float(exp), node)
            return sp.Pow(base, exp)
        return self.product(node, bound)

    # -- Einstein summation --------------------------------------------------------------------------------
    # The rule (docs/language.md, "Summation"): an index is summed over the smallest enclosing product in
    # which it occurs twice. A product is a chain of * and / (parentheses and signs inside it do not end it,
    # as multiplication is associative); a denominator, a function's argument, a power's base or exponent and
    # a parenthesized sum are parts of their own, so an index occurring twice inside one of them is summed
    # there and the sum stays inside (1/(v[k]*v[k]) is 1/Σv²). A reading that needs a choice is refused:
    # an index three times in one product, or summed inside a part while also used beside it.

    def product(self, node, bound):
        factors = []          # (node, is_denominator) or None for a sign
        stack = [node]        # iterative, so a chain of 10 000 factors needs no deep recursion
        while stack:
            n = stack.pop()
            if isinstance(n, tuple):                    # a denominator: one part of the product, as a whole
                factors.append(n)
            elif isinstance(n, A.BinOp) and n.op == "*":
                stack.append(n.right)
                stack.append(n.left)
            elif isinstance(n, A.BinOp) and n.op == "/":
                stack.append((n.right, True))
                stack.append(n.left)
            elif isinstance(n, A.Neg):
                factors.append(None)
                stack.append(n.operand)
            else:
                factors.append((n, False))
        conv = [(n, self.scalar(n, bound), den) for n, den in (f for f in factors if f is not None)]
        sign = -1 if sum(f is None for f in factors) % 2 else 1
        self.no_hidden_clash([(n, e) for n, e, _ in conv], dens={id(n) for n, _, den in conv if den})
        seen: dict = {}
        for n, e, _ in conv:
            for s in self.occurrences(e):
                seen.setdefault(s, []).append(n)
        summed = []
        for s, nodes in seen.items():
            if len(nodes) < 2 or s.name in self.target_letters or s.name in bound:
                continue
            if len(nodes) > 2:
                raise self.err(f"index '{s.name}' occurs {len(nodes)} times in this product, so which two are "
                               f"summed is ambiguous; write the sum explicitly, e.g. sum({s.name}, ...) around "
                               f"the whole product, or group a pair in a function or power", _start(nodes[2]), 1)
            summed.append(s)
        prod = sp.Mul(sign, *[(ir.reciprocal(e) if den else e) for _, e, den in conv])
        return IndexSum(prod, summed) if summed else prod

    def occurrences(self, e):
        """Free indices of e, an index counted once per factor (repeats inside one access already summed)."""
        return self.free_letters(e)

    def no_hidden_clash(self, parts, dens=frozenset(), label=None):
        """Refuse an index summed inside one part (twice in it) that is also used in a sibling part:
        `x[i] / (v[i]*v[i])` could mean Σ x/Σv² or Σᵢ xᵢ/(vᵢ·vᵢ)."""
        if len(parts) < 2:
            return
        free = [set(self.free_letters(e)) if isinstance(e, sp.Basic) else set() for _, e in parts]
        for k, (n, e) in enumerate(parts):
            if not isinstance(e, sp.Basic):
                continue
            hidden = {s for q in e.atoms(IndexSum) for s in q.indices} & set(self.letters.values())
            for s in sorted(hidden, key=str):
                for m, (n2, _) in enumerate(parts):
                    if m != k and s in free[m]:
                        where = label or self.part_name(n, id(n) in dens)
                        raise self.err(
                            f"index '{s.name}' is summed inside {where} (at column {_start(n).col}, where it "
                            f"occurs twice) and also appears here, outside it, so the reading is ambiguous; "
                            f"write the sum you mean explicitly, e.g. sum({s.name}, ...), or rename one of the "
                            f"indices", _start(n2), 1)

    @staticmethod
    def part_name(n, den=False):
        if den:
            return "the denominator"
        if isinstance(n, A.Call):
            return f"the argument of {n.func}()"
        if isinstance(n, A.BinOp) and n.op == "**":
            return "the power"
        if isinstance(n, A.BinOp) and n.op in "+-":
            return "the sum in parentheses"
        if isinstance(n, (A.Access, A.Subscript)):
            return "the repeated subscript (a trace)"
        return "this part"

    def c_Subscript(self, node, bound):
        base = self.convert(node.base, bound)
        free = _text_order(self.free_letters(base), node.base)
        if len(free) != len(node.indices):
            raise self.err(f"this expression has {len(free)} free indices but is subscripted with "
                           f"{len(node.indices)}", node, 1)
        if ir.is_access(base) and self.tensors[ir.acc_name(base)].role == "temp" and \
                list(base.args) == free:
            t = self.tensors[ir.acc_name(base)]
        else:
            t = self.lift(base, free, node.pos)
        syms = []
        for k, ix in enumerate(node.indices):
            if isinstance(ix, A.Affine):
                raise self.err("a shifted subscript applies to a tensor; assign the expression to a tensor first "
                               "and subscript that", ix, max(1, len(ix.name)))
            s = self.index(ix)
            self.uf.union(s.ext, t.axis(k), ix.pos, self.name, f"index '{ix.name}': ")
            syms.append(s)
        return self.trace_repeats(ir.access(t.name, syms), syms, bound)

    def lift(self, expr, syms, pos):
        """A temp tensor T[syms] = expr, returned (for matrix-function arguments and subscripted results)."""
        t = self.new_temp(len(syms), pos)
        for k, s in enumerate(syms):
            self.uf.union(s.ext, t.axis(k))
        t.assigned = True
        self.stmts.append(Stmt(t.name, tuple(syms), expr=expr, line=pos.line))
        t.read = True
        return t

    def c_Call(self, node, bound):
        f = node.func
        fpos = node.func_pos or node.pos
        if f == "sum":
            if len(node.args) < 2:
                raise self.err("sum needs an index and an expression: sum(k, expr)", fpos, 3)
            idx_nodes = node.args[:-1]
            for n in idx_nodes:
                if not isinstance(n, A.Name):
                    raise self.err("sum's leading arguments must be index names: sum(k, expr)", n, 1)
            inner = bound | {n.name for n in idx_nodes}
            # the summed letters are new variables inside the sum, distinct from any same-named index outside
            saved = {n.name: self.letters.get(n.name) for n in idx_nodes}
            syms = []
            for n in idx_nodes:
                s = Idx(n.name, ("sum", self.stmt_no, n.pos.line, n.pos.col, n.name))
                self.letters[n.name] = s
                syms.append(s)
            body = self.scalar(node.args[-1], inner)
            for name, old in saved.items():
                if old is None:
                    self.letters.pop(name, None)
                else:
                    self.letters[name] = old
            free = set(self.free_letters(body))
            # summing a term that does not mention k multiplies it by k's extent
            missing = [s for s in syms if s not in free]
            present = [s for s in syms if s in free]
            out = IndexSum(body, present)
            for s in missing:
                out = out * Extent(s)
            return out
        if f == "delta":
            if len(node.args) != 2 or not all(isinstance(a, A.Name) for a in node.args):
                raise self.err("delta takes two index names: delta(i, j)", fpos, 5)
            i, j = (self.index(a) for a in node.args)
            self.uf.union(i.ext, j.ext, node.pos, self.name, "delta: ")
            return KroneckerDelta(i, j, evaluate=False) if i != j else sp.S.One
        if f == "size":
            if len(node.args) != 1 or not isinstance(node.args[0], A.Name):
                raise self.err("size takes one index name: size(i)", fpos, 4)
            name = node.args[0].name
            fresh_here = name not in self.letters
            s = self.index(node.args[0])
            if fresh_here and ("hdr", name) in self.uf.parent:
                # size(i) of an index the statement does not otherwise use: the header's index i
                self.uf.union(s.ext, ("hdr", name))
            return Extent(s)
        if reductions.is_reduction(node, self.tensors):
            return reductions.lower(self, node, bound)
        if f in ("max", "min"):
            reductions.check_pair(self, node)
            if len(node.args) != 2:
                raise self.err(f"{f} takes two arguments", fpos, len(f))
            a, b = (self.scalar(x, bound) for x in node.args)
            if f == "max" and b == 0:
                return ir.relu(a)
            if f == "max" and a == 0:
                return ir.relu(b)
            return ir.where(sp.GreaterThan(a, b) if f == "max" else sp.LessThan(a, b), a, b)
        if f in ir.ELEMENTWISE:
            builtin = ir.ELEMENTWISE[f]
            arity = builtin.arity
            if len(node.args) != arity:
                raise self.err(f"{f} takes {arity} argument{'s' if arity > 1 else ''}, got {len(node.args)}",
                               fpos, len(f))
            args = []
            for k, a in enumerate(node.args):
                if isinstance(a, A.Name) and a.name in self.tensors and (self.tensors[a.name].rank or 0) > 0:
                    raise self.err(f"{f} expects a scalar argument, but '{a.name}' has "
                                   f"{self.tensors[a.name].rank} indices; index it (elementwise): "
                                   f"{f}({a.name}[...])", a)
                e = self.convert(a, bound)
                is_rel = _is_condition(e)
                if k == builtin.row.condition:
                    if not is_rel:
                        raise self.err(f"{f}'s {_ORDINAL[k]} argument must be a comparison, e.g. x[i] > 0", a, 1)
                elif is_rel:
                    raise self.err("a comparison is only allowed as the first argument of where()", a, 1)
                args.append(e)
            self.no_hidden_clash(list(zip(node.args, args)), label=f"an argument of {f}()")
            row = builtin.row
            if row.exempt_if_integer is None or not args[row.exempt_if_integer].is_integer:
                for a, dom in zip(args, row.domain):
                    if dom:
                        self.mark_domain(a, dom)
            return builtin.fn(*args)
        if f in ir.MATRIX_FUNCTIONS:
            return self.primitive(node, bound)
        raise self.err(f"unknown function '{f}'", fpos, len(f))

    def mark_domain(self, e, dom):
        if dom == "positive" and _positive(e):
            return      # log(sum(j, exp(x[j]))) holds for every real x: sampling x > 0 only would be a blind spot
        if dom == "positive" and isinstance(e, sp.Mul):
            for f in e.args:            # log(z[i]·x[i]²): z's sign matters, x's does not
                self.mark_domain(f, dom)
            return
        for a in ir.accesses(e):
            name = ir.acc_name(a)
            t = self.tensors.get(name)
            if t is not None and t.role == "input" and self.domain.get(name, "real") == "real":
                self.domain[name] = dom

    def tensor_arg(self, node, bound, fname):
        """A matrix-function argument: (tensor, symbols of its axes)."""
        if isinstance(node, A.Name):
            t = self.lookup(node.name, node, None)
            if t.kind != "tensor":
                raise self.err(f"{fname} expects a matrix, but '{t.name}' is a scalar", node)
            if t.rank is None:
                t.rank = 2 if fname != "solve_rhs" else 1
            syms = [self.fresh_letter(t.axis(k)) for k in range(t.rank)]
            for k, s in enumerate(syms):
                self.uf.find(s.ext)
            return t, syms
        e = self.scalar(node, bound)
        free = _text_order(self.free_letters(e), node, by_access=True)
        if ir.is_access(e) and list(e.args) == free and len(set(free)) == len(free):
            return self.tensors[ir.acc_name(e)], free
        return self.lift(e, free, node.pos), free

    def primitive(self, node, bound):
        f = node.func
        fpos = node.func_pos or node.pos
        want = len(ir.MATRIX_PRIMITIVES[f].args) if f in ir.MATRIX_PRIMITIVES else 1
        if len(node.args) != want:
            raise self.err(f"{f} takes {want} argument{'s' if want > 1 else ''}, got {len(node.args)}", fpos, len(f))
        t, syms = self.tensor_arg(node.args[0], bound, f)
        rank = len(syms)
        if f == "transpose":
            if rank < 2:
                raise self.err(f"transpose expects a matrix, got {rank} indices", node.args[0], 1)
            perm = list(syms[:-2]) + [syms[-1], syms[-2]]
            return ir.access(self.lift(ir.access(t.name, syms), perm, node.pos).name, perm)
        if rank < 2:
            raise self.err(f"{f} expects a matrix (batch indices, then 2 matrix indices), got {rank} "
                           f"ind{'ex' if rank == 1 else 'ices'}", node.args[0], 1)
        # NumPy's convention: the matrix axes are the last two, leading axes are batch axes
        batch, (row, col) = list(syms[:-2]), syms[-2:]
        self.uf.union(row.ext, col.ext, node.pos, self.name, f"{f} needs a square matrix: ")
        self.square_pairs.append((row.ext, col.ext))
        if f == "trace":
            a, b = row, col
            return IndexSum(ir.access(t.name, syms).xreplace({b: a}), [a])
        p = ir.MATRIX_PRIMITIVES[f]
        if p.domain:
            self.mark_domain(ir.access(t.name, syms), p.domain)
        names = [t.name]
        rhs_syms = None
        for k, kind in enumerate(p.arg_kinds[1:], 1):
            # a right-hand side: batch axes, then the matrix's rows, then columns (optional)
            node_k = node.args[k]
            if isinstance(node_k, A.Name):
                bt = self.lookup(node_k.name, node_k, None)
                if bt.rank is None:
                    bt.rank = 1 + len(batch)
                bsyms = [self.fresh_letter(bt.axis(q)) for q in range(bt.rank)]
            else:
                bt, bsyms = self.tensor_arg(node_k, bound, f)
            if len(bsyms) != 1 + len(batch) and len(bsyms) != 2 + len(batch):
                raise self.err(f"{f}'s right-hand side must have {1 + len(batch)} or {2 + len(batch)} indices "
                               f"({'batch, ' if batch else ''}rows, columns), got {len(bsyms)}", node_k, 1)
            self.uf.union(bsyms[len(batch)].ext, col.ext, node.pos, self.name, f"{f}: ")
            for s, b in zip(batch, bsyms):
                self.uf.union(s.ext, b.ext, node.pos, self.name, f"{f} batch: ")
            names.append(bt.name)
            rhs_syms = bsyms
        out_syms = {"square": list(syms), "scalar": batch, "vector": batch + [row],
                    "rhs": batch + [row] + list(rhs_syms[len(batch) + 1:]) if rhs_syms else None}[p.result]
        r = self.new_temp(len(out_syms), node.pos)
        readable = f"_{f}_{t.name}"
        if len(names) == 1 and t.role != "temp" and readable not in self.tensors:
            # a readable name for displays: X⁻¹, chol(X)
            self.tensors[readable] = self.tensors.pop(r.name)
            self.order[self.order.index(r.name)] = readable
            r.name = readable
        for k, s in enumerate(out_syms):
            self.uf.union(s.ext, r.axis(k))
        r.assigned = r.read = True
        self.stmts.append(Stmt(r.name, tuple(out_syms), prim=f, args=tuple(names), line=node.pos.line))
        return ir.access(r.name, out_syms)

    # -- finishing: resolve extent classes, build the Program ----------------------------------------------
    def finish(self) -> Program:
        roots: dict = {}
        names: dict = {}
        used_names: set = set()

        def cls_of(node):
            root = self.uf.find(node)
            if root not in roots:
                # name a class after a header letter if it has one, else after a tensor axis
                members = [k for k in self.uf.parent if self.uf.find(k) == root]
                hdr = sorted(k[1] for k in members if k[0] == "hdr")
                base = hdr[0] if hdr else "n"
                nm = base
                c = 1
                while nm in used_names:
                    c += 1
                    nm = f"{base}{c}"
                used_names.add(nm)
                roots[root] = nm
                names[nm] = root
            return roots[root]

        # header letters first, so classes take their names
        for t in self.tensors.values():
            for k, l in enumerate(t.letters):
                cls_of(("hdr", l))
        sub: dict = {}
        for st in self.stmts:
            syms = set(st.indices)
            if st.expr is not None:
                syms |= {s for s in st.expr.atoms(Idx)}
            for s in syms:
                if s not in sub:
                    sub[s] = Idx(s.name, cls_of(s.ext))
        for st in self.stmts:
            st.indices = tuple(sub[s] for s in st.indices)
            if st.expr is not None:
                st.expr = st.expr.xreplace(sub)

        letter_cls: dict = {}

        def var(t):
            classes = tuple(cls_of(t.axis(k)) for k in range(t.rank or 0))
            letters = list(t.letters or getattr(t, "first", None) or ())
            if len(letters) != len(classes):
                letters = [None] * len(classes)
            for k, c in enumerate(classes):
                l = letters[k]
                if l is None or letter_cls.get(l, c) != c or l in letters[:k]:
                    # a letter the rule gives this class first (a temporary's batch axis is b, as A[b,i,j]'s)
                    own = [x for x, cc in letter_cls.items() if cc == c]
                    l = next(x for x in own + list("ijklmnpqrstuvwxyz") + [f"i{q}" for q in range(2, 99)]
                             if letter_cls.get(x, c) == c and x not in letters[:k])
                letters[k] = l
                letter_cls[l] = c
            return TensorVar(t.name, t.kind, classes, t.role, tuple(letters))

        inputs, outputs, temps = [], [], []
        if self.rule.header:
            for p in self.rule.inputs:
                inputs.append(var(self.tensors[p.name]))
            for p in self.rule.outputs:
                outputs.append(var(self.tensors[p.name]))
            for n in self.order:
                if self.tensors[n].role == "temp":
                    temps.append(var(self.tensors[n]))
        else:
            read_later = set()
            for st in self.stmts:
                if st.expr is not None:
                    read_later |= {ir.acc_name(a) for a in ir.accesses(st.expr)}
                read_later |= set(st.args)
            for n in self.order:
                t = self.tensors[n]
                if t.role == "input":
                    inputs.append(var(t))
                elif t.role == "output" and n not in read_later:
                    outputs.append(var(t))
                else:
                    t.role = "temp"
                    temps.append(var(t))
            for v in temps:
                v.role = "temp"
            for v in outputs:
                v.role = "output"
        # every extent must be readable from an input's shape
        if not inputs:
            raise RuleError("the rule has no inputs, so there is nothing to differentiate", self.rule.pos,
                            rule=self.name)
        input_classes = {c for v in inputs for c in v.classes}
        shift_info = shifts.resolve(self.shift_constraints, lambda node: cls_of(node), input_classes,
                                    self.rule.pos, self.name)
        input_classes |= set(shift_info.derived)
        for st in self.stmts:
            syms = list(st.indices) + (sorted(st.expr.atoms(Idx), key=str) if st.expr is not None else [])
            for s in syms:
                if s.ext not in input_classes:
                    hint = ""
                    if st.expr is not None and any(s in r.free_symbols for r in st.expr.atoms(sp.Rel)):
                        hint = (f" (a comparison such as j <= {s.name} gives it none: declare it in a header, "
                                f"e.g. f(x[{s.name}]) -> y[{s.name}] = ...)")
                    raise RuleError(f"the extent of index '{s.name}' (in the statement for '{st.target}') "
                                    f"cannot be known from any input: no input tensor carries it{hint}",
                                    self.rule.pos, rule=self.name, width=len(self.rule.name))
        eq = []
        for a, b in self.square_pairs:
            pair = sorted({cls_of(a), cls_of(b)})
            if pair not in eq:
                eq.append(pair)
        equal = []
        # letters sharing a class must be equal in size
        by_cls: dict = {}
        for v in inputs + outputs:
            for l, c in zip(v.indices, v.classes):
                by_cls.setdefault(c, set()).add(l)
        for c, ls in by_cls.items():
            if len(ls) > 1:
                equal.append(sorted(ls))
        doms = {v.name: self.declared.get(v.name) or self.domain.get(v.name, "real") for v in inputs
                if v.kind != "int"}
        for v in inputs:
            v.domain = self.declared.get(v.name, "")
        for t in self.tensors.values():
            if t.role == "input":
                t.letters = t.letters or tuple(cls_of(t.axis(k)) for k in range(t.rank or 0))
        prog = Program(self.name, inputs, outputs, temps, self.stmts, {}, equal_extents=equal,
                       doc=self.rule.doc, domains=doms)
        prog.shifts = shift_info
        for v in inputs:
            for l, c in zip(v.indices, v.classes):
                size = self.uf.size.get(names[c])
                if size:
                    prog.extents[l] = size[0]
        prog.signature = signature(prog)
        return prog


def _positive(e) -> bool:
    """Whether e > 0 for every real value of the tensors it reads, but on a set random points never meet (exp,
    even powers, |.|, sums and products of such terms, positive constants, extents): such an argument of log or
    sqrt says nothing about the inputs' domain, and sampling them positive only would leave a blind spot
    (log-sum-exp, a norm sqrt(Σ x²))."""
    if e.is_Number:
        return bool(e > 0)
    if isinstance(e, (sp.exp, ir.Extent, sp.Abs)):
        return True
    if isinstance(e, ir.IndexSum):
        return _positive(e.body)
    if isinstance(e, (sp.Add, sp.Mul)):
        return all(_positive(a) for a in e.args)
    if isinstance(e, sp.Pow):
        if e.exp.is_integer and e.exp.is_even:
            return True
        return _positive(e.base) and e.exp.is_real is True
    return False


def _text_order(syms, node, by_access=False) -> list:
    """The free indices of an expression in the order the text first names them: the axes of a subscripted
    expression, of a matrix function's argument and of a bare-named target (`T = y[i]*x[j]` is T[i,j]).
    Indices the text does not name (a bare `inv(A)`'s axes) keep their order, after the named ones.
    by_access (a matrix function's argument): the order of the first tensor read that carries every free
    index, where there is one, so `inv(delta(i,j) - A[b,i,j])` has A's axes [b,i,j] (batch first, matrix
    last), not the order in which delta happens to name i and j first."""
    names: list = []
    full: list = []                 # the plain-index reads, each as its list of index names

    def walk(n):
        if isinstance(n, (A.Access, A.Subscript)):    # a subscripted base's letters are its own
            if isinstance(n, A.Access) and not any(isinstance(ix, A.Affine) for ix in n.indices):
                full.append([ix.name for ix in n.indices])
            for ix in n.indices:
                names.extend(ix.letters if isinstance(ix, A.Affine) else [ix.name])
        elif isinstance(n, A.Call):
            if n.func in ("delta", "size"):
                names.extend(a.name for a in n.args if isinstance(a, A.Name))
            else:
                for a in n.args:
                    walk(a)
        elif isinstance(n, A.BinOp):
            walk(n.left)
            walk(n.right)
        elif isinstance(n, A.Neg):
            walk(n.operand)

    walk(node)
    if by_access:
        want = {s.name for s in syms}
        order = next((f for f in full if len(f) == len(want) and set(f) == want), None)
        if order is not None:
            names = order
    first = {name: k for k, name in reversed(list(enumerate(batching.leading_first(names))))}
    return sorted(syms, key=lambda s: first.get(s.name, len(names)))


def _index_names(node) -> set:
    """Every name the text of node uses as an index: subscripts, and the index arguments of sum, delta, size."""
    out: set = set()
    for n in A.walk(node):
        if isinstance(n, A.Index):
            out.add(n.name)
        elif isinstance(n, A.Call) and n.func in ("sum", "delta", "size"):
            args = n.args[:-1] if n.func == "sum" else n.args
            out.update(a.name for a in args if isinstance(a, A.Name))
    return out


def _names_inf(node) -> bool:
    """The text of node writes `inf` (so an infinite constant in it is meant, not a division by zero)."""
    return any(isinstance(n, A.Name) and n.name == "inf" for n in A.walk(node))


def _index_node(node, name):
    """The first subscript index `name` in the text of node that no sum() or matrix function binds (where a
    loose index is), else the first one anywhere; None if the text never names it."""
    found: list = []

    def walk(n, inside):
        if isinstance(n, (A.Access, A.Subscript)):
            for ix in n.indices:
                for one in ([t for _, t in ix.terms] if isinstance(ix, A.Affine) else [ix]):
                    if one.name == name:
                        found.append((inside, one))
            if isinstance(n, A.Subscript):
                walk(n.base, inside)
        elif isinstance(n, A.Call):
            binds = (n.func == "sum" and any(isinstance(a, A.Name) and a.name == name for a in n.args[:-1]))
            for a in n.args:
                walk(a, inside or binds or n.func in ir.MATRIX_FUNCTIONS)
        elif isinstance(n, A.BinOp):
            walk(n.left, inside)
            walk(n.right, inside)
        elif isinstance(n, A.Neg):
            walk(n.operand, inside)

    walk(node, False)
    free = [ix for inside, ix in found if not inside]
    return (free or [ix for _, ix in found] or [None])[0]


def _start(n) -> A.Pos:
    """Where the text of node n begins (a BinOp's own position is its operator)."""
    while isinstance(n, (A.BinOp, A.Subscript)):
        n = n.left if isinstance(n, A.BinOp) else n.base
    return n.pos


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
        return Lowerer(_apart_from_internal(rule)).lower()
    except RuleError as exc:
        exc.message = user_text(exc.message)
        exc.args = (str(exc),)
        raise


# -- user names and the IR's own ------------------------------------------------------------------------------
# The IR names what it creates itself with exactly one leading '_' (_t0, _inv_A, _z3; indices _s0, _P0, _b0_0).
# A user name that starts with '_' gets one more on its way in, so it can never equal one of them; a user
# name cannot start with '__'. `user_text` undoes the mapping wherever a name is shown to the user.
_USER_UNDERSCORE = re.compile(r"(?<![A-Za-z0-9_])__(?=[A-Za-z0-9_])")


def ir_name(name: str) -> str:
    return "_" + name if name.startswith("_") else name


def user_name(name: str) -> str:
    return name[1:] if name.startswith("__") else name


def user_text(text: str) -> str:
    return _USER_UNDERSCORE.sub("_", text)


def _apart_from_internal(node):
    if isinstance(node, (A.Name, A.Index, A.Access, A.Param)) and node.name.startswith("__"):
        raise RuleError(f"'{node.name}' is not a valid name: names starting with '__' are reserved", node.pos,
                        width=len(node.name))
    if isinstance(node, A.RuleDef) and node.name.startswith("__"):
        raise RuleError(f"'{node.name}' is not a valid rule name: names starting with '__' are reserved",
                        node.pos, width=len(node.name))
    if isinstance(node, A.Affine):
        return dataclasses.replace(node, terms=tuple((c, _apart_from_internal(ix)) for c, ix in node.terms))
    changes = {}
    for f in dataclasses.fields(node):
        v = getattr(node, f.name)
        if isinstance(v, A.Node):
            changes[f.name] = _apart_from_internal(v)
        elif isinstance(v, tuple) and v and isinstance(v[0], A.Node):
            changes[f.name] = tuple(_apart_from_internal(x) for x in v)
    if isinstance(node, (A.Name, A.Index, A.Access, A.Param)):
        changes["name"] = ir_name(node.name)
    return dataclasses.replace(node, **changes) if changes else node
