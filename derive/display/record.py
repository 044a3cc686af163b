"""What each op carries about itself (`op.rule`, `help(op)`): the rule's text and place, its pushforward and
pullbacks as displayed, domains and extents, what the pullback keeps, and the verification figures.

The record is plain data (str, int, float, bool, lists, dicts), built once here at generation time and written
into the generated module as a Python literal (`RULES = {...}`, through repr: no user text reaches the module
unescaped), so the runtime reads it without SymPy. Everything in it is deterministic: the verification figures
are the bounds of verify.Check.figures, not the raw errors, which vary from machine to machine.
"""
from __future__ import annotations

import pprint

from derive.display import forms as display
from derive.display import matrixform
from derive.display.check import formula_domains
from derive.display.notation import definition_lines, function_lines, latex_name, naming, pretty_name, stmt_index
from derive.language import domains
from derive.ir.names import user_name


def _location(source: str):
    """('rules/linalg.rules', 19) from 'rules/linalg.rules:19'; (source, None) when it carries no line."""
    path, _, line = source.rpartition(":")
    return (path, int(line)) if path and line.isdigit() else (source, None)


_HOLDS = {  # domain -> how the sentence names an input in it ({n}: its name); LaTeX: derive.language.domains'
    "wellcond": "every invertible square {n}", "spd": "every symmetric positive definite {n} (its tangents symmetric)",
    "symmetric": "every symmetric {n} (its tangents symmetric)", "positive": "{n} > 0", "negative": "{n} < 0",
    "nonzero": "{n} ≠ 0",
}


def holds_for(p, style="unicode") -> str:
    """Which inputs the shown formulas hold for: all the generated code accepts (check.formula_domains), e.g.
    "every invertible square X" for logdet's X, "every symmetric S (its tangents symmetric)" for a declared one."""
    doms = formula_domains(p)
    parts = []
    for v in p.inputs:
        dom = doms.get(v.name, "real")
        if v.kind == "int" or dom == "real":        # every real value: said once, below
            continue
        n = user_name(v.name)
        if style == "latex":
            n = latex_name(n)
            parts.append(r"\text{every invertible square } " + n if dom == "wellcond" else domains.latex(n, dom))
        else:
            parts.append(f"{n} in {dom}" if domains.interval(dom) else _HOLDS.get(dom, "{n}: " + dom).format(n=n))
    if len(parts) < sum(1 for v in p.inputs if v.kind != "int"):
        parts.append("every real value of the other inputs" if parts else "every real input")
        if style == "latex":
            parts[-1] = r"\text{" + parts[-1] + "}"
    return ", ".join(parts) if style == "unicode" else ",\\ ".join(parts)


def _statements(d, which):
    stmts = d.pushforward if which == "pushforward" else display.merged_pullback(d.pullback)
    domains = display.program_domains(d)
    out = []
    with naming(d):
        if which != "pushforward":      # as derive-rules and --latex show it: adjugates as inverses, copies folded
            stmts = display.shown_pullback(d, stmts, "unicode", domains)
        for ls in stmts:
            matrix = matrixform.safe_stmt_matrix(ls, "unicode", domains)
            index = stmt_index(ls)
            out.append({
                "target": pretty_name(ls.target),
                "text": matrix or index,          # what is shown: the matrix form where it passed its check
                "latex": display.stmt_text(ls, "latex", domains=domains),
                "matrix": matrix,                 # None where no checked matrix form exists
                "index": index,
                "index_latex": stmt_index(ls, "latex"),
            })
        for (sym, text), (_, tex) in zip(*[definition_lines(d, stmts, style, lambda ls, s=style: matrixform.safe_stmt_matrix(
                ls, s, domains)) for style in ("unicode", "latex")]):
            out.append({"target": sym, "text": text, "latex": tex, "matrix": None, "index": text,
                        "index_latex": tex, "where": True})      # a symbol a map reads, on a line of its own
    shown = [s["matrix"] for s in out]
    for (sym, text), (_, tex) in zip(function_lines(shown), function_lines(shown, "latex")):
        out.append({"target": sym, "text": text, "latex": tex, "matrix": None, "index": text,
                    "index_latex": tex, "where": True})      # cumsum, softmax: a function a matrix form calls
    return out


def make(result) -> dict:
    """The record of one derived rule (a derive.pipeline.RuleResult, verified or not); RuleResult.record() makes
    it once per verification."""
    p = result.program
    path, line = _location(result.source)
    rec = {
        "name": result.name,
        "signature": p.signature,
        "file": path,
        "line": line,
        "text": getattr(result, "text", "") or "",
        "doc": result.doc or "",
        "inputs": [{"name": user_name(v.name), "kind": v.kind, "indices": [user_name(i) for i in v.indices],
                    **({} if v.kind == "int" else {"domain": p.domains.get(v.name, "real"),
                                                   "declared": bool(v.domain)})}
                   for v in p.inputs],
        "outputs": [{"name": user_name(v.name), "indices": [user_name(i) for i in v.indices]} for v in p.outputs],
        "extents": {user_name(k): v for k, v in p.extents.items()},
        "equal_extents": [[user_name(i) for i in x] for x in p.equal_extents],
        "pushforward": _statements(result.derivation, "pushforward"),
        "pullback": _statements(result.derivation, "pullback"),
        "holds_for": holds_for(p),          # the inputs the shown formulas hold for
        "saves": result.pullback_needs(),
        "verified": result.ok,
        "verification": result.check.figures() if result.check is not None else None,
    }
    return rec


def literal(records: dict) -> str:
    """The records as a Python literal for a generated module (repr escapes every string)."""
    return pprint.pformat(records, width=110, sort_dicts=False)
