"""Extent classes: which axes must have equal sizes (a union-find over tensor axes, header letters and statement
indices, each class with the size the header declares for it), and, once every statement is lowered, the classes'
names, the letters of each tensor's axes and the check that some input carries every extent.
"""
from __future__ import annotations

import sympy as sp

from derive.ir.nodes import Idx, TensorVar
from derive.language.errors import RuleError

_LETTERS = list("ijklmnpqrstuvwxyz") + [f"i{q}" for q in range(2, 99)]


class ExtentClasses:
    """A union-find over extent nodes (("ax", tensor, k), ("hdr", letter), a statement index's provisional node);
    a class named by name() keeps its name, so nothing may join classes after the first is named."""

    def __init__(self):
        self.parent: dict = {}
        self.size: dict = {}          # root -> (integer extent, where it was declared)
        self.roots: dict = {}         # class name -> its root, for the classes named so far
        self.named: dict = {}         # root -> class name

    def find(self, x):
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a, b, pos=None, rule=None, what=""):
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return
        sa, sb = self.size.get(ra), self.size.get(rb)
        if sa and sb and sa[0] != sb[0]:
            raise RuleError(f"{what}extent {sb[0]} ({sb[1]}) conflicts with extent {sa[0]} ({sa[1]})",
                            pos, rule=rule)
        self.parent[rb] = ra
        if sb and not sa:
            self.size[ra] = sb

    def size_of(self, node):
        """(extent, where it was declared) of node's class, or None where no header gives it one."""
        return self.size.get(self.find(node))

    def fix_size(self, node, extent, where):
        self.size[self.find(node)] = (extent, where)

    def name(self, node) -> str:
        """The name of node's class: after a header letter in it where there is one (the first in sorted order),
        else n; a number follows where that name is taken (n2, n3)."""
        root = self.find(node)
        if root not in self.named:
            members = [k for k in self.parent if self.find(k) == root]
            hdr = sorted(k[1] for k in members if k[0] == "hdr")
            base = hdr[0] if hdr else "n"
            nm = base
            c = 1
            while nm in self.roots:
                c += 1
                nm = f"{base}{c}"
            self.named[root] = nm
            self.roots[nm] = root
        return self.named[root]

    def declared_size(self, name):
        """The extent the header declares for the class called name, or None."""
        size = self.size.get(self.roots[name])
        return size[0] if size else None


def name_indices(stmts, classes: ExtentClasses) -> None:
    """Every statement's index symbols remade over their classes' names (lowering gave each a provisional node)."""
    sub: dict = {}
    for st in stmts:
        syms = set(st.indices)
        if st.expr is not None:
            syms |= {s for s in st.expr.atoms(Idx)}
        for s in syms:
            if s not in sub:
                sub[s] = Idx(s.name, classes.name(s.ext))
    for st in stmts:
        st.indices = tuple(sub[s] for s in st.indices)
        if st.expr is not None:
            st.expr = st.expr.xreplace(sub)


class AxisLetters:
    """The index letters of the Program's tensors: a letter stands for one class throughout, so a tensor keeps the
    rule's own letters where they fit and otherwise takes one the rule gives that class elsewhere, else a fresh one."""

    def __init__(self, classes: ExtentClasses):
        self.classes = classes
        self.letter_cls: dict = {}

    def var(self, t) -> TensorVar:
        classes = tuple(self.classes.name(t.axis(k)) for k in range(t.rank or 0))
        letters = list(t.letters or getattr(t, "first", None) or ())
        if len(letters) != len(classes):
            letters = [None] * len(classes)
        for k, c in enumerate(classes):
            l = letters[k]
            if l is None or self.letter_cls.get(l, c) != c or l in letters[:k]:
                # a letter the rule gives this class first (a temporary's batch axis is b, as A[b,i,j]'s)
                own = [x for x, cc in self.letter_cls.items() if cc == c]
                l = next(x for x in own + _LETTERS if self.letter_cls.get(x, c) == c and x not in letters[:k])
            letters[k] = l
            self.letter_cls[l] = c
        return TensorVar(t.name, t.kind, classes, t.role, tuple(letters))


def check_known(stmts, known, rule, written_at=lambda cls: None) -> None:
    """Refuse an index whose extent no input carries (nor a shifted subscript derives from the inputs'), at the
    place written_at(its class) where the text binds it, else at the rule's name."""
    for st in stmts:
        syms = list(st.indices) + (sorted(st.expr.atoms(Idx), key=str) if st.expr is not None else [])
        for s in syms:
            if s.ext not in known:
                rel = [r for r in (st.expr.atoms(sp.Rel) if st.expr is not None else ()) if s in r.free_symbols]
                hint = f" (the comparison {rel[0]} does not set its range)" if rel else ""
                node = written_at(s.ext)
                x = next((p.name for p in rule.inputs if p.indices), "x")
                raise RuleError(f"the extent of index '{s.name}' cannot be known: no input tensor is indexed by "
                                f"it{hint}; index an input with '{s.name}' (as in {x}[{s.name}]) so that its "
                                f"extent is read from that input's shape",
                                node.pos if node is not None else rule.pos, rule=rule.name,
                                width=len(s.name) if node is not None else len(rule.name))


def equal_letters(variables) -> list:
    """The groups of distinct letters the variables give one class: their sizes must be equal."""
    by_cls: dict = {}
    for v in variables:
        for l, c in zip(v.indices, v.classes):
            by_cls.setdefault(c, set()).add(l)
    return [sorted(ls) for ls in by_cls.values() if len(ls) > 1]
