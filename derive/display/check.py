"""Numbers for the displays: a derived statement evaluated from its index form, and a matrix form from its own
structure (products as matrix products, ᵀ as transposes), at one random point, so a wrong form is never shown.
"""
from __future__ import annotations

import contextvars
import logging

import numpy as np
import sympy as sp

from derive.calculus.differential import TAN, base_name
from derive.ir import nodes as ir
from derive.ir.masks import Iverson
from derive.ir.nodes import Extent, Idx, IndexSum
from derive.language import domains
from primitives.matrix import PRIMITIVES
from primitives.special import others_product

log = logging.getLogger("derive.display")

# Why each matrix form that was not shown failed its check (newest last): (statement target, form, reason)
rejections: list = []

TOL = 1e-8


class Mismatch(Exception):
    """The matrix form's structure has no value (shapes do not fit) or the value differs from the rule's."""


_NP = {"sigmoid": lambda x: 1 / (1 + np.exp(-x)), "softplus": lambda x: np.logaddexp(0, x),
       "step": lambda x: (x > 0) * 1.0, "relu": lambda x: np.maximum(x, 0),
       "where": lambda c, a, b: np.where(c, a, b), "sign": np.sign}
_lambdas: dict = {}


def apply_function(e, args):
    """Elementwise value of SymPy node e's operation on evaluated arguments."""
    key = (e.func, len(args))
    if key not in _lambdas:
        ds = sp.symbols(f"_a0:{len(args)}")
        _lambdas[key] = sp.lambdify(ds, e.func(*ds), modules=[_NP, "numpy"])
    with np.errstate(all="ignore"):
        return _lambdas[key](*args)


def formula_domains(program) -> dict:
    """{input: domain} of the inputs every shown formula must hold for: all the generated code accepts.

    A domain the header declares is the rule's word (`S[i,j]: symmetric`: the formulas hold for symmetric S). A
    matrix domain inferred from a primitive is only a sampling hint unless the primitive is defined on symmetric
    matrices alone (cholesky, eigvalsh, logm read one triangle): logdet and inv accept every invertible square
    matrix, so their argument is any well-conditioned one here (a general one, not symmetric), and a form that
    holds only for a symmetric X (X⁻¹ for X⁻ᵀ) is refused."""
    if program is None:
        return {}
    out = dict(getattr(program, "domains", None) or {})
    declared = {v.name for v in getattr(program, "inputs", ()) if getattr(v, "domain", "")}
    on_symmetric = {st.args[0] for st in getattr(program, "stmts", ()) if getattr(st, "prim", None)
                    and getattr(PRIMITIVES.get(st.prim), "symmetric", False) and st.args}
    for name, dom in out.items():
        if dom in domains.MATRIX and name not in declared and name not in on_symmetric:
            out[name] = "wellcond"
    return out


# The primitive values of the program being shown, {name: (primitive, argument names)} (`C = det(A)`,
# `_inv_X`): a Point computes them from their arguments, so identities a display relies on (adj(X)ᵀ =
# det(X)·X⁻ᵀ, a symmetric S's S⁻¹) hold at the point as they do in the rule.
DEFS: contextvars.ContextVar = contextvars.ContextVar("display_defs", default=None)


def _definition(name):
    got = (DEFS.get() or {}).get(name)
    if got is not None:
        return got
    if name.startswith("_") and not name.startswith("__"):
        for pname, p in PRIMITIVES.items():
            if name.startswith(f"_{pname}_") and len(name) > len(pname) + 2 and len(p.args) == 1:
                return pname, (name[len(pname) + 2:],)
    return None


class Point:
    """Random values for every tensor a statement reads, its extents distinct per index class; a primitive's
    value (inv(X), det(X), adj(X), or a statement `C = det(A)` of the program) computed from its arguments'."""

    def __init__(self, domains=None, seed=0):
        self.rng = np.random.default_rng(seed)
        self.domains = domains or {}
        self.sizes: dict = {}
        self.arrays: dict = {}
        self.shapes: dict = {}

    def copy(self):
        """A Point that draws what this one would draw next and holds the same values: two checks of one statement
        (its Unicode and its LaTeX form) start from one point without valuing its index form twice."""
        new = Point.__new__(Point)
        new.rng = np.random.default_rng()
        new.rng.bit_generator.state = self.rng.bit_generator.state
        new.domains = self.domains
        new.sizes, new.arrays, new.shapes = dict(self.sizes), dict(self.arrays), dict(self.shapes)
        return new

    def size(self, i):
        if i.ext not in self.sizes:
            self.sizes[i.ext] = 3 + len(self.sizes)
        return self.sizes[i.ext]

    def array(self, access):
        return self.value(ir.acc_name(access), tuple(self.size(i) for i in access.args))

    def value(self, name, shape, dom=None):
        if name not in self.arrays:
            got = _definition(name)
            if got is not None:
                prim, args = got
                p = PRIMITIVES[prim]
                n = shape[0] if shape else next((self.shapes[a][0] for a in args if a in self.shapes), 3)
                vals = []
                for a, kind in zip(args, p.arg_kinds):
                    want = (n, n) if kind == "square" else self.shapes.get(a, shape)
                    if kind == "square" and (a in self.shapes or len(shape) > 2):   # batched: X[b,i,j]
                        want = self.shapes.get(a, shape)
                    vals.append(self.value(a, want, "wellcond" if kind == "square" else None))
                with np.errstate(all="ignore"):
                    self.arrays[name] = np.asarray(p.forward(*vals), dtype=float).reshape(shape)
                self.shapes[name] = shape
                return self.arrays[name]
            dom = self.domains.get(name) or dom
            if name.startswith(TAN) and self.domains.get(base_name(name)) in domains.MATRIX and len(shape) >= 2:
                t = self.rng.uniform(-0.5, 0.5, shape)     # a symmetric input's tangents are symmetric
                self.arrays[name] = (t + np.swapaxes(t, -1, -2)) / 2
            elif dom:
                self.arrays[name] = np.asarray(domains.sample(shape, dom, self.rng), dtype=float)
            else:
                self.arrays[name] = self.rng.uniform(0.3, 0.9, shape)
            self.shapes[name] = shape
        return self.arrays[name]


# -- the index form: every index an axis ------------------------------------------------------------------------


_COMPARE = {"<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal, "==": np.equal,
            "!=": np.not_equal}


def _index_value(e, pt, axes):
    n = len(axes)

    def place(arr, idx):
        letters = {a: chr(97 + k) for k, a in enumerate(axes)}
        sub = "".join(letters[i] for i in idx)
        out = [a for a in axes if a in idx]
        v = np.einsum(f"{sub}->{''.join(letters[a] for a in out)}", arr) if idx else np.asarray(arr)
        shape = [pt.size(a) if a in idx else 1 for a in axes]
        return v.reshape(shape) if idx else v.reshape([1] * n)

    def ev(x):
        if ir.is_access(x):
            return place(pt.array(x), tuple(x.args))
        if isinstance(x, Iverson):      # [j ≤ i] over the positions of its indices
            c = x.cond
            a, b = (place(np.arange(pt.size(s)), (s,)) if isinstance(s, Idx) else ev(s) for s in (c.lhs, c.rhs))
            return np.asarray(_COMPARE[c.rel_op](a, b), dtype=float)
        if isinstance(x, Idx):
            raise Mismatch("an index as a value")
        if x.is_number:
            return np.full([1] * n, complex(x).real if x.is_real is not False else np.nan)
        if isinstance(x, Extent):
            return np.full([1] * n, float(pt.size(x.args[0])))
        if isinstance(x, sp.KroneckerDelta):
            i, j = x.args
            return place(np.eye(pt.size(i)), (i, j)) if i != j else np.ones([1] * n)
        if isinstance(x, IndexSum):
            b = ev(x.body)
            body = np.broadcast_to(b, [pt.size(a) if a in x.indices else s for a, s in zip(axes, b.shape)])
            return body.sum(axis=tuple(axes.index(i) for i in x.indices), keepdims=True)
        if isinstance(x, (ir.IndexReduce, ir.ProdExcept)):
            return reduction_value(x, ev, axes, pt)
        return apply_function(x, [ev(a) for a in x.args])

    return ev(e)


def reduction_value(x, ev, axes, pt):
    """max/min/Π over axes (kept, as IndexSum's), or the product of the others along one (ProdExcept)."""
    body, ks = (x.args[0], x.args[1:]) if isinstance(x, ir.ProdExcept) else (x.body, x.indices)
    b = ev(body)
    b = np.broadcast_to(b, [pt.size(a) if a in ks else s for a, s in zip(axes, b.shape)])
    ax = tuple(axes.index(i) for i in ks)
    if isinstance(x, ir.ProdExcept):
        return others_product(b, ax[0])
    return {"max": np.max, "min": np.min, "prod": np.prod}[x.op](b, axis=ax, keepdims=True)


def stmt_value(ls, pt):
    """The statement's value from its terms (index form), oriented as its indices: matrix, column, or scalar."""
    free = list(ls.indices)
    total = np.zeros([pt.size(i) for i in free])
    for t in ls.terms:      # each term its own axes: equal letters of two classes are two indices
        body = (t.coeff * t.atom).replace(Extent, lambda *a: sp.S.One)   # size(i) makes i no axis
        axes = free + sorted((body.atoms(Idx) | set(t.sums)) - set(free),
                             key=lambda i: (i.name, i.ext))
        # an index bound inside the term (Σ_j′ X[k,j′]·b[j′]) is an axis of its own sum, kept at length 1: not
        # summed again here
        bound = {i for s in body.atoms(IndexSum, ir.IndexReduce) for i in s.indices} - set(t.sums) - set(free)
        v = np.broadcast_to(_index_value(t.coeff * t.atom, pt, axes),
                            [1 if a in bound else pt.size(a) for a in axes])
        total = total + v.sum(axis=tuple(range(len(free), len(axes))))
    return total.reshape(-1, 1) if len(free) == 1 else total


# -- the matrix form: the algebra its text means ----------------------------------------------------------------


def is_scalar(v):
    return np.ndim(v) == 0


def mul(a, b):
    """`a·b` as written: a scalar scales, else a matrix product (shapes must fit)."""
    if is_scalar(a) or is_scalar(b):
        return a * b
    if a.shape[1] != b.shape[0]:
        raise Mismatch(f"a product of shapes {a.shape} and {b.shape}")
    return a @ b


def add(a, b):
    if not (is_scalar(a) or is_scalar(b)) and a.shape != b.shape:
        raise Mismatch(f"a sum of shapes {a.shape} and {b.shape}")
    return a + b


def hadamard(a, b):
    if not (is_scalar(a) or is_scalar(b)) and a.shape != b.shape:
        raise Mismatch(f"a Hadamard product of shapes {a.shape} and {b.shape}")
    return a * b


def transpose(a):
    return a if is_scalar(a) else a.T


def trace(a):
    if is_scalar(a) or a.shape[0] != a.shape[1]:
        raise Mismatch("a trace of a non-square matrix")
    return np.trace(a)


def chain(vals):
    out = np.float64(1.0)
    for v in vals:
        out = mul(out, v)
    return out


def compare(shown, want):
    """None when the matrix form's value equals the rule's, else the reason it does not."""
    if is_scalar(shown) and not is_scalar(want) and want.size != 1:
        return "a scalar shown for a matrix or vector"
    shown = np.asarray(shown, dtype=float)
    if shown.shape != np.shape(want) and shown.size != 1:
        return f"shape {shown.shape} shown for {np.shape(want)}"
    if not np.all(np.isfinite(want)):
        return None if np.array_equal(np.isfinite(want), np.isfinite(np.broadcast_to(shown, np.shape(want)))) \
            else "not finite where the rule is"
    err = np.max(np.abs(shown - want)) / max(1.0, np.max(np.abs(want)))
    return None if err <= TOL else f"relative error {err:.1e}"


def reject(ls, text, reason):
    rejections.append((ls.target, text, reason))
    log.debug("matrix form %r of %s not shown: %s", text, ls.target, reason)
