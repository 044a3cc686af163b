"""Plausible but extreme input: long chains and programs work, absurd numbers and deep nesting fail cleanly.

Each case once failed: a `+` chain of 350 terms raised RecursionError, `x[i] * 1e-330` OverflowError,
`1e99999999999` and `10**10**10` hung for minutes, `where(3 > 3, a, b)` was refused. Nothing here is timed;
the subprocess timeouts only keep a regression from hanging the suite.
"""
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from derive import api
from derive.language.errors import RuleError
from derive.language.parser import MAX_DEPTH

ROOT = Path(__file__).resolve().parents[2]


def compiled(results):
    """The generated forward functions of `results`, loaded as verification loads them."""
    from runtime import backend_numpy

    ns: dict = {}
    exec(compile(api.render_module(results, "<test>", export=False), "<test>", "exec"), ns)
    return ns["_define"](backend_numpy)


def derive_ok(text):
    (r,) = api.derive_text(text, "<expr>", bare_name="e")
    assert r.ok, (r.error, r.check and r.check.problems)
    return r


# -- long chains --------------------------------------------------------------------------------------------

def test_sum_of_2000_terms():
    # sum over k of k·x + k·z (k = 1..1000) = 500500·(x + z)
    text = "y[i] = " + " + ".join(f"{k} * x[i] + {k} * z[i]" for k in range(1, 1001))
    r = derive_ok(text)
    assert r.pushforward_text() == "dy = 500500·dx + 500500·dz"
    x, z = np.array([0.5, -2.0]), np.array([3.0, 0.25])
    assert np.allclose(compiled([r])["e"](x, z), 500500 * (x + z), rtol=1e-14)


def test_difference_and_product_chains_of_2000():
    # x - 1 - 2 - ... - 2000 and x · (1 + 1/1) · (1 + 1/2) ··· (1 + 1/2000) = 2001·x (the product telescopes)
    r = derive_ok("y[i] = x[i] - " + " - ".join(str(k) for k in range(1, 2001)))
    assert np.allclose(compiled([r])["e"](np.array([1.5])), [1.5 - 2001000])
    r = derive_ok("y[i] = x[i] * " + " * ".join(f"(1 + 1/{k})" for k in range(1, 2001)))
    assert r.pullback_text() == "dx = 2001·dy"


def test_long_sum_of_terms_that_do_not_combine():
    # Σ x^k for k = 1..300: each term stays; its derivative is Σ k·x^(k-1)
    r = derive_ok("y[i] = " + " + ".join(f"x[i]**{k}" for k in range(1, 301)))
    x = np.array([0.5, -0.75])
    fns = compiled([r])
    assert np.allclose(fns["e"](x), sum(x ** k for k in range(1, 301)), rtol=1e-13)
    from runtime.tangents import NoTangent

    y, dy = fns["e_frule"]((NoTangent(), np.ones_like(x)), x)
    assert np.allclose(dy, sum(k * x ** (k - 1) for k in range(1, 301)), rtol=1e-12)


def test_program_of_400_statements():
    ops = ["{p} * 2", "sin({p})", "{p} + x[i]", "tanh({p})", "{p} * x[i]", "exp({p}) / 3"]
    lines = ["t1[i] = x[i] * 2"] + [f"t{k}[i] = " + ops[k % 6].format(p=f"t{k - 1}[i]") for k in range(2, 401)]
    r = derive_ok("\n".join(lines))
    x = np.array([0.1, -0.2])
    t = 2 * x
    fs = [lambda p: p * 2, np.sin, lambda p: p + x, np.tanh, lambda p: p * x, lambda p: np.exp(p) / 3]
    for k in range(2, 401):
        t = fs[k % 6](t)
    assert np.allclose(compiled([r])["e"](x), t, rtol=1e-12)


def test_nesting_up_to_the_limit_derives():
    levels = MAX_DEPTH
    r = derive_ok("y[i] = " + "sin(" * levels + "x[i]" + ")" * levels)
    x = np.array([0.3])
    expect = x
    for _ in range(levels):
        expect = np.sin(expect)
    assert np.allclose(compiled([r])["e"](x), expect, rtol=1e-13)


def test_nesting_beyond_the_limit_is_a_positioned_error():
    text = "y[i] = " + "(x[i] + " * (MAX_DEPTH + 1) + "x[i]" + ")" * (MAX_DEPTH + 1)
    with pytest.raises(RuleError) as e:
        api.derive_text(text, "<expr>", bare_name="e")
    # the caret is on the opener past the limit: after "y[i] = " (7 characters) and MAX_DEPTH openers of 8
    col = 7 + 8 * MAX_DEPTH + 1
    first, _, caret = str(e.value).splitlines()
    assert first == f"<expr>:1:{col}: error: expression nested too deeply (more than {MAX_DEPTH} levels of " \
                    f"parentheses, calls, signs and powers)"
    assert caret == "    " + " " * (col - 1) + "^"


# -- absurd numbers: an error within a second, never a hang ---------------------------------------------------

_RUNNER = r"""
import json, sys
from derive import api
from derive.language.errors import DeriveError
out = []
for text in json.loads(sys.stdin.read()):
    try:
        api.derive_text(text, "<expr>", bare_name="e")
        out.append("no error")
    except DeriveError as e:
        out.append(str(e))
print(json.dumps(out))
"""

ABSURD = [
    # (statement, column of the caret, caret width, the message's key words)
    ("y[i] = x[i] * 1e-330", 15, 6, "'1e-330' is below float64's normal range"),
    ("y[i] = x[i] * 4e-320", 15, 6, "'4e-320' is below float64's normal range"),
    ("y[i] = x[i] * 1e99999999999", 15, 13, "'1e99999999999' is beyond float64's range"),
    ("y[i] = x[i] * 10**10**10", 17, 2, "this constant is about 1e10000000000, beyond float64's range"),
    # 2**(2**(2**(2**(2**2)))): the innermost three give 65536, and the second "**" (column 19) 2**65536
    ("y[i] = x[i] * 2**2**2**2**2**2", 19, 2, "this constant is about 1e19728, beyond float64's range"),
    ("y[i] = x[i] * 0.5**2000", 18, 2, "this constant is about 1e-602, below float64's normal range"),
    ("y[i] = x[i] * 1e300 * 1e300", 21, 1, "this constant is about 1e600, beyond float64's range"),
    ("y[i] = x[i] * sqrt(2)**(10**10)", 22, 2, "this constant is about 1e1505149978, beyond float64's range"),
    ("y[i] = x[i] * 0." + "1" * 120, 15, 122, "this number is longer than 100 characters"),
]


def test_absurd_numbers_are_positioned_errors():
    proc = subprocess.run([sys.executable, "-c", _RUNNER], input=json.dumps([t for t, *_ in ABSURD]),
                          capture_output=True, text=True, cwd=ROOT, timeout=30)
    assert proc.returncode == 0, proc.stderr
    for (text, col, width, words), msg in zip(ABSURD, json.loads(proc.stdout)):
        lines = msg.splitlines()
        assert lines[0].startswith(f"<expr>:1:{col}: error: "), (text, msg)
        assert words in lines[0], (text, msg)
        assert lines[1] == "    " + text
        assert lines[2] == "    " + " " * (col - 1) + "^" * width, (text, msg)


@pytest.mark.parametrize("text,value", [
    ("y[i] = x[i] * 0e99999999999", 0.0),        # zero with any exponent is zero
    ("y[i] = x[i] * 2.2250738585072014e-308 / 2.2250738585072014e-308", 1.0),  # float64's smallest normal
    ("y[i] = x[i] * 1e308 / 1e308", 1.0),
    ("y[i] = x[i] * 2**1000 / 2**1000", 1.0),
    ("y[i] = x[i] * (-1)**(10**10)", 1.0),       # |base| = 1: any exponent is in range
])
def test_numbers_at_the_edges_of_float64_are_accepted(text, value):
    r = derive_ok(text)
    assert np.allclose(compiled([r])["e"](np.array([0.5, -3.0])), value * np.array([0.5, -3.0]))


# -- where with a condition SymPy decides -------------------------------------------------------------------

@pytest.mark.parametrize("cond,factor", [("3 > 3", 2.0), ("3 >= 3", 1.0), ("1 != 1", 2.0), ("2 < 3", 1.0)])
def test_where_with_a_constant_condition_folds(cond, factor):
    r = derive_ok(f"y[i] = where({cond}, x[i], 2 * x[i])")
    assert "where" not in r.pullback_text()
    x = np.array([0.5, -1.5])
    assert np.allclose(compiled([r])["e"](x), factor * x)


def test_a_constant_comparison_outside_where_is_still_refused():
    with pytest.raises(RuleError) as e:
        api.derive_text("y[i] = x[i] + (3 > 2)", "<expr>", bare_name="e")
    assert "a comparison is only allowed as the first argument of where()" in str(e.value)
