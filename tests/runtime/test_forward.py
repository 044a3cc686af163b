"""Forward mode: jvp through generated ops and tnp, pytrees, zero tangents, ints, multi-output ops."""
import fake_generated as fg
import numpy as np
import pytest
from numdiff import assert_close, fd_jvp

from runtime import ZeroTangent, jvp, tnp
from runtime.forward import Dual

rng = np.random.default_rng(1)


def test_jvp_generated_ops_match_finite_differences():
    A, B = rng.standard_normal((3, 4)), rng.standard_normal((4, 2))
    dA, dB = rng.standard_normal((3, 4)), rng.standard_normal((4, 2))
    f = lambda A, B: fg.tanh(fg.rowsum(fg.matmul(A, B)))  # noqa: E731
    y, dy = jvp(f, (A, B), (dA, dB))
    assert_close(y, np.tanh((A @ B).sum(1)), rtol=1e-14)
    assert_close(dy, fd_jvp(f, (A, B), (dA, dB)))
    M = rng.standard_normal((3, 3)) + 3 * np.eye(3)
    dM = rng.standard_normal((3, 3))
    assert_close(jvp(fg.inv, (M,), (dM,))[1], -np.linalg.inv(M) @ dM @ np.linalg.inv(M))


def test_jvp_multi_output_and_scalar_and_int_args():
    x, dx = rng.standard_normal(3), rng.standard_normal(3)
    (s, c), (ds, dc) = jvp(fg.sincos, (x,), (dx,))
    assert_close(ds, np.cos(x) * dx)
    assert_close(dc, -np.sin(x) * dx)
    y, dy = jvp(lambda a, x: fg.axpy(a, x, x), (2.0, x), (0.5, dx))
    assert_close(dy, 0.5 * x + 3 * dx)
    y, dy = jvp(lambda x, n: fg.powi(x, n), (x, 3), (dx, 0))
    assert_close(dy, 3 * x ** 2 * dx)


def test_jvp_pytrees_and_zero_tangents():
    p = {"w": rng.standard_normal(3), "b": 1.0}
    t = {"w": rng.standard_normal(3), "b": ZeroTangent()}
    y, dy = jvp(lambda p: {"out": tnp.sum(p["w"] ** 2) + p["b"], "const": 3.0}, (p,), (t,))
    assert dy["out"] == pytest.approx(np.sum(2 * p["w"] * t["w"])) and dy["const"] == 0.0
    y, dy = jvp(lambda x: np.ones(2), (1.0,), (1.0,))
    assert_close(dy, np.zeros(2))


def test_jvp_errors():
    with pytest.raises(ValueError, match="1 primals but 2 tangents"):
        jvp(tnp.sin, (1.0,), (1.0, 2.0))
    with pytest.raises(ValueError, match=r"tangent of shape \(2,\) for a primal of shape \(3,\)"):
        jvp(tnp.sin, (np.ones(3),), (np.ones(2),))


def test_forward_chain_and_broadcast_tangent():
    def f(x):
        for _ in range(2000):
            x = tnp.sin(x) + 0.5
        return x
    x = np.array([0.2, 0.4])
    assert_close(jvp(f, (x,), (np.ones(2),))[1], fd_jvp(f, (x,), (np.ones(2),)), rtol=1e-5)
    # a tangent flowing only from the broadcast operand gets the output's shape
    y, dy = jvp(lambda b: np.ones((2, 3)) + b, (np.zeros(3),), (np.ones(3),))
    assert dy.shape == (2, 3)


def test_dual_is_traced():
    seen = []
    jvp(lambda x: seen.append(type(x)) or x, (1.0,), (1.0,))
    assert seen == [Dual]
