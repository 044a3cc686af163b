"""A derived rule as plain data: its signature, the shown pushforward and pullbacks, what its pullback keeps, its
verification figures and its record -- what derive-rules prints, caches and reports."""
from __future__ import annotations

from derive.calculus.logsumexp import inline_log_sum_exp
from derive.display import forms as display
from derive.display.notation import shared_forms
from derive.display.record import holds_for
from derive.ir import nodes as ir
from derive.ir.names import user_name


def pullback_needs(result) -> dict:
    """What the pullback keeps from the forward pass: inputs, outputs and intermediates it reads (auxiliary values
    such as det's A⁻¹ are recomputed inside the pullback, from what is kept), as the emitted code reads them: a
    log-sum-exp read in a sum is recomputed there from what it is computed from (calculus.logsumexp)."""
    p = result.program
    roles = {v.name: v.role for v in p.all_vars}
    d = inline_log_sum_exp(result.derivation)
    aux = {st.target: st.args for st in d.aux}
    names = set()
    for ls in d.pullback:
        for t in ls.terms:
            for a in ir.accesses(t.coeff):
                n = ir.acc_name(a)
                names |= set(aux[n]) if n in aux else ({n} if ":" not in n else set())
    order = [v.name for v in p.inputs + p.outputs + p.temps]
    out = {"inputs": [], "outputs": [], "intermediates": []}
    for n in order:
        if n in names:
            key = {"input": "inputs", "output": "outputs"}.get(roles.get(n), "intermediates")
            out[key].append(user_name(n))
    return out


def rule_json(result) -> dict:
    """The rule's outcome (a derive.pipeline.RuleResult) as JSON-able data."""
    p = result.program
    with shared_forms(result.derivation):      # the JSON's forms and the record's: each statement's made once
        pushforward = display.program_json(result.derivation, "pushforward")
        pullback = display.program_json(result.derivation, "pullback")
        record = result.record()    # what the generated op carries (op.rule); the report reads it
    out = {
        "name": result.name,
        "signature": p.signature,
        "doc": result.doc,
        "source": result.source,
        "inputs": [{"name": user_name(v.name), "kind": v.kind, "indices": [user_name(i) for i in v.indices],
                    **({} if v.kind == "int" else {"domain": p.domains.get(v.name, "real"),
                                                   "domain_declared": bool(v.domain)})}
                   for v in p.inputs],
        "outputs": [{"name": user_name(v.name), "indices": [user_name(i) for i in v.indices]} for v in p.outputs],
        "pushforward": pushforward,
        "pullback": pullback,
        "pullback_needs": pullback_needs(result),
        "holds_for": record["holds_for"],
        "holds_for_latex": holds_for(p, "latex"),
        "verified": result.ok,
        "seconds": round(result.seconds, 4),
    }
    if result.check is not None:
        c = result.check
        out["verification"] = {"fd_error": c.fd_error, "adjoint_error": c.adjoint_error,
                               "chunk_error": c.chunk_error, "reference_error": c.reference_error,
                               "reference_points": c.reference_points, "points": c.points, "skipped": c.skipped,
                               "extents": [dict(e) for e in c.extents], "skipped_because": list(c.notes),
                               "problems": list(c.problems), "warnings": list(c.warnings)}
    if result.error:
        out["error"] = result.error
    out["record"] = record
    return out
