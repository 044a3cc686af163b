"""MathML from the LaTeX our displays emit (derive.display, derive.display.matrixform, SymPy's LaTeX printer), for the
HTML report: browsers lay MathML out natively, so the report needs no script and no network.

It reads the subset those printers write -- \\frac, \\sqrt, sub- and superscripts, \\sum with limits, \\left/\\right,
\\mathrm/\\mathit/\\mathbf/\\operatorname/\\text, named functions, Greek letters and operator symbols -- and raises
Unsupported on anything else, so that the report shows the Unicode form instead of a formula laid out wrong.
Every piece of text is HTML-escaped.
"""
from __future__ import annotations

import html
import re
import unicodedata


class Unsupported(ValueError):
    """The LaTeX holds a construct this converter does not know."""


_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|[0-9]+(?:\.[0-9]+)?|\s+|.", re.S)

_GREEK = {n: chr(c) for n, c in zip(
    "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho varsigma sigma tau "
    "upsilon phi chi psi omega".split(), range(0x3B1, 0x3CA))}
_GREEK.update({n.capitalize(): chr(ord(c) - 32) for n, c in _GREEK.items() if n not in ("varsigma",)})
_GREEK.update(varepsilon="ε", vartheta="ϑ", varphi="φ", varrho="ϱ", varpi="ϖ", ell="ℓ", hbar="ℏ")
_IDENT = {"infty": "∞", "top": "⊤", "emptyset": "∅", "partial": "∂", "nabla": "∇", "prime": "′", **_GREEK}
_OPS = {"odot": "⊙", "circ": "∘", "cdot": "⋅", "times": "×", "div": "÷", "pm": "±", "mp": "∓", "otimes": "⊗",
        "oplus": "⊕", "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "neq": "≠", "ne": "≠", "lt": "<", "gt": ">",
        "approx": "≈", "equiv": "≡", "sim": "∼", "wedge": "∧", "land": "∧", "vee": "∨", "lor": "∨", "neg": "¬",
        "lnot": "¬", "to": "→", "rightarrow": "→", "mapsto": "↦", "in": "∈", "notin": "∉", "ldots": "…",
        "cdots": "⋯", "mid": "|", "lvert": "|", "rvert": "|", "vert": "|", "lVert": "‖", "rVert": "‖", "|": "‖",
        "langle": "⟨", "rangle": "⟩", "lfloor": "⌊", "rfloor": "⌋", "lceil": "⌈", "rceil": "⌉", "{": "{",
        "}": "}", "setminus": "∖", "ast": "∗", "star": "⋆", "bullet": "∙"}
_LARGE = {"sum": "∑", "prod": "∏", "int": "∫", "bigcup": "⋃", "bigcap": "⋂"}
_FUNCS = set("sin cos tan cot sec csc sinh cosh tanh coth arcsin arccos arctan log ln exp det max min sup inf "
             "lim arg deg dim gcd hom ker Pr tr".split())
_SPACES = {",": "0.167em", ":": "0.222em", ";": "0.278em", " ": "0.25em", "quad": "1em", "qquad": "2em",
           "!": "-0.167em"}
_DELIMS = {"(": "(", ")": ")", "[": "[", "]": "]", "|": "|", ".": "", "\\{": "{", "\\}": "}",
           "\\lvert": "|", "\\rvert": "|", "\\vert": "|", "\\|": "‖", "\\lVert": "‖", "\\rVert": "‖",
           "\\langle": "⟨", "\\rangle": "⟩", "\\lfloor": "⌊", "\\rfloor": "⌋", "\\lceil": "⌈", "\\rceil": "⌉"}
_BOLD = {**{c: chr(0x1D400 + k) for k, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZ")},
         **{c: chr(0x1D41A + k) for k, c in enumerate("abcdefghijklmnopqrstuvwxyz")},
         **{c: chr(0x1D7CE + k) for k, c in enumerate("0123456789")}}


def _e(s: str) -> str:
    return html.escape(s, quote=True)


def _mo(s, **attrs):
    extra = "".join(f' {k}="{_e(v)}"' for k, v in attrs.items())
    return f"<mo{extra}>{_e(s)}</mo>"


class _Parser:
    def __init__(self, tex: str):
        self.toks = [t for t in _TOKEN.findall(tex) if not t.isspace()]
        self.k = 0

    def peek(self):
        return self.toks[self.k] if self.k < len(self.toks) else None

    def next(self):
        t = self.peek()
        if t is None:
            raise Unsupported("unexpected end of the formula")
        self.k += 1
        return t

    def expect(self, t):
        got = self.next()
        if got != t:
            raise Unsupported(f"expected {t!r}, found {got!r}")

    def raw_group(self) -> str:
        """The text of a {...} argument as written (for \\mathrm{d}, \\operatorname{step}, \\text{...})."""
        self.expect("{")
        depth, out = 1, []
        while True:
            t = self.next()
            depth += (t == "{") - (t == "}")
            if depth == 0:
                return "".join(out)
            out.append(t)

    def seq(self, stop=("}",)) -> list:
        """Nodes up to (not including) a token in `stop` (None: the end)."""
        out = []
        while self.peek() not in stop:
            if self.peek() is None:
                raise Unsupported("unbalanced braces")
            out.append(self.scripted())
        return out

    def scripted(self) -> str:
        t = self.peek()
        large = t is not None and t.startswith("\\") and t[1:] in _LARGE
        base = self.atom()
        sub = sup = None
        while self.peek() in ("_", "^", "'"):
            t = self.next()
            if t == "'":
                sup = (sup or "") + _mo("′")
                continue
            arg = self.atom()
            if t == "_":
                if sub is not None:
                    raise Unsupported("double subscript")
                sub = arg
            else:
                if sup is not None:
                    raise Unsupported("double superscript")
                sup = arg
        if sub is None and sup is None:
            return base
        if large:
            if sub is not None and sup is not None:
                return f"<munderover>{base}{sub}{sup}</munderover>"
            return f"<munder>{base}{sub}</munder>" if sub is not None else f"<mover>{base}{sup}</mover>"
        if sub is not None and sup is not None:
            return f"<msubsup>{base}{sub}{sup}</msubsup>"
        return f"<msub>{base}{sub}</msub>" if sub is not None else f"<msup>{base}<mrow>{sup}</mrow></msup>"

    def group(self) -> str:
        self.expect("{")
        inner = self.seq(("}",))
        self.expect("}")
        return "<mrow>" + "".join(inner) + "</mrow>"

    def delim(self) -> str:
        t = self.next()
        if t not in _DELIMS:
            raise Unsupported(f"unknown delimiter {t!r}")
        return _DELIMS[t]

    def atom(self) -> str:
        t = self.peek()
        if t is None:
            raise Unsupported("a script or argument is missing")
        if t == "{":
            return self.group()
        self.next()
        if t in ("}", "^", "_", "&"):
            raise Unsupported(f"unexpected {t!r}")
        if t.startswith("\\"):
            return self.command(t[1:])
        if t[0].isdigit():
            return f"<mn>{_e(t)}</mn>"
        if t.isascii() and t.isalpha():
            return f"<mi>{_e(t)}</mi>"
        if t == "-":
            return _mo("−")
        if t == "'":
            return _mo("′")
        if t in "()[]|":
            return _mo(t, stretchy="false")
        if t.isascii():
            return _mo(t)
        cat = unicodedata.category(t)
        if cat.startswith("L"):
            return f"<mi>{_e(t)}</mi>"
        if cat.startswith("N"):
            return f"<mn>{_e(t)}</mn>"
        return _mo(t)

    def command(self, c: str) -> str:
        if c == "frac":
            return f"<mfrac>{self.atom()}{self.atom()}</mfrac>"
        if c == "sqrt":
            if self.peek() == "[":
                self.next()
                idx = self.seq(("]",))
                self.expect("]")
                return f"<mroot>{self.atom()}<mrow>{''.join(idx)}</mrow></mroot>"
            return f"<msqrt>{self.atom()}</msqrt>"
        if c in ("mathrm", "operatorname"):
            text = self.raw_group()
            if re.fullmatch(r"[A-Za-z0-9]+", text):
                return f'<mi mathvariant="normal">{_e(text)}</mi>' if len(text) == 1 else f"<mi>{_e(text)}</mi>"
            return "<mrow>" + "".join(_Parser(text).seq((None,))) + "</mrow>"
        if c == "mathit":
            text = self.raw_group()
            if re.fullmatch(r"[A-Za-z0-9]+", text):
                return f"<mi>{_e(text)}</mi>" if len(text) == 1 else \
                    f'<mi style="font-style: italic">{_e(text)}</mi>'
            return "<mrow>" + "".join(_Parser(text).seq((None,))) + "</mrow>"
        if c in ("mathbf", "boldsymbol"):
            text = self.raw_group()
            if not re.fullmatch(r"[A-Za-z0-9]+", text):
                raise Unsupported(f"\\{c} of {text!r}")
            chars = "".join(_BOLD[ch] for ch in text)
            return f"<mn>{chars}</mn>" if text.isdigit() else f"<mi>{chars}</mi>"
        if c == "text":
            return f"<mtext>{_e(self.raw_group())}</mtext>"
        if c == "left":
            opener = self.delim()
            inner = self.seq(("\\right",))
            self.expect("\\right")
            closer = self.delim()
            parts = ([_mo(opener, stretchy="true")] if opener else []) + inner + \
                ([_mo(closer, stretchy="true")] if closer else [])
            return "<mrow>" + "".join(parts) + "</mrow>"
        if c == "right":
            raise Unsupported("\\right without \\left")
        if c in _LARGE:
            return _mo(_LARGE[c], largeop="true", movablelimits="false")
        if c in _FUNCS:
            return f"<mi>{_e(c)}</mi>"
        if c in _IDENT:
            return f"<mi>{_e(_IDENT[c])}</mi>"
        if c in _OPS:
            return _mo(_OPS[c])
        if c in _SPACES:
            return f'<mspace width="{_SPACES[c]}"></mspace>'
        raise Unsupported(f"unknown LaTeX command \\{c}")


def to_mathml(tex: str, display: bool = True) -> str:
    """A <math> element for `tex`, the LaTeX kept as its annotation. Raises Unsupported on what it cannot read."""
    p = _Parser(tex)
    body = "".join(p.seq((None,)))
    # inline (left-aligned where it stands) but in display style: fractions full size, sums with limits below
    mode = ' display="block"' if display else ' displaystyle="true"'
    return (f"<math{mode}><semantics><mrow>{body}</mrow>"
            f'<annotation encoding="application/x-tex">{_e(tex)}</annotation></semantics></math>')
