"""Property test of the whole front end: any rule built from the language's pieces either derives (and then
verifies, or reports a failed check) or raises the documented DeriveError — never another exception."""
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from derive import api
from derive.language.errors import DeriveError

TENSORS = ["x[i]", "y[j]", "A[i,j]", "A[j,i]", "B[j,k]", "s", "x[j]", "A[i,i]", "b[k]"]
FUNCS = ["exp", "log", "tanh", "sin", "sigmoid", "sqrt", "abs", "softplus", "relu", "erf"]
MATFUNCS = ["inv", "det", "logdet", "trace"]


@st.composite
def expr(draw, depth=0):
    choice = draw(st.integers(0, 7 if depth < 3 else 1))
    if choice == 0:
        return draw(st.sampled_from(TENSORS))
    if choice == 1:
        return draw(st.sampled_from(["2", "0.5", "1"]))
    if choice in (2, 3):
        op = draw(st.sampled_from(["+", "-", "*", "/"]))
        return f"({draw(expr(depth + 1))} {op} {draw(expr(depth + 1))})"
    if choice == 4:
        return f"{draw(st.sampled_from(FUNCS))}({draw(expr(depth + 1))})"
    if choice == 5:
        return f"{draw(st.sampled_from(MATFUNCS))}({draw(st.sampled_from(['A[i,j]', 'A', 'x[i]']))})"
    if choice == 6:
        return f"sum({draw(st.sampled_from(['i', 'j', 'k']))}, {draw(expr(depth + 1))})"
    return f"({draw(expr(depth + 1))})**2"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lhs=st.sampled_from(["y[i]", "y[]", "y[i,j]", "y"]), rhs=expr())
def test_any_rule_derives_or_raises_derive_error(lhs, rhs):
    text = f"{lhs} = {rhs}"
    try:
        r = api.derive_expr(text)
    except DeriveError:
        return
    assert r.check is not None or r.error is not None
    if r.ok:
        assert r.check.fd_error < 1e-6 and r.check.adjoint_error < 1e-10
    r.pullback_text(), r.pushforward_text(), r.to_json()
