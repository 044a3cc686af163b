"""A primitive's differential in index form: the text both the derivation and the runtime read.

    dR[i,j] = -R[i,k] * dX[k,l] * R[l,j]                 (inv)
    dR = adj(X)[j,i] * dX[i,j]                           (det)
    dZ[i,r] = dB[i,r] - dX[i,l] * R[l,r]; dR[i,r] = inv(X)[i,k] * dZ[k,r]      (solve)

Each statement is a sum of monomials: a rational coefficient times factors, exactly one of which is a tangent
(`d` + an argument's name, `dR`, or a tangent temporary defined by an earlier statement). A factor `f(X)[...]`
is another primitive applied to the argument X (computed once, shared with the forward pass). Repeated letters
are summed (Einstein); batch axes are implicit. Letters listed in a declaration's `optional` exist only when the
argument has that axis (solve's right-hand side may be a vector).

`jvp`/`vjp` evaluate a parsed differential with einsum over an array namespace (batch axes first, `...`), so
traced arrays (runtime.tnp) differentiate through it again; derive/calculus/differential.py turns the same parse into IR.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Factor:
    name: str            # 'R', an argument, 'dX', a tangent temporary
    indices: tuple       # letters
    call: str = ""       # another primitive applied to `name` (an argument): inv(X)[j,i]


@dataclass(frozen=True)
class Mono:
    coeff: Fraction
    factors: tuple       # Factor
    tangent: int         # the position of the one tangent factor


@dataclass(frozen=True)
class Line:
    target: str          # 'dR' or a tangent temporary
    indices: tuple
    terms: tuple         # Mono


_TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d+)?)|([A-Za-z_]\w*)|(.))")


def _tokens(text):
    out = []
    for m in _TOKEN.finditer(text):
        if m.group(0).strip():
            out.append(m.group(1) or m.group(2) or m.group(3))
    return out


class _Statement:
    """One statement of a differential, `dR[i,j] = -R[i,k] * dX[k,l] * R[l,j]`, read token by token."""

    def __init__(self, stmt, args, tangents):
        self.stmt, self.args, self.tangents = stmt, args, tangents
        self.toks = _tokens(stmt)
        self.pos = 0

    def peek(self):
        return self.toks[self.pos] if self.pos < len(self.toks) else None

    def take(self, want=None):
        t = self.peek()
        if t is None or (want is not None and t != want):
            raise ValueError(f"differential {self.stmt!r}: expected {want or 'more'} at token {self.pos}")
        self.pos += 1
        return t

    def indices(self):
        if self.peek() != "[":
            return ()
        self.take("[")
        out = []
        while self.peek() != "]":
            out.append(self.take())
            if self.peek() == ",":
                self.take(",")
        self.take("]")
        return tuple(out)

    def line(self) -> Line:
        target = self.take()
        tidx = self.indices()
        self.take("=")
        terms = []
        sign = 1
        if self.peek() == "-":
            self.take("-")
            sign = -1
        while True:
            terms.append(self.term(sign))
            if self.peek() is None:
                return Line(target, tidx, tuple(terms))
            op = self.take()
            if op not in "+-":
                raise ValueError(f"differential {self.stmt!r}: unexpected {op!r}")
            sign = 1 if op == "+" else -1

    def term(self, sign) -> Mono:
        coeff = Fraction(sign)
        factors = []
        while True:
            t = self.take()
            if re.fullmatch(r"\d+(?:\.\d+)?", t):
                coeff *= Fraction(t)
            elif self.peek() == "(":
                self.take("(")
                arg = self.take()
                self.take(")")
                if arg not in self.args:
                    raise ValueError(f"differential {self.stmt!r}: {t}({arg}) must apply to an argument")
                factors.append(Factor(arg, self.indices(), t))
            else:
                factors.append(Factor(t, self.indices()))
            if self.peek() == "*":
                self.take("*")
                continue
            if self.peek() == "/":
                self.take("/")
                coeff /= Fraction(self.take())
                if self.peek() == "*":
                    self.take("*")
                    continue
            break
        tan = [k for k, f in enumerate(factors) if not f.call and f.name in self.tangents]
        if len(tan) != 1:
            raise ValueError(f"differential {self.stmt!r}: each term needs exactly one tangent factor")
        return Mono(coeff, tuple(factors), tan[0])


def parse(text: str, args: tuple) -> tuple:
    """The statements of a differential; raises ValueError (a declaration bug, not a user's) when malformed."""
    lines = []
    tangents = {"d" + a for a in args}
    for stmt in re.split(r"[;\n]", text):
        if not stmt.strip():
            continue
        line = _Statement(stmt, args, tangents).line()
        lines.append(line)
        tangents.add(line.target)
    if not lines or lines[-1].target != "dR":
        raise ValueError(f"differential {text!r}: the last statement must define dR")
    _check_names_and_letters(text, lines, args)
    return tuple(lines)


def _check_names_and_letters(text, lines, args):
    """Every factor names an argument, R, or a tangent (an argument's, or an earlier statement's), and every
    term's free letters (those it holds once) are its statement's own: a slip in a declaration is an error
    here, naming the statement, not a KeyError deep in a derivation."""
    known = set(args) | {"R"} | {"d" + a for a in args}
    for line in lines:
        for term in line.terms:
            counts: dict = {}
            for f in term.factors:
                if not f.call and f.name not in known:
                    raise ValueError(f"differential {text!r}: {f.name}[...] is no argument, R or tangent "
                                     f"(arguments: {', '.join(args)})")
                for letter in f.indices:
                    counts[letter] = counts.get(letter, 0) + 1
            free = {letter for letter, n in counts.items() if n == 1}
            if free != set(line.indices) or any(n > 2 for n in counts.values()):
                raise ValueError(f"differential {text!r}: a term of {line.target} has the free letters "
                                 f"{sorted(free)}, its statement {sorted(line.indices)} (a letter is free once, "
                                 f"summed twice)")
        known.add(line.target)



def parse_at_identity(text: str, args: tuple) -> Line:
    """A pullback at a cotangent c·I (a square result) or c·𝟙 (a vector result), `dX[i,j] = dR * R[j,i]`: the
    scalar c is written `dR` (no indices), `I[i,j]` is the identity, and `f(X)[...]`/`f(R)[...]` another primitive
    of the argument or of the result; no letter is summed. Raises ValueError (a declaration bug) when malformed."""
    line = _Statement(text, tuple(args) + ("R",), {"dR"}).line()
    if line.target != "d" + args[0]:
        raise ValueError(f"pullback at the identity {text!r}: it defines d{args[0]}, not {line.target}")
    for term in line.terms:
        tan = term.factors[term.tangent]
        letters = [c for f in term.factors for c in f.indices]
        unknown = [f.name for f in term.factors if not f.call and f.name not in (*args, "R", "I", "dR")]
        if tan.indices or unknown or sorted(letters) != sorted(set(letters)) or set(letters) != set(line.indices):
            raise ValueError(f"pullback at the identity {text!r}: each term is dR (no indices) times factors of "
                             f"{', '.join(args)}, R or I that hold each letter of {line.target} once")
    return line

# ---------------------------------------------------------------------------------------------------------
# Evaluation over an array namespace (batch axes first)


def _present(letters, optional, missing):
    return tuple(c for c in letters if not (c in optional and c in missing))


def _spec(idx):
    return "..." + "".join(idx)


def _contract(xp, coeff, operands, out_idx):
    spec = ",".join(_spec(ix) for _, ix in operands) + "->" + _spec(out_idx)
    r = xp.einsum(spec, *[a for a, _ in operands])
    return r if coeff == 1 else (-r if coeff == -1 else float(coeff) * r)


def _missing(p, values):
    """Optional letters absent here: solve's `r` when its right-hand side is a vector."""
    if not p.optional:
        return set()
    nd = len(values["X"].shape)
    for a, kind in zip(p.args, p.arg_kinds):
        if kind == "rhs" and len(values[a].shape) in (1, nd - 1):      # a vector, or a batch of vectors
            return set(p.optional)
    return set()


def jvp(p, xp, values, tangents, aux):
    """dR for tangents {arg: array or None} at `values` {'R': ..., args...}; aux(name) -> f(X)."""
    miss = _missing(p, values)
    tans = dict(("d" + a, t) for a, t in tangents.items())
    for ln in p.lines:
        total = None
        for m in ln.terms:
            t = tans.get(m.factors[m.tangent].name)
            if t is None:
                continue
            ops = [((aux(f.call) if f.call else (t if k == m.tangent else values[f.name])),
                    _present(f.indices, p.optional, miss)) for k, f in enumerate(m.factors)]
            r = _contract(xp, m.coeff, ops, _present(ln.indices, p.optional, miss))
            total = r if total is None else total + r
        tans[ln.target] = total
    return tans["dR"]


def vjp(p, xp, values, cot, aux):
    """{arg: X̄ or None} for the result's cotangent `cot`: each statement transposed, in reverse order."""
    miss = _missing(p, values)
    cots = {"dR": cot}
    for ln in reversed(p.lines):
        c = cots.pop(ln.target, None)
        if c is None:
            continue
        for m in ln.terms:
            tf = m.factors[m.tangent]
            ops = [((aux(f.call) if f.call else values[f.name]), _present(f.indices, p.optional, miss))
                   for k, f in enumerate(m.factors) if k != m.tangent]
            ops.append((c, _present(ln.indices, p.optional, miss)))
            r = _contract(xp, m.coeff, ops, _present(tf.indices, p.optional, miss))
            cots[tf.name] = r if cots.get(tf.name) is None else cots[tf.name] + r
    return {a: cots.get("d" + a) for a in p.args}
