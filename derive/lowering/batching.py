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

from derive.language import ast as A
from derive.language.errors import DeriveError, RuleError

INDEX = "_batch"            # the twin's batch index (an IR name: user names never have exactly one leading '_')
PREFIX = "__batched_"       # the twin's rule name (user rule names never start with '__')


def twin_name(rule_name: str) -> str:
    return PREFIX + rule_name


def leading_first(names: list) -> list:
    """The axes of an expression in a twin: its batch index first, as in every tensor of the twin (a matrix
    function's argument `delta(i,j) - A[_batch,i,j]` is indexed [_batch,i,j], so its matrix axes stay i and j)."""
    if INDEX in names:
        return [INDEX] + [n for n in names if n != INDEX]
    return names


def twin_rule(mapped: A.RuleDef, prog) -> A.RuleDef:
    """The batched twin of a rule (its AST after lower._apart_from_internal, and its lowered Program)."""
    scalars = {v.name for v in prog.inputs if v.kind == "scalar"}
    tensors = {v.name for v in prog.all_vars if v.kind == "tensor"}

    def batch_ix(pos):
        return A.Index(INDEX, pos)

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
    idx = (A.Index(INDEX, pos),) + tuple(A.Index(f"_{v.name}_{k}", pos) for k in range(rank))
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


def derive_twin(rule: A.RuleDef, prog, derive_program):
    """(twin RuleDef, its lowered Program, whatever derive_program(program) returns), or None with the reason
    when the twin cannot be derived (the op then refuses leading axes, saying why)."""
    from derive.lowering.lower import Lowerer, _apart_from_internal

    try:
        twin = twin_rule(_apart_from_internal(rule), prog)
        tprog = Lowerer(twin).lower()
        return (twin, tprog, derive_program(tprog)), None
    except (DeriveError, RuleError) as exc:
        return None, str(exc)


TWIN_TOL = 1e-10     # the twin against the op element by element: one computation, summed in another order


def check_twin(chk, base, twin, fns, base_meta, twin_meta, seeds=(0, 1)):
    """The twin's forward values against the op's own forward function applied to each batch element (the op
    itself is held to the rule's text by verify.check_reference; the twin's derivatives to its forward values by
    verify.check_op, which ran into chk): a problem in chk where they differ."""
    import numpy as np

    from derive.verification import verify

    watch = getattr(fns, "watch", None)
    batched = [p.get("kind") != "int" for p in twin_meta["inputs"]]
    for seed in seeds:
        x = verify.sample_inputs(twin_meta, np.random.default_rng(seed), chk.extents[0] if chk.extents else None)
        nb = next(np.shape(v)[0] for v, b in zip(x, batched) if b)
        if watch is not None:
            watch.worst_cond = 0.0
        with np.errstate(all="ignore"):
            got = fns[twin](*x)
            each = [fns[base](*[v[k] if b else v for v, b in zip(x, batched)]) for k in range(nb)]
        if watch is not None and watch.worst_cond > verify.COND_LIMIT:
            continue            # ill posed here: neither the op nor the twin is meant to be accurate
        multi = len(base_meta["outputs"]) > 1
        want = tuple(np.stack([np.asarray(e[o] if multi else e, dtype=float) for e in each])
                     for o in range(len(base_meta["outputs"])))
        err = verify._worst_rel(tuple(np.asarray(g, dtype=float) for g in got) if multi else
                                np.asarray(got, dtype=float), want)
        if not err <= TWIN_TOL:
            chk.problem(f"the batched code differs from the op applied to each batch element (rel. error "
                        f"{err:.2e})")
    return chk
