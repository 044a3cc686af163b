"""Leading axes for every generated op, as a NumPy gufunc has them: the op maps over extra leading axes.

Each input has its rule's axes last (its core axes); the axes before them are loop axes. The loop axes of all
inputs broadcast against each other as in NumPy, and every output gets the broadcast loop shape in front of its
own axes. Integer parameters are never batched. The op's batched twin (derive.lowering.batching: the rule with one batch
index prepended to every tensor, verified like the rule) runs on all loop axes flattened into that one index;
an input with fewer loop axes is broadcast to it (np.broadcast_to, a view), and its cotangent is summed over
the axes it was broadcast along, so a pullback returns cotangents of the inputs' own shapes (NumPy
broadcasting's pullback). Calls without loop axes run the op's own code unchanged.
"""
from __future__ import annotations

import math

from runtime.tangents import Thunk, is_zero
from runtime.tracer import shape_of


def core_ranks(meta) -> list:
    """Each input's number of core axes; None for an integer parameter (not batched)."""
    return [None if p.get("kind") == "int" else len(p.get("indices") or ()) for p in meta["inputs"]]


def loop_shape(name, meta, args):
    """The broadcast loop shape of args (() when no input has loop axes), or ValueError naming the op."""
    shapes = []
    for p, r, a in zip(meta["inputs"], core_ranks(meta), args):
        if r is None:
            continue
        s = shape_of(a)
        shapes.append((p["name"], tuple(s[:len(s) - r]) if len(s) > r else ()))
    if not any(s for _, s in shapes):
        return ()
    out: list = []
    for argname, s in shapes:
        for k in range(1, len(s) + 1):
            n = s[-k]
            if k > len(out):
                out.insert(0, (n, argname))
                continue
            m, other = out[-k]
            if m == 1 and n != 1:
                out[-k] = (n, argname)
            elif n != 1 and n != m:
                loops = "; ".join(f"{a} {t}" for a, t in shapes if t)
                raise ValueError(f"{name}: the leading (batch) axes of the arguments do not broadcast: {loops} "
                                 f"(extent {m} in {other} against {n} in {argname})")
    return tuple(n for n, _ in out)


def check(name, meta, args, core_check, label=None):
    """The op's shape check on the arguments' core axes (the same messages: op, index, extents; an axis is
    counted from the first core axis), and the loop axes' broadcast."""
    label = label or name
    for p, r, a in zip(meta["inputs"], core_ranks(meta), args):
        if r is not None and len(shape_of(a)) < r:
            idx = p.get("indices") or ()
            raise ValueError(f"{label}: {p['name']} must have at least {r} ax{'is' if r == 1 else 'es'} "
                             f"[..., {', '.join(idx)}] but has shape {tuple(shape_of(a))}")
    try:
        core_check(tuple(_Core(a, r) if r is not None else a for a, r in zip(args, core_ranks(meta))), label)
    except ValueError as exc:
        raise ValueError(f"{exc} (axes counted after the leading batch axes)") from None
    return loop_shape(label, meta, args)


def checker(name, meta, base):
    """The op's shape check `base`, extended to loop axes for an op with a batched twin."""
    if not meta.get("batched"):
        return base
    ranks = core_ranks(meta)

    def check_with_loops(args, label=name):
        try:
            base(args, label)
            return
        except ValueError:
            if not any(r is not None and len(shape_of(a)) > r for a, r in zip(args, ranks)):
                raise
        check(name, meta, args, base, label)
        if any(hasattr(a, "gpudata") for a in args):
            raise NotImplementedError(f"{label}: leading (batch) axes are not supported for GPU arrays; call it "
                                      f"once per batch element, or with NumPy arrays")
    return check_with_loops


class _Core:
    """An argument seen through its core axes only (what the op's own shape check reads)."""

    def __init__(self, a, r):
        s = tuple(shape_of(a))
        self.shape = s[len(s) - r:] if r else ()


def _reshape(xp, a, shape):
    f = getattr(xp, "reshape", None)
    return f(a, shape) if f is not None else a.reshape(shape)


class Gufunc:
    """An op's forward, frule and rrule over loop axes, from its own functions and its twin's."""

    def __init__(self, name, meta, own, twin, xp):
        self.name, self.meta, self.xp = name, meta, xp
        self.own_fwd, self.own_frule, self.own_rrule = own
        self.tw_fwd, self.tw_frule, self.tw_rrule = twin
        self.ranks = core_ranks(meta)
        self.out_ranks = [len(o.get("indices") or ()) for o in meta["outputs"]]
        self.multi = len(meta["outputs"]) > 1

    # -- flattening --------------------------------------------------------------------------------------------
    def _lead(self, args):
        for a, r in zip(args, self.ranks):
            if r is not None and len(shape_of(a)) > r:
                return loop_shape(self.name, self.meta, args)
        return ()      # no input has loop axes (the usual call): nothing to broadcast

    def _flat(self, a, r, L, B):
        """a (loop axes, then r core axes) as (B, core...): a view where a has all of L or none of it."""
        s = tuple(shape_of(a))
        core, lead = s[len(s) - r:] if r else (), s[:len(s) - r]
        if lead == L:
            return _reshape(self.xp, a, (B,) + core)
        if not lead:
            return self.xp.broadcast_to(a, (B,) + core)
        return _reshape(self.xp, self.xp.broadcast_to(a, L + core), (B,) + core)

    def _flat_args(self, args, L):
        B = math.prod(L)
        return tuple(a if r is None else self._flat(a, r, L, B) for a, r in zip(args, self.ranks)), B

    def _unflat_out(self, y, L):
        if self.multi:
            return tuple(self._unflat1(v, L) for v in y)
        return self._unflat1(y, L)

    def _unflat1(self, v, L):
        if is_zero(v):
            return v
        return _reshape(self.xp, v, L + tuple(shape_of(v))[1:])

    def _flat_cot(self, dy, L, B):
        if is_zero(dy):
            return dy
        if self.multi:
            return tuple(d if is_zero(d) else self._flat(d, r, L, B) for d, r in zip(dy, self.out_ranks))
        return self._flat(dy, self.out_ranks[0], L, B)

    def _unbroadcast(self, c, a, r, L):
        """The cotangent c (B, core...) of input a, summed over the loop axes a was broadcast along."""
        if is_zero(c):
            return c
        s = tuple(shape_of(a))
        lead = s[:len(s) - r] if r else s
        c = _reshape(self.xp, c, L + tuple(shape_of(c))[1:])
        extra = len(L) - len(lead)
        if extra:
            c = self.xp.sum(c, axis=tuple(range(extra)))
        ones = tuple(k for k, n in enumerate(lead) if n == 1 and L[extra + k] != 1)
        if ones:
            c = self.xp.sum(c, axis=ones, keepdims=True)
        return c

    # -- entry points ------------------------------------------------------------------------------------------
    def forward(self, *args):
        L = self._lead(args)
        if not L:
            return self.own_fwd(*args)
        flat, _ = self._flat_args(args, L)
        return self._unflat_out(self.tw_fwd(*flat), L)

    def frule(self, tangents, *args):
        L = self._lead(args)
        if not L:
            return self.own_frule(tangents, *args)
        flat, B = self._flat_args(args, L)
        ft = (tangents[0],) + tuple(t if r is None or is_zero(t) else self._flat(t, r, L, B)
                                    for t, r in zip(tangents[1:], self.ranks))
        y, dy = self.tw_frule(ft, *flat)
        return self._unflat_out(y, L), self._unflat_out(dy, L)

    def rrule(self, *args):
        L = self._lead(args)
        if not L:
            return self.own_rrule(*args)
        flat, B = self._flat_args(args, L)
        y, pb = self.tw_rrule(*flat)
        me = self

        def pullback(dy):
            cots = pb(me._flat_cot(dy, L, B))
            out = [cots[0]]
            for c, a, r in zip(cots[1:], args, me.ranks):
                if r is None:
                    out.append(c)
                elif type(c) is Thunk:
                    out.append(Thunk(lambda c=c, a=a, r=r: me._unbroadcast(c.unthunk(), a, r, L)))
                else:
                    out.append(me._unbroadcast(c, a, r, L))
            return tuple(out)

        pullback.__name__ = pullback.__qualname__ = self.name + "_pullback"
        return self._unflat_out(y, L), pullback


def wrap(fns: dict, OPS: dict, xp) -> dict:
    """A generated module's functions (its `_define(xp)`), each op that has a batched twin mapping over loop
    axes; the twins themselves stay under their internal names."""
    out = dict(fns)
    for name, meta in OPS.items():
        tw = meta.get("batched")
        if not tw or tw not in fns:
            continue
        g = Gufunc(name, meta, (fns[name], fns[name + "_frule"], fns[name + "_rrule"]),
                   (fns[tw], fns[tw + "_frule"], fns[tw + "_rrule"]), xp)
        out[name], out[name + "_frule"], out[name + "_rrule"] = g.forward, g.frule, g.rrule
    return out
