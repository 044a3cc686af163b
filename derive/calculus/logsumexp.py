"""Log-sum-exp temporaries read back in sums: the derivation the emitters print, with each such read written out.

A statement lse[b] = log Σ_k exp(u) is evaluated shifted by the maximum M (M + log Σ_k exp(u - M)), and stored
it is rounded to |lse|·eps. Read back in a difference (cross-entropy's z - lse, its targets' cotangent lse - z)
that rounding is the whole error where z and lse are large: 0.06 absolute in float32 at 1e6, the value itself
wrong at 1e15. Written in place of the read, the emitters subtract M from the other terms first and add the small
log Σ exp(u - M) after ((z - M) - log Σ exp(u - M): numpy_print's emit_shifted_add, kernel_plan's
Planner._stabilize), exact as log-softmax's forward is. A read elsewhere (a factor, a function's argument) stays a
read of the stored value: no difference cancels there.
"""
from __future__ import annotations

import dataclasses

import sympy as sp

from derive.calculus.differential import Derivation, LinStmt, Term
from derive.ir import nodes as ir
from derive.ir.nodes import Idx, IndexSum


def is_log_sum_exp(e) -> bool:
    """e is log(Σ_K exp(u)), the form the emitters shift by the maximum."""
    return isinstance(e, sp.log) and isinstance(e.args[0], IndexSum) and isinstance(e.args[0].body, sp.exp)


def definitions(prog) -> dict:
    """{name: statement} of the program's statements whose right side is a log-sum-exp, their summed indices
    renamed `_l<n>_<k>` (one name per definition, so its reads are equal expressions the emitters compute once)."""
    out = {}
    for st in prog.stmts:
        if st.prim or st.expr is None or not is_log_sum_exp(st.expr):
            continue
        s = st.expr.args[0]
        ren = {x: Idx(f"_l{len(out)}_{k}", x.ext) for k, x in enumerate(s.indices)}
        out[st.target] = (st.indices, sp.log(IndexSum(s.body.xreplace(ren), list(ren.values()))))
    return out


def written_out(e, defs):
    """e with every read lse[J] of a log-sum-exp temporary that is a term of a sum (times a number) replaced by
    its definition at J."""
    if not isinstance(e, sp.Basic) or not e.args or ir.is_access(e):
        return e
    if isinstance(e, IndexSum):
        return IndexSum(written_out(e.body, defs), e.indices)
    args = [written_out(a, defs) for a in e.args]
    if isinstance(e, sp.Add):
        args = [_definition_at(a, defs) for a in args]
    return e.func(*args)


def _definition_at(term, defs):
    c, read = term.as_coeff_Mul()
    if not ir.is_access(read) or ir.acc_name(read) not in defs:
        return term
    indices, expr = defs[ir.acc_name(read)]
    return c * expr.xreplace(dict(zip(indices, read.args)))


def inline_log_sum_exp(d: Derivation) -> Derivation:
    """A copy of the derivation d with the reads of its log-sum-exp temporaries inside sums written out (in the
    program's statements, the auxiliary ones, and every pushforward and pullback coefficient); d itself, where
    there is none. A temporary no statement reads any longer is then not computed (the emitters compute what is
    read)."""
    defs = definitions(d.program)
    if not defs:
        return d

    def stmt(st):
        return st if st.prim or st.expr is None else dataclasses.replace(st, expr=written_out(st.expr, defs))

    def lin(ls):
        if not isinstance(ls, LinStmt):
            return ls          # a primitive's differential given as code (OpaqueLin) reads its saved values whole
        return LinStmt(ls.target, ls.indices, [Term(written_out(t.coeff, defs), t.sums, t.atom) for t in ls.terms])

    prog = dataclasses.replace(d.program, stmts=[stmt(st) for st in d.program.stmts])
    return dataclasses.replace(d, program=prog, aux=[stmt(st) for st in d.aux],
                               pushforward=[lin(ls) for ls in d.pushforward], pullback=[lin(ls) for ls in d.pullback])
