"""CUDA printing and index-structure classification: IR statements become kernel pieces of four classes.

`plan` splits a statement into pieces by its index structure — elementwise `map`, map-`reduce` with any
summand (KeOps style), multilinear `gemm`, batched matrix `prim` — hoisting loop invariants and naming
intermediates. `Body` prints one piece's scalar work through `CudaPrinter` (SymPy's C99 printer, `T`-typed).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import opt_einsum
import sympy as sp
from sympy.core.function import AppliedUndef
from sympy.printing.c import C99CodePrinter, get_math_macros

from derive.calculus.differential import OpaqueLin, canon_bound
from derive.emission import cuda_shifts
from derive.ir import nodes as ir
from derive.ir.nodes import Extent, Idx, IndexSum

# -----------------------------------------------------------------------------------------------------------
# Scalar printing

# the device spelling of the functions that are not elementwise built-ins (those are read from ir.NODES)
_OWN = {"max_shift": "tr_shift", "grouped": "", "finite_or_zero": "(isfinite({0}) ? {0} : T(0))"}


def spell(spelling, args):
    """A device spelling applied to printed arguments: `name(a, b)`, or its template filled in."""
    if "{" in spelling:
        return spelling.format(*args)
    return f"{spelling}({', '.join(args)})"


def _cuda_float(x):
    """A constant as CUDA code: T(literal), or INFINITY/NAN where float64 overflows (a literal `inf` would not
    compile)."""
    x = float(x)
    if x != x:
        return "T(NAN)"
    if x in (float("inf"), float("-inf")):
        return "T(INFINITY)" if x > 0 else "(-T(INFINITY))"
    return f"T({x!r})"


class grouped(sp.Function):
    """grouped(e) prints as (e): a sum evaluated on its own, before it joins an enclosing one (x - M in
    (x - M) - log Σ exp(x - M), which SymPy would otherwise flatten into one sum of three terms)."""

    nargs = 1
    is_real = True


class max_shift(sp.Function):
    """max_shift(M[I]): the shift of a log-sum-exp read from M, a buffer of maxima written by a `max` reduction
    (held as order-preserving keys, see templates/cuda_helpers.cuh.j2): the maximum, or 0 where it is
    infinite, as emit_numpy's emit_logsumexp shifts (so all -inf gives -inf, not NaN)."""

    nargs = 1
    is_real = True


class finite_or_zero(sp.Function):
    """finite_or_zero(x): x where it is finite, else 0 (the origin of centred inputs sums finite entries only,
    derive.emission.centring)."""

    nargs = 1
    is_real = True


class CudaPrinter(C99CodePrinter):
    """C99 printing for a kernel body of element type `T`: literals as `T(...)` (no silent promotion of
    float32 to double), tensor elements and extents through the kernel's `ctx`, our functions by table."""

    # computed once: C89CodePrinter.__init__ otherwise rebuilds this table for every printer, one per body
    math_macros = get_math_macros()

    def __init__(self, ctx, settings=None):
        super().__init__(settings or {})
        self.ctx = ctx

    def spelling(self, row):
        """The spelling of an elementwise built-in (a row of primitives/elementwise.py) in this printer's
        language."""
        return row.cuda

    def parenthesize(self, item, level, strict=False):
        if getattr(item, "is_Number", False):      # printed as T(...), an atom
            return self._print(item)
        return super().parenthesize(item, level, strict)

    def _print_Integer(self, e):
        return f"T({int(e)})"

    def _print_Rational(self, e):
        return _cuda_float(e)

    def _print_Float(self, e):
        return _cuda_float(e)

    def _print_Half(self, e):
        return "T(0.5)"

    def _print_NegativeOne(self, e):
        return "T(-1)"

    def _print_Zero(self, e):
        return "T(0)"

    def _print_One(self, e):
        return "T(1)"

    def _print_Pi(self, e):
        return "T(3.141592653589793)"

    def _print_Exp1(self, e):
        return "T(2.718281828459045)"

    def _print_Symbol(self, e):
        if isinstance(e, Idx):
            return self.ctx.index(e)
        return e.name

    def _print_Idx(self, e):            # our Idx shares SymPy's class name: this takes its printer method
        return self.ctx.index(e)

    def _print_Infinity(self, e):
        return "T(INFINITY)"

    def _print_NegativeInfinity(self, e):
        return "(-T(INFINITY))"

    def select(self, cond, a, b):
        """C for `cond ? a : b` (codes already printed, parenthesized by the caller where they need it)."""
        return f"({cond} ? {a} : {b})"

    def _print_Mul(self, e):
        # [c]·u is a select, not a product: 0·NaN or 0·inf would be NaN where the mask says 0 (NumPy's np.where)
        masks = [a for a in e.args if type(a).__name__ == "Iverson"]
        if masks:
            rest = sp.Mul(*[a for a in e.args if a not in masks])
            cond = " && ".join(self._print(m.cond) for m in masks)
            return self.select(f"({cond})", f"({self._print(rest)})", "T(0)")
        return super()._print_Mul(e)

    def _print_Iverson(self, e):        # [j ≤ i]: a comparison of positions (derive/ir/masks.py)
        return self.select(self._print(e.cond), "T(1)", "T(0)")

    def _print_Extent(self, e):
        return f"T({self.ctx.extent(e.args[0].ext)})"

    def _print_KroneckerDelta(self, e):
        a, b = (self.ctx.index(x) for x in e.args)
        return f"({a} == {b} ? T(1) : T(0))"

    def _print_IndexSum(self, e):
        raise AssertionError("index sums are evaluated by Body before printing")

    def _print_Pow(self, e):
        b, x = e.args
        bs = self.parenthesize(b, 1000)   # atoms print bare, anything else in parentheses
        if x == 2:
            return f"tr_sq({self._print(b)})"
        if x == -1:
            return f"(T(1) / {bs})"
        if x == -2:
            return f"(T(1) / tr_sq({self._print(b)}))"
        if x == sp.S.Half:
            return spell(self.spelling(ir.ELEMENTWISE_ROW["sqrt"]), [self._print(b)])
        if x == -sp.S.Half:
            return f"rsqrt({self._print(b)})"
        if x == 3:
            return f"({bs} * tr_sq({self._print(b)}))"
        return spell(self.spelling(ir.ELEMENTWISE_ROW["pow"]), [self._print(b), self._print(x)])

    def _print_Function(self, e):
        if isinstance(e, AppliedUndef):
            return self.ctx.access(e)
        name = type(e).__name__
        if name == "log" and isinstance(e.args[0], ir.sigmoid):
            # log σ(u) = -softplus(-u): finite where σ(u) underflows
            return f"(-{spell(self.spelling(ir.NODES['softplus']), [self._print(-e.args[0].args[0])])})"
        row = ir.NODES.get(name)
        fn = self.spelling(row) if row is not None else _OWN.get(name)
        if fn is None:
            raise NotImplementedError(f"no CUDA spelling for {name}")
        # a condition prints parenthesized or as a name
        return spell(fn, [self._print(a) for a in e.args])

    def _print_Relational(self, e):
        op = {"==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}[e.rel_op]
        return f"({self._print(e.lhs)} {op} {self._print(e.rhs)})"

    def _print_BooleanTrue(self, e):
        return "true"

    def _print_BooleanFalse(self, e):
        return "false"


# every function node prints through the table, past the C99 printer's own methods for exp, Abs, sign…
for _name in (*ir.NODES, *_OWN):
    setattr(CudaPrinter, f"_print_{_name}", CudaPrinter._print_Function)


# -----------------------------------------------------------------------------------------------------------
# Index helpers


def free_of(e) -> set:
    """Free index symbols of e (those not bound by an IndexSum)."""
    return set(ir.free_indices(e, e.atoms(Idx))) if isinstance(e, sp.Basic) else set()


def idx_order(e) -> list:
    """Free indices of e in order of first appearance (deterministic: SymPy orders arguments canonically)."""
    return ir.free_indices(e, e.atoms(Idx))


def _sorted_idx(s):
    return tuple(sorted(s, key=lambda i: (i.name, i.ext)))


def outer_accesses(e):
    """Tensor accesses of e, including those inside index sums."""
    return [a for a in sp.preorder_traversal(e) if ir.is_access(a)]


def read_names(e) -> set:
    return {ir.acc_name(a) for a in outer_accesses(e)}


def _has_sum(e):
    return any(isinstance(a, IndexSum) for a in sp.preorder_traversal(e))


def _has_function(e):
    """Whether e calls an (expensive) function; a max_shift is a load, not worth a temp of its own."""
    return any(isinstance(a, sp.Function) and not isinstance(a, (AppliedUndef, Extent, max_shift))
               for a in sp.preorder_traversal(e))


def _is_sum_of_exp(e):
    return isinstance(e, IndexSum) and isinstance(e.body, sp.exp)


def _is_plain_access(e):
    return ir.is_access(e) and len(set(e.args)) == len(e.args) and all(isinstance(a, Idx) for a in e.args)


def _is_multilinear_sum(e):
    """An index sum whose summand is a product of tensor elements and constants (a contraction)."""
    if not isinstance(e, IndexSum):
        return False
    return all(ir.is_access(f) or not free_of(f) and not _has_function(f) for f in sp.Mul.make_args(e.body))


# -----------------------------------------------------------------------------------------------------------
# Pieces: what one kernel launch computes

GEMM_MAX_DIMS = 3          # indices per group (rows, columns, reduced, batch) the generic tiled kernel takes


@dataclass
class Piece:
    """One kernel's worth of a statement.

    map:    target[I] (+)= Σ terms, elementwise over I
    reduce: target[I] (+)= Σ_t outer_t · Σ_K inner_t (one thread or warp per element of I, loop over K);
            with op "max", target[I] = max_K inner (one term, outer 1), read back through max_shift only
    gemm:   target[I] (+)= outer · Σ_K a·b with a, b plain accesses (rows, cols, batch, reduction groups)
    prim:   a matrix primitive statement, or a primitive's differential given as code (an OpaqueLin)
    """

    kind: str
    target: str
    indices: tuple
    terms: list = field(default_factory=list)      # map: [expr]; reduce/gemm: [(outer, inner)]
    sums: tuple = ()
    stmt: object = None                             # prim: the ir.Stmt or calculus.OpaqueLin
    gemm: dict | None = None                        # gemm: a, b, rows, cols, batch, red, alpha, alpha_buf
    single: bool = True                             # the target's only piece (so fusing readers may use it)
    op: str = "sum"                                 # reduce: "sum", or "max" (the shift of a log-sum-exp)

    def reads(self) -> set:
        if self.kind == "prim":
            if isinstance(self.stmt, OpaqueLin):
                return set(self.stmt.saved) | {self.stmt.arg}
            return set(self.stmt.args)
        out = set()
        for t in self.terms:
            for e in (t if isinstance(t, tuple) else (t,)):
                out |= read_names(e)
        return out


class Planner:
    """Plans a sequence of statements into Pieces, naming intermediates `_c<n>` (shared when equal)."""

    def __init__(self, is_linear, prefix="_c"):
        self.is_linear = is_linear            # name -> bool: a (co)tangent, read as zero when absent
        self.pieces: list[Piece] = []
        self.temps: dict = {}                 # new temp name -> classes
        self.linear_temps: set = set()
        self._registry: dict = {}
        self._count = itertools.count()
        self.prefix = prefix

    # -- temporaries ---------------------------------------------------------------------------------------
    def register(self, key, classes):
        """(name, new): the temp that holds what `key` describes, named (over `classes`) the first time."""
        name = self._registry.get(key)
        if name is not None:
            return name, False
        name = f"{self.prefix}{next(self._count)}"
        self._registry[key] = name
        self.temps[name] = tuple(classes)
        return name, True

    def temp(self, expr, order=None):
        """An access to a temp holding expr over its free indices (ordered by `order` or first appearance)."""
        order = list(order) if order is not None else idx_order(expr)
        ren = {s: Idx(f"_f{k}", s.ext) for k, s in enumerate(order)}
        key = (sp.srepr(canon_bound(expr.xreplace(ren))), tuple(s.ext for s in order))
        name, new = self.register(key, tuple(s.ext for s in order))
        if new:
            if any(self.linear(n) for n in read_names(expr)):
                self.linear_temps.add(name)
            self.assign(name, tuple(order), [expr])
        return ir.access(name, tuple(order))

    def linear(self, name):
        return name in self.linear_temps or self.is_linear(name)

    def shift(self, u, K):
        """max_shift of a temp holding max_K u over u's other free indices (shared when equal)."""
        s = IndexSum(u, K)
        order = idx_order(s)
        ren = {x: Idx(f"_f{k}", x.ext) for k, x in enumerate(order)}
        key = ("max", sp.srepr(canon_bound(s.xreplace(ren))), tuple(x.ext for x in order))
        name, new = self.register(key, tuple(x.ext for x in order))
        if new:
            self.pieces.append(Piece("reduce", name, tuple(order), [(sp.S.One, u)],
                                     sums=order_sums(tuple(K), [(None, u, None)]), op="max"))
        return max_shift(ir.access(name, tuple(order)))

    def _shiftable(self, s):
        """Σ_K exp(u) with u free of (co)tangents (those enter linearly: there is no maximum to take)."""
        return _is_sum_of_exp(s) and not any(self.linear(n) for n in read_names(s.body))

    def _stabilize(self, e):
        """log Σ_K exp(u) -> log Σ_K exp(u - M) + M and exp(w)·(Σ_K exp(u))⁻¹ -> exp(w - M)·(Σ_K exp(u - M))⁻¹,
        M the shift of max_K u: no overflow for large u, no underflow to log 0 for very negative u (the NumPy
        code's emit_logsumexp and stable_softmax)."""
        if not e.args or ir.is_access(e) or not _has_sum(e):
            return e
        if isinstance(e, IndexSum):
            return IndexSum(self._stabilize(e.body), e.indices)
        if isinstance(e, sp.Add):
            # rest ± log Σ exp(u) -> (rest ± M) ± log Σ exp(u - M): rest - M is exact where rest is near the
            # maximum (log-softmax), and only the small log Σ is added after; -log Σ - M + x lost the low bits
            # of x - M to the rounding of log Σ + M (20 % at 1e15 in float64)
            for a in e.args:
                for sgn in (1, -1):
                    lg = sgn * a
                    if isinstance(lg, sp.log) and self._shiftable(self._stabilize(lg.args[0])):
                        s = self._stabilize(lg.args[0])
                        u = s.body.args[0]
                        m = self.shift(u, s.indices)
                        rest = sp.Add(*[self._stabilize(x) for x in e.args if x is not a])
                        return grouped(rest + sgn * m) + sgn * sp.log(IndexSum(sp.exp(u - m), s.indices))
        args = [self._stabilize(a) for a in e.args]
        if isinstance(e, sp.log) and self._shiftable(args[0]):
            s = args[0]
            u = s.body.args[0]
            m = self.shift(u, s.indices)
            return sp.log(IndexSum(sp.exp(u - m), s.indices)) + m
        if isinstance(e, sp.Mul):
            dens = [f for f in args if isinstance(f, sp.Pow) and f.exp == -1 and self._shiftable(f.base)]
            nums = [f for f in args if isinstance(f, sp.exp)]
            if len(dens) == 1 and nums:
                d, n = dens[0], nums[0]
                s = d.base
                u = s.body.args[0]
                m = self.shift(u, s.indices)
                rest = [f for f in args if f is not d and f is not n]
                return sp.Mul(*rest) * sp.exp(n.args[0] - m) / IndexSum(sp.exp(u - m), s.indices)
        return e.func(*args)

    # -- statements ----------------------------------------------------------------------------------------
    def prim(self, st):
        self.pieces.append(Piece("prim", st.target, tuple(st.indices), stmt=st))

    def opaque(self, ls):
        """target = prim.jvp/vjp(saved..., arg): a linear map given as code, run by the primitive's kernel."""
        self.linear_temps.add(ls.target)
        self.pieces.append(Piece("prim", ls.target, tuple(ls.indices), stmt=ls))

    def assign(self, target, I, terms):
        """target[I] = Σ terms (each an expression, a top-level IndexSum marking a reduction)."""
        I = tuple(I)
        Iset = set(I)
        map_terms: list = []
        groups: dict = {}
        direct: list = []                     # pieces planned from single terms (gemm / reduce chains)
        for term in _join_lse(terms):
            term = self._stabilize(term)
            split = _split_sum(term)
            if split is None:
                map_terms.append(self._materialize_sums(term))
                continue
            outer, K, inner = split
            # factors free of the reduced indices leave the sum
            ins, outs = [], [outer]
            for f in sp.Mul.make_args(inner):
                (ins if free_of(f) & set(K) else outs).append(f)
            outer, inner = sp.Mul(*outs), sp.Mul(*ins)
            inner = self._hoist(inner, free_of(inner) | set(K), set(K))
            ins, outs = [], [outer]
            for f in sp.Mul.make_args(inner):
                (ins if free_of(f) else outs).append(f)
            outer, inner = sp.Mul(*outs), sp.Mul(*ins)
            outer = self._materialize_sums(outer)
            R = free_of(inner) - set(K)
            ops = self._operands(inner, R, set(K))
            if ops is not None:
                if R < Iset:
                    map_terms.append(outer * self._contract(ops, _ordered(R, I, inner), K))
                else:
                    direct.append((outer, ops, K))
                continue
            groups.setdefault(_sorted_idx(K), []).append((outer, inner, R))
        pieces: list = []
        for K, items in groups.items():
            if len(items) == 1 and items[0][2] < Iset:
                outer, inner, R = items[0]
                map_terms.append(outer * self.temp(IndexSum(inner, K), _ordered(R, I, inner)))
                continue
            pieces.append(Piece("reduce", target, I, [(o, i) for o, i, _ in items], sums=order_sums(K, items)))
        for outer, ops, K in direct:
            pieces.append(self._final_contraction(target, I, outer, ops, K))
        # a direct contraction may come back as elementwise (an outer product): fold it into the map part
        extra = [p for p in pieces if p.kind == "map"]
        pieces = [p for p in pieces if p.kind != "map"]
        for p in extra:
            map_terms.extend(p.terms)
        if map_terms:
            pieces.insert(0, Piece("map", target, I, map_terms))
        for p in pieces:
            p.single = len(pieces) == 1
        self.pieces.extend(pieces)

    # -- rewriting -----------------------------------------------------------------------------------------
    def _materialize_sums(self, e):
        """Every outermost index sum inside an elementwise expression becomes a temp over its free indices."""
        if isinstance(e, IndexSum):
            return self.temp(e)
        if not e.args or ir.is_access(e) or not _has_sum(e):
            return e
        return e.func(*[self._materialize_sums(a) for a in e.args])

    def _hoist(self, e, S, K):
        """Loop-invariant code motion inside a summand over index space S: an expensive subexpression that
        misses some index of S becomes a temp — unless it couples the output and reduced indices through a
        nonlinear pairwise term (a kernel matrix), which KeOps-style evaluation must never materialize."""
        if ir.is_access(e) or isinstance(e, IndexSum) or not e.args or not free_of(e):
            return e
        F = free_of(e)
        if F < S and (_has_sum(e) or _has_function(e)):
            couples = bool(F & K) and bool(F - K)
            contraction = any(_is_multilinear_sum(a) for a in sp.preorder_traversal(e))
            if not couples or contraction:
                return self.temp(e)
        if isinstance(e, (sp.Add, sp.Mul, sp.Pow)) or isinstance(e, sp.Function):
            return e.func(*[self._hoist(a, S, K) for a in e.args])
        return e

    def _operands(self, inner, R, K):
        """Operands of a multilinear contraction (factors grouped by index set, each a plain access), or None."""
        S = R | K
        groups: dict = {}
        for f in sp.Mul.make_args(inner):
            groups.setdefault(frozenset(free_of(f)), []).append(f)
        if len(groups) < 2 or any(not (g < S) for g in groups):
            return None
        ops = []
        for g, fs in groups.items():
            e = sp.Mul(*fs)
            if len(fs) == 1 and _is_plain_access(fs[0]):
                ops.append(fs[0])
                continue
            # a factor coupling output and reduced indices is materialized only when an existing tensor
            # already spans them (never a kernel matrix built from vectors: that stays a map-reduce)
            spans = any(set(a.args) >= g for a in outer_accesses(e))
            if g & K and g - K and not spans:
                return None
            ops.append(self.temp(e, _ordered(g, (), e)))
        # an index summed in one operand only is summed there first
        out = []
        for k, op in enumerate(ops):
            others = set().union(*[set(o.args) for j, o in enumerate(ops) if j != k])
            lone = [s for s in op.args if s in K and s not in others]
            if lone:
                keep = [s for s in op.args if s not in lone]
                op = self.temp(IndexSum(op, lone), keep)
            out.append(op)
        return out

    def _contract(self, ops, out_order, K):
        """A temp holding Σ_K Π ops over out_order (pairwise, in opt_einsum's greedy order)."""
        return self.temp(IndexSum(sp.Mul(*ops), [k for k in K if any(k in o.args for o in ops)]), out_order)

    def _final_contraction(self, target, I, outer, ops, K):
        ops = list(ops)
        keep = set(I)
        while len(ops) > 2:
            i, j = _best_pair(ops, I)
            a, b = ops[i], ops[j]
            rest = [o for k, o in enumerate(ops) if k not in (i, j)]
            need = keep | {s for o in rest for s in o.args}
            pair_out = [s for s in dict.fromkeys(list(a.args) + list(b.args)) if s in need]
            summed = [s for s in dict.fromkeys(a.args) if s in b.args and s not in need]
            new = self.temp(IndexSum(a * b, summed), pair_out) if summed else self.temp(a * b, pair_out)
            ops = rest + [new]
        if len(ops) == 1:
            a = ops[0]
            summed = tuple(s for s in a.args if s not in keep)
            if not summed:
                return Piece("map", target, I, [outer * a])
            return Piece("reduce", target, I, [(outer, a)], sums=summed)
        a, b = ops
        summed = [s for s in dict.fromkeys(list(a.args) + list(b.args)) if s not in keep]
        if not summed:
            return Piece("map", target, I, [outer * a * b])
        sa, sb = set(a.args), set(b.args)
        rows = [s for s in I if s in sa and s not in sb]
        cols = [s for s in I if s in sb and s not in sa]
        if I and I[-1] in sa and I[-1] not in sb:        # the target's fastest axis runs along gemm columns
            a, b, sa, sb, rows, cols = b, a, sb, sa, cols, rows
        batch = [s for s in I if s in sa and s in sb]
        lone = [s for s in summed if not (s in sa and s in sb)]
        if rows and cols and not lone and max(len(rows), len(cols), len(batch), len(summed)) <= GEMM_MAX_DIMS:
            num, rest = outer.as_coeff_Mul()
            if free_of(rest):
                # the generic tiled kernel scales by a scalar only: an indexed factor is applied afterwards
                return Piece("map", target, I, [outer * self.temp(IndexSum(a * b, summed), I)])
            alpha = None
            if rest != 1:                               # a scalar tensor, or one computed on the device first
                acc = rest if ir.is_access(rest) else self.temp(rest, ())
                alpha, outer = ir.acc_name(acc), num * acc
            # reduction order follows the operand whose fastest axis is reduced (coalesced tile loads)
            red = [s for s in (a.args if a.args[-1] in summed else b.args) if s in summed]
            return Piece("gemm", target, I, [(outer, a * b)], sums=tuple(red),
                         gemm={"a": a, "b": b, "rows": rows, "cols": cols, "batch": batch, "red": red,
                               "alpha": float(num), "alpha_buf": alpha})
        return Piece("reduce", target, I, [(outer, a * b)], sums=tuple(summed))


def _join_lse(terms):
    """A log-sum-exp term joined with the elementwise terms it is added to, so _stabilize can subtract the
    maximum from them first (log-softmax: (x - M) - log Σ exp(x - M))."""
    lse = [t for t in terms if any(isinstance(g * t, sp.log) and _is_sum_of_exp((g * t).args[0])
                                   for g in (1, -1))]
    if len(lse) == 1:
        plain = [t for t in terms if t is not lse[0] and _split_sum(t) is None]
        if plain:
            return [sp.Add(lse[0], *plain)] + [t for t in terms if t is not lse[0]
                                               and not any(t is q for q in plain)]
    return terms


def _split_sum(term):
    """(outer, K, inner) for outer · Σ_K inner, or None when the term has no top-level sum."""
    if isinstance(term, IndexSum):
        inner, K = term.body, list(term.indices)
        while isinstance(inner, IndexSum):
            K += list(inner.indices)
            inner = inner.body
        return sp.S.One, tuple(K), inner
    if isinstance(term, sp.Mul):
        sums = [f for f in term.args if isinstance(f, IndexSum)]
        if len(sums) == 1:
            rest = sp.Mul(*[f for f in term.args if f is not sums[0]])
            o, K, inner = _split_sum(sums[0])
            if not (free_of(rest) & set(K)):
                return rest * o, K, inner
    return None


def _ordered(R, I, expr):
    """R's indices: those of I first in I's order, then the rest in order of appearance in expr."""
    out = [s for s in I if s in R]
    out += [s for s in idx_order(expr) if s in R and s not in out]
    out += [s for s in _sorted_idx(R) if s not in out]
    return out


def order_sums(K, items):
    """Reduced indices ordered so the fastest-varying one is the last axis of the first access that has it."""
    for _, inner, _ in items:
        for a in outer_accesses(inner):
            if a.args and a.args[-1] in K:
                first = list(dict.fromkeys(s for s in a.args if s in K))
                return tuple([s for s in K if s not in first] + first)
    return tuple(K)


def _best_pair(ops, out_axes):
    letters: dict = {}
    specs = ["".join(letters.setdefault(x, opt_einsum.get_symbol(len(letters))) for x in o.args) for o in ops]
    out = "".join(letters[x] for x in out_axes if x in letters)
    shapes = [(64,) * len(s) for s in specs]
    path, _ = opt_einsum.contract_path(",".join(specs) + "->" + out, *shapes, shapes=True, optimize="greedy")
    i, j = path[0]
    return (i, j) if i < j else (j, i)


# -----------------------------------------------------------------------------------------------------------
# Scalar bodies: index sums become loops, repeated subexpressions are computed once


class Body:
    """Lines of device code evaluating expressions in a scope where some indices are bound to C variables."""

    def __init__(self, kernel, index_names, indent="    ", parent=None):
        self.kernel = kernel                   # provides access(e, body), extent(cls), fresh(hint)
        self.index_names = dict(index_names)   # Idx -> C variable
        self.indent = indent
        self.lines: list[str] = []
        self.parent = parent
        self.printer = CudaPrinter(self)

    # the printer's context
    def index(self, s):
        try:
            return self.index_names[s]
        except KeyError:
            raise AssertionError(f"index {s} is not bound in this kernel") from None

    def extent(self, cls):
        return self.kernel.extent(cls)

    def access(self, e):
        return self.kernel.access(e, self)

    def line(self, s):
        self.lines.append(self.indent + s)

    def print(self, e):
        return self.printer.doprint(e)

    def values(self, exprs, hint="v"):
        """C expressions for exprs, after emitting the lines that compute their shared parts."""
        exprs = cuda_shifts.bind(self, exprs)       # reads at shifted positions: offsets, never values
        placeholders: dict = {}

        def abstract(e):
            if isinstance(e, IndexSum):
                key = canon_bound(e)
                if key not in placeholders:
                    placeholders[key] = sp.Symbol(self.kernel.fresh("s"), real=True)
                return placeholders[key]
            if not e.args or ir.is_access(e) or not _has_sum(e):
                return e
            return e.func(*[abstract(a) for a in e.args])

        abstracted = [abstract(e) for e in exprs]
        by_symbol = {v: k for k, v in placeholders.items()}
        done: set = set()

        def need(e):
            for s in sorted(e.free_symbols & set(by_symbol), key=lambda s: s.name):
                if s not in done:
                    done.add(s)
                    self.emit_sum(s.name, by_symbol[s])

        gen = (sp.Symbol(self.kernel.fresh(hint), real=True) for _ in itertools.count())
        reps, reduced = sp.cse(abstracted, symbols=gen, order="none")
        for s, e in reps:
            need(e)
            self.line(f"const T {s.name} = {self.print(e)};")
        out = []
        for e in reduced:
            need(e)
            out.append(self.print(e))
        return out

    def emit_sum(self, var, e):
        self.line(f"T {var} = T(0);")
        names = dict(self.index_names)
        opened = []
        for s in e.indices:
            v = self.kernel.fresh("k")
            names[s] = v
            self.line("    " * len(opened) + f"for (long long {v} = 0; {v} < {self.kernel.extent(s.ext)}; ++{v}) {{")
            opened.append(v)
        inner = type(self)(self.kernel, names, self.indent + "    " * len(opened), self)
        (code,) = inner.values([e.body])
        self.lines.extend(inner.lines)
        self.line("    " * len(opened) + f"{var} += {code};")
        for k in reversed(range(len(opened))):
            self.line("    " * k + "}")


def scale_power(f):
    """A power s⁻ⁿ (n ≥ 2) of a scalar: no index, not a number (a parameter such as a kernel's scale)."""
    return (isinstance(f, sp.Pow) and f.exp.is_Integer and f.exp <= -2 and not f.base.is_number
            and not f.base.atoms(Idx))


def scaled_results(body, outers, accs):
    """outer_j · acc_j as C code for each j, a scale power s⁻ⁿ of outer_j printed as acc_j / s / s: 1/(s·s)
    overflows (float32 s = 2e-24) or underflows where the whole is finite (numpy_contract's emit_scaled)."""
    split = [[f for f in sp.Mul.make_args(o) if scale_power(f)] for o in outers]
    rests = [sp.Mul(*[f for f in sp.Mul.make_args(o) if f not in sc]) for o, sc in zip(outers, split)]
    bases = [f.base for sc in split for f in sc for _ in range(-int(f.exp))]
    codes = body.values(rests + bases)
    rest_codes, base_codes = codes[:len(rests)], iter(codes[len(rests):])
    parts = []
    for o, sc, acc in zip(rest_codes, split, accs):
        n = sum(-int(f.exp) for f in sc)
        a = f"({acc}{''.join(f' / {next(base_codes)}' for _ in range(n))})" if n else acc
        parts.append(a if o == "T(1)" else f"{o} * {a}")
    return parts

