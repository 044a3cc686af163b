"""check_rrule / check_frule: pass for correct rules, fail naming the argument and index for wrong ones."""
import fake_generated as fg
import numpy as np
import pytest

from runtime import NoTangent, check_frule, check_rrule, register_frule, register_rrule

rng = np.random.default_rng(11)


@pytest.mark.parametrize("name,args", [
    ("matmul", (rng.standard_normal((2, 3)), rng.standard_normal((3, 2)))),
    ("tanh", (rng.standard_normal(4),)),
    ("inv", (rng.standard_normal((3, 3)) + 3 * np.eye(3),)),
    ("sincos", (rng.standard_normal(3),)),
    ("powi", (rng.standard_normal(3), 3)),
    ("axpy", (0.7, rng.standard_normal(3), rng.standard_normal(3))),
    ("rowsum", (rng.standard_normal((2, 3)),)),
])
def test_fake_generated_ops_pass(name, args):
    op = getattr(fg, name)
    report = check_rrule(op, *args)
    assert report.ok and report.worst < 1e-6 and "adjoint identity" in str(report)
    assert check_frule(op, *args).ok


def test_wrong_rrule_is_reported_with_argument_and_index():
    def square(x, y):
        return x ** 2 * y

    def wrong(x, y):
        def pb(d):
            gx = 2 * x * y * d
            gx = gx.copy()
            gx[1] *= 1.5  # the bug
            return NoTangent(), gx, x ** 2 * d
        return x ** 2 * y, pb

    op = register_rrule(square, wrong)
    x = np.array([0.5, 1.0, 2.0])
    with pytest.raises(AssertionError) as info:
        check_rrule(op, x, np.array([1.0, 2.0, 3.0]))
    msg = str(info.value)
    assert msg.startswith("square: worst relative error") and "at arg0[1]" in msg and "FAILED" in msg


def test_wrong_frule_is_reported_with_output_index():
    def f(x):
        return np.sin(x)

    op = register_frule(f, lambda t, x: (np.sin(x), np.cos(x) * t[1] * np.array([1.0, 1.0, -1.0])))
    with pytest.raises(AssertionError, match=r"at y\[2\]"):
        check_frule(op, np.array([0.1, 0.2, 0.3]))


def test_report_for_generated_op_uses_argument_names():
    r = check_rrule(fg.matmul, np.ones((2, 2)), np.ones((2, 2)))
    assert r.op == "matmul(A[i,k], B[k,j]) -> C[i,j]" and any(line.startswith("A[") for line in r.lines)


def test_check_rrule_reports_a_frule_that_raises():
    from runtime import register_frule, register_rrule

    def f(x):
        return x * 2.0

    op = register_rrule(f, lambda x: (x * 2.0, lambda g: (NoTangent(), g * 2.0)))

    def broken_frule(tangents, x):
        raise RuntimeError("oops")

    register_frule(op, broken_frule)
    with pytest.raises(AssertionError, match="frule raised RuntimeError: oops"):
        check_rrule(op, np.ones(3))


def test_check_rrule_without_a_frule_says_the_adjoint_check_was_skipped():
    from runtime import register_rrule

    op = register_rrule(lambda x: x * 3.0, lambda x: (x * 3.0, lambda g: (NoTangent(), g * 3.0)))
    assert "adjoint identity: skipped" in str(check_rrule(op, np.ones(3)))


def _sqrt_op(name):
    """sqrt with its textbook rules, registered under a fresh function (NaN below 0, like NumPy's)."""
    def f(x):
        return np.sqrt(x)
    f.__name__ = name
    op = register_rrule(f, lambda x: (np.sqrt(x), lambda d: (NoTangent(), 0.5 / np.sqrt(x) * d)))
    return register_frule(op, lambda t, x: (np.sqrt(x), 0.5 / np.sqrt(x) * t[1]))


def test_a_point_outside_the_domain_fails_rather_than_passes_on_nan():
    """At x = -1 the forward value, its finite differences and both rules are NaN: nothing is verified
    there, so the check must not report ok (NaN == NaN was once counted as agreement)."""
    op = _sqrt_op("sqrt_nan_r")
    x = np.array([-1.0, 4.0])
    with np.errstate(invalid="ignore"):
        with pytest.raises(AssertionError, match="not finite here"):
            check_rrule(op, x)
        with pytest.raises(AssertionError, match="not finite here"):
            check_frule(op, x)
        assert check_rrule(op, np.array([1.0, 4.0])).ok


def test_nan_derivative_where_finite_differences_are_finite_fails():
    def g(x):
        return x * np.sqrt(np.maximum(x - 2, 0)) + x * x

    def d(x):  # the chain rule's step/sqrt: 0/0 for x < 2, where the derivative is 2x
        r = np.maximum(x - 2, 0)
        return np.sqrt(r) + x * (x > 2) / (2 * np.sqrt(r)) + 2 * x

    op = register_rrule(g, lambda x: (g(x), lambda dy: (NoTangent(), d(x) * dy)))
    with np.errstate(all="ignore"):
        with pytest.raises(AssertionError, match="NaN or Inf where the reference is finite"):
            check_rrule(op, np.array([1.0, 3.0]))
