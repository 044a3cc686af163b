"""Rules defined at run time: `define(text)` derives, verifies and code-generates once, then caches on disk.

The cache file is a generated module keyed by sha256(version, engine fingerprint, name, text), signed and kept
owner-only by runtime.trusted_cache (its docstring states the threat model); a later process verifies and imports
it without touching SymPy or `derive.api` (they are imported only on a cache miss).
"""
from __future__ import annotations

import hashlib
import importlib.util
import keyword
import re
import sys
from pathlib import Path

from runtime import trusted_cache
from runtime.registry import lookup
from runtime.trusted_cache import cache_root

CACHE_VERSION = "2"  # bump when the generated-module contract changes
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_MEMO: dict = {}


def cache_dir() -> Path:

    return cache_root()


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


def _load(source: str, module_name: str, filename: str):
    """Import `source` (the exact text that was verified or just generated) as module `module_name`."""
    spec = importlib.util.spec_from_loader(module_name, loader=None, origin=filename)
    module = importlib.util.module_from_spec(spec)
    module.__file__ = filename
    sys.modules[module_name] = module
    try:
        exec(compile(source, filename, "exec"), module.__dict__)
    except BaseException:
        sys.modules.pop(module_name, None)
        raise
    return module


def load_module_file(path, prefix: str):
    """The module in the .py file `path` (one `derive-rules FILE --out DIR` wrote), imported under a name made
    of `prefix` and a hash of its content: a regenerated file is imported anew, and the text hashed is the text
    run (read once). The same file content gives the same module object."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{prefix}: no module file {str(path)!r}")
    source = path.read_text(encoding="utf-8")
    digest = hashlib.sha256(source.encode("utf-8")).hexdigest()[:16]
    stem = "".join(c if c.isalnum() else "_" for c in path.stem)
    module_name = f"{prefix.replace('.', '_')}_{stem}_{digest}"
    module = sys.modules.get(module_name)
    return module if module is not None else _load(source, module_name, str(path.resolve()))


def _pick(module, name, text):
    ops = getattr(module, "OPS", {})

    if name is not None and name in ops:
        return lookup(f"{module.__name__}:{name}")
    if len(ops) == 1:
        return lookup(f"{module.__name__}:{next(iter(ops))}")
    raise ValueError(f"define: the rule text defines {sorted(ops)}; pass name= to choose one"
                     + (f" ({name!r} is not among them)" if name else ""))


def _check_name(name):
    if name is None:
        return
    if not isinstance(name, str) or not _NAME.fullmatch(name) or keyword.iskeyword(name):
        raise ValueError(f"define: name must be a rule name (ASCII letters, digits and '_', not starting with a "
                         f"digit, not a Python keyword), got {name!r}")


def define(text: str, name: str | None = None):
    """Derive the rule in `text` (rule language) and return its op: callable, with `.rrule`/`.frule`,
    usable in grad/jvp at once. `name` picks the op when the text defines several (and names a bare
    statement list). Derivation errors (derive.language.errors.DeriveError) propagate.

    The generated module is cached on disk (see runtime.trusted_cache for what makes an entry trusted): an
    entry is imported only when its signature verifies; anything else is regenerated."""

    _check_name(name)
    key = cache_key(text, name)
    op = _MEMO.get(key)
    if op is not None:
        return op
    module_name = f"tensor_rules_cache_r{key[:24]}"
    entry = f"r{key[:24]}.py"
    filename = str(cache_dir() / entry)
    use_cache = True
    source = None
    try:
        payload = trusted_cache.read(None, entry, key)
        source = payload.decode("utf-8") if payload is not None else None
    except trusted_cache.UntrustedCache as exc:
        trusted_cache.warn_once(exc, "tensor-rules define")
        use_cache = False
    except UnicodeDecodeError:
        source = None
    module = None
    if source is not None:
        try:
            module = _load(source, module_name, filename)
            if not getattr(module, "OPS", None):
                raise ValueError("no ops")
        except Exception:
            trusted_cache.discard(None, entry)  # signed by us but unusable (an older contract): regenerate
            sys.modules.pop(module_name, None)
            module = None
    if module is None:
        label = f"<define {name}>" if name else "<define>"
        source = _generate(text, name, label)
        if use_cache:
            try:
                trusted_cache.write(None, entry, key, source.encode("utf-8"))
            except (OSError, trusted_cache.UntrustedCache) as exc:
                if isinstance(exc, trusted_cache.UntrustedCache):
                    trusted_cache.warn_once(exc, "tensor-rules define")
        module = _load(source, module_name, filename)
    op = _pick(module, name, text)
    _MEMO[key] = op
    return op
