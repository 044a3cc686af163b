"""Matrix form of a derived statement, where one exists: products, transposes, inverses, traces, Hadamard.

Each term's factors become vectors and matrices (indices as their edges); walking the chains from the
result's free indices gives the product order and which factors are transposed (-Bᵀ·dB·Bᵀ). A term with
a factor of rank > 2, a diagonal, or a nonlinear reduction has no matrix form: the caller shows index form.
"""
from __future__ import annotations

import sympy as sp
from sympy.printing.str import StrPrinter

from . import ir
from .display import pretty_name
from .emit_numpy import _balanced_outer
from .ir import IndexSum
from .ir import Extent, Idx


class _NoForm(Exception):
    pass


STYLES = {
    "unicode": {"dot": "·", "T": "ᵀ", "had": " ⊙ ", "ones": "𝟙", "tr": "tr", "open": "(", "close": ")"},
    "latex": {"dot": " ", "T": "^{\\top}", "had": " \\odot ", "ones": "\\mathbf{1}", "tr": "\\operatorname{tr}",
              "open": "\\left(", "close": "\\right)"},
}


class _Item:
    """A vector or matrix factor: `expr` over `idx` (1 or 2 indices), printed relative to an orientation."""

    def __init__(self, expr, idx):
        self.exprs = [expr]
        self.idx = tuple(idx)


class _ElemPrinter(StrPrinter):
    """Prints an elementwise expression over matrix/vector accesses in a given orientation."""

    def __init__(self, orient, st):
        super().__init__()
        self.orient = tuple(orient)
        self.st = st

    def _print_Function(self, e):
        if ir.is_access(e):
            return _name(e, self.orient, self.st)
        return super()._print_Function(e)

    def _print_KroneckerDelta(self, e):
        return "I"

    def _print_Mul(self, e):
        return super()._print_Mul(e).replace("*", self.st["dot"])

    def _print_Pow(self, e, rational=False):
        if e.exp == 2:
            return self.parenthesize(e.base, 60) + ("²" if self.st is STYLES["unicode"] else "^{2}")
        return super()._print_Pow(e, rational)

    def _print_Extent(self, e):
        return f"size({e.args[0].name})"

    def _print_Unequality(self, e):
        ne = "≠" if self.st is STYLES["unicode"] else r"\neq"
        return f"{self._print(e.lhs)} {ne} {self._print(e.rhs)}"

    def _print_IndexSum(self, e):
        raise _NoForm()


def _name(access, orient, st):
    style = "latex" if st is STYLES["latex"] else "unicode"
    n = pretty_name(ir.acc_name(access), style)
    idx = tuple(access.args)
    if not idx:
        return n
    if len(set(idx)) != len(idx):
        raise _NoForm()
    if idx == tuple(orient) or len(idx) == 1:
        return n
    if idx == tuple(reversed(orient)):
        if n.endswith("⁻¹"):
            return n[:-2] + "⁻ᵀ"
        if n.endswith("^{-1}"):
            return n[:-5] + "^{-\\top}"
        return n + st["T"]
    raise _NoForm()


def _print_item(item, orient, st):
    if len(item.idx) == 2 and tuple(orient) == tuple(reversed(item.idx)) and len(item.exprs) > 1:
        inner = _print_item(item, item.idx, st)
        return inner + st["T"]
    parts = []
    for e in item.exprs:
        if ir.is_access(e) or isinstance(e, sp.KroneckerDelta):
            s = "I" if isinstance(e, sp.KroneckerDelta) else _name(e, orient, st)
        else:
            s = _ElemPrinter(orient, st).doprint(e)
            if isinstance(e, sp.Add):
                s = f"({s})"
        parts.append(s)
    if len(parts) == 1:
        return parts[0]
    return "(" + st["had"].join(parts) + ")"


def _scalar(e, st):
    if ir.is_access(e):
        return pretty_name(ir.acc_name(e), "latex" if st is STYLES["latex"] else "unicode")
    s = _ElemPrinter((), st).doprint(e)
    return f"({s})" if isinstance(e, sp.Add) else s


def term_matrix(t, free, st):
    num = sp.S.One
    scalars, items = [], []
    factors = (list(t.coeff.args) if isinstance(t.coeff, sp.Mul) else [t.coeff]) + [t.atom]
    for f in factors:
        if f.is_number or (not f.atoms(Idx) - set().union(*[e.args[0].atoms(Idx) for e in f.atoms(Extent)] or [set()])
                           and not any(ir.is_access(a) for a in sp.preorder_traversal(f))):
            num *= f
            continue
        if f.has(IndexSum):
            raise _NoForm()
        idx = ir.free_indices(f, f.atoms(Idx))
        if ir.is_access(f) and len(f.args) == 2 and f.args[0] == f.args[1] and f.args[0] not in free:
            scalars.append(st["tr"] + st["open"] + _scalar(f.func(), st) + st["close"])
            continue
        if ir.is_access(f) and len(set(f.args)) != len(f.args):
            raise _NoForm()
        if not idx:
            scalars.append(_scalar(f, st))
        elif len(idx) <= 2:
            items.append(_Item(f, idx))
        else:
            raise _NoForm()
    # Hadamard: factors over the same indices multiply elementwise
    merged: list = []
    for it in items:
        for m in merged:
            plain = all(ir.is_access(e) for e in m.exprs + it.exprs)
            if set(m.idx) == set(it.idx) and not (plain and not set(it.idx) & set(free)):
                m.exprs.extend(it.exprs)
                break
        else:
            merged.append(it)
    items = merged
    where: dict = {}
    for k, it in enumerate(items):
        for s in it.idx:
            where.setdefault(s, []).append(k)
    for s, ks in where.items():
        if len(ks) > 2 or (s in free and len(ks) > 1):
            raise _NoForm()
    used = set()

    def walk(start_idx):
        """Follow the chain starting at index start_idx; return (printed pieces, end index or None)."""
        pieces = []
        cur = start_idx
        while True:
            ks = [k for k in where.get(cur, []) if k not in used]
            if not ks:
                return pieces, cur
            k = ks[0]
            used.add(k)
            it = items[k]
            if len(it.idx) == 1:
                pieces.append(_print_item(it, it.idx, st))
                return pieces, None
            other = it.idx[1] if it.idx[0] == cur else it.idx[0]
            pieces.append(_print_item(it, (cur, other), st))
            if other in free:
                return pieces, other
            cur = other

    out = []
    dot = st["dot"]
    if len(free) == 2:
        p, q = free
        chain, end = walk(p)
        if end == q:
            out.append(dot.join(chain))
        else:
            # an outer product: (chain from p)·(chain from q)ᵀ
            left = chain + ([st["ones"]] if end is not None else [])
            right, end2 = walk(q)
            right = right + ([st["ones"]] if end2 is not None else [])
            r = dot.join(right)
            r = r + st["T"] if len(right) == 1 else st["open"] + r + st["close"] + st["T"]
            out.append(dot.join(left) + dot + r)
    elif len(free) == 1:
        chain, end = walk(free[0])
        if end is not None:
            chain.append(st["ones"])
        out.append(dot.join(chain))
    # what is left: vector-to-vector chains (scalars like xᵀ·A·y), then closed chains (traces)
    while len(used) < len(items):
        rest = [k for k in range(len(items)) if k not in used]
        vec = [k for k in rest if len(items[k].idx) == 1]
        dangling = [k for k in rest if any(len(where[s]) == 1 for s in items[k].idx)]
        if vec:
            k = vec[0]
            used.add(k)
            head = _print_item(items[k], items[k].idx, st) + st["T"]
            chain, end = walk(items[k].idx[0])
        elif dangling:
            k = dangling[0]
            head = st["ones"] + st["T"]
            chain, end = walk(next(s for s in items[k].idx if len(where[s]) == 1))
        else:
            chain, _ = walk(items[rest[0]].idx[0])
            out.append(f"{st['tr']}{st['open']}{dot.join(chain)}{st['close']}")
            continue
        out.append(dot.join([head] + chain + ([st["ones"]] if end is not None else [])))
    text = dot.join(scalars + out) if (scalars or out) else "1"
    if text.startswith("(") and _balanced_outer(text) and (len(out) + len(scalars)) == 1:
        text = text[1:-1]
    return num, text


def stmt_matrix(ls, style="unicode"):
    """`dA = -Bᵀ·dB·Bᵀ`, or None when some term has no matrix form."""
    st = STYLES[style]
    free = tuple(ls.indices)
    if len(free) > 2:
        return None
    if not ls.terms:
        return f"{pretty_name(ls.target, style)} = 0"
    parts = []
    try:
        for t in ls.terms:
            parts.append(term_matrix(t, free, st))
    except _NoForm:
        return None
    rhs = ""
    for k, (num, text) in enumerate(parts):
        neg = num.could_extract_minus_sign()
        mag = -num if neg else num
        coef = "" if mag == 1 else (_num(mag, style) + st["dot"])
        if coef and not mag.is_Rational and (isinstance(mag, sp.Add) or "/" in coef):
            coef = "(" + coef[:-len(st["dot"])] + ")" + st["dot"]
        if k == 0:
            rhs = ("-" if neg else "") + coef + text
        else:
            rhs += (" - " if neg else " + ") + coef + text
    return f"{pretty_name(ls.target, style)} = {rhs}"


def _num(x, style):
    if not x.is_Rational:
        if style == "latex":
            from .display import _TEX
            return _TEX.doprint(x)
        return _ElemPrinter((), STYLES["unicode"]).doprint(x)
    if x.is_Integer:
        return str(x)
    if style == "latex" and x.is_Rational:
        return f"\\tfrac{{{x.p}}}{{{x.q}}}"
    return str(x)


def safe_stmt_matrix(ls, style="unicode"):
    """stmt_matrix, where a display limitation of ours falls back to index form instead of failing."""
    if getattr(ls, "mode", None):       # a linear map given as code: its declaration's display
        from .display import opaque_text

        return opaque_text(ls, style)
    try:
        return stmt_matrix(ls, style)
    except Exception:
        return None
