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


class RuleErrors(RuleError):
    """Several independent errors of one file, reported at once: shown one after the other, each as a RuleError
    shows itself, up to SHOWN of them and then how many more; as a RuleError it is the first of them."""

    SHOWN = 10

    def __init__(self, errors):
        self.errors = list(errors)
        first = self.errors[0]
        super().__init__(getattr(first, "message", str(first)), getattr(first, "pos", None),
                         rule=getattr(first, "rule", None), width=getattr(first, "width", 1))

    def __str__(self) -> str:
        shown = [str(e) for e in self.errors[:self.SHOWN]]
        more = len(self.errors) - len(shown)
        if more:
            shown.append(f"and {more} more error{'s' if more > 1 else ''}")
        return "\n".join(shown)

    @classmethod
    def raise_found(cls, errors) -> None:
        """Raise the errors found in a file, in the order of their lines: the one itself, or RuleErrors for
        several; nothing when there are none."""
        if not errors:
            return
        errors = sorted(errors, key=lambda e: (e.pos.line, e.pos.col) if getattr(e, "pos", None) else (1 << 62, 0))
        raise errors[0] if len(errors) == 1 else cls(errors)


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
