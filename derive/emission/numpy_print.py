"""Printing IR expressions as NumPy code: labelled-axis arrays, einsum/matmul contractions, elementwise bodies.

An `Emitter` turns a SymPy expression over tensor elements into statements of Python that use only
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

from derive.ir import masks
from derive.ir import nodes as ir
from derive.ir.masks import Iverson
from derive.ir.nodes import Extent, Idx, IndexSum
from derive.lowering import reductions, shifts

CHUNK_ELEMENTS = 1 << 22          # elements of the largest intermediate one slice holds (32 MB in float64)
# The generated module's global holding that budget: sliced passes read it when they run, so verification and
# tests can set it small and drive the very code that ships through its chunked path.
CHUNK_NAME = "_CHUNK_ELEMENTS"
# power nodes print through the spellings of these rows (x**0.5, x**y); every other function through ir.NODES
_SQRT, _POW = ir.ELEMENTWISE_ROW["sqrt"].numpy, ir.ELEMENTWISE_ROW["pow"].numpy

def spell(spelling, args):
    """A row's NumPy spelling (primitives.elementwise) applied to printed arguments: `np.name(a, b)`, or
    its template filled in."""
    if "{" in spelling:
        return spelling.format(*args)
    return f"np.{spelling}({', '.join(args)})"


def _of_extents(e):
    """True for a number built from extents only (size(d), 1/sqrt(size(d))): Python ints at run time."""
    ext = e.atoms(Extent)
    return bool(ext) and e.xreplace({x: sp.Integer(2) for x in ext}).is_number


def _divides_by_extents(e):
    """True for 1/size(b), size(d)**-0.5 and the like: a division by numbers an empty array makes 0."""
    return isinstance(e, sp.Pow) and e.exp.is_number and e.exp.is_negative and _of_extents(e.base)


def _float(x):
    """A Python float as code: repr for a finite one; np.inf and np.nan otherwise (repr gives `inf`, a name no
    generated module defines: exp(exp(exp(2))) overflows to it)."""
    x = float(x)
    if x != x:
        return "np.nan"
    if x in (float("inf"), float("-inf")):
        return "np.inf" if x > 0 else "(-np.inf)"
    return repr(x)


class _ScalarPrinter(NumPyPrinter):
    """Prints numbers the way our arrays want them (weak Python floats keep float32 arrays float32)."""

    def _print_Rational(self, e):
        return _float(float(e.p) / float(e.q))

    def _print_Integer(self, e):
        # a float literal: NumPy's scalar-array arithmetic is faster with a Python float than an int
        return f"{int(e)}.0"

    def _print_Float(self, e):
        return _float(e)

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
# A variable of the generated code is written into code as REF name REF: a node of the statement that `render`
# resolves once the whole function is emitted, when it knows every read. The byte is never in Python source
# we emit, and user text reaches code only through repr(), which escapes it.
REF = "\x1d"


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
            value = _paren(st.code()[len(REF + name + REF + " = "):])
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


class Emitter:
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
        if _is_simple(code):
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
            code = f"{_paren(code)}[{', '.join(key)}]"
        return code

    def to_axes(self, code, axes, target, shape_code=None):
        """Exactly the axes `target`, in order, broadcasting missing ones to full extent."""
        if tuple(axes) == tuple(target):
            return code
        code = self.align(code, axes, target)
        if set(axes) != set(target):
            shape = "(" + "".join(f"{self.extent_code(a)}, " for a in target) + ")"
            if not axes and _is_number(code):
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
                return _float(e), ()
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
        if isinstance(e, (ir.IndexReduce, ir.ProdExcept)):
            return reductions.emit_numpy(self, e)
        if isinstance(e, sp.Add):
            shifted = self.emit_shifted_add(e)
            if shifted is not None:
                return shifted
            args = sorted(e.args, key=lambda a: a.could_extract_minus_sign())
            signs, parts = [], []
            for a in args:
                neg = a.could_extract_minus_sign()
                signs.append(neg)
                parts.append(self.emit(-a if neg else a))
            axes = _union(p[1] for p in parts)
            if set(axes) == set(self.pref or ()):
                axes = self.order(axes)
            code = ""
            for k, ((c, ax), neg) in enumerate(zip(parts, signs)):
                c = self.align(c, ax, axes)
                if k == 0:
                    code = f"-{_paren(c)}" if neg else c
                else:
                    code += f" - {_paren(c)}" if neg else f" + {c}"
            return self.bind(e, f"({code})", axes)
        if isinstance(e, sp.Mul):
            return self.emit_product(e, list(e.args), (), e)
        if isinstance(e, sp.Pow):
            b, x = e.args
            if _divides_by_extents(e):
                return self.bind(e, self.reciprocal(1 / e), ())
            bc, bax = self.emit(b)
            if not bax and x.is_Number and x < 0 and not _is_number(bc):
                # a negative power of a number (a scalar parameter): 1 / s at s = 0 is inf through _div (see
                # _elementwise), not Python's ZeroDivisionError
                pc = bc if x == -1 else self.emit(sp.Pow(b, -x))[0]
                return self.bind(e, f"_div(1, {pc})", ())
            if x == sp.S.Half and _of_extents(b):
                # sqrt(size(d)): a Python float, as NumPy's float64 scalar would promote float32 arrays
                return self.bind(e, f"{_paren(bc)} ** 0.5", bax)
            if x == sp.S.Half:
                return self.bind(e, spell(_SQRT, [bc]), bax)
            if x == -sp.S.Half:
                return self.bind(e, f"(1 / {spell(_SQRT, [bc])})", bax)
            if x == -1:
                return self.bind(e, f"(1 / {_paren(bc)})", bax)
            if x == 2:
                return self.bind(e, f"({_paren(bc)} * {_paren(bc)})" if _is_simple(bc) else f"{_paren(bc)} ** 2", bax)
            if x.is_Integer and (3 <= abs(int(x)) <= 4 or x == -2) and _is_simple(bc) and not _is_number(bc):
                # NumPy's x ** 3 calls pow() per element (~80 ns, against 0.5 ns for x*x*x on 10^6 elements here);
                # only its ** 2, ** 0.5 and ** -1 have fast paths. A product of ≤ 4 rounds ≤ 3 times (+1 for 1/…).
                prod = " * ".join([_paren(bc)] * abs(int(x)))
                return self.bind(e, f"({prod})" if x > 0 else f"(1 / ({prod}))", bax)
            if x.is_Integer:
                return self.bind(e, f"{_paren(bc)} ** {int(x)}", bax)
            if x.is_Rational and x.is_Number:
                return self.bind(e, f"{_paren(bc)} ** {_num.doprint(x)}", bax)
            xc, xax = self.emit(x)
            axes = _union([bax, xax])
            return self.bind(e, spell(_POW, [_paren(self.align(bc, bax, axes)), _paren(self.align(xc, xax, axes))]),
                             axes)
        if e.is_Relational:
            a, b = (self.emit(x) for x in e.args)
            axes = self.order(_union([a[1], b[1]]))       # j <= i over (i, j) needs no transpose
            op = {"<": "<", "<=": "<=", ">": ">", ">=": ">=", "==": "==", "!=": "!="}[e.rel_op]
            return f"({self.align(a[0], a[1], axes)} {op} {self.align(b[0], b[1], axes)})", axes
        if isinstance(e, sp.Function):
            return self.emit_function(e)
        raise NotImplementedError(f"cannot print {type(e).__name__}: {e}")

    def reciprocal(self, d):
        """1 / d for d built from extents, through the generated module's `_recip`: inf, not a
        ZeroDivisionError, where an extent is 0, so that an empty mean is 0·inf = nan, as in NumPy."""
        parts = [self.emit(a)[0] for a in sp.Mul.make_args(d)]
        return f"_recip({' * '.join(_paren(c) for c in parts)})"

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
        key = ("lse", canonical_key(e)[0])
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
        if self.cache.get(("lse", canonical_key(e)[0])) is None:
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
        axes = _union([rax, lax])
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
        axes = _union(p[1] for p in parts)
        code = spell(row.numpy, [self.align(c, ax, axes) for c, ax in parts])
        if row.condition is not None and not any(ax for k, (_, ax) in enumerate(parts) if k != row.condition):
            # every value a constant (where(x > 0, 1, 0)): keep the working dtype (float32 stays float32)
            code = f"np.asarray({code}, dtype={self.dtype()})"
        elif len(e.args) == 1 and _of_extents(e.args[0]):
            code = f"float({code})"  # log(size(i)): a Python float keeps float32 arrays float32
        return self.bind(e, code, axes)

    # -- products and sums -------------------------------------------------------------------------------------
    def emit_sum(self, e):
        body, ks = e.body, list(e.indices)
        factors = list(body.args) if isinstance(body, sp.Mul) else [body]
        return self.emit_product(e, factors, ks, e)

    def emit_product(self, key, factors, summed, whole):
        """Π factors, summed over `summed`: elementwise where nothing is summed, else a contraction."""
        # exp(u)/Σexp(v) is recognised before factors are grouped by their indices: grouped with another
        # factor of the same indices (a cotangent dy), Σexp's reciprocal would hide inside a product
        factors = _stable_softmax(factors)
        scan = self.emit_scan(key, factors, summed) if summed else self.emit_masked(key, factors)
        if scan is not None:
            return scan
        if summed:
            # factors over the same indices multiply elementwise first (a cacheable subexpression)
            groups: dict = {}
            num = sp.S.One
            for f in factors:
                if f.is_number:
                    num *= f
                    continue
                k = frozenset(ir.free_indices(f, f.atoms(Idx)))
                groups.setdefault(k, []).append(f)
            if any(len(g) > 1 for g in groups.values()):
                factors = [num] + [sp.Mul(*g, evaluate=False) if len(g) > 1 else g[0] for g in groups.values()]
        num = sp.S.One
        ops, extents = [], []
        for f in factors:
            if f.is_number and f.is_real and f.is_finite:      # 0.5·√2·x prints as 0.7071067811865476·x
                num *= f
                continue
            if _divides_by_extents(f):          # 1/size(b)/size(o): one reciprocal of size(b)·size(o)
                extents.append(1 / f)
                continue
            if isinstance(f, sp.Pow) and f.exp == -1 and not summed:
                ops.append(("div", self.emit(f.base)))
            else:
                ops.append(("mul", self.emit(f)))
        if extents:
            recip = self.reciprocal(sp.Mul(*extents))
            if not ops and num == 1 and not summed:
                return self.bind(key, recip, ())
            ops.insert(0, ("mul", (recip, ())))
        all_axes = _union(o[1][1] for o in ops)
        if not summed and set(all_axes) == set(self.pref or ()):
            all_axes = self.order(all_axes)
        out_axes = tuple(a for a in all_axes if a not in summed)
        if set(out_axes) == set(self.pref or ()):
            out_axes = self.order(out_axes)
        missing = [k for k in summed if k not in all_axes]
        if not summed or not any(k in all_axes for k in summed):
            code = self._elementwise(num, ops, all_axes)
            for k in missing:
                code = f"{self.extent_code(k)} * {_paren(code)}"
            return self.bind(key, code, all_axes)
        # fold elementwise factors that share all their axes with another factor into it first
        mats = [o[1] for o in ops]
        code = self.contract(mats, out_axes, summed)
        if num != 1:
            code = f"{_numstr(num)} * {_paren(code)}" if num != -1 else f"-{_paren(code)}"
        for k in missing:
            code = f"{self.extent_code(k)} * {_paren(code)}"
        return self.bind(key, code, out_axes, "c")

    def emit_scan(self, key, factors, summed):
        """Σ_k [k ≤ i]·g[k]·h[i] (or <, ≥, >) as h · cumsum(g) along k (derive/ir/masks.py): O(N), where the mask
        as an array would be N×N. None when the product holds no such scan."""
        free = lambda f: ir.free_indices(f, f.atoms(Idx))      # noqa: E731
        form = masks.cumsum_form(factors, list(summed), free)
        if form is None:
            return None
        bracket, k, i, reverse, inclusive = form
        g = [f for f in factors if f is not bracket and k in free(f)]
        rest = [f for f in factors if f is not bracket and k not in free(f)]
        gm = sp.Mul(*g)
        gc, gax = self.emit_product(gm, g, (), gm) if len(g) > 1 else self.emit(g[0])
        lead = tuple(a for a in gax if a != k)
        gc = self.to_axes(gc, gax, lead + (k,))
        shape = "(" + "".join(f"{self.extent_code(a)}, " for a in lead) + "1,)"
        zeros = f"np.zeros({shape}, dtype={self.dtype()})"
        scanned = IndexSum(bracket * gm, (k,))          # its value, under its own key, for the rest
        self.bind(scanned, masks.scan_code(_paren(gc), reverse, inclusive, zeros), lead + (i,), "cs")
        left = tuple(s for s in summed if s != k)
        return self.emit_product(key, [scanned] + rest, left, key)

    def emit_masked(self, key, factors):
        """[c]·r as np.where(c, r, 0): r's value where c fails never reaches the result (where(j <= i, 1/A[i,j],
        0) is 0 above the diagonal even where A is 0 there, as the where the text wrote)."""
        brackets = [f for f in factors if isinstance(f, Iverson)]
        if not brackets or len(brackets) == len(factors):
            return None
        rest = [f for f in factors if not isinstance(f, Iverson)]
        cond = brackets[0].cond if len(brackets) == 1 else sp.And(*[b.cond for b in brackets])
        rm = sp.Mul(*rest)
        rc, rax = self.emit_product(rm, rest, (), rm) if len(rest) > 1 else self.emit(rest[0])
        conds = [self.emit(b.cond) for b in brackets]
        axes = self.order(_union([rax] + [ax for _, ax in conds]))
        cc = " & ".join(_paren(self.align(c, ax, axes)) for c, ax in conds)
        code = f"np.where({cc}, {self.align(rc, rax, axes)}, 0.0)"
        if not rax:
            # a value from no array (1/√d): np.where would make the mask float64 and promote a float32 product
            code = f"np.asarray({code}, dtype={self.dtype()})"
        if set(axes) != set(rax) or not rax:
            code = self.to_axes(code, axes, axes)
        return self.bind(key, code, axes, "w")

    def _elementwise(self, num, ops, axes):
        parts = []
        if num == -1:
            # -(c · X) costs two passes over X, (-c) · X one: put the sign on a scalar factor where there is one
            k = next((k for k, (_, (_, ax)) in enumerate(ops) if not ax), None)
            if k is not None and any(ax for _, (_, ax) in ops):
                kind, (code, ax) = ops[k]
                neg = f"-{_paren(code)}" if kind == "mul" else f"_div(-1, {code})"
                ops = [("mul", (neg, ax))] + ops[:k] + ops[k + 1:]
                num = sp.S.One
        # left to right as Python evaluates it; while everything so far is a number (a scalar parameter s), a
        # division goes through the module's _div: 1 / s at s = 0 is inf, as NumPy's scalars give, not Python's
        # ZeroDivisionError (the outcome would depend on whether native kernels ran)
        scalar = True
        for kind, (code, ax) in ops:
            c = self.align(code, ax, axes)
            if kind == "div" and scalar and not ax:
                left = " ".join(parts) if parts else "1"
                left = left[2:] if left.startswith("* ") else left
                parts = [f"_div({left}, {c})"]
                continue
            parts.append(("/ " if kind == "div" else "* ") + _paren(c))
            scalar = scalar and not ax
        if not parts:
            return _numstr(num)
        if parts[0].startswith("/"):
            parts.insert(0, "1")
        elif parts[0].startswith("* "):
            parts[0] = parts[0][2:]
        code = " ".join(parts)
        if num == -1:
            code = f"-{_paren(code)}"
        elif num != 1:
            code = f"{_numstr(num)} * {code}"
        return f"({code})"

    def contract(self, operands, out_axes, summed):
        """Contract labelled operands: pairwise, in an order opt_einsum picks once at generation time."""
        operands = [(c, tuple(a)) for c, a in operands]
        # merge operands with identical axes elementwise first (cheap, and shrinks the contraction)
        merged: dict = {}
        for c, a in operands:
            key = frozenset(a)
            if key in merged and a:
                mc, ma = merged[key]
                merged[key] = (f"({mc} * {self.align(c, a, ma)})", ma)
            else:
                merged[key if a else (key, len(merged))] = (c, a)
        operands = list(merged.values())
        scalars = [c for c, a in operands if not a]
        operands = [(c, a) for c, a in operands if a]
        while len(operands) > 2:
            i, j = _best_pair(operands, out_axes, self.big_ext)
            a, b = operands[i], operands[j]
            rest = [o for k, o in enumerate(operands) if k not in (i, j)]
            keep = set(out_axes) | {x for _, ax in rest for x in ax}
            axes = tuple(x for x in _union([a[1], b[1]]) if x in keep)
            operands = rest + [(self._shared_pair(self._pair(a, b, axes)), axes)]
        if len(operands) == 2:
            code = self._pair(operands[0], operands[1], out_axes)
            code = self.cache.get(("pair", code), code)
        elif len(operands) == 1:
            c, a = operands[0]
            code = self._reduce(c, a, out_axes)
        else:
            code = "1.0"
        for s in scalars:
            code = f"{_paren(s)} * {_paren(code)}"
        return code

    def _shared_pair(self, code):
        """A variable holding one intermediate pairwise contraction. The same one often recurs in several
        inputs' cotangents (Σ_i dy_i K_ij inside the y cotangent of a kernel sum, and as the whole b cotangent)
        where the canonical keys of the enclosing products differ; its code text names the value exactly, so
        later contractions with the same text reuse the variable."""
        v = self.cache.get(("pair", code))
        if v is None:
            v = self.tmp("c")
            self.line(f"{v} = {code}")
            self.cache[("pair", code)] = v
        return v

    def _reduce(self, code, axes, out_axes):
        summed = [k for k, a in enumerate(axes) if a not in out_axes]
        kept = [a for a in axes if a in out_axes]
        if summed:
            code = f"np.sum({code}, axis={tuple(summed) if len(summed) > 1 else summed[0]})"
        return self.to_axes(code, tuple(kept), out_axes)

    def _solve(self, inv, other, out_axes):
        """A⁻¹·v or A⁻ᵀ·v through np.linalg.solve when A⁻¹ is a known inverse: no explicit inverse needed."""
        (ci, xi), (cv, xv) = inv, other
        if len(xi) != 2 or not 1 <= len(xv) <= 2:
            return None
        shared = [x for x in xi if x in xv and x not in out_axes]
        if len(shared) != 1 or xi[0] == xi[1]:
            return None
        k = shared[0]
        mat = self.inverse_of[ci]
        if xi[1] == k:
            row, A = xi[0], mat
        else:
            row, A = xi[1], f"np.transpose({mat})"
        rest = tuple(x for x in xv if x != k)
        v = cv if xv[0] == k else f"np.transpose({cv})"
        code, axes = f"np.linalg.solve({A}, {v})", (row,) + rest
        if mat in self.factor_of:      # solve with A's factorisation, computed once (runtime/primitives/_factor)
            tr = ", trans=True" if A != mat else ""
            code = f"np.prim.solve.factored({self.factor_of[mat]}, {v}{tr})"
        if set(axes) != set(out_axes):
            return None
        return self.to_axes(code, axes, tuple(out_axes))

    def _pair(self, a, b, out_axes):
        (ca, xa), (cb, xb) = a, b
        for inv, other in ((a, b), (b, a)):
            if inv[0] in self.inverse_of:
                code = self._solve(inv, other, out_axes)
                if code is not None:
                    return code
        # an axis only one operand has and the result lacks is summed in that operand first: fewer flops, and
        # Σ_a u[a]·v[b] becomes np.sum(u) * v, a broadcast product instead of an einsum over a,b
        for which in (0, 1):
            c, x = (ca, xa) if which == 0 else (cb, xb)
            other = xb if which == 0 else xa
            private = [a for a in x if a not in other and a not in out_axes]
            if private:
                kept = tuple(a for a in x if a not in private)
                c = self._reduce(c, x, kept)
                ca, xa = (c, kept) if which == 0 else (ca, xa)
                cb, xb = (c, kept) if which == 1 else (cb, xb)
        if not xa or not xb:
            c, x, s_ = (cb, xb, ca) if not xa else (ca, xa, cb)
            return f"{_paren(s_)} * {_paren(self._reduce(c, x, tuple(out_axes)))}" if x else \
                self.to_axes(f"{_paren(ca)} * {_paren(cb)}", (), tuple(out_axes))
        shared = [x for x in xa if x in xb and x not in out_axes]
        if not shared and set(xa) | set(xb) == set(out_axes):
            # nothing summed: a broadcast product beats einsum's generic loop
            return f"{_paren(self.align(ca, xa, out_axes))} * {_paren(self.align(cb, xb, out_axes))}"
        # plain matrix (and vector) products go to BLAS through `@`
        if len(shared) == 1 and len(xa) <= 2 and len(xb) <= 2 and len(set(xa) | set(xb)) == len(xa) + len(xb) - 1:
            k = shared[0]
            ra = tuple(x for x in xa if x != k)
            rb = tuple(x for x in xb if x != k)
            order = None
            if ra + rb == tuple(out_axes):
                order = ((ca, xa), (cb, xb))
            elif rb + ra == tuple(out_axes):
                order = ((cb, xb), (ca, xa))
            if order:
                (lc, lx), (rc, rx) = order
                left = lc if len(lx) == 1 or lx[-1] == k else f"np.transpose({lc})"
                right = rc if len(rx) == 1 or rx[0] == k else f"np.transpose({rc})"
                return f"{_paren(left)} @ {_paren(right)}"
        letters: dict = {}
        la = "".join(letters.setdefault(x, string.ascii_letters[len(letters)]) for x in xa)
        lb = "".join(letters.setdefault(x, string.ascii_letters[len(letters)]) for x in xb)
        missing = [x for x in out_axes if x not in letters]
        lo = "".join(letters.get(x, "") for x in out_axes if x in letters)
        opt = ", optimize=True" if shared else ""
        code = f'np.einsum("{la},{lb}->{lo}", {ca}, {cb}{opt})'
        if missing:
            code = self.to_axes(code, tuple(x for x in out_axes if x in letters), out_axes)
        return code


def _numstr(x):
    """A numeric factor as a Python literal (floats keep float32 arrays float32)."""
    if x.is_Integer:
        return f"{int(x)}.0"
    return _float(x)


def _is_sum_of_exp(x):
    return isinstance(x, IndexSum) and isinstance(x.body, sp.exp)


def _is_lse(x):
    return isinstance(x, sp.log) and _is_sum_of_exp(x.args[0])


def _stable_softmax(factors):
    """exp(u)·(Σ exp(v))⁻¹ -> exp(u - log Σ exp(v)), which emit_logsumexp evaluates without overflow."""
    dens = [f for f in factors if isinstance(f, sp.Pow) and f.exp == -1 and _is_sum_of_exp(f.base)]
    nums = [f for f in factors if isinstance(f, sp.exp)]
    if len(dens) != 1 or not nums:
        return factors
    d, n = dens[0], nums[0]
    out = [f for f in factors if f is not d and f is not n]
    out.append(sp.exp(sp.Add(n.args[0], -sp.log(d.base, evaluate=False), evaluate=False), evaluate=False))
    return out


@functools.lru_cache(maxsize=4096)
def canonical_key(e):
    """e with its free indices renamed by order of first appearance, and that renaming (do not mutate it).

    Cached: every bound expression is looked up and then bound, and rebuilding it re-runs SymPy's
    evaluation of each function in it (a third of the emitter's time on a long program)."""
    free = ir.free_indices(e, e.atoms(Idx))
    m = {s: Idx(f"_a{k}", s.ext) for k, s in enumerate(free)}
    return e.xreplace(m), m


def _best_pair(operands, out_axes, big_ext=frozenset()):
    """The pair to contract first.

    Usually opt_einsum's greedy choice at a nominal size of 64 per index. Inside a sliced kernel body
    (`big_ext`: the extent classes of the sliced N×M intermediate) the pair whose result is smallest, then
    cheapest: b[j]·K[i,j]·y[j,d] must contract b with y (an M×D array), not build a second N×M one, and every
    FLOP-based or memory-removed score ties those two at any nominal sizes."""
    if big_ext:
        def size(axes):
            n = 1
            for x in axes:
                n *= 4096 if getattr(x, "ext", None) in big_ext else 8
            return n

        def score(ij):
            (_, xa), (_, xb) = operands[ij[0]], operands[ij[1]]
            keep = set(out_axes) | {x for k, (_, ax) in enumerate(operands) if k not in ij for x in ax}
            both = _union([xa, xb])
            return size([x for x in both if x in keep]), size(both)

        return min(itertools.combinations(range(len(operands)), 2), key=score)
    import opt_einsum

    letters: dict = {}
    specs = ["".join(letters.setdefault(x, opt_einsum.get_symbol(len(letters))) for x in ax) for _, ax in operands]
    out = "".join(letters[x] for x in out_axes if x in letters)
    shapes = [(64,) * len(s) for s in specs]
    path, _ = opt_einsum.contract_path(",".join(specs) + "->" + out, *shapes, shapes=True, optimize="greedy")
    i, j = path[0]
    return (i, j) if i < j else (j, i)


def _union(axes_lists):
    out: list = []
    for ax in axes_lists:
        for a in ax:
            if a not in out:
                out.append(a)
    return tuple(out)


def _is_simple(code):
    return code.replace("_", "").replace(".", "").replace(REF, "").isalnum() or _is_number(code)


def _is_number(code):
    try:
        float(code)
        return True
    except ValueError:
        return False


def _paren(code):
    if _is_simple(code) or (code.startswith("(") and _balanced_outer(code)):
        return code
    if code.startswith(("np.", "_recip(")) and code.endswith(")") and _balanced_call(code):
        return code
    return f"({code})"


def _balanced_outer(code):
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
    return _balanced_outer(code[start:])
