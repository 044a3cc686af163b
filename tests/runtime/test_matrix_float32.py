"""float32 in, float32 out: every matrix primitive of the rule language, defined at run time
(runtime.define, runtime.torch, runtime.jax with float64 enabled), keeps a float32 argument's dtype in its value,
its pushforward and its pullback; the float32 derivative agrees with the float64 one. A float64 constant inside
a declaration's map (a mask, a working dtype) promoted the tangent on NumPy and made torch refuse the matmul."""
import numpy as np
import pytest

from primitives.matrix import PRIMITIVES
from runtime.tangents import NoTangent, unthunk
from tests.frameworks import need

N = 3
SHAPES = {"square": "[i,j]", "vector": "[i]", "scalar": "[]", "rhs": "[i]"}


def _text(name):
    """A rule applying primitive `name` to matrix A (declared in its domain) and, for a second argument, b."""
    p = PRIMITIVES[name]
    dom = f": {p.domain}" if p.domain in ("spd", "symmetric") else ""
    params = [f"A[i,j]{dom}"] + [f"b{k}[j]" for k in range(1, len(p.args))]
    call = ", ".join(["A[i,j]"] + [f"b{k}[j]" for k in range(1, len(p.args))])
    return f"f32_{name}({', '.join(params)}) -> Y{SHAPES[p.result]} = {name}({call})"


def _point(name, dtype):
    """A point in the primitive's domain: A symmetric positive definite, well conditioned, not symmetric
    where the primitive takes a general matrix (distinct eigenvalues for the eigenvector maps)."""
    rng = np.random.default_rng(1)
    X = rng.standard_normal((N, N)) * 0.3
    p = PRIMITIVES[name]
    A = X @ X.T + np.diag([1.0, 2.0, 3.0]) if p.domain in ("spd", "symmetric") else X + 3 * np.eye(N)
    args = [A] + [rng.standard_normal(N) for _ in p.args[1:]]
    tangents = [rng.standard_normal(a.shape) for a in args]
    tangents[0] = tangents[0] + tangents[0].T
    return [a.astype(dtype) for a in args], [t.astype(dtype) for t in tangents]


NAMES = sorted(n for n, p in PRIMITIVES.items() if p.user)


@pytest.fixture(scope="module")
def ops(define):
    return {name: define(_text(name)) for name in NAMES}


def _numpy(op, args, tangents):
    y = op(*args)
    _, dy = op.frule((NoTangent(),) + tuple(tangents), *args)
    _, pb = op.rrule(*args)
    cot = [unthunk(c) for c in pb(np.ones_like(np.asarray(y)))[1:]]
    return [np.asarray(y), np.asarray(unthunk(dy))] + [np.asarray(c) for c in cot]


def _close(got, want, name):
    """The float32 results against the same computation in float64 (float32's accuracy on a well-conditioned
    3x3 problem): a result computed in another dtype than asked, or wrongly, fails."""
    for k, (g, w) in enumerate(zip(got, want)):
        assert np.all(np.isfinite(g)), (name, k)
        np.testing.assert_allclose(g, w, rtol=2e-4, atol=2e-4 * np.max(np.abs(w)), err_msg=f"{name}: part {k}")


@pytest.mark.parametrize("name", NAMES)
def test_numpy_keeps_float32(ops, name):
    args, tans = _point(name, np.float32)
    got = _numpy(ops[name], args, tans)
    assert [str(g.dtype) for g in got] == ["float32"] * len(got), name
    _close(got, _numpy(ops[name], *_point(name, np.float64)), name)


@pytest.mark.slow        # torch's C++ runner is built once for the module's private cache (about a minute)
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("python", [False, True], ids=["op", "op.python"])
def test_torch_keeps_float32(ops, name, python):
    torch = need("torch")
    import runtime.torch as rt

    op = rt.define(_text(name))
    op = op.python if python else op

    def run(dtype):
        args, tans = _point(name, dtype)
        args = [torch.tensor(a, requires_grad=True) for a in args]
        y = op(*args)
        cot = torch.autograd.grad(y.sum(), args)
        _, dy = torch.func.jvp(op, tuple(a.detach() for a in args), tuple(torch.tensor(t) for t in tans))
        return [y.detach(), dy] + list(cot)
    got = run(np.float32)
    assert [g.dtype for g in got] == [torch.float32] * len(got), name
    _close([g.numpy() for g in got], [g.numpy() for g in run(np.float64)], name)


@pytest.mark.slow        # JAX compiles each primitive's derivatives per dtype
@pytest.mark.parametrize("name", NAMES)
def test_jax_keeps_float32(ops, name):     # ops: the module's private rule cache
    jax = need("jax")
    import jax.numpy as jnp
    import runtime.jax as rj

    before = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", True)     # else float32 everywhere: nothing to promote
    try:
        op = rj.define(_text(name))

        def run(dtype):
            args, tans = _point(name, dtype)
            args = [jnp.asarray(a) for a in args]
            y, dy = jax.jvp(op, tuple(args), tuple(jnp.asarray(t) for t in tans))
            cot = jax.vjp(op, *args)[1](jnp.ones_like(y))
            return [np.asarray(v) for v in [y, dy, *cot]]
        got = run(np.float32)
        assert [str(g.dtype) for g in got] == ["float32"] * len(got), name
        _close(got, run(np.float64), name)
    finally:
        jax.config.update("jax_enable_x64", before)
