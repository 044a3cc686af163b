"""Showing derived rules the way a person writes them: each statement in matrix form where one passes its check
(derive.display.matrixform), else index form (derive.display.notation), and a pullback rewritten as a book writes it.

Both forms print in plain Unicode for terminals or LaTeX for documents, from the same term structure.
"""
from __future__ import annotations

import dataclasses

import sympy as sp

from derive.calculus.differential import Term, cot, fresh_like, simplify_terms
from derive.display import check as dc
from derive.display import matrixform, shifted
from derive.display.notation import (
    inverse_of,
    memoized_all,
    naming,
    opaque_text,
    pretty_name,
    primitive_defs,
    primitive_value,
    definition_lines,
    function_lines,
    stmt_index,
    symbol_count,
    tidy,
)
from derive.ir import nodes as ir
from derive.ir.masks import Iverson
from derive.language import domains as domain_text


def stmt_text(ls, style="unicode", matrix=True, domains=None):
    if getattr(ls, "mode", None):
        return opaque_text(ls, style)
    if matrix:
        m = matrixform.safe_stmt_matrix(ls, style, domains)
        if m is not None:
            return m
    return stmt_index(ls, style)


def merged_pullback(stmts):
    """A pullback's `dv = <opaque map>; dA = dv` shown as one statement `dA = <opaque map>`."""
    out = list(stmts)
    for k, ls in enumerate(out):
        if ls is None or getattr(ls, "mode", None) != "vjp":
            continue
        users = [m for m, o in enumerate(out) if m != k and o is not None and not getattr(o, "mode", None)
                 and any(ir.acc_name(t.atom) == ls.target for t in o.terms)]
        if len(users) == 1 and len(out[users[0]].terms) == 1 and out[users[0]].terms[0].coeff == 1:
            u = out[users[0]]
            out[users[0]] = type(ls)(u.target, u.indices, ls.prim, "vjp", ls.saved, ls.arg, ls.of,
                                     argnum=ls.argnum)
            out[k] = None
    return [ls for ls in out if ls is not None]


def program_text(d, which, style="unicode", matrix=True, domains=None) -> str:
    """The program's statements; a matrix form is shown only where it passes its numerical check (on the
    program's declared domains, or on d.program's)."""
    stmts = d.pushforward if which == "pushforward" else merged_pullback(d.pullback)
    sep = "\n" if style == "unicode" else r" \\" + "\n"
    domains = domains if domains is not None else program_domains(d)
    with naming(d):
        if which != "pushforward" and matrix:
            stmts = shown_pullback(d, stmts, style, domains)
        lines = [stmt_text(ls, style, matrix, domains) for ls in stmts]
        defs = definition_lines(d, stmts, style, lambda ls: matrixform.safe_stmt_matrix(ls, style, domains))
        defs += function_lines(lines, style)
        return sep.join(lines + [text for _, text in defs])      # t0, V, λ, cumsum: a line each


# -- display-only rewrites of a pullback: what a book writes for the same numbers ------------------------------
# Each rewritten statement is still shown only where its matrix form passes display_check against its own
# (rewritten) index form, and the points compute adj, det and inv from their argument, so the identities used
# here are checked numerically where they are shown.


def _with_reads(ls, fn):
    """ls with fn applied to every coefficient and atom."""
    return type(ls)(ls.target, ls.indices, [Term(fn(t.coeff), t.sums, fn(t.atom)) for t in ls.terms])


def _adjugates(d, stmts):
    """adj(X)ᵀ as det(X)·X⁻ᵀ (the adjugate keeps the code continuous at singular X; a book writes the inverse),
    det(X) by the name the rule gives it (`C = det(A)`: dC·C·A⁻ᵀ)."""
    defs = primitive_defs(d)
    det_of = {args[0]: name for name, (prim, args) in defs.items()
              if prim == "det" and len(args) == 1 and not (name.startswith("_") and not name.startswith("__"))}

    def fix(e):
        return e.replace(lambda a: ir.is_access(a) and primitive_value(ir.acc_name(a)) is not None
                         and primitive_value(ir.acc_name(a))[0].name == "adj",
                         lambda a: ir.access(det_of.get(primitive_value(ir.acc_name(a))[1],
                                                        "_det_" + primitive_value(ir.acc_name(a))[1]), ())
                         * ir.access("_inv_" + primitive_value(ir.acc_name(a))[1], a.args))

    return [ls if getattr(ls, "mode", None) else _cancel_inverses(_with_reads(ls, fix)) for ls in stmts]


def _cancel_inverses(ls):
    """inv(inv(Y)) as Y, and Y·Y⁻¹ or Y⁻¹·Y summed over their shared index as the identity."""
    def unwrap(e):
        return e.replace(lambda a: ir.is_access(a) and inverse_of(ir.acc_name(a)) is not None
                         and inverse_of(inverse_of(ir.acc_name(a))) is not None,
                         lambda a: ir.access(inverse_of(inverse_of(ir.acc_name(a))), a.args))

    terms, changed = [], False
    for t in ls.terms:
        coeff, sums = unwrap(t.coeff), list(t.sums)
        changed |= coeff != t.coeff
        again = True
        while again:
            again = False
            fs = [f for f in sp.Mul.make_args(coeff) if ir.is_access(f) and len(f.args) == 2]
            for F in fs:
                for G in fs:
                    if F is G or not (inverse_of(ir.acc_name(G)) == ir.acc_name(F)
                                      or inverse_of(ir.acc_name(F)) == ir.acc_name(G)):
                        continue
                    for s, pair in ((F.args[1], (F.args[0], G.args[1])), (F.args[0], (G.args[0], F.args[1]))):
                        hits = sum(1 for a in ir.accesses(coeff * t.atom) for x in a.args if x == s)
                        if s in sums and hits == 2 and (s == G.args[0] if s == F.args[1] else s == G.args[1]):
                            coeff = coeff / (F * G) * ir.KroneckerDelta(*pair)
                            sums.remove(s)
                            again = changed = True
                            break
                    if again:
                        break
                if again:
                    break
        terms.append(Term(coeff, tuple(sums), t.atom))
    if not changed:
        return ls
    return type(ls)(ls.target, ls.indices, simplify_terms(terms, reserved=ls.indices))


def _opaque_copies(stmts):
    """`dz = dx` read only by a linear map given as code whose display names its result's cotangent dx anyway
    (solve_triangular's `dL = -tril(L⁻ᵀ·dx·xᵀ)`): the copy is not shown, the map reads dx."""
    out = list(stmts)
    mapped = {o.arg for o in out if getattr(o, "mode", None)}        # what the maps read, kept as they change
    for ls in stmts:
        if getattr(ls, "mode", None) or len(ls.terms) != 1 or ls.target not in mapped:
            continue        # only a copy a map reads is a candidate: the scan below is over every statement
        t = ls.terms[0]
        readers = [o for o in out if o is not ls and (getattr(o, "arg", None) == ls.target
                                                    or any(ir.acc_name(u.atom) == ls.target for u in o.terms))]
        if t.coeff != 1 or t.sums or tuple(t.atom.args) != tuple(ls.indices) or not readers or \
                not all(getattr(o, "mode", None) == "vjp" and o.of and cot(o.of[-1]) == ir.acc_name(t.atom)
                        for o in readers):
            continue
        out = [dataclasses.replace(o, arg=ir.acc_name(t.atom)) if any(o is r for r in readers) else o
               for o in out if o is not ls]
        mapped = {o.arg for o in out if getattr(o, "mode", None)}
    return out


def _shifted_reads(ls):
    """ls with the deltas of transposed shifted reads contracted (`Σ_l dy[t-l]·w[l]`, derive.display.shifted),
    where that agrees with ls at random values; else ls."""
    if getattr(ls, "mode", None):
        return ls
    new = shifted.contracted(ls)
    if new is ls:
        return ls
    same = shifted.agrees(ls, new)
    if same is False:
        dc.reject(ls, stmt_index(new), "the contracted shifted reads differ from the derived statement")
    if not same:
        return ls
    return new


def _excludes_zero(e, doms, defs) -> bool:
    """Whether e is nonzero at every input the shown formulas hold for (doms): a nonzero number, an input declared
    positive, negative, nonzero or on an interval without 0, a lifted temporary whose definition is (defs), a
    product, power, exp or where of such."""
    if e.is_Number:
        return e != 0
    if ir.is_access(e):
        n = ir.acc_name(e)
        if n in defs:
            return _excludes_zero(defs[n][1], doms, defs)
        dom = doms.get(n, "real")
        iv = domain_text.interval(dom)
        return dom in ("positive", "negative", "nonzero") or (iv is not None and (iv[0] >= 0 or iv[1] <= 0))
    if isinstance(e, sp.exp):
        return True
    if isinstance(e, ir.where):
        return _excludes_zero(e.args[1], doms, defs) and _excludes_zero(e.args[2], doms, defs)
    if isinstance(e, (sp.Mul, sp.Pow)):
        return all(_excludes_zero(a, doms, defs) for a in (e.args if isinstance(e, sp.Mul) else e.args[:1]))
    return False


def _quotients(d, stmts, doms):
    """Π_{k′≠k} T[I,k′] as R[I]/T[I,k] (R[I] = Π_k T[I,k] a statement of the rule, a lifted T written out) where
    T excludes zero at every input the formulas hold for (the code keeps the product of the others: exact at a
    zero factor, where the quotient is 0/0)."""
    prog = getattr(d, "program", None)
    prods = [st for st in getattr(prog, "stmts", ()) if isinstance(st.expr, ir.IndexProd) and ir.is_access(st.expr.body)]
    defs = {st.target: (st.indices, st.expr) for st in getattr(prog, "stmts", ())
            if st.expr is not None and not st.prim and st.target.startswith("_") and not st.target.startswith("__")
            and not isinstance(st.expr, ir.IndexReduce)}

    def quotient(pe):
        T, K = pe.args[0], tuple(pe.args[1:])
        for st in prods:
            body = st.expr.body
            if ir.acc_name(body) != ir.acc_name(T) or len(body.args) != len(T.args):
                continue
            sub = dict(zip(body.args, T.args))
            if tuple(sub.get(k) for k in st.expr.indices) != K or any(i not in sub for i in st.indices):
                continue
            B = T
            if ir.acc_name(T) in defs:
                ix, expr = defs[ir.acc_name(T)]
                B = expr.xreplace(dict(zip(ix, T.args)))
            if _excludes_zero(B, doms, defs):
                return ir.access(st.target, tuple(sub[i] for i in st.indices)) / B
        return pe

    def fix(e):
        return e.replace(lambda a: isinstance(a, ir.ProdExcept), quotient) if e.has(ir.ProdExcept) else e

    return [ls if getattr(ls, "mode", None) else _masked(_with_reads(ls, fix)) for ls in stmts]


def _masked(ls):
    """A term with a factor [c] reads where(c, a, b) as a (it is 0 where c fails): the mask of a scan inlined."""
    def collapse(c):
        conds = {f.args[0] for f in sp.Mul.make_args(c) if isinstance(f, Iverson)}
        if not conds or not c.has(ir.where):
            return c
        return c.replace(lambda a: isinstance(a, ir.where) and a.args[0] in conds, lambda a: a.args[1])

    terms = [Term(collapse(t.coeff), t.sums, t.atom) for t in ls.terms]
    if all(a.coeff is b.coeff for a, b in zip(terms, ls.terms)):
        return ls
    return type(ls)(ls.target, ls.indices, simplify_terms(terms, reserved=ls.indices))


def _renamed(e, old, new):
    return e.replace(lambda a: ir.is_access(a) and ir.acc_name(a) == old, lambda a: ir.access(new, a.args))


def _copies(d, stmts):
    """`dz = A⁻ᵀ·dx; db = dz` as `db = A⁻ᵀ·dx` (solve's temporary is the cotangent of its right-hand side)."""
    inputs = {cot(v.name) for v in getattr(getattr(d, "program", None), "inputs", ())}
    out = list(stmts)
    for ls in stmts:
        if getattr(ls, "mode", None) or ls.target not in inputs or len(ls.terms) != 1:
            continue
        t = ls.terms[0]
        z = ir.acc_name(t.atom)
        defs = [k for k, o in enumerate(out) if o.target == z]
        if t.coeff != 1 or t.sums or tuple(t.atom.args) != tuple(ls.indices) or z in inputs or len(defs) != 1 \
                or getattr(out[defs[0]], "mode", None):
            continue
        k = defs[0]
        zdef = out[k]
        out[k] = type(zdef)(ls.target, zdef.indices, list(zdef.terms))
        out = [o if o is out[k] or getattr(o, "mode", None) else _with_reads(o, lambda e: _renamed(e, z, ls.target))
               for o in out if o is not ls]
    return out


def _inline(reader, ls):
    """reader with every read of ls's target replaced by ls's terms (their sums renamed apart)."""
    terms = []
    for t in reader.terms:
        if ir.acc_name(t.atom) != ls.target:
            terms.append(t)
            continue
        taken = set(reader.indices) | set(t.sums) | t.coeff.atoms(ir.Idx)
        ren = dict(zip(ls.indices, t.atom.args))
        for u in ls.terms:
            sub = dict(ren)
            for s in u.sums:
                sub[s] = fresh_like(s) if s in taken or s in ren.values() else s
            terms.append(Term(t.coeff * tidy(u.coeff).xreplace(sub), tuple(t.sums) + tuple(sub[s] for s in u.sums),
                              u.atom.xreplace(sub)))
    return _masked(_cancel_inverses(type(reader)(reader.target, reader.indices,
                                                 simplify_terms(terms, reserved=reader.indices))))


def shown_pullback(d, stmts, style="unicode", domains=None):
    """The pullback's statements as shown: adjugates as inverses, solve's copy folded, and an intermediate
    cotangent read by one statement substituted into it where the shown result is shorter (made once per
    statement list within the derivation's shared forms: the JSON and the record show the same pullback)."""
    return list(memoized_all("pullback", stmts, style, domains, lambda: _shown_pullback(d, stmts, style, domains)))


def _shown_pullback(d, stmts, style, domains):
    """Substitutions in statement order: the first that is shorter is taken, and the scan goes on from the first
    statement whose substitution it may have changed (those whose target the two statements, or the new one,
    read); the statements before it were looked at with the same readers and refused. What a look costs is
    kept (each statement's shown form, the readers of each name, the substitutions found longer), so a long
    program costs one look per statement and substitution, not one per statement on every pass."""
    stmts = [_shifted_reads(ls) for ls in _copies(d, _adjugates(d, _opaque_copies(stmts)))]
    # a substituted statement's slot holds None
    slots = _quotients(d, stmts, domains if domains is not None else program_domains(d))
    inputs = {cot(v.name) for v in getattr(getattr(d, "program", None), "inputs", ())}
    seen: dict = {}            # id -> (statement, its shown form): the statement kept so that its id stays its own
    refused: dict = {}         # (id, id) -> the pair whose substitution is not shorter, or fails
    at = {id(o): k for k, o in enumerate(slots)}
    defined: dict = {}         # name -> positions of the statements that define it
    for k, o in enumerate(slots):
        defined.setdefault(o.target, set()).add(k)

    def shown(ls):
        if id(ls) not in seen:
            m = matrixform.safe_stmt_matrix(ls, style, domains)
            seen[id(ls)] = (ls, (m, True) if m is not None else (stmt_index(ls, style), False))
        return seen[id(ls)][1]

    readers = _Readers(slots)
    k = 0
    while k < len(slots):
        ls = slots[k]
        by = readers.others(ls) if ls is not None and not getattr(ls, "mode", None) and ls.target not in inputs \
            else ()
        if len(by) != 1 or getattr(by[0], "mode", None) or (id(ls), id(by[0])) in refused:
            k += 1
            continue
        reader = by[0]
        new = _shorter(ls, reader, shown)
        if new is None:
            refused[id(ls), id(reader)] = (ls, reader)
            k += 1
            continue
        r = at[id(reader)]
        slots[r], slots[k], at[id(new)] = new, None, r
        defined[ls.target].discard(k)
        touched = set(readers.names(ls)) | set(readers.names(reader)) | set(readers.names(new))
        readers.drop(ls)
        readers.drop(reader)
        readers.add(new)
        k = min([k, r] + [j for name in touched for j in defined.get(name, ())])
    return [o for o in slots if o is not None]


class _Readers:
    """The statements of a list that read each name, kept as the list changes (a substitution drops two
    statements and adds one), so that a pass does not read every statement again."""

    def __init__(self, stmts):
        self.by_name: dict = {}      # name -> {id: statement} of the statements that read it
        for o in stmts:
            self.add(o)

    @staticmethod
    def names(o):
        return dict.fromkeys(ir.acc_name(t.atom) for t in getattr(o, "terms", ()) or ())

    def add(self, o):
        for name in self.names(o):
            self.by_name.setdefault(name, {})[id(o)] = o

    def drop(self, o):
        for name in self.names(o):
            self.by_name[name].pop(id(o), None)

    def others(self, ls):
        """The statements other than ls that read ls's target."""
        return [o for i, o in self.by_name.get(ls.target, {}).items() if i != id(ls)]


# A substitution is tried only where the two shown statements have at most this many symbols together (the
# shipped rules' reach 24): a chain of n statements (t1 = sin(t0), t2 = sin(t1), ...) would otherwise fold into
# one product of n factors, rebuilt and shown again at every step, O(n²), and unreadable long before.
SUBSTITUTION_SYMBOLS = 80


def _shorter(ls, reader, shown):
    """reader with ls substituted where that shows shorter (and as a matrix where both were), else None."""
    (a, ma), (b, mb) = shown(ls), shown(reader)
    if symbol_count(a) + symbol_count(b) > SUBSTITUTION_SYMBOLS:
        return None
    try:
        new = _inline(reader, ls)
    except Exception:
        return None
    c, mc = shown(new)
    if (mc or not (ma and mb)) and symbol_count(c) < symbol_count(a) + symbol_count(b):
        return new
    return None


def program_domains(d):
    """The domains the shown formulas must hold for: every input the generated code accepts ({} where none)."""
    return dc.formula_domains(getattr(d, "program", None))


def program_json(d, which):
    stmts = d.pushforward if which == "pushforward" else merged_pullback(d.pullback)
    out = []
    with naming(d):
        if which != "pushforward":
            stmts = shown_pullback(d, stmts, "unicode", program_domains(d))
        return _program_json(d, stmts, out)


def _program_json(d, stmts, out):
    doms = program_domains(d)       # once: it reads every statement of the program
    for ls in stmts:
        out.append({
            "target": pretty_name(ls.target),
            "indices": [i.name for i in ls.indices],
            "index_form": stmt_index(ls),
            "matrix_form": matrixform.safe_stmt_matrix(ls, "unicode", doms),
            "latex": stmt_text(ls, "latex", domains=doms),
        })
    for (sym, text), (_, tex) in zip(*[definition_lines(d, stmts, style, lambda ls, s=style: matrixform.safe_stmt_matrix(
            ls, s, doms)) for style in ("unicode", "latex")]):
        out.append({"target": sym, "indices": [], "index_form": text, "matrix_form": None, "latex": tex,
                    "where": True})
    shown = [s["matrix_form"] for s in out]
    for (sym, text), (_, tex) in zip(function_lines(shown), function_lines(shown, "latex")):
        out.append({"target": sym, "indices": [], "index_form": text, "matrix_form": None, "latex": tex,
                    "where": True})
    return out
