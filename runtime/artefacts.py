"""What a rule file's artefacts are called: one module name per file, and every file written for it named after
that module. derive-rules writes them under these names and the runtime finds the kernels by them.

`module_name(path)` is the name of the Python module a rule file becomes; `paths(module)` the paths, relative to
the output directory, of the module and of its CPU and CUDA kernels and plans. Nothing else makes a name from a
rule file's name, so two files whose modules differ never write the same path.
"""
from __future__ import annotations

import hashlib
import keyword
import sys
from pathlib import PurePath

# Top-level modules a generated module's import goes through (the runtime, NumPy, the standard library) or that
# the runtime imports by name later (`generated`): a module of that name in --out would shadow them for whoever
# imports from that directory, and `numpy.rules` or `random.rules` would give a module that cannot be imported.
SHADOWED = frozenset({"runtime", "generated", "derive", "numpy"}) | frozenset(
    getattr(sys, "stdlib_module_names", ())) | frozenset(sys.builtin_module_names)


def module_name(path) -> str:
    """The Python module a rule file becomes: its stem with '-' as '_' when that is a plain ASCII identifier (not a
    keyword, a dunder such as __init__, nor the name of a module the generated code imports: numpy, runtime,
    random...), else `rules_` and the stem with every other character as '_' (`a b.rules` -> rules_a_b)."""
    m = PurePath(path).stem.replace("-", "_")
    plain = (m.isascii() and m.isidentifier() and not keyword.iskeyword(m) and not m.startswith("__")
             and m not in SHADOWED)
    return m if plain else "rules_" + "".join(ch if ch.isascii() and ch.isalnum() else "_" for ch in m)


def paths(module: str) -> dict:
    """{artefact: path relative to the output directory} of a module's files: the module itself, its CPU kernels
    and plan (runtime.native reads them beside the module's file), its CUDA kernels and plan (runtime.cuda)."""
    return {"module": f"{module}.py",
            "cpu": f"cpu/{module}.cpp", "cpu_plan": f"cpu/{module}.json",
            "cuda": f"cuda/{module}.cu", "cuda_plan": f"cuda/{module}.json"}


def text_sha256(text: str) -> str:
    """The sha256 (hex) of a generated text: each kernel plan records its kernels' and its module's, and the runtime
    runs the plan only beside exactly those files."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
