"""How user text (comments, file names, labels) is written into generated Python and CUDA: only as an escaped
literal or inside a comment it cannot leave. Every template filter that carries user text is one of these.
"""
from __future__ import annotations

import ast

_PY_KEEP = "\n\t"  # inside a triple-quoted docstring these stay as they are; every other control is escaped


def _escape_char(c: str) -> str:
    return repr(c)[1:-1] if c not in "'\"" else c


def py_docstring(text: str) -> str:
    """A triple-quoted Python string literal whose value is exactly `text`, whatever `text` holds: backslashes,
    quotes, a trailing backslash or quote, NUL and other control characters are escaped; newlines and
    printable Unicode stay readable."""
    out = []
    for c in text:
        if c == "\\":
            out.append("\\\\")
        elif c == '"':
            out.append('\\"')  # no run of quotes can close the literal early
        elif c in _PY_KEEP or c.isprintable():
            out.append(c)
        else:
            out.append(_escape_char(c))
    lit = '"""' + "".join(out) + '"""'
    assert ast.literal_eval(lit) == text, "docstring escaping lost information"
    return lit


def comment_text(text: str) -> str:
    """One line of text safe inside a `#` (Python) or `//` (C/CUDA) comment: line breaks and other
    non-printable characters appear as escapes; a backslash is doubled (a C line splice `\\` at the end of a
    `//` comment would comment out the next line); `*/` and trigraph `??/` are broken up."""
    out = []
    for c in text:
        if c == "\\":
            out.append("\\\\")
        elif c.isprintable() and c not in "\u2028\u2029\x85":
            out.append(c)
        else:
            out.append(_escape_char(c))
    return "".join(out).replace("*/", "*\\/").replace("??", "?\\?")
