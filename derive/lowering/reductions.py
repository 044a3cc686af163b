"""Reductions beyond sum: `max(k, e)`, `min(k, e)` and `prod(k, e)` -- their reading, lowering, differential and
NumPy printing. The IR nodes (IndexMax, IndexMin, IndexProd, ProdExcept) are declared in derive.ir.

Each reduction becomes a statement of its own, `R[I] = IndexMax(T[I,K], K)`, T a tensor over distinct indices (the
body, lifted into a temp where it is not one). Its differential is then an ordinary index sum of the IR, so
transposition, verification and codegen treat it like any other statement:
- max/min: dR[I] = Σ_K w[I,K]·dT[I,K], w = [T[I,K] == R[I]] / #{K' : T[I,K'] == R[I]}: the tangent (and, by
  transposition, the cotangent) is split evenly among tied maximisers (JAX's and PyTorch's amax rule);
- prod: dR[I] = Σ_k ProdExcept(T[I,k], k)·dT[I,k], the product of the other factors, computed from prefix and
  suffix products (no division, so exact at zeros). A product over several indices nests, prod(i, prod(j, e)).
"""
from __future__ import annotations

import sympy as sp

from derive.ir import nodes as ir
from derive.ir.nodes import Idx, IndexMax, IndexMin, IndexProd, IndexReduce, IndexSum, ProdExcept
from derive.language import ast as A
from derive.language.errors import did_you_mean
from derive.lowering import calls
from derive.lowering.text import text_order

NODES = {"max": IndexMax, "min": IndexMin, "prod": IndexProd}
NAMES = tuple(NODES)


# ---------------------------------------------------------------------------------------------------------
# Reading: is `max(...)` a reduction or the elementwise max of two values?


def _letters_in(node) -> set:
    """Index letters subscripted anywhere in node's text."""
    out: set = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (A.Access, A.Subscript)):
            # a shifted subscript x[2*i+k] subscripts each of its letters (i and k)
            out |= {name for ix in n.indices
                    for name in (ix.letters if isinstance(ix, A.Affine) else (ix.name,))}
        for v in vars(n).values():
            if isinstance(v, A.Node):
                stack.append(v)
            elif isinstance(v, (list, tuple)):
                stack.extend(x for x in v if isinstance(x, A.Node))
    return out


def is_reduction(call, known_names) -> bool:
    """`prod(...)` always; `max`/`min` with three or more arguments, or with two whose first is a bare name that
    the second subscripts (`max(m, S[n,m])`, even where a tensor is named m too, as in sum(m, ...)); `max(x, 0)`
    and `max(x[i], y[i])` stay elementwise. `max(i)` alone is a reduction without a body (an error)."""
    if call.func == "prod":
        return True
    if call.func not in ("max", "min"):
        return False
    args = call.args
    if len(args) > 2:
        return True
    if len(args) == 1:
        return isinstance(args[0], A.Name) and args[0].name not in known_names
    return len(args) == 2 and isinstance(args[0], A.Name) and args[0].name in _letters_in(args[1])


# ---------------------------------------------------------------------------------------------------------
# Lowering: the call rules of prod, and of max and min where they reduce (derive.lowering.calls's registry)


def lower(lw, node, bound):
    """The reduction `node` as an access R[I] to a statement R[I] = IndexMax(T[I,K], K) of its own."""
    f = node.func
    idx_nodes = _reduced_indices(lw, node)
    with lw.binding(idx_nodes, "red") as syms:   # new variables inside the reduction, as sum()'s are
        body = lw.scalar(node.args[-1], bound | {n.name for n in idx_nodes})
    lw.reduced_letters |= {n.name for n in idx_nodes}
    free = lw.free_letters(body)
    for s, n in zip(syms, idx_nodes):
        if s not in free:
            raise lw.err(f"index '{s.name}' does not occur in the expression {f}() reduces, so the {f} over it "
                         f"would be the expression itself; reduce over an index the expression uses, e.g. "
                         f"{f}({s.name}, x[{s.name}])", n, len(s.name))
    outer = [s for s in text_order(free, node.args[-1]) if s not in syms]
    # the same reduction written twice (the shift of a log-sum-exp, max(k, x[k]), added back) is computed once
    key = (f, sp.srepr(body.xreplace({s: sp.Symbol(f"_K{k}") for k, s in enumerate(syms)})), tuple(outer))
    if key in lw.reductions:
        return ir.access(lw.reductions[key].target, outer)
    T, syms = _reduced_tensor(lw, node, body, syms, free)
    R = lw.lift(NODES[f](T, syms), outer, node.pos)
    lw.reductions[key] = lw.stmts[-1]
    return ir.access(R.name, outer)


def _reduced_indices(lw, node) -> list:
    """The index arguments of a reduction (all but the last): names, each once, and at least one."""
    f = node.func
    if len(node.args) < 2:
        raise lw.err(f"{f}({_arg_text(node)}) has nothing to reduce; write {f}(k, expr) for the {f} of expr "
                     f"over index k" + (f", or {f}(a, b) for the larger of two values" if f == "max" else
                                        f", or {f}(a, b) for the smaller of two values" if f == "min" else ""),
                     node.func_pos or node.pos, len(f))
    idx_nodes = node.args[:-1]
    for n in idx_nodes:
        if not isinstance(n, A.Name):
            raise lw.err(f"{f}'s leading arguments must be index names: {f}(k, expr) reduces expr over k"
                         + ("" if f == "prod" else f"; {f}(a, b) of two values takes exactly two arguments"), n, 1)
    names = [n.name for n in idx_nodes]
    for k, n in enumerate(idx_nodes):
        if n.name in names[:k]:
            raise lw.err(f"index '{n.name}' is listed twice in {f}()", n, len(n.name))
    return idx_nodes


def _reduced_tensor(lw, node, body, syms, free):
    """(T, K): the body as a read T[I,K] of a tensor over distinct indices (lifted into a temp where it is not
    one), and the indices to reduce; a product over several indices nests, all but its first lifted here."""
    if ir.is_access(body) and len(set(body.args)) == len(body.args) and \
            not getattr(body, "is_number", False):
        T = body
    else:
        order = [s for s in text_order(free, node.args[-1])]
        T = ir.access(lw.lift(body, order, node.pos).name, order)
    if node.func == "prod":
        # Π over (i, j) is Π_i Π_j: each product reduces one axis, so its partials are one prefix/suffix scan
        rest = list(T.args)
        for s in reversed(syms[1:]):
            rest.remove(s)
            T = ir.access(lw.lift(IndexProd(T, [s]), rest, node.pos).name, rest)
        syms = syms[:1]
    return T, syms


def _reduction_or(pairwise):
    """The call rule of max or min: a reduction where the call reads as one (is_reduction), else pairwise."""
    def rule(lw, node, bound):
        if is_reduction(node, lw.tensors):
            return lower(lw, node, bound)
        check_pair(lw, node)
        return pairwise(lw, node, bound)
    return rule


def check_pair(lw, node):
    """max(a, b) of two values whose first is an unknown bare name: most likely a reduction over an index the
    expression does not use (max(k, x[i])); say so rather than only "unknown name"."""
    a = node.args[0] if node.args else None
    if len(node.args) == 2 and isinstance(a, A.Name) and a.name not in lw.tensors and lw.rule.header:
        f = node.func
        raise lw.err(f"unknown name '{a.name}'{did_you_mean(a.name, lw.user_tensors()) or ';'} {f}(a, b) of two values "
                     f"needs '{a.name}' to be an input, and {f}({a.name}, expr) reduces over index '{a.name}' only "
                     f"where expr uses it, e.g. {f}({a.name}, x[{a.name}])", a, len(a.name))


def reduced_note(lw, letter) -> str:
    """What to write when the left side keeps an index only a reduction uses (y[i] = max(i, x[i]))."""
    if letter not in lw.reduced_letters:
        return ""
    return (f": a reduction over '{letter}' (max, min or prod) leaves no axis '{letter}' in its result; drop "
            f"'{letter}' from the left side, or reduce over another index")


calls.register("prod", lower)
for _f in ("max", "min"):
    calls.register(_f, _reduction_or(calls.CALL_RULES[_f]))


def _arg_text(node) -> str:
    return ", ".join(a.name if isinstance(a, A.Name) else "..." for a in node.args)


# ---------------------------------------------------------------------------------------------------------
# The differential (called from derive.calculus.derive for a reduction statement)


def linearize_stmt(st, active, linearize):
    """dR[I] for the statement R[I] = Reduce(T[I,K], K)."""
    e = st.expr
    T, K = e.body, e.indices
    dT = linearize(T, active)
    if dT == 0:
        return sp.S.Zero
    if isinstance(e, IndexProd):
        (k,) = K
        return IndexSum(ProdExcept(T, k) * dT, K)
    R = ir.access(st.target, st.indices)
    hit = ir.where(sp.Eq(T, R), sp.S.One, sp.S.Zero)
    K2 = {k: Idx(k.name + "_t", k.ext) for k in K}
    ties = IndexSum(hit.xreplace(K2), list(K2.values()))
    return IndexSum(hit * dT, K) / ties


def is_stmt(st) -> bool:
    return st.expr is not None and isinstance(st.expr, IndexReduce)


# ---------------------------------------------------------------------------------------------------------
# NumPy printing (called from derive.emission.numpy_print's printer)

_NP = {"max": "np.max", "min": "np.min", "prod": "np.prod"}


def emit_numpy(pr, e):
    """(code, axes) of a reduction or of ProdExcept, printed over the body's labelled axes."""
    if isinstance(e, ProdExcept):
        body, k = e.args
        code, axes = pr.emit(body)
        return pr.bind(e, f"np.others_product({code}, axis={axes.index(k)})", axes, "p")
    code, axes = pr.emit(e.body)
    ax = [axes.index(k) for k in e.indices]
    out = tuple(a for a in axes if a not in e.indices)
    axis = ax[0] if len(ax) == 1 else tuple(ax)
    return pr.bind(e, f"{_NP[e.op]}({code}, axis={axis})", out, "r")
