"""The on-disk cache both `derive-rules` and `runtime.define` read: owner-only, and every entry signed.

Threat model. A cache entry is code we are about to import (runtime.define) or copy into a package (derive-rules
--out), and its key is public: anyone can compute sha256(version, engine, name, text). So a checksum proves
nothing about who wrote an entry. What we guard against is another local user, or anything else without our
uid, planting or altering an entry:
  * the cache directory must be ours and not writable by group or others (checked on every use, as ssh checks
    ~/.ssh); we create it, and every entry, owner-only (0700 / 0600). A directory that fails the check is not
    used at all: one warning, and the work is done without a cache (as pip does);
  * every entry carries an HMAC-SHA256 over its key and contents, under a per-user secret kept in the cache
    directory, mode 0600. Nobody who cannot read that file can make an entry that verifies, whatever key they
    target; an entry that does not verify (planted, copied from elsewhere, truncated, emptied, hand-edited) is
    deleted and regenerated, never executed.
  * we import exactly the bytes we verified (no second read of the file between check and use).
Not guarded against: code running as the same user (it can read the secret, or edit this package), and an
attacker who could write to the directory before its permissions were tightened (they may have read the
secret then: delete the cache directory after fixing its permissions).
"""
from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import stat
import sys
import tempfile
import time
from pathlib import Path

try:
    import fcntl
except ImportError:     # Windows: builds are not shared between processes there
    fcntl = None

_SECRET_NAME = ".secret"
_SECRET_BYTES = 32
_warned: set = set()


class UntrustedCache(Exception):
    """The cache directory is not private to this user; the message says why and what to do."""


def cache_root() -> Path:
    root = os.environ.get("TENSOR_RULES_CACHE")
    return Path(root) if root else Path.home() / ".cache" / "tensor-rules"


def _check_private(path: Path, st) -> None:
    if not stat.S_ISDIR(st.st_mode):
        raise UntrustedCache(f"cache path {path} is not a directory")
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        raise UntrustedCache(f"cache directory {path} is owned by another user (uid {st.st_uid}); "
                             f"set TENSOR_RULES_CACHE to a directory of your own")
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise UntrustedCache(f"cache directory {path} is writable by {'others' if st.st_mode & stat.S_IWOTH else 'its group'} "
                             f"(mode {stat.S_IMODE(st.st_mode):04o}); run `chmod 700 {path}` (and delete what it "
                             f"holds) or set TENSOR_RULES_CACHE to a private directory")


def private_dir(sub: str | None = None) -> Path:
    """The cache root (or its subdirectory `sub`), created 0700 if missing and checked: ours, not writable by
    group or others. Raises UntrustedCache otherwise."""
    root = cache_root()
    dirs = [root] + ([root / sub] if sub else [])
    for d in dirs:
        try:
            os.makedirs(d, mode=0o700, exist_ok=True)
            st = os.stat(d)
        except OSError as exc:
            raise UntrustedCache(f"cannot use cache directory {d}: {exc.strerror}") from None
        _check_private(d, st)
        if not os.access(d, os.R_OK | os.W_OK | os.X_OK):   # ours, but mode 000 (or 500): nothing in it is usable
            raise UntrustedCache(f"cannot use cache directory {d}: no permission to read and write it (mode "
                                 f"{stat.S_IMODE(st.st_mode):04o}); run `chmod 700 {d}` or set TENSOR_RULES_CACHE "
                                 f"to another directory")
    return dirs[-1]


def warn_once(exc: UntrustedCache, who: str) -> None:
    """One warning for each reason the cache is refused, whichever part (define, the native kernels' compile
    cache, derive-rules) meets it first."""
    if str(exc) not in _warned:
        _warned.add(str(exc))
        print(f"{who}: not using the cache: {exc}", file=sys.stderr)


def _secret(root: Path) -> bytes:
    """The per-user HMAC key: created once with O_EXCL, mode 0600; a key file that is not a private regular
    file of ours is replaced (which invalidates every entry signed with it)."""
    path = root / _SECRET_NAME
    for _ in range(3):
        try:
            got = _read_regular(path, _SECRET_BYTES + 1)
        except FileNotFoundError:
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
            except FileExistsError:
                continue  # another process made it first: read theirs
            with os.fdopen(fd, "wb") as f:
                f.write(os.urandom(_SECRET_BYTES))
            continue
        if got is not None:
            data, st = got
            if _mine(st) and not st.st_mode & 0o077 and len(data) == _SECRET_BYTES:
                return data
        _unlink(path)  # a symlink, a FIFO, a foreign or readable file: replace it (a directory stays: refused)
    raise UntrustedCache(f"cannot create a private key file in {root}")


def _unlink(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _mine(st) -> bool:
    return not hasattr(os, "getuid") or st.st_uid == os.getuid()


def _read_regular(path: Path, limit: int = -1):
    """(contents, stat) of the regular file at `path`; None when something else is there (a symlink, a FIFO,
    a directory, a device): those are checked on the open descriptor, before reading, so a FIFO cannot block
    us and a directory cannot raise. FileNotFoundError when nothing is there."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise
    except OSError:  # ELOOP: a symlink (O_NOFOLLOW); EACCES, ENXIO (a socket) ...
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None
        with os.fdopen(os.dup(fd), "rb") as f:
            return f.read(limit), st
    except OSError:
        return None
    finally:
        os.close(fd)


def _mac(root: Path, key: str, payload: bytes) -> str:
    return hmac.new(_secret(root), key.encode() + b"\0" + payload, hashlib.sha256).hexdigest()


def read(sub: str | None, name: str, key: str) -> bytes | None:
    """The verified payload of entry `name` (bound to `key`), or None when it is missing or does not verify
    (then it is deleted). Raises UntrustedCache when the directory is not private."""
    d = private_dir(sub)
    path = d / name
    try:
        got = _read_regular(path)
    except FileNotFoundError:
        return None
    if got is None:  # not a regular file: never read; a directory stays and the entry is not cached
        _unlink(path)
        return None
    data, st = got
    head, sep, payload = data.partition(b"\n")
    ok = (sep and _mine(st) and head.startswith(b"hmac-sha256 ")
          and hmac.compare_digest(head[12:].decode("ascii", "replace"), _mac(d.parent if sub else d, key, payload)))
    if not ok:
        _unlink(path)
        return None
    return payload


def write(sub: str | None, name: str, key: str, payload: bytes) -> None:
    """Store `payload` as entry `name`, signed and bound to `key`: written to a private temporary file, then
    renamed into place (readers see the old entry or the new one)."""
    d = private_dir(sub)
    root = d.parent if sub else d
    data = b"hmac-sha256 " + _mac(root, key, payload).encode() + b"\n" + payload
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".tmp-", suffix=".part")  # mkstemp: O_EXCL, mode 0600
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, d / name)
    except BaseException:
        _unlink(Path(tmp))
        raise


def cached(sub: str, name: str, key: str, build, who: str, *, what: str = "") -> tuple[bytes, bool]:
    """(payload, hit): entry `name` of `sub` when it verifies, else build() stored there. A cache that cannot be
    used (not private: warned once; unreadable; unwritable) costs a build, never an error. With `what` (e.g.
    "the PyTorch extension"), a build is a long one: it says so on stderr, and runs under a lock on the entry that
    other processes wait on (saying so), then take the entry from the cache instead of building it again."""
    usable = True
    try:
        blob = read(sub, name, key)
    except (OSError, UntrustedCache) as exc:
        if isinstance(exc, UntrustedCache):
            warn_once(exc, who)
        blob, usable = None, False
    if blob is not None:
        return blob, True
    if usable and what:
        with _build_lock(sub, name, who, what) as locked:
            blob = _read_quietly(sub, name, key) if locked else None
            if blob is not None:        # another process built it while we waited
                return blob, True
            return _build_and_store(sub, name, key, build, usable, who, what), False
    return _build_and_store(sub, name, key, build, usable, who, what), False


def _build_and_store(sub, name, key, build, usable, who, what):
    if what:
        _say(f"{who}: building {what} (once per machine; it is cached for every later process)")
    t0 = time.monotonic()
    blob = build()
    if what:
        _say(f"{who}: built {what} in {time.monotonic() - t0:.0f} s")
    if usable:
        try:
            write(sub, name, key, blob)
        except (OSError, UntrustedCache):
            pass
    return blob


def _read_quietly(sub, name, key):
    try:
        return read(sub, name, key)
    except (OSError, UntrustedCache):
        return None


_NOTICES = [True]


def build_notices(on: bool) -> None:
    """Whether long builds say so on stderr (derive-rules turns them off: its own status line covers them)."""
    _NOTICES[0] = bool(on)


def _say(line: str) -> None:
    if not _NOTICES[0]:
        return
    try:
        print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


@contextlib.contextmanager
def _build_lock(sub, name, who, what):
    """An exclusive lock on `<entry>.lock` beside the entry (flock: released if the holder dies); yields whether
    the lock is held (False where locks cannot be taken: the build then runs unlocked)."""
    if fcntl is None:
        yield False
        return
    try:
        fd = os.open(private_dir(sub) / f"{name}.lock", os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except (OSError, UntrustedCache):
        yield False
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            _say(f"{who}: waiting for another process that is building {what}")
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:
            yield False
            return
        yield True
    finally:
        os.close(fd)        # releases the lock


def discard(sub: str | None, name: str) -> None:
    try:
        _unlink(private_dir(sub) / name)
    except UntrustedCache:
        pass
