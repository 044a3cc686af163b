"""The IR's atoms: tensor elements, index symbols with their extent class, extents, Kronecker deltas and index sums.

Everything else in the IR (derive.ir.nodes: functions, programs; derive.ir.masks: index comparisons) is built from
these, so they sit below both.
"""
from __future__ import annotations

import sympy as sp
from sympy.core.function import AppliedUndef

# ---------------------------------------------------------------------------------------------------------
# Tensor elements and sums

_TENSOR_FNS: dict[str, type] = {}


def tensor_fn(name: str):
    """The SymPy function class standing for tensor `name` (one class per name, so equality is by name)."""
    fn = _TENSOR_FNS.get(name)
    if fn is None:
        fn = _TENSOR_FNS[name] = sp.Function(name, real=True)
    return fn


def access(name: str, indices) -> sp.Expr:
    return tensor_fn(name)(*indices)


def is_access(e) -> bool:
    return isinstance(e, AppliedUndef)


def acc_name(e) -> str:
    return e.func.__name__


class IndexSum(sp.Expr):
    """Σ over the full range of each index in `indices` of `body` (indices are bound, like a lambda's)."""

    is_commutative = True
    is_real = True

    def __new__(cls, body, indices):
        indices = sp.Tuple(*indices)
        if body == 0:
            return sp.S.Zero
        if len(indices) == 0:
            return body
        return sp.Expr.__new__(cls, body, indices)

    @property
    def body(self):
        return self.args[0]

    @property
    def indices(self):
        return tuple(self.args[1])

    @property
    def free_symbols(self):
        return self.body.free_symbols - set(self.indices)

    def _eval_subs(self, old, new):
        if old in self.indices:
            return self
        return None



# ---------------------------------------------------------------------------------------------------------
# Index symbols, extents and deltas


class Idx(sp.Symbol):
    """An index symbol; `ext` names its extent class, so equal letters of different sizes stay apart."""

    def __new__(cls, name, ext):
        obj = sp.Symbol.__xnew__(cls, name)
        obj.ext = ext
        return obj

    def _hashable_content(self):
        return super()._hashable_content() + (self.ext,)

    def __getnewargs_ex__(self):
        return ((self.name, self.ext), {})


class KroneckerDelta(sp.KroneckerDelta):
    """SymPy's Kronecker delta, deciding δ(i, j) of two index symbols without SymPy's assumption system.

    SymPy asks whether i - j is zero (about 0.6 ms for each new pair of symbols, and every renaming of a
    term builds new pairs: most of a long program's derivation time). Two distinct index symbols are
    never known to be equal or different, so the answer is "undecided", in the canonical argument order
    SymPy would give. The class keeps SymPy's name, so printers, sort keys and str() treat it as SymPy's."""

    @classmethod
    def eval(cls, i, j, delta_range=None):
        if delta_range is None and isinstance(i, Idx) and isinstance(j, Idx):
            if i == j:
                return sp.S.One
            if sp.default_sort_key(j) < sp.default_sort_key(i):
                return cls(j, i)
            return None
        return super().eval(i, j, delta_range)


class Extent(sp.Function):
    """size(i): the extent of index i, as a number in an expression."""

    is_integer = True
    is_positive = True
