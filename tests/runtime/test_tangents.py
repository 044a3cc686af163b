"""Tangent algebra: the two zeros, thunks, structural tangents, accumulation."""
import numpy as np
import pytest

from runtime.tangents import NoTangent, Tangent, Thunk, ZeroTangent, add_tangents, is_zero, unthunk


def test_zeros_are_singletons_and_distinct():
    assert ZeroTangent() is ZeroTangent()
    assert NoTangent() is NoTangent()
    assert ZeroTangent() is not NoTangent()
    assert is_zero(ZeroTangent()) and is_zero(NoTangent())
    assert not is_zero(0.0) and not is_zero(np.zeros(3))
    assert not ZeroTangent() and not NoTangent()
    assert repr(ZeroTangent()) == "ZeroTangent()" and repr(NoTangent()) == "NoTangent()"


def test_zero_arithmetic_short_circuits():
    Z = ZeroTangent()
    x = np.arange(3.0)
    assert Z + x is x and x + Z is x
    assert Z * x is Z and x * Z is Z and 2.0 * Z is Z and Z / 2.0 is Z and x @ Z is Z
    assert -Z is Z and Z[1:] is Z and Z.T is Z and Z.sum() is Z
    np.testing.assert_array_equal(Z - x, -x)
    assert x - Z is x
    assert Z + Z is Z
    assert NoTangent() + NoTangent() is NoTangent()
    assert NoTangent() + Z is Z
    assert NoTangent() + x is x


def test_thunk_is_lazy_and_memoized():
    calls = []
    t = Thunk(lambda: calls.append(1) or np.ones(2))
    assert not calls and "unevaluated" in repr(t)
    v = unthunk(t)
    assert unthunk(t) is v and len(calls) == 1
    np.testing.assert_array_equal(t + np.ones(2), 2 * np.ones(2))
    np.testing.assert_array_equal(3 * t, 3 * np.ones(2))
    assert unthunk(5) == 5
    nested = Thunk(lambda: Thunk(lambda: 7.0))
    assert unthunk(nested) == 7.0


def test_structural_tangent():
    a = Tangent(W=np.ones(2), b=1.0)
    b = Tangent(W=np.ones(2), c=2.0)
    s = a + b
    np.testing.assert_array_equal(s.W, 2 * np.ones(2))
    assert s.b == 1.0 and s.c == 2.0 and s["c"] == 2.0
    assert a.missing is ZeroTangent() and a["missing"] is ZeroTangent()
    np.testing.assert_array_equal((2 * a).W, 2 * np.ones(2))
    np.testing.assert_array_equal((a * 0.5).W, 0.5 * np.ones(2))
    assert (-a).b == -1.0
    assert a + ZeroTangent() is a and ZeroTangent() + a is a
    t = Tangent(1.0, 2.0) + Tangent(3.0, ZeroTangent())
    assert t[0] == 4.0 and t[1] == 2.0 and len(t) == 2 and list(t) == [4.0, 2.0]
    with pytest.raises(TypeError, match="different structure"):
        Tangent(1.0) + Tangent(x=1.0)
    with pytest.raises(AttributeError):
        a.W = 3
    assert Tangent(x=1.0) == Tangent(x=1.0)


def test_add_tangents():
    x = np.ones(2)
    assert add_tangents(None, x) is x
    assert add_tangents(ZeroTangent(), x) is x and add_tangents(x, NoTangent()) is x
    assert add_tangents(ZeroTangent(), ZeroTangent()) is ZeroTangent()
    out = add_tangents((x, ZeroTangent()), (ZeroTangent(), 2 * x))
    assert out[0] is x and out[1][0] == 2.0
    d = add_tangents({"a": 1.0}, {"a": 2.0, "b": 3.0})
    assert d == {"a": 3.0, "b": 3.0}
    assert add_tangents(Thunk(lambda: 1.0), Thunk(lambda: 2.0)) == 3.0
    assert add_tangents([1.0], [2.0]) == [3.0]
