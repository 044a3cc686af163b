"""The intermediate representation: SymPy scalar expressions over tensor elements, plus explicit index sums.

A tensor element `A[i,k]` is an applied undefined function `A(i, k)` whose arguments are index symbols;
`IndexSum(body, (k,))` is a sum over the whole range of k. Everything else (arithmetic, elementary
functions, Kronecker deltas) is plain SymPy, so SymPy does the scalar algebra and we do the index algebra.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import mpmath
import sympy as sp
from mpmath.libmp import prec_to_dps
from sympy.codegen import cfunctions

from derive.ir.atoms import (  # noqa: F401  the IR's atoms, which every stage imports from here
    Extent,
    Idx,
    IndexSum,
    KroneckerDelta,
    acc_name,
    access,
    is_access,
    tensor_fn,
)
from derive.ir.masks import where_on_indices
from primitives import matrix as _primitives
from primitives.elementwise import BY_NAME as ELEMENTWISE_ROW
from primitives.elementwise import ROWS as ELEMENTWISE_ROWS
from primitives.elementwise import Elementwise
from primitives.elementwise import resolve as elementwise_resolve

# ---------------------------------------------------------------------------------------------------------
# Reductions other than sum


class IndexReduce(sp.Expr):
    """max, min or Π over the full range of each index in `indices` of `body` (bound, like IndexSum's).

    Lowering gives each reduction a statement of its own, `R[I] = IndexMax(T[I,K], K)` (derive.lowering.reductions owns
    the rest: linearization, printing); SymPy's own Max/Product would evaluate and differentiate it wrongly."""

    is_commutative = True
    is_real = True
    op = ""

    def __new__(cls, body, indices):
        return sp.Expr.__new__(cls, body, sp.Tuple(*indices))

    body = IndexSum.body
    indices = IndexSum.indices
    free_symbols = IndexSum.free_symbols
    _eval_subs = IndexSum._eval_subs


class IndexMax(IndexReduce):
    op = "max"


class IndexMin(IndexReduce):
    op = "min"


class IndexProd(IndexReduce):
    op = "prod"


class ProdExcept(sp.Function):
    """ProdExcept(T[I,K], *K) at [I,K]: the product of T[I,K'] over every K' but K (prod's partials, without
    dividing by T, so exact where factors are zero). Every index is free."""

    is_real = True


# ---------------------------------------------------------------------------------------------------------
# Functions SymPy lacks, each with its derivative written through its own value where that is cheaper


def _evalf_as(self, expr, prec):
    """A constant call's numeric value (softplus(1/2) as a float) through an equivalent SymPy expression."""
    if not all(a.is_number for a in self.args):
        return None
    return expr.evalf(prec_to_dps(prec))


class sigmoid(sp.Function):
    is_real = True

    def fdiff(self, argindex=1):
        # σ(x)·σ(-x), not σ(x)·(1 - σ(x)): 1 - σ(x) rounds to 0 for large x, where σ(-x) keeps its digits
        return sigmoid(self.args[0]) * sigmoid(-self.args[0])


class erfc(sp.Function):
    """1 - erf(x), kept as written: SymPy's erfc rewrites erfc(-x) as 2 - erfc(x), which cancels for x ≫ 0 (gelu
    written x·erfc(-x/√2)/2 is 0 at x = -10 that way, where it is -7.6e-23)."""

    is_real = True

    def _eval_evalf(self, prec):
        return _evalf_as(self, sp.erfc(self.args[0]), prec)

    def fdiff(self, argindex=1):
        return -2 / sp.sqrt(sp.pi) * sp.exp(-self.args[0] ** 2)


class softplus(sp.Function):
    is_real = True

    def _eval_evalf(self, prec):
        return _evalf_as(self, sp.log(1 + sp.exp(self.args[0])), prec)

    def fdiff(self, argindex=1):
        return sigmoid(self.args[0])


class step(sp.Function):
    """Heaviside step with step(0) = 0: the derivative of relu (a subgradient choice, as PyTorch makes)."""

    is_real = True

    def _eval_evalf(self, prec):
        return _evalf_as(self, sp.Piecewise((sp.S.One, self.args[0] > 0), (sp.S.Zero, True)), prec)

    def fdiff(self, argindex=1):
        return sp.S.Zero


class relu(sp.Function):
    is_real = True

    def _eval_evalf(self, prec):
        return _evalf_as(self, sp.Max(self.args[0], sp.S.Zero), prec)

    def fdiff(self, argindex=1):
        return step(self.args[0])


class where(sp.Function):
    """where(cond, a, b): a where cond holds, else b; differentiable in a and b, not in cond."""

    nargs = 3
    is_real = True

    @classmethod
    def eval(cls, c, a, b):
        # a condition SymPy decides (Ne(1/p, 0) is True) picks its branch: there is nothing to print
        if c is sp.true:
            return a
        if c is sp.false:
            return b
        return where_on_indices(c, a, b)      # a comparison of indices is a 0/1 factor (derive/ir/masks.py)

    def fdiff(self, argindex=1):
        c, a, b = self.args
        if argindex == 1:
            return sp.S.Zero
        if argindex == 2:
            return where(c, sp.S.One, sp.S.Zero)
        return where(c, sp.S.Zero, sp.S.One)


class sign(sp.Function):
    is_real = True

    def fdiff(self, argindex=1):
        return sp.S.Zero


def log_or_softplus(u):
    """log, with log(1 + exp(v)) read as softplus(v): the text means log(1 + eᵛ), which is v at v = 1000, where
    the literal form overflows to inf; softplus keeps its value in both tails (as XLA rewrites log(1 + x))."""
    if isinstance(u, sp.Add) and len(u.args) == 2 and sp.S.One in u.args:
        rest = u - 1
        if isinstance(rest, sp.exp):
            return softplus(rest.args[0])
    return sp.log(u)


def reciprocal(u):
    """1/u, with 1/(1 + exp(-v)) read as sigmoid(v): the text means the logistic function, whose derivative
    written literally, e⁻ᵛ/(1 + e⁻ᵛ)², is inf/inf = NaN at v = -1000 (float64) or -100 (float32), where the true
    one is tiny; sigmoid keeps value and derivative in both tails (as log(1 + exp(v)) is read as softplus)."""
    if isinstance(u, sp.Add) and len(u.args) == 2 and sp.S.One in u.args:
        rest = u - 1
        if isinstance(rest, sp.exp):
            return sigmoid(-rest.args[0])
    return 1 / u


# The elementwise built-ins: primitives.elementwise's rows (names, arities, domains, spellings), each joined
# here with its SymPy constructor, which a row names (OWN_FUNCTIONS first, then SymPy's) or leaves to
# `function_of_row`. Printers find a row by the class name of the SymPy node (NODES).

# derive's own SymPy functions, by the names the rows' `sympy` column gives
OWN_FUNCTIONS = {"sigmoid": sigmoid, "softplus": softplus, "step": step, "relu": relu, "where": where,
                 "sign": sign, "log_or_softplus": log_or_softplus, "erfc": erfc}


@dataclass(frozen=True)
class Builtin:
    row: Elementwise
    fn: object                     # the SymPy constructor: args -> expression

    @property
    def arity(self) -> int:
        return self.row.arity


class _SympyNamespace:
    """The namespace a row's dydx(np, y, x) is written over, as SymPy: np.<numpy spelling> is that row's
    constructor, so the derivative the runtime traces is the one derive differentiates with."""

    def __getattr__(self, name):
        for b in ELEMENTWISE.values():
            if b.row.numpy == name:
                return b.fn
        raise AttributeError(f"no elementwise built-in is spelled np.{name}")


def _exact(e):
    """Short decimal constants of a row's dydx (1.0, 3.0, 0.5) as SymPy rationals, so they simplify and print as
    the other rows' derivatives do; others (2/√π as a float) stay floats."""
    floats = {f: sp.Rational(repr(float(f))) for f in e.atoms(sp.Float) if len(repr(float(f)).lstrip("-")) <= 8}
    return e.xreplace(floats).doit()      # doit: evaluated, as if built with evaluation on


def function_of_row(row: Elementwise):
    """A SymPy function for a row that names none: its derivative from the row's dydx, its value at numbers
    from the row's mpmath reference (a constant call prints as a number, as SymPy's own functions do)."""
    reference = elementwise_resolve(mpmath, row.mpmath, row.name)

    def fdiff(self, argindex=1):
        with sp.evaluate(False):         # keep 1.0/(3.0·y²) apart until its constants are exact
            d = row.dydx(_SympyNamespace(), self, self.args[0])
        return _exact(d)

    def _eval_evalf(self, prec):
        if not all(a.is_number for a in self.args):
            return None
        with mpmath.workprec(prec):
            return sp.Float(reference(*(mpmath.mpf(sp.Float(a.evalf(prec_to_dps(prec)))) for a in self.args)),
                            precision=prec)
    return type(row.name, (sp.Function,), {"nargs": row.arity, "is_real": True, "fdiff": fdiff,
                                           "_eval_evalf": _eval_evalf, "__module__": __name__})


def _constructor(row: Elementwise):
    if row.sympy is None:
        return function_of_row(row)
    fn = OWN_FUNCTIONS.get(row.sympy) or getattr(sp, row.sympy, None) or getattr(cfunctions, row.sympy, None)
    if fn is None:
        raise ImportError(f"primitives.elementwise row {row.name!r}: no SymPy function {row.sympy!r}")
    return fn


ELEMENTWISE = {r.name: Builtin(r, _constructor(r)) for r in ELEMENTWISE_ROWS}
# SymPy node class name -> row; power nodes (sqrt, pow) go to the printers' power rules instead
NODES = {r.node_name: r for r in ELEMENTWISE_ROWS if r.node_name != "Pow"}

# Matrix primitives of the language, each declared once in primitives/matrix/<name>.py; trace and transpose are
# linear and lower to index expressions
MATRIX_PRIMITIVES = {n: p for n, p in _primitives.PRIMITIVES.items() if p.user}
ALL_PRIMITIVES = _primitives.PRIMITIVES
MATRIX_FUNCTIONS = tuple(MATRIX_PRIMITIVES) + ("trace", "transpose")

# ---------------------------------------------------------------------------------------------------------
# Index helpers


def free_indices(e, index_set) -> list:
    """Free index symbols of e (those in index_set not bound by an IndexSum), in order of first appearance."""
    out: list = []

    def walk(x, bound):
        if isinstance(x, sp.Symbol):
            if x in index_set and x not in bound and x not in out:
                out.append(x)
            return
        if isinstance(x, (IndexSum, IndexReduce)):
            walk(x.body, bound | set(x.indices))
            return
        if isinstance(x, Extent):      # size(i) is a number, not a use of index i
            return
        for a in x.args:
            walk(a, bound)

    walk(e, frozenset())
    return out


def accesses(e, names=None) -> list:
    """Every tensor access in e (optionally only of the given names), outermost first."""
    return [a for a in sp.preorder_traversal(e) if is_access(a) and (names is None or acc_name(a) in names)]




# ---------------------------------------------------------------------------------------------------------
# The program a rule lowers to


@dataclass
class TensorVar:
    name: str
    kind: str                      # 'tensor' | 'scalar' | 'int'
    classes: tuple                 # extent class of each axis (strings)
    role: str = "input"            # 'input' | 'output' | 'temp'
    indices: tuple = ()            # the header's index letters (for signatures); () for temps
    domain: str = ""               # the domain its header declares (derive.language.domains text); "" where none

    @property
    def rank(self) -> int:
        return len(self.classes)

    @property
    def differentiable(self) -> bool:
        return self.kind != "int"


@dataclass
class Stmt:
    """`target[indices] = expr` (expr a SymPy scalar expression), or a matrix primitive when prim is set.

    For a primitive, `prim` is the op name and `args` the argument tensor names; the matrix axes are the
    last two of each argument (batch axes lead, as in NumPy) and the target has the primitive's natural layout.
    """

    target: str
    indices: tuple
    expr: sp.Expr | None = None
    prim: str | None = None
    args: tuple = ()
    line: int = 0


@dataclass
class Program:
    name: str
    inputs: list
    outputs: list
    temps: list
    stmts: list
    index_class: dict                      # index Symbol -> extent class (all statements' indices)
    equal_extents: list = field(default_factory=list)
    source: str = ""
    doc: str = ""
    signature: str = ""
    domains: dict = field(default_factory=dict)   # input name -> 'real' | 'positive' | 'spd' | 'wellcond'
    extents: dict = field(default_factory=dict)   # index letter -> extent declared in the header (x[i:3])
    shifts: object = None                         # derive.lowering.shifts.Shifts: extents shifted subscripts imply

    @property
    def elementwise(self) -> bool:
        """Every statement maps element to element over one index list: the op works for any shape."""
        idx = None
        if self.shifts:
            return False
        for st in self.stmts:
            if st.prim or st.expr.has(IndexSum) or st.expr.has(sp.KroneckerDelta) or st.expr.has(Extent):
                return False
            names = tuple(s.name for s in st.indices)
            idx = names if idx is None else idx
            if names != idx or len(names) != 1:
                return False
            for a in accesses(st.expr):
                if a.args and tuple(a.args) != tuple(st.indices):
                    return False
        # every tensor input is read over the output's own index (one unused, or over another index, would be
        # refused for a shape it may have), and no extent is fixed in the signature
        outs = {v.classes for v in self.outputs}
        return idx is not None and len(outs) == 1 and not self.extents and \
            all(v.kind != "tensor" or v.rank == 0 or v.classes in outs for v in self.inputs)

    def var(self, name: str) -> TensorVar:
        for v in itertools.chain(self.inputs, self.outputs, self.temps):
            if v.name == name:
                return v
        raise KeyError(name)

    @property
    def all_vars(self):
        return list(itertools.chain(self.inputs, self.temps, self.outputs))
