"""Matrix form of a derived statement, where one exists: products, transposes, inverses, traces, Hadamard.

Each term's factors become vectors and matrices (indices as their edges); walking the chains from the
result's free indices gives the product order and which factors are transposed (-Bᵀ·dB·Bᵀ). A term with
a factor of rank > 2, a diagonal, or a nonlinear reduction has no matrix form: the caller shows index form.
A product over a sum is split per summand where only that has a form; the terms' common leading and trailing
factors, common Hadamard factors and common number come out where that is shorter (dy·(D + Dᵀ)·u·bᵀ,
y ⊙ (dy - …), (B·X + X·B)ᵀ); a scalar Σᵢ u[i]² is ‖u‖². Every shown form is valued from its own pieces.
"""
from __future__ import annotations

import contextvars
import re
from math import gcd, lcm

import numpy as np
import sympy as sp
from sympy.printing.latex import LatexPrinter
from sympy.printing.str import StrPrinter

from derive.calculus.differential import Term
from derive.display import check as dc
from derive.display.notation import (
    INDEX_LATEX,
    inverse_of,
    latex_pow,
    memoized,
    opaque_text,
    pretty_name,
    scripted,
    symbol_count,
    tidy,
    unicode_pow,
)
from derive.emission.numpy_text import balanced_outer
from derive.ir import masks
from derive.ir import nodes as ir
from derive.ir.nodes import Extent, Idx, IndexSum
from derive.lowering import shifts


class _NoForm(Exception):
    pass


STYLES = {
    "unicode": {"dot": "·", "T": "ᵀ", "had": " ⊙ ", "ones": "𝟙", "tr": "tr", "open": "(", "close": ")"},
    "latex": {"dot": " ", "T": "^{\\top}", "had": " \\odot ", "ones": "\\mathbf{1}", "tr": "\\operatorname{tr}",
              "open": "\\left(", "close": "\\right)"},
}

def _sup(text: str, st, script: str) -> str:
    """text with a script (ᵀ, ⁻¹) appended; in LaTeX a base that already ends in a script is braced first
    ({e^{x}}^{\\top}, not e^{x}^{\\top})."""
    if st is STYLES["latex"] and scripted(text):
        text = "{" + text + "}"
    return text + script



class _Item:
    """A vector or matrix factor: `expr` over `idx` (1 or 2 indices), printed relative to an orientation."""

    def __init__(self, expr, idx):
        self.exprs = [expr]
        self.idx = tuple(idx)

    @classmethod
    def of(cls, exprs, idx):
        it = cls(exprs[0], idx)
        it.exprs = list(exprs)
        return it


def _indexed(e):
    return any(a.args for a in ir.accesses(e))


def _split_mul(e, orient):
    """A product in an elementwise expression: (number, scalar factors, indexed factors, outer) where outer is
    (factors over orient[0], factors over orient[1]) when the indexed factors are vectors making an outer product
    (b[i]·c[j] is b·cᵀ), else None; with two or more indexed factors the product is elementwise (⊙)."""
    c, rest = e.as_coeff_Mul()
    fs = list(rest.as_ordered_factors())
    scal = [f for f in fs if not _indexed(f)]
    idxd = [f for f in fs if _indexed(f)]
    outer = None
    if len(orient) == 2 and len(idxd) >= 2:
        sides = [set().union(*[set(a.args) for a in ir.accesses(f)]) for f in idxd]
        u = [f for f, sd in zip(idxd, sides) if sd == {orient[0]}]
        v = [f for f, sd in zip(idxd, sides) if sd == {orient[1]}]
        if u and v and len(u) + len(v) == len(idxd):
            outer = (u, v)
    return c, scal, idxd, outer


class _ElemMixin:
    """Prints an elementwise expression over matrix/vector accesses in a given orientation: a product of two
    indexed factors is elementwise (⊙), or an outer product u·vᵀ of vectors along the two indices."""

    def __init__(self, orient, st):
        super().__init__()
        self.orient = tuple(orient)
        self.st = st

    def _print_Function(self, e, exp=None):
        if ir.is_access(e):
            s = _name(e, self.orient, self.st)
            if not exp:
                return s
            return f"{{{s}}}^{{{exp}}}" if "_" in s or "^" in s or s.endswith("}") else f"{s}^{{{exp}}}"
        if _is_indicator(e) and exp is None:     # where(x > 0, 1, 0) is [x > 0]; where(x > 0, 0, 1) is [x ≤ 0]
            c = self._print(e.args[0] if e.args[1] == 1 else e.args[0].negated)
            return f"[{c}]" if self.st is STYLES["unicode"] else f"\\left[{c}\\right]"
        text = super()._print_Function(e, exp) if exp is not None else super()._print_Function(e)
        k = text.find("(")
        if self.st is STYLES["unicode"] and k > 0 and text.endswith(")") and balanced_outer(text[k:]) and \
                text[k + 1] == "(" and balanced_outer(text[k + 1:-1]):
            text = text[:k + 1] + text[k + 2:-2] + ")"     # log(exp(z)ᵀ·𝟙), not log((exp(z)ᵀ·𝟙))
        return text

    def _print_KroneckerDelta(self, e, exp=None):
        return "I"

    def _print_Scan(self, e, exp=None):       # cumsum(dy ⊙ y), revcumsum(dy): along the last axis
        g, i, _ = e.args
        if self.orient[-1:] != (i,):
            raise _NoForm()
        name = e.scan_name
        if self.st is not STYLES["unicode"]:
            name = "\\operatorname{" + name + "}"
        return name + self.st["open"] + self._print(g) + self.st["close"]

    def _print_Softmax(self, e, exp=None):    # softmax(z): along the last axis
        u, k = e.args
        if self.orient[-1:] != (k,) or exp is not None:
            raise _NoForm()
        name = "softmax" if self.st is STYLES["unicode"] else "\\operatorname{softmax}"
        return name + self.st["open"] + self._print(u) + self.st["close"]

    def _print_Add(self, e, order=None):        # x - mu, not -mu + x
        terms = list(self._as_ordered_terms(e, order=order))
        k = next((k for k, t in enumerate(terms) if not t.could_extract_minus_sign()), 0)
        if k:
            e, order = sp.Add(*([terms[k]] + terms[:k] + terms[k + 1:]), evaluate=False), "none"
        return super()._print_Add(e, order=order)

    def _print_Abs(self, e, exp=None):
        if self.st is not STYLES["unicode"]:
            return LatexPrinter._print_Abs(self, e, exp)
        return f"|{self._print(e.args[0])}|"

    def _print_Mul(self, e):
        c, scal, idxd, outer = _split_mul(e, self.orient)
        if len(idxd) < 2:
            return self._plain_mul(e)
        st = self.st
        if outer:
            u, v = outer
            us = _printer((self.orient[0],), st)._print(sp.Mul(*u))
            vs = _printer((self.orient[1],), st)._print(sp.Mul(*v))
            vs = vs if len(v) == 1 and ir.is_access(v[0]) else st["open"] + vs + st["close"]
            if len(u) > 1 or not ir.is_access(u[0]):
                us = st["open"] + us + st["close"]
            body = us + st["dot"] + _sup(vs, st, st["T"])
        else:
            body = st["had"].join(self.parenthesize(f, 50) for f in idxd)
        lead = sp.Mul(abs(c), *scal)
        sign = "-" if c < 0 else ""
        if lead == 1:
            return sign + (body if outer else st["open"] + body + st["close"] if sign else body)
        return sign + self.parenthesize(lead, 50) + st["dot"] + st["open"] + body + st["close"]

    def _norm(self, u):
        """‖u‖ of a vector expression u over one index."""
        text = _printer(tuple(ir.free_indices(u, u.atoms(Idx))), self.st).doprint(u)
        return f"‖{text}‖" if self.st is STYLES["unicode"] else f"\\left\\lVert {text} \\right\\rVert"

    def _norm_pow(self, e):
        """‖u‖, 1/‖u‖, 1/‖u‖² for the powers ½, -½, -1 of Σ_i u[i]², else None."""
        u = _norm_base(e.base)
        if u is None or e.exp not in (sp.S.Half, -sp.S.Half, -1):
            return None
        uni = self.st is STYLES["unicode"]
        n = self._norm(u) + ("" if e.exp != -1 else "²" if uni else "^{2}")
        if e.exp == sp.S.Half:
            return n
        return "1/" + n if uni else "\\frac{1}{" + n + "}"

    def _print_Extent(self, e, exp=None):
        return f"size({e.args[0].name})" if self.st is STYLES["unicode"] else \
            r"\lvert " + e.args[0].name.replace("_", r"\_") + r" \rvert"

    def _print_LessThan(self, e):
        return self._relation(e, "≤", r"\leq")

    def _print_GreaterThan(self, e):
        return self._relation(e, "≥", r"\geq")

    def _relation(self, e, uni, tex):
        op = uni if self.st is STYLES["unicode"] else tex
        return f"{self._print(e.lhs)} {op} {self._print(e.rhs)}"

    def _print_Unequality(self, e):
        ne = "≠" if self.st is STYLES["unicode"] else r"\neq"
        return f"{self._print(e.lhs)} {ne} {self._print(e.rhs)}"

    def _print_Equality(self, e):     # as the rule is written (SymPy's own text is Eq(a, b))
        eq = "==" if self.st is STYLES["unicode"] else "="
        return f"{self._print(e.lhs)} {eq} {self._print(e.rhs)}"

    def _print_IndexSum(self, e):       # a contraction inside a coefficient: its own matrix product (X·b + c)
        if not ir.free_indices(e, e.atoms(Idx)):       # a scalar: ‖u‖², or uᵀ·v
            u = _norm_base(e)
            if u is not None:
                return self._norm(u) + ("²" if self.st is STYLES["unicode"] else "^{2}")
            num, text = term_matrix(_Fake(e.body), (), self.st)
            return self.st["open"] + (text if num == 1 else _num(num, _style(self.st)) + self.st["dot"] + text) + \
                self.st["close"]
        num, text = term_matrix(_Fake(e.body), _sum_orient(e, self.orient), self.st)
        if num == 1:
            return text
        return _num(num, "unicode" if self.st is STYLES["unicode"] else "latex") + self.st["dot"] + text


class _ElemPrinter(_ElemMixin, StrPrinter):
    def _plain_mul(self, e):
        return StrPrinter._print_Mul(self, e).replace("*", self.st["dot"])

    def _print_Pow(self, e, rational=False):   # a matrix's elementwise power is X∘², as X² would be X·X
        n = self._norm_pow(e)
        if n is not None:
            return n
        return unicode_pow(self, e, rational, hadamard=_matrix_valued(e.args[0]))


class _ElemLatex(_ElemMixin, LatexPrinter):
    def _plain_mul(self, e):
        return LatexPrinter._print_Mul(self, e)

    def _print_Pow(self, e, exp=None):
        n = self._norm_pow(e)
        if n is not None:
            return n
        b, x = e.args
        if x.is_Integer and x > 1 and _matrix_valued(b):
            base = self.parenthesize(b, 60)
            return (f"\\left({base}\\right)" if scripted(base) else base) + f"^{{\\circ {x}}}"
        got = latex_pow(self, e, self._print)       # (‖v‖²)²: no double superscript
        return got if got is not None else LatexPrinter._print_Pow(self, e)


def _printer(orient, st):
    return (_ElemPrinter if st is STYLES["unicode"] else _ElemLatex)(orient, st)


def _has_reciprocal(e):
    return any(f.is_Pow and f.exp.is_negative for f in sp.Mul.make_args(e))


def _matrix_valued(e):
    return any(len(a.args) == 2 for a in ir.accesses(e))


def _name(access, orient, st):
    style = "latex" if st is STYLES["latex"] else "unicode"
    n = pretty_name(ir.acc_name(access), style)
    idx = tuple(access.args)
    if not idx:
        return n
    if len(set(idx)) != len(idx):
        raise _NoForm()
    if len(idx) == 1 and len(orient) == 2:     # a vector beside matrices: broadcast, as the value is
        if idx[0] == orient[0]:
            return n + st["dot"] + _sup(st["ones"], st, st["T"])
        if idx[0] == orient[1]:
            return st["ones"] + st["dot"] + _sup(n, st, st["T"])
        raise _NoForm()
    if idx == tuple(orient) or len(idx) == 1:
        return n
    if idx == tuple(reversed(orient)):
        if _symmetric(ir.acc_name(access)):       # Sᵀ = S: a symmetric or spd domain, or the inverse of one
            return n
        if n.endswith("⁻¹"):
            return n[:-2] + "⁻ᵀ"
        if n.endswith("^{-1}"):
            return n[:-5] + "^{-\\top}"
        return _sup(n, st, st["T"])
    raise _NoForm()


def _name_value(access, orient, pt):
    """What `_name` prints means: the tensor, transposed where it prints ᵀ; a vector is a column."""
    idx = tuple(access.args)
    v = pt.array(access)
    if not idx:
        return np.float64(v)
    if len(idx) == 1 and len(orient) == 2:
        if idx[0] == orient[0]:
            return dc.mul(v.reshape(-1, 1), np.ones((1, pt.size(orient[1]))))
        if idx[0] == orient[1]:
            return dc.mul(np.ones((pt.size(orient[0]), 1)), dc.transpose(v.reshape(-1, 1)))
        raise dc.Mismatch("a vector over neither index")
    if len(idx) == 1:
        return v.reshape(-1, 1)
    if idx == tuple(orient):
        return v
    if idx == tuple(reversed(orient)):
        return v if _symmetric(ir.acc_name(access)) else dc.transpose(v)   # as printed: S for Sᵀ
    raise dc.Mismatch("a matrix over other indices")


_SYMMETRIC: contextvars.ContextVar = contextvars.ContextVar("display_symmetric", default=frozenset())


def _symmetric(name):
    """Whether the shown statement's domains make tensor `name` symmetric (its inverse too)."""
    sym = _SYMMETRIC.get()
    name = name.split(SLICE, 1)[0] if SLICE in name and inverse_of(name) is None else name
    return name in sym or (inverse_of(name) is not None and _symmetric(inverse_of(name)))


def _value(e, orient, pt):
    """The value of `_ElemPrinter`'s text for e: `·` a matrix product, powers and functions elementwise except a
    matrix's square (X² is X·X), `/` only by a scalar."""
    if ir.is_access(e):
        return _name_value(e, orient, pt)
    if isinstance(e, sp.KroneckerDelta):
        n = [pt.size(i) for i in orient]
        if len(n) != 2 or n[0] != n[1]:
            raise dc.Mismatch("I of a non-square shape")
        return np.eye(n[0])
    if e.is_number:
        return np.float64(complex(e).real)
    if isinstance(e, Extent):
        return np.float64(pt.size(e.args[0]))
    if isinstance(e, IndexSum):
        return _sum_value(e, orient, pt)
    if isinstance(e, Scan):
        return _scan_value(e, orient, pt)
    if isinstance(e, Softmax):
        return _softmax_value(e, orient, pt)
    if isinstance(e, sp.Add):
        out = np.float64(0.0)
        for a in e.args:
            out = dc.add(out, _value(a, orient, pt))
        return out
    if isinstance(e, sp.Mul):
        return _product_value(e, orient, pt)
    if isinstance(e, sp.Pow):
        return _power_value(e, orient, pt)
    args = [_value(a, orient, pt) for a in e.args]
    shapes = {np.shape(a) for a in args if not dc.is_scalar(a)}
    if len(shapes) > 1:
        raise dc.Mismatch(f"{e.func} of shapes {shapes}")
    return dc.apply_function(e, args)


def _sum_value(e, orient, pt):
    """The value of a contraction inside a coefficient: a scalar ‖u‖² or uᵀ·v, else its own matrix product."""
    if not ir.free_indices(e, e.atoms(Idx)):      # ‖u‖², uᵀ·v
        u = _norm_base(e)
        try:
            if u is not None:
                v = _value(u, tuple(ir.free_indices(u, u.atoms(Idx))), pt)
                return np.float64(np.sum(v * v))
            return np.float64(np.asarray(term_matrix(_Fake(e.body), (), STYLES["unicode"], pt)[2]).item())
        except (_NoForm, ValueError):
            raise dc.Mismatch("a scalar sum with no matrix form")
    try:
        return term_matrix(_Fake(e.body), _sum_orient(e, orient), STYLES["unicode"], pt)[2]
    except _NoForm:
        raise dc.Mismatch("a sum with no matrix form")


def _product_value(e, orient, pt):
    """The value of a product: of two or more indexed factors elementwise (⊙) or an outer product u·vᵀ, else a
    matrix product of the factors over the quotient's factors (elementwise, as for 1/v)."""
    c, scal, idxd, outer = _split_mul(e, orient)
    if len(idxd) >= 2:
        if outer:
            u, v = outer
            body = dc.mul(_value(sp.Mul(*u), (orient[0],), pt), dc.transpose(_value(sp.Mul(*v), (orient[1],), pt)))
        else:
            body = np.float64(1.0)
            for f in idxd:
                body = dc.hadamard(body, _value(f, orient, pt))
        return dc.mul(_value(sp.Mul(c, *scal), orient, pt), body)
    num, den = [], []
    for f in e.as_ordered_factors():
        if f.is_Pow and f.exp.is_Rational and f.exp.is_negative:
            den.append(_value(f.base ** -f.exp, orient, pt))
        else:
            num.append(_value(f, orient, pt))
    out = dc.chain(num)
    for d in den:                      # a/b: elementwise, as for 1/v
        dc.hadamard(out, d)
        with np.errstate(all="ignore"):
            out = out / d
    return out


def _power_value(e, orient, pt):
    """The value of a power: elementwise, except a matrix's integer power (X² is X·X)."""
    b, x = _value(e.base, orient, pt), _value(e.exp, orient, pt)
    if not dc.is_scalar(x):
        raise dc.Mismatch("a power with a matrix exponent")
    if e.exp.is_Integer and e.exp > 1 and not _matrix_valued(e.base) and not dc.is_scalar(b) \
            and min(b.shape) > 1:                  # what X² means
        if e.exp != 2:
            raise dc.Mismatch("a power of a broadcast vector")
        return dc.mul(b, b)
    with np.errstate(all="ignore"):
        return b ** x


def _style(st):
    return "unicode" if st is STYLES["unicode"] else "latex"


def _norm_base(e):
    """u of a scalar sum Σ_i u[i]² over u's one index (‖u‖²), else None."""
    if not isinstance(e, IndexSum) or len(e.indices) != 1 or not (e.body.is_Pow and e.body.exp == 2):
        return None
    u = e.body.base
    return u if ir.free_indices(u, u.atoms(Idx)) == list(e.indices) else None


def _sum_orient(e, orient):
    """The orientation of IndexSum e's value: the printer's indices, all of which it keeps."""
    free = set(ir.free_indices(e, e.atoms(Idx)))
    if not free or free != set(orient):      # a scalar sum (‖x‖², a count) stays in index form for now
        raise _NoForm()
    return tuple(i for i in orient if i in free)


def _item_value(item, orient, pt):
    if len(item.idx) == 2 and tuple(orient) == tuple(reversed(item.idx)) and len(item.exprs) > 1:
        return dc.transpose(_item_value(item, item.idx, pt))
    out = None
    for e in item.exprs:
        v = _value(e, orient, pt)
        out = v if out is None else dc.hadamard(out, v)
    return out


# -- scans and triangles: what a book writes for a sum against an index comparison ----------------------------------


class Scan(sp.Function):
    """Display only: Scan(g, i, reverse) is the inclusive cumulative sum of g along index i (from the end where
    reverse is 1): Σ_k [k ≤ i]·g[k] is cumsum(g), Σ_k [k ≥ i]·g[k] is revcumsum(g)."""

    nargs = 3

    @property
    def scan_name(self):
        return "revcumsum" if self.args[2] else "cumsum"


def _along_last(g, k, orient, pt, what):
    """(the value of g as a matrix or a column, the axis of index k): a scan's or a softmax's operand, which the
    forms apply along the last axis only."""
    if tuple(orient[-1:]) != (k,):
        raise dc.Mismatch(f"a {what} along an axis other than the last")
    v = _value(g, orient, pt)
    if dc.is_scalar(v):
        raise dc.Mismatch(f"a {what} of a scalar")
    v = np.broadcast_to(v, (pt.size(orient[0]), pt.size(k)) if len(orient) == 2 else (pt.size(k), 1))
    return v, 1 if len(orient) == 2 else 0


def _scan_value(e, orient, pt):
    g, i, rev = e.args
    v, axis = _along_last(g, i, orient, pt, "scan")
    return np.flip(np.cumsum(np.flip(v, axis), axis), axis) if rev else np.cumsum(v, axis)


def scan_terms(t, free):
    """Term t as scans where it sums its summed index k against one bracket [k ≤ i] (or <, ≥, >) with a free
    index i: `b[i]·cumsum(g)[i]` for Σ_k [k ≤ i]·b[i]·g[k], and an exclusive scan as the inclusive one less g
    (Σ_k [k < i]·g[k] = cumsum(g)[i] - g[i]); [t] where it does not."""
    coeff = t.coeff.replace(lambda x: isinstance(x, IndexSum) and len(x.indices) == 1 and _scanned(x) is not None,
                            _scanned)
    got = _scan_of(sp.Mul.make_args(coeff * t.atom), t.sums, free)
    if got is None:
        return [t] if coeff == t.coeff else [Term(coeff, t.sums, t.atom)]
    return [Term(e, (), sp.S.One) for e in got]


def _scanned(x):
    """A sum Σ_k [k ≤ i]·g[k] inside a coefficient as its Scan (a plain scan only: inclusive), else None."""
    got = _scan_of(sp.Mul.make_args(x.body), x.indices, None)
    return got[0] if got is not None and len(got) == 1 else None


def _scan_of(factors, sums, free):
    """[expression] whose sum is Σ_sums Π factors where that is one scan along its one summed index k against a
    free index i (in `free`, where given): [outer·Scan(g)], or [outer·Scan(g), -outer·g] for an exclusive one."""
    factors = list(factors)
    form = masks.cumsum_form(factors, list(sums), lambda f: ir.free_indices(f, f.atoms(Idx)))
    if form is None or len(sums) != 1 or (free is not None and form[2] not in free):
        return None
    bracket, k, i, reverse, inclusive = form
    inner = [f for f in factors if f is not bracket and k in f.atoms(Idx)]
    outer = sp.Mul(*[f for f in factors if f is not bracket and k not in f.atoms(Idx)])
    g = sp.Mul(*inner).xreplace({k: i})
    return [outer * Scan(g, i, sp.Integer(int(reverse)))] + ([] if inclusive else [-outer * g])


class Softmax(sp.Function):
    """Display only: Softmax(u, k) is exp(u)/Σ_k exp(u) along index k, as books name it (softmax(z))."""

    nargs = 2


def _softmax_value(e, orient, pt):
    u, k = e.args
    v, axis = _along_last(u, k, orient, pt, "softmax")
    w = np.exp(v - v.max(axis, keepdims=True))
    return w / w.sum(axis, keepdims=True)


def softmax_term(t):
    """Term t with a factor exp(u[.., k])/Σ_k′ exp(u[.., k′]) of its coefficient as Softmax(u, k), u less its
    summands that do not read k (they cancel: exp(z - m)/Σ exp(z - m) is softmax(z) whatever m); t where none."""
    fs = list(sp.Mul.make_args(t.coeff))
    for d in fs:
        if not (d.is_Pow and d.exp == -1 and isinstance(d.base, IndexSum) and len(d.base.indices) == 1
                and isinstance(d.base.body, sp.exp)):
            continue
        s, B = d.base.indices[0], d.base.body.args[0]
        for n in fs:
            if not isinstance(n, sp.exp):
                continue
            A = n.args[0]
            for k in sorted(A.atoms(Idx), key=str):
                if k.ext == s.ext and A.xreplace({k: s}) == B:
                    u = sp.Add(*[a for a in sp.Add.make_args(A) if k in a.atoms(Idx)])
                    rest = sp.Mul(*[f for f in fs if f is not n and f is not d])
                    return Term(rest * Softmax(u, k), t.sums, t.atom)
    return t


_TRIANGLES = {"<=": ("tril", 0), "<": ("tril", -1), ">=": ("triu", 0), ">": ("triu", 1)}
_FLIPPED = {"<=": ">=", "<": ">", ">=": "<=", ">": "<"}


def common_triangle(ls):
    """(statement without the bracket, NumPy's name, offset) where every term of a statement over (p, q) carries
    one bracket comparing q with p ([q ≤ p]: tril), else None."""
    if len(ls.indices) != 2 or not ls.terms:
        return None
    p, q = ls.indices
    found = set()
    for t in ls.terms:
        bs = [f for f in sp.Mul.make_args(t.coeff) if isinstance(f, masks.Iverson)]
        if len(bs) != 1:
            return None
        found.add(bs[0])
    if len(found) != 1:
        return None
    bracket, = found
    c = bracket.cond
    if c.rel_op not in _TRIANGLES or {c.lhs, c.rhs} != {p, q}:
        return None
    op = c.rel_op if c.lhs == q else _FLIPPED[c.rel_op]
    name, offset = _TRIANGLES[op]
    inner = type(ls)(ls.target, ls.indices, [Term(t.coeff / bracket, t.sums, t.atom) for t in ls.terms])
    return inner, name, offset


def _triangle_matrix(ls, style, pt, tri):
    """`dA = tril(dL)`: the statement's form without its bracket, in NumPy's triangle; its value masked so."""
    inner, name, offset = tri
    got = _stmt_matrix(inner, style, pt)
    if got is None:
        return None
    st = STYLES[style]
    text, value = (got, None) if pt is None else got
    lhs, rhs = text.split(" = ", 1)
    fn = name if style == "unicode" else "\\operatorname{" + name + "}"
    text = f"{lhs} = {fn}{st['open']}{rhs}{', ' + str(offset) if offset else ''}{st['close']}"
    if pt is None:
        return text
    shape = tuple(pt.size(i) for i in ls.indices)
    mask = np.tril(np.ones(shape), offset) if name == "tril" else np.triu(np.ones(shape), offset)
    return text, dc.hadamard(mask, np.broadcast_to(value, shape) if dc.is_scalar(value) else value)


def _is_indicator(e):
    return isinstance(e, ir.where) and {e.args[1], e.args[2]} == {0, 1} and e.args[0].is_Relational


def _is_reciprocal(e):
    """1/u or u^(-1/2), and such over a positive whole number (1/(2·y)); not 2/(3·u), which reads as dx/(3·u/2)."""
    if e.is_Mul:
        fs = e.args
        return any(_is_reciprocal(f) for f in fs) and \
            all(_is_reciprocal(f) or (f.is_Rational and f > 0 and f.p == 1) for f in fs)
    return e.is_Pow and e.exp.is_negative and e.exp.is_Rational


def _print_item(item, orient, st):
    if len(item.idx) == 2 and tuple(orient) == tuple(reversed(item.idx)) and len(item.exprs) > 1:
        inner = _print_item(item, item.idx, st)
        return _sup(inner, st, st["T"])
    num = [e for e in item.exprs if not _is_reciprocal(e)]
    den = [e for e in item.exprs if _is_reciprocal(e)]
    if num and den and st is STYLES["unicode"]:       # dy/x, not 1/x ⊙ dy ('/' is elementwise, as in 1/x)
        top = _print_item(_Item.of(num, item.idx), orient, st)
        bottom = _print_item(_Item.of([1 / e for e in den], item.idx), orient, st)
        if _top_level_op(bottom) and not (bottom.startswith("(") and balanced_outer(bottom)):
            bottom = "(" + bottom + ")"
        if _top_level_sum(top) and not (top.startswith("(") and balanced_outer(top)):
            top = "(" + top + ")"
        return top + "/" + bottom
    parts = []
    for e in item.exprs:
        if ir.is_access(e) or isinstance(e, sp.KroneckerDelta):
            s = "I" if isinstance(e, sp.KroneckerDelta) else _name(e, orient, st)
        else:
            s = _printer(orient, st).doprint(e)
            if isinstance(e, sp.Add):
                s = f"({s})"
        parts.append(s)
    if len(parts) == 1:
        return parts[0]
    return "(" + st["had"].join(parts) + ")"


def _scalar(e, st):
    if ir.is_access(e):
        return pretty_name(ir.acc_name(e), "latex" if st is STYLES["latex"] else "unicode")
    s = _printer((), st).doprint(e)
    return f"({s})" if isinstance(e, sp.Add) else s


def term_matrix(t, free, st, pt=None):
    """(number, text) of one term; with a Point pt, (number, text, value of the text) -- the value computed
    from the same pieces the text is joined from, with the text's own algebra (see display_check)."""
    num, pieces = term_pieces(t, free, st, pt)
    text, val = _joined(pieces, st, pt is not None)
    if pt is not None:
        return num, text, dc.mul(_value(num, (), pt), val)
    return num, text


def _joined(pieces, st, V):
    """(text, value) of a product of pieces: `a·b·c`, one parenthesised piece without its parentheses."""
    text = st["dot"].join(p[0] for p in pieces) if pieces else "1"
    if text.startswith("(") and balanced_outer(text) and len(pieces) == 1:
        text = text[1:-1]
    return text, ((dc.chain([p[1] for p in pieces]) if pieces else np.float64(1.0)) if V else None)


def term_pieces(t, free, st, pt=None):
    """(number, [(text, value)]) of one term: the factors of its matrix product in order, scalars first (a
    value None without a Point pt)."""
    num, scalars, items = _term_factors(t, free, st, pt)
    items = _hadamard_merged(items, free)
    num = _number_into_fraction(num, items)
    row = _row_wise(items, free, st, pt)
    if row is not None:
        items, broadcast = row
    else:
        broadcast = None
    chains = _Chains(items, free, st, pt)
    out = [broadcast] if broadcast is not None else chains.from_free()
    pieces = scalars + out + chains.rest()
    if scalars and len(pieces) == len(scalars) + 1 and pieces[-1][0].startswith("1/") and st is STYLES["unicode"]:
        # scalars times an elementwise reciprocal: y·dy/x, not y·dy·1/x ('/' is elementwise)
        text = st["dot"].join(p[0] for p in scalars) + pieces[-1][0][1:]
        pieces = [(text, dc.chain([p[1] for p in pieces]) if pt is not None else None)]
    return num, pieces


def _term_factors(t, free, st, pt):
    """(number, [(text, value)] of the scalar factors, [_Item] of the vector and matrix factors) of term t; a
    matrix's trace over a summed index is a scalar."""
    V = pt is not None
    num = sp.S.One
    scalars, items = [], []
    coeff = tidy(t.coeff)
    factors = (list(coeff.args) if isinstance(coeff, sp.Mul) else [coeff]) + [t.atom]
    for f in factors:
        if f.is_number or (not f.atoms(Idx) - set().union(*[e.args[0].atoms(Idx) for e in f.atoms(Extent)] or [set()])
                           and not any(ir.is_access(a) for a in sp.preorder_traversal(f))):
            num *= f
            continue
        idx = ir.free_indices(f, f.atoms(Idx))
        if not idx and _is_reciprocal(f):      # a scalar's reciprocal: dy·(x - a)/‖x - a‖, as books write it
            num *= f
            continue
        if ir.is_access(f) and len(f.args) == 2 and f.args[0] == f.args[1] and f.args[0] not in free:
            scalars.append((st["tr"] + st["open"] + _scalar(f.func(), st) + st["close"],
                            np.float64(np.trace(pt.array(f))) if V else None))
            continue
        if ir.is_access(f) and len(set(f.args)) != len(f.args):
            raise _NoForm()
        if not idx:
            scalars.append((_scalar(f, st), _value(f, (), pt) if V else None))
        elif len(idx) <= 2:
            items.append(_Item(f, idx))
        else:
            raise _NoForm()
    return num, scalars, items


def _hadamard_merged(items, free):
    """items with factors over the same indices multiplied elementwise (one _Item)."""
    merged: list = []
    for it in items:
        for m in merged:
            plain = all(ir.is_access(e) for e in m.exprs + it.exprs)
            if set(m.idx) == set(it.idx) and not (plain and not set(it.idx) & set(free)):
                m.exprs.extend(it.exprs)
                break
        else:
            merged.append(it)
    return merged


def _number_into_fraction(num, items):
    """1/2·1/sqrt(x) reads better as 1/(2·sqrt(x)): a rational number goes into an item's reciprocal, where one
    is; the number left."""
    if num.is_Rational and abs(num) != 1:
        for it in items:
            k = next((k for k, e in enumerate(it.exprs) if _has_reciprocal(e)), None)
            if k is not None:
                it.exprs[k] = sp.Mul(abs(num), it.exprs[k])
                return sp.sign(num)
    return num


class _Chains:
    """The matrix product of a term's vector and matrix factors: chains of factors linked by shared indices,
    walked from the result's free indices, then vector-to-vector chains (scalars like xᵀ·A·y), then closed
    chains (traces). An index shared by more than two factors, or a free one by two, has no matrix form."""

    def __init__(self, items, free, st, pt):
        self.items, self.free, self.st, self.pt = items, free, st, pt
        self.V = pt is not None
        self.where: dict = {}
        for k, it in enumerate(items):
            for s in it.idx:
                self.where.setdefault(s, []).append(k)
        for s, ks in self.where.items():
            if len(ks) > 2 or (s in free and len(ks) > 1):
                raise _NoForm()
        self.used = set()

    def piece(self, it, orient):
        st, pt = self.st, self.pt
        text, val = _print_item(it, orient, st), (_item_value(it, orient, pt) if self.V else None)
        return (text, val) + ((_had_factors(it, orient, st, pt),) if text.startswith("(") else ())

    def ones(self, i):
        return self.st["ones"], (np.ones((self.pt.size(i), 1)) if self.V else None)

    def transposed(self, p):
        return _sup(p[0], self.st, self.st["T"]), (dc.transpose(p[1]) if self.V else None)

    def walk(self, start_idx):
        """Follow the chain starting at index start_idx; return (printed pieces, end index or None)."""
        pieces = []
        cur = start_idx
        while True:
            ks = [k for k in self.where.get(cur, []) if k not in self.used]
            if not ks:
                return pieces, cur
            k = ks[0]
            self.used.add(k)
            it = self.items[k]
            if len(it.idx) == 1:
                pieces.append(self.piece(it, it.idx))
                return pieces, None
            other = it.idx[1] if it.idx[0] == cur else it.idx[0]
            pieces.append(self.piece(it, (cur, other)))
            if other in self.free:
                return pieces, other
            cur = other

    def from_free(self):
        """The pieces of the chains from the free indices: p to q, or an outer product (chain from p)·(chain
        from q)ᵀ; a vector's chain from its one index."""
        free = self.free
        if len(free) == 2:
            p, q = free
            chain, end = self.walk(p)
            if end == q:
                return chain
            left = chain + ([self.ones(end)] if end is not None else [])
            right, end2 = self.walk(q)
            right = right + ([self.ones(end2)] if end2 is not None else [])
            return left + _transposed_chain(right, self.st, self.V)
        if len(free) == 1:
            chain, end = self.walk(free[0])
            if end is not None:
                chain.append(self.ones(end))
            return chain
        return []

    def rest(self):
        """The pieces of what the free indices' chains left: vector-to-vector chains, then closed chains."""
        st, where, items = self.st, self.where, self.items
        out = []
        while len(self.used) < len(items):
            rest = [k for k in range(len(items)) if k not in self.used]
            vec = [k for k in rest if len(items[k].idx) == 1]
            dangling = [k for k in rest if any(len(where[s]) == 1 for s in items[k].idx)]
            if vec:
                k = vec[0]
                self.used.add(k)
                head = self.transposed(self.piece(items[k], items[k].idx))
                chain, end = self.walk(items[k].idx[0])
            elif dangling:
                k = dangling[0]
                s0 = next(s for s in items[k].idx if len(where[s]) == 1)
                head = self.transposed(self.ones(s0))
                chain, end = self.walk(s0)
            else:
                chain, _ = self.walk(items[rest[0]].idx[0])
                text = st["dot"].join(p[0] for p in chain)
                val = dc.chain([p[1] for p in chain]) if self.V else None
                out.append((f"{st['tr']}{st['open']}{text}{st['close']}", dc.trace(val) if self.V else None))
                continue
            out.extend([head] + chain + ([self.ones(end)] if end is not None else []))
        return out


def _transposed_piece(text, st):
    """(text, whether the value is transposed) of a piece's transpose when the piece is one name or one
    parenthesis (Xᵀ -> X, X⁻¹ -> X⁻ᵀ, b -> bᵀ, (x - mu) -> (x - mu)ᵀ, a symmetric S⁻¹ as it is), else None."""
    T = st["T"]
    inv, invT = ("⁻¹", "⁻ᵀ") if st is STYLES["unicode"] else ("^{-1}", "^{-\\top}")
    style = "unicode" if st is STYLES["unicode"] else "latex"
    if any(text in (pretty_name(n, style), pretty_name("_inv_" + n, style)) for n in _SYMMETRIC.get()):
        return text, False          # Sᵀ = S
    for a, b in ((invT, inv), (inv, invT)):
        if text.endswith(a) and _atomic(text[:-len(a)]):
            return text[:-len(a)] + b, True
    if text.endswith(T) and _atomic(text[:-len(T)]):
        return text[:-len(T)], True
    return (text + T, True) if _atomic(text) else None


def _atomic(text):
    return bool(re.fullmatch(r"[\w′𝟙]+|\\mathit\{[^{}]*\}(_\{[^{}]*\})?|\\mathbf\{1\}", text)) or \
        (text.startswith(("(", "\\left(")) and balanced_outer(text))


def _transposed_chain(ps, st, V):
    """[(text, value)] of the transpose of the product of pieces ps: (a·b)ᵀ, or bᵀ·aᵀ where that is shorter."""
    text = st["dot"].join(p[0] for p in ps)
    whole = _sup((st["open"] + text + st["close"]) if len(ps) != 1 else text, st, st["T"]), \
        (dc.transpose(dc.chain([p[1] for p in ps])) if V else None)
    each = [_transposed_piece(p[0], st) for p in reversed(ps)]
    if len(ps) > 1 and all(each) and symbol_count(st["dot"].join(t for t, _ in each)) < symbol_count(whole[0]):
        return [(t, (dc.transpose(p[1]) if flip else p[1]) if V else None)
                for (t, flip), p in zip(each, reversed(ps))]
    return [whole]


class _Fake:
    def __init__(self, coeff):
        self.coeff, self.atom = coeff, sp.S.One


def _row_wise(items, free, st, pt):
    """A term over (p, q) whose factors over both indices (F) multiply what the others give along p alone (a
    vector r, e.g. a row's Σₖ dy⊙y): `F ⊙ (r·𝟙ᵀ)`, or `diag(r)` where F is the identity δ[p,q]. Returns
    (items left for scalars, (text, value)) or None."""
    if len(free) != 2:
        return None
    full = [it for it in items if set(it.idx) == set(free)]
    rest = [it for it in items if set(it.idx) != set(free)]
    used = set().union(*[set(it.idx) for it in rest]) & set(free) if rest else set()
    if len(full) != 1 or len(used) != 1:
        return None
    p, = used
    n, text, val = term_matrix(_Fake(sp.Mul(*[e for it in rest for e in it.exprs])), (p,), st, pt) \
        if pt is not None else (*term_matrix(_Fake(sp.Mul(*[e for it in rest for e in it.exprs])), (p,), st),
                                None)
    if n != 1:
        return None
    wrap = st["open"] + text + st["close"] if (_top_level_sum(text) or _top_level_had(text, st)) else text
    F = full[0]
    if F.exprs == [sp.KroneckerDelta(*F.idx)] or (len(F.exprs) == 1 and isinstance(F.exprs[0], sp.KroneckerDelta)):
        name = "diag" if st is STYLES["unicode"] else "\\operatorname{diag}"
        v = np.diagflat(val) if pt is not None else None
        return [], (f"{name}{st['open']}{text}{st['close']}", v)
    q = free[1] if p == free[0] else free[0]
    ones = (np.ones((1, pt.size(q))) if pt is not None else None)
    if p == free[0]:
        b_text = st["open"] + wrap + st["dot"] + _sup(st["ones"], st, st["T"]) + st["close"]
        b_val = dc.mul(val, ones) if pt is not None else None
    else:
        if _top_level_op(text) and not (text.startswith("(") and balanced_outer(text)):
            wrap = st["open"] + text + st["close"]      # (a·b)ᵀ: the transpose of the whole product
        b_text = st["open"] + st["ones"] + st["dot"] + _sup(wrap, st, st["T"]) + st["close"]
        b_val = dc.mul(dc.transpose(ones), dc.transpose(val)) if pt is not None else None
    f_text = _print_item(F, free, st)
    f_val = _item_value(F, free, pt) if pt is not None else None
    if st is STYLES["unicode"] and all(_is_reciprocal(e) for e in F.exprs):     # ((dy ⊙ y)·𝟙ᵀ)/x, not (1/x) ⊙ ...
        den = _print_item(_Item.of([1 / e for e in F.exprs], F.idx), free, st)
        if _top_level_op(den) and not (den.startswith("(") and balanced_outer(den)):
            den = "(" + den + ")"
        return [], (b_text + "/" + den, dc.hadamard(f_val, b_val) if pt is not None else None)
    if _top_level_op(f_text) and not (f_text.startswith("(") and balanced_outer(f_text)):
        f_text = "(" + f_text + ")"
    had = (_had_factors(F, free, st, pt) or [(f_text, f_val)]) + [(b_text, b_val)]
    return [], (st["open"] + f_text + st["had"] + b_text + st["close"],
                dc.hadamard(f_val, b_val) if pt is not None else None, had)


def _had_factors(item, orient, st, pt):
    """[(text, value)] of the factors of an item printed as a Hadamard product (a ⊙ b), else None."""
    if len(item.exprs) < 2 or any(_is_reciprocal(e) for e in item.exprs) or \
            (len(item.idx) == 2 and tuple(orient) == tuple(reversed(item.idx))):
        return None
    one = [_Item.of([e], item.idx) for e in item.exprs]
    return [(_print_item(it, orient, st), _item_value(it, orient, pt) if pt is not None else None) for it in one]


def _extents_by_free(ls, free):
    """ls with size(k) of a summed index k written size(i) for the free index i of the same extent: a summed index
    is no axis of the matrix form (dx = dy - 𝟙·dyᵀ·𝟙/size(i), not size(k) for a k the form never shows)."""
    def named(coeff):
        swap = {}
        for x in coeff.atoms(Extent):
            f = next((f for f in free if f.ext == x.args[0].ext), None)
            if x.args[0] not in free and f is not None:
                swap[x] = Extent(f)
        return swap
    return _swapped_coefficients(ls, named)


def _swapped_coefficients(ls, swaps):
    """ls with each term's coefficient rewritten by the replacements swaps(coefficient) gives; ls itself where none."""
    terms = []
    for t in ls.terms:
        swap = swaps(t.coeff)
        terms.append(type(t)(t.coeff.xreplace(swap), t.sums, t.atom) if swap else t)
    return ls if all(a is b for a, b in zip(terms, ls.terms)) else type(ls)(ls.target, ls.indices, terms)


def _symmetric_reads(ls):
    """ls with each read of a tensor its domain makes symmetric written with its last two indices in one order
    (S[k,i] as S[i,k]), so that S[i,k] + S[k,i] is 2·S[i,k]: shown 2·ds·S·x, not ds·(S + S)·x (the form prints Sᵀ as
    S for such a tensor anyway, and its check samples S symmetric)."""
    if not _SYMMETRIC.get():
        return ls

    def canonical(coeff):
        swap = {}
        for a in ir.accesses(coeff):
            if len(a.args) >= 2 and _symmetric(ir.acc_name(a)):
                *lead, p, q = a.args
                if sp.default_sort_key(q) < sp.default_sort_key(p):
                    swap[a] = ir.access(ir.acc_name(a), (*lead, q, p))
        return swap
    return _swapped_coefficients(ls, canonical)


def stmt_matrix(ls, style="unicode", pt=None):
    """`dA = -Bᵀ·dB·Bᵀ`, or None when some term has no matrix form; with a Point pt, (text, its value)."""
    try:
        return _stmt_matrix(ls, style, pt)
    except _NoForm:         # a scalar inside a number (a divisor ‖u‖², uᵀ·v) with no matrix form
        return None


def _stmt_matrix(ls, style, pt):
    st = STYLES[style]
    free = tuple(ls.indices)
    if len(free) > 2:
        return None
    if not ls.terms:
        text = f"{pretty_name(ls.target, style)} = 0"
        return text if pt is None else (text, np.float64(0.0))
    if any(shifts.has_affine(t.coeff * t.atom) for t in ls.terms):
        return None         # a shifted read (a convolution) has no matrix product form: index form only
    ls = _symmetric_reads(_extents_by_free(ls, free))
    tri = common_triangle(ls)
    if tri is not None:
        return _triangle_matrix(ls, style, pt, tri)
    ls = type(ls)(ls.target, ls.indices, [u for t in ls.terms for u in scan_terms(softmax_term(t), free)])
    parts = []
    try:
        for t in ls.terms:
            try:
                parts.append(term_pieces(t, free, st, pt))
            except _NoForm:     # Σ (B[i,k]·C[l,j] + B[k,i]·C[j,l])·X[k,l]: a product per summand (B·X·C + Bᵀ·X·Cᵀ)
                summands = sp.Add.make_args(sp.expand(t.coeff, deep=False, power_base=False, power_exp=False,
                                                      log=False, multinomial=False, basic=False))
                if len(summands) < 2:
                    raise
                parts.extend(term_pieces(type(t)(u, t.sums, t.atom), free, st, pt) for u in summands)
    except _NoForm:
        return None
    merged: dict = {}        # terms shown alike are one term: -a/2 - a/2 is -a (S⁻ᵀ shown S⁻¹ for a symmetric S)
    for num, pieces in parts:
        key = _joined(pieces, st, False)[0]
        merged[key] = (merged[key][0] + num, pieces) if key in merged else (num, pieces)
    parts = [p for p in merged.values() if p[0] != 0]
    if not parts:
        text = f"{pretty_name(ls.target, style)} = 0"
        return text if pt is None else (text, np.float64(0.0))
    rhs = _sum_text([(n, _joined(ps, st, False)[0]) for n, ps in parts], style)
    factored = _factored(parts, st, style, pt)
    if factored is not None:
        rhs2 = _sum_text([(factored[0], _joined(factored[1], st, False)[0])], style)
        if symbol_count(rhs2) < symbol_count(rhs):
            rhs, parts = rhs2, [factored]
    text = f"{pretty_name(ls.target, style)} = {rhs}"
    if pt is None:
        return text
    value = np.float64(0.0)      # the value of what is shown: each shown term from its own pieces
    for num, pieces in parts:
        value = dc.add(value, dc.mul(_value(num, (), pt), _joined(pieces, st, True)[1]))
    return text, value


def _sum_text(parts, style):
    """The text of Σ num·text over parts [(num, text)]: the first positive term first (dy - a, not -a + dy),
    fractions as books write them (2·dL·(p - t)/n)."""
    st = STYLES[style]
    lead = next((k for k, p in enumerate(parts) if not p[0].could_extract_minus_sign()), 0)
    parts = [parts[lead]] + parts[:lead] + parts[lead + 1:]
    rhs = ""
    for k, (num, text) in enumerate(parts):
        neg = num.could_extract_minus_sign()
        mag = -num if neg else num
        top, bottom = sp.fraction(mag)
        if bottom != 1 and not top.has(Extent) and (top.is_number or not isinstance(top, sp.Add)):
            text, mag = _over(text, bottom, style), top        # 2·dL·(p - t)/n, as books write it
        coef = "" if mag == 1 else (_num(mag, style) + st["dot"])
        if coef and not mag.is_Rational and (isinstance(mag, sp.Add) or "/" in coef):
            coef = "(" + coef[:-len(st["dot"])] + ")" + st["dot"]
        if k == 0:
            rhs = ("-" if neg else "") + coef + text
        else:
            rhs += (" - " if neg else " + ") + coef + text
    return rhs


def _common_number(nums):
    """The positive number every term's number is a multiple of: 1/2 of 1/2 and -1/2, 1 of 2 and 3."""
    if all(n.is_Rational for n in nums):
        return sp.Rational(gcd(*[int(n.p) for n in nums]), lcm(*[int(n.q) for n in nums]))
    first = -nums[0] if nums[0].could_extract_minus_sign() else nums[0]
    return first if all(n in (first, -first) for n in nums) else sp.S.One


def _factored(parts, st, style, pt):
    """One term (number, pieces) for the sum of parts [(number, pieces)] with their common leading and trailing
    factors and their common number outside: A·B·x + A·C·x is A·(B + C)·x, dL·S⁻¹/2 - dL·S⁻¹·u·uᵀ·S⁻¹/2 is
    dL·S⁻¹·(I - u·uᵀ·S⁻¹)/2, and a sum whose terms are all transposes its transpose, Xᵀ·Bᵀ + Bᵀ·Xᵀ = (B·X + X·B)ᵀ.
    None when there is nothing to take out, or the factored value does not exist (shapes that do not fit)."""
    if len(parts) < 2:
        return None
    V = pt is not None
    if all(len(ps) == 1 for _, ps in parts):
        got = _factored_hadamard(parts, st, style, pt)
        if got is not None:
            return got
    texts = [[p[0] for p in ps] for _, ps in parts]
    n = min(len(t) for t in texts)
    pre = 0
    while pre < n and all(t[pre] == texts[0][pre] for t in texts):
        pre += 1
    suf = 0
    while suf < n - pre and all(t[-1 - suf] == texts[0][-1 - suf] for t in texts):
        suf += 1
    g = _common_number([num for num, _ in parts])
    prefix, suffix = parts[0][1][:pre], parts[0][1][len(parts[0][1]) - suf:]
    middles = [(num / g, ps[pre:len(ps) - suf]) for num, ps in parts]
    try:
        one = _identity(middles, st, V)
        if one is None:
            return None
        middles = [(num, ps or [one]) for num, ps in middles]
        middles.sort(key=lambda m: symbol_count(_joined(m[1], st, False)[0]))    # D + Dᵀ, I - u·uᵀ
        inner = st["open"] + _sum_text([(num, _joined(ps, st, False)[0]) for num, ps in middles], style) + \
            st["close"]
        value = None
        if V:
            value = np.float64(0.0)
            for num, ps in middles:
                value = dc.add(value, dc.mul(_value(num, (), pt), _joined(ps, st, True)[1]))
        flipped = [(num, [_transposed_piece(p[0], st) for p in reversed(ps)], ps) for num, ps in middles]
        if all(all(f) for _, f, _ in flipped):
            inner_t = st["open"] + _sum_text([(num, st["dot"].join(t for t, _ in f)) for num, f, _ in flipped],
                                             style) + st["close"] + st["T"]
            if symbol_count(inner_t) < symbol_count(inner):
                inner = inner_t
                if V:
                    value = np.float64(0.0)
                    for num, f, ps in flipped:
                        vals = [dc.transpose(p[1]) if flip else p[1] for (_, flip), p in zip(f, reversed(ps))]
                        value = dc.add(value, dc.mul(_value(num, (), pt), dc.chain(vals)))
                    value = dc.transpose(value)
            elif not pre + suf:
                return None
        elif not pre + suf:
            return None
        pieces = prefix + [(inner, value)] + suffix
        if V:
            _joined(pieces, st, True)      # shapes that fit
    except dc.Mismatch:
        return None
    return g, pieces


def _factored_hadamard(parts, st, style, pt):
    """y ⊙ (dy - r·𝟙ᵀ) for y ⊙ dy - y ⊙ (r·𝟙ᵀ): one term for terms that are Hadamard products with common factors,
    else None."""
    V = pt is not None
    had = [list(ps[0][2]) if len(ps[0]) > 2 and ps[0][2] else [ps[0][:2]] for _, ps in parts]
    common = []
    for f in had[0]:
        if all(any(h[0] == f[0] for h in hs) for hs in had):
            common.append(f)
            for hs in had:
                hs.pop(next(k for k, h in enumerate(hs) if h[0] == f[0]))
    if not common or not all(had):
        return None
    g = _common_number([num for num, _ in parts])

    def strip(t):
        return t[len(st["open"]):-len(st["close"])] if t.startswith(st["open"]) and balanced_outer(t) else t

    rest = [(num / g, st["had"].join(h[0] for h in hs) if len(hs) > 1 else strip(hs[0][0]), hs) for (num, _), hs
            in zip(parts, had)]
    inner = st["open"] + _sum_text([(n, t) for n, t, _ in rest], style) + st["close"]
    text = st["had"].join(c[0] for c in common) + st["had"] + inner
    value = None
    if V:
        try:
            inner_v = np.float64(0.0)
            for n, _, hs in rest:
                v = np.float64(1.0)
                for h in hs:
                    v = dc.hadamard(v, h[1])
                inner_v = dc.add(inner_v, dc.mul(_value(n, (), pt), v))
            value = inner_v
            for c in common:
                value = dc.hadamard(c[1], value)
        except dc.Mismatch:
            return None
    return g, [(st["open"] + text + st["close"], value)]


def _identity(middles, st, V):
    """(text, value) of an empty middle: I beside square matrices, 1 beside scalars; None where neither fits."""
    if all(ps for _, ps in middles):
        return "", None
    if not V:
        return "I", None
    shapes = {np.shape(_joined(ps, st, True)[1]) for _, ps in middles if ps}
    if shapes <= {(), (1, 1)}:
        return "1", np.float64(1.0)
    if len(shapes) == 1:
        (a, b), = shapes
        if a == b:
            return "I", np.eye(a)
    return None


def _outside(text):
    """(position, character) of text outside its parentheses, brackets and norms ‖…‖."""
    depth, norm = 0, False
    for k, ch in enumerate(text):
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch == "‖":
            norm = not norm
        elif depth == 0 and not norm:
            yield k, ch


def _top_level_op(text):
    """Whether text has an operator outside its parentheses (a product, quotient, sum): `2·n`, not `sqrt(n)`."""
    return any(ch in "·/+- ⊙*" for _, ch in _outside(text))


def _top_level_had(text, st):
    """Whether a ⊙ stands outside text's parentheses: `a ⊙ b` inside a matrix product needs them."""
    return any(text.startswith(st["had"], k) for k, _ in _outside(text))


def _top_level_sum(text):
    return any(ch in "+-" and k > 0 and text[k - 1] == " " for k, ch in _outside(text)) or text.startswith("-")


def _over(text, den, style):
    """text divided by the scalar den: `a·b/n`, `(a + b)/(2·n)`; in LaTeX a fraction."""
    if style == "latex":
        return "\\frac{" + text + "}{" + _num(den, style) + "}"
    d = _num(den, style)
    if _top_level_op(d) and not (d.startswith("(") and balanced_outer(d)):
        d = "(" + d + ")"
    if _top_level_sum(text):
        text = "(" + text + ")"
    return text + "/" + d


def _num(x, style):
    if not x.is_Rational:
        if any(ir.is_access(a) for a in sp.preorder_traversal(x)):     # a scalar of the rule: v, ‖x‖
            return _printer((), STYLES[style]).doprint(x)
        if style == "latex":
            return INDEX_LATEX.doprint(x)
        return _ElemPrinter((), STYLES["unicode"]).doprint(x)
    if x.is_Integer:
        return str(x)
    if style == "latex" and x.is_Rational:
        return f"\\tfrac{{{x.p}}}{{{x.q}}}"
    return str(x)


def safe_stmt_matrix(ls, style="unicode", domains=None):
    """stmt_matrix, shown only when its value (its own algebra, at a random point) equals the statement's (its
    index form); a display limitation of ours, or a form that fails the check, falls back to index form."""
    if getattr(ls, "mode", None):       # a linear map given as code: its declaration's display
        return opaque_text(ls, style)
    return memoized("matrix", ls, style, domains, lambda: _symmetric_safe_stmt_matrix(ls, style, domains))


def _symmetric_safe_stmt_matrix(ls, style, domains):
    token = _SYMMETRIC.set(frozenset(n for n, dom in (domains or {}).items() if dom in ("spd", "symmetric")))
    try:
        return _safe_stmt_matrix(ls, style, domains)
    finally:
        _SYMMETRIC.reset(token)


def _safe_stmt_matrix(ls, style, domains):
    got = _checked_stmt_matrix(ls, style, domains)
    if got is None and _batch_slice(ls) is not None:
        return _safe_batched(ls, style, domains)
    return got


def _index_point(ls, domains):
    """(a Point, the statement's index-form value there, or the exception valuing it raised), made once per
    statement and domains within the open derivation's naming: each style's check starts from a copy of it."""
    def make():
        pt = dc.Point(domains)
        try:
            return pt, dc.stmt_value(ls, pt)
        except Exception as e:     # the index form itself could not be evaluated: nothing vouches for a form
            return pt, e
    return memoized("index point", ls, None, domains, make)


def _checked_stmt_matrix(ls, style, domains):
    base, want = _index_point(ls, domains)
    pt = base.copy()
    try:
        got = stmt_matrix(ls, style, pt)
    except dc.Mismatch as e:
        got = stmt_matrix(ls, style)
        if got is not None:
            dc.reject(ls, got, str(e))
        return None
    except Exception:
        return None
    if got is None:
        return None
    text, value = got
    if isinstance(want, Exception):
        reason = f"the statement could not be evaluated ({type(want).__name__}: {want})"
    else:
        try:
            reason = dc.compare(value, want)
        except Exception as e:
            reason = f"the statement could not be compared ({type(e).__name__}: {e})"
    if reason is not None:
        dc.reject(ls, text, reason)
        return None
    return text


# -- batched statements: the matrix form of one batch slice, the batch index written once per tensor ------------
# A statement whose tensors all carry the same leading index b (axis 0), or do not carry it at all (a tensor shared
# across the batch), is shown as its slice for one b, each batched tensor subscripted: `dA_b = dC_b·B_bᵀ`. A shared
# tensor's cotangent sums the slices: `dB = Σ_b A_bᵀ·dC_b`. The slice's form is valued per batch element from its
# own pieces and compared with the statement's index form, as any other matrix form.

SLICE = "§"         # `A§b` is the slice A_b of A at batch index b (display only; never a name of the rule's)


def _batch_of(t, free_b):
    """The batch index of term t: free_b when given, else the summed index at axis 0 of every access that reads it
    and read by every access of rank ≥ 3; None when the term has none."""
    accs = [a for a in ir.accesses(t.coeff * t.atom) if a.args]
    cands = [free_b] if free_b is not None else list(t.sums)
    for b in cands:
        if all(b not in a.args[1:] for a in accs) and all(a.args[0] == b for a in accs if len(a.args) >= 3) \
                and (free_b is not None or any(a.args[0] == b for a in accs if len(a.args) >= 3)) \
                and not any(b in e.atoms(Idx) for e in t.coeff.atoms(IndexSum)):
            return b
    return None


def _sliced(e, b, name):
    """e with every access X[b, …] read as the slice X_b[…] (the slice's name shows the batch index as `name`)."""
    return e.replace(lambda a: ir.is_access(a) and a.args and a.args[0] == b,
                     lambda a: ir.access(ir.acc_name(a) + SLICE + name, a.args[1:]))


def _batch_slice(ls):
    """(the statement's slice at one batch index, [each term's batch index], whether the target is shared across
    the batch (its slices are summed), the batch index's name), or None when the statement is not batched: some
    tensor of rank ≥ 3 not batched along axis 0 of the others, or a rank ≤ 2 statement (its own form applies)."""
    if getattr(ls, "mode", None) or not ls.terms:
        return None
    if not any(len(a.args) >= 3 for t in ls.terms for a in ir.accesses(t.coeff * t.atom)) and len(ls.indices) < 3:
        return None
    free_b = ls.indices[0] if ls.indices else None
    bs = [_batch_of(t, free_b) for t in ls.terms]
    if free_b is not None and bs[0] is None:      # the target's first index is no batch index: shared target?
        free_b = None
        bs = [_batch_of(t, None) for t in ls.terms]
    if any(b is None for b in bs):
        return None
    shared = free_b is None
    if shared:      # the batch index's name: its class's letter (the rule's own), where no index of the target has it
        name = bs[0].ext if bs[0].ext not in {i.name for i in ls.indices} else bs[0].name
    else:
        name = free_b.name
    terms = [Term(_sliced(t.coeff, b, name), tuple(s for s in t.sums if s != b), _sliced(t.atom, b, name))
             for t, b in zip(ls.terms, bs)]
    target, idx = (ls.target, tuple(ls.indices)) if shared else (ls.target + SLICE + name, tuple(ls.indices[1:]))
    return type(ls)(target, idx, terms), bs, shared, name


class _SlicePoint:
    """The values of one batch element beta of Point pt: a slice X_b reads X[beta]; shared tensors read as they are."""

    def __init__(self, pt, b, beta):
        self.pt, self.b, self.beta = pt, b, beta

    def size(self, i):
        return self.pt.size(i)

    def array(self, access):
        name = ir.acc_name(access)
        if SLICE not in name:
            return self.pt.array(access)
        base = name.split(SLICE, 1)[0]
        return self.pt.value(base, (self.pt.size(self.b),) + tuple(self.pt.size(i) for i in access.args))[self.beta]


def batched_text(text, shared, name, style):
    """The shown form of a slice's text: as it is (`dA_b = …`), or summed over the batch (`dB = Σ_b …`)."""
    if not shared:
        return text
    target, rhs = text.split(" = ", 1)
    if _top_level_sum(rhs):
        rhs = STYLES[style]["open"] + rhs + STYLES[style]["close"]
    if style == "latex":
        return f"{target} = \\sum_{{{name}}} {rhs}"
    return f"{target} = Σ_{name} {rhs}"


def _safe_batched(ls, style, domains):
    """The batched matrix form of ls, shown only when every batch element's slice, valued from the form's own pieces,
    equals the statement's index form there (a shared target: the sum of the slices equals it)."""
    sl, bs, shared, name = _batch_slice(ls)
    pt = dc.Point(domains)
    try:
        want = dc.stmt_value(ls, pt)
    except Exception:
        return None
    b = bs[0]
    text, total = None, np.float64(0.0)
    try:
        for beta in range(pt.size(b)):
            got = stmt_matrix(sl, style, _SlicePoint(pt, b, beta))
            if got is None:
                return None
            text, value = got
            if shared:
                total = dc.add(total, value)
                continue
            w = want[beta]
            reason = dc.compare(value, w.reshape(-1, 1) if np.ndim(w) == 1 else w)
            if reason is not None:
                dc.reject(ls, text, f"batch element {beta}: {reason}")
                return None
        if shared:
            reason = dc.compare(total, want)
            if reason is not None:
                dc.reject(ls, text, f"the sum over the batch: {reason}")
                return None
    except dc.Mismatch as e:
        dc.reject(ls, text or "", str(e))
        return None
    except Exception:
        return None
    return batched_text(text, shared, name, style)
