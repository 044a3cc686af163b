"""A stand-in for a GPU in tests: generated .cu files compiled for the CPU by g++ (cuda_emu.h), driven by the
same launch-plan runner as the real device (runtime.cuda.Runner), on NumPy arrays.

It checks the kernels' arithmetic, indexing, shared-memory staging, barriers, warp shuffles and atomics, and
the runner's launch geometry; not timing, memory coalescing, or anything specific to PyCUDA.
"""
from __future__ import annotations

import ctypes
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
CXX = shutil.which("g++")
_BUILD = Path(tempfile.gettempdir()) / f"tensor-rules-emu-{os.getuid()}"
_KERNEL = re.compile(r'extern "C" __global__ void __launch_bounds__\(TR_BLOCK\) (\w+)\(')


def available():
    if os.environ.get("TENSOR_RULES_NO_EMU"):       # benchmarks/gpu/run.sh: on a GPU, don't build the emulation
        return False, "TENSOR_RULES_NO_EMU is set (the GPU runs the kernels)"
    if CXX is None:
        return False, "g++ not found (the CPU emulation of the kernels needs it)"
    return True, ""


def build(source: str) -> Path:
    """A shared library exporting emu_<kernel> for every kernel of `source` (cached by content)."""
    header = (HERE / "cuda_emu.h").read_text()
    # and the files it includes (templates/erfinv.h): a stale library must not outlive an edit of them
    header += "".join((HERE / inc).read_text() for inc in re.findall(r'#include "([^"]+)"', header))
    key = hashlib.sha256((header + "\0" + source).encode()).hexdigest()[:24]
    lib = _BUILD / f"emu_{key}.so"
    if lib.exists():
        return lib
    _BUILD.mkdir(parents=True, exist_ok=True)
    names = _KERNEL.findall(source)
    src = _BUILD / f"emu_{key}.cpp"
    src.write_text(source + "\n" + "".join(f"TR_EMU_EXPORT({n})\n" for n in names))
    tmp = lib.with_suffix(f".{os.getpid()}.tmp")
    cmd = [CXX, "-std=c++20", "-O1", "-pthread", "-shared", "-fPIC", "-w", "-include", str(HERE / "cuda_emu.h"),
           "-x", "c++", str(src), "-o", str(tmp)]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError(f"g++ failed on the emulated kernels:\n{res.stderr[-4000:]}")
    os.replace(tmp, lib)
    return lib


class EmuDevice:
    """The device interface of runtime.cuda (arrays, pointers, kernel modules) over NumPy and ctypes."""

    def __init__(self, sm_count=2):
        self.sm_count = sm_count
        self.arch = "emu"
        self._libs: dict = {}
        self.launches: list = []

    def is_array(self, x):
        return isinstance(x, np.ndarray)

    def empty(self, shape, dtype):
        # NaN-filled, so a kernel that forgets to write an element shows up
        return np.full(tuple(shape), np.nan, dtype=dtype)

    def zeros(self, shape, dtype):
        return np.zeros(tuple(shape), dtype=dtype)

    def fill_zero(self, a):
        a.fill(0)

    def asarray(self, x, dtype):
        return np.ascontiguousarray(np.asarray(x, dtype=dtype))

    def to_host_scalar(self, a):
        return float(a)

    def pointer(self, a):
        if a is None or a.size == 0:
            return None
        return a.ctypes.data

    def load(self, source):
        lib = self._libs.get(source)
        if lib is None:
            lib = self._libs[source] = _EmuKernels(ctypes.CDLL(str(build(source))), self)
        return lib


_CTYPES = {"i32": ctypes.c_int32, "i64": ctypes.c_int64, "f32": ctypes.c_float, "f64": ctypes.c_double}


class _EmuKernels:
    def __init__(self, lib, dev):
        self.lib, self.dev = lib, dev

    def launch(self, name, grid, block, smem, args):
        assert smem <= (1 << 22), f"{name}: {smem} bytes of shared memory"
        assert block[0] % 32 == 0 and block[0] <= 1024, block
        assert all(g >= 1 for g in grid) and grid[1] <= 65535 and grid[2] <= 65535, grid
        vals = []
        for kind, v in args:
            vals.append(ctypes.c_void_p(v) if kind == "p" else _CTYPES[kind](v))
        arr = (ctypes.c_void_p * max(1, len(vals)))(*[ctypes.cast(ctypes.pointer(v), ctypes.c_void_p) for v in vals])
        fn = getattr(self.lib, "emu_" + name)
        fn.restype = None
        fn(ctypes.c_uint(grid[0]), ctypes.c_uint(grid[1]), ctypes.c_uint(grid[2]), ctypes.c_uint(block[0]), arr)
        self.dev.launches.append((name, tuple(grid), tuple(block), smem))
