"""Function calls of the language: the registry of call rules lowering consults (one per function name, as JAX
registers a rule per primitive) and the built-in rules: sum, delta, size, max/min of two values, the elementwise
functions and the matrix primitives. Feature modules (derive.lowering.reductions) register theirs with `register`.

A rule is `rule(lw, node, bound) -> expression`: lw the lowering (derive.lowering.expressions.ExpressionLowerer),
node the A.Call, bound the letters an enclosing sum or reduction binds.
"""
from __future__ import annotations

import sympy as sp

from derive.ir import nodes as ir
from derive.ir.masks import is_condition
from derive.ir.nodes import Extent, IndexSum, KroneckerDelta, Stmt
from derive.language import ast as A
from derive.lowering.text import text_order

# the language's built-in names: no tensor may take one
RESERVED = set(ir.ELEMENTWISE) | set(ir.MATRIX_FUNCTIONS) | {"sum", "delta", "size", "max", "min", "prod", "inf"}
_ORDINAL = ("first", "second", "third")

CALL_RULES: dict = {}       # function name -> rule(lw, node, bound)


def register(name: str, rule) -> None:
    CALL_RULES[name] = rule


def _fpos(node):
    return node.func_pos or node.pos


# -- sum, delta, size -----------------------------------------------------------------------------------------


def lower_sum(lw, node, bound):
    if len(node.args) < 2:
        raise lw.err("sum needs an index and an expression: sum(k, expr)", _fpos(node), 3)
    idx_nodes = node.args[:-1]
    for n in idx_nodes:
        if not isinstance(n, A.Name):
            raise lw.err("sum's leading arguments must be index names: sum(k, expr)", n, 1)
    with lw.binding(idx_nodes, "sum") as syms:
        body = lw.scalar(node.args[-1], bound | {n.name for n in idx_nodes})
    free = set(lw.free_letters(body))
    # summing a term that does not mention k multiplies it by k's extent
    missing = [s for s in syms if s not in free]
    present = [s for s in syms if s in free]
    out = IndexSum(body, present)
    for s in missing:
        out = out * Extent(s)
    return out


def lower_delta(lw, node, bound):
    if len(node.args) != 2 or not all(isinstance(a, A.Name) for a in node.args):
        raise lw.err("delta takes two index names: delta(i, j)", _fpos(node), 5)
    i, j = (lw.index(a) for a in node.args)
    lw.uf.union(i.ext, j.ext, node.pos, lw.name, "delta: ")
    return KroneckerDelta(i, j, evaluate=False) if i != j else sp.S.One


def lower_size(lw, node, bound):
    if len(node.args) != 1 or not isinstance(node.args[0], A.Name):
        raise lw.err("size takes one index name: size(i)", _fpos(node), 4)
    name = node.args[0].name
    fresh_here = name not in lw.letters
    s = lw.index(node.args[0])
    if fresh_here and ("hdr", name) in lw.uf.parent:
        # size(i) of an index the statement does not otherwise use: the header's index i
        lw.uf.union(s.ext, ("hdr", name))
    return Extent(s)


def lower_pair(lw, node, bound):
    """max(a, b) or min(a, b) of two values (derive.lowering.reductions claims the reductions first)."""
    f = node.func
    if len(node.args) != 2:
        raise lw.err(f"{f} takes two arguments", _fpos(node), len(f))
    a, b = (lw.scalar(x, bound) for x in node.args)
    if f == "max" and b == 0:
        return ir.relu(a)
    if f == "max" and a == 0:
        return ir.relu(b)
    return ir.where(sp.GreaterThan(a, b) if f == "max" else sp.LessThan(a, b), a, b)


# -- elementwise functions ------------------------------------------------------------------------------------


def lower_elementwise(lw, node, bound):
    f = node.func
    builtin = ir.ELEMENTWISE[f]
    arity = builtin.arity
    if len(node.args) != arity:
        raise lw.err(f"{f} takes {arity} argument{'s' if arity > 1 else ''}, got {len(node.args)}",
                     _fpos(node), len(f))
    args = [_elementwise_arg(lw, f, k, a, bound) for k, a in enumerate(node.args)]
    lw.no_hidden_clash(list(zip(node.args, args)), label=f"an argument of {f}()")
    row = builtin.row
    if row.exempt_if_integer is None or not args[row.exempt_if_integer].is_integer:
        for a, dom in zip(args, row.domain):
            if dom:
                mark_domain(lw, a, dom)
    return builtin.fn(*args)


def _elementwise_arg(lw, f, k, a, bound):
    """Argument k of elementwise function f: a scalar, a comparison exactly where the row takes its condition."""
    if isinstance(a, A.Name) and a.name in lw.tensors and (lw.tensors[a.name].rank or 0) > 0:
        raise lw.err(f"{f} expects a scalar argument, but '{a.name}' has {lw.tensors[a.name].rank} indices; index "
                     f"it (elementwise): {f}({a.name}[...])", a)
    e = lw.convert(a, bound)
    is_rel = is_condition(e)
    if k == ir.ELEMENTWISE[f].row.condition:
        if not is_rel:
            raise lw.err(f"{f}'s {_ORDINAL[k]} argument must be a comparison, e.g. x[i] > 0", a, 1)
    elif is_rel:
        raise lw.err("a comparison is only allowed as the first argument of where()", a, 1)
    return e


def _positive(e) -> bool:
    """Whether e > 0 for every real value of the tensors it reads, but on a set random points never meet (exp,
    even powers, |.|, sums and products of such terms, positive constants, extents): such an argument of log or
    sqrt says nothing about the inputs' domain, and sampling them positive only would leave a blind spot
    (log-sum-exp, a norm sqrt(Σ x²))."""
    if e.is_Number:
        return bool(e > 0)
    if isinstance(e, (sp.exp, ir.Extent, sp.Abs)):
        return True
    if isinstance(e, ir.IndexSum):
        return _positive(e.body)
    if isinstance(e, (sp.Add, sp.Mul)):
        return all(_positive(a) for a in e.args)
    if isinstance(e, sp.Pow):
        if e.exp.is_integer and e.exp.is_even:
            return True
        return _positive(e.base) and e.exp.is_real is True
    return False


def mark_domain(lw, e, dom):
    """Hint that the inputs e reads take values in domain dom (log's argument positive, logdet's spd)."""
    if dom == "positive" and _positive(e):
        return      # log(sum(j, exp(x[j]))) holds for every real x: sampling x > 0 only would be a blind spot
    if dom == "positive" and isinstance(e, sp.Mul):
        for f in e.args:            # log(z[i]·x[i]²): z's sign matters, x's does not
            mark_domain(lw, f, dom)
        return
    for a in ir.accesses(e):
        name = ir.acc_name(a)
        t = lw.tensors.get(name)
        if t is not None and t.role == "input" and lw.domain.get(name, "real") == "real":
            lw.domain[name] = dom


# -- matrix primitives ----------------------------------------------------------------------------------------


def tensor_arg(lw, node, bound, fname):
    """A matrix-function argument: (tensor, symbols of its axes)."""
    if isinstance(node, A.Name):
        t = lw.lookup(node.name, node, None)
        if t.kind != "tensor":
            raise lw.err(f"{fname} expects a matrix, but '{t.name}' is a scalar", node)
        if t.rank is None:
            t.rank = 2 if fname != "solve_rhs" else 1
        syms = [lw.fresh_letter(t.axis(k)) for k in range(t.rank)]
        for k, s in enumerate(syms):
            lw.uf.find(s.ext)
        return t, syms
    e = lw.scalar(node, bound)
    free = text_order(lw.free_letters(e), node, by_access=True)
    if ir.is_access(e) and list(e.args) == free and len(set(free)) == len(free):
        return lw.tensors[ir.acc_name(e)], free
    return lw.lift(e, free, node.pos), free


def lower_matrix(lw, node, bound):
    f = node.func
    want = len(ir.MATRIX_PRIMITIVES[f].args) if f in ir.MATRIX_PRIMITIVES else 1
    if len(node.args) != want:
        raise lw.err(f"{f} takes {want} argument{'s' if want > 1 else ''}, got {len(node.args)}", _fpos(node),
                     len(f))
    t, syms = tensor_arg(lw, node.args[0], bound, f)
    rank = len(syms)
    if f == "transpose":
        if rank < 2:
            raise lw.err(f"transpose expects a matrix, got {rank} indices", node.args[0], 1)
        perm = list(syms[:-2]) + [syms[-1], syms[-2]]
        return ir.access(lw.lift(ir.access(t.name, syms), perm, node.pos).name, perm)
    if rank < 2:
        raise lw.err(f"{f} expects a matrix (batch indices, then 2 matrix indices), got {rank} "
                     f"ind{'ex' if rank == 1 else 'ices'}", node.args[0], 1)
    # NumPy's convention: the matrix axes are the last two, leading axes are batch axes
    batch, (row, col) = list(syms[:-2]), syms[-2:]
    lw.uf.union(row.ext, col.ext, node.pos, lw.name, f"{f} needs a square matrix: ")
    if f == "trace":
        return IndexSum(ir.access(t.name, syms).xreplace({col: row}), [row])
    p = ir.MATRIX_PRIMITIVES[f]
    if p.domain:
        mark_domain(lw, ir.access(t.name, syms), p.domain)
    names = [t.name]
    rhs_syms = None
    for k, kind in enumerate(p.arg_kinds[1:], 1):
        bt, rhs_syms = _right_side(lw, node, k, batch, col, bound)
        names.append(bt.name)
    out_syms = {"square": list(syms), "scalar": batch, "vector": batch + [row],
                "rhs": batch + [row] + list(rhs_syms[len(batch) + 1:]) if rhs_syms else None}[p.result]
    return _primitive_stmt(lw, node, t, names, out_syms)


def _right_side(lw, node, k, batch, col, bound):
    """Argument k of a solve: batch axes, then the matrix's rows, then columns (optional)."""
    f = node.func
    node_k = node.args[k]
    if isinstance(node_k, A.Name):
        bt = lw.lookup(node_k.name, node_k, None)
        if bt.rank is None:
            bt.rank = 1 + len(batch)
        bsyms = [lw.fresh_letter(bt.axis(q)) for q in range(bt.rank)]
    else:
        bt, bsyms = tensor_arg(lw, node_k, bound, f)
    if len(bsyms) != 1 + len(batch) and len(bsyms) != 2 + len(batch):
        raise lw.err(f"{f}'s right-hand side must have {1 + len(batch)} or {2 + len(batch)} indices "
                     f"({'batch, ' if batch else ''}rows, columns), got {len(bsyms)}", node_k, 1)
    lw.uf.union(bsyms[len(batch)].ext, col.ext, node.pos, lw.name, f"{f}: ")
    for s, b in zip(batch, bsyms):
        lw.uf.union(s.ext, b.ext, node.pos, lw.name, f"{f} batch: ")
    return bt, bsyms


def _primitive_stmt(lw, node, t, names, out_syms):
    """The statement computing primitive node.func of the tensors names into a new temp; an access to it."""
    f = node.func
    r = lw.new_temp(len(out_syms), node.pos)
    readable = f"_{f}_{t.name}"
    if len(names) == 1 and t.role != "temp" and readable not in lw.tensors:
        lw.rename(r, readable)          # a readable name for displays: X⁻¹, chol(X)
    for k, s in enumerate(out_syms):
        lw.uf.union(s.ext, r.axis(k))
    r.assigned = r.read = True
    lw.stmts.append(Stmt(r.name, tuple(out_syms), prim=f, args=tuple(names), line=node.pos.line))
    return ir.access(r.name, out_syms)


for _name, _rule in (("sum", lower_sum), ("delta", lower_delta), ("size", lower_size), ("max", lower_pair),
                     ("min", lower_pair)):
    register(_name, _rule)
for _name in ir.ELEMENTWISE:
    register(_name, lower_elementwise)
for _name in ir.MATRIX_FUNCTIONS:
    register(_name, lower_matrix)
