"""How derived statements are written: tensor and index names, index-form printers (Unicode and LaTeX), and
the display names of a derivation's internal tensors. Both the index form and the matrix form build on it.
"""
from __future__ import annotations

import contextvars
import functools
import re

import sympy as sp
from sympy.printing.latex import LatexPrinter
from sympy.printing.str import StrPrinter

from derive.calculus.differential import COT, GIVEN, TAN, LinStmt, Term, base_name
from derive.display import check as display_check
from derive.display import mapform
from derive.ir import nodes as ir
from derive.ir.masks import relation_text


def pretty_name(name: str, style="unicode") -> str:
    """Display name of a tensor: tangents/cotangents as dX, lifted temporaries as t0, inverses as X⁻¹."""
    prefix = ""
    if name.startswith((TAN, COT, GIVEN)):
        prefix, name = "d", base_name(name)
    prim = primitive_value(name)
    if prim is not None:
        p, arg = prim
        inner = pretty_name(arg, style)
        shown = (p.show if style == "unicode" else p.show_latex).format(X=inner, name=p.name)
        if prefix:
            return "d(" + shown + ")" if style == "unicode" else r"\mathrm{d}(" + shown + ")"
        return shown
    if "§" in name:                 # a batch slice A§b (matrixform): A_b, dA_b, A_b⁻¹
        base, sub = name.rsplit("§", 1)
        inner = pretty_name(base, style)
        if style == "latex":
            inner = "{" + inner + "}" if "_" in inner or inner.endswith("}") else inner
            return (r"\mathrm{d}" if prefix else "") + inner + "_{" + sub.replace("_", r"\_") + "}"
        return prefix + inner + "_" + sub
    shown = (_NAMES.get() or {}).get(name)
    if shown is not None:           # an internal name, shown apart from the rule's own names
        name = shown[style == "latex"]
        if style == "latex":
            return (r"\mathrm{d}" if prefix else "") + name
        return prefix + name
    if name.startswith("__"):  # a user's own name that starts with '_' (see lower.ir_name)
        name = name[1:]
    elif name.startswith("_z"):
        name = "z"
    elif name.startswith("_"):
        name = name.lstrip("_")
    if style == "latex" and prefix:
        return r"\mathrm{d}" + latex_name(name)
    if style == "latex":
        return latex_name(name)
    return prefix + name


_NAMES: contextvars.ContextVar = contextvars.ContextVar("display_names", default=None)
_SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def internal_names(d) -> dict:
    """Display names (Unicode, LaTeX) of the IR-made tensors of derivation d -- lifted temporaries t0, solve's
    tangent temporaries z -- chosen apart from every name of the rule and from each other."""
    found = set()
    stmts = list(d.pushforward) + list(d.pullback)
    for ls in stmts:
        found.add(base_name(ls.target) if ls.target.startswith((TAN, COT, GIVEN)) else ls.target)
        for t in getattr(ls, "terms", None) or ():
            for a in ir.accesses(t.coeff * t.atom):
                n = ir.acc_name(a)
                found.add(base_name(n) if n.startswith((TAN, COT, GIVEN)) else n)
    prog = getattr(d, "program", None)
    for v in (prog.all_vars if prog is not None else ()):
        found.add(v.name)
    internal = sorted(n for n in found if n.startswith("_") and not n.startswith("__")
                      and primitive_value(n) is None)
    taken = {n[1:] if n.startswith("__") else n for n in found if n not in internal}
    out = {}
    zs = [n for n in internal if n.startswith("_z")]
    for n in internal:
        if n.startswith("_z"):
            base, sub = "z", ("" if len(zs) == 1 else str(zs.index(n) + 1))
        else:
            base, sub = n.lstrip("_"), ""
        uni, tex = base + sub.translate(_SUBSCRIPT), (latex_name(base) + (f"_{{{sub}}}" if sub else ""))
        while uni in taken:             # a rule's own name: prime the internal one (z′, t0′)
            uni, tex = uni + "′", "{" + tex + "}'"
        taken.add(uni)
        out[n] = (uni, tex)
    return out


class naming:
    """Within it, pretty_name shows derivation d's internal tensors by internal_names(d), and display_check's
    points compute d's primitive values (`C = det(A)`, inv(X)) from their arguments.

    It also opens a memo of shown forms (see `memoized`): within one naming, or within one `shared_forms(d)`
    around several namings of d, each statement's form (a matrix form is checked numerically) is made once."""

    def __init__(self, d):
        shared = _SHARED.get()
        if shared is not None and shared[0] is d and d is not None:
            if "names" not in shared[2]:     # d's names and definitions, found once while shared_forms(d) is open
                shared[2]["names"] = internal_names(d), primitive_defs(d)
            self.names, self.defs = shared[2]["names"]
        else:
            self.names = internal_names(d) if d is not None else None
            self.defs = primitive_defs(d)
        self.memo = _memo_of(d, (tuple(sorted((self.names or {}).items())), tuple(sorted(self.defs.items()))))

    def __enter__(self):
        self.token = _NAMES.set(self.names)
        self.dtoken = display_check.DEFS.set(self.defs)
        self.mtoken = _MEMO.set(self.memo)

    def __exit__(self, *exc):
        _NAMES.reset(self.token)
        display_check.DEFS.reset(self.dtoken)
        _MEMO.reset(self.mtoken)


# The open naming's memo of shown forms, {(what, style, domains, statement key): text}; None outside `naming`.
_MEMO: contextvars.ContextVar = contextvars.ContextVar("display_memo", default=None)
# (derivation, {naming key: memo}, {"names": (its internal names, its definitions)}) while shared_forms is open
_SHARED: contextvars.ContextVar = contextvars.ContextVar("display_shared", default=None)


class shared_forms:
    """Within it, every naming of d shares one memo of shown forms: the record, the outcome's pushforward and
    pullback and the shown pullback's rewrites show many of the same statements (derive.display.outcome), and
    each is printed and checked once. The memo ends with the block, so a later display prints afresh."""

    def __init__(self, d):
        self.d = d

    def __enter__(self):
        self.token = _SHARED.set((self.d, {}, {}))
        return self

    def __exit__(self, *exc):
        _SHARED.reset(self.token)


def _memo_of(d, key) -> dict:
    """The memo of one naming of d: shared_forms(d)'s for these names and definitions (they are part of what a
    form shows) while it is open, else a new one."""
    shared = _SHARED.get()
    if shared is None or shared[0] is not d or d is None:
        return {}
    return shared[1].setdefault(key, {})


def stmt_key(ls):
    """A statement's content as a dict key (SymPy's structural equality: 1 and 1.0 differ), or None."""
    try:
        return (type(ls), ls.target, tuple(ls.indices), tuple(ls.terms))
    except (AttributeError, TypeError):
        return None


def memoized(what, ls, style, domains, make):
    """make(), or what it gave for an equal statement shown the same way within the open derivation's naming."""
    return _cached(what, style, domains, lambda: stmt_key(ls), make)


def memoized_all(what, stmts, style, domains, make):
    """make(), or what it gave for an equal list of statements within the open derivation's naming (a shown
    pullback: derive-rules' JSON and the record show the same one, and rewriting it looks at every statement)."""
    def key():
        keys = tuple(stmt_key(ls) for ls in stmts)
        return None if None in keys else keys
    return _cached(what, style, domains, key, make)


def _cached(what, style, domains, content, make):
    memo = _MEMO.get()
    k = content() if memo is not None else None
    if k is None:
        return make()
    key = (what, style, tuple(sorted((domains or {}).items())), k)
    try:
        return memo[key]
    except KeyError:
        memo[key] = got = make()
        return got
    except TypeError:           # an unhashable part: shown without the memo
        return make()


def primitive_defs(d) -> dict:
    """{name: (primitive, argument names)} of d's program and auxiliary statements that apply a primitive."""
    prog = getattr(d, "program", None)
    stmts = list(getattr(prog, "stmts", None) or ()) + list(getattr(d, "aux", None) or ())
    return {st.target: (st.prim, tuple(st.args)) for st in stmts
            if getattr(st, "prim", None) and st.prim in ir.ALL_PRIMITIVES}


def primitive_value(name):
    """(declaration, argument) for the IR's name of a primitive's value, `_inv_A` or `_eigvecsh_S`."""
    if not name.startswith("_") or name.startswith("__"):
        return None
    for pname, p in ir.ALL_PRIMITIVES.items():
        if name.startswith(f"_{pname}_") and len(name) > len(pname) + 2:
            return p, name[len(pname) + 2:]
    return None


def latex_name(n):
    """A name as LaTeX that compiles whatever '_' it holds: `x_1` -> x_{1} (one subscript, as SymPy prints it),
    `a_b_c`, `x_` -> \\mathit{a\\_b\\_c}, \\mathit{x\\_} (not a double or dangling subscript)."""
    if n.startswith("\\"):
        return n
    base, sep, sub = n.partition("_")
    if sep and base and sub and "_" not in sub:
        return _latex_word(base) + "_{" + _latex_word(sub) + "}"
    return _latex_word(n)


def _latex_word(n):
    return r"\mathit{" + n.replace("_", r"\_") + "}" if len(n) > 1 else n


def latex_indices(names) -> str:
    """Index names as one subscript: `ij` for one-letter names, else `i,j_k` with each name escaped."""
    names = list(names)
    if all(len(n) == 1 for n in names):
        return "".join(names)
    return ",".join(n.replace("_", r"\_") for n in names)


_PRIMES = ("′", "″", "‴")


def bound_name(i, table=None):
    """Indices bound inside a coefficient print as their class letter with primes (d′, then d″, d‴, d′₄ for the
    next ones of the same class in one formula, so two different bound indices never share a name)."""
    if not i.name.startswith("_b"):
        return i.name
    if table is None:
        return f"{i.ext}′"
    if i not in table:
        k = sum(1 for j in table if j.ext == i.ext)
        table[i] = i.ext + (_PRIMES[k] if k < len(_PRIMES) else "′" + str(k + 1).translate(_SUBSCRIPT))
    return table[i]


class _BoundNames:
    """Printing one formula: each bound index keeps one name, distinct from the other bound ones'."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.bound = {}

    def doprint(self, expr, *a, **kw):
        self.bound = {}
        return super().doprint(expr, *a, **kw)

    def idx_name(self, i):
        if not isinstance(i, ir.Idx):       # a shifted subscript, i+k or t-l: its indices by their names
            if not isinstance(i, sp.Add):
                return self._affine_term(i)
            parts = [self._affine_term(a) for a in _affine_order(i)]
            return parts[0] + "".join(p if p.startswith("-") else "+" + p for p in parts[1:])
        return bound_name(i, self.bound)

    def _affine_term(self, t):
        if t.is_Integer:
            return str(t)
        c, s = t.as_coeff_Mul()
        if not isinstance(s, ir.Idx):
            return str(t)
        return {1: "", -1: "-"}.get(c, str(c)) + self.idx_name(s)


def _affine_order(e):
    """The terms of a shifted subscript as a reader writes them: indices first (added before subtracted), the
    constant last."""
    terms = list(sp.Add.make_args(e))
    return sorted(terms, key=lambda t: (t.is_Integer, t.could_extract_minus_sign(), str(t.as_coeff_Mul()[1])))


def _is_sign(f):
    return isinstance(f, (ir.sign, sp.sign))


@functools.lru_cache(maxsize=8192)     # asked for each statement's coefficients by every form and style
def tidy(e):
    """Identities a reader applies at sight, for display only: sign(u)/|u| = 1/u, sign(u)·|u| = u (the
    derivative of log|u| and of |u|), n·x^where(n ≠ 0, n - 1, 0) = n·xⁿ⁻¹ (the guard keeps 0·x⁻¹ from the
    code, not from the mathematics); the matrix form's numerical check holds the result to the statement."""
    guarded = e.has(ir.where)      # else the first identity has nothing to apply to: a walk per factor saved

    def fix(m):
        for f in m.args if guarded else ():  # f·g(where(f ≠ 0, a, b)) = f·g(a) where f ≠ 0, and 0 either way where f = 0
            m = m.replace(lambda w: isinstance(w, ir.where) and w.args[0] == sp.Ne(f, 0), lambda w: w.args[1])
        if not isinstance(m, sp.Mul):
            return m
        fs = list(m.args)
        for k, f in enumerate(fs):
            if not _is_sign(f):
                continue
            u = f.args[0]
            for j, g in enumerate(fs):
                if g.is_Pow and isinstance(g.base, sp.Abs) and g.base.args[0] == u and g.exp in (-1, 1) or \
                        isinstance(g, sp.Abs) and g.args[0] == u:
                    exp = g.exp if g.is_Pow else 1
                    rest = [h for n, h in enumerate(fs) if n not in (j, k)]
                    return sp.Mul(*rest, u ** exp)
        return m

    return e.replace(lambda x: isinstance(x, sp.Mul), fix)


_SUP = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def scripted(text):
    """Whether a printed base already ends in an exponent (‖v‖², X⁻¹, Aᵀ, x^(n - 1), LaTeX's v^{2}): a power of
    it needs parentheses, (‖v‖²)² (‖v‖²² reads as the 22nd power), and LaTeX a group (x^{2}^{2} does not compile)."""
    return bool(re.search(r"([⁰¹²³⁴⁵⁶⁷⁸⁹⁻ᵀ]|\^\([^()]*\)|\^[0-9A-Za-z])$", text)) or _latex_scripted(text)


def _latex_scripted(text):
    """LaTeX text ending in a superscript group, nested or followed by subscripts (e^{x}, e^{x^{2}}, x^{2}_{i})."""
    end = len(text)
    while end and text[end - 1] == "}":
        depth, k = 0, end - 1
        while k >= 0:
            depth += {"}": 1, "{": -1}.get(text[k], 0)
            if depth == 0:
                break
            k -= 1
        if k <= 0 or text[k - 1] not in "^_":
            return False
        if text[k - 1] == "^":
            return True
        end = k - 1
    return False


def unicode_pow(printer, e, rational=False, hadamard=False):
    """x², 1/x³, sqrt(x), x^(2/3): never Python's x**n (whose '*' a product's '·' would turn into '··'); a
    base that ends in an exponent in parentheses, (‖v‖²)²."""
    b, x = e.args
    base = printer.parenthesize(b, 60)
    if scripted(base):
        base = "(" + base + ")"
    if x.is_Integer and x > 1:
        return base + ("∘" if hadamard else "") + str(x).translate(_SUP)
    if x.is_Rational and x.is_negative and x not in (-1, -sp.S.Half):
        return "1/" + printer.parenthesize(sp.Pow(b, -x, evaluate=False), 50)
    if x in (sp.S.Half, -sp.S.Half, -1):
        return StrPrinter._print_Pow(printer, e, rational)
    return base + "^(" + printer._print(x) + ")"


def latex_pow(printer, e, base_printer):
    """LaTeX of a power whose printed base ends in a script: the base in parentheses, as one symbol
    (LatexPrinter would write x^{2}^{2}, which TeX refuses); else None (LatexPrinter's own is right)."""
    base = base_printer(e.base)
    if not scripted(base):
        return None
    stand_in = sp.Symbol("_base_")
    names = printer._settings["symbol_names"]
    printer._settings["symbol_names"] = {**names, stand_in: base}   # parenthesised there: a name with a '^'

    try:
        return LatexPrinter._print_Pow(printer, sp.Pow(stand_in, e.exp, evaluate=False))
    finally:
        printer._settings["symbol_names"] = names


_REDUCE_STR = {"max": "max", "min": "min", "prod": "Π"}
_REDUCE_TEX = {"max": r"\max", "min": r"\min", "prod": r"\prod"}


class _IndexStr(_BoundNames, StrPrinter):
    def _print_Abs(self, e):
        return f"|{self._print(e.args[0])}|"

    def _print_Idx(self, e):
        return self.idx_name(e)

    def _print_Function(self, e):
        if ir.is_access(e):
            name = pretty_name(ir.acc_name(e))
            return f"{name}[{','.join(self.idx_name(a) for a in e.args)}]" if e.args else name
        return super()._print_Function(e)

    def _print_IndexSum(self, e):
        return f"Σ_{''.join(self.idx_name(i) for i in e.indices)}({self._print(e.body)})"

    def _print_KroneckerDelta(self, e):
        return f"δ[{self.idx_name(e.args[0])},{self.idx_name(e.args[1])}]"

    def _print_IndexReduce(self, e):
        return f"{_REDUCE_STR[e.op]}_{''.join(self.idx_name(i) for i in e.indices)}({self._print(e.body)})"

    def _print_ProdExcept(self, e):
        # Π over the other values of k: Π_k′≠k(x[k′])
        body, k = e.args
        other = ir.Idx(self.idx_name(k) + "′", k.ext)
        return f"Π_{self.idx_name(other)}≠{self.idx_name(k)}({self._print(body.xreplace({k: other}))})"

    def _print_Extent(self, e):
        return f"size({e.args[0].name})"

    def _print_Iverson(self, e):      # [j ≤ i]: 1 where the comparison of indices holds, else 0
        return relation_text(e.cond, self._print)

    def _print_Unequality(self, e):
        return f"{self._print(e.lhs)} ≠ {self._print(e.rhs)}"

    def _print_Equality(self, e):     # as the rule is written (SymPy's own text is Eq(a, b))
        return f"{self._print(e.lhs)} == {self._print(e.rhs)}"

    def _print_LessThan(self, e):     # j ≤ i, as the brackets print it (SymPy's own text is j <= i)
        return f"{self._print(e.lhs)} ≤ {self._print(e.rhs)}"

    def _print_GreaterThan(self, e):
        return f"{self._print(e.lhs)} ≥ {self._print(e.rhs)}"

    def _print_Infinity(self, e):     # ∞ (SymPy's own text is oo)
        return "∞"

    def _print_NegativeInfinity(self, e):
        return "-∞"

    def _print_Mul(self, e):
        return super()._print_Mul(e).replace("*", "·")

    def _print_Pow(self, e, rational=False):
        return unicode_pow(self, e, rational)


def _latex_index(name):
    for k, p in enumerate(_PRIMES):
        name = name.replace(p, "'" * (k + 1))
    return name.replace("_", r"\_")


class _IndexLatex(_BoundNames, LatexPrinter):
    def _print_Pow(self, e, exp=None):
        got = latex_pow(self, e, self._print)
        return got if got is not None else LatexPrinter._print_Pow(self, e)

    def _print_Idx(self, e):
        return _latex_index(self.idx_name(e))

    def _print_Function(self, e, exp=None):
        if ir.is_access(e):
            name = pretty_name(ir.acc_name(e), "latex")
            if "_" in name or name.endswith("}"):
                name = "{" + name + "}"  # x_{1} or \mathit{..} then its own subscript: no double subscript
            s = f"{name}_{{{latex_indices(_latex_index(self.idx_name(a)) for a in e.args)}}}" \
                if e.args else name
            return f"{s}^{{{exp}}}" if exp else s
        return super()._print_Function(e, exp)

    def _print_IndexSum(self, e):
        return r"\sum_{" + ",".join(self._print(i) for i in e.indices) + r"} " + self.parenthesize(e.body, 40)

    def _print_KroneckerDelta(self, e, exp=None):
        return r"\delta_{" + latex_indices([_latex_index(self.idx_name(a)) for a in e.args]) + "}"

    def _print_IndexReduce(self, e, exp=None):
        return _REDUCE_TEX[e.op] + "_{" + ",".join(self._print(i) for i in e.indices) + r"} " + \
            self.parenthesize(e.body, 40)

    def _print_ProdExcept(self, e, exp=None):
        body, k = e.args
        other = ir.Idx(self.idx_name(k) + "′", k.ext)
        return r"\prod_{" + self._print(other) + r" \neq " + self._print(k) + "} " + \
            self.parenthesize(body.xreplace({k: other}), 40)
    def _print_Iverson(self, e, exp=None):
        c = e.cond
        op = {"<=": r"\le", "<": "<", ">=": r"\ge", ">": ">", "==": "=", "!=": r"\ne"}[c.rel_op]
        s = rf"[{self._print(c.lhs)} {op} {self._print(c.rhs)}]"
        return f"{s}^{{{exp}}}" if exp else s

    def _print_Extent(self, e, exp=None):
        return r"\lvert " + e.args[0].name.replace("_", r"\_") + r" \rvert"


_STR = _IndexStr()
INDEX_LATEX = _IndexLatex()     # also prints a matrix form's non-rational numbers in LaTeX


def term_index(t, style="unicode"):
    body = tidy(t.coeff) * t.atom
    if style == "latex":
        s = INDEX_LATEX.doprint(body)
        return (r"\sum_{" + latex_indices(x.name for x in t.sums) + "} " + s) if t.sums else s
    s = _STR.doprint(body)
    if t.sums:
        s = f"Σ_{''.join(x.name for x in t.sums)} {s}"
    return s


def lhs(ls, style="unicode"):
    name = pretty_name(ls.target, style)
    if not ls.indices:
        return name
    if style == "latex":
        name = "{" + name + "}" if "_" in name else name
        return f"{name}_{{{latex_indices(i.name for i in ls.indices)}}}"
    return f"{name}[{','.join(i.name for i in ls.indices)}]"


def stmt_index(ls, style="unicode"):
    if getattr(ls, "mode", None):
        return opaque_text(ls, style)
    return memoized("index", ls, style, None, lambda: _stmt_index(ls, style))


def _stmt_index(ls, style):
    if not ls.terms:
        return f"{lhs(ls, style)} = 0"
    common = _common_number(ls.terms)
    terms = [Term(tidy(t.coeff) / common, t.sums, t.atom) for t in ls.terms] if common != 1 else ls.terms
    parts = [term_index(t, style) for t in terms]
    rhs = parts[0]
    for p in parts[1:]:
        rhs += (" - " + p[1:]) if p.startswith("-") else (" + " + p)
    if common != 1:         # (dy[t] + dy[t-1] + dy[t-2])/3: a number every term has, once
        p, q = common.p, common.q
        if style == "latex":
            rhs = (f"\\frac{{{p}}}{{{q}}}" if q != 1 else str(p)) + r" \left(" + rhs + r"\right)"
        else:
            rhs = (f"{p}·" if p != 1 else "") + f"({rhs})" + (f"/{q}" if q != 1 else "")
    return f"{lhs(ls, style)} = {rhs}"


def _common_number(terms):
    """The rational number (not ±1, positive) every one of two or more terms has as a factor, else 1."""
    if len(terms) < 2:
        return sp.S.One
    nums = {abs(tidy(t.coeff).as_coeff_Mul()[0]) for t in terms}
    if len(nums) != 1:
        return sp.S.One
    r = nums.pop()
    return r if r.is_Rational and r != 1 and r != 0 else sp.S.One


def opaque_text(ls, style="unicode"):
    """A linear map given as code, shown as its declaration writes it (dL = L·Φ(L⁻¹·dA·L⁻ᵀ)) where that text reads
    and agrees with the code at general points (derive.display.mapform), else by its name (dX = logm.vjp(dY))."""
    p = ir.ALL_PRIMITIVES[ls.prim]
    *args, R = ls.of
    got = mapform.checked_map(p, ls.argnum, ls.mode)
    target, arg = pretty_name(ls.target, style), pretty_name(ls.arg, style)
    if got is None:
        if style == "latex":
            return f"{target} = \\operatorname{{{p.name}.{ls.mode}}}\\left({arg}\\right)"
        return f"{target} = {p.name}.{ls.mode}({arg})"
    key, tree = got
    names = {"{" + a + "}": pretty_name(n, style) for a, n in zip(p.args, args)}
    names["{R}"] = pretty_name(R, style)
    names["d{R}" if ls.mode == "vjp" else "d{" + p.args[ls.argnum] + "}"] = arg
    names[key] = target       # the result lands where the derivation puts it (one part of dR, a temporary)
    for sym in mapform.where_symbols(p):
        names[sym] = where_name(sym, style)
    return f"{target} = {mapform.show(tree, names, style)}"


def where_name(sym, style="unicode"):
    """A symbol a primitive's map reads (V, λ, G, L_exp), as a style writes it."""
    if style != "latex":
        return sym
    return {"λ": r"\lambda", "L_exp": r"L_{\exp}", "L_adj": r"L_{\operatorname{adj}}"}.get(sym, sym)


def where_lines(stmts, style="unicode"):
    """[(symbol, its definition)] of the symbols the shown opaque maps of stmts read (V, λ, G), each once, in the
    order their declarations give them (λ before V, which its line reads)."""
    out: dict = {}
    for ls in stmts:
        if not getattr(ls, "mode", None):
            continue
        p = ir.ALL_PRIMITIVES[ls.prim]
        got = mapform.checked_map(p, ls.argnum, ls.mode)
        if got is None:
            continue
        where = mapform.where_symbols(p)
        used = mapform.leaves(got[1]) | {c for c in _calls(got[1])}
        X = pretty_name(ls.of[0], style)
        for sym, (text, tex, _) in where.items():
            needed = sym in used or any(sym in where[u][0].split(" = ", 1)[1] for u in used if u in where)
            if needed and sym not in out:
                out[sym] = (tex if style == "latex" else text).replace("{X}", X)
    return list(out.items())


def definition_lines(d, stmts, style="unicode", show=None):
    """[(name, its definition)] for the names the shown statements read that the rule never wrote: the program's
    lifted temporaries (`t0[i,j] = X[i,j] + W[i,j]`, `t1 = λ(X)`) and the symbols of the maps (V, λ, G), each on a
    line of its own, so that a shown statement names only the rule's tensors and what the display defines.
    `show(statement)` gives a definition's checked matrix form (t0 = X + W), or None for its index form."""
    read = {ir.acc_name(a) for ls in stmts for t in (getattr(ls, "terms", None) or ())
            for a in ir.accesses(t.coeff * t.atom)}
    read |= {n for ls in stmts if getattr(ls, "mode", None) for n in ls.of}
    read |= {primitive_value(n)[1] for n in read if primitive_value(n) is not None}     # t0 of t0⁻¹
    out = []
    for st in getattr(getattr(d, "program", None), "stmts", ()):
        n = st.target
        if n not in read or not n.startswith("_") or n.startswith("__") or primitive_value(n) is not None:
            continue
        if st.prim:
            p = ir.ALL_PRIMITIVES[st.prim]
            shown = (p.show if style == "unicode" else p.show_latex).format(
                name=p.name, **{a: pretty_name(v, style) for a, v in zip(p.args, st.args)})
            out.append((pretty_name(n, style), f"{pretty_name(n, style)} = {shown}"))
            continue
        terms = [Term(a.body, tuple(a.indices), sp.S.One) if isinstance(a, ir.IndexSum) else Term(a, (), sp.S.One)
                 for a in sp.Add.make_args(st.expr)]
        ls = LinStmt(n, tuple(st.indices), terms)
        out.append((pretty_name(n, style), (show(ls) if show is not None else None) or stmt_index(ls, style)))
    return out + _value_lines(read, style) + where_lines(stmts, style)


# primitives whose shown value is notation every reader knows (X⁻¹, det(X)); the others' values are defined on a
# line of their own: exp(X) is expm's, not the elementwise exp of the same display, and V(S)'s signs are ours
_UNIVERSAL = ("inv", "det")


def _value_lines(read, style):
    """[(shown value, its definition)] of the primitives' values the shown statements read: `exp(X) = expm(X),
    the matrix exponential`, in the rule language's name and the primitive's own description."""
    out = []
    for n in sorted(read):
        got = primitive_value(n)
        if got is None or got[0].name in _UNIVERSAL:
            continue
        p, arg = got
        shown = pretty_name(n, style)
        if style == "unicode":
            what = f"{p.name}({pretty_name(arg)})"
            doc = re.sub(r"\bX\b", pretty_name(arg), p.doc)          # the declaration's X is this value's argument
            out.append((shown, f"{shown} = {doc}" if what == shown else f"{shown} = {what}, {doc}"))
        else:
            word = p.name.replace("_", r"\_")
            what = rf"\operatorname{{{word}}}({pretty_name(arg, style)})"
            doc = p.doc.split(" (")[0]
            doc = rf"\text{{{doc}}}" if doc.isascii() and not set(doc) & set("\\{}$&%#^_~") else ""
            out.append((shown, f"{shown} = {doc}" if what == shown and doc else
                        f"{shown} = {what}" + (rf" \text{{, }}{doc}" if doc else "")))
    return out


def _calls(tree):
    if tree[0] == "call":
        yield tree[1]
        for a in tree[2]:
            yield from _calls(a)
    elif tree[0] != "name":
        for t in tree[1:]:
            if isinstance(t, tuple):
                yield from _calls(t)


def inverse_of(name):
    """Y for `_inv_Y`, else None."""
    got = primitive_value(name)
    return got[1] if got is not None and got[0].name == "inv" else None


def symbol_count(text):
    """Symbols of a shown statement's right-hand side (names, numbers, superscript runs, other characters)."""
    rhs = text.split(" = ", 1)[-1]
    return sum(1 for t in re.findall(r"size\([^()]*\)|[A-Za-z_0-9′ΣσεμΦ𝟙]+|[ᵀ⁻¹²³⁴⁵⁶⁷⁸⁹⁰∘]+|\S", rhs) if t != "·")


# Functions the shown matrix forms call by a name a reader may not know, or not along which axis (revcumsum,
# softmax of a matrix's rows): each defined on a line of its own below a display that calls it, in index form.
SHOWN_FUNCTIONS = {
    "cumsum": ("cumsum(u)[i] = Σ_k [k ≤ i]·u[k], along the last index",
               r"\operatorname{cumsum}(u)_{i} = \sum_{k} [k \le i] \, u_{k} \text{, along the last index}"),
    "revcumsum": ("revcumsum(u)[i] = Σ_k [k ≥ i]·u[k], along the last index",
                  r"\operatorname{revcumsum}(u)_{i} = \sum_{k} [k \ge i] \, u_{k} \text{, along the last index}"),
    "tril": ("tril(A, m)[i,j] = [j - i ≤ m]·A[i,j], tril(A) = tril(A, 0)",
             r"\operatorname{tril}(A, m)_{ij} = [j - i \le m] \, A_{ij} \text{, } "
             r"\operatorname{tril}(A) = \operatorname{tril}(A, 0)"),
    "triu": ("triu(A, m)[i,j] = [j - i ≥ m]·A[i,j], triu(A) = triu(A, 0)",
             r"\operatorname{triu}(A, m)_{ij} = [j - i \ge m] \, A_{ij} \text{, } "
             r"\operatorname{triu}(A) = \operatorname{triu}(A, 0)"),
    "softmax": ("softmax(u)[i] = exp(u[i])/Σ_k exp(u[k]), along the last index",
                r"\operatorname{softmax}(u)_{i} = \frac{e^{u_{i}}}{\sum_{k} e^{u_{k}}} \text{, along the last index}"),
    "step": ("step(u) = 1 where u > 0, else 0 (elementwise)",
             r"\operatorname{step}(u) = 1 \text{ where } u > 0 \text{, else } 0 \text{ (elementwise)}"),
    "sym": ("sym(A) = (A + Aᵀ)/2", r"\operatorname{sym}(A) = \tfrac{1}{2} (A + A^{\top})"),
    "Φ": ("Φ(A) = the lower triangle of A, its diagonal halved",
          r"\Phi(A) = \text{the lower triangle of } A \text{, its diagonal halved}"),
}
# how each is called in LaTeX, where that is not \operatorname{name}
_LATEX_CALL = {"Φ": r"\Phi"}


def function_lines(texts, style="unicode"):
    """[(name, its definition)] of the SHOWN_FUNCTIONS that the shown texts (of either style) call, in the
    table's order."""
    text = "\n".join(t for t in texts if t)
    called = {n for n in SHOWN_FUNCTIONS
              if re.search(rf"(?<![\w\\]){n}\(|" + re.escape(_LATEX_CALL.get(n, rf"\operatorname{{{n}}}")) + r"(?!\w)",
                           text)}
    return [(n, d[0] if style == "unicode" else d[1]) for n, d in SHOWN_FUNCTIONS.items() if n in called]
