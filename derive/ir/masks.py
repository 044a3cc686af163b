"""Index comparisons as values: the 0/1 factor [j ≤ i] (an Iverson bracket) and the forms it is printed in.

`where(j <= i, a, 0)` reads as `[j ≤ i]·a`: a coefficient that does not depend on any tensor, so linearization
leaves it alone and transposition carries it as it is (as it does a Kronecker delta). `[i = j]` is δ(i,j) and
`[i ≠ j]` is 1 - δ(i,j). A sum over k whose only coupling to an output index i is one bracket [k ≤ i]
(or <, ≥, >) is a cumulative sum along k; `cumsum_form` recognises it so printers emit np.cumsum instead of an
N×N mask. Other brackets print as a comparison of index ranges (np.arange) broadcast against each other.
"""
from __future__ import annotations

import sympy as sp
from sympy.core.function import AppliedUndef
from sympy.logic.boolalg import BooleanAtom

from derive.ir.atoms import Extent, Idx, IndexSum, KroneckerDelta, access, is_access


def is_condition(e) -> bool:
    """A comparison, also one SymPy has already decided (3 > 3 is sp.false): where() folds that to a branch."""
    return isinstance(e, BooleanAtom) or (isinstance(e, sp.Basic) and e.is_Relational)


def is_index_condition(c) -> bool:
    """A comparison whose sides are built from indices, integers and extents only (j <= i, i < size(i) - 1),
    with at least one index outside size(): a fact about positions, not about tensor values."""
    if not (isinstance(c, sp.Basic) and c.is_Relational):
        return False
    if c.atoms(AppliedUndef) or c.atoms(IndexSum):
        return False
    bare = c.xreplace({e: sp.Integer(1) for e in c.atoms(Extent)})
    syms = bare.free_symbols
    return bool(syms) and all(isinstance(s, Idx) for s in syms)


class Iverson(sp.Function):
    """[cond]: 1 where the index comparison cond holds, else 0. Constant for the calculus (no tensor in it)."""

    nargs = 1
    is_real = True
    is_integer = True
    is_nonnegative = True

    @classmethod
    def eval(cls, c):
        if c is sp.true:
            return sp.S.One
        if c is sp.false:
            return sp.S.Zero
        if isinstance(c, sp.Eq) and isinstance(c.lhs, Idx) and isinstance(c.rhs, Idx) and c.lhs.ext == c.rhs.ext:
            return KroneckerDelta(c.lhs, c.rhs)
        # [i ≠ j] stays a bracket: as 1 - δ, Σ_j [i ≠ j]·A[i,j]·x[j] would be Σ_j A·x - A[i,i]·x[i], which
        # cancels where the diagonal dominates
        return None

    def fdiff(self, argindex=1):
        return sp.S.Zero

    @property
    def cond(self):
        return self.args[0]


def where_on_indices(c, a, b):
    """where(c, a, b) for an index comparison c, as a product with a bracket where one branch is 0
    (else None: both branches stay, e.g. where(j <= i, s[i,j], -inf) for a causal mask)."""
    if not is_index_condition(c):
        return None
    if b == 0:
        return Iverson(c) * a
    if a == 0:
        return Iverson(c.negated) * b
    return None


# ---------------------------------------------------------------------------------------------------------
# Cumulative sums: Σ_k [k ≤ i]·g[k] is cumsum(g)[i]

# (summed index k on the left) -> (reverse?, inclusive?)
_SCAN = {"<=": (False, True), "<": (False, False), ">=": (True, True), ">": (True, False)}
_FLIP = {"<=": ">=", "<": ">", ">=": "<=", ">": "<"}


def cumsum_form(factors, summed, free_of):
    """(bracket, k, i, reverse, inclusive) when Π factors summed over `summed` contains a scan along k: one
    bracket compares a summed index k with an index i of k's extent class, some other factor depends on k,
    and no other factor depends on both k and i (then Σ_k [k ≤ i]·g[k] is cumsum(g)[i]; i may be summed
    too, afterwards). Else None. `free_of(f)` lists f's free indices."""
    brackets = [f for f in factors if isinstance(f, Iverson)]
    if len(brackets) != 1:
        return None
    bracket = brackets[0]
    rel = bracket.cond
    if rel.rel_op not in _SCAN or not (isinstance(rel.lhs, Idx) and isinstance(rel.rhs, Idx)):
        return None
    others = [free_of(f) for f in factors if f is not bracket]
    for k, i, op in ((rel.lhs, rel.rhs, rel.rel_op), (rel.rhs, rel.lhs, _FLIP[rel.rel_op])):
        if k not in summed or k == i or k.ext != i.ext:
            continue
        if not any(k in fr for fr in others) or any(k in fr and i in fr for fr in others):
            continue          # Σ_k [k ≤ i] alone is a count, and a factor over both k and i is no scan
        reverse, inclusive = _SCAN[op]
        return bracket, k, i, reverse, inclusive
    return None


def scan_code(g, reverse, inclusive, zeros):
    """NumPy code for the scan of array code `g` along its last axis: Σ over positions ≤ (or <, ≥, >) each.
    `zeros` is code for a zero array shaped like g with a last axis of length 1 (the exclusive scans'
    first entry: exact, where cumsum(g) - g would round and turn an infinite g into NaN)."""
    if reverse:
        g = f"np.flip({g}, -1)"
    if inclusive:
        out = f"np.cumsum({g}, axis=-1)"
    else:
        out = f"np.concatenate([{zeros}, np.cumsum({g}[..., :-1], axis=-1)], axis=-1)"
    return f"np.flip({out}, -1)" if reverse else out


def relation_text(rel, name=str) -> str:
    """[j ≤ i] for display."""
    sym = {"<=": "≤", "<": "<", ">=": "≥", ">": ">", "==": "=", "!=": "≠"}[rel.rel_op]
    return f"[{name(rel.lhs)} {sym} {name(rel.rhs)}]"


def positions_as_data(e, idx, name):
    """e with index idx, where a comparison reads its position, reading the array `name`[idx] instead: a
    sliced pass (codegen's chunks) cuts that array with the tensors, so a slice compares its own positions
    (np.arange(n)[lo:hi]), not 0..len-1. Returns (expression, whether anything was replaced)."""
    pos = access(name, (idx,))

    def positions(x):       # idx as a position; a tensor read x[idx] inside a value comparison stays a read
        if x == idx:
            return pos
        if is_access(x) or not x.args:
            return x
        return x.func(*[positions(a) for a in x.args])

    out = e.replace(lambda x: isinstance(x, sp.Basic) and x.is_Relational and idx in x.free_symbols, positions)
    return out, out != e
