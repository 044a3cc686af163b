"""Issue #25: an input declared `symmetric` or `spd` lives on symmetric matrices, so the pullback returns its
cotangent in that tangent space, sym(G) = (G + Gᵀ)/2 (docs/language.md, *Symmetric tangents*), whatever the rule
computes with it: a primitive defined on symmetric matrices (cholesky, eigvalsh, eigvecsh, logm, sqrtm), one defined
on general matrices (expm, logdet) or a user's own expression, on every emitted path (NumPy, native C++, CUDA in the
CPU emulation, runtime.torch, runtime.jax), and check_rrule fails a pullback that returns anything else.

The references are independent of the code under test: the forward functions are written here with NumPy/SciPy, and
the gradient is recovered from central finite differences along symmetric directions E = E_rc + E_cr
(⟨G, E⟩ = d/dt f(A + tE) determines the symmetric G entry by entry), and its symmetry is asserted apart.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.linalg

from derive import api
from derive.emission import cpp as codegen_cpp
from derive.emission import cuda as codegen_cuda
from derive.verification import verify
from runtime import NoTangent, backend_numpy, check_rrule, register_rrule
from runtime.tangents import unthunk

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "codegen"))
import cuda_emu  # noqa: E402  (tests/codegen/cuda_emu.py)

N = 4


def _eigh_signed(A):
    """Eigenvectors with the documented sign convention (each column's entry of largest magnitude positive),
    written here apart from primitives.sym."""
    w, V = np.linalg.eigh(A)
    k = np.argmax(np.abs(V), axis=0)
    return w, V * np.where(V[k, np.arange(V.shape[1])] < 0, -1.0, 1.0)


# name -> (rule text, its domain, an independent forward: the tuple of inputs -> the output)
RULES = {
    "sy_chol": ("sy_chol(A[i,j]: spd) -> L[i,j] = cholesky(A[i,j])", "spd", lambda A: np.linalg.cholesky(A)),
    "sy_eigvalsh": ("sy_eigvalsh(A[i,j]: symmetric) -> w[i] = eigvalsh(A[i,j])", "symmetric",
                    lambda A: np.linalg.eigvalsh(A)),
    "sy_eigvecsh": ("sy_eigvecsh(A[i,j]: symmetric) -> V[i,j] = eigvecsh(A[i,j])", "symmetric",
                    lambda A: _eigh_signed(A)[1]),
    "sy_logm": ("sy_logm(S[i,j]: spd) -> L[i,j] = logm(S[i,j])", "spd", lambda S: np.real(scipy.linalg.logm(S))),
    "sy_sqrtm": ("sy_sqrtm(S[i,j]: spd) -> R[i,j] = sqrtm(S[i,j])", "spd",
                 lambda S: np.real(scipy.linalg.sqrtm(S))),
    "sy_expm": ("sy_expm(A[i,j]: symmetric) -> Y[i,j] = expm(A[i,j])", "symmetric", lambda A: scipy.linalg.expm(A)),
    "sy_logdet": ("sy_logdet(S[i,j]: spd) -> y[] = logdet(S[i,j])", "spd", lambda S: np.linalg.slogdet(S)[1]),
    # a user's own expression: d/dA tr(A·A·B) = (A·B + B·A)ᵀ, not symmetric for a general B
    "sy_user": ("sy_user(A[i,j]: symmetric, B0[i,j]) -> y[] = A[i,j] * A[j,k] * B0[k,i]", "symmetric",
                lambda A, B: np.einsum("ij,jk,ki->", A, A, B)),
    # a part symmetric by its form (S⁻¹ from logdet) beside one that is not (expm's L(Sᵀ, B))
    "sy_mix": ("sy_mix(S[i,j]: spd, B0[i,j]) -> y[] = expm(S)[i,j] * B0[i,j] + logdet(S)", "spd",
               lambda S, B: np.sum(scipy.linalg.expm(S) * B) + np.linalg.slogdet(S)[1]),
}
WITH_B = ("sy_user", "sy_mix")     # a second input B0 the reference fixes; its own cotangent is not under test


def _b0():
    return np.random.default_rng(11).standard_normal((N, N))


def _point(dom, seed=2):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-0.5, 0.5, (N, N))
    if dom == "spd":
        A = X @ X.T + np.eye(N)
    else:
        A = (X + X.T) / 2 + np.diag([2.0, -1.0, 0.5, -2.5])     # indefinite, eigenvalues well apart
    return (A + A.T) / 2


def _forward(name):
    """The rule's value as a function of its symmetric input alone."""
    f = RULES[name][2]
    return (lambda A: f(A, _b0())) if name in WITH_B else f


def _fd_symmetric_gradient(f, A, ybar, h=1e-5):
    """The symmetric G with ⟨G, E⟩ = d/dt ⟨ȳ, f(A + tE)⟩ for every symmetric E, by central differences along
    E_rr and E_rc + E_cr."""
    G = np.zeros_like(A)
    for r in range(N):
        for c in range(r, N):
            E = np.zeros_like(A)
            E[r, c] = E[c, r] = 1.0
            d = (np.sum(ybar * f(A + h * E)) - np.sum(ybar * f(A - h * E))) / (2 * h)
            G[r, c] = G[c, r] = d if r == c else d / 2
    return G


def _assert_symmetric_gradient(G, name, A, ybar, rtol=1e-6):
    G = np.asarray(unthunk(G), dtype=np.float64)
    asym = np.linalg.norm(G - G.T) / np.linalg.norm(G)
    assert asym <= 1e-12, f"{name}: the cotangent of a symmetric input has an antisymmetric part {asym:.3g}"
    want = _fd_symmetric_gradient(_forward(name), A, ybar)
    err = np.linalg.norm(G - want) / np.linalg.norm(want)
    assert err <= rtol, f"{name}: {err:.3g} away from the symmetric gradient"


def _rule_text(name):
    return RULES[name][0]


def _args(name):
    A = _point(RULES[name][1])
    return [A, _b0()] if name in WITH_B else [A]


def _ybar(y, seed=7):
    return np.random.default_rng(seed).standard_normal(np.shape(y))


@pytest.fixture(scope="module")
def derived():
    results = api.derive_text("\n".join(_rule_text(n) for n in RULES), "<sym>", verify_rules=False)
    src = api.render_module(results, "<sym>", export=False)
    ns: dict = {}
    exec(compile(src, "<sym>", "exec"), ns)
    return results, src, ns["_define"](backend_numpy)


@pytest.mark.parametrize("name", list(RULES))
def test_numpy_pullback_is_the_symmetric_gradient(name, derived):
    fns = derived[2]
    args = _args(name)
    y, pullback = fns[f"{name}_rrule"](*args)
    np.testing.assert_allclose(y, _forward(name)(args[0]), rtol=1e-10, atol=1e-12)
    ybar = _ybar(y)
    _assert_symmetric_gradient(pullback(ybar)[1], name, args[0], ybar)


def test_the_batched_twin_symmetrizes_each_matrix(derived):
    """`A[b,i,j]: symmetric` is symmetric in its last two indices: each matrix of the batch gets sym(G)."""
    (r,) = api.derive_text("sy_bexpm(A[b,i,j]: symmetric) -> Y[b,i,j] = expm(A[b,i,j])", "<symb>",
                           verify_rules=False)
    src = api.render_module([r], "<symb>", export=False)
    ns: dict = {}
    exec(compile(src, "<symb>", "exec"), ns)
    fns = ns["_define"](backend_numpy)
    A = np.stack([_point("symmetric", s) for s in (2, 3)])
    y, pullback = fns["sy_bexpm_rrule"](A)
    ybar = _ybar(y)
    G = np.asarray(unthunk(pullback(ybar)[1]))
    for b in range(2):
        _assert_symmetric_gradient(G[b], "sy_expm", A[b], ybar[b])


@pytest.mark.parametrize("name", ["sy_expm", "sy_user", "sy_mix", "sy_chol"])
def test_derive_rules_verifies_and_check_rrule_passes(name, tmp_path, monkeypatch):
    """The verifier passes the projected pullback, and check_rrule (which now requires a declared symmetric
    input's cotangent to be symmetric) passes the op runtime.define returns."""
    (r,) = api.derive_text(_rule_text(name), "<sym1>")
    assert r.ok, (r.error, r.check and r.check.problems)
    from runtime import define, rule_cache

    monkeypatch.setenv("TENSOR_RULES_CACHE", str(tmp_path))
    monkeypatch.setattr(rule_cache, "_MEMO", {})
    op = define(_rule_text(name))
    assert check_rrule(op, *_args(name)).ok


# -- check_rrule and the verifier catch a cotangent outside the tangent space -------------------------------------


def _expm_op(label, vjp):
    def f(A):
        return scipy.linalg.expm(A)
    f.__name__ = label
    return register_rrule(f, lambda A: (scipy.linalg.expm(A), lambda Ybar: (NoTangent(), vjp(A, Ybar))))


def _frechet_t(A, Ybar):
    """The transpose of expm's Fréchet derivative, L(Aᵀ, Ȳ): right on general matrices, not symmetric."""
    return scipy.linalg.expm_frechet(A.T, Ybar, compute_expm=False)


def test_check_rrule_fails_a_cotangent_outside_a_declared_symmetric_tangent_space():
    A = _point("symmetric")
    wrong = _expm_op("expm_unsym", _frechet_t)
    with pytest.raises(AssertionError, match=r"FAILED(.|\n)*not in its tangent space"):
        check_rrule(wrong, A, tangent_space={0: "symmetric"})
    right = _expm_op("expm_sym", lambda A, Yb: (_frechet_t(A, Yb) + _frechet_t(A, Yb).T) / 2)
    assert check_rrule(right, A, tangent_space={0: "symmetric"}).ok
    # on general matrices the unsymmetrized one is the right gradient
    assert check_rrule(wrong, A).ok


def test_check_rrule_fails_a_generated_op_whose_declared_symmetric_input_gets_a_general_cotangent():
    """An op whose meta declares A symmetric (as derive-rules writes it) but whose pullback is expm's general one."""
    from types import SimpleNamespace

    from runtime.registry import Op

    meta = {"signature": "bad(A[i,j]: symmetric) -> Y[i,j]",
            "inputs": [{"name": "A", "kind": "tensor", "indices": ["i", "j"], "domain": "symmetric"}],
            "outputs": [{"name": "Y", "indices": ["i", "j"]}], "equal_extents": [["i", "j"]],
            "domains": {"A": "symmetric"}, "source": "<test>"}
    fns = {"bad": scipy.linalg.expm,
           "bad_frule": lambda t, A: (scipy.linalg.expm(A), scipy.linalg.expm_frechet(A, t[1], compute_expm=False)),
           "bad_rrule": lambda A: (scipy.linalg.expm(A), lambda Yb: (NoTangent(), _frechet_t(A, Yb)))}
    op = Op("<test>", "bad", meta, SimpleNamespace(plain=fns))
    with pytest.raises(AssertionError, match="not in its tangent space"):
        check_rrule(op, _point("symmetric"))
    # the verifier, which derive-rules runs on every rule before it is emitted, catches it too
    chk = verify.check_op("bad", fns, meta)
    assert not chk.ok and any("tangent space" in p for p in chk.problems), chk.problems


def test_the_verifier_fails_a_derivation_that_leaves_a_declared_input_general(monkeypatch):
    """What the derivation did before issue #25 (no projection): derive-rules' verifier refuses it."""
    from derive.calculus import differential

    monkeypatch.setattr(differential, "_symmetric_by_form", lambda *a: True)
    for name in ("sy_expm", "sy_user"):
        (r,) = api.derive_text(_rule_text(name), "<sym-wrong>")
        assert not r.ok and any("not in its tangent space" in p for p in r.check.problems), r.check.problems


def test_an_input_only_inferred_spd_keeps_its_general_gradient(tmp_path, monkeypatch):
    """logdet(A) with A undeclared treats A as a general matrix: its gradient A⁻ᵀ + B is not projected, and
    check_rrule at a symmetric point compares its symmetric part (symmetric tangents) without requiring it."""
    from runtime import define, rule_cache

    monkeypatch.setenv("TENSOR_RULES_CACHE", str(tmp_path))
    monkeypatch.setattr(rule_cache, "_MEMO", {})
    op = define("inferred(A[i,j], B[i,j]) -> y[] = logdet(A) + A[i,j] * B[i,j]")
    A, B = _point("spd"), _b0()
    _, pullback = op.rrule(A, B)
    np.testing.assert_allclose(np.asarray(unthunk(pullback(1.0)[1])), np.linalg.inv(A).T + B, rtol=1e-10)
    assert op.meta["domains"]["A"] == "spd" and "domain" not in op.meta["inputs"][0]
    assert check_rrule(op, A, B).ok


# -- the other emitted paths ----------------------------------------------------------------------------------------


def test_native_cpu_kernels_return_the_symmetric_gradient(derived):
    from runtime import cuda as plan
    from runtime import native

    ok, why = native.available()
    if not ok:
        pytest.skip(f"native CPU kernels unavailable: {why}")
    results, src, _ = derived
    files = codegen_cpp.generate_cpu(results, "<sym>", module_text=src, name="sym")
    manifest = json.loads(files["sym.json"])
    mod = plan.Module("<sym>", files["sym.cpp"], manifest)
    # the native CPU plans leave matrix primitives to the NumPy code: the user's expression is the one planned
    assert "sy_user" in manifest["ops"], sorted(manifest["ops"])
    for name in manifest["ops"]:
        args = _args(name)
        y, pullback = native.call(mod, name, "rrule", args, native.CHECK_DEVICE)
        ybar = _ybar(y)
        _assert_symmetric_gradient(pullback(ybar)[1], name, args[0], ybar)


def _cuda_device(where):
    from runtime import cuda as rc

    ok, why = rc.available() if where == "gpu" else cuda_emu.available()
    if not ok:
        pytest.skip(f"no {'GPU' if where == 'gpu' else 'CPU emulation'}: {why}")
    return rc.device() if where == "gpu" else cuda_emu.EmuDevice(sm_count=2)


@pytest.mark.parametrize("where", [pytest.param("gpu", marks=pytest.mark.gpu), "emu"])
def test_cuda_kernels_return_the_symmetric_gradient(where, derived):
    """The CUDA plan's kernels (the matrix primitives' device functions, then sym(G) as a kernel of its own), on a
    GPU where there is one and in the CPU emulation."""
    from runtime import cuda as rc

    dev = _cuda_device(where)
    files = codegen_cuda.generate_cuda(derived[0], "<sym>", name="sym")
    plan = json.loads(files["sym.json"])
    assert not plan.get("unsupported"), plan.get("unsupported")
    mod = rc.Module("sym", files["sym.cu"], plan)
    for name in RULES:
        args = _args(name)
        y, pullback = rc.call(mod, name, "rrule", [dev.asarray(a, np.float64) for a in args], dev)
        y = np.asarray(y.get() if hasattr(y, "get") else y)
        ybar = _ybar(y)
        G = pullback(dev.asarray(ybar, np.float64))[1]
        _assert_symmetric_gradient(np.asarray(G.get() if hasattr(G, "get") else G), name, args[0], ybar)


@pytest.mark.parametrize("name", ["sy_expm", "sy_user", "sy_eigvecsh"])
def test_torch_bridge_returns_the_symmetric_gradient(name, tmp_path, monkeypatch):
    torch = pytest.importorskip("torch")
    import runtime.torch as rt

    monkeypatch.setenv("TENSOR_RULES_CACHE", str(tmp_path))
    op = rt.define(_rule_text(name))
    args = _args(name)
    targs = [torch.tensor(a, requires_grad=(k == 0)) for k, a in enumerate(args)]
    y = op(*targs)
    ybar = _ybar(y.detach().numpy())
    (G,) = torch.autograd.grad(y, targs[0], torch.tensor(ybar))
    _assert_symmetric_gradient(G.numpy(), name, args[0], ybar)


@pytest.mark.parametrize("name", ["sy_expm", "sy_user", "sy_eigvecsh"])
def test_jax_bridge_returns_the_symmetric_gradient(name, tmp_path, monkeypatch):
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp

    import runtime.jax as rj

    monkeypatch.setenv("TENSOR_RULES_CACHE", str(tmp_path))
    op = rj.define(_rule_text(name))
    args = [jnp.asarray(a) for a in _args(name)]
    y, vjp = jax.vjp(lambda A: op(A, *args[1:]), args[0])
    ybar = _ybar(np.asarray(y))
    (G,) = vjp(jnp.asarray(ybar))
    _assert_symmetric_gradient(np.asarray(G), name, np.asarray(args[0]), ybar)
