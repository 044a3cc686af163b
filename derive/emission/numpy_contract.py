"""Products and contractions in the generated NumPy code: which factors multiply elementwise, which pairs contract
(einsum, matmul, a solve against a known inverse), in opt_einsum's greedy order, masked sums as scans.

`Contractions` is the part of numpy_print.Emitter that plans them; it prints its operands through the Emitter's
`emit`, `bind` and alignment.
"""
from __future__ import annotations

import itertools
import string

import opt_einsum
import sympy as sp

from derive.emission.kernel_plan import scale_power
from derive.emission.numpy_text import divides_by_extents, numstr, paren, union
from derive.ir import masks
from derive.ir import nodes as ir
from derive.ir.masks import Iverson
from derive.ir.nodes import Idx, IndexSum


class Contractions:
    """Products, contractions and masked sums of an Emitter (its emit, bind, tmp, line, align, to_axes, order,
    dtype, reciprocal and state are used as they are)."""

    def emit_product(self, key, factors, summed, whole):
        """Π factors, summed over `summed`: elementwise where nothing is summed, else a contraction."""
        # exp(u)/Σexp(v) is recognised before factors are grouped by their indices: grouped with another
        # factor of the same indices (a cotangent dy), Σexp's reciprocal would hide inside a product
        factors = stable_softmax(factors)
        scan = self.emit_scaled(key, factors, summed) or (
            self.emit_scan(key, factors, summed) if summed else self.emit_masked(key, factors))
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
            if divides_by_extents(f):          # 1/size(b)/size(o): one reciprocal of size(b)·size(o)
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
        all_axes = union(o[1][1] for o in ops)
        if not summed and set(all_axes) == set(self.pref or ()):
            all_axes = self.order(all_axes)
        out_axes = tuple(a for a in all_axes if a not in summed)
        if set(out_axes) == set(self.pref or ()):
            out_axes = self.order(out_axes)
        missing = [k for k in summed if k not in all_axes]
        if not summed or not any(k in all_axes for k in summed):
            code = self._elementwise(num, ops, all_axes)
            for k in missing:
                code = f"{self.extent_code(k)} * {paren(code)}"
            return self.bind(key, code, all_axes)
        # fold elementwise factors that share all their axes with another factor into it first
        mats = [o[1] for o in ops]
        code = self.contract(mats, out_axes, summed)
        if num != 1:
            code = f"{numstr(num)} * {paren(code)}" if num != -1 else f"-{paren(code)}"
        for k in missing:
            code = f"{self.extent_code(k)} * {paren(code)}"
        return self.bind(key, code, out_axes, "c")

    def emit_scaled(self, key, factors, summed):
        """s⁻²·c·Σ_j a_j as ((Σ_j a_j) / s / s)·c: 1/(s·s) overflows (float32 s = 2e-24) or underflows where the
        whole is finite; the arrays' size tempers each division. Other scalars c (a tangent ds) multiply last,
        so that JAX, transposing the pushforward, divides the arrays rather than the cotangent. None without
        such a power (or with nothing else)."""
        scales = [f for f in factors if scale_power(f)]
        if not scales or len(scales) == len(factors):
            return None
        rest = [f for f in factors if f not in scales]
        arrays = [f for f in rest if f.atoms(Idx)] or rest
        scalars = [f for f in rest if f not in arrays]
        inner = sp.Mul(*arrays)
        if summed:
            inner = IndexSum(inner, list(summed))
        code, axes = (self.emit_product(inner, arrays, summed, inner) if len(arrays) > 1 or summed
                      else self.emit(arrays[0]))
        ops = [("mul", (code, axes))] + [("div", self.emit(f.base)) for f in scales for _ in range(-int(f.exp))]
        ops += [("mul", self.emit(f)) for f in scalars]
        return self.bind(key, self._elementwise(sp.S.One, ops, axes), axes)

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
        self.bind(scanned, masks.scan_code(paren(gc), reverse, inclusive, zeros), lead + (i,), "cs")
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
        axes = self.order(union([rax] + [ax for _, ax in conds]))
        cc = " & ".join(paren(self.align(c, ax, axes)) for c, ax in conds)
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
                neg = f"-{paren(code)}" if kind == "mul" else f"_div(-1, {code})"
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
            parts.append(("/ " if kind == "div" else "* ") + paren(c))
            scalar = scalar and not ax
        if not parts:
            return numstr(num)
        if parts[0].startswith("/"):
            parts.insert(0, "1")
        elif parts[0].startswith("* "):
            parts[0] = parts[0][2:]
        code = " ".join(parts)
        if num == -1:
            code = f"-{paren(code)}"
        elif num != 1:
            code = f"{numstr(num)} * {code}"
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
            axes = tuple(x for x in union([a[1], b[1]]) if x in keep)
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
            code = f"{paren(s)} * {paren(code)}"
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
        if mat in self.factor_of:      # solve with A's factorisation, computed once (primitives/factor.py)
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
            return f"{paren(s_)} * {paren(self._reduce(c, x, tuple(out_axes)))}" if x else \
                self.to_axes(f"{paren(ca)} * {paren(cb)}", (), tuple(out_axes))
        shared = [x for x in xa if x in xb and x not in out_axes]
        if not shared and set(xa) | set(xb) == set(out_axes):
            # nothing summed: a broadcast product beats einsum's generic loop
            return f"{paren(self.align(ca, xa, out_axes))} * {paren(self.align(cb, xb, out_axes))}"
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
                return f"{paren(left)} @ {paren(right)}"
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


def is_sum_of_exp(x):
    return isinstance(x, IndexSum) and isinstance(x.body, sp.exp)


def stable_softmax(factors):
    """exp(u)·(Σ exp(v))⁻¹ -> exp(u - log Σ exp(v)), which emit_logsumexp evaluates without overflow."""
    dens = [f for f in factors if isinstance(f, sp.Pow) and f.exp == -1 and is_sum_of_exp(f.base)]
    nums = [f for f in factors if isinstance(f, sp.exp)]
    if len(dens) != 1 or not nums:
        return factors
    d, n = dens[0], nums[0]
    out = [f for f in factors if f is not d and f is not n]
    out.append(sp.exp(sp.Add(n.args[0], -sp.log(d.base, evaluate=False), evaluate=False), evaluate=False))
    return out


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
            both = union([xa, xb])
            return size([x for x in both if x in keep]), size(both)

        return min(itertools.combinations(range(len(operands)), 2), key=score)
    letters: dict = {}
    specs = ["".join(letters.setdefault(x, opt_einsum.get_symbol(len(letters))) for x in ax) for _, ax in operands]
    out = "".join(letters[x] for x in out_axes if x in letters)
    shapes = [(64,) * len(s) for s in specs]
    path, _ = opt_einsum.contract_path(",".join(specs) + "->" + out, *shapes, shapes=True, optimize="greedy")
    i, j = path[0]
    return (i, j) if i < j else (j, i)
