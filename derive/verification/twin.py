"""The batched twin's check: its forward values against the op's own forward function applied to each batch element
(derive.lowering.batching derives the twin; runtime.batching runs it for arguments with leading axes).
"""
from __future__ import annotations

import numpy as np

from derive.verification import verify

TWIN_TOL = 1e-10     # the twin against the op element by element: one computation, summed in another order


def check_twin(chk, base, twin, fns, base_meta, twin_meta, seeds=(0, 1)):
    """The twin's forward values against the op's own forward function applied to each batch element (the op
    itself is held to the rule's text by verify.check_reference; the twin's derivatives to its forward values by
    verify.check_op, which ran into chk): a problem in chk where they differ."""
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
        err = verify.worst_rel(tuple(np.asarray(g, dtype=float) for g in got) if multi else
                                np.asarray(got, dtype=float), want)
        if not err <= TWIN_TOL:
            chk.problem(f"the batched code differs from the op applied to each batch element (rel. error "
                        f"{err:.2e})")
    return chk
