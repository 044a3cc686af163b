"""Rule text that opens with a comment, doc comments in the generated code and --json, empty extents in
generated means (nan, as NumPy's mean of nothing, never a ZeroDivisionError)."""
import json
import warnings

import numpy as np
import pytest

from derive import api
from derive.language.parser import starts_with_header

SOFTPLUS = "# Softplus, a smooth ramp.\n# Never negative.\nsp(x[i]) -> y[i] = log(1 + exp(x[i]))\n"


def _load(src):
    ns = {}
    exec(compile(src, "<test>", "exec"), ns)
    from runtime import backend_numpy
    return ns, ns["_define"](backend_numpy)


# -- bare statements or rules: decided past blank and comment lines ------------------------------------------

@pytest.mark.parametrize("text, header", [
    ("sp(x[i]) -> y[i] = x[i]", True),
    ("# softplus\nsp(x[i]) -> y[i] = log(1 + exp(x[i]))", True),
    ("\n  \n# a\n   # b\n\nsp(x[i]) -> y[i] = x[i]", True),
    ("f(x[i],\n  z[i]) -> y[i] = x[i] * z[i]", True),    # the header goes on inside the parentheses
    ("B = inv(A)", False),
    ("# a -> b\nB = inv(A)", False),                   # '->' in a comment is no header
    ("B = inv(A)  # -> not a header", False),
    ("", False),
])
def test_starts_with_header(text, header):
    assert starts_with_header(text) is header


def test_rule_text_opening_with_a_comment_is_a_rule_and_the_comment_its_doc():
    src = api.generate_module_source("# softplus\nsp(x[i]) -> y[i] = log(1 + exp(x[i]))", source_label="<define>")
    ns, fns = _load(src)
    assert list(ns["OPS"]) == ["sp"] and ns["OPS"]["sp"]["doc"] == "softplus"
    np.testing.assert_allclose(fns["sp"](np.array([0.0])), [np.log(2.0)])


# -- doc comments reach the generated module, its OPS and --json ---------------------------------------------

def test_doc_comment_in_the_generated_module_and_json():
    (r,) = api.derive_text(SOFTPLUS, "act.rules")
    assert r.to_json()["doc"] == "Softplus, a smooth ramp.\nNever negative."
    src = api.render_module([r], "act.rules")
    assert ("    # ---- sp(x[i]) -> y[i]    (act.rules:3)\n"
            "    # Softplus, a smooth ramp.\n"
            "    # Never negative.\n"
            "    def sp(x):\n") in src
    ns, _ = _load(api.render_module([r], "act.rules", export=False))
    assert ns["OPS"]["sp"]["doc"] == "Softplus, a smooth ramp.\nNever negative."
    assert "doc" not in api.derive_text("sq(x[i]) -> y[i] = x[i] * x[i]")[0].code.meta  # none: no key


def test_shipped_ops_carry_their_doc():
    import generated.nn
    assert generated.nn.OPS["softmax"]["doc"].startswith("Written through the log-sum-exp")
    assert "sum" in generated.nn.OPS and "doc" not in generated.nn.OPS["sum"]


def test_public_op_docstring_shows_the_doc_comment():
    import generated
    assert "Written through the log-sum-exp" in generated.softmax.__doc__
    assert generated.softmax.__doc__.startswith("softmax(x[i]) -> y[i]\n\n")
    assert "\n\nGenerated from rules/nn.rules:" in generated.softmax.__doc__


# -- empty extents: a mean of nothing is nan ----------------------------------------------------------------

EMPTY_MEAN = """
m(x[i]) -> y[] = sum(i, x[i]) / size(i)
ms(x[b,o]) -> y[] = sum(b, o, x[b,o] * x[b,o]) / (size(b) * size(o))
scaled(x[i]) -> y[i] = x[i] / sqrt(size(i))
inv2(x[i]) -> y[i] = x[i] * size(i)**-2
"""


@pytest.fixture(scope="module")
def empty_ops():
    results = api.derive_text(EMPTY_MEAN, "empty.rules")
    assert all(r.ok for r in results)
    return api.render_module(results, "empty.rules", export=False)


def test_extent_divisors_fold_into_one_reciprocal(empty_ops):
    assert "_recip(n_b * n_o)" in empty_ops and "_recip(n_i)" in empty_ops
    assert "1 / n_" not in empty_ops and "/ n_" not in empty_ops


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_empty_means_are_nan_and_keep_their_dtype(empty_ops, dtype):
    _, fns = _load(empty_ops)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # NumPy warns on 0·inf, as on np.mean([])
        for name, x in (("m", np.zeros(0, dtype)), ("ms", np.zeros((0, 3), dtype)), ("ms", np.zeros((2, 0), dtype))):
            y = fns[name](x)
            assert np.isnan(y) and y.dtype == dtype, (name, x.shape, y)
            _, pullback = fns[name + "_rrule"](x)
            dx = pullback(np.ones((), dtype))[1]
            dx = dx() if callable(dx) else dx
            assert dx.shape == x.shape
        for name in ("scaled", "inv2"):
            y = fns[name](np.zeros(0, dtype))
            assert y.shape == (0,) and y.dtype == dtype


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_nonempty_means_are_unchanged(empty_ops, dtype):
    _, fns = _load(empty_ops)
    x = np.arange(1, 7, dtype=dtype).reshape(2, 3)
    assert fns["m"](x[0]).dtype == dtype and fns["ms"](x).dtype == dtype
    np.testing.assert_allclose(fns["m"](x[0]), np.mean(x[0]), rtol=1e-6)
    np.testing.assert_allclose(fns["ms"](x), np.mean(x * x), rtol=1e-6)
    np.testing.assert_allclose(fns["scaled"](x[0]), x[0] / np.sqrt(3), rtol=1e-6)
    np.testing.assert_allclose(fns["inv2"](x[0]), x[0] / 9, rtol=1e-6)


def test_shipped_losses_on_an_empty_batch_are_nan():
    import generated
    from runtime import grad
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for dtype in (np.float64, np.float32):
            p = np.zeros((0, 4), dtype)
            for op in (generated.mse, generated.cross_entropy):
                L = op(p, p)
                assert np.isnan(L) and L.dtype == dtype
            assert np.isnan(generated.mean(np.zeros(0, dtype)))
            g = grad(lambda p: generated.mse(p, np.zeros((0, 4), dtype)))(p)
            assert g.shape == (0, 4) and g.dtype == dtype
