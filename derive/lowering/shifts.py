"""Shifted and strided subscripts (`x[i+k]`, `x[2*i+k]`, `u[i-1,j]`): extents, gathers and scatters.

Owns the "valid" extent rule (an index read only through shifted subscripts gets the largest range for which
every access stays inside its tensor), the re-indexing of negative offsets, and the code pieces that read
(a strided window) and write (a scatter over kernel taps) tensors at affine positions.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from derive.ir import nodes as ir
from derive.ir.names import user_name
from derive.ir.nodes import Idx
from derive.language import ast as A
from derive.language.errors import RuleError

# -- the rule text: negative offsets --------------------------------------------------------------------------


def _subscripts(node, bound=frozenset()):
    """(access node, subscript, letters bound by an enclosing sum()) for every tensor subscript in node."""
    if isinstance(node, A.Access):
        for ix in node.indices:
            yield node, ix, bound
    elif isinstance(node, A.Subscript):
        yield from _subscripts(node.base, bound)
        for ix in node.indices:
            yield node, ix, bound
    elif isinstance(node, A.Call):
        inner = bound
        if node.func == "sum":
            inner = bound | {a.name for a in node.args[:-1] if isinstance(a, A.Name)}
        for a in node.args:
            yield from _subscripts(a, inner)
    elif isinstance(node, A.BinOp):
        yield from _subscripts(node.left, bound)
        yield from _subscripts(node.right, bound)
    elif isinstance(node, A.Neg):
        yield from _subscripts(node.operand, bound)


def _terms(ix):
    if isinstance(ix, A.Affine):
        return list(ix.terms), ix.const
    return [(1, ix)], 0


def normalize(st: A.Statement, rule: str) -> A.Statement:
    """Re-index a statement whose subscripts reach below 0 (`L[i] = u[i-1] - 2*u[i] + u[i+1]`): each index of
    the left side is shifted up by what its lowest access needs, so that L[0] is the first position where every
    access is valid. Only the left side's indices can move; a summed index whose access reaches below 0 (w[k-1])
    is an error."""
    if not isinstance(st.target, A.Access):
        return st
    targets = {ix.name for ix in st.target.indices}
    shift: dict = {}
    for node, ix, bound in _subscripts(st.expr):
        terms, const = _terms(ix)
        if const >= 0:
            continue
        movable = [(c, t) for c, t in terms if t.name in targets and t.name not in bound]
        if not movable:
            raise RuleError(f"subscript '{ix.name}' of '{getattr(node, 'name', 'this expression')}' reaches below "
                            f"0 where its indices are 0; only an index of the left side can start later. Pad the "
                            f"tensor (np.pad) and shift the subscript up instead", ix.pos, rule=rule,
                            width=max(1, len(ix.name)))
        c, t = movable[0]
        shift[t.name] = max(shift.get(t.name, 0), -(-(-const) // c))
    if not shift:
        return st
    for node, ix, bound in _subscripts(st.expr):
        if isinstance(node, A.Subscript) and any(t.name in shift and t.name not in bound for _, t in _terms(ix)[0]):
            raise RuleError("a shifted statement cannot subscript an expression with its shifted index; assign "
                            "the expression to a tensor first", ix.pos, rule=rule, width=max(1, len(ix.name)))
    _no_bare_use(st.expr, shift, rule)

    def move(ix, bound):
        terms, const = _terms(ix)
        add = sum(c * shift[t.name] for c, t in terms if t.name in shift and t.name not in bound)
        if not add:
            return ix
        text = ix.name if isinstance(ix, A.Affine) else ix.name
        return A.Affine(tuple(terms), const + add, ix.pos, text)

    def walk(node, bound):
        if isinstance(node, A.Access):
            return A.Access(node.name, tuple(move(ix, bound) for ix in node.indices), node.pos)
        if isinstance(node, A.Call):
            inner = bound
            if node.func == "sum":
                inner = bound | {a.name for a in node.args[:-1] if isinstance(a, A.Name)}
            return A.Call(node.func, tuple(walk(a, inner) for a in node.args), node.pos, node.func_pos)
        if isinstance(node, A.BinOp):
            return A.BinOp(node.op, walk(node.left, bound), walk(node.right, bound), node.pos)
        if isinstance(node, A.Neg):
            return A.Neg(walk(node.operand, bound), node.pos)
        if isinstance(node, A.Subscript):
            return A.Subscript(walk(node.base, bound), node.indices, node.pos)
        return node

    return A.Statement(st.target, walk(st.expr, frozenset()), st.pos)


def _no_bare_use(node, shift, rule, bound=frozenset()):
    """delta(i, j), size(i) and a bare-named index do not move with the re-indexing: refuse them."""
    if isinstance(node, A.Call):
        inner = bound
        if node.func == "sum":
            inner = bound | {a.name for a in node.args[:-1] if isinstance(a, A.Name)}
        elif node.func in ("delta", "size"):
            for a in node.args:
                if isinstance(a, A.Name) and a.name in shift and a.name not in bound:
                    raise RuleError(f"{node.func}() of index '{a.name}' in a statement whose subscripts shift "
                                    f"'{a.name}' (they reach below 0); write the statement with offsets of 0 or "
                                    f"more", a.pos, rule=rule, width=len(a.name))
        for a in node.args:
            _no_bare_use(a, shift, rule, inner)
    elif isinstance(node, A.BinOp):
        _no_bare_use(node.left, shift, rule, bound)
        _no_bare_use(node.right, shift, rule, bound)
    elif isinstance(node, A.Neg):
        _no_bare_use(node.operand, shift, rule, bound)


def shifted_reads(expr) -> set:
    """(letter, tensor, axis) for every axis a subscript of expr reads with that letter at a shifted position: a
    plain read of the same axis with the same letter (u[i,j] beside u[i+2,j]) bounds the letter's range too,
    rather than giving it the axis's whole extent."""
    out = set()
    for node, ix, _ in _subscripts(expr):
        if isinstance(ix, A.Affine) and isinstance(node, A.Access):
            out |= {(t.name, node.name, list(node.indices).index(ix)) for _, t in ix.terms}
    return out


# -- extents ---------------------------------------------------------------------------------------------------


@dataclass
class Reach:
    """Axis `axis` (an extent class) of `tensor` is read at Σ coef·index + const: its extent must be at least
    Σ coef·(extent(index) - 1) + const + 1. `text` is the subscript as written, for messages."""

    tensor: str
    axis: str
    terms: tuple            # (coef, extent class)
    const: int
    text: str
    where: str = ""         # file:line:column of the subscript


@dataclass
class Shifts:
    """What a program's shifted subscripts imply: the extent of each derived class as the least of its formulas
    (an extent class -> Reaches it is solved from), and the Reaches to check at run time."""

    derived: dict = field(default_factory=dict)
    checks: list = field(default_factory=list)

    def __bool__(self):
        return bool(self.derived or self.checks)


def resolve(constraints, cls_of, known, rule_pos, rule_name) -> Shifts:
    """Solve the constraints (Reaches over provisional classes) for the classes no input carries.

    A class that is the only unknown of a constraint is derived from it (from all such constraints: the
    least extent); derived classes count as known for the next round. Constraints left with every class
    known are run-time checks; one with two unknowns cannot be solved."""
    reaches, positions, letter = [], [], {}
    for t, ax, terms, const, text, pos in constraints:
        for _, sym in terms:
            letter.setdefault(cls_of(sym.ext), sym.name)
        r = Reach(t, cls_of(ax), tuple((c, cls_of(s.ext)) for c, s in terms), const, text,
                  f"{pos.file}:{pos.line}:{pos.col}" if pos is not None else "")
        if r.terms == ((1, r.axis),) and r.const == 0:
            continue                # x[i] where i runs over x's own axis: always inside
        if any(k == r.axis for _, k in r.terms):
            raise RuleError(f"subscript '{text}' reads '{t}' past its end: index "
                            f"'{next(s.name for c, s in terms if cls_of(s.ext) == r.axis)}' already runs over that "
                            f"whole axis of '{t}' (the header or another subscript gives them one extent); give the "
                            f"axis a letter of its own in the header, e.g. {t}[t], so the index takes the valid range",
                            pos, rule=rule_name, width=max(1, len(text)))
        reaches.append(r)
        positions.append(pos)
    out = Shifts()
    known = set(known)
    used = set()
    while True:
        new: dict = {}
        for k, r in enumerate(reaches):
            if k in used or r.axis not in known:
                continue
            unknown = {c for _, c in r.terms if c not in known}
            if len(unknown) == 1:
                new.setdefault(unknown.pop(), []).append(k)
        if not new:
            break
        for cls, ks in new.items():
            out.derived[cls] = [reaches[k] for k in ks]
            used |= set(ks)
        known |= set(new)
    for k, r in enumerate(reaches):
        if k in used:
            continue
        if r.axis not in known or any(c not in known for _, c in r.terms):
            pos = positions[k]
            free = [letter.get(c, "?") for _, c in r.terms if c not in known]
            names = " and ".join(f"'{n}'" for n in dict.fromkeys(free))
            hint = free[-1]
            raise RuleError(f"the extents in subscript '{r.text}' cannot be inferred: more than one of its indices "
                            f"({names}) has an extent no input gives (a shifted subscript fixes one index's extent "
                            f"from the others'); give '{hint}' one by reading a tensor over it in the same expression, "
                            f"e.g. an input w[{hint}:3] as in sum({hint}, x[i+{hint}] * w[{hint}]) (an index a sum, "
                            f"max, min or prod reduces is a new variable there: the header's extent does not reach "
                            f"it)", pos, rule=rule_name, width=max(1, len(r.text)))
        out.checks.append(r)
    return out


def solve_code(r: Reach, cls, ext) -> str:
    """Python code for the largest extent of `cls` that keeps reach r inside its tensor; ext(cls) -> code."""
    coef = next(c for c, k in r.terms if k == cls)
    rest = "".join(f" - {scaled_text(c, f'({ext(k)} - 1)')}" for c, k in r.terms if k != cls)
    const = f" - {r.const}" if r.const > 0 else ""
    body = f"{ext(r.axis)}{rest}{const} - 1"
    return f"({body}) // {coef} + 1" if coef != 1 else f"{body} + 1"


def reach_code(r: Reach, ext) -> str:
    """Python code for the extent reach r needs of its tensor's axis."""
    parts = [scaled_text(c, f"({ext(k)} - 1)") for c, k in r.terms]
    return " + ".join(parts) + f" + {r.const + 1}"


def _unique(reaches):
    seen, out = set(), []
    for r in reaches:
        key = (r.axis, r.terms, r.const)
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


def extent_code(prog, cls, ext) -> list:
    """Lines computing the derived extent n_<cls> (the least over its reaches) and refusing an empty range."""
    reaches = _unique(prog.shifts.derived[cls])
    forms = [solve_code(r, cls, ext) for r in reaches]
    value = forms[0] if len(forms) == 1 else f"min({', '.join(forms)})"
    needs = "; ".join(f"'{user_name(r.tensor)}[..{user_name(r.text)}..]' needs extent %d along that axis, "
                      f"has %d" for r in reaches)
    args = ", ".join(f"{reach_code(r, lambda k: '1' if k == cls else ext(k))}, {ext(r.axis)}" for r in reaches)
    msg = (f"{user_name(prog.name)}: index '{user_name(cls)}' has no valid position (shifted subscripts read "
           f"inside their tensors only; pad the input, e.g. with np.pad): {needs}")
    return [f"n_{cls} = {value}", f"if n_{cls} < 1: raise ValueError({msg!r} % ({args},))"]


def check_code(prog, ext) -> list:
    """Lines refusing a shifted read past the end of its tensor where every extent is given by the inputs."""
    out = []
    for r in _unique(prog.shifts.checks):
        need = reach_code(r, ext)
        msg = (f"{user_name(prog.name)}: subscript '{user_name(r.tensor)}[..{user_name(r.text)}..]' needs extent "
               f"%d along that axis of '{user_name(r.tensor)}', which has %d (pad the input, e.g. with np.pad)")
        out.append(f"if {need} > {ext(r.axis)}: raise ValueError({msg!r} % ({need}, {ext(r.axis)}))")
    return out


def meta(prog) -> list:
    """The reaches for verification (derive.verification.verify picks input extents from them): [axis, [[coef, index]...],
    const] with classes named by an input letter that carries them, derived classes by their own name."""
    letter = {}
    for v in prog.inputs:
        for l, c in zip(v.indices, v.classes):
            letter.setdefault(c, user_name(l))
    name = lambda c: letter.get(c, user_name(c))       # noqa: E731
    reaches = [r for rs in prog.shifts.derived.values() for r in rs] + list(prog.shifts.checks)
    return [[name(r.axis), [[c, name(k)] for c, k in r.terms], r.const] for r in _unique(reaches)]


def scaled_text(c, x):
    """The text of c·x, as generated code spells an extent's multiple (x alone for c = 1)."""
    return x if c == 1 else f"{c} * {x}"


# -- expressions ----------------------------------------------------------------------------------------------


def is_affine_access(e, classes=None) -> bool:
    """A read at shifted positions: a subscript that is not a plain index, or (given the tensor's axis classes)
    a plain index of another extent class (u[i,j] beside u[i+2,j]: i runs over fewer values than the axis)."""
    if not ir.is_access(e):
        return False
    if any(not isinstance(a, Idx) for a in e.args):
        return True
    return bool(classes) and any(a.ext != c for a, c in zip(e.args, classes))


def affine_parts(arg):
    """(((coef, Idx), ...), const) of an affine subscript expression, coefficients as Python ints."""
    if isinstance(arg, Idx):
        return ((1, arg),), 0
    const = 0
    terms = []
    for t in sp.Add.make_args(sp.expand(arg)):
        if t.is_Integer:
            const += int(t)
            continue
        c, s = t.as_coeff_Mul()
        if not isinstance(s, Idx) or not c.is_Integer:
            raise ValueError(f"not an affine subscript: {arg}")
        terms.append((int(c), s))
    return tuple(terms), const


def window_spec(e):
    """For an access x(args) with affine args: (axes, spec), the view's axes (index symbols, in order of first
    appearance) and per array axis ((view axis position, coef), ...) and const."""
    axes: list = []
    spec = []
    for a in e.args:
        terms, const = affine_parts(a)
        row = []
        for c, s in terms:
            if s not in axes:
                axes.append(s)
            row.append((axes.index(s), c))
        spec.append((tuple(row), const))
    return tuple(axes), tuple(spec)


def affine_deltas(coeff, target):
    """The Kronecker deltas δ(P, affine) of a coefficient that place a term at affine positions of its target
    (a scatter: the transpose of a gather), as {target index: affine expression}; with the rest of coeff."""
    place = {}
    rest = []
    for f in sp.Mul.make_args(coeff):
        if isinstance(f, sp.KroneckerDelta):
            a, b = f.args
            for p, q in ((a, b), (b, a)):
                if p in target and p not in place and q.free_symbols and (not isinstance(q, Idx) or q.ext != p.ext):
                    place[p] = q
                    break
            else:
                rest.append(f)
            continue
        rest.append(f)
    return place, sp.Mul(*rest)


def has_affine(e) -> bool:
    if not isinstance(e, sp.Basic):
        return False
    if any(is_affine_access(a) for a in ir.accesses(e)):
        return True
    return any(not (isinstance(d.args[0], Idx) and isinstance(d.args[1], Idx)) or d.args[0].ext != d.args[1].ext
               for d in e.atoms(sp.KroneckerDelta))


def scatter_spec(target, place, g_axes):
    """Per target axis: ((position in g_axes, coef), ...), const: where G's elements land."""
    out = []
    for p in target:
        terms, const = affine_parts(place.get(p, p))
        out.append((tuple((g_axes.index(s), c) for c, s in terms), const))
    return tuple(out)
