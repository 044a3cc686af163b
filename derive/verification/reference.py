"""An independent reference evaluator of the rule language: a recursive walk over the syntax tree per element.

It reads the parsed rule (derive.language.ast), never the lowered IR, and follows docs/language.md
("Summation") directly, so tests and the verifier can hold the lowering and the generated code to the
documented meaning. Values are float64 with compensated sums (math.fsum), or mpmath numbers at a chosen
precision. A sum of a product is contracted factor by factor (_Contraction: a factor is pulled out of the sums
of letters it does not read, and every factor and partial sum is computed once per value of the letters it
reads), so its cost is that of a good einsum order, not the product of every index's extent. evaluate() computes
every entry; evaluate_sampled() computes each output whole within a work budget, else at random entries.

Matrix functions act on the last two axes of their argument, leading axes are batch axes (as in NumPy). det and logdet are
exact (rational elimination on the binary values), so a singular matrix has det 0 and logdet -inf. cholesky,
eigvalsh, eigvecsh, logm and sqrtm read their argument as the symmetric matrix (A + Aᵀ)/2 (the function whose
gradient is the symmetric one); eigenvalues ascend, each eigenvector column has its component of largest
absolute value positive (the first such component on a tie), and a matrix outside the domain (cholesky or logm
of one that is not positive definite, sqrtm of one with a negative eigenvalue) gives NaN. These and expm are
computed by mpmath at the working precision, in float64 mode at REFERENCE_DPS digits and then rounded.
"""
from __future__ import annotations

import contextlib
import dataclasses
import fractions
import itertools
import math
import time

import mpmath
import numpy as np

from derive.ir.names import leading_first
from derive.language import ast as A
from derive.language import parser
from primitives import elementwise

__all__ = ["evaluate", "evaluate_sampled", "evaluate_text", "ReferenceError_", "OutOfTime"]

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
            v = _whole(self.values[node.name])
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


class OutOfTime(RuntimeError):
    """The evaluation did not finish within its time budget (evaluate's `seconds`)."""


class _Lazy:
    """A statement's value, its entries computed on demand (and kept): a later statement or the caller reads
    only the entries it needs. Indexed by a tuple of positions, like an array."""

    def __init__(self, shape, entry):
        self.shape, self.ndim, self.size = shape, len(shape), math.prod(shape)
        self._entry, self.done = entry, {}

    def __getitem__(self, idx):
        v = self.done.get(idx)
        if v is None:
            if len(idx) != self.ndim or not all(0 <= i < n for i, n in zip(idx, self.shape)):
                raise IndexError(f"position {idx} outside shape {self.shape}")
            v = self.done[idx] = self._entry(idx)
        return v

    def item(self):
        return self[()]

    def whole(self):
        out = np.empty(self.shape, dtype=object)
        for idx in itertools.product(*(range(n) for n in self.shape)):
            out[idx] = self[idx]
        return out


def _whole(v):
    return v.whole() if isinstance(v, _Lazy) else np.asarray(v, dtype=object)


_GUESSED_EXTENT = 8           # a letter's extent for ordering a contraction, where the plan cannot see it


class _Item:
    """One factor of a contraction: a part of the product (`part`: (node, is_denominator)), or the sum over
    `letters` of the product of `children`. `keys`: the letters its value depends on; `memo`: its values by them."""

    def __init__(self, keys, part=None, letters=(), ranges=(), children=()):
        self.keys, self.part, self.letters, self.ranges, self.children = tuple(sorted(keys)), part, letters, \
            ranges, children
        self.memo: dict = {}


class _Contraction:
    """Sums of products contracted factor by factor (variable elimination, as opt_einsum orders a contraction):
    a factor that does not depend on a summed letter is pulled out of its sum, and every factor and partial sum
    is kept by the values of the letters it depends on, so that it is computed once per distinct value and not
    once per term. Statements are held lazily (_Lazy) and evaluated entry by entry under a work budget: every
    entry where the budget allows, at least `entries` random ones of an output where it does not. Mixed into
    _Eval."""

    def on_time(self):
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise OutOfTime(f"the reference evaluation ran out of its {self.budget:g} s")

    def state(self):
        return {k: getattr(self, k) for k in ("anon_letters", "tensor_cache", "stmt_ext", "fixed", "stmt_lo")} | \
            {"values": dict(self.values)}

    @contextlib.contextmanager
    def within(self, state):
        """Evaluate inside a statement's own letters and extents (a lazy entry read from a later statement)."""
        saved = self.state()
        saved["values"] = self.values
        for k, v in state.items():
            setattr(self, k, v)
        try:
            yield
        finally:
            for k, v in saved.items():
                setattr(self, k, v)

    def fill(self, lazy, name):
        """Compute the entries of a statement's value: all of them (in order) without a work limit; with one, in a
        random order until the statement has used `work_limit` steps and, for an output, `entries` are done."""
        order = itertools.product(*(range(n) for n in lazy.shape))
        if self.work_limit is None:
            for idx in order:
                lazy[idx]
            return lazy
        need = min(self.entries, lazy.size) if name in self.outputs else 0
        start, done = self.work, 0
        for flat in self.rng.permutation(lazy.size):
            if done >= need and self.work - start >= self.work_limit:
                break
            lazy[tuple(int(i) for i in np.unravel_index(flat, lazy.shape))]
            done += 1
        return lazy

    def _names(self, node):
        """Every letter node may read (over-approximated: letters it binds itself too)."""
        got = self.names.get(id(node))
        if got is None:
            got, stack = set(), [node]
            while stack:
                n = stack.pop()
                if isinstance(n, (A.Access, A.Subscript)):
                    got.update(_letters(n.indices))
                elif isinstance(n, A.Name) and n.name not in self.values:
                    got.add(n.name)
                stack += [v for v in vars(n).values() if isinstance(v, A.Node)]
                stack += [c for v in vars(n).values() if isinstance(v, (list, tuple)) for c in v
                          if isinstance(c, A.Node)]
            self.names[id(node)] = got = frozenset(got)
        return got

    def _plan(self, parts, letters, exts, scope):
        """The contraction's order: repeatedly sum out the letter whose partial sum depends on the fewest values,
        with every other letter only its factors read."""
        ext = dict(zip(letters, exts))
        size = lambda l: ext.get(l) or scope.get(l) or self.stmt_ext.get(l) or _GUESSED_EXTENT  # noqa: E731
        items = [_Item(self._names(p), part=(p, den)) for p, den in parts]
        deps = {id(it): set(it.keys) for it in items}
        left = list(letters)
        while left:
            best = None
            for k in left:
                group = [it for it in items if k in deps[id(it)]]
                gone = [l for l in left if all(it in group for it in items if l in deps[id(it)])]
                keep = set().union(*(deps[id(it)] for it in group)) - set(gone)
                cost = (math.prod(size(l) for l in keep), math.prod(ext[l] for l in gone))
                if best is None or cost < best[0]:
                    best = (cost, group, gone, keep)
            _, group, gone, keep = best
            node = _Item(keep, letters=tuple(gone), ranges=tuple(range(ext[l]) for l in gone), children=group)
            deps[id(node)] = keep
            items = [it for it in items if it not in group] + [node]
            left = [l for l in left if l not in gone]
        return items

    def contract(self, key, parts, sign, letters, exts, fixed, env, scope):
        """Σ over `letters` (extents `exts`) of sign · Π parts, contracted factor by factor."""
        if not all(exts):
            return self.ctx.fsum([])
        sc = dict(scope, **dict(zip(letters, exts)))
        plan = self.contractions.get(key)
        if plan is None:
            plan = self.contractions[key] = self._plan(parts, letters, exts, sc)
        v = self.ctx.of(sign)
        for it in plan:
            v = v * self._value(it, fixed, env, sc)
        return v

    def _value(self, it, fixed, env, sc):
        key = tuple(env.get(l) for l in it.keys)
        got = it.memo.get(key)
        if got is not None:
            return got
        ctx = self.ctx
        if it.part is not None:
            node, den = it.part
            got = self.ev(node, fixed, env, sc)
            if den:
                got = ctx.div(ctx.of(1), got)
        else:
            terms = []
            for vals in itertools.product(*it.ranges):
                self.work += 1
                e2 = dict(env)
                e2.update(zip(it.letters, vals))
                v = None
                for c in it.children:
                    x = self._value(c, fixed, e2, sc)
                    v = x if v is None else v * x
                terms.append(ctx.of(1) if v is None else v)
            got = ctx.fsum(terms)
        it.memo[key] = got
        return got


class _Eval(_MatrixFunctions, _Contraction):
    """One rule evaluated element by element: each statement's left side over its letters' extents, each
    expression by recursion on the syntax tree with the letters' values in an environment."""
    def __init__(self, rule: A.RuleDef, values: dict, ctx, budget=None):
        self.rule, self.ctx = rule, ctx
        self.values = values                  # name -> np.ndarray (object), _Lazy or a number
        self.plans: dict = {}                 # a product's reading, per node, fixed letters and extents
        self.contractions: dict = {}          # a contraction's order and kept values, per product
        self.names: dict = {}                 # the letters a node may read
        self.work = 0                         # expressions evaluated so far
        budget = budget or _Budget()
        self.work_limit, self.entries, self.budget = budget.work, budget.entries, budget.seconds
        self.deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        self.rng = np.random.default_rng(budget.seed)
        self.outputs = set(budget.outputs)
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
        self.on_time()
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
        sc = dict(zip(letters, shape))
        state = self.state()
        fixed = frozenset(letters)

        def entry(idx):
            with self.within(state):
                env = {l: v + self.stmt_lo.get(l, (0, 0))[0] for l, v in zip(letters, idx)}
                return self.ev(st.expr, fixed, env, sc)
        self.values[tgt.name] = self.fill(_Lazy(shape, entry), tgt.name)

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
        self.work += 1
        if not self.work & 1023:
            self.on_time()
        if isinstance(n, A.Num):
            return ctx.num(n.value)
        if isinstance(n, A.Name):
            if n.name not in self.values and n.name in env:      # an index compared: its position
                return ctx.of(env[n.name])
            if n.name == "inf" and n.name not in self.values:
                return ctx.num("inf")
            v = self.values[n.name]
            return ctx.of(v.item() if isinstance(v, (np.ndarray, _Lazy)) else v)
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

    def product_plan(self, key, n, fixed, scope):
        """(parts, sign, summed letters, their extents) of a product: its reading depends on the text and the
        extents, not on the values."""
        plan = self.plans.get(key)
        if plan is None:
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
        return plan

    def product(self, n, fixed, env, scope):
        """Einstein summation: an index in two parts of this product, not fixed, is summed over the product."""
        key = (id(n), fixed, tuple(sorted(scope.items())))
        parts, sign, summed, exts = self.product_plan(key, n, fixed, scope)
        if summed:
            return self.contract(key, parts, sign, summed, exts, fixed, env, scope)
        v = self.ctx.of(sign)
        for p, den in parts:
            x = self.ev(p, fixed, env, scope)
            v = self.ctx.div(v, x) if den else v * x
        return v

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
            if f == "sum" and _is_product(body):
                # one contraction over the sum's letters and the product's own summed ones
                key = (id(body), fixed | set(ks), tuple(sorted(sc.items())))
                parts, sign, inner, inner_exts = self.product_plan(key, body, fixed | set(ks), sc)
                return self.contract(key, parts, sign, ks + inner, exts + inner_exts, fixed | set(ks), env, scope)
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


@dataclasses.dataclass(frozen=True)
class _Budget:
    work: int | None = None       # expressions one statement may evaluate before its entries are sampled
    entries: int = 0              # the fewest entries of an output computed, whatever the work
    seed: int = 0                 # the random order entries are computed in
    seconds: float | None = None  # wall time for the whole evaluation (OutOfTime beyond it)
    outputs: tuple = ()           # the names `entries` applies to


def evaluate(rule: A.RuleDef, inputs, *, precision: str = "f64", dps: int = 40) -> dict:
    """Every tensor the rule assigns, from `inputs` (a dict by name, or a sequence in header order).

    precision 'f64': float64 with compensated sums; 'mp': mpmath at `dps` decimal digits. Arrays come back as
    float64 arrays ('f64') or object arrays of mpmath numbers ('mp'); rank-0 results are 0-d arrays.
    """
    out = _evaluate(rule, inputs, precision, dps, _Budget())
    return {k: (np.array(_whole(v), dtype=float) if precision == "f64" else _whole(v)) for k, v in out.items()}


def evaluate_sampled(rule: A.RuleDef, inputs, *, precision: str = "f64", dps: int = 40, work: int, entries: int,
                     seed: int = 0, seconds: float | None = None, outputs=None) -> dict:
    """The rule's outputs where a work budget reaches: {output: (values, computed)}, values an object array of
    numbers (None where not computed) and computed a bool array, or None where every entry was computed.

    Each statement's entries are computed in a random order (from `seed`) until it has evaluated `work`
    expressions, and at least `entries` of each output (all of a smaller one), so a rule whose every entry
    fits the budget is evaluated whole, exactly as evaluate() does, and a larger one at random entries. The
    count is of expressions, not of seconds, so which entries are computed does not depend on the machine.
    `seconds` bounds the whole evaluation's wall time (OutOfTime beyond it). `outputs`: the names to return
    (the rule's outputs by default)."""
    outputs = tuple(outputs if outputs is not None else (o.name for o in rule.outputs))
    budget = _Budget(work=work, entries=entries, seed=seed, seconds=seconds, outputs=outputs)
    out = _evaluate(rule, inputs, precision, dps, budget)
    res = {}
    for name in outputs:
        v = out[name]
        if not isinstance(v, _Lazy) or len(v.done) == v.size:
            res[name] = (_whole(v), None)
            continue
        vals, got = np.full(v.shape, None, dtype=object), np.zeros(v.shape, dtype=bool)
        for idx, x in v.done.items():
            vals[idx], got[idx] = x, True
        res[name] = (vals, got)
    return res


def _evaluate(rule, inputs, precision, dps, budget):
    """The rule's statement values (arrays or _Lazy), inputs excluded."""
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
            out = _Eval(rule, vals, ctx, budget).run()
    else:
        out = _Eval(rule, vals, ctx, budget).run()
    return {k: v for k, v in out.items() if k not in given}


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
