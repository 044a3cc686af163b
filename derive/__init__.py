"""Derivation engine: rule language, IR, linearization and transposition, verification, codegen driver."""
import sys

COMMAND = "derive-rules"   # who writes generated files: their banner names it, the outcome cache keys on it

# The parser allows 100 levels of nesting (derive.language.parser.MAX_DEPTH). Every later stage walks expression
# trees recursively, SymPy's printers and simplifiers included, at up to about ten frames a level: more than
# Python's default limit of 1000 allows. Chains (a + b + ...) cost no depth.
if sys.getrecursionlimit() < 10_000:
    sys.setrecursionlimit(10_000)
