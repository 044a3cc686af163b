"""Kernel pieces for max, min and product reductions (derive/lowering/reductions.py) and for ProdExcept, their partials.

A reduction statement R[I] = IndexMax(T[I,K], K) becomes two pieces: an elementwise one filling R with the
identity (-inf, +inf, 1) and a map-reduce (the `reduce` class) that combines into it, so a reduction split
across warps or blocks merges its partial results atomically into an initialised buffer, as a sum's does into zeros.
ProdExcept(T[I,k], k) becomes a temp of a `prod_except` piece (printed by cuda.OpCuda.prod_except_step: one thread
per row from suffix then prefix products, O(n) per row, no division, so exact where factors are zero).
"""
from __future__ import annotations

import sympy as sp

from derive.emission.kernel_plan import Piece, order_sums
from derive.ir import nodes as ir
from derive.ir.nodes import IndexMax, IndexMin, IndexProd, ProdExcept

# op of the reduce piece -> (identity, CUDA combine selector of templates/cuda_helpers.cuh.j2, words for comments)
OPS = {IndexMax: ("max_value", -sp.oo), IndexMin: ("min_value", sp.oo), IndexProd: ("prod", sp.S.One)}
_COMBINE = {"max_value": (0, "maximum"), "min_value": (1, "minimum"), "prod": (2, "product")}


def reduce_fields(op):
    """The reduce kernel's fields for a max/min/product piece (None for a sum or a log-sum-exp shift)."""
    if op not in _COMBINE:
        return None
    sel, what = _COMBINE[op]
    init = {"max_value": "(-T(INFINITY))", "min_value": "T(INFINITY)", "prod": "T(1)"}[op]
    return {"update": f"{{a}} = tr_combine<{sel}>({{a}}, {{c}});", "init": init, "what": what,
            "warp": f"tr_warp_op<{sel}>", "store": f"tr_store_op<{sel}>"}


def _plain(e):
    return ir.is_access(e) and len(set(e.args)) == len(e.args) and all(isinstance(a, ir.Idx) for a in e.args)


def plan_stmt(planner, st):
    """Pieces of R[I] = Reduce(T[I,K], K): fill R with the identity, then combine T into it over K."""
    e = st.expr
    T, K = e.body, tuple(e.indices)
    if not _plain(T):
        raise NotImplementedError(f"{e.op}() of '{T}' has no CUDA kernel (its body is not a tensor element)")
    op, identity = OPS[type(e)]
    I = tuple(st.indices)
    init = Piece("map", st.target, I, [identity], single=False)
    red = Piece("reduce", st.target, I, [(sp.S.One, T)], sums=order_sums(K, [(None, T, None)]), single=False,
                op=op)
    planner.pieces.extend([init, red])


def rewrite(planner, e):
    """e with every ProdExcept(T, k) read from a temp that a `prod_except` piece computes before it."""
    if not isinstance(e, sp.Basic) or not e.has(ProdExcept):
        return e
    reps = {}
    for p in sp.preorder_traversal(e):
        if isinstance(p, ProdExcept) and p not in reps:
            reps[p] = _temp(planner, p)
    return e.xreplace(reps)


def _temp(planner, p):
    T, k = p.args
    if not _plain(T) or k not in T.args:
        raise NotImplementedError(f"the partials of prod() of '{T}' have no CUDA kernel (not a tensor element)")
    ren = {s: ir.Idx(f"_f{j}", s.ext) for j, s in enumerate(T.args)}
    key = ("prod_except", sp.srepr(T.xreplace(ren)), list(T.args).index(k))
    name, new = planner.register(key, tuple(s.ext for s in T.args))
    if new:
        planner.pieces.append(Piece("prod_except", name, tuple(T.args), [T], sums=(k,)))
    return ir.access(name, tuple(T.args))
