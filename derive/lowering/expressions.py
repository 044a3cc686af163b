"""Expressions: one rule's lowering state (its tensors, extent classes, statements so far) and the conversion of an
expression's syntax tree into the IR, with Einstein summation and the checks an expression's text must pass.

Calls go to the rules registered in derive.lowering.calls; derive.lowering.lower's Lowerer builds statements and
the Program on top of this.
"""
from __future__ import annotations

import contextlib
import itertools
import keyword
import math
import sys

import sympy as sp
from sympy.logic.boolalg import BooleanAtom

from derive.ir import nodes as ir
from derive.ir.masks import is_condition
from derive.ir.nodes import Idx, IndexSum, Stmt
from derive.language import ast as A
from derive.language.errors import RuleError, did_you_mean
from derive.lowering.calls import CALL_RULES, RESERVED
from derive.lowering.extents import ExtentClasses
from derive.lowering.text import start, text_order

_COMPARE = {"<": sp.StrictLessThan, "<=": sp.LessThan, ">": sp.StrictGreaterThan, ">=": sp.GreaterThan,
            "==": sp.Eq, "!=": sp.Ne}
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


class TensorEntry:
    """What lowering knows of one tensor: its kind, rank, role and header letters, and whether it is assigned or
    read yet."""

    def __init__(self, name, kind, rank, role, pos, letters=()):
        self.name, self.kind, self.rank, self.role, self.pos = name, kind, rank, role, pos
        self.letters = letters
        self.assigned = False
        self.read = False

    def axis(self, k):
        return ("ax", self.name, k)


class ExpressionLowerer:
    """The lowering of one rule, as far as expressions go: the right side of one statement at a time (the letters
    it uses, set up by the Lowerer's statement) becomes an IR expression, lifting what needs a tensor of its own
    (a matrix function's argument, a subscripted expression, a reduction) into statements before it."""

    def __init__(self, rule: A.RuleDef, taken_names=()):
        self.rule = rule
        self.name = rule.name
        self.uf = ExtentClasses()
        self.tensors: dict[str, TensorEntry] = {}
        self.order: list[str] = []
        self.stmts: list[Stmt] = []
        self.temp_counter = itertools.count()
        self.domain: dict[str, str] = {}         # inferred hints (log's argument positive, logdet's spd)
        self.declared: dict[str, str] = {}       # domains the header declares (derive.language.domains text)
        self.stmt_no = 0
        self.shift_constraints: list = []        # shifted subscripts: (tensor, axis, terms, const, text, pos)
        self.shifted_reads: set = set()
        self.reduced_letters: set = set()        # letters a max, min or prod reduces (for reductions' messages)
        self.reductions: dict = {}               # a reduction lowered already -> its statement (computed once)
        # the statement being lowered: letter -> provisional index symbol, the indices invented for whole-tensor
        # arguments, the left side's letters and every name its text uses as an index
        self.letters: dict[str, Idx] = {}
        self.fresh_used: list = []
        self.target_letters: set = set()
        self.index_names: set = set()
        self.written_at: dict = {}               # an index symbol's extent node -> where the text first binds it

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
        t = TensorEntry(name, kind, rank, role, pos, letters)
        self.tensors[name] = t
        self.order.append(name)
        return t

    def user_tensors(self) -> list:
        """The tensors the rule names (not the temporaries lowering made, _t0...), for a "did you mean"."""
        return [n for n in self.tensors if not (n.startswith("_") and not n.startswith("__"))]

    def new_temp(self, rank, pos):
        name = f"_t{next(self.temp_counter)}"
        return self.add_tensor(name, "tensor", rank, "temp", pos)

    def rename(self, t, name):
        """Give tensor t (a temp just created) another name."""
        self.tensors[name] = self.tensors.pop(t.name)
        self.order[self.order.index(t.name)] = name
        t.name = name

    # -- the statement's index letters ---------------------------------------------------------------------
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
            self.written_at.setdefault(s.ext, ix)
        return s

    @contextlib.contextmanager
    def binding(self, idx_nodes, kind):
        """New index symbols for the letters a sum or a reduction binds (yielded in order), distinct from any
        same-named index outside it: the letters mean them only inside."""
        saved = {n.name: self.letters.get(n.name) for n in idx_nodes}
        syms = []
        for n in idx_nodes:
            s = Idx(n.name, (kind, self.stmt_no, n.pos.line, n.pos.col, n.name))
            self.written_at.setdefault(s.ext, n)
            self.letters[n.name] = s
            syms.append(s)
        try:
            yield syms
        finally:
            for name, old in saved.items():
                if old is None:
                    self.letters.pop(name, None)
                else:
                    self.letters[name] = old

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
                raise self.err(f"unknown name '{name}'" + did_you_mean(name, self.user_tensors()), node, len(name))
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
        if is_condition(e):
            raise self.err("a comparison is only allowed as the first argument of where()", node)
        return e

    def c_BinOp(self, node, bound):
        e = self.binop(node, bound)
        if not is_condition(e):
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
                               f"the whole product, or group a pair in a function or power", start(nodes[2]), 1)
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
                            f"index '{s.name}' is summed inside {where} (at column {start(n).col}, where it "
                            f"occurs twice) and also appears here, outside it, so the reading is ambiguous; "
                            f"write the sum you mean explicitly, e.g. sum({s.name}, ...), or rename one of the "
                            f"indices", start(n2), 1)

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
        free = text_order(self.free_letters(base), node.base)
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
        rule = CALL_RULES.get(node.func)
        if rule is None:
            raise self.err(f"unknown function '{node.func}'" + did_you_mean(node.func, CALL_RULES),
                           node.func_pos or node.pos, len(node.func))
        return rule(self, node, bound)
