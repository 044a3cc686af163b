"""Errors a user meets: every one names the place (file, line, column, caret) or the rule, never SymPy's insides."""
from __future__ import annotations


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
            where = f"{self.pos.file}:{self.pos.line}:{self.pos.col}: "
        head = f"{where}error: "
        if self.rule:
            head += f"in rule '{self.rule}': "
        out = head + self.message
        if self.pos is not None and self.pos.text:
            line = self.pos.text.rstrip("\n")
            out += f"\n    {line}\n    {' ' * (self.pos.col - 1)}{'^' * self.width}"
        return out


class VerificationError(DeriveError):
    """A derived rule whose numerical check failed; it is reported and never emitted."""
