"""runtime.jax: every shipped op as a JAX function -- check_grads (order 2, forward and reverse) in float64,
values against the NumPy generated op, jit(grad) against the NumPy rrule, vmap against a loop, float32 kept,
define/load, the declared matrix primitives in JAX, errors, and the sharded example (2 host devices)."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from tests.frameworks import need

jax = need("jax")
import jax.numpy as jnp  # noqa: E402
from jax.test_util import check_grads  # noqa: E402
from numdiff import assert_close  # noqa: E402
from test_generated_ops import OPS, make_args  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="module", autouse=True)
def x64():
    """float64 for this module only (runtime.jax leaves JAX's configuration alone)."""
    before = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", True)
    yield
    jax.config.update("jax_enable_x64", before)


@pytest.fixture(scope="module")
def rj(x64):
    import runtime.jax as rj

    return rj


def valid_args(op, seed=0):
    """make_args's point, with extents from few values (2, 3) so that the eager primitives JAX compiles per shape
    are shared between ops."""
    return make_args(op, seed, sizes=iter([2, 3] * 4))


def _diff(op):
    return [k for k, p in enumerate(op.inputs) if p.get("kind") != "int"]


def _of_diff(f, op, args):
    """f as a function of the differentiable arguments only (integer parameters fixed)."""
    pos = _diff(op)

    def g(*xs):
        a = list(args)
        for k, x in zip(pos, xs):
            a[k] = x
        return f(*a)
    return g, tuple(jnp.asarray(args[k]) for k in pos)


IDS = [f"{op.module_name.split('.')[-1]}.{op.name}" for op in OPS]


@pytest.mark.parametrize("op", OPS, ids=IDS)
def test_check_grads_and_values(op, rj):
    args = valid_args(op)
    f = getattr(rj, op.name)
    g, xs = _of_diff(f, op, args)
    want = op(*args)
    got = g(*xs)
    for a, b in zip(got if isinstance(got, tuple) else (got,), want if isinstance(want, tuple) else (want,)):
        assert a.dtype == jnp.float64
        assert_close(np.asarray(a), b, rtol=1e-12, atol=1e-14)
    check_grads(g, xs, order=2, modes=("fwd", "rev"))


# one per kind of generated code (jit compiles are slow): a shared factorisation, a batch axis, a log-sum-exp,
# a chunked reduction, an integer parameter, a scalar argument
JIT_OPS = ["solve", "batched_solve", "cross_entropy", "gaussian_kernel_sum", "power", "scale"]


@pytest.mark.parametrize("name", JIT_OPS)
def test_jit_grad_matches_the_numpy_rrule(name, rj):
    from runtime import unthunk

    op = next(o for o in OPS if o.name == name)
    args = valid_args(op, seed=3)
    W = np.random.default_rng(4).standard_normal(np.shape(op(*args)))
    pos = _diff(op)
    f = getattr(rj, name)
    g, xs = _of_diff(lambda *a: jnp.sum(f(*a) * W), op, args)
    grads = jax.jit(jax.grad(g, argnums=tuple(range(len(xs)))))(*xs)
    cots = op.rrule(*args)[1](W)
    for k, gk in zip(pos, grads):
        assert_close(np.asarray(gk), unthunk(cots[k + 1]), rtol=1e-10, atol=1e-12)
    # forward and reverse Jacobians agree (jacfwd transposes nothing; jacrev transposes the frule)
    J1, J2 = jax.jacfwd(g)(*xs), jax.jacrev(g)(*xs)
    assert_close(np.asarray(J1), np.asarray(J2), rtol=1e-10, atol=1e-12)


def test_vmap_over_a_leading_batch_axis(rj):
    rng = np.random.default_rng(5)
    A = rng.standard_normal((4, 3, 3)) * 0.3 + 3 * np.eye(3)
    b = rng.standard_normal((4, 3))
    x = rng.uniform(0.5, 2.0, (4, 3))
    f = jax.jit(jax.vmap(lambda A, b, x: (rj.solve(A, b), rj.inv(A), rj.softmax(x), rj.logdet(A @ A.T))))
    got = f(A, b, x)
    import generated

    for k in range(4):
        want = (generated.solve(A[k], b[k]), generated.inv(A[k]), generated.softmax(x[k]),
                generated.logdet(A[k] @ A[k].T))
        for gv, wv in zip(got, want):
            assert_close(np.asarray(gv[k]), wv, rtol=1e-12, atol=1e-14)
    # per-example gradients: vmap(grad)
    g = jax.vmap(jax.grad(lambda A: rj.logdet(A @ A.T)))(A)
    for k in range(4):
        assert_close(np.asarray(g[k]), 2 * np.linalg.inv(A[k]).T, rtol=1e-10)


def test_float32_stays_float32(rj):
    rng = np.random.default_rng(6)
    A = jnp.asarray(rng.standard_normal((3, 3)) + 3 * np.eye(3), jnp.float32)
    x = jnp.asarray(rng.uniform(0.5, 2.0, 3), jnp.float32)
    W = jnp.asarray(rng.standard_normal((2, 3)), jnp.float32)
    X = jnp.asarray(rng.standard_normal((4, 3)), jnp.float32)
    c = jnp.zeros(2, jnp.float32)
    for f, args in ((rj.inv, (A,)), (rj.softmax, (x,)), (rj.mean, (x,)), (rj.dense, (W, X, c))):
        y = f(*args)
        assert y.dtype == jnp.float32, f.__name__
        g = jax.grad(lambda a: jnp.sum(f(a, *args[1:])))(args[0])
        assert g.dtype == jnp.float32, f.__name__
        assert np.allclose(np.asarray(y, np.float64), getattr(__import__("generated"), f.__name__)(
            *[np.asarray(a, np.float64) for a in args]), rtol=1e-5, atol=1e-6)


DEFINED = "mixture(x[i], S[i,j]: spd) -> y[] = logdet(S) + x[i] * solve(S, x)[i]"


def test_define_gives_a_jax_function(rj):
    from runtime import define

    f = rj.define(DEFINED)
    rng = np.random.default_rng(7)
    X = rng.standard_normal((3, 3)) * 0.3
    S, x = X @ X.T + 3 * np.eye(3), rng.standard_normal(3)
    assert_close(float(f(x, S)), np.linalg.slogdet(S)[1] + x @ np.linalg.solve(S, x), rtol=1e-12)
    check_grads(f, (x, S), order=2, modes=("fwd", "rev"))
    _, pb = define(DEFINED).rrule(x, S)
    from runtime import unthunk

    gx, gS = jax.jit(jax.grad(f, argnums=(0, 1)))(x, S)
    assert_close(np.asarray(gx), unthunk(pb(1.0)[1]), rtol=1e-10)
    assert_close(np.asarray(gS), unthunk(pb(1.0)[2]), rtol=1e-10)


# Every declared matrix primitive, through generated code that derive-rules writes: runtime.jax.load
SPECTRAL = textwrap.dedent("""\
    chol(A[i,j]: spd) -> L[i,j] = cholesky(A[i,j])
    beigv(A[b,i,j]: symmetric) -> w[b,i] = eigvalsh(A[b,i,j])
    eigV(A[i,j]: symmetric) -> V[i,j] = eigvecsh(A[i,j])
    expm_(A[i,j]) -> E[i,j] = expm(A[i,j])
    logm_(S[i,j]: spd) -> L[i,j] = logm(S[i,j])
    sqrtq(S[i,j]: spd, x[i]) -> y[] = sqrtm(S)[i,j] * x[i] * x[j]
""")


@pytest.fixture(scope="module")
def spectral(tmp_path_factory, rj):
    from derive.api import generate_module_source

    path = tmp_path_factory.mktemp("jaxload") / "spectral_jax.py"
    path.write_text(generate_module_source(SPECTRAL, module_name="spectral_jax", source_label="spectral"))
    return rj.load(str(path))


def _sym(A):
    return 0.5 * (A + jnp.swapaxes(A, -1, -2))    # symmetric arguments: finite differences along symmetric directions


@pytest.mark.slow
def test_loaded_module_and_every_matrix_primitive(spectral, rj):
    import runtime.backend_jax as bj
    from primitives.matrix import PRIMITIVES

    assert set(bj._PRIMS) == set(PRIMITIVES)
    rng = np.random.default_rng(8)
    X = rng.standard_normal((3, 3)) * 0.3
    S = X @ X.T + 3 * np.eye(3)
    Sb = np.stack([S, S + np.diag([0.1, 0.5, 1.0])])
    w, V = np.linalg.eigh(S)
    cases = [
        (lambda A: spectral.chol(_sym(A)), (S,), np.linalg.cholesky(S), 2),
        (lambda A: spectral.beigv(_sym(A)), (Sb,), np.stack([np.linalg.eigvalsh(Sb[k]) for k in range(2)]), 2),
        (lambda A: spectral.logm_(_sym(A)), (S,), (V * np.log(w)) @ V.T, 2),
        (lambda A, x: spectral.sqrtq(_sym(A), x), (S, X[0]), X[0] @ ((V * np.sqrt(w)) @ V.T) @ X[0], 2),
        (lambda A: spectral.eigV(_sym(A)), (S,), None, 2),
        # expm's second derivative is JAX's own through its Padé code: slow to compile, checked to first order
        (spectral.expm_, (X,), __import__("scipy.linalg").linalg.expm(X), 1),
    ]
    for f, args, want, order in cases:
        if want is not None:
            assert_close(np.asarray(f(*args)), want, rtol=1e-10, atol=1e-12)
        check_grads(f, args, order=order, modes=("fwd", "rev"))
    # eigenvectors: the declarations' sign convention (largest component positive), as the NumPy op
    Vj = np.asarray(spectral.eigV(S))
    assert np.all(Vj[np.argmax(np.abs(Vj), axis=0), range(3)] > 0)
    assert_close(np.abs(Vj), np.abs(V), rtol=1e-10, atol=1e-12)


def test_det_second_derivative_at_a_singular_matrix(rj):
    # det's Hessian through the adjugate's declared jvp: finite at a singular matrix, where JAX's derivative of
    # an SVD-based adjugate would divide by zero; d²det[E, E] = 2·(e11·e22 - e12·e21) for 2×2 matrices
    A = jnp.array([[1.0, 2.0], [2.0, 4.0]])
    E = jnp.array([[0.3, -0.2], [0.5, 0.7]])
    h = jax.jvp(jax.grad(rj.det), (A,), (E,))[1]
    assert_close(float(jnp.sum(h * E)), 2 * (0.3 * 0.7 - (-0.2) * 0.5), rtol=1e-12)


def test_errors_name_the_op_index_and_extents(rj):
    with pytest.raises(ValueError, match=r"matmul: index k has extent 3 in A \(axis 1\) but 2 in B \(axis 0\)"):
        rj.matmul(jnp.ones((2, 3)), jnp.ones((2, 3)))
    with pytest.raises(ValueError, match=r"matmul: index k has extent 3"):
        jax.jit(rj.matmul)(jnp.ones((2, 3)), jnp.ones((2, 3)))
    with pytest.raises(TypeError, match=r"inv: expected 1 argument \(A\) but got 2"):
        rj.inv(jnp.eye(2), jnp.eye(2))
    with pytest.raises(TypeError, match=r"power: n must be an int"):
        rj.power(jnp.ones(2), 2.5)
    with pytest.raises(AttributeError, match="no shipped op named 'nope'"):
        rj.nope


def test_without_jax_the_import_names_the_extra():
    code = "import sys; sys.modules['jax'] = None; import runtime.jax"
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": ROOT})
    assert r.returncode != 0
    assert "ImportError" in r.stderr and "pip install 'tensor-rules[jax]'" in r.stderr


def test_sharded_example_matches_unsharded():
    env = {**os.environ, "PYTHONPATH": ROOT, "XLA_FLAGS": "--xla_force_host_platform_device_count=2"}
    r = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "jax_sharded_mlp.py")], cwd=ROOT,
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "input sharded over 2 devices" in r.stdout and r.stdout.strip().endswith("OK"), r.stdout


def test_load_sees_a_regenerated_file(tmp_path):
    import runtime.jax as rj_

    rules = tmp_path / "mine.rules"
    out = tmp_path / "out"
    env = dict(os.environ, PYTHONPATH=ROOT, TENSOR_RULES_CACHE=str(tmp_path / "cache"))
    values = []
    for body in ("x[i] * x[i]", "x[i] * x[i] * x[i]"):
        rules.write_text(f"cube(x[i]) -> y[i] = {body}\n")
        subprocess.run([sys.executable, "-m", "derive.cli", "-q", str(rules), "--out", str(out)], cwd=ROOT,
                       env=env, check=True, capture_output=True)
        values.append(float(rj_.load(out / "mine.py").cube(jnp.array([2.0]))[0]))
    assert values == [4.0, 8.0]


# -- found by an adversarial pass (each failed before its fix) ---------------------------------------------
def test_complex_lists_and_traced_int_parameters_are_refused_by_name():
    import runtime.jax as rj_

    with pytest.raises(TypeError, match="det: A is complex"):
        rj_.det(jnp.eye(2, dtype=jnp.complex128))
    with pytest.raises(TypeError, match="inv: A must be an array, not list"):
        rj_.inv([[4.0, 1.0], [1.0, 3.0]])
    with pytest.raises(TypeError, match=r"power: n is an int parameter but was traced; .*static_argnums"):
        jax.jit(rj_.power)(jnp.ones(2), 3)
    np.testing.assert_allclose(jax.jit(rj_.power, static_argnums=1)(jnp.full(2, 2.0), 3), [8.0, 8.0])
    np.testing.assert_allclose(rj_.inv(np.array([[4.0, 1.0], [1.0, 3.0]])), np.linalg.inv([[4.0, 1.0], [1.0, 3.0]]))


def test_an_integer_output_has_a_float0_tangent(tmp_path, monkeypatch):
    monkeypatch.setenv("TENSOR_RULES_CACHE", str(tmp_path))
    import runtime.jax as rj_

    cnt = rj_.define("cnt(x[i]) -> n[] = size(i)")
    x = jnp.ones(3)
    assert int(cnt(x)) == 3 and isinstance(cnt(x), jax.Array)
    y, dy = jax.jvp(cnt, (x,), (x,))
    assert int(y) == 3 and dy.dtype == jax.dtypes.float0


def test_a_shipped_name_is_the_shipped_op_whatever_was_defined(tmp_path, monkeypatch):
    monkeypatch.setenv("TENSOR_RULES_CACHE", str(tmp_path))
    code = textwrap.dedent("""
        import jax.numpy as jnp, runtime.jax as rj
        rj.inv                                   # the shipped library imported first
        mine = rj.define("softmax(x[i]) -> y[i] = 10 * x[i]")
        print(float(rj.softmax(jnp.array([1.0, 1.0]))[0]), float(mine(jnp.array([1.0, 1.0]))[0]))
    """)
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=ROOT, TENSOR_RULES_CACHE=str(tmp_path)))
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["0.5", "10.0"]
