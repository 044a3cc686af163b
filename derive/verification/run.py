"""Verifying a file's derived ops: the module emitted for them, run against finite differences and the adjoint
identity (derive.verification.verify), the reference evaluator, and each batched twin against its op applied
batch element by batch element (derive.verification.twin)."""
from __future__ import annotations

import time

from derive.emission import module
from derive.verification import verify
from derive.verification.twin import check_twin


def verify_results(results, path="<string>"):
    """Set each result's `.check` (and `.error` where its code fails), its twin's too; `.seconds` grows by the
    time its checks took."""
    t0 = time.perf_counter()
    src = module.render(results, path, export=False)
    ns: dict = {}
    try:
        exec(compile(src, f"<generated from {path}>", "exec"), ns)
        fns = verify.load(ns)
    except Exception as exc:
        for r in results:
            r.error = f"generated code does not load: {type(exc).__name__}: {exc}"
        return
    share = (time.perf_counter() - t0) / max(1, len(results))
    for r in results:
        t1 = time.perf_counter()
        for x in (r, r.twin) if r.twin is not None else (r,):
            try:
                x.check = verify.check_op(x.name, fns, x.code.meta)
                if x is r:
                    verify.check_reference(x.check, x.name, fns, x.code.meta, x.rule)
                else:
                    check_twin(x.check, r.name, x.name, fns, r.code.meta, x.code.meta)
            except Exception as exc:
                x.error = f"generated code fails at a random point: {type(exc).__name__}: {exc}"
        if r.twin is not None and not r.twin.ok and r.error is None:
            r.error = f"its batched twin (leading axes) fails verification: {r.twin.error or r.twin.check.problems}"
        r.seconds += time.perf_counter() - t1 + share
