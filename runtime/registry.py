"""Registry of primitives: generated ops (from `generated/` and `define`) and user functions with rules.

`export_ops` turns a generated module's `_define` and `OPS` into checked public functions that dispatch on
argument type: plain NumPy -> the generated code directly; traced values -> recorded on the innermost trace;
GPU arrays (`.gpudata`) -> runtime.cuda. `rrule` / `frule` are the generic entry points (ChainRules' names).
"""
from __future__ import annotations

import importlib
import os
import sys

import numpy as np

from runtime import backend_numpy, batching, native, tnp
from runtime.forward import ForwardTrace, jvp
from runtime.rule_info import RuleInfo
from runtime.tangents import NoTangent, Thunk, ZeroTangent, is_zero, unthunk
from runtime.tape import is_differentiable, vjp
from runtime.tracer import Primitive, Traced, contains_traced, shape_of, top_trace

_ZERO = ZeroTangent()
_NO = NoTangent()
_PLAIN = frozenset((np.ndarray, float, int, np.float64, np.float32))

_OPS: dict = {}  # name and "module:name" -> Op
_CUSTOM: dict = {}  # original python function -> CustomOp


# --------------------------------------------------------------------------- argument checks
def signature_text(name, meta):
    sig = meta.get("signature")
    if sig:
        return sig
    def fmt(p):
        idx = p.get("indices") or []
        return p["name"] + (f"[{','.join(idx)}]" if idx else "")
    ins = ", ".join(fmt(p) for p in meta["inputs"])
    outs = ", ".join(fmt(p) for p in meta["outputs"])
    return f"{name}({ins}) -> {outs}"


def make_checker(name, meta):
    """A function args -> None raising ValueError that names the op, the index and both extents."""
    specs = [(pos, p["name"], tuple(p.get("indices") or ()), p.get("kind", "tensor"))
             for pos, p in enumerate(meta["inputs"])]
    ints = [(pos, argname) for pos, argname, _, kind in specs if kind == "int"]
    specs = [s for s in specs if s[3] != "int"]
    shapes = batching.checker(name, meta, _make_shape_checker(name, meta, specs))
    if not ints:
        return shapes

    def check(args, label=name):
        for pos, argname in ints:
            v = args[pos]
            if type(v) is not int:
                _check_int(label, argname, v)
        shapes(args, label)
    return check


def _check_int(label, argname, v):
    if isinstance(v, Traced):
        raise TypeError(f"{label}: {argname} is an integer parameter and has no derivative; it cannot be a traced "
                        f"value (pass a plain int)")
    if isinstance(v, (bool, np.bool_)) or not (isinstance(v, (int, np.integer)) or (
            isinstance(v, np.ndarray) and v.ndim == 0 and v.dtype.kind in "iu")):
        raise TypeError(f"{label}: {argname} must be an int (an integer parameter) but got "
                        f"{type(v).__name__} {v!r}")


def _make_shape_checker(name, meta, specs):
    equal = [tuple(g) for g in meta.get("equal_extents") or ()]
    batch = set(meta.get("batch_indices") or ())
    fixed = {k: int(v) for k, v in (meta.get("extents") or {}).items()}    # x[i:3] in the signature
    if meta.get("elementwise"):
        return _make_elementwise_checker(name, specs)

    def check(args, label=name):
        ext = {}
        for pos, argname, idx, kind in specs:
            shp = shape_of(args[pos])
            if len(shp) != len(idx):
                optional = sum(1 for i in idx if i in batch)
                if not (len(idx) - optional <= len(shp) <= len(idx)):
                    what = "be a scalar" if not idx else f"have {len(idx)} ax{'is' if len(idx) == 1 else 'es'} [{', '.join(idx)}]"
                    raise ValueError(f"{label}: {argname} must {what} but has shape {tuple(shp)}")
            for ax, (letter, n) in enumerate(zip(idx, shp)):
                prev = ext.get(letter)
                if prev is None:
                    ext[letter] = (n, argname, ax)
                elif prev[0] != n:
                    raise ValueError(f"{label}: index {letter} has extent {prev[0]} in {prev[1]} (axis {prev[2]}) "
                                     f"but {n} in {argname} (axis {ax})")
        for letter, n in fixed.items():
            if letter in ext and ext[letter][0] != n:
                got, argname, ax = ext[letter]
                raise ValueError(f"{label}: index {letter} is declared with extent {n} but has extent {got} in "
                                 f"{argname} (axis {ax})")
        for group in equal:
            seen = [(i, ext[i]) for i in group if i in ext]
            for i, e in seen[1:]:
                i0, e0 = seen[0]
                if e[0] != e0[0]:
                    raise ValueError(f"{label}: indices {i0} and {i} must have equal extents, but {i0} has extent "
                                     f"{e0[0]} in {e0[1]} (axis {e0[2]}) and {i} has extent {e[0]} in {e[1]} "
                                     f"(axis {e[2]})")
    return _compile_fast_check(name, specs, equal, batch, check, fixed)


def _py_signature(meta):
    """help(op) shows `inv(A)`, not `inv(*args, **kw)`: the inputs' names, which are identifiers."""
    import inspect

    try:
        return inspect.Signature([inspect.Parameter(p["name"], inspect.Parameter.POSITIONAL_OR_KEYWORD)
                                  for p in meta["inputs"]])
    except (ValueError, TypeError, KeyError):
        return None


def no_check(args, label=None):
    pass


def _make_elementwise_checker(name, specs):
    """OPS entry with "elementwise": true: tensors may have any shape, but all the same one; scalars are 0-d."""
    tensors = [(pos, argname) for pos, argname, idx, kind in specs if idx]
    scalars = [(pos, argname) for pos, argname, idx, kind in specs if not idx]
    if not scalars and len(tensors) <= 1:
        return no_check  # one tensor of any shape: nothing can mismatch

    def check(args, label=name):
        for pos, argname in scalars:
            shp = shape_of(args[pos])
            if shp != ():
                raise ValueError(f"{label}: {argname} must be a scalar but has shape {tuple(shp)}")
        if len(tensors) > 1:
            p0, n0 = tensors[0]
            s0 = shape_of(args[p0])
            for pos, argname in tensors[1:]:
                shp = shape_of(args[pos])
                if shp != s0:
                    raise ValueError(f"{label}: {argname} has shape {tuple(shp)} but {n0} has shape {tuple(s0)} "
                                     f"(elementwise op: all tensor arguments have the same shape)")
    return check


def _compile_fast_check(name, specs, equal, batch, slow, fixed=None):
    """The common case (all shapes fine) as one straight-line boolean test; anything odd goes to `slow`,
    which either passes or raises the precise message."""
    lines, conds, first = [], [], {}
    for pos, _, idx, kind in specs:
        if any(i in batch for i in idx):
            return slow
        default = "()" if not idx else "None"
        lines.append(f"    s{pos} = getattr(args[{pos}], 'shape', {default})")
        if idx:
            conds.append(f"s{pos} is None or len(s{pos}) != {len(idx)}")
        else:
            conds.append(f"len(s{pos}) != 0")
        for ax, letter in enumerate(idx):
            here = f"s{pos}[{ax}]"
            if letter in first:
                conds.append(f"{here} != {first[letter]}")
            else:
                first[letter] = here
    for group in equal:
        refs = [first[i] for i in group if i in first]
        conds += [f"{r} != {refs[0]}" for r in refs[1:]]
    conds += [f"{first[i]} != {int(n)}" for i, n in (fixed or {}).items() if i in first]
    if not conds:
        return slow
    src = ("def check(args, label=_name):\n" + "\n".join(lines) + "\n    if (" + ") or (".join(conds)
           + "):\n        _slow(args, label)\n")
    namespace = {"_slow": slow, "_name": name}
    exec(compile(src, f"<shape check for {name}>", "exec"), namespace)
    return namespace["check"]


def arity_error(label, meta, sig, got):
    names = ", ".join(p["name"] for p in meta["inputs"])
    n = len(meta["inputs"])
    return TypeError(f"{label}: expected {n} argument{'s' if n != 1 else ''} ({names}) but got {got}; "
                     f"signature: {sig}")


def _check_shapes(what, triples):
    """(name, tangent, value) triples: each non-zero tangent has its value's shape, else a ValueError
    '<what> d<name> has shape ... but <name> has shape ...'."""
    for name, t, v in triples:
        t = unthunk(t)
        if not is_zero(t) and shape_of(t) != shape_of(v):
            raise ValueError(f"{what} d{name} has shape {shape_of(t)} but {name} has shape {shape_of(v)}")


_UNSET = object()  # a parameter bind_arguments has not filled yet


def bind_arguments(label, meta, sig, args, kw):
    """Positional arguments from a call that names some by keyword (`matmul(A=a, B=b)`), or a TypeError
    naming the op and its signature."""
    names = [p["name"] for p in meta["inputs"]]
    if len(args) > len(names):
        raise arity_error(label, meta, sig, len(args) + len(kw))
    out = list(args) + [_UNSET] * (len(names) - len(args))
    for k, v in kw.items():
        if k not in names:
            raise TypeError(f"{label}: unexpected keyword argument {k!r}; signature: {sig}")
        i = names.index(k)
        if out[i] is not _UNSET:
            raise TypeError(f"{label}: got argument {k!r} twice (by position and by keyword); signature: {sig}")
        out[i] = v
    missing = [nm for nm, v in zip(names, out) if v is _UNSET]
    if missing:
        raise TypeError(f"{label}: missing argument{'s' if len(missing) > 1 else ''} {', '.join(missing)}; "
                        f"signature: {sig}")
    return tuple(out)


def _cuda_dispatch(module_name, opname, args):
    try:
        cuda = importlib.import_module("runtime.cuda")
    except ImportError as exc:
        raise RuntimeError(f"{opname}: got a GPU array (it has .gpudata) but runtime.cuda is unavailable: "
                           f"{exc}") from exc
    return cuda.dispatch(module_name, opname, args)


def _kind_of(args):
    """0: plain NumPy / Python numbers, 1: traced, 2: GPU array."""
    kind = 0
    for a in args:
        if type(a) in _PLAIN:
            continue
        if isinstance(a, Traced):
            return 1
        if hasattr(a, "gpudata"):
            kind = 2
    return kind


def _floats(args, pos):
    """args with each integer or bool value at a differentiable position (`pos`: not an `n: int` parameter) as
    float64, as np.exp(an integer array) is: generated code computes in floating point, and NumPy refuses some
    of its operations on integers (x ** -2; a maximum that starts at -inf). Float arrays pass as they are; a list
    or tuple of numbers becomes an array, as a NumPy function takes it (every op, every path behind this entry:
    native kernels, leading batch axes, the generated code)."""
    out = None
    for k in pos:
        a = args[k]
        t = type(a)
        if t is list or t is tuple:
            a = _array_of(a)
            if a is None:
                continue
        elif t is np.ndarray or isinstance(a, np.generic):
            if a.dtype.kind not in "biu":
                continue
            a = np.asarray(a, dtype=np.float64)
        elif t is int or t is bool:
            a = float(a)
        else:
            continue
        if out is None:
            out = list(args)
        out[k] = a
    return args if out is None else tuple(out)


def _array_of(values):
    """A list or tuple of numbers (nested) as a float array (float64 unless they are float32), or None where it
    holds anything else (a traced value, a GPU array): that is left to whoever reads it."""
    try:
        a = np.asarray(values)
    except ValueError:    # ragged: left as it is, for the shape check to refuse
        return None
    if a.dtype.kind in "biu":
        return a.astype(np.float64)
    return a if a.dtype.kind == "f" else None


def _listed(v):
    """A tangent or cotangent given as a list of numbers, as an array (see _array_of); anything else as it is."""
    if type(v) is list:
        a = _array_of(v)
        return v if a is None else a
    return v


# --------------------------------------------------------------------------- generated ops
class _ModuleImpls:
    """The functions of one generated module, for the plain namespace (eager) and the traced one (lazy)."""

    def __init__(self, module_name, define, OPS):
        self.module_name = module_name
        self.define = define
        self.OPS = OPS
        plain = define(backend_numpy)
        module = sys.modules.get(module_name)
        if module is not None:       # ops worth native CPU kernels run through them when they can (runtime.native)
            plain = native.wrap(module, plain)
        self.plain = batching.wrap(plain, OPS, backend_numpy)
        self._traced = None

    @property
    def traced(self):
        if self._traced is None:
            self._traced = batching.wrap(self.define(tnp), self.OPS, tnp)
        return self._traced


class Op(Primitive):
    """A generated (or `define`d) op: callable like its forward function, with `.frule` / `.rrule`."""

    def __init__(self, module_name, name, meta, impls, record=None):
        self.name = name
        self.rule = RuleInfo(record) if record else None   # its derivation and proof (runtime.rule_info)
        self.module_name = module_name
        self.meta = meta
        self.signature = signature_text(name, meta)
        self.source = meta.get("source", "")
        self.inputs = meta["inputs"]
        self.outputs = meta["outputs"]
        self.n_in = len(meta["inputs"])
        self.multi = len(meta["outputs"]) > 1
        self._impls = impls
        self.fun = impls.plain[name]
        self._np_frule = impls.plain[name + "_frule"]
        self._np_rrule = impls.plain[name + "_rrule"]
        self.check = make_checker(name, meta)
        self._float_pos = tuple(k for k, p in enumerate(self.inputs) if p.get("kind") != "int")
        self.forward = self._make_forward()
        self.__doc__ = self.forward.__doc__   # a define()d op's help() shows its signature, domains and comment
        self.frule = self._make_frule()
        self.rrule = self._make_rrule()

    def __call__(self, *args):
        return self.forward(*args)

    def __repr__(self):
        return f"<op {self.signature} from {self.source or self.module_name}>"

    def traced_impl(self, suffix=""):
        return self._impls.traced[self.name + suffix]

    # --- public, checked entry points -------------------------------------------------------------
    def _make_forward(self):
        n, check, impl, name, sig, meta, mod = self.n_in, self.check, self.fun, self.name, self.signature, self.meta, \
            self.module_name
        fpos = self._float_pos
        op = self

        def forward(*args, **kw):
            if kw:
                args = bind_arguments(name, meta, sig, args, kw)
            if len(args) != n:
                raise arity_error(name, meta, sig, len(args))
            if check is not no_check:
                check(args)
            args = _floats(args, fpos)
            top = None
            for a in args:  # inline of _kind_of + top_trace: this loop runs once per op call
                if type(a) in _PLAIN:
                    continue
                if isinstance(a, Traced):
                    if top is None or a._trace.level > top.level:
                        top = a._trace
                elif top is None and hasattr(a, "gpudata"):
                    return _cuda_dispatch(mod, name, args)
            if top is None:
                return impl(*args)
            return top.apply(op, args, {})

        forward.__name__ = forward.__qualname__ = name
        forward.__module__ = mod
        forward.__signature__ = _py_signature(meta)
        source = f"Generated from {self.source}." if self.source else ""
        forward.__doc__ = "\n\n".join(part for part in (sig, meta.get("doc"), source) if part)
        if self.rule is not None:    # help(op): the derivation, the formulas and how they were verified
            forward.__doc__ += "\n\n" + "\n".join(self.rule.lines(header=False))
        forward.op = self
        forward.rule = self.rule
        return forward

    def _check_tangents(self, label, tangents, args):
        if len(tangents) != self.n_in + 1:
            raise TypeError(f"{label}: expected {self.n_in + 1} tangents (d_self, "
                            f"{', '.join('d' + p['name'] for p in self.inputs)}) but got {len(tangents)}")
        _check_shapes(f"{label}: tangent", ((p["name"], t, a) for p, t, a in zip(self.inputs, tangents[1:], args)
                                            if p.get("kind") != "int"))

    def _check_cotangent(self, label, dy, y):
        """The cotangent handed to a public pullback has the output's shape (one per output for several):
        a wrong one would broadcast into a wrong-shaped gradient, or fail deep inside NumPy."""
        if self.multi:
            names = [o["name"] for o in self.outputs]
            if is_zero(dy):
                return
            if not isinstance(dy, (tuple, list)) or len(dy) != len(names):
                raise TypeError(f"{label} pullback: expected a tuple of {len(names)} cotangents "
                                f"({', '.join('d' + o for o in names)}) but got {type(dy).__name__}")
            pairs = zip(names, dy, y)
        else:
            pairs = ((self.outputs[0]["name"], dy, y),)
        _check_shapes(f"{label} pullback: cotangent", pairs)

    def _make_frule(self):
        n, check, name, sig, meta, mod = self.n_in, self.check, self.name, self.signature, self.meta, self.module_name
        label = name + "_frule"
        op = self

        def frule(tangents, *args, **kw):
            if kw:
                args = bind_arguments(label, meta, sig, args, kw)
            if len(args) != n:
                raise arity_error(label, meta, sig, len(args))
            check(args, label)
            op._check_tangents(label, tangents, args)
            args = _floats(args, op._float_pos)
            tangents = tuple(_listed(unthunk(t)) for t in tangents)
            kind = _kind_of(args + tangents)
            if kind == 0:
                return op._np_frule(tangents, *args)
            if kind == 1:
                return op.traced_impl("_frule")(tangents, *args)
            return _cuda_dispatch(mod, label, (tangents,) + args)

        frule.__name__ = frule.__qualname__ = label
        frule.__module__ = mod
        frule.op = self
        frule.rule = self.rule
        return frule

    def _make_rrule(self):
        n, check, name, sig, meta, mod = self.n_in, self.check, self.name, self.signature, self.meta, self.module_name
        label = name + "_rrule"
        op = self

        def rrule(*args, **kw):
            if kw:
                args = bind_arguments(label, meta, sig, args, kw)
            if len(args) != n:
                raise arity_error(label, meta, sig, len(args))
            check(args, label)
            args = _floats(args, op._float_pos)
            kind = _kind_of(args)
            if kind == 0:
                y, pb = op._np_rrule(*args)
            elif kind == 1:
                y, pb = op.traced_impl("_rrule")(*args)
            else:
                return _cuda_dispatch(mod, label, args)

            def pullback(dy):
                op._check_cotangent(label, dy, y)
                return pb(tuple(_listed(d) for d in dy) if op.multi and not is_zero(dy) else _listed(dy))

            pullback.__name__ = pullback.__qualname__ = name + "_pullback"
            return y, pullback

        rrule.__name__ = rrule.__qualname__ = label
        rrule.__module__ = mod
        rrule.op = self
        rrule.rule = self.rule
        return rrule

    # --- the tracer's interface (args already checked by the public function) ----------------------
    def rrule_impl(self, vals, kwargs, argnums):
        vals = _floats(tuple(vals), self._float_pos)
        nested = False  # a value traced at an outer level: the pullback must be traced too
        for v in vals:
            if type(v) not in _PLAIN and contains_traced(v):
                nested = True
                break
        ans, pullback = self.traced_impl("_rrule")(*vals) if nested else self._np_rrule(*vals)

        def pullback_for_trace(g):
            if not nested and type(g) not in _PLAIN and contains_traced(g):
                # plain primals but a traced cotangent (it depends on an outer trace): use the traced rule
                _, pb = self.traced_impl("_rrule")(*vals)
                cots = pb(g)
            else:
                cots = pullback(g)
            if len(argnums) == 1:
                c = cots[argnums[0] + 1]
                return (c.unthunk() if type(c) is Thunk else c,)
            return [unthunk(cots[i + 1]) if type(cots[i + 1]) is Thunk else cots[i + 1] for i in argnums]

        return ans, pullback_for_trace

    def frule_impl(self, vals, tans, kwargs):
        vals = _floats(tuple(vals), self._float_pos)
        tangents = (_NO,) + tuple(_NO if p.get("kind") == "int" else t for p, t in zip(self.inputs, tans))
        if contains_traced(vals) or contains_traced(tangents):
            return self.traced_impl("_frule")(tangents, *vals)
        return self._np_frule(tangents, *vals)


# derive-rules (derive.cli.JOURNAL) keeps this file in an output directory while it switches the directory's files
SWAP_JOURNAL = ".derive-rules-swap"


def _refuse_half_switched(module_name):
    """A generated module beside a swap journal may belong to a set that is only half switched (a derive-rules run
    was killed, or is switching right now): importing it could mix old and new modules, so it fails instead."""
    path = getattr(sys.modules.get(module_name), "__file__", None)
    if path and os.path.lexists(os.path.join(os.path.dirname(path), SWAP_JOURNAL)):
        raise ImportError(f"{os.path.dirname(path)} is half-updated: a derive-rules run was stopped while switching "
                          f"its files (or is switching them now); run derive-rules again to finish")


def export_ops(module_name, OPS, define, RULES=None):
    """Public functions `<op>`, `<op>_frule`, `<op>_rrule` for each op of a generated module; registers them.
    RULES (derive.display.record): each op's derivation and proof, shown by `op.rule` and `help(op)`."""
    _refuse_half_switched(module_name)
    impls = _ModuleImpls(module_name, define, OPS)
    public = {}
    for name, meta in OPS.items():
        op = Op(module_name, name, meta, impls, (RULES or {}).get(name))
        _OPS[name] = op
        _OPS[f"{module_name}:{name}"] = op
        public[name] = op.forward
        public[name + "_frule"] = op.frule
        public[name + "_rrule"] = op.rrule
    return public


# The shipped library: generated output that imports this registry and registers its ops into it when imported.
# It sits above the runtime, so the runtime finds it by name, as a plugin, never by a static import.
SHIPPED = "generated"


def shipped_package():
    """The shipped library's package, imported on first need (which registers its ops)."""
    return importlib.import_module(SHIPPED)


def lookup(opname):
    """The op registered under `opname` ("matmul" or "generated.linalg:matmul"); the shipped library
    (`generated`) is imported on first need, so a name resolves without importing it yourself."""
    try:
        return _OPS[opname]
    except KeyError:
        if SHIPPED not in sys.modules:
            shipped_package()       # registers the shipped ops
            return lookup(opname)
        import difflib
        names = sorted(k for k in _OPS if ":" not in k)
        close = difflib.get_close_matches(opname, names, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else (f"; known: {', '.join(names)}" if names else "")
        raise KeyError(f"no op named {opname!r}{hint}") from None


def names():
    """The plain names of the registered ops (not their "module:name" keys)."""
    return [k for k in _OPS if ":" not in k]


def shipped(opname):
    """The registry Op of the shipped op `opname` (rules/*.rules, in `generated`). Unlike `lookup`, never a rule of
    the same name a program defined, whichever was imported or defined first. KeyError (with the nearest names)
    if there is none."""
    import difflib

    names = []
    for m in shipped_package().MODULES:
        ops = importlib.import_module(f"{SHIPPED}.{m}").OPS
        if opname in ops:
            return _OPS[f"generated.{m}:{opname}"]
        names += ops
    close = difflib.get_close_matches(opname, sorted(names), n=3)
    raise KeyError(f"no shipped op named {opname!r}" + (f"; did you mean {', '.join(close)}?" if close else ""))


# --------------------------------------------------------------------------- user functions with rules
class CustomOp(Primitive):
    """A Python function with a hand-written rrule and/or frule (ChainRules conventions):

    rrule(*args) -> (y, pullback), pullback(dy) -> (d_self, d_arg1, ...) (d_self may be omitted)
    frule((d_self, d_arg1, ...), *args) -> (y, dy)

    Where a rule is missing, or the arguments are traced at several levels (higher order) and the rule was
    not declared `traceable` (written with runtime.tnp), differentiation goes through the function's body.
    """

    def __init__(self, fun, rrule=None, frule=None, traceable=False):
        self.fun = fun
        self.name = getattr(fun, "__name__", "custom")
        self.user_rrule = rrule
        self.user_frule = frule
        self.traceable = traceable
        self.__wrapped__ = fun
        self.__name__ = self.name
        self.__doc__ = getattr(fun, "__doc__", None)

    def __call__(self, *args, **kwargs):
        trace = top_trace(args)
        if trace is None:
            return self.fun(*args, **kwargs)
        rule = self.user_frule if isinstance(trace, ForwardTrace) else self.user_rrule
        if rule is None or (not self.traceable and _nested(args, trace)):
            return self.fun(*args, **kwargs)
        return trace.apply(self, args, kwargs)

    def _pullback_tuple(self, cots, n):
        cots = tuple(cots)
        if len(cots) == n + 1:
            return cots[1:]
        if len(cots) == n:
            return cots
        raise ValueError(f"{self.name}: pullback returned {len(cots)} cotangents for {n} arguments")

    def rrule_impl(self, vals, kwargs, argnums):
        ans, pullback = self.user_rrule(*vals, **kwargs)
        n = len(vals)

        def pullback_for_trace(g):
            if contains_traced(g) and not self.traceable:
                _, back = vjp(lambda *xs: self.fun(*xs, **kwargs), *vals)
                cots = back(g)
            else:
                cots = self._pullback_tuple(pullback(g), n)
            return [unthunk(cots[i]) for i in argnums]

        return ans, pullback_for_trace

    def frule_impl(self, vals, tans, kwargs):
        return self.user_frule((_NO,) + tuple(tans), *vals, **kwargs)


def _nested(args, trace):
    """True when some argument is traced by another (outer) trace too."""
    for a in args:
        if isinstance(a, Traced):
            if a._trace is not trace or isinstance(a._value, Traced):
                return True
    return False


def _custom(fn):
    if isinstance(fn, CustomOp):
        return fn
    op = _CUSTOM.get(fn)
    if op is None:
        op = CustomOp(fn)
        _CUSTOM[fn] = op
    return op


def register_rrule(fn, rrule, *, traceable=False):
    """Give `fn` a hand-written rrule; returns the differentiable callable to use in place of `fn`."""
    op = _custom(fn)
    op.user_rrule = rrule
    op.traceable = op.traceable or traceable
    return op


def register_frule(fn, frule, *, traceable=False):
    """Give `fn` a hand-written frule; returns the differentiable callable to use in place of `fn`."""
    op = _custom(fn)
    op.user_frule = frule
    op.traceable = op.traceable or traceable
    return op


def custom_rrule(rrule=None, *, frule=None, traceable=False):
    """Decorator: `@custom_rrule(my_rrule)` (optionally `frule=`) makes the function a primitive with that rule."""
    def wrap(fn):
        op = _custom(fn)
        if rrule is not None:
            op.user_rrule = rrule
        if frule is not None:
            op.user_frule = frule
        op.traceable = op.traceable or traceable
        return op
    return wrap


# --------------------------------------------------------------------------- generic rrule / frule
def resolve_function(f, label="rrule"):
    if isinstance(f, str):
        return lookup(f)
    if not callable(f):   # frule(f, args, tangents) hashed a tuple of arrays in _CUSTOM: "unhashable type"
        raise TypeError(f"{label}: expected an op, an op's name or a function to differentiate, but got a "
                        f"{type(f).__name__}; write " + ("frule(tangents, f, *args), tangents (d_self first) "
                                                          "before f" if label == "frule" else "rrule(f, *args)"))
    op = getattr(f, "op", None)
    if isinstance(op, Op):
        return op
    if isinstance(f, (Op, CustomOp)):
        return f
    return _CUSTOM.get(f, f)


def rrule(f, *args):
    """(y, pullback) with pullback(dy) -> (d_self, d_args...); for generated ops, functions with a registered
    rule, runtime.tnp primitives, and (by tracing) any other differentiable Python function."""
    f = resolve_function(f, "rrule")
    if isinstance(f, Op):
        return f.rrule(*args)
    if isinstance(f, CustomOp) and f.user_rrule is not None:
        y, pb = f.user_rrule(*args)
        return y, lambda dy: (_NO,) + tuple(f._pullback_tuple(pb(dy), len(args)))
    if isinstance(f, Primitive) and not isinstance(f, CustomOp):
        argnums = [i for i, a in enumerate(args) if _differentiable(a)]
        y, pb = f.rrule_impl(list(args), {}, argnums)

        def pullback(dy):
            out = [_NO] * len(args)
            if not is_zero(dy):
                for i, c in zip(argnums, pb(dy)):
                    out[i] = unthunk(c)
            else:
                for i in argnums:
                    out[i] = _ZERO
            return (_NO,) + tuple(out)
        return y, pullback
    fn = f.fun if isinstance(f, CustomOp) else f
    y, back = vjp(fn, *args)
    return y, lambda dy: (_NO,) + tuple(back(dy))


def frule(tangents, f, *args):
    """(y, dy) with tangents = (d_self, d_args...); same coverage as `rrule`."""
    f = resolve_function(f, "frule")
    if isinstance(f, Op):
        return f.frule(tangents, *args)
    if len(tangents) != len(args) + 1:
        raise TypeError(f"frule: expected {len(args) + 1} tangents (d_self first) but got {len(tangents)}")
    if isinstance(f, CustomOp) and f.user_frule is not None:
        return f.user_frule(tuple(tangents), *args)
    if isinstance(f, Primitive) and not isinstance(f, CustomOp):
        return f.frule_impl(list(args), [unthunk(t) for t in tangents[1:]], {})
    fn = f.fun if isinstance(f, CustomOp) else f
    tans = [np.zeros_like(a, dtype=float) if is_zero(unthunk(t)) else unthunk(t) for t, a in zip(tangents[1:], args)]
    return jvp(fn, args, tans)


def _differentiable(x):
    return is_differentiable(x)
