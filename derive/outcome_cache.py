"""derive-rules' cache of outcomes: a rule file's derived, verified and rendered outcome (plain data), kept in
runtime.trusted_cache (owner-only, every entry signed) under a key of the text and everything that shapes the
outcome. Light on purpose: a cached run reads its outcomes here and never loads SymPy or the engine's stages.
"""
from __future__ import annotations

import hashlib
import json

from derive import COMMAND
from derive.fingerprint import engine_fingerprint
from runtime import native, trusted_cache

CACHE_VERSION = "2"


def native_checkable() -> bool:
    """Whether derive.verification.native can run the native kernels here (its own condition)."""
    return native.available()[0]


def key(text: str, label: str, module: str, *, bare_name=None, kernels=True, command: str = COMMAND) -> str:
    # whether the native kernels are checked here (verify_native needs a compiler, and TENSOR_RULES_NATIVE=0 turns
    # it off) is part of the key: an outcome whose plan went unchecked must never answer a run that checks it
    parts = [CACHE_VERSION, engine_fingerprint(), label, module, str(bare_name), str(kernels),
             f"native-checked={kernels and native_checkable()}", command, text]
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


def read(k: str):
    """(the cached outcome or None, whether the cache may be written): an entry that does not verify or has the
    wrong shape is None (regenerated); a cache that is not private is warned about once and left alone."""
    try:
        payload = trusted_cache.read("derive", f"{k}.json", k)
        out = json.loads(payload) if payload is not None else None
    except trusted_cache.UntrustedCache as exc:
        trusted_cache.warn_once(exc, "derive-rules")
        return None, False
    except ValueError:  # signed by us, yet not JSON: regenerate
        return None, True
    return (out if valid(out) else None), True


def cached(k: str, build) -> dict:
    """The outcome under key k when the cache holds a valid one, else build()'s, stored when it verified."""
    return cached_many([k], lambda missing: [build()])[0]


def cached_many(keys, build_missing) -> list:
    """The outcome under each key (None: not cached): the cache's where it holds a valid one; the others from one
    call build_missing(indices of the missing keys) -> their outcomes (so they derive side by side), each stored
    when it verified."""
    found = [read(k) if k else (None, False) for k in keys]
    outs = [out for out, _ in found]
    missing = [i for i, out in enumerate(outs) if out is None]
    if missing:
        for i, out in zip(missing, build_missing(missing)):
            outs[i] = out
            if found[i][1] and out["ok"]:
                write(keys[i], out)
    return outs


def write(k: str, out: dict) -> None:
    try:
        trusted_cache.write("derive", f"{k}.json", k, json.dumps(out).encode("utf-8"))
    except OSError:
        pass
    except trusted_cache.UntrustedCache as exc:
        trusted_cache.warn_once(exc, "derive-rules")


def valid(out) -> bool:
    return (isinstance(out, dict) and isinstance(out.get("files"), dict) and isinstance(out.get("rules"), list)
            and isinstance(out.get("ok"), bool) and isinstance(out.get("module"), str)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in out["files"].items())
            and all(isinstance(r, dict) for r in out["rules"]))
