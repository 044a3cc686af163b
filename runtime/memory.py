"""Allocator tuning: keep freed array memory in the process for reuse instead of handing it back to the OS.

Why: a reverse sweep frees many medium arrays (a 256×512 float32 activation is 512 KB) at once. With glibc's
defaults, arrays over 128 KB–32 MB come from fresh `mmap`s and a heap top over 2× that is trimmed, so the next
sweep page-faults every one of them in again: about 2 400 faults and 4 ms of a 10 ms MLP `value_and_grad`
(benchmarks/RESULTS.md). Raising the two thresholds makes the next sweep reuse the same pages.

Applied once when `runtime` is imported, on glibc only. Opt out with TENSOR_RULES_MALLOC=off; settings made
through glibc's own MALLOC_*_ environment variables or GLIBC_TUNABLES are never overridden.
"""
from __future__ import annotations

import ctypes
import os
import platform

# mallopt parameter numbers, from glibc's <malloc.h>.
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3

# Arrays up to 64 MB come from the heap (the kernel ops' 4 M-element float64 slices are 32 MB), and up to
# 256 MB of free heap top is kept: the price is that RSS can stay that much above the live data.
MMAP_THRESHOLD = 64 << 20
TRIM_THRESHOLD = 256 << 20

_GLIBC_ENV = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_", "MALLOC_MMAP_MAX_")

_applied: dict | None = None
_reason = "not attempted"


def allocator_settings():
    """The thresholds this module set, as {"mmap_threshold": bytes, "trim_threshold": bytes}, or None."""
    return None if _applied is None else dict(_applied)


def allocator_note():
    """One line: what was done to the allocator and why (for benchmarks and bug reports)."""
    if _applied is not None:
        return (f"glibc malloc tuned by runtime.memory: mmap_threshold={_applied['mmap_threshold']}, "
                f"trim_threshold={_applied['trim_threshold']}")
    return f"allocator left as it is: {_reason}"


def tune_allocator(mmap_threshold=MMAP_THRESHOLD, trim_threshold=TRIM_THRESHOLD, *, force=False):
    """Set glibc's mmap and trim thresholds; return True when they were set.

    Does nothing (and says why in `allocator_note()`) off glibc, when TENSOR_RULES_MALLOC is off/0/no, or,
    unless `force`, when the user already tuned malloc through the environment.
    """
    global _applied, _reason
    if not force:
        if os.environ.get("TENSOR_RULES_MALLOC", "").strip().lower() in ("0", "off", "no", "false"):
            _reason = "TENSOR_RULES_MALLOC is off"
            return False
        user = [v for v in _GLIBC_ENV if v in os.environ]
        if user or "glibc.malloc" in os.environ.get("GLIBC_TUNABLES", ""):
            _reason = f"malloc already tuned through the environment ({', '.join(user) or 'GLIBC_TUNABLES'})"
            return False
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        _reason = f"not glibc ({platform.system()} {platform.libc_ver()[0] or 'unknown libc'})"
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
        mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
        mallopt.restype = ctypes.c_int
        ok = mallopt(M_MMAP_THRESHOLD, int(mmap_threshold)) == 1
        ok = mallopt(M_TRIM_THRESHOLD, int(trim_threshold)) == 1 and ok
    except (OSError, AttributeError) as e:
        _reason = f"mallopt unavailable ({e})"
        return False
    if not ok:
        _reason = "mallopt refused the thresholds"
        return False
    _applied = {"mmap_threshold": int(mmap_threshold), "trim_threshold": int(trim_threshold)}
    return True
