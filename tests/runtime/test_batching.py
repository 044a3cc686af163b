"""Every generated op maps over extra leading axes, as a NumPy gufunc does (issue 12, part 4b): forward, frule,
rrule, and runtime.grad / jvp / vjp through a batched call. Loop axes broadcast against each other; a cotangent
is summed over the axes its input was broadcast along. Expected values come from NumPy (np.linalg, a softmax
written out), per-element calls of the unbatched op are NOT used as references for values, and derivatives are
compared with central finite differences."""
import numpy as np
import pytest

import generated
from runtime import define, grad, jvp, tnp, vjp
from runtime.tangents import NoTangent, unthunk


def softmax_ref(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def central(f, x, dx, h=1e-6):
    return (f(x + h * dx) - f(x - h * dx)) / (2 * h)


def wellcond(rng, shape):
    return rng.standard_normal(shape) * 0.3 + shape[-1] * np.eye(shape[-1])


def test_softmax_over_a_leading_batch_axis():
    # before: "softmax: x must have 1 axis [i] but has shape (2, 3)"
    np.testing.assert_allclose(generated.softmax(np.ones((2, 3))), np.full((2, 3), 1 / 3), rtol=1e-15)
    x = np.random.default_rng(0).standard_normal((4, 5)) * 3
    np.testing.assert_allclose(generated.softmax(x), softmax_ref(x), rtol=1e-13)


def test_two_leading_axes_and_a_batch_first_inverse():
    rng = np.random.default_rng(1)
    A = wellcond(rng, (2, 4, 3, 3))
    np.testing.assert_allclose(generated.inv(A), np.linalg.inv(A), rtol=1e-13)
    np.testing.assert_allclose(generated.logdet(A), np.linalg.slogdet(A)[1], rtol=1e-13)
    np.testing.assert_allclose(generated.batched_inv(A), np.linalg.inv(A), rtol=1e-13)   # its own b, and two more
    x = rng.standard_normal((2, 4, 5))
    assert generated.softmax(x).shape == (2, 4, 5)
    np.testing.assert_allclose(generated.softmax(x), softmax_ref(x), rtol=1e-13)


def test_frule_and_rrule_with_leading_axes_against_finite_differences():
    rng = np.random.default_rng(2)
    A, b = wellcond(rng, (3, 2, 4, 4)), rng.standard_normal((3, 2, 4))
    dA, db = rng.standard_normal(A.shape), rng.standard_normal(b.shape)
    solve = lambda A, b: np.linalg.solve(A, b[..., None])[..., 0]
    y, dy = generated.solve_frule((NoTangent(), dA, db), A, b)
    np.testing.assert_allclose(y, solve(A, b), rtol=1e-12)
    want = central(lambda t: solve(A + t * dA, b + t * db), 0.0, 1.0)
    np.testing.assert_allclose(dy, want, rtol=1e-7, atol=1e-9)
    y2, pb = generated.solve_rrule(A, b)
    ybar = rng.standard_normal(y.shape)
    _, gA, gb = (unthunk(c) for c in pb(ybar))
    assert gA.shape == A.shape and gb.shape == b.shape
    # the adjoint identity <ȳ, ẏ> = <Ā, Ȧ> + <b̄, ḃ>, with ẏ checked against finite differences above
    np.testing.assert_allclose(np.sum(ybar * dy), np.sum(gA * dA) + np.sum(gb * db), rtol=1e-11)


def test_an_unbatched_weight_broadcasts_and_its_cotangent_is_summed():
    rng = np.random.default_rng(3)
    A, x = rng.standard_normal((3, 4)), rng.standard_normal((5, 4))   # one matrix, five vectors
    y, pb = generated.matvec_rrule(A, x)
    np.testing.assert_allclose(y, x @ A.T, rtol=1e-13)
    ybar = rng.standard_normal((5, 3))
    _, gA, gx = (unthunk(c) for c in pb(ybar))
    assert gA.shape == (3, 4) and gx.shape == (5, 4)
    np.testing.assert_allclose(gA, ybar.T @ x, rtol=1e-12)           # Σ_b ȳ_b x_bᵀ
    np.testing.assert_allclose(gx, ybar @ A, rtol=1e-12)
    # loop axes broadcast against each other: A's (2, 1) against x's (3,) gives (2, 3), and each cotangent is
    # summed over the loop axes its input was broadcast along (A's second, x's first)
    A2, x2 = rng.standard_normal((2, 1, 3, 4)), rng.standard_normal((3, 4))
    y2, pb2 = generated.matvec_rrule(A2, x2)
    np.testing.assert_allclose(y2, np.einsum("aij,bj->abi", A2[:, 0], x2), rtol=1e-13)
    ybar2 = rng.standard_normal((2, 3, 3))
    _, gA2, gx2 = (unthunk(c) for c in pb2(ybar2))
    assert gA2.shape == A2.shape and gx2.shape == x2.shape
    np.testing.assert_allclose(gA2[:, 0], np.einsum("abi,bj->aij", ybar2, x2), rtol=1e-12)
    np.testing.assert_allclose(gx2, np.einsum("abi,aij->bj", ybar2, A2[:, 0]), rtol=1e-12)


def test_a_batched_scalar_parameter():
    rng = np.random.default_rng(4)
    x, y, b = rng.standard_normal((6, 2)), rng.standard_normal((5, 2)), rng.standard_normal(5)
    s = np.array([0.5, 2.0, 3.0])
    got = generated.gaussian_kernel_sum(x, y, b, s[:, None])       # s per batch element, x shared: (3, 6)
    d2 = np.sum((x[:, None, :] - y[None, :, :]) ** 2, axis=-1)
    want = np.stack([np.exp(-d2 / si) @ b for si in s])
    np.testing.assert_allclose(got.reshape(3, 6), want, rtol=1e-12)


def test_shape_errors_with_leading_axes_name_the_op_the_index_and_the_extents():
    with pytest.raises(ValueError, match=r"matvec: index j has extent 4 in A .* but 3 in x"):
        generated.matvec(np.ones((2, 3, 4)), np.ones((2, 3)))
    with pytest.raises(ValueError, match=r"matvec: the leading \(batch\) axes .* A \(2,\); x \(3,\)"):
        generated.matvec(np.ones((2, 3, 4)), np.ones((3, 4)))
    with pytest.raises(ValueError, match=r"inv: indices i and j must have equal extents"):
        generated.inv(np.ones((5, 3, 4)))
    with pytest.raises(ValueError, match=r"matvec: x must have .*1 axis|matvec: x must have at least 1"):
        generated.matvec(np.ones((2, 3, 4)), 1.0)


def test_grad_jvp_vjp_through_a_batched_call():
    rng = np.random.default_rng(5)
    x, W = rng.standard_normal((4, 3)), rng.standard_normal((2, 3))

    def f(x, W):
        p = generated.softmax(x)                                    # batched over x's leading axis
        return tnp.sum(generated.matvec(W, p) ** 2)                # W shared by the batch, then summed

    def f_np(x, W):
        return np.sum((softmax_ref(x) @ W.T) ** 2)

    gx, gW = grad(f, argnums=(0, 1))(x, W)
    dx, dW = rng.standard_normal(x.shape), rng.standard_normal(W.shape)
    fd = central(lambda t: f_np(x + t * dx, W + t * dW), 0.0, 1.0)
    np.testing.assert_allclose(np.sum(gx * dx) + np.sum(gW * dW), fd, rtol=1e-7)
    y, dy = jvp(f, (x, W), (dx, dW))
    np.testing.assert_allclose(y, f_np(x, W), rtol=1e-13)
    np.testing.assert_allclose(dy, fd, rtol=1e-7)
    y2, back = vjp(lambda x: generated.softmax(x), x)
    ybar = rng.standard_normal(x.shape)
    (g,) = back(ybar)
    p = softmax_ref(x)
    np.testing.assert_allclose(g, p * (ybar - np.sum(ybar * p, axis=-1, keepdims=True)), rtol=1e-12)


def test_a_rule_defined_at_run_time_maps_over_leading_axes(tmp_path, monkeypatch):
    from runtime import rule_cache

    monkeypatch.setenv("TENSOR_RULES_CACHE", str(tmp_path))
    monkeypatch.setattr(rule_cache, "_MEMO", {})
    op = define("quad(S[i,j]: spd, v[i]) -> y[] = v[i] * S[i,j] * v[j]")
    rng = np.random.default_rng(6)
    S, v = wellcond(rng, (3, 3)), rng.standard_normal((4, 3))
    S = (S + S.T) / 2
    np.testing.assert_allclose(op(S, v), np.einsum("bi,ij,bj->b", v, S, v), rtol=1e-13)
    _, pb = op.rrule(S, v)
    _, gS, gv = (unthunk(c) for c in pb(np.ones(4)))
    np.testing.assert_allclose(gv, v @ (S + S.T), rtol=1e-12)
    np.testing.assert_allclose(gS, np.einsum("bi,bj->ij", v, v), rtol=1e-12)


def test_gpu_arrays_with_leading_axes_are_refused_by_name():
    class FakeGpu:                       # what the registry dispatches to runtime.cuda: an array with .gpudata
        gpudata = None

        def __init__(self, shape):
            self.shape = shape

    with pytest.raises(NotImplementedError, match="softmax: leading \\(batch\\) axes are not supported for GPU"):
        generated.softmax(FakeGpu((2, 3)))


def test_the_torch_bridge_maps_over_leading_axes():
    torch = pytest.importorskip("torch")
    import runtime.torch as rt

    x = torch.randn(4, 5, dtype=torch.float64, requires_grad=True)
    W = torch.randn(3, 5, dtype=torch.float64, requires_grad=True)
    torch.testing.assert_close(rt.softmax(x), torch.softmax(x, -1))
    assert torch.autograd.gradcheck(lambda x, W: rt.matvec(W, rt.softmax(x)), (x, W))


def test_the_jax_bridge_maps_over_leading_axes():
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    import runtime.jax as rj

    rng = np.random.default_rng(7)
    A = jnp.asarray(wellcond(rng, (2, 3, 3)))
    x = jnp.asarray(rng.standard_normal((2, 3)))
    tol = 1e-12 if A.dtype == jnp.float64 else 1e-5          # float32 unless jax_enable_x64 is set
    np.testing.assert_allclose(jax.jit(rj.solve)(A, x), np.linalg.solve(A, x[..., None])[..., 0], rtol=tol)
    W = jnp.asarray(rng.standard_normal((3, 3)))
    g = jax.grad(lambda W: jnp.sum(rj.matvec(W, x) ** 2))(W)
    np.testing.assert_allclose(g, 2 * (x @ W.T).T @ x, rtol=tol)
