"""Derivation engine: rule language, IR, linearization and transposition, verification, codegen driver."""
import sys

COMMAND = "derive-rules"   # who writes generated files: their banner names it, the outcome cache keys on it

# The parser allows 100 levels of nesting (derive.language.parser.MAX_DEPTH). Every later stage walks expression
# trees recursively, SymPy's printers and simplifiers included, at up to about ten frames a level: more than
# Python's default limit of 1000 allows. Chains (a + b + ...) cost no depth.
if sys.getrecursionlimit() < 10_000:
    sys.setrecursionlimit(10_000)

# SymPy keeps its constructors' results in LRU caches of SYMPY_CACHE_SIZE entries each (1000 by default, read when
# SymPy is first imported). A rule's working set grows with its statements: past a few hundred the caches evict
# what the next stage asks for again, and each statement costs more the longer the rule (a 1000-statement chain
# missed twice as often). 20 000 keeps a few thousand statements' worth (about 30 MB more at 1000); a value the
# user set, or a SymPy already imported, is left as it is.
if "sympy" not in sys.modules:
    import os

    os.environ.setdefault("SYMPY_CACHE_SIZE", "20000")
