"""Bad rule text: every error names file, line, column, puts a caret under the problem, and says what it is."""
import pytest

from derive import api
from derive.language.errors import RuleError


def err(text, path="bad.rules"):
    with pytest.raises(RuleError) as e:
        api.derive_text(text, path)
    return str(e.value)


def test_unknown_function_points_at_the_name():
    msg = err("f(x[i]) -> y[i] = exq(x[i])\n")
    assert msg.splitlines() == [
        "bad.rules:1:19: error: in rule 'f': unknown function 'exq'; did you mean 'exp'?",
        "    f(x[i]) -> y[i] = exq(x[i])",
        "                      ^^^",
    ]


def test_output_index_bound_nowhere():
    msg = err("f(x[i]) -> y[i,j] = x[i]\n")
    assert "bad.rules:1:16:" in msg and "index 'j' on the left is bound nowhere on the right" in msg


def test_inconsistent_declared_extents():
    msg = err("f(x[i:3], y[i:4]) -> z[i] = x[i] * y[i]\n")
    assert "bad.rules:1:13:" in msg and "extent 4 here but 3 (x[i:3])" in msg


def test_inconsistent_rank():
    msg = err("f(A[i,j]) -> y[i] = A[i]\n")
    assert "'A' has 2 indices but is used with 1" in msg and "bad.rules:1:21:" in msg


def test_non_scalar_argument_to_scalar_function():
    msg = err("f(A[i,j]) -> y[i,j] = exp(A)\n")
    assert "exp expects a scalar argument" in msg and "index it" in msg


def test_duplicate_rule_name():
    msg = err("f(x[i]) -> y[i] = x[i]\nf(x[i]) -> y[i] = x[i]\n")
    assert msg.startswith("bad.rules:2:1: error: rule 'f' is defined twice (first at line 1)")


def test_invalid_identifier():
    msg = err("my-op(x[i]) -> y[i] = x[i]\n")
    assert "bad.rules:1:" in msg and "not a valid name" in msg


def test_free_index_only_on_the_right():
    msg = err("f(x[i], z[j]) -> y[i] = x[i] + z[j]\n")
    assert "index 'j' appears once on the right and not on the left" in msg


def test_unknown_name():
    msg = err("f(x[i]) -> y[i] = x[i] * w[i]\n")
    assert "unknown name 'w'" in msg and "bad.rules:1:26:" in msg


def test_matrix_function_needs_a_matrix():
    msg = err("f(x[i]) -> y[] = det(x[i])\n")
    assert "det expects a matrix" in msg


def test_assigning_an_input():
    msg = err("f(x[i]) -> y[i]:\n    x[i] = 2 * x[i]\n    y[i] = x[i]\n")
    assert "'x' is an input and cannot be assigned" in msg and "bad.rules:2:5:" in msg


def test_output_never_assigned():
    msg = err("f(x[i]) -> (y[i], z[i]):\n    y[i] = x[i]\n")
    assert "output 'z' is never assigned" in msg


def test_reserved_python_name():
    msg = err("f(x[i], lambda) -> y[i] = x[i]\n")
    assert "reserved" in msg or "error" in msg


def caret_under(msg, token, line=1):
    """(the column the message gives, the column its caret stands at, the caret's width) and the echoed line's
    column of `token`, so that a test checks the caret against the text, not against the code's own output."""
    head, echoed, caret = msg.splitlines()[:3]
    col = int(head.split(":")[2])
    echoed = echoed[4:]
    return col, caret.index("^") - 4 + 1, caret.count("^"), echoed.index(token) + 1


def test_mistyped_index_is_named_with_the_caret_under_it():
    # kk is the typo: the header names k, and k appears twice in the statement (A[i,k] and the header's B[k,j])
    text = "mm(A[i,k], B[k,j]) -> C[i,j] = A[i,k] * B[kk,j]\n"
    msg = err(text)
    assert "index 'kk' appears once on the right" in msg and msg.splitlines()[0].endswith("did you mean 'k'?")
    col, caret_col, width, kk_col = caret_under(msg, "kk")
    assert col == caret_col == kk_col == text.index("kk") + 1 and width == 2


def test_mistyped_index_inside_a_sum():
    text = "mm(A[i,k], B[k,j]) -> C[i,j] = sum(k, A[i,k] * B[kk,j])\n"
    msg = err(text)
    assert "index 'kk' appears once" in msg and "did you mean 'k'?" in msg
    col, caret_col, width, kk_col = caret_under(msg, "kk")
    assert col == caret_col == kk_col and width == 2


def test_mistyped_index_on_the_left():
    msg = err("mm(A[i,k], B[k,j]) -> C[i,jj] = A[i,k] * B[k,j]\n")
    assert "index 'jj' on the left is bound nowhere on the right; did you mean 'j'?" in msg
    col, caret_col, width, jj_col = caret_under(msg, "jj")
    assert col == caret_col == jj_col and width == 2


def test_a_loose_index_with_no_near_name_gets_no_suggestion():
    msg = err("f(x[i], z[j]) -> y[i] = x[i] + z[j]\n")
    assert "index 'j' appears once" in msg and "did you mean" not in msg


def test_unknown_tensor_name_suggests_the_near_one():
    msg = err("f(x[i], w[i]) -> y[i] = x[i] * ww[i]\n")
    assert "unknown name 'ww'; did you mean 'w'?" in msg
    col, caret_col, width, ww_col = caret_under(msg, "ww")
    assert col == caret_col == ww_col and width == 2


def test_unknown_function_suggests_the_near_ones():
    msg = err("f(x[i]) -> y[i] = sqr(x[i])\n")
    assert "unknown function 'sqr'; did you mean 'sqrt' or 'sqrtm'?" in msg
    assert caret_under(msg, "sqr")[1:] == (19, 3, 19)


def derive_bare(text):
    (r,) = api.derive_text(text, "<expr>", bare_name="e")
    return r


def test_left_side_names_the_axes_of_a_matrix_function_of_a_whole_tensor():
    # w[i] = eigvalsh(S) is w = eigvalsh(S) with its axis named i: a vector of eigenvalues, checked against the
    # independent reference evaluator too (it reads the text its own way)
    for text, rank in (("w[i] = eigvalsh(S)", 1), ("B[i,j] = inv(A)", 2), ("f(S[b,i,j]) -> w[b,i] = eigvalsh(S)", 2)):
        r = derive_bare(text) if "->" not in text else api.derive_text(text, "<t>")[0]
        assert r.ok and r.check.reference_points > 0, (text, r.check.problems, r.check.warnings)
        assert len(r.program.outputs[0].indices) == rank
    # transpose keeps its meaning: B[i,j] is A[j,i], so B's first axis has the extent of A's second
    r = derive_bare("B[i,j] = transpose(A)")
    assert r.ok and r.check.reference_points > 0
    assert r.program.outputs[0].classes == tuple(reversed(r.program.inputs[0].classes))


def test_a_left_side_with_more_indices_than_the_call_has_axes():
    text = "w[b,i] = eigvalsh(S)"
    with pytest.raises(RuleError) as e:
        api.derive_text(text, "<expr>", bare_name="e")
    msg = str(e.value)
    assert "eigvalsh(S) has 1 axis, which no index names, but 'w' is written with 2 indices; write w = eigvalsh(S)" \
        in msg
    col, caret_col, width, b_col = caret_under(msg, "b")
    assert col == caret_col == b_col == 3 and width == 1


def test_a_whole_tensor_call_beside_named_indices_is_named():
    text = "C[i,j] = inv(A) + A[i,j]"
    with pytest.raises(RuleError) as e:
        api.derive_text(text, "<expr>", bare_name="e")
    msg = str(e.value)
    # before, "index 'i' appears once" pointed at A[i,j]'s i, which is not the problem: inv(A)'s axes are unnamed
    assert "the axes of inv(A) are named by no index" in msg
    col, caret_col, width, inv_col = caret_under(msg, "inv")
    assert col == caret_col == inv_col and width == 3


def test_an_index_only_a_comparison_uses_is_named_where_it_is_bound():
    # j runs over nothing an input gives: the comparison j <= i does not bound it; before, the message said
    # "a comparison such as j <= j" with the caret under the rule's name
    text = "f(x[i]) -> y[i] = sum(j, where(j <= i, 1, 0))\n"
    msg = err(text)
    assert "the extent of index 'j' cannot be known: no input tensor is indexed by it (the comparison j <= i " \
           "does not set its range); index an input with 'j' (as in x[j])" in msg
    col, caret_col, width, j_col = caret_under(msg, "j")
    assert col == caret_col == j_col == text.index("sum(j") + 5 and width == 1
