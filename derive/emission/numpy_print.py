"""Printing IR expressions as NumPy code: labelled-axis arrays, einsum/matmul contractions, elementwise bodies.

An `Emitter` (its products and contractions planned in numpy_contract, its code text in numpy_text) turns a
SymPy expression over tensor elements into statements of Python that use only
`np.<name>`, operators and slicing (so the same code runs on the runtime's traced namespace), sharing repeated
subexpressions within one function. `render` prints a function's statements: the variables in them are
references it resolves (see `ref`), so it knows every read of each without reading the text back.
"""
from __future__ import annotations

import collections
import functools
import itertools
import string

import sympy as sp
from sympy.printing.numpy import NumPyPrinter

from derive.calculus.differential import canon_bound
from derive.emission.numpy_contract import Contractions, is_sum_of_exp
from derive.emission.numpy_direct import CheckedSum, emit_checked
from derive.emission.numpy_text import (
    CHUNK_NAME,
    REF,
    divides_by_extents,
    float_literal,
    is_number,
    is_simple,
    of_extents,
    paren,
    union,
)
from derive.ir import nodes as ir
from derive.ir.masks import Iverson
from derive.ir.nodes import Extent, Idx, IndexSum
from derive.lowering import reductions, shifts

CHUNK_ELEMENTS = 1 << 22          # elements of the largest intermediate one slice holds (32 MB in float64)
# power nodes print through the spellings of these rows (x**0.5, x**y); every other function through ir.NODES
_SQRT, _POW = ir.ELEMENTWISE_ROW["sqrt"].numpy, ir.ELEMENTWISE_ROW["pow"].numpy

def spell(spelling, args):
    """A row's NumPy spelling (primitives.elementwise) applied to printed arguments: `np.name(a, b)`, or
    its template filled in."""
    if "{" in spelling:
        return spelling.format(*args)
    return f"np.{spelling}({', '.join(args)})"


class _ScalarPrinter(NumPyPrinter):
    """Prints numbers the way our arrays want them (weak Python floats keep float32 arrays float32)."""

    def _print_Rational(self, e):
        return float_literal(float(e.p) / float(e.q))

    def _print_Integer(self, e):
        # a float literal: NumPy's scalar-array arithmetic is faster with a Python float than an int
        return f"{int(e)}.0"

    def _print_Float(self, e):
        return float_literal(e)

    def _print_Infinity(self, e):
        return "np.inf"

    def _print_NegativeInfinity(self, e):
        return "(-np.inf)"

    def _print_Pi(self, e):
        return "3.141592653589793"

    def _print_Exp1(self, e):
        return "2.718281828459045"


_num = _ScalarPrinter()


# -- statements and the variables in them ----------------------------------------------------------------------
def ref(name):
    """The reference to a variable `name`, to be written into code in place of the name."""
    return f"{REF}{name}{REF}"


def name_of(reference):
    """The name a reference (see `ref`) stands for."""
    if not (len(reference) > 2 and reference[0] == reference[-1] == REF and reference.count(REF) == 2):
        raise ValueError(f"not a variable reference: {reference!r}")
    return reference[1:-1]


class Stmt:
    """One statement of a function body: its indentation and its code as alternating text and variable names
    (`parts[1::2]` are the names). `once` is False for a statement that evaluates its parts repeatedly or
    later (a loop, a comprehension, a def): a value folded into one would be recomputed."""

    __slots__ = ("indent", "parts", "once")

    def __init__(self, indent, code, once=True):
        if "\n" in code:
            raise ValueError(f"one statement per Stmt: {code!r}")
        self.indent = indent
        self.parts = code.split(REF)
        self.once = once
        if len(self.parts) % 2 != 1:
            raise ValueError(f"unbalanced variable reference in {code!r}")

    @classmethod
    def of(cls, line, once=True):
        """A statement from an indented line of code."""
        body = line.lstrip(" ")
        return cls(line[:len(line) - len(body)], body, once)

    @property
    def target(self):
        """The variable a plain `v = ...` statement assigns, else None."""
        p = self.parts
        return p[1] if len(p) >= 3 and p[0] == "" and p[2].startswith(" = ") else None

    def reads(self):
        """Names of the variables the statement reads, once per occurrence (an assignment's target is none)."""
        names = self.parts[1::2]
        return names[1:] if self.target is not None else names

    def code(self):
        """The code with its references still in (what folding substitutes into another statement)."""
        return REF.join(self.parts)

    def deeper(self, extra):
        return Stmt(extra + self.indent, self.code(), self.once)

    def text(self):
        return self.indent + "".join(self.parts)


FOLD_WIDTH = 240  # past this a folded statement is left as named steps: a reader is better served by them


def render(lines, foldable=frozenset(), droppable=()):
    """The source of a function from its statements (Stmt, or lines of code that may hold references).

    Two decisions need every read of a variable, so they are taken here, on the statements, once the
    function is whole:
    - an assignment to a `droppable` variable (an auxiliary inverse, a factorisation, a temporary) that
      nothing reads is left out, and what only it read may then be left out in turn;
    - a `foldable` temporary assigned once and read once, by the very next statement of its block, is folded
      into that statement. NumPy reuses the buffer of an operand that is a temporary of the same expression
      (temporary elision, arrays over 256 KB), never of a named variable; so `np.exp(-(1/s * (a + b + c)))`
      on one line allocates one N×M array where five named steps allocated five. Safe because such
      temporaries are assigned once and their expressions are pure: moving one past nothing (to the very
      next statement) cannot change its value."""
    stmts = []
    for x in lines:
        stmts.extend([x] if isinstance(x, Stmt) else [Stmt.of(line) for line in x.split("\n")])
    defs, uses = collections.Counter(), collections.Counter()
    for st in stmts:
        if st.target is not None:
            defs[st.target] += 1
        uses.update(st.reads())
    where = {st.target: k for k, st in enumerate(stmts) if st.target is not None}
    dropped, changed = set(), True
    while changed:                         # until what dropped values alone read is dropped too
        changed = False
        for name in droppable:
            k = where.get(name)
            if k is not None and k not in dropped and defs[name] == 1 and uses[name] == 0:
                dropped.add(k)
                uses.subtract(stmts[k].reads())
                changed = True
    stmts = [st for k, st in enumerate(stmts) if k not in dropped]
    k = 0
    while k < len(stmts) - 1:
        st, nxt = stmts[k], stmts[k + 1]
        name = st.target
        if (name in foldable and defs[name] == 1 and uses[name] == 1 and nxt.once
                and nxt.indent == st.indent and name in nxt.reads()):
            value = paren(st.code()[len(REF + name + REF + " = "):])
            own = 1 if nxt.target is not None else None      # an assignment's own target stays
            code = "".join(p if j % 2 == 0 else value if p == name and j != own else ref(p)
                           for j, p in enumerate(nxt.parts))
            merged = Stmt(nxt.indent, code, nxt.once)
            if len(merged.text()) <= FOLD_WIDTH:
                stmts[k + 1] = merged
                del stmts[k]
                k = max(k - 1, 0)          # the statement before may now feed the merged one
                continue
        k += 1
    return "\n".join(st.text() for st in stmts)


class Temporaries:
    """Names of the temporaries one function's emitters make, all distinct; `made` is the set of them (what
    `render` may fold)."""

    def __init__(self):
        self._count = itertools.count()
        self.made: set = set()

    def new(self, hint):
        name = f"_{hint}{next(self._count)}"
        self.made.add(name)
        return name


class Emitter(Contractions):
    """Emits code for one Python function body; `names` maps tensor names to Python expressions."""

    def __init__(self, names, extent_code, indent="    ", counter=None, cache=None):
        self.names = names                    # tensor name -> python variable
        self.extent_code = extent_code        # Idx -> python expression for its extent
        self.lines: list[Stmt] = []
        self.indent = indent
        self.counter = counter if counter is not None else Temporaries()
        self.cache = dict(cache or {})        # sympy expr -> (var, axes)
        self.dtype_src = None                 # a python expression with the working dtype
        self.pref = ()                        # preferred axis order (the output's)
        self.inverse_of = {}                  # variable holding A⁻¹ -> variable holding A (unbatched)
        self.factor_of = {}                   # variable holding A -> variable holding its shared factorisation
        self.big_ext = frozenset()            # extent classes known to be large (a sliced kernel's i and j)
        self.axis_classes = {}                # tensor name -> extent class of each axis (shifted reads)

    # -- utilities -------------------------------------------------------------------------------------------
    def nested(self):
        """An emitter for a block one level deeper (a guarded `if`, a thunk): it sees this one's shared
        subexpressions, and what it computes stays inside the block."""
        sub = Emitter(dict(self.names), self.extent_code, self.indent + "    ", self.counter, self.cache)
        sub.dtype_src, sub.inverse_of, sub.pref = self.dtype_src, self.inverse_of, self.pref
        sub.factor_of = self.factor_of
        sub.big_ext = self.big_ext
        sub.axis_classes = self.axis_classes
        return sub

    def line(self, s, once=True):
        """Append a statement (once=False: a loop, comprehension or def, see Stmt)."""
        self.lines.append(Stmt(self.indent, s, once))

    def tmp(self, hint="e"):
        """A fresh temporary: a reference (see `ref`), named when the function is rendered."""
        return ref(self.counter.new(hint))

    def bind(self, expr, code, axes, hint="e"):
        """Assign code to a fresh variable and remember it for expr (under its canonical key)."""
        if is_simple(code):
            return code, axes
        v = self.tmp(hint)
        self.line(f"{v} = {code}")
        key, m = canonical_key(expr)
        if all(a in m for a in axes):
            self.cache[key] = (v, tuple(m[a] for a in axes))
        return v, axes

    def lookup(self, e):
        key, m = canonical_key(e)
        hit = self.cache.get(key)
        if hit is None:
            return None
        inv = {c: s for s, c in m.items()}
        return hit[0], tuple(inv[a] for a in hit[1])

    def order(self, axes):
        """Union axes in the preferred order (the statement's output order first), so results need no transpose."""
        pref = self.pref or ()
        return tuple(sorted(axes, key=lambda a: (pref.index(a) if a in pref else len(pref), axes.index(a))))

    # -- alignment -------------------------------------------------------------------------------------------
    @staticmethod
    def align(code, axes, target):
        """View `code` (with `axes`) so it broadcasts against an array with axes `target` (a superset)."""
        if not axes:
            return code
        order = [a for a in target if a in axes]
        if list(axes) != order:
            perm = [axes.index(a) for a in order]
            code = f"np.transpose({code}, {tuple(perm)})"
        present = [a in axes for a in target]
        # drop trailing axes: broadcasting adds leading ones by itself
        first = present.index(True)
        key = ["None" if not p else ":" for p in present[first:]]
        while key and key[-1] == ":":
            key.pop()
        if key and any(k == "None" for k in key):
            code = f"{paren(code)}[{', '.join(key)}]"
        return code

    def to_axes(self, code, axes, target, shape_code=None):
        """Exactly the axes `target`, in order, broadcasting missing ones to full extent."""
        if tuple(axes) == tuple(target):
            return code
        code = self.align(code, axes, target)
        if set(axes) != set(target):
            shape = "(" + "".join(f"{self.extent_code(a)}, " for a in target) + ")"
            if not axes and is_number(code):
                # a constant (terms that cancelled, x[i] - x[i]): in the working dtype, float32 stays float32
                return f"np.full({shape}, {code}, dtype={self.dtype()})"
            code = f"np.broadcast_to({code}, {shape})"
        return code

    # -- expressions -----------------------------------------------------------------------------------------
    def emit(self, e):
        """(code, axes) for e; axes lists the index symbols of the result's dimensions, in order."""
        if e.args and not ir.is_access(e):
            hit = self.lookup(e)
            if hit is not None:
                return hit
        if e.is_Number or isinstance(e, sp.NumberSymbol):
            return _num.doprint(e), ()
        if e.is_number:      # a constant such as 2/sqrt(pi): a Python float keeps float32 arrays float32
            try:
                return float_literal(e), ()
            except (TypeError, ValueError):
                pass             # e.g. relu(0): print it as a call
        if isinstance(e, Extent):
            return self.extent_code(e.args[0]), ()
        if isinstance(e, Idx):            # an index compared (derive/ir/masks.py): its positions
            return self.bind(e, f"np.arange({self.extent_code(e)})", (e,), "r")
        if isinstance(e, Iverson):
            c, axes = self.emit(e.cond)
            return self.bind(e, f"np.asarray({c}, dtype={self.dtype()})", axes, "mask")
        if ir.is_access(e):
            return self.emit_access(e)
        if isinstance(e, sp.KroneckerDelta):
            i, j = e.args
            if not (isinstance(i, ir.Idx) and isinstance(j, ir.Idx)) or i.ext != j.ext:
                raise NotImplementedError(f"a Kronecker delta at a shifted position is a scatter (derive.lowering.shifts): {e}")
            code = f"np.eye({self.extent_code(i)}, dtype={self.dtype()})"
            return self.bind(e, code, (i, j), "d")
        if isinstance(e, IndexSum):
            return self.emit_sum(e)
        if isinstance(e, CheckedSum):
            return emit_checked(self, e)
        if isinstance(e, (ir.IndexReduce, ir.ProdExcept)):
            return reductions.emit_numpy(self, e)
        if isinstance(e, sp.Add):
            return self.emit_add(e)
        if isinstance(e, sp.Mul):
            return self.emit_product(e, list(e.args), (), e)
        if isinstance(e, sp.Pow):
            return self.emit_pow(e)
        if e.is_Relational:
            a, b = (self.emit(x) for x in e.args)
            axes = self.order(union([a[1], b[1]]))       # j <= i over (i, j) needs no transpose
            op = {"<": "<", "<=": "<=", ">": ">", ">=": ">=", "==": "==", "!=": "!="}[e.rel_op]
            return f"({self.align(a[0], a[1], axes)} {op} {self.align(b[0], b[1], axes)})", axes
        if isinstance(e, sp.Function):
            return self.emit_function(e)
        raise NotImplementedError(f"cannot print {type(e).__name__}: {e}")

    def emit_add(self, e):
        """A sum: its terms aligned to their union of axes (the statement's order where they span it)."""
        shifted = self.emit_shifted_add(e)
        if shifted is not None:
            return shifted
        args = sorted(e.args, key=lambda a: a.could_extract_minus_sign())
        signs, parts = [], []
        for a in args:
            neg = a.could_extract_minus_sign()
            signs.append(neg)
            parts.append(self.emit(-a if neg else a))
        axes = union(p[1] for p in parts)
        if set(axes) == set(self.pref or ()):
            axes = self.order(axes)
        code = ""
        for k, ((c, ax), neg) in enumerate(zip(parts, signs)):
            c = self.align(c, ax, axes)
            if k == 0:
                code = f"-{paren(c)}" if neg else c
            else:
                code += f" - {paren(c)}" if neg else f" + {c}"
        return self.bind(e, f"({code})", axes)

    def emit_pow(self, e):
        """A power: the fast NumPy spellings of small integer and half powers, 1 / x as a division."""
        b, x = e.args
        if divides_by_extents(e):
            return self.bind(e, self.reciprocal(1 / e), ())
        bc, bax = self.emit(b)
        if not bax and x.is_Number and x < 0 and not is_number(bc):
            # a negative power of a number (a scalar parameter): 1 / s at s = 0 is inf through _div (see
            # _elementwise), not Python's ZeroDivisionError
            pc = bc if x == -1 else self.emit(sp.Pow(b, -x))[0]
            return self.bind(e, f"_div(1, {pc})", ())
        if x == sp.S.Half and of_extents(b):
            # sqrt(size(d)): a Python float, as NumPy's float64 scalar would promote float32 arrays
            return self.bind(e, f"{paren(bc)} ** 0.5", bax)
        if x == sp.S.Half:
            return self.bind(e, spell(_SQRT, [bc]), bax)
        if x == -sp.S.Half:
            return self.bind(e, f"(1 / {spell(_SQRT, [bc])})", bax)
        if x == -1:
            return self.bind(e, f"(1 / {paren(bc)})", bax)
        if x == 2:
            return self.bind(e, f"({paren(bc)} * {paren(bc)})" if is_simple(bc) else f"{paren(bc)} ** 2", bax)
        if x.is_Integer and (3 <= abs(int(x)) <= 4 or x == -2) and is_simple(bc) and not is_number(bc):
            # NumPy's x ** 3 calls pow() per element (~80 ns, against 0.5 ns for x*x*x on 10^6 elements here);
            # only its ** 2, ** 0.5 and ** -1 have fast paths. A product of ≤ 4 rounds ≤ 3 times (+1 for 1/…).
            prod = " * ".join([paren(bc)] * abs(int(x)))
            return self.bind(e, f"({prod})" if x > 0 else f"(1 / ({prod}))", bax)
        if x.is_Integer:
            return self.bind(e, f"{paren(bc)} ** {int(x)}", bax)
        if x.is_Rational and x.is_Number:
            return self.bind(e, f"{paren(bc)} ** {_num.doprint(x)}", bax)
        xc, xax = self.emit(x)
        axes = union([bax, xax])
        return self.bind(e, spell(_POW, [paren(self.align(bc, bax, axes)), paren(self.align(xc, xax, axes))]),
                         axes)

    def reciprocal(self, d):
        """1 / d for d built from extents, through the generated module's `_recip`: inf, not a
        ZeroDivisionError, where an extent is 0, so that an empty mean is 0·inf = nan, as in NumPy."""
        parts = [self.emit(a)[0] for a in sp.Mul.make_args(d)]
        return f"_recip({' * '.join(paren(c) for c in parts)})"

    def dtype(self):
        return f"np.result_type({self.dtype_src})" if self.dtype_src else "float"

    def emit_access(self, e):
        name = self.names[ir.acc_name(e)]
        idx = list(e.args)
        if shifts.is_affine_access(e, self.axis_classes.get(ir.acc_name(e).split(":", 1)[-1])):
            # x[2*i+k]: a read-only strided view with one axis per index, contracted like any tensor
            axes, spec = shifts.window_spec(e)
            shape = "(" + "".join(f"{self.extent_code(a)}, " for a in axes) + ")"
            return self.bind(e, f"np.shift_window({name}, {spec!r}, {shape})", axes, "v")
        if len(set(idx)) == len(idx):
            return name, tuple(idx)
        # repeated indices: the diagonal
        letters = {}
        spec = "".join(letters.setdefault(s, string.ascii_letters[len(letters)]) for s in idx)
        out = "".join(letters[s] for s in dict.fromkeys(idx))
        return self.bind(e, f'np.einsum("{spec}->{out}", {name})', tuple(dict.fromkeys(idx)), "g")

    def _lse_parts(self, e):
        """log(Σ_k exp(u)) as two variables: the maximum m over k and log Σ_k exp(u - m), each over the
        free axes (None when the sum is not over u's own axes). Their sum is the log-sum-exp; kept apart, a
        caller can subtract m from a term of the same size first (x - lse), which is exact, and the small
        log Σ after: adding m to the log Σ first would round away the low bits of the result."""
        key = _lse_key(e)
        s = e.args[0]
        u = s.body.args[0]
        uc, uax = self.emit(u)
        ks = [k for k in s.indices if k in uax]
        if len(ks) != len(s.indices):
            return None
        hit = self.cache.get(key)
        if hit is not None:
            _, m = canonical_key(e)
            inv = {c: x for x, c in m.items()}
            ls, mo, axes = hit
            return ls, mo, tuple(inv[a] for a in axes)
        pos = tuple(uax.index(k) for k in ks)
        ax = pos[0] if len(pos) == 1 else pos
        m = self.tmp("m")
        # an infinite maximum (all -inf, or some +inf) shifts by 0 instead: -inf - (-inf) would be NaN; an
        # empty sum shifts by 0 too (log 0 = -inf, as NumPy's log(sum(exp(x))) is). One namespace call
        # (runtime.backend_numpy.lse_shift), so each namespace spells it its cheapest way (torch: amax and
        # one nan_to_num instead of isfinite and where, ~4 µs less on small tensors)
        self.line(f"{m} = np.lse_shift({uc}, axis={ax})")
        out_axes = tuple(a for a in uax if a not in ks)
        ls, mo = self.tmp("ls"), self.tmp("m")
        if not out_axes:
            self.line(f"{ls} = np.log(np.sum(np.exp({uc} - {m})))")
            self.line(f"{mo} = np.sum({m})")
        else:
            self.line(f"{ls} = np.log(np.sum(np.exp({uc} - {m}), axis={ax}))")
            self.line(f"{mo} = np.sum({m}, axis={ax})")
        _, cm = canonical_key(e)
        if all(a in cm for a in out_axes):
            self.cache[key] = (ls, mo, tuple(cm[a] for a in out_axes))
        return ls, mo, out_axes

    def emit_logsumexp(self, e):
        """log(Σ_k exp(u)) without overflow: shift by the maximum over k first. Whole (not split into its
        parts for a caller, see emit_shifted_add), it is one namespace call, np.logsumexp(u, axis), which each
        namespace spells as it computes it best (runtime.backend_numpy: _lse_parts's lines; torch: its one
        torch.logsumexp, the same shifted sum, against seven ops); parts already computed are reused."""
        if self.cache.get(_lse_key(e)) is None:
            s = e.args[0]
            uc, uax = self.emit(s.body.args[0])
            if all(k in uax for k in s.indices):
                pos = tuple(uax.index(k) for k in s.indices)
                out_axes = tuple(a for a in uax if a not in s.indices)
                return self.bind(e, f"np.logsumexp({uc}, axis={pos[0] if len(pos) == 1 else pos})", out_axes)
        parts = self._lse_parts(e)
        if parts is None:
            return None
        ls, mo, out_axes = parts
        return self.bind(e, f"{ls} + {mo}", out_axes)

    def emit_shifted_add(self, e):
        """rest ± log Σ_k exp(u) as (rest ± m) ± log Σ_k exp(u - m), m the maximum: softmax's x_i - lse is
        x_i - m, exact where x_i is near m, minus a number in [0, log n]; x_i - (m + log Σ) would lose
        the low bits of x_i - m to the rounding of m + log Σ (6 % at 1e15 in float64, 2e-4 at 1e4 in
        float32). None when e has no such term."""
        lses = [(a, s) for a in e.args for s in (1, -1) if _is_lse(s * a)]
        if len(lses) != 1:
            return None
        a, sgn = lses[0]
        parts = self._lse_parts(sgn * a)
        if parts is None:
            return None
        ls, mo, lax = parts
        rest = sp.Add(*[x for x in e.args if x is not a])
        rc, rax = self.emit(rest)
        axes = union([rax, lax])
        if set(axes) == set(self.pref or ()):
            axes = self.order(axes)
        op = "+" if sgn == 1 else "-"
        code = (f"(({self.align(rc, rax, axes)} {op} {self.align(mo, lax, axes)}) "
                f"{op} {self.align(ls, lax, axes)})")
        return self.bind(e, code, axes)

    def emit_function(self, e):
        fname = type(e).__name__
        if (fname == "log" and isinstance(e.args[0], IndexSum) and isinstance(e.args[0].body, sp.exp)):
            out = self.emit_logsumexp(e)
            if out is not None:
                return out
        if fname == "log" and isinstance(e.args[0], ir.sigmoid):
            # log σ(u) = -softplus(-u): finite far into the left tail, where σ(u) underflows to 0
            return self.emit(-ir.softplus(-e.args[0].args[0]))
        row = ir.NODES.get(fname)
        if row is None:
            raise NotImplementedError(f"no NumPy spelling for {fname}")
        parts = [self.emit(a) for a in e.args]
        axes = union(p[1] for p in parts)
        code = spell(row.numpy, [self.align(c, ax, axes) for c, ax in parts])
        if row.condition is not None and not any(ax for k, (_, ax) in enumerate(parts) if k != row.condition):
            # every value a constant (where(x > 0, 1, 0)): keep the working dtype (float32 stays float32)
            code = f"np.asarray({code}, dtype={self.dtype()})"
        elif len(e.args) == 1 and of_extents(e.args[0]):
            code = f"float({code})"  # log(size(i)): a Python float keeps float32 arrays float32
        return self.bind(e, code, axes)

    # -- products and sums -------------------------------------------------------------------------------------
    def emit_sum(self, e):
        body, ks = e.body, list(e.indices)
        factors = list(body.args) if isinstance(body, sp.Mul) else [body]
        return self.emit_product(e, factors, ks, e)

def _lse_key(e):
    """The cache key of a log-sum-exp's parts: equal for equal sums whatever their summed indices are called (the
    pullback's softmax exp(z)/Σ exp(z) reuses the parts of the forward's lse, calculus.logsumexp)."""
    return ("lse", canonical_key(canon_bound(e))[0])


def _is_lse(x):
    return isinstance(x, sp.log) and is_sum_of_exp(x.args[0])


@functools.lru_cache(maxsize=4096)
def canonical_key(e):
    """e with its free indices renamed by order of first appearance, and that renaming (do not mutate it).

    Cached: every bound expression is looked up and then bound, and rebuilding it re-runs SymPy's
    evaluation of each function in it (a third of the emitter's time on a long program)."""
    free = ir.free_indices(e, e.atoms(Idx))
    m = {s: Idx(f"_a{k}", s.ext) for k, s in enumerate(free)}
    return e.xreplace(m), m
