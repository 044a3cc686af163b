"""Every traced-NumPy primitive, enrolled automatically: VJP, JVP and second order against finite differences."""
import numpy as np
import pytest
from numdiff import assert_close, fd_grad, fd_jvp

from derive.language import domains
from primitives.elementwise import ROWS as ELEMENTWISE_ROWS
from runtime import grad, jvp, tnp
from runtime.tnp import _UNARY

rng = np.random.default_rng(42)


def R(*shape):
    return rng.standard_normal(shape)


def P(*shape):  # positive
    return rng.uniform(0.5, 2.0, shape)


def U(*shape):  # inside (-0.8, 0.8)
    return rng.uniform(-0.8, 0.8, shape)


def SPD(n, batch=()):
    X = rng.standard_normal(batch + (n, n))
    return X @ np.swapaxes(X, -1, -2) + n * np.eye(n)


DOMAIN = {"log": P, "log2": P, "log10": P, "log1p": P, "sqrt": P, "cbrt": P, "reciprocal": P, "arcsin": U,
          "arccos": U, "arctanh": U, "arccosh": lambda *s: 1.5 + P(*s), "tan": U, "absolute": P,
          "relu": lambda *s: np.where(rng.random(s) < 0.5, -1, 1) * P(*s)}

# a built-in of primitives.elementwise the table above does not name is sampled from its row's domain
for _row in ELEMENTWISE_ROWS:
    if _row.domain and _row.domain[0] and _row.numpy not in DOMAIN:
        DOMAIN[_row.numpy] = lambda *s, dom=_row.domain[0]: domains.sample(s, dom, rng)

CASES = [(f"unary-{name}", prim, [DOMAIN.get(name, R)(2, 3)]) for name, prim in sorted(_UNARY.items())]
CASES += [
    ("negative", tnp.negative, [R(3)]),
    ("add-broadcast", tnp.add, [R(3, 4), R(4)]),
    ("add-python-scalar", lambda x: 2.0 + x, [R(3)]),
    ("subtract-keepdim", tnp.subtract, [R(3, 1), R(3, 4)]),
    ("multiply-broadcast", tnp.multiply, [R(2, 1, 4), R(3, 1)]),
    ("divide", tnp.divide, [R(3, 4), P(4)]),
    ("power", tnp.power, [P(3), R(3)]),
    ("power-const", lambda x: x ** 3, [R(4)]),
    ("maximum", tnp.maximum, [R(5), R(5)]),
    ("minimum", tnp.minimum, [R(5), R(1)]),
    ("logaddexp", tnp.logaddexp, [R(4), R(4)]),
    ("arctan2", tnp.arctan2, [R(4), P(4)]),
    ("hypot", tnp.hypot, [R(4), P(4)]),
    ("where", lambda x, y: tnp.where(np.array([True, False, True]), x, y), [R(2, 3), R(3)]),
    ("clip", lambda x: tnp.clip(x, -0.5, 0.5), [R(6)]),
    ("sum-all", tnp.sum, [R(3, 4)]),
    ("sum-axis", lambda x: tnp.sum(x, axis=1), [R(3, 4)]),
    ("sum-axes-keepdims", lambda x: tnp.sum(x, axis=(0, 2), keepdims=True), [R(2, 3, 4)]),
    ("mean", lambda x: tnp.mean(x, axis=0), [R(3, 4)]),
    ("var", lambda x: tnp.var(x, axis=1), [R(3, 4)]),
    ("std", tnp.std, [R(3, 4)]),
    ("prod", lambda x: tnp.prod(x, axis=0), [P(3, 2)]),
    ("max", lambda x: tnp.max(x, axis=1), [R(3, 4)]),
    ("amin-all", tnp.amin, [R(3, 4)]),
    ("amax-tuple", lambda x, y: tnp.amax((x, y), axis=0), [R(4), R(4)]),
    ("cumsum", lambda x: tnp.cumsum(x, axis=1), [R(2, 3)]),
    ("reshape", lambda x: tnp.reshape(x, (2, 6)), [R(3, 4)]),
    ("ravel", tnp.ravel, [R(3, 4)]),
    ("squeeze", tnp.squeeze, [R(3, 1, 2)]),
    ("transpose", lambda x: tnp.transpose(x, (2, 0, 1)), [R(2, 3, 4)]),
    ("transpose-default", tnp.transpose, [R(2, 3)]),
    ("swapaxes", lambda x: tnp.swapaxes(x, 0, 2), [R(2, 3, 4)]),
    ("moveaxis", lambda x: tnp.moveaxis(x, 0, -1), [R(2, 3, 4)]),
    ("expand_dims", lambda x: tnp.expand_dims(x, 1), [R(3, 2)]),
    ("broadcast_to", lambda x: tnp.broadcast_to(x, (2, 3, 4)), [R(3, 1)]),
    ("flip", lambda x: tnp.flip(x, 0), [R(3, 2)]),
    ("tril", tnp.tril, [R(3, 3)]),
    ("triu", lambda x: tnp.triu(x, 1), [R(3, 3)]),
    ("diagonal", lambda x: tnp.diagonal(x, 1, 1, 2), [R(2, 3, 4)]),
    ("diagonal-neg", lambda x: tnp.diagonal(x, -1), [R(4, 3)]),
    ("trace", tnp.trace, [R(3, 3)]),
    ("diag-1d", tnp.diag, [R(3)]),
    ("diag-2d", tnp.diag, [R(3, 3)]),
    ("getitem-basic", lambda x: x[1:, None, ::2], [R(3, 4)]),
    ("getitem-int", lambda x: x[1], [R(3, 4)]),
    ("getitem-ellipsis", lambda x: x[..., 0], [R(2, 3)]),
    ("getitem-advanced-repeats", lambda x: x[np.array([0, 2, 0, 0])], [R(3, 2)]),
    ("getitem-mask", lambda x: x[np.array([True, False, True])], [R(3)]),
    ("concatenate", lambda x, y: tnp.concatenate([x, y], axis=1), [R(2, 3), R(2, 2)]),
    ("concatenate-none", lambda x, y: tnp.concatenate([x, y], axis=None), [R(2, 2), R(3)]),
    ("stack", lambda x, y: tnp.stack([x, y], axis=-1), [R(2, 3), R(2, 3)]),
    ("hstack", lambda x, y: tnp.hstack([x, y]), [R(2), R(3)]),
    ("vstack", lambda x, y: tnp.vstack([x, y]), [R(3), R(2, 3)]),
    ("asarray-list", lambda x, y: tnp.asarray([x, y]), [R(3), R(3)]),
    ("astype", lambda x: tnp.astype(x, np.float64), [R(3)]),
    ("einsum-matmul", lambda a, b: tnp.einsum("ik,kj->ij", a, b), [R(2, 3), R(3, 4)]),
    ("einsum-trace", lambda a: tnp.einsum("ii->", a), [R(3, 3)]),
    ("einsum-diag", lambda a: tnp.einsum("ii->i", a), [R(3, 3)]),
    ("einsum-sum", lambda a: tnp.einsum("ij->", a), [R(2, 3)]),
    ("einsum-dot", lambda a, b: tnp.einsum("i,i->", a, b), [R(3), R(3)]),
    ("einsum-implicit", lambda a, b: tnp.einsum("ij,jk", a, b), [R(2, 3), R(3, 2)]),
    ("einsum-ellipsis", lambda a, b: tnp.einsum("...ij,...jk->...ik", a, b), [R(2, 2, 3), R(3, 2)]),
    ("einsum-broadcast-1", lambda a, b: tnp.einsum("ij,ij->ij", a, b), [R(3, 1), R(3, 4)]),
    ("einsum-three", lambda a, b, c: tnp.einsum("ij,jk,kl->il", a, b, c), [R(2, 3), R(3, 3), R(3, 2)]),
    ("einsum-outer-sum", lambda a, b: tnp.einsum("i,j->", a, b), [R(2), R(3)]),
    ("matmul-2d", tnp.matmul, [R(2, 3), R(3, 4)]),
    ("matmul-vec-mat", tnp.matmul, [R(3), R(3, 2)]),
    ("matmul-mat-vec", tnp.matmul, [R(2, 3), R(3)]),
    ("matmul-vec-vec", tnp.matmul, [R(3), R(3)]),
    ("matmul-batched", tnp.matmul, [R(2, 2, 3), R(3, 2)]),
    ("matmul-operator", lambda a, b: a @ b, [R(2, 3), R(3, 2)]),
    ("dot", tnp.dot, [R(2, 3), R(3)]),
    ("vdot", tnp.vdot, [R(2, 2), R(2, 2)]),
    ("inner", tnp.inner, [R(2, 3), R(3)]),
    ("outer", tnp.outer, [R(2), R(3)]),
    ("tensordot", lambda a, b: tnp.tensordot(a, b, axes=([1], [0])), [R(2, 3), R(3, 2)]),
    ("inv", tnp.linalg.inv, [SPD(3)]),
    ("inv-batched", tnp.linalg.inv, [SPD(2, (3,))]),
    ("det", tnp.linalg.det, [SPD(3)]),
    ("slogdet", lambda a: tnp.linalg.slogdet(a)[1], [SPD(3, (2,))]),
    ("slogdet-attr", lambda a: tnp.linalg.slogdet(a).logabsdet, [SPD(3)]),
    ("solve-vec", tnp.linalg.solve, [SPD(3), R(3)]),
    ("solve-mat", tnp.linalg.solve, [SPD(3), R(3, 2)]),
    ("solve-batched-vec", tnp.linalg.solve, [SPD(3, (2,)), R(3)]),
    ("cholesky", lambda x: tnp.linalg.cholesky(x @ x.T + 3 * np.eye(3)), [R(3, 3)]),
    ("norm", tnp.linalg.norm, [R(3, 2)]),
]


def _as_output(y):
    return y if not isinstance(y, tuple) else y[0]


@pytest.mark.parametrize("name,f,args", CASES, ids=[c[0] for c in CASES])
def test_vjp_jvp_second_order(name, f, args):
    y = f(*args)
    W = rng.standard_normal(np.shape(y))

    def loss(*xs):
        return tnp.sum(f(*xs) * W)

    nums = tuple(range(len(args)))
    grads = grad(loss, nums)(*args)
    for i, g in enumerate(grads):
        ref = fd_grad(lambda xi: loss(*args[:i], xi, *args[i + 1:]), args[i])
        assert_close(g, ref, rtol=1e-5, atol=1e-6)

    tangents = [rng.standard_normal(np.shape(a)) for a in args]
    y2, dy = jvp(f, args, tangents)
    assert_close(y2, y, rtol=1e-12, atol=1e-12)
    assert_close(dy, fd_jvp(f, args, tangents), rtol=1e-5, atol=1e-6)

    # second order, both ways: forward-over-reverse and reverse-over-reverse Hessian-vector products
    x0, v = args[0], tangents[0]

    def loss0(x):
        return loss(x, *args[1:])

    hvp_fwd = jvp(grad(loss0), (x0,), (v,))[1]
    hvp_rev = grad(lambda x: tnp.sum(grad(loss0)(x) * v))(x0)
    ref = fd_jvp(lambda x: grad(loss0)(x), (x0,), (v,))
    assert_close(hvp_fwd, ref, rtol=1e-5, atol=1e-5)
    assert_close(hvp_rev, ref, rtol=1e-5, atol=1e-5)


def test_cholesky_vjp_matches_symmetric_finite_differences():
    A = SPD(3)
    G = rng.standard_normal((3, 3))
    gA = grad(lambda a: tnp.sum(tnp.linalg.cholesky(a) * G))(A)
    E = rng.standard_normal((3, 3))
    E = E + E.T
    eps = 1e-6
    fd = (np.sum(np.linalg.cholesky(A + eps * E) * G) - np.sum(np.linalg.cholesky(A - eps * E) * G)) / (2 * eps)
    assert abs(np.sum(gA * E) - fd) < 1e-6 * max(1, abs(fd))
    assert_close(gA, gA.T)


def test_nondifferentiable_functions_give_zero_and_unknown_names_fail():
    assert grad(lambda x: tnp.sum(tnp.sign(x) * 3.0 + tnp.floor(x)))(R(3)).tolist() == [0.0, 0.0, 0.0]
    assert tnp.pi == np.pi and tnp.float64 is np.float64
    with pytest.raises(AttributeError, match="no differentiable 'polyval'"):
        tnp.polyval
    with pytest.raises(AttributeError, match="no differentiable 'qr'"):
        tnp.linalg.qr


def test_plain_values_pass_straight_to_numpy():
    x = R(3)
    np.testing.assert_array_equal(tnp.exp(x), np.exp(x))
    assert tnp.einsum("i,i->", x, x) == np.einsum("i,i->", x, x)
    assert isinstance(tnp.linalg.slogdet(SPD(2)), tuple)


@pytest.mark.parametrize("f", [
    lambda x: tnp.sum(x ** 2), lambda x: tnp.max(x), lambda x: tnp.sum(tnp.erf(x)), lambda x: tnp.sum(tnp.exp2(x)),
    lambda x: tnp.sum(tnp.log2(x) + tnp.log10(x)), lambda x: tnp.sum(tnp.relu(x - 1.0)),
    lambda x: tnp.sum(tnp.maximum(x, 1.0)), lambda x: tnp.sum(tnp.clip(x, 0.6, 1.0)), lambda x: tnp.sum(x ** 3.0),
], ids=["pow", "max", "erf", "exp2", "log2+log10", "relu", "maximum", "clip", "pow-float"])
def test_float32_stays_float32_to_second_order(f):
    x = np.array([0.5, 1.5], np.float32)
    g = grad(f)
    assert g(x).dtype == np.float32
    assert jvp(g, (x,), (np.ones_like(x),))[1].dtype == np.float32
