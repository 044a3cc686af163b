"""Tests of derive.language.parser: every construct's tree, precedence, positioned errors, and two properties
(no input raises anything but RuleError; printed expressions parse back to the same tree)."""
from __future__ import annotations

import dataclasses
import pathlib
import re
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from derive.language.ast import (
    Access,
    BinOp,
    Call,
    Index,
    Name,
    Neg,
    Num,
    Param,
    Pos,
    RuleDef,
    RuleFile,
    Statement,
    Subscript,
)
from derive.language.errors import RuleError
from derive.language.parser import MAX_DEPTH, parse_file, parse_statements

F = "t.rules"


def P(line: int, col: int, file: str = F) -> Pos:
    return Pos(file, line, col)


def shape(node):
    """A node as nested tuples without positions, so trees compare on structure alone."""
    if isinstance(node, tuple):
        return tuple(shape(n) for n in node)
    if dataclasses.is_dataclass(node):
        return (type(node).__name__,) + tuple(
            shape(getattr(node, f.name)) for f in dataclasses.fields(node) if f.name not in ("pos", "func_pos"))
    return node


# Position-free builders for expected trees.
X = P(0, 0)


def nm(n):
    return Name(n, X)


def num(v):
    return Num(v, X)


def acc(n, *ix):
    return Access(n, tuple(Index(i, X) for i in ix), X)


def op(o, a, b):
    return BinOp(o, a, b, X)


def neg(a):
    return Neg(a, X)


def call(f, *args):
    return Call(f, tuple(args), X)


def expr_of(text: str):
    """The expression of `y = text`."""
    return parse_statements("y = " + text).statements[0].expr


def error_of(parse, text: str) -> RuleError:
    with pytest.raises(RuleError) as info:
        parse(text, path=F)
    return info.value


# -- constructs -------------------------------------------------------------------------------------


def test_one_line_rule_with_positions():
    text = "matmul(A[i,k], B[k,j]) -> C[i,j] = A[i,k] * B[k,j]"
    rule = parse_file(text, F).rules[0]
    c_ij = (Index("i", P(1, 29)), Index("j", P(1, 31)))
    assert rule == RuleDef(
        name="matmul",
        inputs=(Param("A", (Index("i", P(1, 10)), Index("k", P(1, 12))), "tensor", P(1, 8)),
                Param("B", (Index("k", P(1, 18)), Index("j", P(1, 20))), "tensor", P(1, 16))),
        outputs=(Param("C", c_ij, "tensor", P(1, 27)),),
        statements=(Statement(
            Access("C", c_ij, P(1, 27)),
            BinOp("*", Access("A", (Index("i", P(1, 38)), Index("k", P(1, 40))), P(1, 36)),
                  Access("B", (Index("k", P(1, 47)), Index("j", P(1, 49))), P(1, 45)), P(1, 43)),
            P(1, 27)),),
        pos=P(1, 1))
    assert rule.pos.text == text and rule.header


def test_block_rule():
    text = ("cayley(A[i,j]) -> Q[i,j]:\n"
            "    M[i,j] = inv(delta(i,j) - A[i,j])\n"
            "\n"
            "    # a comment inside the block\n"
            "    Q[i,j] = M[i,k] * (delta(k,j) + A[k,j])   # and one after code\n")
    rule = parse_file(text, F).rules[0]
    assert shape(rule.statements) == shape((
        Statement(acc("M", "i", "j"), call("inv", op("-", call("delta", nm("i"), nm("j")), acc("A", "i", "j"))), X),
        Statement(acc("Q", "i", "j"),
                  op("*", acc("M", "i", "k"), op("+", call("delta", nm("k"), nm("j")), acc("A", "k", "j"))), X)))
    second = rule.statements[1]
    assert second.pos == P(5, 5) and second.expr.pos == P(5, 21)
    assert second.pos.text == "    Q[i,j] = M[i,k] * (delta(k,j) + A[k,j])   # and one after code"


def test_param_kinds():
    rule = parse_file("f(x[i], s, n: int, t: scalar, u[]) -> y[i] = x[i]", F).rules[0]
    assert [(p.name, p.kind, p.indices) for p in rule.inputs] == [
        ("x", "tensor", (Index("i", P(1, 5)),)), ("s", "scalar", None), ("n", "int", None),
        ("t", "scalar", None), ("u", "tensor", ())]
    assert rule.inputs[2].pos == P(1, 12)


def test_rank0_output_bare_output_and_empty_inputs():
    rules = parse_file("loss(p[b], t[b]) -> L[] = sum(b, p[b] - t[b])\n"
                       "g(x) -> y = x\n"
                       "zero() -> z[] = 0\n", F).rules
    assert rules[0].outputs == (Param("L", (), "tensor", P(1, 21)),)
    assert rules[0].statements[0].target == Access("L", (), P(1, 21))
    assert rules[1].outputs == (Param("y", None, "tensor", P(2, 9)),)
    assert rules[1].statements[0].target == Name("y", P(2, 9))
    assert rules[2].inputs == ()


def test_extents_and_several_outputs():
    rule = parse_file("qr2(A[i:3, j:3]) -> (Q[i,j], R[i,j]):\n    Q[i,j] = A[i,j]; R[i,j] = A[i,j]\n", F).rules[0]
    assert rule.inputs[0].indices == (Index("i", P(1, 7), 3), Index("j", P(1, 12), 3))
    assert [o.name for o in rule.outputs] == ["Q", "R"]
    assert [s.target.name for s in rule.statements] == ["Q", "R"]
    assert rule.statements[1].pos == P(2, 22)


def test_explicit_sums():
    rules = parse_file(
        "logsumexp(x[i]) -> y[] = log(sum(i, exp(x[i])))\n"
        "kernel(x[i,d], y[j,d], b[j], s) -> out[i] = sum(j, exp(-sum(d, (x[i,d] - y[j,d])**2) / s) * b[j])\n", F).rules
    assert shape(rules[0].statements[0].expr) == shape(call("log", call("sum", nm("i"), call("exp", acc("x", "i")))))
    inner = call("sum", nm("d"), op("**", op("-", acc("x", "i", "d"), acc("y", "j", "d")), num("2")))
    assert shape(rules[1].statements[0].expr) == shape(
        call("sum", nm("j"), op("*", call("exp", op("/", neg(inner), nm("s"))), acc("b", "j"))))
    assert shape(expr_of("sum(k, l, A[k,l])")) == shape(call("sum", nm("k"), nm("l"), acc("A", "k", "l")))


def test_statements_where_and_subscript():
    rule = parse_statements("B = inv(A); y[i] = where(x[i] > 0, x[i], 0.1 * x[i])\nt[i,k] = inv(A)[i,k]", "ops")
    assert (rule.name, rule.header, rule.inputs, rule.outputs) == ("ops", False, (), ())
    b, y, t = rule.statements
    assert b.target == Name("B", Pos("<expr>", 1, 1))
    assert shape(y.expr) == shape(call("where", op(">", acc("x", "i"), num("0")), acc("x", "i"),
                                       op("*", num("0.1"), acc("x", "i"))))
    assert t.expr == Subscript(Call("inv", (Name("A", Pos("<expr>", 2, 14)),), Pos("<expr>", 2, 10),
                                    Pos("<expr>", 2, 10)),
                               (Index("i", Pos("<expr>", 2, 17)), Index("k", Pos("<expr>", 2, 19))),
                               Pos("<expr>", 2, 16))
    sum_ij = Subscript(op("+", nm("A"), nm("B")), (Index("i", X), Index("j", X)), X)
    assert shape(expr_of("(A + B)[i,j]")) == shape(sum_ij)
    assert shape(expr_of("A[]")) == shape(acc("A"))


def test_numbers_are_kept_as_written():
    for text in ["2", "0.5", ".5", "2.", "1e-3", "1E+10", "007"]:
        assert expr_of(text) == Num(text, Pos("<expr>", 1, 5))


def test_comments_and_docs():
    text = ("# tensor-rules: linear algebra\n"
            "# Comments start with '#', anywhere.\n"
            "\n"
            "# Matrix product.\n"
            "#\n"
            "#   C = A B\n"
            "matmul(A[i,k], B[k,j]) -> C[i,j] = A[i,k] * B[k,j]  # not a doc\n"
            "\n"
            "# Detached: a blank line separates it from the rule.\n"
            "\n"
            "neg(x[i]) -> y[i]:\n"
            "    # inside the block\n"
            "    y[i] = -x[i]\n")
    f = parse_file(text, F)
    assert f.doc == "tensor-rules: linear algebra\nComments start with '#', anywhere."
    assert [r.doc for r in f.rules] == ["Matrix product.\n\n  C = A B", ""]
    assert f.path == F and f.pos == P(1, 1)
    # A comment block resting directly on the first rule documents the rule, not the file.
    f = parse_file("\n# Scale.\nscale(x[i], s) -> y[i] = s * x[i]\n", F)
    assert (f.doc, f.rules[0].doc) == ("", "Scale.")


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n", "   \n# a\n\n  # b\n"])
def test_empty_files(text):
    f = parse_file(text, F)
    assert isinstance(f, RuleFile) and f.rules == ()


def test_line_continuation_tabs_and_crlf():
    rule = parse_file("f(x[i,\n     j], s) -> y[i,\n j] = s * (\n  x[i,j])\n", F).rules[0]
    assert shape(rule.statements[0].expr) == shape(op("*", nm("s"), acc("x", "i", "j")))
    # A tab indents to column 8, the same as eight spaces.
    rule = parse_file("f(x) -> y:\n\ta = x\n        y = a\n", F).rules[0]
    assert len(rule.statements) == 2
    rule = parse_file("f(x) -> y:\r\n    a = x\r\n    y = a\r\n", F).rules[0]
    assert rule.statements[1].pos.text == "    y = a"
    assert len(parse_statements("  a = 1\n  b = a ;\n").statements) == 2


# -- precedence -------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, tree", [
    ("-x**2", neg(op("**", nm("x"), num("2")))),
    ("a-b-c", op("-", op("-", nm("a"), nm("b")), nm("c"))),
    ("a/b*c", op("*", op("/", nm("a"), nm("b")), nm("c"))),
    ("2**3**2", op("**", num("2"), op("**", num("3"), num("2")))),
    ("2**-x", op("**", num("2"), neg(nm("x")))),
    ("2**-x**2", op("**", num("2"), neg(op("**", nm("x"), num("2"))))),
    ("-a*b", op("*", neg(nm("a")), nm("b"))),
    ("a*-b", op("*", nm("a"), neg(nm("b")))),
    ("--a", neg(neg(nm("a")))),
    ("+a - +b", op("-", nm("a"), nm("b"))),
    ("a+b*c", op("+", nm("a"), op("*", nm("b"), nm("c")))),
    ("(a+b)*c", op("*", op("+", nm("a"), nm("b")), nm("c"))),
    ("a + b < c * d", op("<", op("+", nm("a"), nm("b")), op("*", nm("c"), nm("d")))),
    ("-a >= b", op(">=", neg(nm("a")), nm("b"))),
    ("(a < b) == c", op("==", op("<", nm("a"), nm("b")), nm("c"))),
] + [(f"a {o} b", op(o, nm("a"), nm("b"))) for o in ["<", "<=", ">", ">=", "==", "!="]])
def test_precedence(text, tree):
    assert shape(expr_of(text)) == shape(tree)


# -- errors -----------------------------------------------------------------------------------------
# The full text of a few messages, worked out by hand: column of the offending token, caret under it.


def test_error_text_missing_operand():
    e = error_of(parse_file, "f(x) -> y = a *")
    assert str(e) == ("t.rules:1:16: error: expected an expression after '*'\n"
                      "    f(x) -> y = a *\n"
                      "                   ^")


def test_error_text_unclosed_paren_reported_on_next_line():
    text = ("cayley(A[i,j]) -> Q[i,j]:\n"
            "    M[i,j] = inv(delta(i,j) - A[i,j]\n"
            "    Q[i,j] = M[i,k]\n")
    assert str(error_of(parse_file, text)) == (
        "t.rules:3:5: error: expected ')' to close '(' opened at line 2, column 17\n"
        "        Q[i,j] = M[i,k]\n"
        "        ^")


def test_error_text_missing_arrow():
    assert str(error_of(parse_file, "matmul(A[i,k], B[k,j]) C[i,j] = 1")) == (
        "t.rules:1:24: error: expected '->' after the inputs of rule 'matmul'\n"
        "    matmul(A[i,k], B[k,j]) C[i,j] = 1\n"
        "                           ^")


def test_error_text_hyphenated_name():
    assert str(error_of(parse_file, "\nmy-op(x[i]) -> y[i] = x[i]")) == (
        "t.rules:2:1: error: 'my-op' is not a valid name; use '_' instead of '-'\n"
        "    my-op(x[i]) -> y[i] = x[i]\n"
        "    ^^^^^")


def test_error_text_indentation():
    assert str(error_of(parse_file, "f(x[i]) -> y[i]:\n    a = x[i]\n      y[i] = a\n")) == (
        "t.rules:3:7: error: unexpected indentation\n"
        "          y[i] = a\n"
        "          ^")


@pytest.mark.parametrize("text, line, col, width, message", [
    ("f(x) -> (a[i], b[i]) = 1", 1, 22, 1, "a rule with several outputs needs the block form"),
    ("f(x) -> y:\n\ng(x) -> y = x", 1, 1, 1, "rule 'f' has no statements; indent them under its header"),
    ("f(x) -> y:", 1, 1, 1, "rule 'f' has no statements; indent them under its header"),
    ("f(x) -> y: y = x", 1, 12, 1, "expected the statements of rule 'f' on the following lines, indented"),
    ("f(x) -> y: int\n  y = x", 1, 12, 3, "an output is always a tensor and takes no type"),
    ("f(x: itn) -> y = x", 1, 6, 3, "unknown type or domain 'itn'; did you mean 'int'?"),
    ("f(x: float) -> y = x", 1, 6, 5, "unknown type or domain 'float'; use 'int', 'scalar' or a domain: "
         "positive, negative, nonzero, spd, symmetric or an open interval like (0, inf)"),
    ("f(x: 3) -> y = x", 1, 6, 1, "expected a type or domain after ':' in parameter 'x': 'int', 'scalar' or a "
         "domain: positive, negative, nonzero, spd, symmetric or an open interval like (0, inf)"),
    ("f(x[i]: int) -> y = x", 1, 9, 3, "only a bare name takes a type; 'x' is a tensor"),
    ("f(x,) -> y = x", 1, 5, 1, "expected a parameter after ','"),
    ("f(x y) -> z = x", 1, 5, 1, "expected ',' or ')' after parameter 'x'"),
    ("f(x) -> () = x", 1, 10, 1, "expected an output after '('"),
    ("f(x) -> = x", 1, 9, 1, "expected an output after '->'"),
    ("f(x) -> y x", 1, 11, 1, "expected '=' or ':' after the outputs of rule 'f'"),
    ("f x", 1, 3, 1, "expected '(' after the rule name 'f'"),
    ("3(x) -> y = x", 1, 1, 1, "expected a rule header like 'name(inputs) -> outputs', found number '3'"),
    ("y[i] = x[i]", 1, 1, 1, "a statement must be inside a rule; start the rule with a header like "
                             "'name(inputs) -> outputs:'"),
    ("  f(x) -> y = x", 1, 3, 1, "unexpected indentation"),
    ("f(x) -> y = x\n    z = x", 2, 5, 1, "unexpected indentation"),
    ("f(x) -> y:\n        a = x\n    y = a", 3, 5, 1, "this line's indentation does not match the lines above it "
                                                        "in rule 'f'"),
    ("f(x) -> y:\n\ta = x\n    y = a", 3, 5, 1, "this line's indentation does not match the lines above it "
                                                "in rule 'f'"),
    ("f(x) -> y = x; z = x", 1, 14, 1, "a one-line rule holds a single expression; use the block form for several "
                                       "statements"),
    ("f(x) -> y = 2x", 1, 13, 2, "'2x' is not a valid name; names start with a letter or '_'"),
    ("f(x) -> y = 1.2.3", 1, 13, 5, "'1.2.3' is not a valid number"),
    ("f(x) -> y = café + 1", 1, 13, 4, "'café' is not a valid name; names use ASCII letters, digits and '_'"),
    ("f(x) -> y = a @ b", 1, 15, 1, "unexpected character '@'"),
    ("f(x) -> y = $a", 1, 13, 1, "unexpected character '$'"),
    ("f(x) -> y = `a`", 1, 13, 1, "unexpected character '`'"),
    ("f(x) -> y = a < b < c", 1, 19, 1, "comparisons cannot be chained; use parentheses"),
    ("f(x) -> y = x[i:3]", 1, 16, 1, "index extents like 'i:3' are allowed only in rule headers"),
    ("f(x[i:0]) -> y = 1", 1, 7, 1, "expected a positive whole number after ':' as the extent of index 'i'"),
    ("f(x[i:2.5]) -> y = 1", 1, 7, 3, "expected a positive whole number after ':' as the extent of index 'i'"),
    ("f(x) -> y = x[1]", 1, 15, 1, "a subscript needs an index; a constant position like x[1] is not supported, "
                                   "write a shifted index such as x[i+1]"),
    ("f(x) -> y = x[i+]", 1, 17, 1, "expected an index or a whole number after '+', found ']'"),
    ("f(x) -> y = x[i", 1, 16, 1, "expected ']' to close '[' opened at line 1, column 14"),
    ("f(x) -> y = A[i][j]", 1, 17, 1, "an expression can be subscripted only once"),
    ("f(x) -> y = 2[i]", 1, 14, 1, "a number cannot be subscripted"),
    ("f(x) -> y = g(a b)", 1, 17, 1, "expected ')' to close '(' opened at line 1, column 14"),
    ("f(x) -> y = g(a,)", 1, 17, 1, "expected an expression after ','"),
    ("f(x) -> y = ()", 1, 14, 1, "expected an expression after '('"),
    ("f(x) -> y = x)", 1, 14, 1, "unmatched ')'"),
    ("f(x) -> y = a b", 1, 15, 1, "unexpected name 'b' after the expression; is an operator missing?"),
    ("f(x) -> y:\n  y = a = b", 2, 9, 1, "unexpected '='"),
    ("f(x) -> y:\n  y + 1 = a", 2, 5, 1, "expected '=' after 'y'"),
    ("f(x) -> y:\n  y[i,j] == a", 2, 10, 2, "expected '=' after 'y[i,j]'"),
    ("f(x) -> y:\n  3 = a", 2, 3, 1, "expected a statement like 'C[i,j] = ...', found number '3'"),
    ("f(x) -> y:\n  my-y = x", 2, 3, 4, "'my-y' is not a valid name; use '_' instead of '-'"),
])
def test_error_positions(text, line, col, width, message):
    e = error_of(parse_file, text)
    assert (e.message, e.pos.line, e.pos.col, e.width) == (message, line, col, width)


@pytest.mark.parametrize("text, col, message", [
    ("", 1, "expected at least one statement, like 'B = inv(A)'"),
    ("# nothing", 1, "expected at least one statement, like 'B = inv(A)'"),
    ("f(x) = 1", 2, "expected '=' after 'f'; a statement starts with the name it assigns, like 'C[i,j] = ...'"),
    ("B = ", 4, "expected an expression after '='"),
])
def test_statement_errors(text, col, message):
    e = error_of(parse_statements, text)
    assert (e.message, e.pos.col) == (message, col)


def test_statement_indentation_must_match_first_line():
    e = error_of(parse_statements, "  a = 1\nb = 2")
    assert (e.message, e.pos.line) == ("this line's indentation does not match the first line", 2)


@pytest.mark.parametrize("nest", [lambda n: "(" * n + "x" + ")" * n, lambda n: "-" * n + "x",
                                  lambda n: "f(" * n + "x" + ")" * n, lambda n: "2**" * n + "x"])
def test_nesting_limit(nest):
    assert parse_statements("y = " + nest(MAX_DEPTH - 1))
    for depth in (MAX_DEPTH + 1, 50 * MAX_DEPTH):
        assert error_of(parse_statements, "y = " + nest(depth)).message.startswith("expression nested too deeply")


# -- property: any text gives a tree or a RuleError -------------------------------------------------

GRAMMAR_BITS = ["A[i,k]", "x[i]", "y[]", "B", "(", ")", "[", "]", "**", "*", "-", "+", "/", "<", "<=", "==",
                "sum(", "where(", "inv(", "->", ":", "i:3", "int", "\n", "\n    ", "\n\t", "\n  ", "=", ",", ";",
                " ", "0", "2", "1e-3", ".5", "i", "k", "#c\n", "f(x[i]) -> y[i]", "matmul(A[i,k], B[k,j]) -> C[i,j]",
                "@", "é", "my-op", "2x", "\r\n"]


def check_total(text: str) -> None:
    for parse in (parse_file, parse_statements):
        try:
            result = parse(text)
        except RuleError as e:
            assert e.pos is not None and e.pos.line >= 1 and e.pos.col >= 1
            str(e)
        else:
            assert isinstance(result, (RuleFile, RuleDef))


@settings(max_examples=150, deadline=1000)
@given(st.text(max_size=60))
def test_any_text_parses_or_raises_rule_error(text):
    check_total(text)


@settings(max_examples=400, deadline=1000, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(GRAMMAR_BITS), max_size=40).map("".join))
def test_grammar_soup_parses_or_raises_rule_error(text):
    check_total(text)


# -- property: print a random expression, parse it back ---------------------------------------------

PREC = {"<": 1, "<=": 1, ">": 1, ">=": 1, "==": 1, "!=": 1, "+": 2, "-": 2, "*": 3, "/": 3, "**": 5}


def prec(node) -> int:
    if isinstance(node, BinOp):
        return PREC[node.op]
    return 4 if isinstance(node, Neg) else 9


def show(node, full: bool) -> str:
    """Source text of `node`: with as few parentheses as the grammar allows, or (full) around every operand."""
    def operand(child, need: int) -> str:
        text = show(child, full)
        return f"({text})" if full or prec(child) < need else text

    ix = lambda idx: "[" + ",".join(i.name for i in idx) + "]"  # noqa: E731
    if isinstance(node, Num):
        return node.value
    if isinstance(node, Name):
        return node.name
    if isinstance(node, Access):
        return node.name + ix(node.indices)
    if isinstance(node, Call):
        return node.func + "(" + ", ".join(show(a, full) for a in node.args) + ")"
    if isinstance(node, Subscript):
        base = show(node.base, full)
        return (base if isinstance(node.base, Call) and not full else f"({base})") + ix(node.indices)
    if isinstance(node, Neg):
        return "-" + operand(node.operand, 4)
    p = PREC[node.op]
    need = (6, 4) if node.op == "**" else (2, 2) if p == 1 else (p, p + 1)
    return f"{operand(node.left, need[0])} {node.op} {operand(node.right, need[1])}"


indices = st.lists(st.sampled_from("ijk"), max_size=3).map(lambda ns: tuple(Index(n, X) for n in ns))
names = st.sampled_from(["x", "A", "s", "sum", "where", "int"])
numbers = st.from_regex(r"\A(?:[0-9]{1,3}(?:\.[0-9]{0,2})?|\.[0-9]{1,2})(?:[eE][+-]?[0-9]{1,2})?\Z")
leaves = st.one_of(numbers.map(num), names.map(nm), st.builds(lambda n, ix: Access(n, ix, X), names, indices))


def extend(children):
    return st.one_of(
        st.builds(op, st.sampled_from(sorted(PREC)), children, children),
        children.map(neg),
        st.builds(lambda f, args: call(f, *args), names, st.lists(children, max_size=3)),
        st.builds(lambda b, ix: Subscript(b, ix, X), children, indices))


expressions = st.recursive(leaves, extend, max_leaves=12)


@settings(max_examples=150, deadline=1000)
@given(expressions, st.booleans())
def test_printed_expressions_parse_back(tree, full):
    assert shape(expr_of(show(tree, full))) == shape(tree)


# -- the language reference ------------------------------------------------------------------------


def test_every_example_in_the_language_reference_parses():
    doc = pathlib.Path(__file__).parents[2] / "docs" / "language.md"
    blocks = re.findall(r"^( *)```rules\n(.*?)^\1```", doc.read_text(), re.S | re.M)
    assert len(blocks) >= 10
    for _, block in blocks:
        assert parse_file(textwrap.dedent(block), "language.md").rules


def test_syntax_errors_of_several_statements_and_rules_are_all_reported():
    text = textwrap.dedent("""\
        a(x[i]) -> y[i]:
            t[i] = x[i] +* 2
            u[i] = (x[i]
            y[i] = t[i] $ u[i]
        b(x[i]) -> y[i] = x[i]
        c(x[i] -> y[i] = x[i]
        d(x[i]) -> y[i] = 2 * x[i]
        """)
    with pytest.raises(RuleError) as e:
        parse_file(text, F)
    lines = text.splitlines()
    # '+*': the '*' cannot start an operand; the '(' of line 3 is still open where line 4's 'y' follows (the
    # statement goes on across the line break, and line 4 goes with it); line 6 lacks the ')' before '->'
    where = [(2, lines[1].index("*") + 1), (4, lines[3].index("y") + 1), (6, lines[5].index("->") + 1)]
    assert [(x.pos.line, x.pos.col) for x in e.value.errors] == where
    shown = str(e.value).splitlines()
    assert len(shown) == 9 and all(shown[3 * k + 1] == "    " + lines[line - 1] for k, (line, _) in enumerate(where))
    assert all(shown[3 * k + 2].index("^") - 4 + 1 == col for k, (_, col) in enumerate(where))
    # collected, the rules without an error are returned: the first error keeps neither a nor c
    found: list = []
    assert [r.name for r in parse_file(text, F, found).rules] == ["b", "d"] and len(found) == 3


def test_one_syntax_error_is_shown_as_before():
    with pytest.raises(RuleError) as e:
        parse_statements("y = x +* 2\nz = x", path=F)
    assert str(e.value) == f"{F}:1:8: error: expected an expression after '+'\n    y = x +* 2\n           ^"
