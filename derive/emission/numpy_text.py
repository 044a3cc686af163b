"""The text of generated NumPy code: variable references (REF), literals, parentheses, axis lists.

Shared by the expression printer (numpy_print.Emitter) and its contraction planning (numpy_contract), and read by
display.matrixform (balanced_outer).
"""
from __future__ import annotations

import sympy as sp

from derive.ir.nodes import Extent

# A variable of the generated code is written into code as REF name REF: a node of the statement that `render`
# resolves once the whole function is emitted, when it knows every read. The byte is never in Python source
# we emit, and user text reaches code only through repr(), which escapes it.
REF = "\x1d"
# The generated module's global holding the budget of a slice's largest intermediate (numpy_print.CHUNK_ELEMENTS):
# sliced passes read it when they run, so verification and tests can set it small and drive the very code that
# ships through its chunked path.
CHUNK_NAME = "_CHUNK_ELEMENTS"


def of_extents(e):
    """True for a number built from extents only (size(d), 1/sqrt(size(d))): Python ints at run time."""
    ext = e.atoms(Extent)
    return bool(ext) and e.xreplace({x: sp.Integer(2) for x in ext}).is_number


def divides_by_extents(e):
    """True for 1/size(b), size(d)**-0.5 and the like: a division by numbers an empty array makes 0."""
    return isinstance(e, sp.Pow) and e.exp.is_number and e.exp.is_negative and of_extents(e.base)


def float_literal(x):
    """A Python float as code: repr for a finite one; np.inf and np.nan otherwise (repr gives `inf`, a name no
    generated module defines: exp(exp(exp(2))) overflows to it)."""
    x = float(x)
    if x != x:
        return "np.nan"
    if x in (float("inf"), float("-inf")):
        return "np.inf" if x > 0 else "(-np.inf)"
    return repr(x)


def numstr(x):
    """A numeric factor as a Python literal (floats keep float32 arrays float32)."""
    if x.is_Integer:
        return f"{int(x)}.0"
    return float_literal(x)


def union(axes_lists):
    out: list = []
    for ax in axes_lists:
        for a in ax:
            if a not in out:
                out.append(a)
    return tuple(out)


def is_simple(code):
    return code.replace("_", "").replace(".", "").replace(REF, "").isalnum() or is_number(code)


def is_number(code):
    try:
        float(code)
        return True
    except ValueError:
        return False


def paren(code):
    if is_simple(code) or (code.startswith("(") and balanced_outer(code)):
        return code
    if code.startswith(("np.", "_recip(")) and code.endswith(")") and _balanced_call(code):
        return code
    return f"({code})"


def balanced_outer(code):
    depth = 0
    for k, ch in enumerate(code):
        depth += ch in "([{"
        depth -= ch in ")]}"
        if depth == 0 and k != len(code) - 1:
            return False
    return code.endswith(")")


def _balanced_call(code):
    start = code.index("(")
    if not code[:start].replace(".", "").replace("_", "").isalnum():
        return False
    return balanced_outer(code[start:])
