"""Syntax tree of the rule language: small frozen dataclasses, each carrying its source position.

The parser builds these; `derive.lowering.lower` turns them into the IR and does every semantic check.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields


@dataclass(frozen=True)
class Pos:
    """A place in a rule file: 1-based line and column, and the text of that line (for the caret)."""

    file: str
    line: int
    col: int
    text: str = field(default="", compare=False, repr=False)


class Node:
    pos: Pos


def children(node: Node):
    """The nodes directly below node: its Node fields, and the Nodes in its tuple fields (in field order)."""
    for f in fields(node):
        v = getattr(node, f.name)
        if isinstance(v, Node):
            yield v
        elif isinstance(v, tuple):
            yield from (x for x in v if isinstance(x, Node))


def walk(node: Node):
    """node and every node below it (depth first)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(children(n))


@dataclass(frozen=True)
class Num(Node):
    """A numeric literal, kept as written ('2', '0.5', '1e-3') so SymPy can make it exact."""

    value: str
    pos: Pos


@dataclass(frozen=True)
class Name(Node):
    """A bare name: a scalar parameter, an index-free tensor (`A` in `inv(A)`), or an index in `delta(i,j)`."""

    name: str
    pos: Pos


@dataclass(frozen=True)
class Index(Node):
    """One index in a subscript, e.g. `k` in `A[i,k]`; `extent` is an optional integer (`x[i:3]`, headers only)."""

    name: str
    pos: Pos
    extent: int | None = None


@dataclass(frozen=True)
class Affine(Node):
    """An affine subscript with integer coefficients, e.g. `2*i+k-1` in `x[2*i+k-1]` (right sides only).

    `terms` are (coefficient, Index) pairs, each index once; `const` the offset; `name` the text as written,
    so a message that quotes a subscript quotes this one."""

    terms: tuple
    const: int
    pos: Pos
    name: str = ""
    extent: None = None

    @property
    def letters(self) -> tuple:
        return tuple(ix.name for _, ix in self.terms)


@dataclass(frozen=True)
class Access(Node):
    """A subscripted tensor `A[i,k]`."""

    name: str
    indices: tuple[Index, ...]
    pos: Pos


@dataclass(frozen=True)
class Subscript(Node):
    """A subscripted expression, e.g. `inv(A)[i,k]`."""

    base: Node
    indices: tuple[Index, ...]
    pos: Pos


@dataclass(frozen=True)
class Call(Node):
    """A function call `f(a, b)`; `sum(k, e)` / `sum(k, l, e)` are Call('sum', (Name k, [Name l,] e))."""

    func: str
    args: tuple[Node, ...]
    pos: Pos
    func_pos: Pos | None = None


@dataclass(frozen=True)
class BinOp(Node):
    """`left op right` for op in + - * / **, and comparisons < <= > >= == != (used inside where())."""

    op: str
    left: Node
    right: Node
    pos: Pos


@dataclass(frozen=True)
class Neg(Node):
    """Unary minus (unary plus is dropped by the parser)."""

    operand: Node
    pos: Pos


@dataclass(frozen=True)
class Statement(Node):
    """`target = expr`; target is an Access (`C[i,j]`) or a Name (`B` in `B = inv(A)`)."""

    target: Access | Name
    expr: Node
    pos: Pos


@dataclass(frozen=True)
class Domain(Node):
    """A declared input domain after ':' in a header: a name (`positive`, `spd`, ...) or an open interval
    `(lo, hi)`; `text` is its canonical spelling (derive.language.domains), `width` how many columns it spans."""

    text: str
    pos: Pos
    width: int = 1


@dataclass(frozen=True)
class Param(Node):
    """A formal input or output in a rule header.

    kind: 'tensor' (indices given, possibly empty: `s[]` is a scalar tensor), 'scalar' (a bare name:
    a differentiable scalar parameter), or 'int' (`n: int`: a non-differentiable integer argument).
    domain: the input's declared domain (`x[i]: positive`, `t: (0, 1)`), None where none is declared.
    """

    name: str
    indices: tuple[Index, ...] | None
    kind: str
    pos: Pos
    domain: Domain | None = None


@dataclass(frozen=True)
class RuleDef(Node):
    """One named rule. `header` is False for a bare statement list (`-e "B = inv(A)"`), whose
    inputs and outputs are inferred later; then name is the given default and inputs/outputs are empty."""

    name: str
    inputs: tuple[Param, ...]
    outputs: tuple[Param, ...]
    statements: tuple[Statement, ...]
    pos: Pos
    header: bool = True
    doc: str = ""


@dataclass(frozen=True)
class RuleFile(Node):
    path: str
    rules: tuple[RuleDef, ...]
    doc: str
    pos: Pos
