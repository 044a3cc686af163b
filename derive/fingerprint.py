"""The engine fingerprint: a hash of what shapes every derived output (the derive package and the templates).

It reads files and imports nothing heavy, so `runtime.define` can key its cache on it without loading SymPy.
"""
from __future__ import annotations

import functools
import hashlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def fingerprint_of(root: Path) -> str:
    """sha256 over the paths and bytes of root/derive/**.py and root/templates/**.j2, in sorted order."""
    h = hashlib.sha256()
    for d in (root / "derive", root / "templates"):
        for p in sorted(d.rglob("*")):
            if p.is_file() and p.suffix in (".py", ".j2"):
                h.update(p.relative_to(root).as_posix().encode())
                h.update(p.read_bytes())
    return h.hexdigest()


@functools.cache
def engine_fingerprint() -> str:
    """The fingerprint of the engine this process runs (read once: the loaded code does not change)."""
    return fingerprint_of(ROOT)
