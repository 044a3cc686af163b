"""NumPy's gufunc convention for every derived op: a batched twin of each rule, derived by the same pipeline.

The twin of a rule prepends one fresh batch index to every tensor of the rule (inputs, outputs, intermediates;
a differentiable scalar parameter becomes a vector over it), so `softmax(x[i]) -> y[i]` gets the twin
`__batched_softmax(x[_batch,i]) -> y[_batch,i]`. Lowering, derivation, code generation and verification then run
on the twin as on any rule: what runtime.batching calls for arguments with leading axes is code the verifier
checked. Matrix functions act on the last two indices of their argument, so a prepended index is a batch index of
theirs as well. The twin's batch index is an IR name (one leading '_'), which no user name can equal.
"""
from __future__ import annotations

import dataclasses

from derive.ir.names import BATCH_INDEX, apart_from_internal
from derive.language import ast as A
from derive.language.errors import DeriveError, RuleError
from derive.lowering.lower import Lowerer

PREFIX = "__batched_"       # the twin's rule name (user rule names never start with '__')


def twin_name(rule_name: str) -> str:
    return PREFIX + rule_name


def twin_rule(mapped: A.RuleDef, prog) -> A.RuleDef:
    """The batched twin of a rule (its AST after names.apart_from_internal, and its lowered Program)."""
    scalars = {v.name for v in prog.inputs if v.kind == "scalar"}
    tensors = {v.name for v in prog.all_vars if v.kind == "tensor"}

    def batch_ix(pos):
        return A.Index(BATCH_INDEX, pos)

    def batched(node) -> bool:
        """Whether an expression depends on something batched (a tensor or a scalar parameter)."""
        if isinstance(node, A.Access):
            return True
        if isinstance(node, A.Name):
            return node.name in scalars or node.name in tensors
        return any(batched(c) for c in A.children(node))

    def walk(node):
        if isinstance(node, A.Access):
            return dataclasses.replace(node, indices=(batch_ix(node.pos),) + tuple(walk(i) for i in node.indices))
        if isinstance(node, A.Subscript):
            base = walk(node.base)
            lead = (batch_ix(node.pos),) if batched(node.base) else ()
            return dataclasses.replace(node, base=base, indices=lead + node.indices)
        if isinstance(node, A.Name) and node.name in scalars:
            return A.Access(node.name, (batch_ix(node.pos),), node.pos)
        return _rebuild(node, walk)

    def param(p: A.Param, role) -> A.Param:
        if p.kind == "int":
            return p
        if p.kind == "scalar":
            return dataclasses.replace(p, kind="tensor", indices=(batch_ix(p.pos),))
        if p.indices is None:           # a bare output: its shape follows from its statement
            return p
        return dataclasses.replace(p, indices=(batch_ix(p.pos),) + p.indices)

    if mapped.header:
        inputs = tuple(param(p, "input") for p in mapped.inputs)
        outputs = tuple(param(p, "output") for p in mapped.outputs)
    else:                               # a bare statement list: the header its lowering inferred
        inputs = tuple(_inferred(v, mapped.pos) for v in prog.inputs)
        outputs = tuple(_inferred(v, mapped.pos) for v in prog.outputs)
    return dataclasses.replace(mapped, name=twin_name(mapped.name), inputs=inputs, outputs=outputs,
                               statements=tuple(walk(s) for s in mapped.statements), header=True)


def _inferred(v, pos) -> A.Param:
    if v.kind == "int":
        return A.Param(v.name, None, "int", pos)
    rank = len(v.classes) if v.kind == "tensor" else 0
    idx = (A.Index(BATCH_INDEX, pos),) + tuple(A.Index(f"_{v.name}_{k}", pos) for k in range(rank))
    return A.Param(v.name, idx, "tensor", pos)


def _rebuild(node, fn):
    if not dataclasses.is_dataclass(node) or isinstance(node, A.Pos):
        return node
    changes = {}
    for f in dataclasses.fields(node):
        v = getattr(node, f.name)
        if isinstance(v, A.Node):
            changes[f.name] = fn(v)
        elif isinstance(v, tuple) and any(isinstance(x, A.Node) for x in v):
            changes[f.name] = tuple(fn(x) if isinstance(x, A.Node) else x for x in v)
    return dataclasses.replace(node, **changes) if changes else node


def lower_twin(rule: A.RuleDef, prog):
    """(twin RuleDef, its lowered Program), or None with the reason when the op needs none (an elementwise op
    takes any shape already) or the twin cannot be lowered (the op then refuses leading axes, saying why)."""
    if prog.elementwise:
        return None, "elementwise"
    try:
        twin = twin_rule(apart_from_internal(rule), prog)
        return (twin, Lowerer(twin).lower()), None
    except (DeriveError, RuleError) as exc:
        return None, str(exc)
