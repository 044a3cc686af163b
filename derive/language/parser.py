"""Tokenizer and recursive-descent parser of the rule language: text in, `derive.language.ast` nodes out.

Owns syntax only (tokens, layout, precedence, positions, syntax errors); every semantic check is `derive.lowering.lower`'s.
"""
# Positions: a node's pos is its first token, except BinOp (its operator, where a type error belongs), Subscript
# (its '[') and a one-line rule's Statement and target (the output in the header, the only place they are
# written). Columns count characters from 1; a tab is one column there, and advances to the next multiple of 8
# only when indentation is compared.
from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass
from typing import Iterator

from derive.language import domains
from derive.language.ast import (
    Access,
    Affine,
    BinOp,
    Call,
    Domain,
    Index,
    Name,
    Neg,
    Node,
    Num,
    Param,
    Pos,
    RuleDef,
    RuleFile,
    Statement,
    Subscript,
)
from derive.language.errors import RuleError, RuleErrors, did_you_mean

__all__ = ["parse_file", "parse_statements", "starts_with_header", "MAX_DEPTH"]

# Levels of nesting: parentheses, call arguments, signs and the right operand of '**' each open one. Deep
# enough for any real formula; every stage after the parser walks the tree recursively (SymPy too), and a
# nested formula's derivative grows faster than its depth, so the limit keeps both stack and time bounded.
# Chains (a + b + ..., a * b * ...) are not nesting: they are parsed in a loop, of any length.
MAX_DEPTH = 100
# A literal's length: ample for any float64 written out, short enough that reading it exactly stays cheap.
MAX_NUMBER_CHARS = 100
TAB_WIDTH = 8

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_OPS2 = ("->", "**", "<=", ">=", "==", "!=")
_OPS1 = "()[],;:=+-*/<>"
_CLOSER = {"(": ")", "[": "]"}

# Binding powers. Unary minus sits between '*' and '**', so -x**2 is -(x**2) and 2**-x needs no parentheses.
_COMPARE, _UNARY, _POWER = 1, 4, 5
_BINARY = {"<": 1, "<=": 1, ">": 1, ">=": 1, "==": 1, "!=": 1, "+": 2, "-": 2, "*": 3, "/": 3, "**": 5}
_TYPES = ("int", "scalar")


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str  # 'name', 'num', 'op', 'nl' (end of a logical line) or 'eof'
    text: str
    pos: Pos
    indent: int = -1  # indentation width of its physical line when it is the line's first token, else -1

    def describe(self) -> str:
        if self.kind == "name":
            return f"name '{self.text}'"
        if self.kind == "num":
            return f"number '{self.text}'"
        if self.kind == "nl":
            return "end of line"
        if self.kind == "eof":
            return "end of input"
        return f"'{self.text}'"

    def is_op(self, *texts: str) -> bool:
        return self.kind == "op" and self.text in texts

    @property
    def ends_line(self) -> bool:
        return self.kind in ("nl", "eof")


def _error(message: str, tok: _Token) -> RuleError:
    width = 1 if tok.ends_line else len(tok.text)
    return RuleError(message, tok.pos, width=width)


def _indentation(line: str) -> tuple[int, int]:
    """(width with tabs to the next multiple of 8, index of the first non-blank character)."""
    width = i = 0
    while i < len(line) and line[i] in " \t":
        width = (width // TAB_WIDTH + 1) * TAB_WIDTH if line[i] == "\t" else width + 1
        i += 1
    return width, i


def _word_char(c: str) -> bool:
    # Any character Python accepts inside an identifier, so 'café' is reported as one bad name.
    return ("a" + c).isidentifier()


class _Lexer:
    """Yields tokens lazily, so an error early in the file is reported before one further down."""

    def __init__(self, text: str, path: str):
        self.path = path
        # Only '\n' ends a line: str.splitlines() would also split on \v, \f, \x1c, \u2028 and shift lines.
        self.lines = [raw[:-1] if raw.endswith("\r") else raw for raw in text.split("\n")]
        self.doc_comments: dict[int, str] = {}  # line -> text of an unindented comment-only line

    def _bad_word(self, line: str, start: int, end: int, lineno: int) -> RuleError:
        while end < len(line) and (_word_char(line[end]) or line[end] == "."):
            end += 1
        word = line[start:end]
        if word[0].isascii() and (word[0].isdigit() or word[0] == "."):
            if set(word) <= set("0123456789.eE"):
                why = f"'{word}' is not a valid number"
            else:
                why = f"'{word}' is not a valid name; names start with a letter or '_'"
        else:
            why = f"'{word}' is not a valid name; names use ASCII letters, digits and '_'"
        return RuleError(why, Pos(self.path, lineno, start + 1, line), width=len(word))

    def tokens(self) -> Iterator[_Token]:
        open_brackets = 0
        last: _Token | None = None  # last real token: NEWLINE and EOF are placed just after it
        pending = False  # the current logical line has tokens
        for lineno, line in enumerate(self.lines, 1):
            indent, i = _indentation(line)
            first_on_line = True
            while i < len(line):
                c = line[i]
                if c in " \t":
                    i += 1
                    continue
                if c == "#":
                    if i == 0:
                        body = line[1:]
                        self.doc_comments[lineno] = (body[1:] if body.startswith(" ") else body).rstrip()
                    break
                if m := _NAME.match(line, i):
                    kind, end = "name", m.end()
                    if end < len(line) and _word_char(line[end]):
                        raise self._bad_word(line, i, end, lineno)
                elif m := _NUMBER.match(line, i):
                    kind, end = "num", m.end()
                    if end < len(line) and (_word_char(line[end]) or line[end] == "."):
                        raise self._bad_word(line, i, end, lineno)
                elif _word_char(c):
                    raise self._bad_word(line, i, i + 1, lineno)
                elif line.startswith(_OPS2, i):
                    kind, end = "op", i + 2
                elif c in _OPS1:
                    kind, end = "op", i + 1
                else:
                    raise RuleError(f"unexpected character {c!r}", Pos(self.path, lineno, i + 1, line))
                text = line[i:end]
                if kind == "op" and text in ("(", "["):
                    open_brackets += 1
                elif kind == "op" and text in (")", "]") and open_brackets:
                    open_brackets -= 1  # a mismatched closer is the parser's to report
                last = _Token(kind, text, Pos(self.path, lineno, i + 1, line), indent if first_on_line else -1)
                first_on_line = False
                pending = True
                yield last
                i = end
            if pending and not open_brackets:  # newlines inside () and [] continue the line
                pending = False
                yield _Token("nl", "", self._after(last))
        yield _Token("eof", "", self._after(last), 0)

    def _after(self, tok: _Token | None) -> Pos:
        if tok is None:
            return Pos(self.path, 1, 1, self.lines[0])
        p = tok.pos
        return Pos(p.file, p.line, p.col + len(tok.text), p.text)


class _TokenCursor:
    """The token stream of one text, read with peek (any lookahead) and advance, and the errors every part of
    the grammar raises at the current token."""

    def __init__(self, text: str, path: str):
        self.path = path
        self.lexer = _Lexer(text, path)
        self._stream = self.lexer.tokens()
        self._buf: list[_Token] = []
        self._i = 0
        self._prev: _Token | None = None
        self._depth = 0
        self.errors: list[RuleError] | None = None   # a list: errors are collected there and parsing goes on
        self._floor = 0                               # the lines up to here are skipped after an error

    def peek(self, k: int = 0) -> _Token:
        while len(self._buf) <= self._i + k:
            if self._buf and self._buf[-1].kind == "eof":
                return self._buf[-1]
            self._buf.append(next(self._stream))
        return self._buf[self._i + k]

    def advance(self) -> _Token:
        tok = self.peek()
        if tok.kind != "eof":
            self._i += 1
        self._prev = tok
        return tok

    def expect(self, text: str, message: str) -> _Token:
        if not self.peek().is_op(text):
            raise _error(message, self.peek())
        return self.advance()

    def close(self, opener: _Token) -> _Token:
        closer = _CLOSER[opener.text]
        if not self.peek().is_op(closer):
            raise self.unclosed(opener)
        return self.advance()

    def recover(self, exc: RuleError, width: int) -> None:
        """After exc: raise it, or where errors are collected keep it and go on at the next line indented no
        more than `width` (the next statement of a block, the next rule), as if the text before were blank, so
        that an unclosed bracket or a bad character there is not met again."""
        if self.errors is None or exc.pos is None:
            raise exc
        self.errors.append(exc)
        lines = self.lexer.lines
        line = max(exc.pos.line, self._floor)
        nxt = next((n for n in range(line + 1, len(lines) + 1) if lines[n - 1].strip()
                    and not lines[n - 1].lstrip().startswith("#") and _indentation(lines[n - 1])[0] <= width),
                   len(lines) + 1)
        kept = [text if n >= nxt or text.lstrip().startswith("#") else "" for n, text in enumerate(lines, 1)]
        self._floor = nxt
        self.lexer = _Lexer("\n".join(kept), self.path)
        self._stream = self.lexer.tokens()
        self._buf, self._i, self._depth = [], 0, 0

    def unclosed(self, opener: _Token) -> RuleError:
        p = opener.pos
        return _error(f"expected '{_CLOSER[opener.text]}' to close '{opener.text}' opened at line {p.line}, "
                      f"column {p.col}", self.peek())

    def name(self, tok: _Token) -> str:
        """The name in `tok`, refusing `my-op`: in a header or a target a glued '-' can only be a typo."""
        k, end, words = 0, tok, [tok.text]
        while True:
            dash, word = self.peek(k), self.peek(k + 1)
            if not (dash.is_op("-") and word.kind in ("name", "num") and _glued(end, dash) and _glued(dash, word)):
                break
            words += ["-", word.text]
            k, end = k + 2, word
        if len(words) > 1:
            bad = "".join(words)
            raise RuleError(f"'{bad}' is not a valid name; use '_' instead of '-'", tok.pos, width=len(bad))
        return tok.text


class _StatementParser(_TokenCursor):
    """Statements, expressions and subscripts: what a rule's body and a bare statement are made of."""

    # -- subscripts ---------------------------------------------------------------------------------

    def indices(self, opener: _Token, header: bool) -> tuple[Index, ...]:
        if self.peek().is_op("]"):
            self.advance()
            return ()
        out = []
        while True:
            tok = self.peek()
            if not header and (tok.kind == "num" or tok.is_op("-", "+")
                               or (tok.kind == "name" and self.peek(1).is_op("+", "-", "*"))):
                out.append(self.affine())
                tok = self._prev
            else:
                if tok.kind != "name":
                    raise _error(f"expected an index name after '{self._prev.text}', found {tok.describe()}", tok)
                self.advance()
                extent = None
                if self.peek().is_op(":"):
                    colon = self.advance()
                    if not header:
                        raise _error("index extents like 'i:3' are allowed only in rule headers", colon)
                    extent = self.extent(tok.text)
                elif header and self.peek().is_op("+", "-", "*"):
                    raise _error("a header names each axis by one index; shifted subscripts like x[i+k] belong in "
                                 "the statements", self.peek())
                out.append(Index(tok.text, tok.pos, extent))
            sep = self.peek()
            if sep.is_op(","):
                self.advance()
            elif sep.is_op("]"):
                self.advance()
                return tuple(out)
            elif sep.kind == "eof":
                raise self.unclosed(opener)
            else:
                raise _error(f"expected ',' or ']' after index '{tok.text}'", sep)

    def affine(self) -> Affine:
        """An affine subscript `2*i + k - 1`: terms `c*name`, `name*c`, `name` or an integer, joined by + and -."""
        first = self.peek()
        coeffs: dict = {}
        where: dict = {}
        const = 0
        sign = 1
        if first.is_op("-", "+"):
            sign = -1 if self.advance().text == "-" else 1
        while True:
            tok = self.peek()
            coef, name_tok = 1, None
            if tok.kind == "num":
                if not tok.text.isdigit() or len(tok.text) > 9:
                    raise _error("a subscript takes whole numbers only, as in x[2*i+1]", tok)
                self.advance()
                coef = int(tok.text)
                if self.peek().is_op("*"):
                    self.advance()
                    name_tok = self.peek()
                    if name_tok.kind != "name":
                        raise _error(f"expected an index name after '*', found {name_tok.describe()}", name_tok)
                    self.advance()
            elif tok.kind == "name":
                self.advance()
                name_tok = tok
                if self.peek().is_op("*"):
                    self.advance()
                    c = self.peek()
                    if c.kind != "num" or not c.text.isdigit() or len(c.text) > 9:
                        raise _error("an index is multiplied by a whole number only, as in x[2*i]", c)
                    self.advance()
                    coef = int(c.text)
            else:
                raise _error(f"expected an index or a whole number after '{self._prev.text}', found "
                             f"{tok.describe()}", tok)
            if name_tok is None:
                const += sign * coef
            else:
                coeffs[name_tok.text] = coeffs.get(name_tok.text, 0) + sign * coef
                where.setdefault(name_tok.text, name_tok.pos)
            if self.peek().is_op("+", "-"):
                sign = -1 if self.advance().text == "-" else 1
                continue
            break
        end = self._prev
        width = end.pos.col + len(end.text) - first.pos.col if end.pos.line == first.pos.line else 1
        text = first.pos.text[first.pos.col - 1:first.pos.col - 1 + width] if first.pos.text else ""
        terms = tuple((c, Index(n, where[n])) for n, c in coeffs.items() if c != 0)
        if not terms:
            raise RuleError("a subscript needs an index; a constant position like x[1] is not supported, "
                            "write a shifted index such as x[i+1]", first.pos, width=max(width, 1))
        if len(terms) == 1 and terms[0][0] == 1 and const == 0:
            return terms[0][1]
        for c, ix in terms:
            if c < 0:
                raise RuleError(f"index '{ix.name}' has a negative coefficient here; subscripts must grow with "
                                f"their indices (reverse the tensor yourself, e.g. with np.flip, and write "
                                f"{ix.name} with a + sign)", ix.pos, width=len(ix.name))
        return Affine(terms, const, first.pos, "".join(text.split()) or "affine", None)

    def extent(self, index: str) -> int:
        tok = self.peek()
        # The length cap keeps int() far from Python's limit on digits and the value meaningful.
        if tok.kind != "num" or not tok.text.isdigit() or len(tok.text) > 18 or int(tok.text) == 0:
            raise _error(f"expected a positive whole number after ':' as the extent of index '{index}'", tok)
        self.advance()
        return int(tok.text)

    # -- statements ---------------------------------------------------------------------------------

    def lines(self, width: int, above: str, block: bool) -> tuple[Statement, ...]:
        """Logical lines of statements at indentation `width`, up to the end (or, in a block, an unindented line)."""
        statements: list[Statement] = []
        while (tok := self.peek()).kind != "eof" and not (block and tok.indent == 0):
            if tok.indent > width:
                raise _error("unexpected indentation", tok)
            try:
                if tok.indent < width:
                    raise _error(f"this line's indentation does not match {above}", tok)
                statements += self.statement_line()
            except RuleError as exc:
                self.recover(exc, width)
        return tuple(statements)

    def statement_line(self) -> list[Statement]:
        statements = [self.statement()]
        while self.peek().is_op(";"):
            self.advance()
            if self.peek().ends_line:  # a trailing ';' is harmless
                break
            statements.append(self.statement())
        self.end_of_line()
        return statements

    def statement(self) -> Statement:
        tok = self.peek()
        if tok.kind != "name":
            raise _error(f"expected a statement like 'C[i,j] = ...', found {tok.describe()}", tok)
        self.advance()
        name = self.name(tok)
        if self.peek().is_op("["):
            indices = self.indices(self.advance(), header=False)
            target: Access | Name = Access(name, indices, tok.pos)
            shown = f"{name}[{','.join(ix.name for ix in indices)}]"
        else:
            target, shown = Name(name, tok.pos), name
        if not self.peek().is_op("="):
            hint = "; a statement starts with the name it assigns, like 'C[i,j] = ...'" \
                if self.peek().is_op("(") else ""
            raise _error(f"expected '=' after '{shown}'{hint}", self.peek())
        self.advance()
        return Statement(target, self.expr(), tok.pos)

    def end_of_line(self) -> None:
        tok = self.peek()
        if tok.kind == "nl":
            self.advance()
        elif tok.kind != "eof":
            if tok.is_op(")", "]"):
                raise _error(f"unmatched '{tok.text}'", tok)
            if tok.kind in ("name", "num") or tok.is_op("(", "["):
                raise _error(f"unexpected {tok.describe()} after the expression; is an operator missing?", tok)
            raise _error(f"unexpected {tok.describe()}", tok)

    # -- expressions: precedence climbing -----------------------------------------------------------

    def expr(self) -> Node:
        return self.binary(0)

    def nested(self, min_prec: int, opener: _Token) -> Node:
        """An operand one nesting level down, opened by `opener` ('(', a sign or '**'): counted, so no input
        reaches Python's recursion limit."""
        self._depth += 1
        if self._depth > MAX_DEPTH:
            raise _error(f"expression nested too deeply (more than {MAX_DEPTH} levels of parentheses, calls, "
                         f"signs and powers)", opener)
        node = self.binary(min_prec)
        self._depth -= 1
        return node

    def binary(self, min_prec: int) -> Node:
        left = self.unary()
        compared = False
        while True:
            op = self.peek()
            prec = _BINARY.get(op.text) if op.kind == "op" else None
            if prec is None or prec < min_prec:
                break
            if prec == _COMPARE and compared:
                raise _error("comparisons cannot be chained; use parentheses", op)
            self.advance()
            # '**' is right-associative: its right operand nests; other operators loop here, so a chain of
            # any length costs no recursion
            right = self.nested(prec, op) if prec == _POWER else self.binary(prec + 1)
            left = BinOp(op.text, left, right, op.pos)
            compared = prec == _COMPARE
        return left

    def unary(self) -> Node:
        tok = self.peek()
        if tok.is_op("-", "+"):
            self.advance()
            operand = self.nested(_UNARY, tok)
            return Neg(operand, tok.pos) if tok.text == "-" else operand
        return self.primary()

    def primary(self) -> Node:
        tok = self.peek()
        if tok.kind == "num":
            self.advance()
            _check_number(tok)
            if self.peek().is_op("["):
                raise _error("a number cannot be subscripted", self.peek())
            return Num(tok.text, tok.pos)
        if tok.kind == "name":
            self.advance()
            if self.peek().is_op("["):
                node: Node = Access(tok.text, self.indices(self.advance(), header=False), tok.pos)
                return self.no_second_subscript(node)
            if not self.peek().is_op("("):
                return Name(tok.text, tok.pos)
            opener, args = self.advance(), []
            if not self.peek().is_op(")"):
                args.append(self.nested(0, opener))
                while self.peek().is_op(","):
                    self.advance()
                    args.append(self.nested(0, opener))
            self.close(opener)
            node = Call(tok.text, tuple(args), tok.pos, tok.pos)
        elif tok.is_op("("):
            opener = self.advance()
            node = self.nested(0, opener)
            self.close(opener)
        else:
            after = self._prev.text if self._prev is not None else "the start"
            raise _error(f"expected an expression after '{after}'", tok)
        if self.peek().is_op("["):
            bracket = self.advance()
            node = Subscript(node, self.indices(bracket, header=False), bracket.pos)
        return self.no_second_subscript(node)

    def no_second_subscript(self, node: Node) -> Node:
        if self.peek().is_op("["):
            raise _error("an expression can be subscripted only once", self.peek())
        return node


class _Parser(_StatementParser):
    """Rule files: rules, their headers (parameters, outputs, declared domains and extents) and doc comments."""

    # -- files and rules ----------------------------------------------------------------------------

    def file(self) -> RuleFile:
        rules = []
        while True:
            found = len(self.errors or ())
            try:
                if self.peek().kind == "eof":
                    break
                if self.peek().indent > 0:
                    raise _error("unexpected indentation", self.peek())
                rule = self.rule()
                if len(self.errors or ()) == found:   # a rule with an error in a statement is left out
                    rules.append(rule)
            except RuleError as exc:
                self.recover(exc, 0)
        return RuleFile(self.path, tuple(rules), self.file_doc(rules), Pos(self.path, 1, 1, self.lexer.lines[0]))

    def rule(self) -> RuleDef:
        start = self.peek()
        if start.kind != "name":
            raise _error(f"expected a rule header like 'name(inputs) -> outputs', found {start.describe()}", start)
        self.advance()
        name = self.name(start)
        if self.peek().is_op("=", "["):
            raise _error("a statement must be inside a rule; start the rule with a header like "
                         "'name(inputs) -> outputs:'", start)
        opener = self.expect("(", f"expected '(' after the rule name '{name}'")
        inputs = self.params(opener, output=False)
        self.expect("->", f"expected '->' after the inputs of rule '{name}'")
        outputs = self.outputs()
        doc = self.doc_above(start.pos.line)
        tok = self.peek()
        if tok.is_op("="):
            self.advance()
            if len(outputs) > 1:
                raise _error("a rule with several outputs needs the block form", tok)
            statements = (self.one_line_statement(outputs[0]),)
            if self.peek().is_op(";"):
                raise _error("a one-line rule holds a single expression; use the block form for several "
                             "statements", self.peek())
            self.end_of_line()
        elif tok.is_op(":"):
            self.advance()
            after = self.peek()
            if after.kind == "name" and after.text in _TYPES:
                raise _error("an output is always a tensor and takes no type", after)
            if not after.ends_line:
                raise _error(f"expected the statements of rule '{name}' on the following lines, indented", after)
            self.advance()
            if self.peek().kind == "eof" or self.peek().indent == 0:
                raise RuleError(f"rule '{name}' has no statements; indent them under its header",
                                start.pos, width=len(name))
            statements = self.lines(self.peek().indent, f"the lines above it in rule '{name}'", block=True)
        else:
            raise _error(f"expected '=' or ':' after the outputs of rule '{name}'", tok)
        return RuleDef(name, inputs, outputs, statements, start.pos, header=True, doc=doc)

    def params(self, opener: _Token, output: bool) -> tuple[Param, ...]:
        if self.peek().is_op(")"):
            if output:
                raise _error("expected an output after '('", self.peek())
            self.advance()
            return ()
        params = []
        while True:
            params.append(self.param(output))
            tok = self.peek()
            if tok.is_op(","):
                self.advance()
            elif tok.is_op(")"):
                self.advance()
                return tuple(params)
            elif tok.kind == "eof":
                raise self.unclosed(opener)
            else:
                raise _error(f"expected ',' or ')' after {'output' if output else 'parameter'} "
                             f"'{params[-1].name}'", tok)

    def param(self, output: bool) -> Param:
        tok = self.peek()
        if tok.kind != "name":
            what = "an output" if output else "a parameter"
            raise _error(f"expected {what} after '{self._prev.text}'", tok)
        self.advance()
        name = self.name(tok)
        if self.peek().is_op("["):
            indices = self.indices(self.advance(), header=True)
            # After an output, ':' opens the block, so only an input can carry a domain.
            if not output and self.peek().is_op(":"):
                self.advance()
                if self.peek().kind == "name" and self.peek().text in _TYPES:
                    raise _error(f"only a bare name takes a type; '{name}' is a tensor", self.peek())
                return Param(name, indices, "tensor", tok.pos, self.domain(name))
            return Param(name, indices, "tensor", tok.pos)
        if output:
            return Param(name, None, "tensor", tok.pos)
        if not self.peek().is_op(":"):
            return Param(name, None, "scalar", tok.pos)
        self.advance()
        kind = self.peek()
        if kind.kind == "name" and kind.text in _TYPES:
            self.advance()
            if self.peek().is_op(":"):
                more = self.peek()
                if kind.text == "int":
                    raise _error(f"an integer parameter takes no domain: '{name}: int' is any integer", more)
                raise _error(f"write the domain in place of 'scalar': '{name}: positive' is a scalar parameter "
                             f"with a domain", more)
            return Param(name, None, kind.text, tok.pos)
        return Param(name, None, "scalar", tok.pos, self.domain(name, types=True))

    def domain(self, name: str, types: bool = False) -> Domain:
        """A declared domain after ':' (`positive`, `spd`, `(1, inf)`); `types`: 'int'/'scalar' were allowed too."""
        tok = self.peek()
        choices = "positive, negative, nonzero, spd, symmetric or an open interval like (0, inf)"
        if types:
            choices = "'int', 'scalar' or a domain: " + choices
        if tok.kind == "name":
            if tok.text not in domains.NAMED:
                near = did_you_mean(tok.text, list(domains.NAMED) + (["int", "scalar"] if types else []))
                raise _error(f"unknown {'type or ' if types else ''}domain '{tok.text}'{near or '; use ' + choices}",
                             tok)
            self.advance()
            return Domain(tok.text, tok.pos, len(tok.text))
        if not tok.is_op("("):
            raise _error(f"expected {'a type or domain' if types else 'a domain'} after ':' in parameter "
                         f"'{name}': {choices}", tok)
        opener = self.advance()
        lo = self.bound(name)
        self.expect(",", "expected ',' between the bounds of an interval, as in (0, 1)")
        hi = self.bound(name)
        close = self.close(opener)
        width = close.pos.col + 1 - opener.pos.col if close.pos.line == opener.pos.line else 1
        if not lo < hi:
            raise RuleError(f"the interval of '{name}' is empty: its lower bound {domains.number_text(lo)} is not "
                            f"below its upper bound {domains.number_text(hi)}", opener.pos, width=width)
        return Domain(domains.interval_text(lo, hi), opener.pos, width)

    def bound(self, name: str) -> float:
        """One bound of an interval domain: a number or inf, optionally signed."""
        sign = self.advance().text if self.peek().is_op("-", "+") else "+"
        tok = self.peek()
        if tok.kind == "num":
            value = float(tok.text)
            if value == float("inf"):
                raise _error(f"'{tok.text}' is too large for a bound; write inf", tok)
        elif tok.kind == "name" and tok.text == "inf":
            value = float("inf")
        else:
            raise _error(f"expected a number or inf as a bound of the interval of '{name}'", tok)
        self.advance()
        return -value if sign == "-" else value

    def outputs(self) -> tuple[Param, ...]:
        if self.peek().is_op("("):
            return self.params(self.advance(), output=True)
        return (self.param(output=True),)

    def one_line_statement(self, out: Param) -> Statement:
        if out.indices is None:
            target: Access | Name = Name(out.name, out.pos)
        else:
            target = Access(out.name, tuple(Index(ix.name, ix.pos) for ix in out.indices), out.pos)
        return Statement(target, self.expr(), out.pos)

    # -- doc comments -------------------------------------------------------------------------------

    def doc_above(self, line: int) -> str:
        """The unindented comment lines directly above `line` (no blank line between)."""
        docs = self.lexer.doc_comments
        first = line
        while first - 1 in docs:
            first -= 1
        return _join_doc(docs[k] for k in range(first, line))

    def file_doc(self, rules: list[RuleDef]) -> str:
        """The comment block at the top of the file, unless it sits directly on the first rule (then it is
        that rule's doc)."""
        lines, docs = self.lexer.lines, self.lexer.doc_comments
        start = 1
        while start <= len(lines) and not lines[start - 1].strip():
            start += 1
        end = start
        while end in docs:
            end += 1
        if end == start or (rules and rules[0].pos.line == end):
            return ""
        return _join_doc(docs[k] for k in range(start, end))


def _check_number(tok: _Token) -> None:
    """A literal must be a float64 as written: generated code computes in float64, and an exact value far
    outside its range (1e99999999999) would make SymPy build an integer of billions of digits."""
    text = tok.text
    if len(text) > MAX_NUMBER_CHARS:
        raise _error(f"this number is longer than {MAX_NUMBER_CHARS} characters; float64 keeps about 17 "
                     f"significant digits", tok)
    value = float(text)  # correctly rounded, and fast whatever the exponent
    nonzero = any(c in "123456789" for c in text.lower().split("e")[0])
    if nonzero and value < sys.float_info.min:
        raise _error(f"'{text}' is below float64's normal range (the smallest normal number is about "
                     f"{sys.float_info.min:.1e}); write 0 or a larger number", tok)
    if value == math.inf:
        raise _error(f"'{text}' is beyond float64's range (the largest number is about "
                     f"{sys.float_info.max:.1e})", tok)


def _glued(a: _Token, b: _Token) -> bool:
    return a.pos.line == b.pos.line and a.pos.col + len(a.text) == b.pos.col


def _join_doc(lines) -> str:
    return "\n".join(lines).strip("\n")


def _guarded(parse, path: str):
    try:
        return parse()
    except RecursionError:  # a last resort: MAX_DEPTH should stop nesting long before this
        raise RuleError("expression nested too deeply", Pos(path, 1, 1)) from None


def parse_file(text: str, path: str = "<string>", errors: list | None = None) -> RuleFile:
    """Parse a `.rules` file. Raises RuleError, positioned with a caret, on any malformed input (RuleErrors for
    several); with a list `errors`, every syntax error goes there instead and the rules without one are returned."""
    def parse() -> RuleFile:
        p = _Parser(text, path)
        p.errors = [] if errors is None else errors
        out = p.file()
        if errors is None:
            RuleErrors.raise_found(p.errors)
        return out
    return _guarded(parse, path)


def parse_statements(text: str, name: str = "expr", path: str = "<expr>") -> RuleDef:
    """Parse bare statements (`B = inv(A)`; separated by newlines or ';') into a header-less RuleDef. Raises
    RuleError on malformed input, RuleErrors where several statements are."""
    def parse() -> RuleDef:
        p = _StatementParser(text, path)
        first = p.peek()
        if first.kind == "eof":
            raise _error("expected at least one statement, like 'B = inv(A)'", first)
        p.errors = []
        statements = p.lines(first.indent, "the first line", block=False)
        RuleErrors.raise_found(p.errors)
        return RuleDef(name, (), (), statements, first.pos, header=False)
    return _guarded(parse, path)


def starts_with_header(text: str, path: str = "<string>") -> bool:
    """True when the first logical line of `text`, past blank and comment lines, holds '->': `text` is rules
    with headers (for `parse_file`), not bare statements (for `parse_statements`)."""
    for tok in _Lexer(text, path).tokens():
        if tok.ends_line:
            return False
        if tok.is_op("->"):
            return True
    return False


def rule_text(text: str, rules, k: int) -> str:
    """The source text of rules[k] in `text`: from its header's line to the line before the next rule's
    header, without the blank and comment lines at the end (they belong to the next rule, as its doc)."""
    # lines as the parser numbers them: split at "\n" only (str.splitlines also splits at U+2028, \f, \x85...,
    # which a comment may hold: the record would then show another rule's text)
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    if lines and lines[-1] == "":
        lines.pop()
    r = rules[k]
    if not getattr(r, "header", True):
        return text.strip("\n")
    start = r.pos.line - 1
    end = rules[k + 1].pos.line - 1 if k + 1 < len(rules) else len(lines)
    body = lines[start:end]
    while len(body) > 1 and (not body[-1].strip() or body[-1].startswith("#")):
        body.pop()
    return "\n".join(body)
