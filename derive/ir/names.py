"""User names and the IR's own: the mapping that keeps them apart, and the names the IR reserves for itself.

The IR names what it creates itself with exactly one leading '_' (_t0, _inv_A, _z3; indices _s0, _P0, _b0_0; a
batched twin's index _batch). A user name that starts with '_' gets one more on its way in, so it can never equal
one of them; a user name cannot start with '__'. `user_text` undoes the mapping wherever a name is shown to the user.
"""
from __future__ import annotations

import dataclasses
import re

from derive.language import ast as A
from derive.language.errors import RuleError

BATCH_INDEX = "_batch"      # a batched twin's batch index (derive.lowering.batching): no user name maps to it

_USER_UNDERSCORE = re.compile(r"(?<![A-Za-z0-9_])__(?=[A-Za-z0-9_])")


def ir_name(name: str) -> str:
    return "_" + name if name.startswith("_") else name


def user_name(name: str) -> str:
    return name[1:] if name.startswith("__") else name


def user_text(text: str) -> str:
    return _USER_UNDERSCORE.sub("_", text)


def apart_from_internal(node):
    """The syntax tree with every user name mapped by ir_name; a name starting with '__' is refused."""
    if isinstance(node, (A.Name, A.Index, A.Access, A.Param)) and node.name.startswith("__"):
        raise RuleError(f"'{node.name}' is not a valid name: names starting with '__' are reserved", node.pos,
                        width=len(node.name))
    if isinstance(node, A.RuleDef) and node.name.startswith("__"):
        raise RuleError(f"'{node.name}' is not a valid rule name: names starting with '__' are reserved",
                        node.pos, width=len(node.name))
    if isinstance(node, A.Affine):
        return dataclasses.replace(node, terms=tuple((c, apart_from_internal(ix)) for c, ix in node.terms))
    changes = {}
    for f in dataclasses.fields(node):
        v = getattr(node, f.name)
        if isinstance(v, A.Node):
            changes[f.name] = apart_from_internal(v)
        elif isinstance(v, tuple) and v and isinstance(v[0], A.Node):
            changes[f.name] = tuple(apart_from_internal(x) for x in v)
    if isinstance(node, (A.Name, A.Index, A.Access, A.Param)):
        changes["name"] = ir_name(node.name)
    return dataclasses.replace(node, **changes) if changes else node


def leading_first(names: list) -> list:
    """The axes of an expression in a twin: its batch index first, as in every tensor of the twin (a matrix
    function's argument `delta(i,j) - A[_batch,i,j]` is indexed [_batch,i,j], so its matrix axes stay i and j)."""
    if BATCH_INDEX in names:
        return [BATCH_INDEX] + [n for n in names if n != BATCH_INDEX]
    return names
