"""Every generated NumPy op of every shipped rule, checked in both modes at random points.

Enrolled automatically from generated.*.OPS: finite differences and the adjoint identity in float64
(fresh points, not the ones derive-rules used), float32 keeps its dtype and agrees with float64, and
forward values match a plain NumPy reference where one exists.
"""
import importlib

import numpy as np
import pytest

import generated
from derive.verification import verify
from runtime import backend_numpy
from runtime.tangents import NoTangent, unthunk

OPS = []
for _m in generated.MODULES:
    _mod = importlib.import_module(f"generated.{_m}")
    _raw = _mod._define(backend_numpy)
    for _name, _meta in _mod.OPS.items():
        OPS.append(pytest.param(_mod, _raw, _name, _meta, id=f"{_m}.{_name}"))


@pytest.mark.parametrize("mod,raw,name,meta", OPS)
def test_float64_finite_differences_and_adjoint(mod, raw, name, meta):
    chk = verify.check_op(name, verify.load(mod), meta, seeds=(101, 202))   # chunked passes included
    assert chk.ok, chk.problems
    assert chk.fd_error < 1e-6 and chk.adjoint_error < 1e-10


@pytest.mark.parametrize("mod,raw,name,meta", OPS)
def test_public_functions_match_raw_implementation(mod, raw, name, meta):
    """The exported (checked, dispatching) functions give the same numbers as the generated bodies."""
    public = {k: getattr(mod, k) for k in (name, name + "_frule", name + "_rrule")}
    chk = verify.check_op(name, public, meta, seeds=(7,))
    assert chk.ok, chk.problems


def _as32(v):
    return v.astype(np.float32) if isinstance(v, np.ndarray) else v


def _close(a, b, tol):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    scale = max(np.linalg.norm(b), 1e-6)
    return np.linalg.norm(a - b) / scale < tol


@pytest.mark.parametrize("mod,raw,name,meta", OPS)
def test_float32_keeps_dtype_and_agrees(mod, raw, name, meta):
    rng = np.random.default_rng(5)
    x64 = verify.sample_inputs(meta, rng)
    x32 = [_as32(v) for v in x64]
    y64, pb64 = raw[name + "_rrule"](*x64)
    y32, pb32 = raw[name + "_rrule"](*x32)
    ys64 = y64 if isinstance(y64, tuple) else (y64,)
    ys32 = y32 if isinstance(y32, tuple) else (y32,)
    for a, b in zip(ys32, ys64):
        assert np.asarray(a).dtype == np.float32, f"{name}: forward returned {np.asarray(a).dtype}"
        assert _close(a, b, 1e-4)
    ybar64 = tuple(rng.standard_normal(np.shape(v)) for v in ys64)
    ybar32 = tuple(_as32(v) if np.ndim(v) else np.float32(v) for v in ybar64)
    g64 = pb64(ybar64 if isinstance(y64, tuple) else ybar64[0])
    g32 = pb32(ybar32 if isinstance(y32, tuple) else ybar32[0])
    for inp, a, b in zip(meta["inputs"], g32[1:], g64[1:]):
        a, b = unthunk(a), unthunk(b)
        if inp["kind"] == "int":
            assert isinstance(a, NoTangent)
            continue
        if inp["kind"] == "tensor":
            assert np.asarray(a).dtype == np.float32, f"{name}: cotangent of {inp['name']} is {np.asarray(a).dtype}"
        assert _close(a, b, 1e-3)


_erf = np.vectorize(__import__("math").erf)


def _ref_softmax(x):
    e = np.exp(x - x.max())
    return e / e.sum()


REFERENCES = {
    "matmul": lambda A, B: A @ B,
    "matvec": lambda A, x: A @ x,
    "dot": lambda x, y: x @ y,
    "outer": np.outer,
    "transpose": lambda A: A.T,
    "trace": np.trace,
    "inv": np.linalg.inv,
    "det": np.linalg.det,
    "logdet": lambda A: np.linalg.slogdet(A)[1],
    "solve": np.linalg.solve,
    "solve_matrix": np.linalg.solve,
    "quadratic": lambda x, A: x @ A @ x,
    "bilinear": lambda x, A, y: x @ A @ y,
    "mahalanobis": lambda x, S: x @ np.linalg.solve(S, x),
    "cayley": lambda A: np.linalg.solve(np.eye(len(A)) - A, np.eye(len(A)) + A),
    "batched_matmul": lambda A, B: A @ B,
    "bmm": lambda A, B: A @ B,
    "batched_transpose": lambda A: np.swapaxes(A, -1, -2),
    "batched_inv": np.linalg.inv,
    "batched_logdet": lambda A: np.linalg.slogdet(A)[1],
    "batched_solve": lambda A, y: np.linalg.solve(A, y[..., None])[..., 0],
    "batched_cayley": lambda A: np.linalg.solve(np.eye(A.shape[-1]) - A, np.eye(A.shape[-1]) + A),
    "sum": np.sum,
    "mean": np.mean,
    "logsumexp": lambda x: np.log(np.exp(x).sum()),
    "softmax": _ref_softmax,
    "log_softmax": lambda x: np.log(_ref_softmax(x)),
    "dense": lambda W, x, c: np.tanh(x @ W.T + c),
    "linear": lambda W, x, c: x @ W.T + c,
    "mse": lambda p, t: np.mean((p - t) ** 2),
    "cross_entropy": lambda z, t: -np.mean(np.sum(t * (z - np.log(np.exp(z).sum(1, keepdims=True))), 1)),
    "gaussian_kernel_sum": lambda x, y, b, s: np.exp(-((x[:, None, :] - y[None]) ** 2).sum(-1) / s) @ b,
    "sin": np.sin, "cos": np.cos, "asin": np.arcsin, "exp": np.exp, "log": np.log, "log1p": np.log1p,
    "expm1": np.expm1, "sqrt": np.sqrt, "tanh": np.tanh, "sigmoid": lambda x: 1 / (1 + np.exp(-x)),
    "softplus": lambda x: np.log1p(np.exp(x)), "relu": lambda x: np.maximum(x, 0),
    "foo": lambda x: np.arcsin(0.2 + np.sin(x)),
    "leaky_relu": lambda x: np.where(x > 0, x, 0.01 * x),
    "scale": lambda x, s: s * x, "power": lambda x, n: x ** n,
    "erf": _erf, "gelu": lambda x: 0.5 * x * (1 + _erf(x / np.sqrt(2))),
    "conv1d": lambda x, w: np.correlate(x, w, "valid"),
    "conv1d_stride2": lambda x, w: np.correlate(x, w, "valid")[::2],
    "conv2d": lambda x, K: _ref_conv2d(x, K),
    "conv2d_batch": lambda x, K: np.stack([_ref_conv2d(xn, K) for xn in x]),
    "depthwise_conv2d": lambda x, K: _ref_conv2d(x[:, None], K[:, None], "cxhw,cx->chw"),
    "laplacian": lambda u: u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[1:-1, 1:-1],
    "cumsum": np.cumsum, "cumsum_exclusive": lambda x: np.cumsum(x) - x,
    "reverse_cumsum": lambda x: np.cumsum(x[::-1])[::-1], "cumsum_rows": lambda x: np.cumsum(x, axis=1),
    "tril": np.tril, "triu_strict": lambda A: np.triu(A, 1),
    "causal_softmax": lambda s: _causal_softmax(s),
    "causal_attention": lambda q, k, v: _causal_softmax(q @ k.T / np.sqrt(q.shape[1])) @ v,
    "row_max": lambda S: S.max(axis=1), "matrix_min": np.min, "product": np.prod,
    "row_logsumexp": lambda z: np.log(np.exp(z - z.max(1, keepdims=True)).sum(1)) + z.max(1),
}


def _causal_softmax(s):
    """Row softmax over the entries on and below the diagonal; those above it are 0."""
    e = np.tril(np.exp(s - np.max(np.where(np.tri(*s.shape, dtype=bool), s, -np.inf), axis=1, keepdims=True)))
    return e / e.sum(axis=1, keepdims=True)


def _ref_conv2d(x, K, spec="chw,oc->ohw"):
    """Σ over kernel taps (p, q) of the input slice at that offset times the tap: the valid 2-D correlation."""
    P, Q = K.shape[-2:]
    H, W = x.shape[-2] - P + 1, x.shape[-1] - Q + 1
    return sum(np.einsum(spec, x[..., p:p + H, q:q + W], K[..., p, q]) for p in range(P) for q in range(Q))


@pytest.mark.parametrize("mod,raw,name,meta", OPS)
def test_forward_matches_numpy_reference(mod, raw, name, meta):
    ref = REFERENCES.get(name)
    # every shipped op has one: a new rule in rules/ comes with its plain NumPy reading here
    assert ref is not None, f"no plain NumPy reference for the shipped op {name}: add one to REFERENCES"
    x = verify.sample_inputs(meta, np.random.default_rng(3))
    np.testing.assert_allclose(raw[name](*x), ref(*x), rtol=1e-10, atol=1e-12)


def _listed(v):
    """v as a user may write it: a nested list of Python numbers (a Python float for a 0-d array)."""
    return v.tolist() if isinstance(v, np.ndarray) else v


def _same(a, b):
    if isinstance(a, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    a, b = unthunk(a), unthunk(b)
    if isinstance(b, NoTangent) or b is None:
        return isinstance(a, NoTangent) or a is None
    return np.shape(a) == np.shape(b) and np.allclose(a, b, rtol=1e-12, atol=0, equal_nan=True)


@pytest.mark.parametrize("mod,raw,name,meta", OPS)
def test_lists_are_taken_as_numpy_functions_take_them(mod, raw, name, meta):
    """forward, frule and rrule (and its pullback) of every op take nested lists where they take arrays, and give
    what they give for the arrays: generated.matmul([[1.]], [[2.]]) was a TypeError, and gaussian_kernel_sum
    with lists an AttributeError, where softmax took them."""
    rng = np.random.default_rng(11)
    x = verify.sample_inputs(meta, rng)
    dx = [rng.standard_normal(np.shape(v)) if p.get("kind") != "int" else NoTangent()
          for p, v in zip(meta["inputs"], x)]
    lx = [_listed(v) for v in x]
    f, frule, rrule = (getattr(mod, name + s) for s in ("", "_frule", "_rrule"))
    assert _same(f(*lx), f(*x))
    assert _same(frule((NoTangent(), *[_listed(d) for d in dx]), *lx), frule((NoTangent(), *dx), *x))
    y, pb = rrule(*x)
    ly, lpb = rrule(*lx)
    assert _same(ly, y)
    dy = tuple(rng.standard_normal(np.shape(v)) for v in y) if isinstance(y, tuple) else \
        rng.standard_normal(np.shape(y))
    assert _same(lpb(tuple(_listed(d) for d in dy) if isinstance(dy, tuple) else _listed(dy)), pb(dy))


def test_every_shipped_op_is_exported_with_frule_and_rrule():
    for m in generated.MODULES:
        mod = importlib.import_module(f"generated.{m}")
        for name in mod.OPS:
            for suffix in ("", "_frule", "_rrule"):
                assert callable(getattr(generated, name + suffix))


def test_kernel_sum_chunks_agree_with_one_shot():
    """With a tiny chunk budget the kernel sum and its gradient run in many slices, with equal results:
    the same generated source, its module-level budget set small."""
    from derive import api
    from derive.emission.numpy_print import CHUNK_NAME

    text = "gk(x[i,d], y[j,d], b[j], s) -> out[i] = sum(j, exp(-sum(d, (x[i,d] - y[j,d])**2) / s) * b[j])"
    results = api.derive_text(text, "<t>", verify_rules=False)
    src = api.render_module(results, "<t>", export=False)
    assert "np.concatenate" in src
    one, many = {}, {}
    exec(src, one)
    exec(src, many)
    many[CHUNK_NAME] = 64
    f1, f2 = one["_define"](backend_numpy), many["_define"](backend_numpy)
    rng = np.random.default_rng(0)
    x, y, b = rng.standard_normal((37, 3)), rng.standard_normal((29, 3)), rng.standard_normal(29)
    np.testing.assert_allclose(f2["gk"](x, y, b, 1.5), f1["gk"](x, y, b, 1.5), rtol=1e-12)
    ybar = rng.standard_normal(37)
    g1 = [unthunk(g) for g in f1["gk_rrule"](x, y, b, 1.5)[1](ybar)[1:]]
    g2 = [unthunk(g) for g in f2["gk_rrule"](x, y, b, 1.5)[1](ybar)[1:]]
    for a, c in zip(g2, g1):
        np.testing.assert_allclose(a, c, rtol=1e-12)


def test_extents_are_defined_once_where_read_and_nowhere_else():
    """OpGen defines an extent at the top of a function when the code reads it (not by deleting unread ones
    from the text afterwards): an elementwise op reads none and takes a 0-d array; a mean reads its one."""
    import re

    from derive import api

    results = api.derive_text("ew(x[i]) -> y[i] = sin(x[i])\nmean(x[i]) -> m = sum(i, x[i]) / size(i)\n",
                              "<t>", verify_rules=False)
    ns: dict = {}
    src = api.render_module(results, "<t>", export=False)
    exec(compile(src, "<t>", "exec"), ns)
    fns = ns["_define"](backend_numpy)
    for body in re.split(r"\n    def ", src)[1:]:
        name, defs = body.split("(")[0], re.findall(r"\n\s+(n_\w+) = ", body)
        if name.startswith("ew"):
            assert defs == [], body
        elif name.startswith("mean"):
            assert defs == ["n_i"], body
    x = np.float64(0.3)
    assert fns["ew"](x) == pytest.approx(np.sin(0.3))
    assert unthunk(fns["ew_rrule"](x)[1](np.float64(1.0))[1]) == pytest.approx(np.cos(0.3))
    assert fns["mean"](np.array([1.0, 2.0, 6.0])) == pytest.approx(3.0)


def test_small_integer_powers_are_products_not_pow_calls():
    """x ** 3 in NumPy calls pow() per element (~80 ns each here; only ** 2, ** 0.5 and ** -1 have fast paths):
    the generated code multiplies instead, to within a few ulp of np.power."""
    import numpy as np

    from derive import api
    from runtime import backend_numpy

    text = "cube(x[i]) -> y[i] = x[i]**3\nquart(x[i]) -> y[i] = 1 / x[i]**4\ninvsq(x[i]) -> y[i] = x[i]**-2\n"
    rs = api.derive_text(text, "<powers>")
    assert all(r.ok for r in rs)
    src = api.render_module(rs, "<powers>", export=False)
    assert "** 3" not in src and "** 4" not in src and "** -4" not in src and "** -2" not in src
    ns: dict = {}
    exec(compile(src, "<powers>", "exec"), ns)
    fns = ns["_define"](backend_numpy)
    x = np.random.default_rng(0).uniform(0.5, 3, 1000) * np.random.default_rng(1).choice([-1, 1], 1000)
    for name, n in (("cube", 3), ("quart", -4), ("invsq", -2)):
        want = np.power(x, float(n))
        assert np.max(np.abs(fns[name](x) - want) / np.abs(want)) < 1e-15
        _, pb = fns[name + "_rrule"](x)
        dwant = n * np.power(x, float(n - 1))
        assert np.max(np.abs(pb(np.ones_like(x))[1] - dwant) / np.abs(dwant)) < 1e-15
