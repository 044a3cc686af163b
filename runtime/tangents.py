"""Tangent vocabulary shared by generated rules and the runtime (ChainRulesCore's names).

`ZeroTangent` is the additive zero, `NoTangent` marks "no derivative exists" (ints, indices); both
behave as zero in arithmetic but stay distinguishable. `Thunk` delays a cotangent until it is needed.
"""
from __future__ import annotations


class AbstractZero:
    """Common base of the two zeros: arithmetic short-circuits, numpy defers to these operators."""

    __slots__ = ()
    __array_ufunc__ = None  # `ndarray + zero` must come here, not make an object array
    _instance = None

    def __new__(cls):
        inst = cls.__dict__.get("_instance")
        if inst is None:
            inst = object.__new__(cls)
            cls._instance = inst
        return inst

    def __repr__(self):
        return f"{type(self).__name__}()"

    def __reduce__(self):
        return (type(self), ())

    def __bool__(self):
        return False

    def __add__(self, other):
        if isinstance(other, AbstractZero):
            return NoTangent() if (self is NoTangent() and other is NoTangent()) else ZeroTangent()
        return unthunk(other)

    __radd__ = __add__

    def __sub__(self, other):
        if isinstance(other, AbstractZero):
            return self + other
        return -unthunk(other)

    def __rsub__(self, other):
        return unthunk(other)

    def __mul__(self, other):
        return self

    __rmul__ = __truediv__ = __matmul__ = __rmatmul__ = __mul__

    def __neg__(self):
        return self

    __pos__ = __neg__

    def __getitem__(self, idx):
        return self

    @property
    def T(self):
        return self

    def sum(self, *args, **kwargs):
        return self

    def reshape(self, *args, **kwargs):
        return self

    def transpose(self, *args, **kwargs):
        return self


class ZeroTangent(AbstractZero):
    """The additive zero of every tangent space; `dy = ZeroTangent()` means "nothing flows here"."""

    __slots__ = ()


class NoTangent(AbstractZero):
    """The input has no derivative at all (an int, an index, the function object itself)."""

    __slots__ = ()


class Thunk:
    """A lazily computed tangent; `unthunk(t)` evaluates it once and remembers the result."""

    __slots__ = ("_fn", "_value", "_done")
    __array_ufunc__ = None

    def __init__(self, fn):
        self._fn = fn
        self._value = None
        self._done = False

    def unthunk(self):
        if not self._done:
            self._value = unthunk(self._fn())
            self._fn = None
            self._done = True
        return self._value

    def __repr__(self):
        return f"Thunk({self._value!r})" if self._done else "Thunk(<unevaluated>)"

    def __add__(self, other):
        return add_tangents(self.unthunk(), other)

    def __radd__(self, other):
        return add_tangents(other, self.unthunk())

    def __sub__(self, other):
        return self.unthunk() - unthunk(other)

    def __rsub__(self, other):
        return unthunk(other) - self.unthunk()

    def __mul__(self, other):
        return self.unthunk() * unthunk(other)

    def __rmul__(self, other):
        return unthunk(other) * self.unthunk()

    def __truediv__(self, other):
        return self.unthunk() / unthunk(other)

    def __neg__(self):
        return -self.unthunk()


class Tangent:
    """Structural tangent of a composite value (tuple-like, dict-like or dataclass-like primal).

    `Tangent(W=dW, b=db)` or `Tangent(dx, dy)`; fields read as `t.W` or `t["W"]` / `t[0]`; a missing
    field reads as ZeroTangent. Supports `+` (fieldwise) and scaling by a number.
    """

    __slots__ = ("_backing", "primal_type")
    __array_ufunc__ = None

    def __init__(self, *args, primal_type=None, **fields):
        if args and fields:
            raise TypeError("Tangent: give either positional or named fields, not both")
        object.__setattr__(self, "_backing", tuple(args) if args else dict(fields))
        object.__setattr__(self, "primal_type", primal_type)

    def __getattr__(self, name):
        backing = object.__getattribute__(self, "_backing")
        if isinstance(backing, dict):
            return backing.get(name, ZeroTangent())
        raise AttributeError(name)

    def __setattr__(self, name, value):
        raise AttributeError("Tangent is immutable")

    def __getitem__(self, key):
        if isinstance(self._backing, dict):
            return self._backing.get(key, ZeroTangent())
        return self._backing[key]

    def __iter__(self):
        return iter(self._backing.values() if isinstance(self._backing, dict) else self._backing)

    def __len__(self):
        return len(self._backing)

    def keys(self):
        return self._backing.keys() if isinstance(self._backing, dict) else range(len(self._backing))

    def items(self):
        return self._backing.items() if isinstance(self._backing, dict) else enumerate(self._backing)

    def _map(self, fn):
        if isinstance(self._backing, dict):
            return Tangent(primal_type=self.primal_type, **{k: fn(v) for k, v in self._backing.items()})
        return Tangent(*[fn(v) for v in self._backing], primal_type=self.primal_type)

    def __add__(self, other):
        other = unthunk(other)
        if isinstance(other, AbstractZero):
            return self
        if not isinstance(other, Tangent):
            return NotImplemented
        a, b = self._backing, other._backing
        if isinstance(a, dict) and isinstance(b, dict):
            keys = list(a) + [k for k in b if k not in a]
            return Tangent(primal_type=self.primal_type or other.primal_type,
                           **{k: add_tangents(a.get(k, ZeroTangent()), b.get(k, ZeroTangent())) for k in keys})
        if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
            return Tangent(*[add_tangents(x, y) for x, y in zip(a, b)], primal_type=self.primal_type)
        raise TypeError(f"cannot add Tangents with different structure: {self!r} + {other!r}")

    __radd__ = __add__

    def __mul__(self, scalar):
        return self._map(lambda v: unthunk(v) * scalar)

    __rmul__ = __mul__

    def __truediv__(self, scalar):
        return self._map(lambda v: unthunk(v) / scalar)

    def __neg__(self):
        return self._map(lambda v: -unthunk(v))

    def __sub__(self, other):
        return self + (-unthunk(other))

    def __eq__(self, other):
        return isinstance(other, Tangent) and self._backing == other._backing

    __hash__ = None

    def __repr__(self):
        if isinstance(self._backing, dict):
            inner = ", ".join(f"{k}={v!r}" for k, v in self._backing.items())
        else:
            inner = ", ".join(repr(v) for v in self._backing)
        return f"Tangent({inner})"


def is_zero(x) -> bool:
    """True for ZeroTangent and NoTangent (never looks inside arrays)."""
    return isinstance(x, AbstractZero)


def unthunk(x):
    """Evaluate a Thunk (memoized); anything else is returned unchanged."""
    return x.unthunk() if isinstance(x, Thunk) else x


def add_tangents(a, b):
    """a + b where either may be a zero, a Thunk, a Tangent, or a tuple/list of tangents."""
    if a is None:
        return unthunk(b)
    a, b = unthunk(a), unthunk(b)
    if isinstance(a, AbstractZero):
        return b if not isinstance(b, AbstractZero) else a + b
    if isinstance(b, AbstractZero):
        return a
    if isinstance(a, tuple) and isinstance(b, tuple):
        return tuple(add_tangents(x, y) for x, y in zip(a, b))
    if isinstance(a, list) and isinstance(b, list):
        return [add_tangents(x, y) for x, y in zip(a, b)]
    if isinstance(a, dict) and isinstance(b, dict):
        out = dict(a)
        for k, v in b.items():
            out[k] = add_tangents(out.get(k), v)
        return out
    return a + b
