"""primitives/elementwise.py is the one declaration of the elementwise built-ins: every stage reads it.

Each row is enrolled automatically: the lowering knows exactly the table's names and arities, its NumPy
spelling resolves in both namespaces generated code runs on, its CUDA spelling is a CUDA math function or a
helper the kernels define, and its value and derivative, through the generated NumPy code, the traced
namespace and the CPU emulation of the CUDA kernels, match mpmath at random points of its natural domain.
"""
from __future__ import annotations

import dataclasses
import json
import re
import sys
from pathlib import Path

import mpmath
import numpy as np
import pytest

from derive import api
from derive.emission import cuda as codegen_cuda
from derive.ir import nodes as ir
from derive.language.errors import RuleError
from derive.lowering import calls, lower
from primitives.elementwise import BY_NAME, ROWS, ZERO, row_function
from runtime import backend_numpy, tnp
from runtime.tangents import is_zero, unthunk
from runtime.tape import grad

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "codegen"))
import cuda_emu  # noqa: E402  (tests/codegen/cuda_emu.py)

mp = mpmath.mp

# The reference of each built-in, from mpmath (never from the code under test): its arguments in the rule
# text and the function. A new row without a reference here fails test_every_row_has_a_reference.
REFERENCE = {
    "exp": mpmath.exp, "log": mpmath.log, "log1p": mpmath.log1p, "expm1": mpmath.expm1,
    "sin": mpmath.sin, "cos": mpmath.cos, "tan": mpmath.tan, "asin": mpmath.asin, "acos": mpmath.acos,
    "atan": mpmath.atan, "sinh": mpmath.sinh, "cosh": mpmath.cosh, "tanh": mpmath.tanh, "sqrt": mpmath.sqrt,
    "abs": mpmath.fabs, "sign": mpmath.sign, "pow": lambda x, a: x ** a,
    "sigmoid": lambda x: 1 / (1 + mpmath.exp(-x)), "softplus": lambda x: mpmath.log(1 + mpmath.exp(x)),
    "erf": mpmath.erf, "erfc": mpmath.erfc, "relu": lambda x: max(x, 0),
    "step": lambda x: mpmath.mpf(1 if x > 0 else 0),
    "where": lambda x, u, v: u if x > 0 else v,
    "cbrt": lambda x: mpmath.sign(x) * mpmath.cbrt(abs(x)), "erfinv": mpmath.erfinv,
}
# CUDA's math library functions the table may spell (CUDA Math API); tr_* helpers come from the template
CUDA_MATH = {"exp", "log", "log1p", "expm1", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
             "sqrt", "fabs", "erf", "erfc", "pow", "cbrt", "erfinv"}
HELPERS = (ROOT / "templates" / "cuda_helpers.cuh.j2").read_text()


def _rule(row):
    """A rule applying the row to fresh inputs x (and u, a...): `t_<name>(x[i], ...) -> y[i] = <name>(...)`."""
    names = ["x", "u", "v"][:row.arity]
    args = [f"{n}[i]" for n in names]
    if row.condition is not None:
        args[row.condition] = "x[i] > 0"
    header = ", ".join(f"{n}[i]" for n in names if any(a.startswith(n) for a in args))
    return f"t_{row.name}({header}) -> y[i] = {row.name}({', '.join(args)})", names


def _inputs(row, names, rng, n=7):
    """Random points inside the row's natural domain, away from 0 (kinks of abs, relu, sign, step, where)."""
    out = []
    for k, _ in enumerate(names):
        dom = row.domain[k] if k < len(row.domain) else ""
        v = rng.uniform(0.2, 3.0, n) if dom == "positive" else rng.uniform(0.1, 0.9, n) * rng.choice([-1, 1], n)
        out.append(v)
    return out


def _expected(row, xs):
    """Value and partial derivatives, element by element, from mpmath at 30 digits."""
    f = REFERENCE[row.name]
    with mp.workdps(30):
        vals, ders = [], [[] for _ in xs]
        for p in zip(*xs):
            p = [mpmath.mpf(float(v)) for v in p]
            vals.append(float(f(*p)))
            for k in range(len(p)):
                order = tuple(int(j == k) for j in range(len(p)))
                ders[k].append(float(mpmath.diff(f, p, order)) if row.dydx != ZERO else 0.0)
    return np.array(vals), [np.array(d) for d in ders]


def _dense(g, like):
    g = unthunk(g)
    return np.zeros_like(like) if is_zero(g) else np.asarray(g, dtype=float)


def _host(x):
    return np.asarray(x.get() if hasattr(x, "get") else x, dtype=np.float64)


@pytest.fixture(scope="module")
def derived():
    rules = {r.name: _rule(r) for r in ROWS}
    results = api.derive_text("\n".join(t for t, _ in rules.values()), "<table>", verify_rules=False)
    ns: dict = {}
    exec(compile(api.render_module(results, "<table>", export=False), "<table>", "exec"), ns)
    return rules, results, ns["_define"]


def test_every_row_has_a_reference():
    assert set(REFERENCE) == set(BY_NAME)


def test_lowering_knows_exactly_the_table():
    constructs = calls.RESERVED - set(ir.MATRIX_FUNCTIONS) - set(BY_NAME)
    assert constructs == {"sum", "delta", "size", "max", "min", "prod", "inf"}   # the language, not functions
    assert set(ir.ELEMENTWISE) == set(BY_NAME)
    for row in ROWS:
        text, _ = _rule(row)
        api.parse(text)                                               # the parser takes any name
        with pytest.raises(RuleError, match=f"{row.name} takes {row.arity} argument"):
            bad = ", ".join(["x[i]"] * (row.arity + 1))
            lower.lower(api.parse(f"f(x[i]) -> y[i] = {row.name}({bad})")[0])
        with pytest.raises(RuleError, match="built-in function"):
            lower.lower(api.parse(f"f({row.name}[i]) -> y[i] = {row.name}[i]")[0])
    with pytest.raises(RuleError, match="unknown function 'erfcx'"):
        lower.lower(api.parse("f(x[i]) -> y[i] = erfcx(x[i])")[0])


def test_domains_come_from_the_table():
    for row in ROWS:
        text, names = _rule(row)
        prog = lower.lower(api.parse(text)[0])
        for k, n in enumerate(names):
            want = row.domain[k] if k < len(row.domain) and row.domain[k] else "real"
            assert prog.domains.get(n, "real") == want, (row.name, n)
    # an integer exponent lifts pow's domain: x**3 is defined for negative x
    prog = lower.lower(api.parse("f(x[i]) -> y[i] = pow(x[i], 3)")[0])
    assert prog.domains.get("x", "real") == "real"


def test_spellings_resolve():
    for row in ROWS:
        if row.numpy.isidentifier():
            assert callable(getattr(backend_numpy, row.numpy)), row.name
            if row.dydx is not None:
                assert callable(getattr(tnp, row.numpy)), row.name
        for fn in re.findall(r"^(\w+)$|(\w+)\(", row.cuda):
            name = fn[0] or fn[1]
            if name.startswith("tr_"):
                assert re.search(rf"\b{name}\(T x\)", HELPERS), f"{row.name}: {name} is not a helper"
            else:
                assert name in CUDA_MATH, f"{row.name}: {name} is not a CUDA math function"


@pytest.mark.parametrize("column, framework, default", [("torch", "torch", "{numpy}"),
                                                        ("jax", "jax", "numpy.{numpy}")])
def test_framework_spellings_resolve(column, framework, default):
    """Every row's torch and JAX spelling names a function the framework has (a misspelt one would break the
    bridge's import for everyone, after derive-rules had verified the rule)."""
    module = pytest.importorskip(framework)
    if framework == "jax":
        import jax.numpy  # noqa: F401  (the default spelling's module)
    for row in ROWS:
        if "{" in row.numpy or row.numpy == "where" and column == "torch":
            continue
        assert callable(row_function(row, column, module, default.format(numpy=row.numpy))), row.name


def test_a_misspelt_framework_column_is_an_error_naming_the_row():
    import types

    row = dataclasses.replace(ROWS[0], torch="not_a_function")
    with pytest.raises(LookupError, match=f"the row of {ROWS[0].name!r} spells its torch function 'not_a_function'"):
        row_function(row, "torch", types.ModuleType("torch"), row.numpy)


def test_printers_spell_every_node_from_the_table():
    """The NumPy printer has no function names of its own: a row's spelling is what it prints."""
    for row in ROWS:
        if row.node_name == "Pow" or not row.numpy.isidentifier():
            continue
        text, _ = _rule(row)
        src = api.render_module(api.derive_text(text, "<t>", verify_rules=False), "<t>", export=False)
        assert f"np.{row.numpy}(" in src, row.name


@pytest.mark.parametrize("name", [r.name for r in ROWS])
def test_value_and_derivative_through_numpy_and_traced_code(name, derived):
    rules, _, define = derived
    row = BY_NAME[name]
    _, names = rules[name]
    xs = _inputs(row, names, np.random.default_rng(abs(hash(name)) % 2**32))
    want, dwant = _expected(row, xs)
    fns = define(backend_numpy)
    y, pullback = fns[f"t_{name}_rrule"](*xs)
    np.testing.assert_allclose(y, want, rtol=1e-13, atol=1e-15)
    grads = pullback(np.ones_like(y))[1:]
    for k, g in enumerate(grads):
        np.testing.assert_allclose(_dense(g, xs[k]), dwant[k], rtol=1e-9, atol=1e-12, err_msg=f"d{names[k]}")
    # the same generated code on the traced namespace: the row's own traced derivative
    traced = define(tnp)[f"t_{name}"]
    tg = grad(lambda *a: tnp.sum(traced(*a)), tuple(range(len(xs))))(*xs)
    for k, g in enumerate(tg):
        np.testing.assert_allclose(_dense(g, xs[k]), dwant[k], rtol=1e-9, atol=1e-12, err_msg=f"traced d{names[k]}")


def test_value_and_derivative_through_cuda_kernels(derived):
    """Every row's kernels compiled and run by the CPU emulation (the GPU path is tests/codegen/test_cuda.py)."""
    ok, why = cuda_emu.available()
    if not ok:
        pytest.skip(f"no CPU emulation: {why}")
    from runtime import cuda as rc

    rules, results, _ = derived
    files = codegen_cuda.generate_cuda(results, "<table>")
    stem = next(k for k in files if k.endswith(".cu"))[:-3]
    plan = json.loads(files[stem + ".json"])
    assert not plan.get("unsupported"), plan.get("unsupported")
    mod = rc.Module("table", files[stem + ".cu"], plan)
    dev = cuda_emu.EmuDevice(sm_count=2)
    for row in ROWS:
        _, names = rules[row.name]
        xs = _inputs(row, names, np.random.default_rng(7))
        want, dwant = _expected(row, xs)
        args = [dev.asarray(x, np.float64) for x in xs]
        y, pullback = rc.call(mod, f"t_{row.name}", "rrule", args, dev)
        np.testing.assert_allclose(_host(y), want, rtol=1e-12, atol=1e-15, err_msg=row.name)
        grads = pullback(dev.asarray(np.ones_like(want), np.float64))[1:]
        for k, g in enumerate(grads):
            g = np.zeros_like(want) if g is None or is_zero(g) else _host(g)
            np.testing.assert_allclose(g, dwant[k], rtol=1e-9, atol=1e-12, err_msg=f"{row.name} d{names[k]}")


def test_language_reference_lists_every_row():
    """docs/language.md's list of elementwise functions is the table's (a row added there is documented)."""
    text = (ROOT / "docs" / "language.md").read_text()
    para = text[text.index("**Elementwise functions**"):].split("\n\n")[0]
    listed = set(re.findall(r"`([^`]*)`", para)[0].split()) | {"where"}
    assert listed == set(BY_NAME)
