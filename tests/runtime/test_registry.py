"""export_ops: checked public functions, dispatch by argument type, the global registry, generic rrule/frule."""
import sys
import types

import fake_generated as fg
import numpy as np
import pytest
from numdiff import assert_close

import runtime
from runtime import NoTangent, Thunk, ZeroTangent, frule, grad, lookup, rrule, tnp, unthunk
from runtime.registry import Op

rng = np.random.default_rng(3)
A, B = rng.standard_normal((3, 4)), rng.standard_normal((4, 2))


def test_module_exports_three_functions_per_op():
    for name in fg.OPS:
        for suffix in ("", "_frule", "_rrule"):
            fn = getattr(fg, name + suffix)
            assert callable(fn) and fn.__name__ == name + suffix and fn.op is lookup(f"fake_generated:{name}")
    assert fg.matmul.__doc__.startswith("matmul(A[i,k], B[k,j]) -> C[i,j]")
    assert "fake.rules:1" in repr(lookup("fake_generated:matmul"))
    assert lookup("rowsum") is fg.rowsum.op  # short names work where unambiguous


def test_plain_arrays_take_the_numpy_path():
    C = fg.matmul(A, B)
    assert type(C) is np.ndarray
    assert_close(C, A @ B, rtol=1e-14)
    y, pb = fg.matmul_rrule(A, B)
    dA = pb(np.ones((3, 2)))[1]
    assert isinstance(dA, Thunk)
    assert_close(unthunk(dA), np.ones((3, 2)) @ B.T)
    (y, dy) = fg.matmul_frule((NoTangent(), ZeroTangent(), B), A, B)
    assert_close(dy, A @ B)


@pytest.mark.parametrize("call,message", [
    (lambda: fg.matmul(A, np.ones((3, 2))),
     "matmul: index k has extent 4 in A (axis 1) but 3 in B (axis 0)"),
    (lambda: fg.matmul_rrule(A, np.ones((3, 2))),
     "matmul_rrule: index k has extent 4 in A (axis 1) but 3 in B (axis 0)"),
    (lambda: fg.matmul_frule((NoTangent(), ZeroTangent(), ZeroTangent()), A, np.ones((5, 2))),
     "matmul_frule: index k has extent 4 in A (axis 1) but 5 in B (axis 0)"),
    (lambda: fg.inv(np.ones((3, 4))),
     "inv: indices i and j must have equal extents, but i has extent 3 in A (axis 0) and j has extent 4 in A "
     "(axis 1)"),
    (lambda: fg.matmul(A[0], B), "matmul: A must have 2 axes [i, k] but has shape (4,)"),
    (lambda: fg.axpy(np.ones(2), np.ones(2), np.ones(2)), "axpy: a must be a scalar but has shape (2,)"),
    (lambda: fg.axpy(1.0, np.ones(2), np.ones(3)), "axpy: index i has extent 2 in x (axis 0) but 3 in y (axis 0)"),
    (lambda: fg.matmul_frule((NoTangent(), np.ones((2, 2)), ZeroTangent()), A, B),
     "matmul_frule: tangent dA has shape (2, 2) but A has shape (3, 4)"),
])
def test_shape_errors_name_op_index_and_extents(call, message):
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value) == message


def test_arity_errors_name_op_and_signature():
    with pytest.raises(TypeError) as info:
        fg.matmul(A)
    assert str(info.value) == ("matmul: expected 2 arguments (A, B) but got 1; "
                               "signature: matmul(A[i,k], B[k,j]) -> C[i,j]")
    with pytest.raises(TypeError) as info:
        fg.tanh_rrule(A[0], A[0])
    assert str(info.value) == "tanh_rrule: expected 1 argument (x) but got 2; signature: tanh(x[i]) -> y[i]"
    with pytest.raises(TypeError, match=r"matmul_frule: expected 3 tangents \(d_self, dA, dB\) but got 2"):
        fg.matmul_frule((NoTangent(), A), A, B)


def test_public_pullbacks_check_the_cotangent_shape():
    _, pb = fg.matmul_rrule(A, B)
    with pytest.raises(ValueError) as info:
        pb(np.ones((5, 5)))
    assert str(info.value) == "matmul_rrule pullback: cotangent dC has shape (5, 5) but C has shape (3, 2)"
    _, pb = fg.tanh_rrule(A[0])
    with pytest.raises(ValueError, match=r"tanh_rrule pullback: cotangent dy has shape \(2, 4\) but y has shape "
                                         r"\(4,\)"):
        pb(np.ones((2, 4)))  # would broadcast into a (2, 4) "gradient" for a (4,) input
    assert pb(ZeroTangent())[1] is not None
    assert_close(unthunk(pb(Thunk(lambda: np.ones(4)))[1]), 1 - np.tanh(A[0]) ** 2)


def test_arguments_by_keyword():
    assert_close(fg.matmul(B=B, A=A), A @ B)
    assert_close(fg.matmul_rrule(A, B=B)[0], A @ B)
    assert_close(fg.matmul_frule((NoTangent(), ZeroTangent(), B), A=A, B=B)[1], A @ B)
    assert_close(grad(lambda a: tnp.sum(fg.matmul(A=a, B=B)))(A), np.ones((3, 2)) @ B.T)
    sig = "signature: matmul(A[i,k], B[k,j]) -> C[i,j]"
    for call, message in [(lambda: fg.matmul(A, C=B), "matmul: unexpected keyword argument 'C'; "),
                          (lambda: fg.matmul(A, A=A), "matmul: got argument 'A' twice (by position and by keyword); "),
                          (lambda: fg.matmul_rrule(B=B), "matmul_rrule: missing argument A; ")]:
        with pytest.raises(TypeError) as info:
            call()
        assert str(info.value) == message + sig


def test_lookup_imports_the_shipped_library_on_first_need():
    import subprocess
    code = ("import sys, runtime; op = runtime.lookup('matmul'); "
            "print(op.module_name, 'generated' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["generated.linalg", "True"]


def test_shape_errors_also_inside_traces():
    with pytest.raises(ValueError, match="matmul: index k has extent 4 in A"):
        grad(lambda a: tnp.sum(fg.matmul(a, np.ones((3, 2)))))(A)


def test_traced_rrule_and_frule_called_directly():
    # a user's own rule may call generated rules on traced values
    def f(a):
        y, pb = fg.tanh_rrule(a)
        return tnp.sum(unthunk(pb(y)[1]))
    x = rng.standard_normal(3)
    g = grad(f)(x)
    eps = 1e-6
    ref = [(f(x + eps * e) - f(x - eps * e)) / (2 * eps) for e in np.eye(3)]
    assert_close(g, ref, rtol=1e-6)
    g2 = grad(lambda a: tnp.sum(fg.tanh_frule((NoTangent(), a), a)[1]))(x)
    assert_close(g2, 1 - 2 * np.tanh(x) * (1 - np.tanh(x) ** 2) * x - np.tanh(x) ** 2, rtol=1e-10)


class FakeGPUArray:
    def __init__(self, a):
        self.a = a
        self.shape = a.shape
        self.gpudata = object()


def test_gpu_arrays_go_to_runtime_cuda(monkeypatch):
    calls = []
    fake = types.ModuleType("runtime.cuda")
    fake.dispatch = lambda module, op, args: calls.append((module, op, args)) or "gpu-result"
    monkeypatch.setitem(sys.modules, "runtime.cuda", fake)
    gA, gB = FakeGPUArray(A), FakeGPUArray(B)
    assert fg.matmul(gA, gB) == "gpu-result"
    assert calls[-1][:2] == ("fake_generated", "matmul") and calls[-1][2] == (gA, gB)
    fg.matmul_rrule(gA, B)
    assert calls[-1][1] == "matmul_rrule"
    with pytest.raises(ValueError, match="index k has extent 4 in A"):
        fg.matmul(gA, FakeGPUArray(np.ones((3, 3))))


def test_gpu_arrays_without_runtime_cuda(monkeypatch):
    monkeypatch.setitem(sys.modules, "runtime.cuda", None)
    with pytest.raises(RuntimeError, match=r"matmul: got a GPU array \(it has .gpudata\) but runtime.cuda is "
                                           r"unavailable"):
        fg.matmul(FakeGPUArray(A), B)


def test_lookup():
    op = lookup("fake_generated:inv")
    assert isinstance(op, Op) and op.name == "inv" and op.module_name == "fake_generated"
    assert op.signature == "inv(A[i,j]) -> B[i,j]"
    assert_close(op(np.eye(2) * 2), np.eye(2) / 2)
    with pytest.raises(KeyError, match="did you mean matmul"):
        lookup("matmull")


def test_generic_rrule_and_frule_for_ops_names_and_functions():
    x = rng.standard_normal(3)
    for f in (fg.tanh, "fake_generated:tanh", lookup("fake_generated:tanh"), tnp.tanh, lambda z: tnp.tanh(z)):
        y, pb = rrule(f, x)
        cots = pb(np.ones(3))
        assert cots[0] is NoTangent() and len(cots) == 2
        assert_close(unthunk(cots[1]), 1 - np.tanh(x) ** 2)
        y, dy = frule((NoTangent(), np.ones(3)), f, x)
        assert_close(y, np.tanh(x))
        assert_close(dy, 1 - np.tanh(x) ** 2)
    y, pb = rrule(tnp.multiply, x, 2)
    assert pb(np.ones(3))[2] is NoTangent()
    assert pb(ZeroTangent())[1] is ZeroTangent()


def test_elementwise_flag_accepts_any_shape():
    from runtime.registry import export_ops

    def _define(np):
        def hyp(x, y):
            return np.hypot(x, y)

        def hyp_frule(tangents, x, y):
            _, dx, dy = tangents
            r = np.hypot(x, y)
            return r, (x * dx + y * dy) / r

        def hyp_rrule(x, y):
            r = np.hypot(x, y)
            return r, lambda dr: (NoTangent(), dr * x / r, dr * y / r)
        return {"hyp": hyp, "hyp_frule": hyp_frule, "hyp_rrule": hyp_rrule}

    meta = {"hyp": {"signature": "hyp(x[i], y[i]) -> r[i]", "elementwise": True,
                    "inputs": [{"name": "x", "kind": "tensor", "indices": ["i"]},
                               {"name": "y", "kind": "tensor", "indices": ["i"]}],
                    "outputs": [{"name": "r", "indices": ["i"]}], "equal_extents": []}}
    hyp = export_ops("test_elementwise_module", meta, _define)["hyp"]
    x, y = rng.standard_normal((2, 3)), rng.standard_normal((2, 3))
    assert_close(hyp(x, y), np.hypot(x, y))
    assert_close(grad(lambda x: tnp.sum(hyp(x, y)))(x), x / np.hypot(x, y))
    with pytest.raises(ValueError) as info:
        hyp(x, y[0])
    assert str(info.value) == ("hyp: y has shape (3,) but x has shape (2, 3) "
                               "(elementwise op: all tensor arguments have the same shape)")


def test_int_parameters_are_checked():
    import generated

    x = np.array([2.0, 3.0])
    assert np.allclose(generated.power(x, np.int64(3)), x ** 3)
    for bad in (2.5, True, np.array([2])):
        with pytest.raises(TypeError, match=r"power: n must be an int"):
            generated.power(x, bad)
    # a float where an int parameter goes is an error, not a silently zero derivative
    with pytest.raises(TypeError, match=r"power: n is an integer parameter and has no derivative"):
        runtime.grad(lambda s: runtime.tnp.sum(generated.power(x, s)))(2.5)
    g = runtime.grad(lambda x, n: runtime.tnp.sum(generated.power(x, n)), argnums=(0, 1))(x, 2)
    assert np.allclose(g[0], 2 * x) and g[1] is runtime.NoTangent()


def test_an_extent_fixed_in_the_signature_is_checked(tmp_path, monkeypatch):
    monkeypatch.setenv("TENSOR_RULES_CACHE", str(tmp_path))
    import runtime

    fx3 = runtime.define("fx3(x[i:3]) -> y[] = sum(i, x[i]*x[i])")
    assert fx3(np.ones(3)) == 3.0
    with pytest.raises(ValueError, match=r"fx3: index i is declared with extent 3 but has extent 5 in x \(axis 0\)"):
        fx3(np.ones(5))


def test_an_op_with_an_input_over_another_index_is_not_elementwise(tmp_path, monkeypatch):
    # y[j] is unused: marked elementwise, the op refused x and y of different lengths
    monkeypatch.setenv("TENSOR_RULES_CACHE", str(tmp_path))
    import runtime

    un = runtime.define("un(x[i], y[j]) -> z[i] = x[i]*x[i]")
    np.testing.assert_array_equal(un(np.full(4, 2.0), np.ones(2)), np.full(4, 4.0))
