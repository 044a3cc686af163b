"""Reverse mode: a tape of nodes recorded by primitives, swept backwards in topological order.

The sweep is iterative (a chain of 10^5 operations is fine): one pass over the trace's list of nodes in reverse,
accumulating cotangents in a dict and dropping each node's cotangent, and in `grad` its pullback, as soon as it
has been pulled back. Public API: vjp, grad, value_and_grad.
"""
from __future__ import annotations

import gc

import numpy as np

from runtime import pytree, tnp
from runtime.tangents import AbstractZero, NoTangent, ZeroTangent, add_tangents, is_zero, unthunk
from runtime.tracer import Trace, Traced, getval, shape_of

_ZERO = ZeroTangent()


class Node:
    """One recorded operation: `pullback(g)` returns one cotangent per entry of `parents`."""

    __slots__ = ("pullback", "parents", "__weakref__")

    def __init__(self, pullback, parents):
        self.pullback = pullback
        self.parents = parents


class Box(Traced):
    """A value traced by a reverse-mode trace."""

    __slots__ = ("_node",)

    def __init__(self, value, trace, node):
        self._value = value
        self._trace = trace
        self._node = node


def _select_pullback(k, n):
    def pullback(g):
        return ((_ZERO,) * k + (g,) + (_ZERO,) * (n - k - 1),)
    return pullback


class ReverseTrace(Trace):
    """Records a Wengert list: `nodes` in creation order, so its reverse is a topological order."""

    __slots__ = ("nodes",)

    def __init__(self):
        super().__init__()
        self.nodes = []

    def apply(self, prim, args, kwargs):
        vals = list(args)
        argnums = []
        parents = []
        for i, a in enumerate(args):
            if type(a) is Box and a._trace is self:
                vals[i] = a._value
                argnums.append(i)
                parents.append(a._node)
        ans, pullback = prim.rrule_impl(vals, kwargs, argnums)
        node = Node(pullback, parents)
        self.nodes.append(node)
        if type(ans) is np.ndarray:
            return Box(ans, self, node)
        if isinstance(ans, tuple):
            n = len(ans)
            boxes = []
            for k, v in enumerate(ans):
                sel = Node(_select_pullback(k, n), (node,))
                self.nodes.append(sel)
                boxes.append(Box(v, self, sel))
            return tuple(boxes) if type(ans) is tuple else type(ans)(*boxes)
        return Box(ans, self, node)


def _all_zero(g):
    if type(g) is np.ndarray:
        return False
    if isinstance(g, AbstractZero):
        return True
    if isinstance(g, tuple):
        return all(_all_zero(x) for x in g)
    return False


def backward(nodes, seeds, consume=False):
    """Pull the cotangents `seeds` ({node: g}) back through the tape `nodes` (in creation order).

    Every consumer of a node was created after it, so one pass over the list in reverse sees each node's
    cotangent complete; nodes that receive none are skipped at the cost of a dict lookup. Returns the
    cotangents left over: those of the leaves. With `consume`, each node's pullback (and the intermediates it
    holds) is released as soon as it has run: a second sweep over the same tape is then impossible.
    """
    outgrads = dict(seeds)
    pop = outgrads.pop
    for k in range(len(nodes) - 1, -1, -1):
        node = nodes[k]
        g = pop(node, None)
        if g is None:
            continue
        parents = node.parents
        if consume:
            nodes[k] = None
            pullback, node.pullback, node.parents = node.pullback, None, ()
        else:
            pullback = node.pullback
        if type(g) is not np.ndarray and _all_zero(g):
            continue
        cots = pullback(g)
        del g, pullback
        for p, c in zip(parents, cots):
            if c is not None:
                if type(c) is not np.ndarray:
                    c = unthunk(c)
                    if _all_zero(c):
                        continue
                prev = outgrads.get(p)
                outgrads[p] = c if prev is None else add_tangents(prev, c)
    return outgrads


# --------------------------------------------------------------------------- user API
def is_differentiable(x):
    v = getval(x)
    if isinstance(v, (bool, np.bool_)):
        return False
    if isinstance(v, (float, complex)):
        return True
    dt = getattr(v, "dtype", None)
    return dt is not None and dt.kind in "fc"


def _box_tree(tree, trace):
    """Box every differentiable leaf; returns (boxed tree, leaves, treedef, leaf nodes or None)."""
    leaves, td = pytree.flatten(tree)
    nodes = [Node(None, ()) if is_differentiable(x) else None for x in leaves]
    boxed = [x if n is None else Box(x, trace, n) for x, n in zip(leaves, nodes)]
    return pytree.unflatten(td, boxed), leaves, td, nodes


def _materialize(g, leaf, node):
    """A cotangent for the user: arrays, zeros made explicit, NoTangent for non-differentiable leaves."""
    if node is None:
        return NoTangent()
    g = unthunk(g)
    if g is None or isinstance(g, AbstractZero):
        v = getval(leaf)
        return 0.0 if isinstance(v, float) else np.zeros_like(v)
    if type(leaf) is float and isinstance(g, (np.ndarray, np.floating)) and np.ndim(g) == 0:
        return float(g)  # a Python float in, a Python float out
    if isinstance(g, np.generic) and type(getval(leaf)) is np.ndarray:
        g = np.array(g)  # a 0-d array in, a 0-d array out (NumPy reduces 0-d arithmetic to scalars)
    return writeable(like_dtype(g, leaf))


def like_dtype(t, primal):
    """A float32 primal gets a float32 tangent even where the function mixed it with float64 data (the
    rules then computed in float64): the tangent space of a float32 array is float32, as the astype rule says."""
    dt = getattr(getval(primal), "dtype", None)
    tdt = getattr(getval(t), "dtype", None)
    if dt is None or tdt is None or dt == tdt or dt.kind != "f" or tdt.kind != "f":
        return t
    if isinstance(t, Traced):
        return tnp.astype(t, dt)
    return t.astype(dt)


def writeable(g):
    """Rules may return read-only broadcast views (sum's pullback is broadcast_to(dy, x.shape)); what a user
    gets back must be an ordinary array they can update in place (`W -= lr * g`)."""
    if type(g) is np.ndarray and not g.flags.writeable:
        return np.array(g)
    return g


def _unbox_output(y, trace):
    """(plain output tree, [(position, node)] of traced output leaves)."""
    leaves, td = pytree.flatten(y)
    outs, nodes = [], []
    for i, leaf in enumerate(leaves):
        if isinstance(leaf, Box) and leaf._trace is trace:
            outs.append(leaf._value)
            nodes.append((i, leaf._node))
        else:
            outs.append(leaf)
    return pytree.unflatten(td, outs), td, nodes


def vjp(f, *primals):
    """(y, vjp_fn): y = f(*primals); vjp_fn(dy) returns one cotangent per primal, in its structure."""
    trace = ReverseTrace()
    boxed = [_box_tree(p, trace) for p in primals]
    y = f(*[b[0] for b in boxed])
    y_plain, y_td, out_nodes = _unbox_output(y, trace)
    y_leaves = pytree.flatten(y_plain)[0]

    def vjp_fn(dy):
        dleaves, d_td = pytree.flatten(dy)
        if len(dleaves) != y_td.num_leaves:
            raise ValueError(f"vjp: cotangent has {len(dleaves)} leaves but the output has {y_td.num_leaves}")
        seeds = {}
        for i, node in out_nodes:
            d = dleaves[i]
            if not is_zero(d) and shape_of(d) != shape_of(y_leaves[i]):
                where = f" (output leaf {i})" if len(y_leaves) > 1 else ""
                raise ValueError(f"vjp: cotangent of shape {tuple(shape_of(d))} for an output of shape "
                                 f"{tuple(shape_of(y_leaves[i]))}{where}; they must be equal")
            if not is_zero(d):
                seeds[node] = add_tangents(seeds.get(node), d)
        grads = backward(trace.nodes, seeds) if seeds else {}
        return tuple(pytree.unflatten(td, [_materialize(grads.get(n, _ZERO), x, n) for x, n in zip(leaves, nodes)])
                     for _, leaves, td, nodes in boxed)

    return y_plain, vjp_fn


class _NoCycleCollection:
    """The tape allocates many small objects and no reference cycles: pausing the cyclic collector while
    it records and sweeps saves ~10% per op on small arrays (reference counting still frees everything)."""

    def __enter__(self):
        self.was = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc):
        if self.was:
            gc.enable()


def value_and_grad(f, argnums=0):
    """g(*args) -> (f(*args), gradient w.r.t. args[argnums]); f must return a scalar."""
    single = isinstance(argnums, int)
    nums = (argnums,) if single else tuple(argnums)

    def value_and_grad_f(*args, **kwargs):
        with _NoCycleCollection():
            return _value_and_grad(args, kwargs)

    def _value_and_grad(args, kwargs):
        trace = ReverseTrace()
        args = list(args)
        boxed = {}
        bad = [i for i in nums if not -len(args) <= i < len(args)]
        if bad:
            raise TypeError(f"grad: argnums={argnums!r} but {getattr(f, '__name__', 'f')} was called with "
                            f"{len(args)} positional argument{'s' if len(args) != 1 else ''}")
        for i in nums:
            args[i], leaves, td, nodes = _box_tree(args[i], trace)
            boxed[i] = (leaves, td, nodes)
        y = f(*args, **kwargs)
        if isinstance(y, Box) and y._trace is trace:
            value, node = y._value, y._node
        else:
            value, node = y, None
        out_leaves = pytree.flatten(value)[0]
        if len(out_leaves) != 1 or out_leaves[0] is not value:
            raise TypeError(f"grad: {getattr(f, '__name__', 'f')} must return a scalar, got a "
                            f"{type(value).__name__} (for several outputs use vjp)")
        if shape_of(value) != ():
            raise TypeError(f"grad: {getattr(f, '__name__', 'f')} must return a scalar, got shape {shape_of(value)}")
        grads = {}
        if node is not None:
            dt = np.asarray(getval(value)).dtype
            seed = np.ones((), dtype=dt if dt.kind in "fc" else np.float64)
            grads = backward(trace.nodes, {node: seed}, consume=True)
        results = tuple(pytree.unflatten(td, [_materialize(grads.get(n, _ZERO), x, n) for x, n in zip(leaves, nodes)])
                        for leaves, td, nodes in (boxed[i] for i in nums))
        return value, results[0] if single else results

    value_and_grad_f.__name__ = f"value_and_grad({getattr(f, '__name__', 'f')})"
    return value_and_grad_f


def grad(f, argnums=0):
    """The gradient of a scalar function, w.r.t. args[argnums] (an int or a tuple); composes: grad(grad(f))."""
    vg = value_and_grad(f, argnums)

    def grad_f(*args, **kwargs):
        return vg(*args, **kwargs)[1]

    grad_f.__name__ = f"grad({getattr(f, '__name__', 'f')})"
    return grad_f
