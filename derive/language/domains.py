"""Input domains: the vocabulary of a header's `x[i]: positive`, `S[i,j]: spd`, `t[i]: (1, inf)`, as canonical text.

The parser reads a declaration into this text, lowering checks that it fits the tensor, the verifier samples
from it, and displays print it. Plain Python, no SymPy: the generated OPS tables carry the same text.
"""
from __future__ import annotations

import math

import numpy as np

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


def sample(shape, dom, rng):
    """Entries inside the domain, away from its boundary (finite differences step 1e-4 at most)."""
    iv = interval(dom)
    if iv is not None:
        lo, hi = iv
        if np.isfinite(lo) and np.isfinite(hi):
            return lo + (hi - lo) * rng.uniform(0.2, 0.8, shape)
        if np.isfinite(lo):
            return lo + rng.uniform(0.5, 1.5, shape)
        if np.isfinite(hi):
            return hi - rng.uniform(0.5, 1.5, shape)
        return rng.uniform(-0.5, 0.5, shape)
    if dom == "positive":
        return rng.uniform(0.5, 1.5, shape)
    if dom == "negative":
        return -rng.uniform(0.5, 1.5, shape)
    if dom == "nonzero":
        return rng.choice([-1.0, 1.0], shape) * rng.uniform(0.5, 1.5, shape)
    x = rng.uniform(-0.5, 0.5, shape)
    if dom in ("spd", "wellcond", "symmetric") and len(shape) >= 2 and shape[-2] == shape[-1]:
        n, m = shape[-1], x             # batch axes first, matrix axes last
        if dom == "spd":        # symmetrized: a product's rounding need not be, and tangents are exactly symmetric
            m = m @ np.swapaxes(m, -1, -2) + np.eye(n)
            m = (m + np.swapaxes(m, -1, -2)) / 2
        elif dom == "symmetric":    # indefinite: a diagonal of both signs
            m = (m + np.swapaxes(m, -1, -2)) / 2 + np.diag(rng.choice([-2.0, 2.0], n))
        else:
            m = m + 2.0 * np.eye(n)
        return np.ascontiguousarray(m)
    return x
