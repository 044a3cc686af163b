"""Every op in generated/, enrolled automatically: the runtime's paths agree with each other and with finite
differences — plain NumPy, traced (grad / jvp through the tape), and traced namespace (second order)."""
import numpy as np
import pytest
from numdiff import assert_close, fd_jvp

from runtime import check_rrule, grad, jvp, tnp
from runtime.registry import _OPS

generated = pytest.importorskip("generated")

OPS = sorted({op for key, op in _OPS.items() if ":" in key and op.module_name.startswith("generated.")},
             key=lambda op: (op.module_name, op.name))


def make_args(op, seed=0, sizes=None):
    """A small random point in the op's declared domains. `sizes`: an iterator of the extents to give the index
    classes in turn (equal-extent groups get 3), instead of random ones."""
    rng = np.random.default_rng(seed)
    extent = {}
    for group in op.meta.get("equal_extents") or ():
        n = 3 if sizes is not None else int(rng.integers(2, 4))
        for i in group:
            extent[i] = n
    extent.update(op.meta.get("extents") or {})        # declared in the header (K[o,c,p:3,q:3])
    _shifted_extents(op.meta.get("shifted") or [], extent, lambda: next(sizes) if sizes is not None
                     else int(rng.integers(2, 4)), op.inputs)
    args = []
    for p in op.inputs:
        kind, idx = p.get("kind", "tensor"), p.get("indices") or []
        if kind == "int":
            args.append(3)
            continue
        if kind == "scalar":
            args.append(float(rng.uniform(0.5, 1.5)))
            continue
        shape = tuple(extent[i] if i in extent else extent.setdefault(
            i, next(sizes) if sizes is not None else int(rng.integers(2, 4))) for i in idx)
        domain = op.meta.get("domains", {}).get(p["name"], "real")
        if domain == "positive":
            x = rng.uniform(0.5, 2.0, shape)
        elif domain in ("spd", "wellcond"):
            n = shape[-1]       # matrix axes last, batch axes first
            X = rng.standard_normal(shape) * 0.3
            x = (X @ np.swapaxes(X, -1, -2) if domain == "spd" else X) + n * np.eye(n)
        else:
            x = rng.uniform(-0.5, 0.5, shape)
        args.append(x)
    return args


def _shifted_extents(reaches, extent, draw, inputs=()):
    """Extents for an op with shifted reads (x[i+k]): the indices they read with get drawn extents, and each axis
    read that way the extent its reads need (the largest over them)."""
    read = {a for a, _, _ in reaches}
    for _, terms, _ in reaches:
        for _, letter in terms:
            if letter not in read and letter not in extent:
                extent[letter] = draw()
    for a, terms, _ in reaches:           # an output position's extent (the conv's h): 2 keeps gradcheck cheap
        for _, letter in terms[:1]:
            if letter not in read and extent[letter] > 2 and not any(letter in i.get("indices", ()) for i in inputs):
                extent[letter] = 2
    todo = list(reaches)
    while todo:
        ready = [r for r in todo if all(letter in extent for _, letter in r[1])]
        if not ready:
            break
        for a, terms, const in ready:
            todo.remove([a, terms, const])
            need = const + 1 + sum(c * (extent[letter] - 1) for c, letter in terms)
            extent[a] = max(extent.get(a, 0), need)


def _diff_positions(op, args):
    return [k for k, p in enumerate(op.inputs) if p.get("kind") != "int"]


def _weights(y, seed=1):
    rng = np.random.default_rng(seed)
    return tuple(rng.standard_normal(np.shape(v)) for v in y) if isinstance(y, tuple) else rng.standard_normal(np.shape(y))


def _loss(op, W):
    def loss(*xs):
        y = op(*xs)
        if isinstance(y, tuple):
            return sum(tnp.sum(v * w) for v, w in zip(y, W))
        return tnp.sum(y * W)
    return loss


@pytest.mark.parametrize("op", OPS, ids=[f"{op.module_name.split('.')[-1]}.{op.name}" for op in OPS])
def test_generated_op_through_the_runtime(op):
    args = make_args(op)
    check_rrule(op, *args, rtol=1e-5)
    y = op(*args)
    W = _weights(y)
    loss = _loss(op, W)
    pos = _diff_positions(op, args)
    # the tape (traced arguments) agrees with the rule's own pullback
    grads = grad(loss, tuple(pos))(*args)
    _, pb = op.rrule(*args)
    cots = pb(W)
    from runtime import unthunk
    for k, g in zip(pos, grads):
        assert_close(g, unthunk(cots[k + 1]), rtol=1e-10, atol=1e-12)
    # forward mode
    rng = np.random.default_rng(2)
    tans = [rng.standard_normal(np.shape(a)) if k in pos else 0 for k, a in enumerate(args)]
    _, dy = jvp(op, args, tans)
    ref = fd_jvp(lambda *xs: op(*xs), [np.asarray(a, float) if k in pos else a for k, a in enumerate(args)],
                 [t if k in pos else 0 for k, t in enumerate(tans)])
    for a, b in zip(dy if isinstance(dy, tuple) else (dy,), ref if isinstance(ref, tuple) else (ref,)):
        assert_close(a, b, rtol=1e-5, atol=1e-6)
    # second order through define(tnp): Hessian-vector products, both ways, against finite differences
    k = pos[0]
    v = tans[k]

    def loss_k(x):
        return loss(*args[:k], x, *args[k + 1:])
    g = grad(loss_k)
    ref = fd_jvp(g, (args[k],), (v,), eps=1e-5)
    assert_close(jvp(g, (args[k],), (v,))[1], ref, rtol=1e-4, atol=1e-6)
    assert_close(grad(lambda x: tnp.sum(g(x) * v))(args[k]), ref, rtol=1e-4, atol=1e-6)


ELEMENTWISE = [op for op in OPS if op.meta.get("elementwise")]


@pytest.mark.parametrize("op", ELEMENTWISE, ids=[op.name for op in ELEMENTWISE])
def test_elementwise_ops_take_any_shape(op):
    rng = np.random.default_rng(4)
    args = [rng.uniform(0.1, 0.6, (2, 3)) if p.get("kind") == "tensor" else (3 if p.get("kind") == "int" else 0.7)
            for p in op.inputs]
    W = rng.standard_normal((2, 3))
    g = grad(lambda x: tnp.sum(op(x, *args[1:]) * W))(args[0])
    from runtime import unthunk
    assert_close(g, unthunk(op.rrule(*args)[1](W)[1]), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_power_derivative_is_finite_at_zero(n):
    # n·xⁿ⁻¹ must not be rewritten through y = xⁿ as n·y/x: that is 0·∞ = NaN at x = 0
    import generated

    x = np.array([0.0, 2.0])
    expected = n * np.array([float(n == 1), 2.0 ** (n - 1)])
    assert_close(grad(lambda x: tnp.sum(generated.power(x, n)))(x), expected)
    assert_close(jvp(lambda x: generated.power(x, n), (x,), (np.ones(2),))[1], expected)


def test_logsumexp_of_infinities():
    import generated

    with np.errstate(divide="ignore"):
        assert generated.logsumexp(np.array([-np.inf, -np.inf])) == -np.inf
    assert generated.logsumexp(np.array([np.inf, 1.0])) == np.inf
    assert_close(generated.logsumexp(np.array([1000.0, 1000.0])), 1000.0 + np.log(2.0))


@pytest.mark.parametrize("op", OPS, ids=lambda op: f"{op.module_name.split('.')[-1]}.{op.name}")
def test_float32_in_float32_out_in_every_mode(op):
    """float32 arguments give float32 values, tangents and cotangents (a mask built from a Python float, as
    np.where(j <= i, 1/√d, 0), once made causal_attention's pushforward float64)."""
    from runtime.tangents import unthunk
    args = [a.astype(np.float32) if isinstance(a, np.ndarray) else a for a in make_args(op, seed=5)]
    rng = np.random.default_rng(6)
    tans = [rng.standard_normal(np.shape(a)).astype(np.float32) if isinstance(a, np.ndarray) else
            (0.5 if isinstance(a, float) else None) for a in args]
    mod = __import__(op.module_name, fromlist=["_"])
    fwd = getattr(mod, op.name)
    frule = getattr(mod, op.name + "_frule")
    rrule = getattr(mod, op.name + "_rrule")

    def floats(v):
        return [x for x in (v if isinstance(v, tuple) else (v,)) if isinstance(x, (np.ndarray, np.generic))
                and np.issubdtype(x.dtype, np.floating)]
    y = fwd(*args)
    y2, dy = frule((None, *[t if t is not None else 0 for t in tans]), *args)
    yr, pb = rrule(*args)
    cot = tuple(np.ones_like(v) for v in (yr if isinstance(yr, tuple) else (yr,)))
    bars = pb(cot if isinstance(yr, tuple) else cot[0])[1:]
    got = floats(y) + floats(y2) + floats(dy) + floats(yr)
    got += [unthunk(b) for b, a in zip(bars, args) if isinstance(a, np.ndarray)
            and isinstance(unthunk(b), np.ndarray)]
    assert got and all(v.dtype == np.float32 for v in got), [v.dtype for v in got]
