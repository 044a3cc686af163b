"""Errors a user meets: every one names the place (file, line, column, caret) or the rule, never SymPy's insides."""
from __future__ import annotations

import difflib


class DeriveError(Exception):
    """Base of every error the derivation engine reports to a user (exit code 2 from the command)."""


class RuleError(DeriveError):
    """A problem in rule text, at a position: `file:line:col: message`, the line, and a caret under it."""

    def __init__(self, message: str, pos=None, *, rule: str | None = None, width: int = 1):
        self.message = message
        self.pos = pos
        self.rule = rule
        self.width = max(1, width)
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ""
        if self.pos is not None:
            where = f"{_visible(str(self.pos.file))}:{self.pos.line}:{self.pos.col}: "
        head = f"{where}error: "
        if self.rule:
            head += f"in rule '{self.rule}': "
        out = head + self.message
        if self.pos is not None and self.pos.text:
            line = self.pos.text.rstrip("\n")
            pad = "".join("\t" if c == "\t" else " " for c in line[:self.pos.col - 1])  # tabs keep the caret aligned
            out += f"\n    {_visible(line)}\n    {pad}{'^' * self.width}"
        return out


def did_you_mean(name: str, candidates) -> str:
    """"; did you mean 'k'?" naming the candidates nearest to a mistyped name (difflib's measure), or "" where
    none is near: a message about an unknown name ends with it."""
    close = difflib.get_close_matches(name, sorted(set(candidates) - {name}), n=3)
    if not close:
        return ""
    quoted = [f"'{c}'" for c in close]
    return "; did you mean " + (quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]) + "?"


def _visible(text: str) -> str:
    """`text` as it may reach a terminal: a control character (an escape sequence that clears the screen or sets
    the title, a carriage return that hides what precedes it, NUL, U+2028) shows as U+FFFD, one column each, so
    the caret below the echoed line stays under the offending character. Tabs stay."""
    return "".join(c if c == "\t" or c.isprintable() else "\ufffd" for c in text)


class VerificationError(DeriveError):
    """A derived rule whose numerical check failed; it is reported and never emitted."""
