"""An independent reference evaluator of the rule language: plain nested loops over the syntax tree.

It reads the parsed rule (derive.language.ast), never the lowered IR, and follows docs/language.md
("Summation") directly, so tests and the verifier can hold the lowering and the generated code to the
documented meaning. Values are float64 with compensated sums (math.fsum), or mpmath numbers at a chosen
precision. Meant for small extents: every element is one recursive walk.

Matrix functions act on the last two axes of their argument, leading axes are batch axes (as in NumPy). det and logdet are
exact (rational elimination on the binary values), so a singular matrix has det 0 and logdet -inf. cholesky,
eigvalsh, eigvecsh, logm and sqrtm read their argument as the symmetric matrix (A + Aᵀ)/2 (the function whose
gradient is the symmetric one); eigenvalues ascend, each eigenvector column has its component of largest
absolute value positive (the first such component on a tie), and a matrix outside the domain (cholesky or logm
of one that is not positive definite, sqrtm of one with a negative eigenvalue) gives NaN. These and expm are
computed by mpmath at the working precision, in float64 mode at REFERENCE_DPS digits and then rounded.
"""
from __future__ import annotations

import fractions
import itertools
import math

import mpmath
import numpy as np

from derive.ir.names import leading_first
from derive.language import ast as A
from derive.language import parser
from primitives import elementwise

__all__ = ["evaluate", "evaluate_text", "ReferenceError_"]

_MATRIX = ("inv", "det", "logdet", "solve", "trace", "transpose",
           "cholesky", "eigvalsh", "eigvecsh", "expm", "logm", "sqrtm")
_SQUARE = ("inv", "cholesky", "eigvecsh", "expm", "logm", "sqrtm")    # a matrix out, indexed like the argument
_SYMMETRIC = ("cholesky", "eigvalsh", "eigvecsh", "logm", "sqrtm")   # read as (A + Aᵀ)/2
REFERENCE_DPS = 30


class ReferenceError_(ValueError):
    """The reference cannot give the expression a meaning (the lowering refuses such rules too)."""


class OutOfRange(ArithmeticError):
    """An intermediate value beyond float64's range: no float64 code computes this point."""


_FLOAT64_MAX = 1.7976931348623157e308
_DET_SPAN_BITS = 2300       # float64 entries span at most 2098 + 53 bits, largest over smallest nonzero


# -- numbers ---------------------------------------------------------------------------------------------------


class _F64:
    """float64 arithmetic; sums are compensated (fsum); domain errors give NaN, overflow ±inf, like IEEE."""

    nan = math.nan

    @staticmethod
    def num(text):
        return float(text)

    @staticmethod
    def of(x):
        return float(x)

    fsum = staticmethod(math.fsum)

    @staticmethod
    def div(a, b):
        try:
            return a / b
        except ZeroDivisionError:
            return math.nan if a == 0 or a != a else math.copysign(math.inf, a) * math.copysign(1.0, b)

    @staticmethod
    def pow(a, b):
        try:
            r = a ** b
        except ZeroDivisionError:
            return math.inf
        except OverflowError:
            return math.inf
        return math.nan if isinstance(r, complex) else float(r)

    @staticmethod
    def call(name, *a):
        x = a[0]
        try:
            if name == "sigmoid":
                return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))
            if name == "softplus":
                return max(x, 0.0) + math.log1p(math.exp(-abs(x)))
            if name == "log":
                return -math.inf if x == 0 else math.log(x)
            if name == "sqrt":
                return math.sqrt(x)
            return _MATH[name](*a)
        except OverflowError:
            return math.inf if name != "sinh" or x > 0 else -math.inf
        except ValueError:
            return math.nan

    @staticmethod
    def finite(x):
        return math.isfinite(x)


def _at_double(f):
    """A float64 function from an mpmath one (erfinv, which math lacks): correctly rounded, as libm's nearly are."""
    def fn(*a):
        with mpmath.workprec(53):
            v = f(*(mpmath.mpf(x) for x in a))
        if isinstance(v, mpmath.mpc):
            raise ValueError("complex value")
        return float(v)
    return fn


def _math_name(row):
    return row.mpmath if isinstance(row.mpmath, str) else row.name


# every row of primitives.elementwise the evaluator does not define itself (pow, where): its mpmath function (the
# row's column), and in float64 math's function of that name where math has one
class _Table(dict):
    """name -> function; a name without one (a matrix primitive this evaluator does not know, read as a call)
    is a rule the reference cannot read, not a crash."""

    def __missing__(self, name):
        raise ReferenceError_(f"the reference evaluator has no implementation of {name}()")


_ROWS = [r for r in elementwise.ROWS if r.mpmath != ""]
_MPF = _Table({r.name: elementwise.resolve(mpmath, r.mpmath, r.name) for r in _ROWS})
_MATH = _Table({r.name: getattr(math, _math_name(r), None) or _at_double(_MPF[r.name]) for r in _ROWS})


class _MP:
    """mpmath arithmetic at the working precision set around the evaluation; complex results are NaN."""

    nan = mpmath.mpf("nan")

    @staticmethod
    def num(text):
        return mpmath.mpf(text)

    @staticmethod
    def of(x):
        return mpmath.mpf(x) if not isinstance(x, mpmath.mpf) else x

    @staticmethod
    def fsum(xs):
        return mpmath.fsum(xs)

    @staticmethod
    def _real(r):
        if isinstance(r, mpmath.mpc):
            return r.real if r.imag == 0 else mpmath.mpf("nan")
        return r

    @classmethod
    def div(cls, a, b):
        if b == 0:
            return mpmath.mpf("nan") if a == 0 else mpmath.inf * mpmath.sign(a) * (1 if b >= 0 else -1)
        return a / b

    @classmethod
    def pow(cls, a, b):
        if a == 0 and b < 0:
            return mpmath.inf
        return cls._real(mpmath.power(a, b))

    @classmethod
    def call(cls, name, *a):
        x = a[0]
        for v in a:
            if isinstance(v, mpmath.mpf) and mpmath.isfinite(v) and abs(v) > _FLOAT64_MAX:
                # float64 code has overflowed before this call: the point is outside what it can compute (and
                # mpmath's sin of exp(exp(...)) reduces modulo π at a precision that takes minutes)
                raise OutOfRange(f"{name}() of a value beyond float64's range")
        if name == "sigmoid":
            return 1 / (1 + mpmath.exp(-x))
        if name == "softplus":
            return mpmath.log1p(mpmath.exp(x)) if x < 0 else x + mpmath.log1p(mpmath.exp(-x))
        if name == "log" and x == 0:
            return -mpmath.inf
        return cls._real(_MPF[name](*a))

    @staticmethod
    def finite(x):
        return mpmath.isfinite(x)


def _common(ctx, name, args):
    """Functions whose definition is the same in every number type."""
    if name == "relu":
        return args[0] if args[0] > 0 else args[0] * 0
    if name == "step":
        return ctx.of(1) if args[0] > 0 else ctx.of(0)
    if name == "sign":
        return ctx.of((args[0] > 0) - (args[0] < 0))
    if name == "pow":
        return ctx.pow(args[0], args[1])
    if name == "where":
        return args[1] if args[0] else args[2]
    if name == "max":
        return args[0] if args[0] >= args[1] else args[1]
    if name == "min":
        return args[0] if args[0] <= args[1] else args[1]
    return ctx.call(name, *args)


# -- evaluation ------------------------------------------------------------------------------------------------


def _letters(indices):
    """The letters a subscript names, each shifted subscript's indices in turn."""
    return [t.name for ix in indices for t in ([x for _, x in ix.terms] if isinstance(ix, A.Affine) else [ix])]


def _subscripts(node, bound=frozenset()):
    """(access, subscript, letters bound by enclosing sums) for every subscript of a tensor in node."""
    if isinstance(node, A.Access):
        for ix in node.indices:
            yield node, ix, bound
    elif isinstance(node, A.Call):
        inner = bound | {a.name for a in node.args[:-1]} if node.func == "sum" else bound
        for a in node.args:
            yield from _subscripts(a, inner)
    elif isinstance(node, A.BinOp):
        yield from _subscripts(node.left, bound)
        yield from _subscripts(node.right, bound)
    elif isinstance(node, A.Neg):
        yield from _subscripts(node.operand, bound)


def _flatten_product(node):
    """The parts of a product (a chain of * and /; signs and parentheses inside do not end it):
    [(node, is_denominator)] and the sign. A denominator is one part, whatever it contains."""
    parts, sign = [], 1

    def walk(n):
        nonlocal sign
        if isinstance(n, A.BinOp) and n.op == "*":
            walk(n.left)
            walk(n.right)
        elif isinstance(n, A.BinOp) and n.op == "/":
            walk(n.left)
            parts.append((n.right, True))
        elif isinstance(n, A.Neg):
            sign = -sign
            walk(n.operand)
        else:
            parts.append((n, False))

    walk(node)
    return parts, sign


def _is_product(n):
    return isinstance(n, A.BinOp) and n.op in ("*", "/")


class _MatrixFunctions:
    """Whole tensors and matrix functions: a matrix function's argument evaluated as a whole tensor over its free
    letters, then the function applied per batch element. Mixed into _Eval, whose letters and loops it uses."""

    def tensor_of(self, node, by_access=False):
        """node as a tensor over its free letters (in order of appearance; a matrix function's argument in the
        order of its first plain read carrying them all, if any): (array, letters).
        A bare name is the whole tensor, with letters of its own."""
        key = (id(node), by_access)
        if key in self.tensor_cache:
            return self.tensor_cache[key]
        if isinstance(node, A.Name):
            v = np.asarray(self.values[node.name], dtype=object)
            r = (v, self.anon(node, v.ndim))
        else:
            letters = self._ordered(node, leading_first(self.free(node, self.fixed)), by_access)
            r = (self.loop(node, letters, frozenset(letters), {}, {}), letters)
        self.tensor_cache[key] = r
        return r

    @staticmethod
    def _ordered(node, letters, by_access):
        """The language's rule for a matrix function's argument: its axes follow the first plain tensor read
        (A[b,i,j]) whose indices are exactly its free letters; with none, the order of first appearance."""
        if not by_access:
            return letters
        stack = [node]
        while stack:
            n = stack.pop(0)
            if isinstance(n, A.Access) and all(type(ix) is A.Index for ix in n.indices):
                names = [ix.name for ix in n.indices]
                if len(names) == len(letters) and set(names) == set(letters):
                    return leading_first(names)
            if isinstance(n, A.Call):
                stack[:0] = list(n.args)
            elif isinstance(n, A.BinOp):
                stack[:0] = [n.left, n.right]
            elif isinstance(n, A.Neg):
                stack[:0] = [n.operand]
        return letters

    def prim_letters(self, n) -> list:
        f = n.func
        if f == "sum" or not n.args:
            return []
        la = self._arg_letters(n.args[0])
        if f in _SQUARE:
            return la
        if f in ("det", "logdet", "trace"):
            return la[:-2]
        if f == "eigvalsh":
            return la[:-1]
        if f == "transpose":
            return la[:-2] + [la[-1], la[-2]]
        lb = self._arg_letters(n.args[1])
        return la[:-1] + lb[len(la) - 1:]

    def _arg_letters(self, a):
        if isinstance(a, A.Name):
            return self.anon(a, np.ndim(self.values[a.name]))
        return self._ordered(a, leading_first(self.free(a, self.fixed)), True)

    def prim(self, n):
        key = ("prim", id(n))
        if key in self.tensor_cache:
            return self.tensor_cache[key]
        f = n.func
        a, la = self.tensor_of(n.args[0], True)
        batch = a.shape[:-2]
        if f == "transpose":
            out = np.swapaxes(a, -1, -2)
        elif f == "trace":
            out = np.empty(batch, dtype=object)
            for b in np.ndindex(*batch):
                out[b] = self.ctx.fsum([a[b + (k, k)] for k in range(a.shape[-1])])
        elif f in ("inv", "det", "logdet") or f in _SQUARE or f == "eigvalsh":
            if a.ndim < 2 or a.shape[-2] != a.shape[-1]:
                raise ReferenceError_(f"{f}() needs a square matrix in its last two axes, not shape {a.shape}")
            out = np.empty(a.shape if f in _SQUARE else a.shape[:-1] if f == "eigvalsh" else batch,
                           dtype=object)
            for b in np.ndindex(*batch):
                r = self._matrix(f, a[b]) if f in ("inv", "det", "logdet") else self._matfun(f, a[b])
                out[b] = r
        else:                                   # solve(A, b): b's first axis after the batch are A's columns
            rhs, lb = self.tensor_of(n.args[1], True)
            nb = len(batch)
            out = np.empty(batch + a.shape[-2:-1] + rhs.shape[nb + 1:], dtype=object)
            for b in np.ndindex(*batch):
                out[b] = self._solve(a[b], rhs[b])
        res = (out, self.prim_letters(n))
        self.tensor_cache[key] = res
        return res

    def _matrix(self, f, m):
        if f in ("det", "logdet"):
            return _det(f, m, self.ctx)
        if self.ctx is _MP:
            mm = mpmath.matrix(m.tolist())
            return np.array(mpmath.inverse(mm).tolist(), dtype=object)
        return np.linalg.inv(np.array(m, dtype=float)).astype(object)

    def _matfun(self, f, m):
        """cholesky, eigvalsh, eigvecsh, expm, logm or sqrtm of one matrix (an object array of numbers)."""
        ctx = self.ctx
        n = m.shape[0]
        shape = (n,) if f == "eigvalsh" else (n, n)
        if not all(ctx.finite(x) for x in m.flat):
            return np.full(shape, ctx.nan, dtype=object)
        if ctx is _MP and any(abs(x) > _FLOAT64_MAX for x in m.flat):
            raise OutOfRange(f"{f}() of a matrix with an entry beyond float64's range")
        if ctx is _MP:
            r = _matfun_mp(f, m)
            if any(mpmath.isfinite(x) and abs(x) > _FLOAT64_MAX for x in r.flat):
                # expm of a matrix with entries ~1e3: the true value overflows float64, where code gives inf
                raise OutOfRange(f"{f}() whose value is beyond float64's range")
        else:
            with mpmath.workdps(REFERENCE_DPS):
                r = _matfun_mp(f, np.vectorize(mpmath.mpf, otypes=[object])(m))
            r = np.vectorize(float, otypes=[object])(r) if r.size else r
        return r

    def _solve(self, m, r):
        if self.ctx is _MP:
            mm = mpmath.matrix(m.tolist())
            cols = r.reshape(r.shape[0], -1)
            out = np.empty(cols.shape, dtype=object)
            for c in range(cols.shape[1]):
                x = mpmath.lu_solve(mm, mpmath.matrix(cols[:, c].tolist()))
                out[:, c] = [x[k] for k in range(cols.shape[0])]
            return out.reshape(r.shape)
        return np.linalg.solve(np.array(m, dtype=float), np.array(r, dtype=float).reshape(r.shape[0], -1)) \
            .reshape(r.shape).astype(object)


class _Eval(_MatrixFunctions):
    """One rule evaluated element by element: each statement's left side over its letters' extents, each
    expression by recursion on the syntax tree with the letters' values in an environment."""
    def __init__(self, rule: A.RuleDef, values: dict, ctx):
        self.rule, self.ctx = rule, ctx
        self.values = values                  # name -> np.ndarray (object) or a number
        self.plans: dict = {}                 # a product's reading, per node, fixed letters and extents
        self.header_ext: dict = {}
        for p in rule.inputs:
            if p.indices and p.name in values:
                for ix, n in zip(p.indices, np.shape(values[p.name])):
                    self.header_ext.setdefault(ix.name, n)

    # -- letters -----------------------------------------------------------------------------------------------
    def anon(self, node, rank):
        """Letters for the axes of a bare tensor name passed to a matrix function (`inv(A)`)."""
        key = id(node)
        if key not in self.anon_letters:
            self.anon_letters[key] = [f"#{len(self.anon_letters)}.{k}" for k in range(rank)]
        return self.anon_letters[key]

    def free(self, n, fixed) -> list:
        """The letters n leaves unsummed, in order of first appearance in the text. `fixed` letters (the
        left side's, and those of enclosing explicit sums) are never summed implicitly."""
        if isinstance(n, (A.Num, A.Name)):
            return []
        if isinstance(n, A.Access):
            return self._subscript_free(_letters(n.indices), fixed)
        if isinstance(n, A.Subscript):
            return self._subscript_free(_letters(n.indices), fixed)
        if isinstance(n, A.Neg):
            return self.free(n.operand, fixed)
        if _is_product(n):
            parts, _ = _flatten_product(n)
            frees = [self.free(p, fixed) for p, _ in parts]
            out = []
            for f in frees:
                for l in f:
                    if l not in out and (l in fixed or sum(l in g for g in frees) == 1):
                        out.append(l)
            return out
        if isinstance(n, A.BinOp):
            return _union(self.free(n.left, fixed), self.free(n.right, fixed))
        if isinstance(n, A.Call):
            f = n.func
            if f == "sum" or self.reduces(n):
                ks = [a.name for a in n.args[:-1]]
                return [l for l in self.free(n.args[-1], fixed | set(ks)) if l not in ks]
            if f == "delta":
                return _union([n.args[0].name], [n.args[1].name])
            if f == "size":
                return []
            if f in _MATRIX:
                return self.prim_letters(n)
            out: list = []
            for a in n.args:
                out = _union(out, self.free(a, fixed))
            return out
        raise ReferenceError_(f"unknown node {type(n).__name__}")

    @staticmethod
    def _subscript_free(letters, fixed):
        return [l for k, l in enumerate(letters) if l not in letters[:k] and (l in fixed or letters.count(l) == 1)]

    # -- extents -----------------------------------------------------------------------------------------------
    def extent(self, letter, nodes, scope):
        """The extent of `letter` as used in `nodes` (not inside a sum() that rebinds it)."""
        found = self._find_extent(letter, nodes, set())
        if found is not None:
            return found
        if letter in scope:
            return scope[letter]
        if letter in self.stmt_ext:
            return self.stmt_ext[letter]
        if letter in self.header_ext:
            return self.header_ext[letter]
        raise ReferenceError_(f"the extent of index '{letter}' is unknown")

    def _find_extent(self, letter, nodes, seen):
        partners = []
        stack = list(nodes)
        while stack:
            n = stack.pop(0)
            if isinstance(n, A.Access):
                for k, ix in enumerate(n.indices):
                    if ix.name == letter and not isinstance(ix, A.Affine):
                        return np.shape(self.values[n.name])[k]
            elif isinstance(n, A.Subscript):
                for k, ix in enumerate(n.indices):
                    if ix.name == letter:
                        return self.tensor_of(n.base)[0].shape[k]
                stack.append(n.base)
            elif isinstance(n, A.Call):
                if (n.func == "sum" or self.reduces(n)) and letter in [a.name for a in n.args[:-1]]:
                    continue
                if n.func == "delta":
                    names = [a.name for a in n.args]
                    if letter in names:
                        partners += [x for x in names if x != letter]
                    continue
                if n.func in _MATRIX:
                    letters = self.prim_letters(n)
                    if letter in letters:
                        return self.prim(n)[0].shape[letters.index(letter)]
                    continue          # letters inside a matrix function's argument are its own axes
                stack.extend(n.args)
            elif isinstance(n, A.BinOp):
                stack += [n.left, n.right]
            elif isinstance(n, A.Neg):
                stack.append(n.operand)
        for p in partners:
            if p not in seen:
                r = self._find_extent(p, nodes, seen | {letter})
                if r is not None:
                    return r
        return None

    # -- statements --------------------------------------------------------------------------------------------
    def run(self):
        for st in self.rule.statements:
            self.statement(st)
        return self.values

    def statement(self, st):
        self.anon_letters: dict = {}
        self.tensor_cache: dict = {}
        self.stmt_ext: dict = {}
        self.fixed: frozenset = frozenset()
        tgt = st.target
        letters = self.free(st.expr, frozenset())
        if isinstance(tgt, A.Access) and not (len(letters) == len(tgt.indices) and all(l.startswith("#")
                                                                                       for l in letters)):
            # (unless the right side's every axis is one of a whole tensor's, unnamed: `w[i] = eigvalsh(S)` is
            # `w = eigvalsh(S)`, its left side naming those axes in order)
            letters = [ix.name for ix in tgt.indices]
        self.fixed = frozenset(letters)     # never summed implicitly, also inside a matrix function's argument
        loose = [l for l in self.free(st.expr, frozenset(letters)) if l not in letters]
        if loose:
            raise ReferenceError_(f"index '{loose[0]}' is free on the right and not on the left")
        # a letter read at shifted positions (x[i+k]) runs over the values where every read is inside its
        # tensor: from the lowest such value (the left side's 0) to the highest
        self.stmt_lo = {l: lohi for l in letters if (lohi := self.valid_range(l, st.expr, letters)) is not None}
        # extents of the statement's own letters, for delta-only and size() uses
        for l in letters:
            if l in self.stmt_lo:
                lo, hi = self.stmt_lo[l]
                if hi < lo:
                    raise ReferenceError_(f"index '{l}' has no valid position")
                self.stmt_ext[l] = hi - lo + 1
            else:
                self.stmt_ext[l] = self.extent(l, [st.expr], {})
        shape = tuple(self.stmt_ext[l] for l in letters)
        out = np.empty(shape, dtype=object)
        sc = dict(zip(letters, shape))
        for idx in itertools.product(*(range(n) for n in shape)):
            env = {l: v + self.stmt_lo.get(l, (0, 0))[0] for l, v in zip(letters, idx)}
            out[idx] = self.ev(st.expr, frozenset(letters), env, sc)
        self.values[tgt.name] = out

    def valid_range(self, letter, expr, letters, scope=None):
        """(lowest, highest) value of `letter` when subscripts of expr read it at shifted positions (x[i+k]):
        the values for which every read of an axis it shifts stays inside (its plain reads of those axes
        too), other indices anywhere in their ranges. None when it is not read shifted, or when it also reads
        an axis plainly that no subscript shifts it on: then that axis gives its whole extent."""
        reads = [(node, ix) for node, ix, bound in _subscripts(expr) if letter not in bound]
        shifted = {(node.name, list(node.indices).index(ix)) for node, ix in reads
                   if isinstance(ix, A.Affine) and letter in ix.letters}
        if not shifted:
            return None
        lo, hi = 0, math.inf        # positions start at 0: only a negative offset (x[i-1]) moves the start up
        for node, ix in reads:
            axis = (node.name, list(node.indices).index(ix))
            terms = list(ix.terms) if isinstance(ix, A.Affine) else [(1, ix)]
            const = ix.const if isinstance(ix, A.Affine) else 0
            c = sum(a for a, t in terms if t.name == letter)
            if not c:
                continue
            if not isinstance(ix, A.Affine) and axis not in shifted:
                return None
            n = np.shape(self.values[node.name])[axis[1]]
            others = [(a, t.name) for a, t in terms if t.name != letter]
            if any(o in letters for _, o in others):
                raise ReferenceError_("two left-side indices in one shifted subscript")
            reach = sum(a * (self._count(o, expr, set(letters) | {letter}, scope) - 1) for a, o in others)
            lo = max(lo, -(-(-const) // c))
            hi = min(hi, (n - 1 - const - reach) // c)
        return int(lo), int(hi)

    def _count(self, o, expr, exclude, scope):
        """How many values a summed index o takes: where a subscript that reads no index of `exclude` (the
        left side's, whose ranges o's reads are bounding) reads o shifted (w[k+1]), the values inside that
        tensor; otherwise its extent."""
        reads = [(node, ix) for node, ix, bound in _subscripts(expr)
                 if isinstance(ix, A.Affine) and o in ix.letters and not (set(ix.letters) & exclude)]
        if not reads:
            return self.extent(o, [expr], scope or {})
        hi = math.inf
        for node, ix in reads:
            axis = list(node.indices).index(ix)
            n = np.shape(self.values[node.name])[axis]
            c = sum(a for a, t in ix.terms if t.name == o)
            reach = sum(a * (self._count(t.name, expr, exclude | {o}, scope) - 1) for a, t in ix.terms
                        if t.name != o)
            hi = min(hi, (n - 1 - ix.const - reach) // c)
        return max(0, int(hi) + 1)

    def summed_range(self, letter, nodes, scope):
        """(first value, count) of a summed index: its valid range where it is read shifted, else 0 and its extent."""
        for n in nodes:
            r = self.valid_range(letter, n, ())
            if r is not None:
                if r[0] != 0:
                    raise ReferenceError_(f"summed index '{letter}' reaches below 0")
                return 0, max(0, r[1] + 1)
        return 0, self.extent(letter, nodes, scope)

    def loop(self, node, letters, fixed, env, scope):
        shape = tuple(self.extent(l, [node], scope) for l in letters)
        out = np.empty(shape, dtype=object)
        sc = dict(scope, **dict(zip(letters, shape)))
        for idx in itertools.product(*(range(n) for n in shape)):
            out[idx] = self.ev(node, fixed, dict(env, **dict(zip(letters, idx))), sc)
        return out

    # -- expressions -------------------------------------------------------------------------------------------
    def ev(self, n, fixed, env, scope):
        ctx = self.ctx
        if isinstance(n, A.Num):
            return ctx.num(n.value)
        if isinstance(n, A.Name):
            if n.name not in self.values and n.name in env:      # an index compared: its position
                return ctx.of(env[n.name])
            if n.name == "inf" and n.name not in self.values:
                return ctx.num("inf")
            v = self.values[n.name]
            return ctx.of(v.item() if isinstance(v, np.ndarray) else v)
        if isinstance(n, A.Access):
            if any(isinstance(ix, A.Affine) for ix in n.indices):
                return self.shifted(n, env)
            return self.element(self.values[n.name], [ix.name for ix in n.indices], fixed, env, scope, [n])
        if isinstance(n, A.Subscript):
            t, _ = self.tensor_of(n.base)
            return self.element(t, [ix.name for ix in n.indices], fixed, env, scope, [n])
        if isinstance(n, A.Neg):
            return -self.ev(n.operand, fixed, env, scope)
        if _is_product(n):
            return self.product(n, fixed, env, scope)
        if isinstance(n, A.BinOp):
            a, b = self.ev(n.left, fixed, env, scope), self.ev(n.right, fixed, env, scope)
            op = n.op
            if op == "+":
                return a + b
            if op == "-":
                return a - b
            if op == "**":
                return ctx.pow(a, b)
            return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b, "!=": a != b}[op]
        if isinstance(n, A.Call):
            return self.call(n, fixed, env, scope)
        raise ReferenceError_(f"unknown node {type(n).__name__}")

    def shifted(self, n, env):
        t = self.values[n.name]
        at = []
        for k, ix in enumerate(n.indices):
            terms = list(ix.terms) if isinstance(ix, A.Affine) else [(1, ix)]
            v = sum(c * env[x.name] for c, x in terms) + (ix.const if isinstance(ix, A.Affine) else 0)
            if not 0 <= v < np.shape(t)[k]:
                raise ReferenceError_(f"'{n.name}[..{ix.name}..]' reads position {v}, outside its extent")
            at.append(v)
        return self.ctx.of(t[tuple(at)])

    def element(self, t, letters, fixed, env, scope, nodes):
        """t[letters] at env; a letter repeated in one subscript and not fixed sums the diagonal."""
        rep = [l for k, l in enumerate(letters) if l not in letters[:k] and letters.count(l) > 1
               and l not in fixed]
        if not rep:
            return self.ctx.of(t[tuple(env[l] for l in letters)])
        exts = [self.extent(l, nodes, scope) for l in rep]
        terms = []
        for vals in itertools.product(*(range(e) for e in exts)):
            e2 = dict(env, **dict(zip(rep, vals)))
            terms.append(self.ctx.of(t[tuple(e2[l] for l in letters)]))
        return self.ctx.fsum(terms)

    def product(self, n, fixed, env, scope):
        """Einstein summation: an index in two parts of this product, not fixed, is summed over the product."""
        key = (id(n), fixed, tuple(sorted(scope.items())))
        plan = self.plans.get(key)
        if plan is None:        # the product's reading depends on the text and the extents, not on the values
            parts, sign = _flatten_product(n)
            frees = [self.free(p, fixed) for p, _ in parts]
            count: dict = {}
            for f in frees:
                for l in f:
                    if l not in fixed:
                        count[l] = count.get(l, 0) + 1
            if any(c > 2 for c in count.values()):
                raise ReferenceError_("an index occurs more than twice in one product")
            summed = [l for l, c in count.items() if c == 2]
            exts = [self.summed_range(l, [n], scope)[1] for l in summed]
            plan = self.plans[key] = (parts, sign, summed, exts)
        parts, sign, summed, exts = plan
        sc = dict(scope, **dict(zip(summed, exts)))
        terms = []
        for vals in itertools.product(*(range(e) for e in exts)):
            e2 = dict(env, **dict(zip(summed, vals)))
            v = self.ctx.of(sign)
            for p, den in parts:
                x = self.ev(p, fixed, e2, sc)
                v = self.ctx.div(v, x) if den else v * x
            terms.append(v)
        return self.ctx.fsum(terms) if summed else terms[0]

    def reduces(self, n) -> bool:
        """max(k, e), min(k, e) (a bare first argument that e subscripts, or three or more arguments) and
        prod(k, e) reduce over k; max(a, b) of two values does not (docs/language.md, Reductions)."""
        if n.func == "prod":
            return True
        if n.func not in ("max", "min") or len(n.args) < 2:
            return False
        if len(n.args) > 2:
            return True
        a, body = n.args
        if not isinstance(a, A.Name):
            return False
        stack, seen = [body], False
        while stack and not seen:
            x = stack.pop()
            if isinstance(x, (A.Access, A.Subscript)):
                seen = a.name in _letters(x.indices)     # x[2*i+k] subscripts k too
            stack += [v for v in vars(x).values() if isinstance(v, A.Node)]
            stack += [c for v in vars(x).values() if isinstance(v, (list, tuple)) for c in v if isinstance(c, A.Node)]
        return seen

    def call(self, n, fixed, env, scope):
        f, ctx = n.func, self.ctx
        if f == "sum" or self.reduces(n):
            ks = [a.name for a in n.args[:-1]]
            body = n.args[-1]
            exts = [self.summed_range(k, [body], scope)[1] for k in ks]
            sc = dict(scope, **dict(zip(ks, exts)))
            terms = [self.ev(body, fixed | set(ks), dict(env, **dict(zip(ks, vals))), sc)
                     for vals in itertools.product(*(range(e) for e in exts))]
            if f == "sum":
                return ctx.fsum(terms)
            if not terms:
                raise ReferenceError_(f"{f}() over an empty range")
            out = terms[0]
            for t in terms[1:]:
                out = (t if t > out else out) if f == "max" else (t if t < out else out) if f == "min" else out * t
            return out
        if f == "delta":
            i, j = (a.name for a in n.args)
            return ctx.of(1 if env[i] == env[j] else 0)
        if f == "size":
            l = n.args[0].name
            if l in scope:
                return ctx.of(scope[l])
            return ctx.of(self.stmt_ext.get(l, self.header_ext.get(l)))
        if f in _MATRIX:
            t, letters = self.prim(n)
            return ctx.of(t[tuple(env[l] for l in letters)])
        args = [self.ev(a, fixed, env, scope) for a in n.args]
        return _common(ctx, f, args)


def _det(f, m, ctx):
    """det or logdet of one matrix, exactly: fraction-free (Bareiss) elimination on the entries' binary values, so
    a singular matrix has det exactly 0 (and logdet -inf; a negative det has no real logdet: NaN), then rounded
    once. Entries that are not finite give NaN."""
    n = m.shape[0]
    if n == 0:
        return ctx.of(1) if f == "det" else ctx.of(0)
    if not all(ctx.finite(x) for x in m.flat):
        return ctx.nan
    # every entry as an integer times 2**shift: mantissas scaled to the smallest exponent
    parts = [_man_exp(x) for x in m.flat]
    shift = min(e for man, e in parts if man) if any(man for man, _ in parts) else 0
    top = max((e + abs(man).bit_length() for man, e in parts if man), default=0)
    if top - shift > _DET_SPAN_BITS:
        # only mpmath intermediates get here (float64 entries span fewer bits); their exact integers would be huge
        raise OutOfRange(f"{f}() of a matrix whose entries span more than float64's range")
    a = [[0] * n for _ in range(n)]
    for k, (man, e) in enumerate(parts):
        a[k // n][k % n] = man << (e - shift) if man else 0
    sign, prev = 1, 1
    for k in range(n - 1):
        if a[k][k] == 0:
            piv = next((r for r in range(k + 1, n) if a[r][k] != 0), None)
            if piv is None:
                d_int = 0
                break
            a[k], a[piv] = a[piv], a[k]
            sign = -sign
        for i in range(k + 1, n):
            for j in range(k + 1, n):
                a[i][j] = (a[i][j] * a[k][k] - a[i][k] * a[k][j]) // prev
        prev = a[k][k]
    else:
        d_int = a[n - 1][n - 1]
    d_int *= sign                      # det = d_int * 2**(n * shift), exactly
    if f == "logdet":
        if d_int <= 0:
            return ctx.of(-math.inf) if d_int == 0 else ctx.nan
        if ctx is _MP:
            return mpmath.log(d_int) + n * shift * mpmath.log(2)
        with mpmath.workdps(REFERENCE_DPS):
            return float(mpmath.log(d_int) + n * shift * mpmath.log(2))
    if ctx is _MP:
        return mpmath.ldexp(mpmath.mpf(d_int), n * shift)
    try:
        return float(fractions.Fraction(d_int) * fractions.Fraction(2) ** (n * shift))   # rounded once
    except OverflowError:
        return math.copysign(math.inf, d_int)


def _man_exp(x):
    """(mantissa, exponent) integers with x == mantissa * 2**exponent exactly."""
    if isinstance(x, mpmath.mpf):
        sign, man, e, _ = x._mpf_          # man_exp drops the sign
        return ((-1) ** sign * int(man), int(e)) if man else (0, 0)
    num, den = float(x).as_integer_ratio()
    return num, -(den.bit_length() - 1)


def _sym(m):
    return (m + m.T) / 2


def _matfun_mp(f, m):
    """f of one matrix of mpmath numbers, at the current working precision (see the module docstring)."""
    n = m.shape[0]
    if f == "expm":
        return np.array(mpmath.expm(mpmath.matrix(m.tolist())).tolist(), dtype=object).reshape(n, n)
    s = _sym(m)
    if f == "cholesky":
        return _cholesky(s)
    w, q = mpmath.eigsy(mpmath.matrix(s.tolist()))
    w = np.array([w[k] for k in range(n)], dtype=object)
    q = np.array(q.tolist(), dtype=object).reshape(n, n)
    if f == "eigvalsh":
        return w
    if f == "eigvecsh":
        for j in range(n):
            col = [abs(q[k, j]) for k in range(n)]
            k = col.index(max(col))        # the first component of largest absolute value
            if q[k, j] < 0:
                q[:, j] = -q[:, j]
        return q
    if f == "logm":
        if any(x <= 0 for x in w):
            return np.full((n, n), mpmath.mpf("nan"), dtype=object)
        fw = [mpmath.log(x) for x in w]
    else:                                  # sqrtm
        if any(x < 0 for x in w):
            return np.full((n, n), mpmath.mpf("nan"), dtype=object)
        fw = [mpmath.sqrt(x) for x in w]
    return np.array([[mpmath.fsum(q[i, k] * fw[k] * q[j, k] for k in range(n)) for j in range(n)]
                     for i in range(n)], dtype=object).reshape(n, n)


def _cholesky(s):
    """The lower factor L of s = L·Lᵀ (column by column); NaN where s is not positive definite."""
    n = s.shape[0]
    L = np.full((n, n), mpmath.mpf(0), dtype=object)
    for j in range(n):
        d = s[j, j] - mpmath.fsum(L[j, k] ** 2 for k in range(j))
        if not d > 0:
            return np.full((n, n), mpmath.mpf("nan"), dtype=object)
        L[j, j] = mpmath.sqrt(d)
        for i in range(j + 1, n):
            L[i, j] = (s[i, j] - mpmath.fsum(L[i, k] * L[j, k] for k in range(j))) / L[j, j]
    return L


def _union(a, b):
    return a + [x for x in b if x not in a]


# -- entry points ----------------------------------------------------------------------------------------------


def evaluate(rule: A.RuleDef, inputs, *, precision: str = "f64", dps: int = 40) -> dict:
    """Every tensor the rule assigns, from `inputs` (a dict by name, or a sequence in header order).

    precision 'f64': float64 with compensated sums; 'mp': mpmath at `dps` decimal digits. Arrays come back as
    float64 arrays ('f64') or object arrays of mpmath numbers ('mp'); rank-0 results are 0-d arrays.
    """
    if not isinstance(inputs, dict):
        inputs = {p.name: v for p, v in zip(rule.inputs, inputs)}
    if precision == "f64":
        ctx = _F64
    elif precision == "mp":
        ctx = _MP
    else:
        raise ValueError(f"precision must be 'f64' or 'mp', not {precision!r}")
    vals = {}
    # a rank-0 tensor (`x[]`) is subscripted, so it is held as a 0-d array whether given as one or as a number
    tensors = {p.name for p in rule.inputs if p.kind == "tensor"}
    for k, v in inputs.items():
        if isinstance(v, (int, np.integer)) and not isinstance(v, bool) and k not in tensors:
            vals[k] = int(v)
        elif np.ndim(v) == 0 and not isinstance(v, np.ndarray) and k not in tensors:
            vals[k] = ctx.of(float(v)) if ctx is _F64 else ctx.of(v)
        else:
            arr = np.asarray(v)
            conv = np.empty(arr.shape, dtype=object)
            for idx in np.ndindex(*arr.shape):
                x = arr[idx]
                x = x.item() if isinstance(x, np.generic) else x      # mpmath takes no NumPy scalars
                conv[idx] = ctx.of(float(x) if ctx is _F64 else x)
            vals[k] = conv
    given = set(vals)
    if ctx is _MP:
        with mpmath.workdps(dps):
            out = _Eval(rule, vals, ctx).run()
    else:
        out = _Eval(rule, vals, ctx).run()
    res = {}
    for k, v in out.items():
        if k in given:
            continue
        res[k] = np.array(v, dtype=float) if ctx is _F64 else v
    return res


def evaluate_text(text: str, inputs, **kw) -> dict:
    """evaluate() for rule text: one rule with a header, or bare statements (`y[] = x[i] * x[i]`)."""
    if parser.starts_with_header(text):
        rules = parser.parse_file(text).rules
        if len(rules) != 1:
            raise ValueError("evaluate_text takes exactly one rule")
        rule = rules[0]
    else:
        rule = parser.parse_statements(text)
    return evaluate(rule, inputs, **kw)
