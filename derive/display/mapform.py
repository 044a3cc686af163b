"""A matrix primitive's linear map as its declaration writes it (`show_jvp`/`show_vjp`, `show_where`): read once
into a small tree that prints as Unicode and as LaTeX and evaluates with NumPy, so the shown map is the one checked
against the primitive's own code (at general inputs and cotangents) and its LaTeX is never raw Unicode.

The notation: names `{X}`, `{R}`, `d{X}`, `d{R}` (and the other arguments', `{B}`, `d{B}`), the symbols the
declaration defines in `show_where` (V, λ, G ...), calls `sym(·)`, `Φ(·)`, `diag(·)`, `tril(·)`, `triu(·)`,
`L_exp(·, ·)`, products `·` (matrix) and `∘` (elementwise), `+`, `-`, postfix `ᵀ`, `⁻¹`, `⁻ᵀ`, parentheses.
"""
from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

from derive.language import domains
from primitives.matrix import PRIMITIVES
from runtime import backend_numpy      # the namespace generated code runs the maps on


class Unreadable(ValueError):
    """The declaration's text is not in the notation above."""


_POST = {"ᵀ": "T", "⁻¹": "inv", "⁻ᵀ": "invT"}
_TOKEN = re.compile(r"\s*(d\{\w+\}|\{\w+\}|⁻¹|⁻ᵀ|ᵀ|[()·∘+,\-]|(?:(?!ᵀ)[^\W\d])(?:(?!ᵀ)\w)*)")


def _tokens(text):
    out, k = [], 0
    while k < len(text):
        if text[k:].strip() == "":
            break
        m = _TOKEN.match(text, k)
        if m is None:
            raise Unreadable(f"cannot read {text[k:]!r} in {text!r}")
        out.append(m.group(1))
        k = m.end()
    return out


class _Reader:
    def __init__(self, text):
        self.toks, self.k, self.text = _tokens(text), 0, text

    def peek(self):
        return self.toks[self.k] if self.k < len(self.toks) else None

    def take(self, want=None):
        t = self.peek()
        if t is None or (want is not None and t != want):
            raise Unreadable(f"expected {want or 'more'} in {self.text!r}")
        self.k += 1
        return t

    def expr(self):
        node = ("neg", self.term()) if self.peek() == "-" and self.take() else self.term()
        while self.peek() in ("+", "-"):
            op = self.take()
            node = ("bin", op, node, self.term())
        return node

    def term(self):
        node = self.post()
        while self.peek() in ("·", "∘"):
            op = self.take()
            node = ("bin", op, node, self.post())
        return node

    def post(self):
        node = self.primary()
        while self.peek() in _POST:
            node = ("post", _POST[self.take()], node)
        return node

    def primary(self):
        t = self.take()
        if t == "(":
            node = self.expr()
            self.take(")")
            return ("paren", node)
        if t in "()·∘+,-" or t in _POST:
            raise Unreadable(f"unexpected {t!r} in {self.text!r}")
        if self.peek() == "(":
            self.take("(")
            args = [self.expr()]
            while self.peek() == ",":
                self.take(",")
                args.append(self.expr())
            self.take(")")
            return ("call", t, args)
        return ("name", t)


@lru_cache(maxsize=None)
def read(text):
    """(target key, tree) of a declaration's `d{X} = ...`."""
    lhs, sep, rhs = text.partition(" = ")
    if not sep or not re.fullmatch(r"d\{\w+\}", lhs.strip()):
        raise Unreadable(f"a map is written `d{{X}} = ...`, not {text!r}")
    r = _Reader(rhs)
    tree = r.expr()
    if r.peek() is not None:
        raise Unreadable(f"unexpected {r.peek()!r} in {text!r}")
    return lhs.strip(), tree


# -- printing -----------------------------------------------------------------------------------------------------

_FUNC_TEX = {"sym": r"\operatorname{sym}", "Φ": r"\Phi", "diag": r"\operatorname{diag}", "tril": r"\operatorname{tril}",
             "triu": r"\operatorname{triu}", "L_exp": r"L_{\exp}"}
_POST_TEXT = {"unicode": {"T": "ᵀ", "inv": "⁻¹", "invT": "⁻ᵀ"},
              "latex": {"T": r"^{\top}", "inv": "^{-1}", "invT": r"^{-\top}"}}


def show(tree, names, style="unicode"):
    """The tree as text, each name key shown as names[key] (the display's name in that style)."""
    tex = style == "latex"
    kind = tree[0]
    if kind == "name":
        return names[tree[1]]
    if kind == "paren":
        inner = show(tree[1], names, style)
        return r"\left(" + inner + r"\right)" if tex else "(" + inner + ")"
    if kind == "neg":
        return "-" + show(tree[1], names, style)
    if kind == "call":
        f = _FUNC_TEX.get(tree[1], r"\operatorname{" + tree[1] + "}") if tex else tree[1]
        args = ", ".join(show(a, names, style) for a in tree[2])
        return f + (r"\left(" + args + r"\right)" if tex else "(" + args + ")")
    if kind == "post":
        base = show(tree[2], names, style)
        if tex and ("^" in base or "_" in base) and not base.endswith(r"\right)"):
            base = "{" + base + "}"       # X_{b}^{-1} is fine, but X^{\top}^{-1} is a double superscript
        return base + _POST_TEXT[style][tree[1]]
    op = tree[1]
    a, b = show(tree[2], names, style), show(tree[3], names, style)
    if op in "+-":
        return f"{a} {op} {b}"
    if tex:
        return f"{a} \\circ {b}" if op == "∘" else f"{a} {b}"
    return f"{a}{op}{b}"


def leaves(tree):
    """The name keys a tree reads."""
    if tree[0] == "name":
        return {tree[1]}
    kids = tree[2] if tree[0] == "call" else [t for t in tree[1:] if isinstance(t, tuple)]
    return set().union(*[leaves(k) for k in kids]) if kids else set()


# -- values -------------------------------------------------------------------------------------------------------


def _T(a):
    return np.swapaxes(a, -1, -2) if np.ndim(a) >= 2 else a


_FUNCS = {
    "sym": lambda a: (a + _T(a)) / 2,
    "Φ": lambda a: np.tril(a, -1) + np.diag(np.diag(a)) / 2,
    "diag": lambda a: np.diagflat(a) if np.ndim(a) == 1 else np.diag(a).copy(),
    "tril": np.tril,
    "triu": np.triu,
}


def value(tree, env):
    """The value of the tree with env {name key: array or function}: `·` a matrix product, `∘` elementwise."""
    kind = tree[0]
    if kind == "name":
        return env[tree[1]]
    if kind == "paren":
        return value(tree[1], env)
    if kind == "neg":
        return -value(tree[1], env)
    if kind == "call":
        f = env.get(tree[1]) or _FUNCS.get(tree[1])
        if f is None:
            raise Unreadable(f"no value for the function {tree[1]!r}")
        return f(*[value(a, env) for a in tree[2]])
    if kind == "post":
        v = value(tree[2], env)
        return {"T": _T, "inv": np.linalg.inv, "invT": lambda a: _T(np.linalg.inv(a))}[tree[1]](v)
    a, b = value(tree[2], env), value(tree[3], env)
    if tree[1] == "·":
        return a @ b if np.ndim(a) and np.ndim(b) else a * b
    if tree[1] == "∘":
        if np.shape(a) != np.shape(b):
            raise ValueError(f"an elementwise product of shapes {np.shape(a)} and {np.shape(b)}")
        return a * b
    return a + b if tree[1] == "+" else a - b


# -- a declaration's map, shown and checked -------------------------------------------------------------------------


def where_symbols(p):
    """{symbol: (its definition in Unicode, in LaTeX, its value: fn(X) -> array or function)} a map of p may
    read."""
    return {s: (text, tex, fn) for s, text, tex, fn in getattr(p, "show_where", ())}


def point(p, arg, mode, rng, symmetric_input=True):
    """(env, the code's value) of map `mode` of argument number `arg` of primitive p at a random general point: its
    arguments from its domain (a primitive on symmetric matrices: symmetric, with a symmetric tangent), the
    cotangent always general."""

    n = 4
    dom = p.domain or "wellcond"
    X = np.asarray(domains.sample((n, n), dom if p.symmetric else "wellcond", rng), dtype=float)
    vals = {p.args[0]: X}
    for name, kind in zip(p.args[1:], p.arg_kinds[1:]):
        vals[name] = rng.uniform(-0.5, 0.5, (n, 2) if kind == "rhs" else (n, n))
    R = np.asarray(p.forward(*[vals[a] for a in p.args]), dtype=float)
    vals["R"] = R
    saved = [vals[s] if s in vals else np.asarray(PRIMITIVES[s].forward(X), dtype=float) for s in p.saves]
    if mode == "jvp":
        t = rng.uniform(-0.5, 0.5, np.shape(vals[p.args[arg]]))
        if p.symmetric and arg == 0:
            t = (t + _T(t)) / 2
        key_in, key_out = "d{" + p.args[arg] + "}", "d{R}"
    else:
        t = rng.uniform(-0.5, 0.5, np.shape(R))
        key_in, key_out = "d{R}", "d{" + p.args[arg] + "}"
    code = (p.jvps if mode == "jvp" else p.vjps)[arg](backend_numpy, *saved, t)
    env = {"{" + k + "}": v for k, v in vals.items()}
    env[key_in] = t
    for s, (_, _, fn) in where_symbols(p).items():
        env[s] = fn(X)
    return env, np.asarray(code, dtype=float), key_out


def map_error(p, arg, mode, seed=0):
    """The largest relative difference between the shown map of p and its code over a few general points, or None
    where p shows no map; raises Unreadable where the shown text is not in the notation."""
    text = p.show_map(mode, arg)
    if not text:
        return None
    key, tree = read(text)
    rng = np.random.default_rng(seed)
    worst = 0.0
    for _ in range(3):
        env, want, key_out = point(p, arg, mode, rng)
        if key != key_out:
            raise Unreadable(f"{p.name}'s {mode} map assigns {key}, not {key_out}")
        with np.errstate(all="ignore"):
            got = np.asarray(value(tree, env), dtype=float)
        if got.shape != want.shape:
            return np.inf
        err = float(np.max(np.abs(got - want), initial=0.0) / max(1.0, float(np.max(np.abs(want), initial=0.0))))
        worst = max(worst, err if err == err else np.inf)
    return worst


_CHECKED: dict = {}


def checked_map(p, arg, mode):
    """(key of the target, tree) of p's shown map where it reads and agrees with the code at general points, else
    None (the caller shows the map by its name); each map is checked once per process."""
    k = (p.name, arg, mode)
    if k not in _CHECKED:
        try:
            err = map_error(p, arg, mode)
            _CHECKED[k] = read(p.show_map(mode, arg)) if err is not None and err <= 1e-8 else None
        except (Unreadable, ValueError, np.linalg.LinAlgError, KeyError):
            _CHECKED[k] = None
    return _CHECKED[k]
