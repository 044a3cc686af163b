"""Pytrees: nested tuples, lists, dicts, namedtuples and dataclasses of arrays, flattened to leaves and back.

Gradients come back in the structure of the inputs, so a dataclass of parameters gets a dataclass of
gradients.
"""
from __future__ import annotations

import collections
import dataclasses


class TreeDef:
    """The shape of a pytree: a node kind, its metadata and its children's TreeDefs (None for a leaf)."""

    __slots__ = ("kind", "meta", "children", "num_leaves")

    def __init__(self, kind, meta, children):
        self.kind = kind
        self.meta = meta
        self.children = children
        self.num_leaves = 1 if kind == "leaf" else sum(c.num_leaves for c in children)

    def __eq__(self, other):
        return (isinstance(other, TreeDef) and self.kind == other.kind and self.meta == other.meta
                and self.children == other.children)

    def __repr__(self):
        if self.kind == "leaf":
            return "*"
        return f"{self.kind}({self.meta!r}, {self.children!r})"


_LEAF = TreeDef("leaf", None, ())


def _is_namedtuple(x):
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


def flatten(tree):
    """(leaves, treedef); None and empty containers have no leaves."""
    leaves = []
    treedef = _flatten(tree, leaves)
    return leaves, treedef


def _flatten(x, leaves):
    if x is None:
        return TreeDef("none", None, ())
    if type(x) is tuple or type(x) is list:
        return TreeDef(type(x).__name__, len(x), tuple(_flatten(v, leaves) for v in x))
    if _is_namedtuple(x):
        return TreeDef("namedtuple", type(x), tuple(_flatten(v, leaves) for v in x))
    if isinstance(x, dict):
        keys = tuple(x.keys())
        meta = (type(x), keys, x.default_factory) if isinstance(x, collections.defaultdict) else (type(x), keys)
        return TreeDef("dict", meta, tuple(_flatten(x[k], leaves) for k in keys))
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        names = tuple(f.name for f in dataclasses.fields(x))
        return TreeDef("dataclass", (type(x), names), tuple(_flatten(getattr(x, n), leaves) for n in names))
    leaves.append(x)
    return _LEAF


def unflatten(treedef, leaves):
    it = iter(leaves)
    out = _unflatten(treedef, it)
    rest = list(it)
    if rest:
        raise ValueError(f"unflatten: {len(rest)} leaves left over for {treedef!r}")
    return out


def _unflatten(td, it):
    kind = td.kind
    if kind == "leaf":
        return next(it)
    if kind == "none":
        return None
    children = [_unflatten(c, it) for c in td.children]
    if kind == "tuple":
        return tuple(children)
    if kind == "list":
        return children
    if kind == "namedtuple":
        return td.meta(*children)
    if kind == "dict":
        cls, keys = td.meta[:2]
        d = dict(zip(keys, children))
        if cls is dict:
            return d
        if issubclass(cls, collections.defaultdict):
            return cls(td.meta[2] if len(td.meta) > 2 else None, d)
        return cls(d)
    if kind == "dataclass":
        cls, names = td.meta
        obj = object.__new__(cls)  # bypass __init__ (fields with init=False, __post_init__ checks)
        for n, v in zip(names, children):
            object.__setattr__(obj, n, v)  # works for frozen dataclasses too
        return obj
    raise ValueError(f"unknown pytree node kind {kind!r}")


def tree_map(fn, tree, *rest):
    leaves, td = flatten(tree)
    others = [flatten(r)[0] for r in rest]
    return unflatten(td, [fn(x, *ys) for x, *ys in zip(leaves, *others)])
