"""Rules defined at run time: `define(text)` derives, verifies and code-generates once, then caches on disk.

The cache file is a generated module keyed by sha256(version, engine fingerprint, name, text); a later process
imports it without touching SymPy or `derive.api` (they are imported only on a cache miss).
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
from pathlib import Path

CACHE_VERSION = "1"  # bump when the generated-module contract changes
_MEMO: dict = {}


def cache_dir() -> Path:
    root = os.environ.get("TENSOR_RULES_CACHE")
    return Path(root) if root else Path.home() / ".cache" / "tensor-rules"


def cache_key(text: str, name: str | None) -> str:
    # the engine fingerprint (derive-rules' cache uses it too) hashes derive/ and templates/ by reading them,
    # so a changed or upgraded engine regenerates entries without a cache hit importing SymPy
    from derive.fingerprint import engine_fingerprint

    h = hashlib.sha256()
    for part in (CACHE_VERSION, engine_fingerprint(), name or "", text):
        h.update(part.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()


def _generate(text, name, label):
    from derive.api import generate_module_source  # lazy: SymPy is imported only here

    # the generator names a bare statement list (`B = inv(A)`) after module_name; the module itself is
    # loaded under our own unique name, whatever this is
    return generate_module_source(text, module_name=name, source_label=label)


def _write_atomic(path: Path, source: str):
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.stem, suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(source)
        os.replace(tmp, path)  # concurrent writers of the same key write the same text
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _load(path: Path, module_name: str):
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(module_name, None)
        raise
    return module


def _pick(module, name, text):
    ops = getattr(module, "OPS", {})
    from runtime.registry import lookup

    if name is not None and name in ops:
        return lookup(f"{module.__name__}:{name}")
    if len(ops) == 1:
        return lookup(f"{module.__name__}:{next(iter(ops))}")
    raise ValueError(f"define: the rule text defines {sorted(ops)}; pass name= to choose one"
                     + (f" ({name!r} is not among them)" if name else ""))


def define(text: str, name: str | None = None):
    """Derive the rule in `text` (rule language) and return its op: callable, with `.rrule`/`.frule`,
    usable in grad/jvp at once. `name` picks the op when the text defines several (and names a bare
    statement list). Derivation errors (derive.errors.DeriveError) propagate."""
    key = cache_key(text, name)
    op = _MEMO.get(key)
    if op is not None:
        return op
    module_name = f"tensor_rules_cache_r{key[:24]}"
    path = cache_dir() / f"r{key[:24]}.py"
    module = None
    if path.exists():
        try:
            module = _load(path, module_name)
        except Exception:
            path.unlink(missing_ok=True)  # a corrupt or stale entry: regenerate below
            module = None
    if module is None:
        label = f"<define {name}>" if name else "<define>"
        source = _generate(text, name, label)
        _write_atomic(path, source)
        module = _load(path, module_name)
    op = _pick(module, name, text)
    _MEMO[key] = op
    return op
