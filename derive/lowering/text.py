"""What the rule's text says beyond its tree: the order in which it names indices, where an index is written, and
which names it uses as indices. Lowering and its feature modules read the syntax tree through these.
"""
from __future__ import annotations

from derive.ir import nodes as ir
from derive.ir.names import leading_first
from derive.language import ast as A


def text_order(syms, node, by_access=False) -> list:
    """The free indices of an expression in the order the text first names them: the axes of a subscripted
    expression, of a matrix function's argument and of a bare-named target (`T = y[i]*x[j]` is T[i,j]).
    Indices the text does not name (a bare `inv(A)`'s axes) keep their order, after the named ones.
    by_access (a matrix function's argument): the order of the first tensor read that carries every free
    index, where there is one, so `inv(delta(i,j) - A[b,i,j])` has A's axes [b,i,j] (batch first, matrix
    last), not the order in which delta happens to name i and j first."""
    names: list = []
    full: list = []                 # the plain-index reads, each as its list of index names

    def walk(n):
        if isinstance(n, (A.Access, A.Subscript)):    # a subscripted base's letters are its own
            if isinstance(n, A.Access) and not any(isinstance(ix, A.Affine) for ix in n.indices):
                full.append([ix.name for ix in n.indices])
            for ix in n.indices:
                names.extend(ix.letters if isinstance(ix, A.Affine) else [ix.name])
        elif isinstance(n, A.Call):
            if n.func in ("delta", "size"):
                names.extend(a.name for a in n.args if isinstance(a, A.Name))
            else:
                for a in n.args:
                    walk(a)
        elif isinstance(n, A.BinOp):
            walk(n.left)
            walk(n.right)
        elif isinstance(n, A.Neg):
            walk(n.operand)

    walk(node)
    if by_access:
        want = {s.name for s in syms}
        order = next((f for f in full if len(f) == len(want) and set(f) == want), None)
        if order is not None:
            names = order
    first = {name: k for k, name in reversed(list(enumerate(leading_first(names))))}
    return sorted(syms, key=lambda s: first.get(s.name, len(names)))


def index_names(node) -> set:
    """Every name the text of node uses as an index: subscripts, and the index arguments of sum, delta, size."""
    out: set = set()
    for n in A.walk(node):
        if isinstance(n, A.Index):
            out.add(n.name)
        elif isinstance(n, A.Call) and n.func in ("sum", "delta", "size"):
            args = n.args[:-1] if n.func == "sum" else n.args
            out.update(a.name for a in args if isinstance(a, A.Name))
    return out


def names_inf(node) -> bool:
    """The text of node writes `inf` (so an infinite constant in it is meant, not a division by zero)."""
    return any(isinstance(n, A.Name) and n.name == "inf" for n in A.walk(node))


def index_node(node, name):
    """The first subscript index `name` in the text of node that no sum() or matrix function binds (where a
    loose index is), else the first one anywhere; None if the text never names it."""
    found: list = []

    def walk(n, inside):
        if isinstance(n, (A.Access, A.Subscript)):
            for ix in n.indices:
                for one in ([t for _, t in ix.terms] if isinstance(ix, A.Affine) else [ix]):
                    if one.name == name:
                        found.append((inside, one))
            if isinstance(n, A.Subscript):
                walk(n.base, inside)
        elif isinstance(n, A.Call):
            binds = (n.func == "sum" and any(isinstance(a, A.Name) and a.name == name for a in n.args[:-1]))
            for a in n.args:
                walk(a, inside or binds or n.func in ir.MATRIX_FUNCTIONS)
        elif isinstance(n, A.BinOp):
            walk(n.left, inside)
            walk(n.right, inside)
        elif isinstance(n, A.Neg):
            walk(n.operand, inside)

    walk(node, False)
    free = [ix for inside, ix in found if not inside]
    return (free or [ix for _, ix in found] or [None])[0]


def start(n) -> A.Pos:
    """Where the text of node n begins (a BinOp's own position is its operator)."""
    while isinstance(n, (A.BinOp, A.Subscript)):
        n = n.left if isinstance(n, A.BinOp) else n.base
    return n.pos


def call_node(node):
    """The first matrix function in the text of node that takes a whole tensor (`inv(A)`: its axes have no
    letters), or None."""
    calls = [n for n in A.walk(node) if isinstance(n, A.Call) and n.func in ir.MATRIX_FUNCTIONS
             and any(isinstance(a, A.Name) for a in n.args)]
    return min(calls, key=lambda n: (n.pos.line, n.pos.col), default=None)


def whole_tensor_call(node) -> str:
    """The text of call_node(node) (`eigvalsh(S)`), or "" where there is none."""
    n = call_node(node)
    if n is None:
        return ""
    return f"{n.func}({', '.join(a.name if isinstance(a, A.Name) else '...' for a in n.args)})"
