"""runtime.checking, the finite-difference and adjoint core shared by derive.verification.verify and check_rrule/check_frule:
a wrong derivative fails, NaN fails, and a derivative defined only on symmetric matrices (cholesky) passes along
symmetric tangents and fails along general ones."""
import numpy as np
import pytest

from derive.verification import verify
from runtime import NoTangent, check_frule, check_rrule, checking, register_frule, register_rrule

# -- the core -----------------------------------------------------------------------------------------------------


def test_rel_error_never_drops_a_nan_or_an_inf():
    a = np.array([1.0, 2.0, 3.0])
    assert checking.rel_error(a, a) == 0.0
    assert checking.rel_error(np.array([1.0, np.nan, 3.0]), a) == np.inf
    assert checking.rel_error(a, np.array([1.0, np.inf, 3.0])) == np.inf
    assert checking.rel_error(a, a[:2]) == np.inf
    per = checking.rel_error(np.array([1.0, np.nan, 3.3]), a, per_entry=True)
    assert per[0] == 0.0 and per[1] == np.inf and per[2] == pytest.approx(0.3 / 3.3)
    # a zero tangent is zeros, against a tuple holding one too
    assert checking.rel_error((NoTangent(), a), (np.zeros(2), a)) == 0.0
    assert checking.rel_error(NoTangent(), a) == 1.0


def test_adjoint_error_catches_a_pullback_that_is_not_the_transpose():
    rng = np.random.default_rng(0)
    J = rng.standard_normal((4, 3))
    xdot, ybar = rng.standard_normal(3), rng.standard_normal(4)
    err, lhs, rhs = checking.adjoint_error(ybar, J @ xdot, [J.T @ ybar], [xdot])
    assert err < 1e-14 and lhs == pytest.approx(float(ybar @ J @ xdot))
    wrong = J.T @ ybar
    wrong[1] *= 1.01
    assert checking.adjoint_error(ybar, J @ xdot, [wrong], [xdot])[0] > 1e-4
    assert checking.adjoint_error(ybar, J @ xdot, [np.full(3, np.nan)], [xdot])[0] == np.inf
    # an argument without a tangent does not enter ⟨J^T ȳ, ẋ⟩
    assert checking.adjoint_error(ybar, J @ xdot, [J.T @ ybar, np.ones(2)], [xdot, None])[0] < 1e-14


def test_differences_skip_steps_that_cannot_move_the_input_and_report_the_step_taken():
    f = np.sin
    x = [np.array([0.3, 1.2])]
    t = [np.array([1.0, -2.0])]
    fds = checking.differences(f, x, t)
    assert len(fds) == len(checking.FD_STEPS)
    assert min(checking.rel_error(fd, np.cos(x[0]) * t[0]) for fd, _ in fds) < 1e-9
    assert checking.differences(f, [np.array([1e300, 2e300])], t) == []      # x ± h·ẋ == x: nothing checked
    # at 1e8 the rounded step is not h·ẋ: the tangent taken is what the difference measured
    fd, taken = checking.central_difference(f, [np.array([1e8])], [np.array([1.0])], 1e-6)
    assert taken[0][0] != 1.0 and fd[0] == pytest.approx(np.cos(1e8) * taken[0][0], rel=1e-6)


def test_random_tangents_on_symmetric_matrices_are_exactly_symmetric_in_the_last_two_axes():
    rng = np.random.default_rng(1)
    t = checking.random_like(np.zeros((2, 3, 3)), rng, "symmetric")
    assert np.array_equal(t, np.swapaxes(t, -1, -2)) and not np.array_equal(t[0], t[1])
    assert not np.array_equal(t, np.swapaxes(t, 0, 1))
    g = checking.random_like(np.zeros((3, 3)), np.random.default_rng(1))
    assert not np.array_equal(g, g.T)
    assert isinstance(checking.random_like(1.0, rng), float)
    assert checking.space_of_domain("spd", 2) == "symmetric" and checking.space_of_domain("positive", 2) == "real"


def test_sampled_spd_and_symmetric_points_are_exactly_symmetric():
    for dom in ("spd", "symmetric"):
        meta = {"inputs": [{"name": "S", "kind": "tensor", "indices": ["b", "i", "j"]}],
                "outputs": [{"name": "y", "indices": []}], "domains": {"S": dom}, "equal_extents": [["i", "j"]]}
        S = verify.sample_inputs(meta, np.random.default_rng(3))[0]
        assert S.shape[-2] == S.shape[-1] and np.array_equal(S, np.swapaxes(S, -1, -2))


# -- cholesky: its derivative lives on symmetric matrices ---------------------------------------------------------
# np.linalg.cholesky reads the lower triangle only. With Φ(X) the lower triangle of X with its diagonal halved, the
# differential along a symmetric dA is dL = L·Φ(L⁻¹·dA·L⁻ᵀ) and the symmetric gradient is sym(L⁻ᵀ·Φ(Lᵀ·L̄)·L⁻¹)
# (Murray 2016). Batch axes first, matrix axes last, as in the rules and in NumPy.


def _phi(x):
    return np.tril(x) * (1.0 - 0.5 * np.eye(x.shape[-1]))


def chol(A):
    return np.linalg.cholesky(A)


def chol_jvp(A, dA):      # no symmetrization of dA: right only along symmetric tangents
    L = np.linalg.cholesky(A)
    Li = np.linalg.inv(L)
    return L @ _phi(Li @ dA @ np.swapaxes(Li, -1, -2))


def chol_vjp(A, Lbar, phi=_phi, sym=True):
    L = np.linalg.cholesky(A)
    Li = np.linalg.inv(L)
    S = np.swapaxes(Li, -1, -2) @ phi(np.swapaxes(L, -1, -2) @ Lbar) @ Li
    return (S + np.swapaxes(S, -1, -2)) / 2 if sym else S


def _spd(n, batch=(), seed=5):
    X = np.random.default_rng(seed).standard_normal((*batch, n, n))
    return X @ np.swapaxes(X, -1, -2) + n * np.eye(n)


def _chol_op(name, vjp=chol_vjp):
    def f(A):
        return chol(A)
    f.__name__ = name
    op = register_rrule(f, lambda A: (chol(A), lambda Lbar: (NoTangent(), vjp(A, Lbar))))
    return register_frule(op, lambda t, A: (chol(A), chol_jvp(A, t[1])))


@pytest.mark.parametrize("batch", [(), (2,)])
def test_cholesky_passes_along_symmetric_tangents_and_fails_along_general_ones(batch):
    op = _chol_op(f"chol_sym_{len(batch)}")
    A = _spd(3, batch)
    r = check_rrule(op, A, tangent_space={0: "symmetric"})
    assert r.ok and r.worst < 1e-6 and "symmetric part" in str(r)
    assert check_frule(op, A, tangent_space={"arg0": "symmetric"}).ok
    # along A[0,1] alone, cholesky does not move (it reads the lower triangle): the declared gradient is not that
    with pytest.raises(AssertionError, match="FAILED"):
        check_rrule(op, A)
    with pytest.raises(AssertionError, match="FAILED"):
        check_frule(op, A)


def test_a_wrong_cholesky_pullback_fails_even_along_symmetric_tangents():
    op = _chol_op("chol_wrong", vjp=lambda A, Lbar: chol_vjp(A, Lbar, phi=np.tril))   # diagonal not halved
    with pytest.raises(AssertionError, match=r"FAILED(.|\n)*arg0\[\d, \d\]: relative error 0\.[1-9]"):
        check_rrule(op, _spd(3), tangent_space={0: "symmetric"})


def test_an_unsymmetrized_gradient_is_outside_the_tangent_space_it_is_declared_on():
    """S and (S + Sᵀ)/2 agree on every symmetric direction, so finite differences and the adjoint identity pass S;
    but an argument declared on symmetric matrices gets a symmetric cotangent (issue #25), and S is not one."""
    op = _chol_op("chol_unsym", vjp=lambda A, Lbar: chol_vjp(A, Lbar, sym=False))
    with pytest.raises(AssertionError, match=r"arg0 \(tangent space\): relative error 0\.[1-9](.|\n)*"
                                             r"arg0\[\d, \d\]: relative error \d\.\d+e-"):
        check_rrule(op, _spd(3), tangent_space={0: "symmetric"})


def test_tangent_space_rejects_a_point_off_symmetric_matrices_and_unknown_names():
    op = _chol_op("chol_args")
    A = _spd(3)
    A[0, 1] += 0.1
    with pytest.raises(ValueError, match="arg0 is declared symmetric but is not"):
        check_rrule(op, A, tangent_space={0: "symmetric"})
    with pytest.raises(ValueError, match="must be one of real, symmetric"):
        check_rrule(op, _spd(3), tangent_space={0: "spd-ish"})
    with pytest.raises(ValueError, match="names no argument"):
        check_rrule(op, _spd(3), tangent_space={"B": "symmetric"})
    with pytest.raises(ValueError, match="not a square matrix"):
        check_rrule(register_rrule(lambda x: x * 2.0, lambda x: (x * 2.0, lambda g: (NoTangent(), 2.0 * g))),
                    np.ones(3), tangent_space={0: "symmetric"})


def test_check_frule_far_from_the_origin_compares_along_the_step_actually_taken():
    """At x = 1e8 the step x ± 1e-6·ẋ rounds by about 1 %: the frule is compared along the rounded step."""
    def f(x):
        return np.sin(x)
    op = register_frule(f, lambda t, x: (np.sin(x), np.cos(x) * t[1]))
    op = register_rrule(op, lambda x: (np.sin(x), lambda d: (NoTangent(), np.cos(x) * d)))
    x = np.array([1e8, 2e8, 3e8])
    assert check_frule(op, x).ok
    assert check_rrule(op, x).ok


def test_a_step_that_cannot_move_the_input_fails_rather_than_checks_nothing():
    def f(x):
        return x * 2.0
    op = register_frule(f, lambda t, x: (x * 2.0, 2.0 * t[1]))
    op = register_rrule(op, lambda x: (x * 2.0, lambda d: (NoTangent(), 2.0 * d)))
    with pytest.raises(AssertionError, match="cannot move"):
        check_rrule(op, np.array([1e300, 2e300]))
    with pytest.raises(AssertionError, match="cannot move"):
        check_frule(op, np.array([1e300, 2e300]))


# -- the verifier draws symmetric tangents for an spd input -------------------------------------------------------

CHOL_META = {"inputs": [{"name": "A", "kind": "tensor", "indices": ["b", "i", "j"]}],
             "outputs": [{"name": "L", "indices": ["b", "i", "j"]}], "domains": {"A": "spd"},
             "equal_extents": [["i", "j"]], "signature": "chol(A[b,i,j]: spd) -> L[b,i,j]"}


def _chol_fns(vjp=chol_vjp):
    return {"chol": chol, "chol_frule": lambda t, A: (chol(A), chol_jvp(A, t[1])),
            "chol_rrule": lambda A: (chol(A), lambda Lbar: (NoTangent(), vjp(A, Lbar)))}


def test_verifier_checks_an_spd_input_along_symmetric_tangents(monkeypatch):
    chk = verify.check_op("chol", _chol_fns(), CHOL_META)
    assert chk.ok and chk.points > 0 and chk.fd_error < 1e-6 and chk.adjoint_error < 1e-10, chk.problems
    wrong = verify.check_op("chol", _chol_fns(lambda A, Lbar: chol_vjp(A, Lbar, phi=np.tril)), CHOL_META)
    assert not wrong.ok and "pullback is not the adjoint" in wrong.problems[0]
    # along general tangents the same (right) rule fails: finite differences see only the lower triangle
    monkeypatch.setattr(verify, "_space", lambda inp, meta: "real")
    general = verify.check_op("chol", _chol_fns(), CHOL_META)
    assert not general.ok and "finite differences" in " ".join(general.problems)


def test_the_runtime_cholesky_agrees_with_check_rrule_along_symmetric_tangents():
    """runtime.tnp's cholesky follows the symmetric-tangent convention: check_rrule agrees once told so."""
    from runtime import tnp

    A = _spd(4)
    assert check_rrule(tnp.linalg.cholesky, A, tangent_space={0: "symmetric"}).ok
    assert check_frule(tnp.linalg.cholesky, A, tangent_space={0: "symmetric"}).ok
    with pytest.raises(AssertionError, match="FAILED"):
        check_rrule(tnp.linalg.cholesky, A)


def test_a_generated_input_declared_spd_gets_symmetric_tangents_by_default(tmp_path, monkeypatch):
    from runtime import define, rule_cache

    monkeypatch.setenv("TENSOR_RULES_CACHE", str(tmp_path))
    monkeypatch.setattr(rule_cache, "_MEMO", {})
    op = define("quad_spd(S[i,j]: spd, v[i]) -> y[] = v[i] * S[i,j] * v[j]")
    S, v = _spd(3), np.array([0.3, -1.0, 2.0])
    assert "S[" in str(check_rrule(op, S, v)) and "(symmetric part)" in str(check_rrule(op, S, v))
    assert "(symmetric part)" not in str(check_rrule(op, S, v, tangent_space={"S": "real"}))
    asym = S.copy()
    asym[0, 1] += 0.5          # off the declared domain: checked along every direction (and right there too)
    assert "(symmetric part)" not in str(check_rrule(op, asym, v))
    assert check_frule(op, S, v).ok


def test_a_primal_of_the_wrong_shape_fails_even_with_the_right_entries():
    def f(x):
        return x * 2.0
    op = register_rrule(f, lambda x: ((x * 2.0)[:, None], lambda d: (NoTangent(), 2.0 * np.ravel(d))))
    with pytest.raises(AssertionError, match="primal y: relative error inf"):
        check_rrule(op, np.array([1.0, 2.0, 3.0]))
