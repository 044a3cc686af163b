"""The engine fingerprint: a hash of what shapes every derived output (the derive package, the templates,
the runtime's declarations of the built-ins and matrix primitives, and the names of a rule file's artefacts).

It reads files and imports nothing heavy, so `runtime.define` can key its cache on it without loading SymPy.
"""
from __future__ import annotations

import functools
import hashlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# what derive reads to write its output: directories (their .py and .j2 files) and single files
SOURCES = ("derive", "templates", "primitives", "runtime/artefacts.py")


def fingerprint_of(root: Path) -> str:
    """sha256 over the paths and bytes of the SOURCES' .py and .j2 files under root, and of every file under
    templates/ (cpu_math.h is pasted into each generated .cpp), in sorted order."""
    h = hashlib.sha256()
    for src in SOURCES:
        d = root / src
        for p in sorted(d.rglob("*")) if d.is_dir() else [d]:
            if p.is_file() and (p.suffix in (".py", ".j2") or src == "templates") and "__pycache__" not in p.parts:
                h.update(p.relative_to(root).as_posix().encode())
                h.update(p.read_bytes())
    return h.hexdigest()


@functools.cache
def engine_fingerprint() -> str:
    """The fingerprint of the engine this process runs (read once: the loaded code does not change)."""
    return fingerprint_of(ROOT)
