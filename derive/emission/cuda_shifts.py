"""CUDA kernels for shifted and strided subscripts (`x[i+k]`, `x[2*i+k]`; derive/lowering/shifts.py).

Three small hooks, kept apart from the general kernel printer:

- `gathers`: a pullback term placing its elements with a Kronecker delta δ(t, 2k+l) (a scatter, the transpose
  of a shifted read) becomes a gather over the output element: the delta is contracted by solving for one
  summed index, k = (t - l)/2, so each thread sums its own taps, with no atomics. The solved index is a
  `Solved` node carrying its range: a read at it is guarded by 0 ≤ (t - l)/2 < size(k) (and 2 | t - l), so it
  is never out of bounds, and a term whose cotangent is not read at it is multiplied by an `InRange` bracket.
- `bind`: in a kernel body, a read at affine positions prints as its element offset (`x[(e0 + k1)]`), guarded
  where it reads at a solved index; it becomes an opaque symbol before common-subexpression elimination, so
  no subscript is ever computed as a floating-point value.
- `extents_meta` / the runtime's `derived_extents`: the valid extents of the indices no input carries
  (extent(i) = extent(t) - extent(k) + 1 for x[i+k]), from the input shapes, and the run-time reach checks.
"""
from __future__ import annotations

from collections import namedtuple

import sympy as sp

from derive.ir import nodes as ir
from derive.ir.names import user_name
from derive.ir.nodes import Idx, IndexSum

Term = namedtuple("Term", "coeff atom sums")


class Solved(sp.Expr):
    """Solved(num, den, cls): the value num/den of a summed index of extent class `cls` that a Kronecker delta
    fixed; it exists only where den divides num and 0 ≤ num/den < extent(cls)."""

    is_commutative = True
    is_real = True

    def __new__(cls, num, den, ext):
        ext = ext if isinstance(ext, sp.Symbol) else sp.Symbol(f"ext:{ext}")      # rebuilt from its args, or new
        return sp.Expr.__new__(cls, sp.sympify(num), sp.Integer(den), ext)

    @property
    def num(self):
        return self.args[0]

    @property
    def den(self):
        return int(self.args[1])

    @property
    def ext(self):
        return self.args[2].name[4:]


class InRange(sp.Expr):
    """[the solved index s exists]: 1 or 0."""

    is_commutative = True
    is_real = True

    def __new__(cls, s):
        return sp.Expr.__new__(cls, s)


# -- pullbacks: scatters become gathers -----------------------------------------------------------------------


def _affine(e):
    """{atom: integer coefficient} and the integer constant of an affine expression in Idx and Solved atoms,
    or None when e is not one."""
    out, const = {}, 0
    for t in sp.Add.make_args(sp.expand(e)):
        if t.is_Integer:
            const += int(t)
            continue
        c, s = t.as_coeff_Mul()
        if not c.is_Integer or not isinstance(s, (Idx, Solved)):
            return None
        out[s] = out.get(s, 0) + int(c)
    return {s: c for s, c in out.items() if c}, const


def _pick(delta, sums, derived):
    """(summed index, its coefficient, the rest a - b without it) to solve δ(a, b) for, or None.

    An index of a derived extent (an output position of the forward read: k in δ(t, 2k+l)) is preferred, so
    the gather loops over the kernel taps; then a coefficient of ±1 (no divisibility test)."""
    a, b = delta.args
    if isinstance(a, Idx) and isinstance(b, Idx) and a.ext == b.ext:
        return None               # an ordinary delta of one index space: the kernel printer compares them
    aff = _affine(a - b)
    if aff is None:
        return None
    coefs, _ = aff
    cands = [s for s in sums if s in coefs]
    if not cands:
        return None
    cands.sort(key=lambda s: (s.ext not in derived, abs(coefs[s]) != 1, sums.index(s)))
    s = cands[0]
    return s, coefs[s], a - b - coefs[s] * s


def _contract(term: Term, derived) -> Term:
    coeff, atom, sums = term.coeff, term.atom, list(term.sums)
    guards = []
    while True:
        factors = list(sp.Mul.make_args(coeff))
        for f in factors:
            if isinstance(f, sp.KroneckerDelta):
                pick = _pick(f, sums, derived)
                if pick is not None:
                    break
        else:
            break
        s, c, rest = pick
        # c·s + rest = 0  ->  s = -rest / c
        num, den = (-rest, c) if c > 0 else (rest, -c)
        val = Solved(sp.expand(num), den, s.ext)
        in_atom = s in atom.free_symbols
        coeff = sp.Mul(*[g for g in factors if g is not f]).xreplace({s: val})
        atom = atom.xreplace({s: val})
        sums.remove(s)
        if not in_atom:
            guards.append(InRange(val))
    return Term(sp.Mul(coeff, *guards), atom, tuple(sums))


def gathers(terms, program):
    """The terms of a linear statement, with every scatter δ(t, k+l) contracted into a gather."""
    shifts = getattr(program, "shifts", None)
    if not shifts:
        return list(terms)
    derived = set(shifts.derived)
    return [_contract(Term(t.coeff, t.atom, tuple(t.sums)), derived) for t in terms]


# -- printing: affine subscripts, guards ----------------------------------------------------------------------


def _code(e, body):
    """C (long long) code of an affine expression in Idx and Solved atoms."""
    aff = _affine(e)
    if aff is None:
        raise NotImplementedError(f"subscript {e} is not affine with integer coefficients")
    coefs, const = aff
    parts = []
    for s, c in sorted(coefs.items(), key=lambda sc: sp.default_sort_key(sc[0])):
        v = body.index(s) if isinstance(s, Idx) else _solved_code(s, body)
        t = v if abs(c) == 1 else f"{abs(c)} * {v}"
        parts.append(("- " if c < 0 else "+ ") + t)
    if const:
        parts.append(("- " if const < 0 else "+ ") + str(abs(const)))
    if not parts:
        return "0LL"
    text = " ".join(parts)
    text = text[2:] if text.startswith("+ ") else "-" + text[2:]
    return text if len(parts) == 1 and not text.startswith("-") else f"({text})"


def _solved_code(s: Solved, body):
    v = _code(s.num, body)
    return v if s.den == 1 else f"({v} / {s.den})"


def _guard(s: Solved, body):
    v = _code(s.num, body)
    n = body.extent(s.ext)
    if s.den == 1:
        return f"0 <= {v} && {v} < {n}"
    return f"{v} % {s.den} == 0 && 0 <= {v} && {v} < {s.den} * {n}"


def _guards(e, body):
    return " && ".join(dict.fromkeys(_guard(s, body) for s in sorted(e.atoms(Solved), key=sp.default_sort_key)))


def _opaque(code):
    return sp.Symbol(code, real=True)


def _read(e, body):
    """A tensor element read at affine (or solved) positions: its load, guarded where a position is solved.

    Outside the solved index's range a (co)tangent reads as 0, the term's linear factor (gathers() adds an
    InRange bracket where that factor is not read there); any other tensor reads its first element, so its
    coefficient stays finite wherever the inputs keep it finite (exp(0) or 1/0 would not be the zero of a
    missing term) and never reads out of bounds."""
    ctx = body.kernel
    buf = ir.acc_name(e)
    codes = [body.index(a) if isinstance(a, Idx) else _code(a, body) for a in e.args]
    off = ctx.offset(buf, codes)
    guard = _guards(e, body)
    if not guard:
        return ctx.load(buf, off)
    if ctx.gen.linear(buf):
        return f"({guard} ? {ctx.load(buf, off)} : T(0))"
    return ctx.load(buf, f"({guard} ? {off} : 0LL)")


def _affine_subscripts(e):
    return ir.is_access(e) and any(not isinstance(a, Idx) for a in e.args)


def bind(body, exprs):
    """exprs with every read at affine positions, contracted delta and range bracket (outside index sums, which
    their own loop bodies bind) replaced by a symbol spelled as its C code."""
    def walk(e):
        if isinstance(e, IndexSum) or not isinstance(e, sp.Basic) or not e.args:
            return e
        if _affine_subscripts(e):
            return _opaque(_read(e, body))
        if ir.is_access(e):
            return e
        if isinstance(e, InRange):
            return _opaque(f"(({_guard(e.args[0], body)}) ? T(1) : T(0))")
        if isinstance(e, Solved):
            return _opaque(f"T({_solved_code(e, body)})")
        if isinstance(e, sp.KroneckerDelta) and not all(isinstance(a, Idx) for a in e.args):
            a, b = (_code(x, body) for x in e.args)
            return _opaque(f"({a} == {b} ? T(1) : T(0))")
        new = [walk(a) for a in e.args]
        return e if all(x is y for x, y in zip(new, e.args)) else e.func(*new)

    if not any(isinstance(e, sp.Basic) and (e.has(Solved) or e.has(InRange) or any(
            _affine_subscripts(a) for a in sp.preorder_traversal(e))) for e in exprs):
        return exprs
    return [walk(e) for e in exprs]


# -- extents --------------------------------------------------------------------------------------------------


def extents_meta(program):
    """The launch plan's derived extents, {class: [[axis class, [[coef, class], ...], const], ...]} (the extent
    is the least over the list), and its run-time reach checks, [[axis class, terms, const, message], ...]."""
    shifts = getattr(program, "shifts", None)
    if not shifts:
        return {}, []
    derived = {}
    for cls, reaches in shifts.derived.items():
        rows = []
        for r in reaches:
            row = [r.axis, [[c, k] for c, k in r.terms], r.const]
            if row not in rows:
                rows.append(row)
        derived[cls] = rows
    checks = []
    for r in shifts.checks:
        row = [r.axis, [[c, k] for c, k in r.terms], r.const,
               f"subscript '{user_name(r.tensor)}[..{user_name(r.text)}..]'"]
        if row not in checks:
            checks.append(row)
    return derived, checks
