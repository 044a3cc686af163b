"""The printer of generated functions (derive.emission.numpy_print.render): variables are references in the statements,
so folding a temporary into its one reader and leaving out unread auxiliary values count reads exactly."""
import numpy as np
import pytest

from derive.emission.numpy_print import REF, Stmt, name_of, ref, render

I = "        "


def body(*stmts):
    return ["    def f(x):", *stmts]


def st(code, once=True, indent=I):
    return Stmt(indent, code, once)


def test_single_use_temporary_folds_into_its_reader():
    e0, y = ref("_e0"), ref("y")
    out = render(body(st(f"{e0} = np.exp(x)"), st(f"{y} = {e0} + 1.0"), st(f"return {y}")), {"_e0"})
    assert out.splitlines()[1:] == [I + "y = np.exp(x) + 1.0", I + "return y"]


def test_folds_chain_and_parenthesise():
    e0, e1, y = ref("_e0"), ref("_e1"), ref("y")
    out = render(body(st(f"{e0} = x + 1.0"), st(f"{e1} = {e0} * 2.0"), st(f"{y} = -{e1}"), st(f"return {y}")),
                 {"_e0", "_e1"})
    assert out.splitlines()[1] == I + "y = -((x + 1.0) * 2.0)"
    assert eval(out.splitlines()[1].split(" = ")[1], {"x": 1.0}) == -4.0


def test_a_temporary_read_twice_stays_named():
    # x*x prints the operand twice: folding would compute it twice
    e0, y = ref("_e0"), ref("y")
    out = render(body(st(f"{e0} = np.sin(x)"), st(f"{y} = {e0} * {e0}")), {"_e0"})
    assert "_e0 = np.sin(x)" in out and "y = _e0 * _e0" in out


def test_never_into_a_loop_a_comprehension_or_another_block():
    e0, y = ref("_e0"), ref("y")
    loop = render(body(st(f"{e0} = np.sin(x)"), st(f"{y} = [{e0} for k in range(3)]", once=False)), {"_e0"})
    assert "_e0 = np.sin(x)" in loop
    nested = render(body(st(f"{e0} = np.sin(x)"), st("if x:"), st(f"{y} = {e0}", indent=I + "    ")), {"_e0"})
    assert "_e0 = np.sin(x)" in nested
    later = render(body(st(f"{e0} = np.sin(x)"), st("z = 1"), st(f"{y} = {e0}")), {"_e0"})
    assert "_e0 = np.sin(x)" in later


def test_only_foldable_and_singly_assigned_names_fold():
    e0, y, m = ref("_e0"), ref("y"), ref("_m0")
    user = render(body(st(f"{e0} = np.sin(x)"), st(f"{y} = {e0}")), set())
    assert "_e0 = np.sin(x)" in user
    rebound = render(body(st(f"{m} = np.max(x)"), st(f"{m} = np.where(np.isfinite({m}), {m}, 0.0)"),
                          st(f"{y} = x - {m}")), {"_m0"})
    assert rebound.count("_m0 = ") == 2


def test_text_that_looks_like_a_temporary_is_not_one():
    # the regex passes this printer replaced counted `_e0` inside a string literal as a read
    e0, y = ref("_e0"), ref("y")
    out = render(body(st(f"{e0} = np.sin(x)"), st(f"{y} = {e0} + len('_e0')")), {"_e0"})
    assert out.splitlines()[1] == I + "y = np.sin(x) + len('_e0')"


def test_wide_statements_keep_named_steps():
    e0, y = ref("_e0"), ref("y")
    long = "np.sin(" + " + ".join(["x"] * 80) + ")"
    out = render(body(st(f"{e0} = {long}"), st(f"{y} = {e0} * 2.0")), {"_e0"})
    assert "_e0 = " in out


def test_unread_auxiliary_values_are_left_out_and_what_only_they_read():
    inv, F, y = ref("_inv_A"), ref("_F_A"), ref("y")
    stmts = body(st(f"{F} = np.prim.factor(A)"), st(f"{inv} = np.prim.inv.factored({F})"), st(f"{y} = x"),
                 st(f"return {y}"))
    out = render(stmts, set(), ["_F_A", "_inv_A"])          # listed before what frees it: still dropped
    assert "_inv_A" not in out and "_F_A" not in out
    kept = render(stmts[:-1] + [st(f"return {inv}")], set(), ["_F_A", "_inv_A"])
    assert "_inv_A = np.prim.inv.factored(_F_A)" in kept


def test_references_are_resolved_and_checked():
    out = render(body(st(f"{ref('y')} = x"), st(f"return {ref('y')}")))
    assert REF not in out
    with pytest.raises(ValueError):
        Stmt(I, f"{REF}y = x")
    with pytest.raises(ValueError):
        Stmt(I, "a = 1\nb = 2")
    assert name_of(ref("_e3")) == "_e3"
    with pytest.raises(ValueError):
        name_of("_e3")


def test_rendered_function_runs():
    e0, e1, y = ref("_e0"), ref("_e1"), ref("y")
    src = render(body(st(f"{e0} = np.exp(x)"), st(f"{e1} = {e0} / np.sum({e0})"), st(f"{y} = {e1}"),
                      st(f"return {y}")), {"_e0", "_e1"})
    ns = {"np": np}
    exec(src.replace("    def", "def", 1).replace("\n    ", "\n"), ns)
    x = np.array([0.0, 1.0, 2.0])
    np.testing.assert_allclose(ns["f"](x), np.exp(x) / np.exp(x).sum())


def test_a_constant_that_overflows_prints_as_a_name_the_module_has():
    # exp(exp(exp(2))) is inf in float64: printed `inf`, the generated code raised NameError (hypothesis found it)
    import sympy as sp

    from derive.emission.numpy_print import Emitter

    em = Emitter({}, lambda i: "n")
    for e, want in ((sp.exp(sp.exp(sp.exp(2))), np.inf), (-sp.exp(sp.exp(sp.exp(2))), -np.inf)):
        code, axes = em.emit(e)
        assert axes == () and eval(code, {"np": np}) == want


def test_a_cuda_constant_that_overflows_compiles():
    import sympy as sp

    from derive.emission.kernel_plan import _cuda_float

    assert _cuda_float(sp.Float("1e400")) == "T(INFINITY)"
    assert _cuda_float(-sp.Float("1e400")) == "(-T(INFINITY))"
    assert _cuda_float(sp.Rational(1, 4)) == "T(0.25)"
