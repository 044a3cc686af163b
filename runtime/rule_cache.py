"""Rules defined at run time: `define(text)` derives, verifies and code-generates once, then caches on disk.

The rule goes through derive.pipeline, the pipeline `derive-rules` runs, and this is the one place the runtime
imports derive (lazily: SymPy loads on a cache miss only). The cache file is the generated module keyed by
sha256(version, engine fingerprint, name, text), signed and kept owner-only by runtime.trusted_cache (its
docstring states the threat model); a later process verifies and imports it without touching SymPy or derive.
With native kernels asked for (TENSOR_RULES_NATIVE=1) the pipeline also emits the op's CPU plan and checks it
against the verified NumPy code; the plan is cached beside the module, signed with the same key, and bound to
the module object (runtime.native.attach) so the ops run it as the shipped ones run theirs.
"""
from __future__ import annotations

import hashlib
import importlib.util
import keyword
import re
import sys
from pathlib import Path

from runtime import native, trusted_cache
from runtime.registry import lookup
from runtime.trusted_cache import cache_root

CACHE_VERSION = "3"  # bump when the generated-module contract changes (3: the CPU plan is cached beside it)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_MEMO: dict = {}


def cache_dir() -> Path:
    return cache_root()


def cache_key(text: str, name: str | None, kernels: bool = False) -> str:
    # the engine fingerprint (derive-rules' cache uses it too) hashes derive/ and templates/ by reading them,
    # so a changed or upgraded engine regenerates entries without a cache hit importing SymPy; lazy with the
    # pipeline below: the runtime's one edge up into derive
    from derive.fingerprint import engine_fingerprint

    h = hashlib.sha256()
    for part in (CACHE_VERSION, engine_fingerprint(), name or "", "kernels" if kernels else "", text):
        h.update(part.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()


def _generate(text, name, label, kernels):
    """{"module": source, "cpp": kernels source, "plan": plan JSON} (the last two only with kernels that passed
    their check), from derive.pipeline."""
    from derive import pipeline  # lazy: SymPy is imported only here

    # the pipeline names a bare statement list (`B = inv(A)`) after name; the module itself is loaded under our
    # own unique name, whatever this is
    files = pipeline.define_files(text, name, label, kernels=kernels)
    out = {"module": files["module.py"]}
    cpu = sorted(f for f in files if f.startswith("cpu/") and f.endswith(".json"))
    if cpu:
        out["plan"] = files[cpu[0]]
        out["cpp"] = files[cpu[0][:-len(".json")] + ".cpp"]
    return out


def _load(source: str, module_name: str, filename: str, plan=None):
    """Import `source` (the exact text that was verified or just generated) as module `module_name`; `plan`:
    (kernels source, plan JSON text) of its CPU kernels, bound to it before its ops are made."""
    spec = importlib.util.spec_from_loader(module_name, loader=None, origin=filename)
    module = importlib.util.module_from_spec(spec)
    module.__file__ = filename
    if plan is not None and not native.attach(module, source, *plan):
        raise ValueError("the cached CPU plan is not this module's")     # define regenerates every entry
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
    kernels = native.mode() == "always" and native.available()[0]
    key = cache_key(text, name, kernels)
    op = _MEMO.get(key)
    if op is not None:
        return op
    module_name = f"tensor_rules_cache_r{key[:24]}"
    stem = f"r{key[:24]}"
    filename = str(cache_dir() / f"{stem}.py")
    entries = {"module": f"{stem}.py", "cpp": f"{stem}.cpp", "plan": f"{stem}.plan.json"}
    cached, use_cache = _read_entries(entries, key)
    module = None
    if cached is not None:
        try:
            module = _load(cached["module"], module_name, filename, _plan_of(cached))
            if not getattr(module, "OPS", None):
                raise ValueError("no ops")
        except Exception:
            for e in entries.values():      # signed by us but unusable (an older contract): regenerate
                trusted_cache.discard(None, e)
            sys.modules.pop(module_name, None)
            module = None
    if module is None:
        label = f"<define {name}>" if name else "<define>"
        made = _generate(text, name, label, kernels)
        if use_cache:
            _write_entries(entries, key, made)
        module = _load(made["module"], module_name, filename, _plan_of(made))
    op = _pick(module, name, text)
    _MEMO[key] = op
    return op


def _plan_of(files):
    return (files["cpp"], files["plan"]) if "plan" in files else None


def _read_entries(entries, key):
    """(the cached files, or None; whether the cache may be written): every entry verified, the module first."""
    out = {}
    try:
        for what, entry in entries.items():
            payload = trusted_cache.read(None, entry, key)
            if payload is None:
                if what == "module":
                    return None, True
                continue
            out[what] = payload.decode("utf-8")
    except trusted_cache.UntrustedCache as exc:
        trusted_cache.warn_once(exc, "tensor-rules define")
        return None, False
    except UnicodeDecodeError:
        return None, True
    # kernels and their plan come together or not at all: one without the other is regenerated with the module
    return (out if ("plan" in out) == ("cpp" in out) else None), True


def _write_entries(entries, key, files):
    """The module last: a reader that finds it finds the kernels written before it."""
    try:
        for what in sorted(files, key=lambda w: w == "module"):
            trusted_cache.write(None, entries[what], key, files[what].encode("utf-8"))
    except OSError:
        pass
    except trusted_cache.UntrustedCache as exc:
        trusted_cache.warn_once(exc, "tensor-rules define")
