"""Hand-written rules for any Python function: register_rrule / register_frule / @custom_rrule."""
import numpy as np
import pytest
from numdiff import assert_close, fd_grad

from runtime import (
    NoTangent,
    Thunk,
    custom_rrule,
    frule,
    grad,
    jvp,
    register_frule,
    register_rrule,
    rrule,
    tnp,
    unthunk,
)

rng = np.random.default_rng(5)


def make_cube():
    calls = {"rrule": 0, "frule": 0}

    def cube(x):
        return x ** 3

    def cube_rrule(x):
        calls["rrule"] += 1
        y = np.asarray(x) ** 3
        return y, lambda dy: (NoTangent(), Thunk(lambda: 3 * np.asarray(x) ** 2 * dy))

    def cube_frule(tangents, x):
        calls["frule"] += 1
        _, dx = tangents
        return np.asarray(x) ** 3, 3 * np.asarray(x) ** 2 * dx

    return cube, cube_rrule, cube_frule, calls


def test_register_rrule_is_used_by_grad():
    cube, cube_rrule, _, calls = make_cube()
    cube_op = register_rrule(cube, cube_rrule)
    x = rng.standard_normal(3)
    assert_close(cube_op(x), x ** 3)  # plain call: the function itself
    g = grad(lambda x: tnp.sum(cube_op(x)))(x)
    assert_close(g, 3 * x ** 2)
    assert calls["rrule"] == 1
    y, pb = rrule(cube, x)  # the original function is registered too
    assert_close(unthunk(pb(np.ones(3))[1]), 3 * x ** 2)
    assert calls["rrule"] == 2
    # no frule registered: forward mode goes through the body
    assert_close(jvp(cube_op, (x,), (np.ones(3),))[1], 3 * x ** 2)
    assert calls["frule"] == 0


def test_register_frule_is_used_by_jvp():
    cube, cube_rrule, cube_frule, calls = make_cube()
    op = register_frule(cube, cube_frule)
    x = rng.standard_normal(3)
    assert_close(jvp(op, (x,), (np.ones(3),))[1], 3 * x ** 2)
    assert calls["frule"] == 1
    assert_close(frule((NoTangent(), np.ones(3)), cube, x)[1], 3 * x ** 2)
    assert calls["frule"] == 2
    assert register_rrule(cube, cube_rrule) is op


def test_custom_rrule_decorator_and_higher_order_falls_back_to_the_body():
    calls = []

    def my_rrule(x):
        calls.append(1)
        y = np.sin(x)
        return y, lambda dy: (NoTangent(), np.cos(x) * dy)

    @custom_rrule(my_rrule)
    def mysin(x):
        return tnp.sin(x)

    x = rng.standard_normal(3)
    assert_close(grad(lambda x: tnp.sum(mysin(x)))(x), np.cos(x))
    assert calls == [1]
    # the rule is plain NumPy, so second order differentiates the body instead
    assert_close(grad(lambda x: tnp.sum(grad(lambda z: tnp.sum(mysin(z)))(x)))(x), -np.sin(x))


def test_traceable_rule_is_used_at_every_order():
    calls = []

    def softsign_rrule(x):
        calls.append(1)
        y = x / (1 + tnp.abs(x))
        return y, lambda dy: (NoTangent(), dy / (1 + tnp.abs(x)) ** 2)

    softsign = register_rrule(lambda x: x / (1 + abs(x)), softsign_rrule, traceable=True)
    x = rng.standard_normal(3)
    gg = grad(lambda x: tnp.sum(grad(lambda z: tnp.sum(softsign(z)))(x)))(x)
    assert_close(gg, -2 * np.sign(x) / (1 + np.abs(x)) ** 3)
    assert len(calls) == 1  # run once, on values traced by the outer grad: its body is what the outer sees


def test_custom_rule_with_traced_cotangent_and_wrong_arity():
    cube, cube_rrule, _, _ = make_cube()
    op = register_rrule(cube, cube_rrule)
    W = rng.standard_normal(3)

    def outer(w):
        return tnp.sum(grad(lambda z: tnp.sum(op(z) * w))(np.ones(3)) ** 2)
    assert_close(grad(outer)(W), fd_grad(outer, W))

    bad = register_rrule(lambda x, y: x * y, lambda x, y: (x * y, lambda d: (d,)))
    with pytest.raises(ValueError, match="pullback returned 1 cotangents for 2 arguments"):
        grad(lambda x: tnp.sum(bad(x, 2.0)))(np.ones(2))
