"""Input domains: the vocabulary of a header's `x[i]: positive`, `S[i,j]: spd`, `t[i]: (1, inf)`, as canonical text.

The parser reads a declaration into this text, lowering checks that it fits the tensor, the verifier samples
from it, and displays print it. Plain Python, no SymPy: the generated OPS tables carry the same text.
"""
from __future__ import annotations

import math

# name -> (least number of indices, what it means)
NAMED = {
    "positive": (0, "every entry > 0"),
    "negative": (0, "every entry < 0"),
    "nonzero": (0, "every entry != 0"),
    "spd": (2, "symmetric positive definite in its last two indices"),
    "symmetric": (2, "symmetric in its last two indices"),
}
MATRIX = ("spd", "symmetric")      # square in their last two indices
INFERRED = ("real", "wellcond")    # hints lowering infers when a header declares nothing


def number_text(v: float) -> str:
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return str(int(v)) if float(v).is_integer() and abs(v) < 1e16 else repr(float(v))


def interval_text(lo: float, hi: float) -> str:
    """The canonical text of the open interval (lo, hi)."""
    return f"({number_text(lo)}, {number_text(hi)})"


def interval(dom: str):
    """(lo, hi) of an interval domain's text, or None for a named domain."""
    if not dom.startswith("("):
        return None
    lo, hi = dom[1:-1].split(",")
    return float(lo), float(hi)


def is_declarable(dom: str) -> bool:
    return dom in NAMED or interval(dom) is not None


def latex(name: str, dom: str) -> str:
    """`x \\in (1, \\infty)` for one input: how the LaTeX output states a declared domain."""
    iv = interval(dom)
    if iv is not None:
        def num(v):
            return ("-" if v < 0 else "") + "\\infty" if math.isinf(v) else number_text(v)
        return f"{name} \\in ({num(iv[0])}, {num(iv[1])})"
    sets = {"positive": "> 0", "negative": "< 0", "nonzero": "\\neq 0", "spd": "\\succ 0",
            "symmetric": "= " + name + "^{\\top}"}
    return f"{name} {sets[dom]}" if dom in sets else f"{name}\\ \\text{{{dom}}}"
