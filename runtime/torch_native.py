"""The derived ops' native CPU plans on torch tensors: runtime/torch_native.cpp, built as a Python extension.

runtime.torch calls `op(*args)` of this module first for every op with a native plan (generated/cpu/<module>.json,
written by derive-rules beside the module): on small CPU tensors the op's Python code pays for a torch call per
step, where the plan is a few loops and one autograd node. The C++ runner declines (and the Python code runs) any
call it cannot run as the Python code would: see the .cpp file's header. Its kernels are the ones
derive.verification.native checked against the verified NumPy code; tests/runtime/test_torch_native.py holds the two
paths to the same values and gradients for every op.

Built once per (source, torch, Python, compiler, CPU) with the system C++ compiler against torch's headers, cached
in runtime.trusted_cache (owner-only, signed, checked before use) like runtime.native's kernels; loaded from a private
copy of the verified bytes. TENSOR_RULES_NATIVE=0, no compiler, or a failed build: every call runs the Python code
(a failed build warns once, with the compiler's words).
"""
from __future__ import annotations

import ctypes
import hashlib
import importlib.machinery
import importlib.util
import os
import platform
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
import warnings
from pathlib import Path

import torch
import torch.utils.cpp_extension as _ext

from runtime import native, trusted_cache

CACHE_VERSION = "1"
NAME = "_tr_torch_native"
SOURCE = Path(__file__).with_name("torch_native.cpp")
_LOCK = threading.Lock()
_STATE: dict = {}            # "ext": the loaded extension, or "broken": why it is not
_STATS = {"compiles": [], "cache_hits": 0}


def _flags():
    abi = int(getattr(torch._C, "_GLIBCXX_USE_CXX11_ABI", 1))
    inc = [f"-I{p}" for p in _ext.include_paths()] + [f"-I{sysconfig.get_paths()['include']}"]
    libs = [f"-L{p}" for p in _ext.library_paths()] + ["-lc10", "-ltorch_cpu", "-ltorch", "-ltorch_python"]
    return ["-std=c++20", "-O2", "-fPIC", "-shared", f"-DTORCH_EXTENSION_NAME={NAME}",
            "-DTORCH_API_INCLUDE_EXTENSION_H", f"-D_GLIBCXX_USE_CXX11_ABI={abi}", *inc], libs


def _key(source: str) -> str:
    cxx = native.compiler() or ""
    try:
        version = subprocess.run([cxx, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        version = ""
    cflags, libs = _flags()
    h = hashlib.sha256()
    for part in (CACHE_VERSION, cxx, version, " ".join(cflags + libs), torch.__version__, sys.version,
                 platform.machine(), native.cpu_id(), source):
        h.update(part.encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.hexdigest()


def _build(source: str) -> bytes:
    cxx = native.compiler()
    cflags, libs = _flags()
    with tempfile.TemporaryDirectory(prefix="tensor-rules-torch-") as d:
        src, lib = Path(d) / "torch_native.cpp", Path(d) / f"{NAME}.so"
        src.write_text(source)
        t0 = time.perf_counter()
        res = subprocess.run([cxx, *cflags, str(src), *libs, "-o", str(lib)], capture_output=True, text=True)
        _STATS["compiles"].append(round(time.perf_counter() - t0, 3))
        if res.returncode != 0:
            raise RuntimeError(f"{cxx} failed on runtime/torch_native.cpp:\n{res.stderr[-3000:]}")
        return lib.read_bytes()


def _load():

    source = SOURCE.read_text()
    key = _key(source)
    blob, hit = trusted_cache.cached("torch-native", f"{key}.so", key, lambda: _build(source), "tensor-rules",
                                     what="runtime.torch's C++ extension (runtime/torch_native.cpp)")
    _STATS["cache_hits"] += hit
    fd, path = tempfile.mkstemp(prefix="tensor-rules-", suffix=".so")    # O_EXCL, 0600
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(blob)
        loader = importlib.machinery.ExtensionFileLoader(NAME, path)
        spec = importlib.util.spec_from_file_location(NAME, path, loader=loader)
        ext = importlib.util.module_from_spec(spec)
        loader.exec_module(ext)
    finally:
        os.unlink(path)
    ext.set_parameter_type(torch.nn.Parameter)
    ext.set_blas(*_blas())
    return ext


def _blas():
    """Addresses of sgemm_/dgemm_ (the Fortran BLAS interface) in the library torch's own matrix products call,
    (0, 0) where torch links none; then a plan's contractions go through ATen."""
    lib = Path(torch.__file__).parent / "lib" / "libtorch_cpu.so"
    try:
        cdll = ctypes.CDLL(str(lib))
        return tuple(ctypes.cast(cdll[name], ctypes.c_void_p).value or 0 for name in ("sgemm_", "dgemm_"))
    except (OSError, AttributeError):
        return 0, 0


def extension():
    """The loaded extension, or None (with the reason in why())."""
    ext = _STATE.get("ext")
    if ext is not None or "broken" in _STATE:
        return ext
    with _LOCK:
        if "ext" in _STATE or "broken" in _STATE:
            return _STATE.get("ext")
        ok, why = native.available()
        if not ok:
            _STATE["broken"] = why
            return None
        try:
            _STATE["ext"] = _load()
        except Exception as exc:  # noqa: BLE001 - any failure: the Python code still answers
            _STATE["broken"] = f"runtime/torch_native.cpp could not be built: {exc}"
            warnings.warn(_STATE["broken"] + "\n(runtime.torch runs every op's Python code instead; "
                          "TENSOR_RULES_NATIVE=0 silences this)", RuntimeWarning, stacklevel=3)
            return None
    return _STATE["ext"]


def build_kernels_beside(module) -> None:
    """Start building `module`'s native kernels in another thread when the extension is not loaded yet: on a first
    call both are compiled (each a subprocess), and side by side they take the longer one's time, not the sum.
    register() then finds them built (or waits for them: runtime.native builds under its lock)."""
    if native.mode() == "off" or "ext" in _STATE or "broken" in _STATE:
        return
    mod = native.plan_for(module)
    if mod is None or mod in _BESIDE:
        return
    _BESIDE.add(mod)
    threading.Thread(target=_kernels_quietly, args=(mod,), name="tensor-rules kernels", daemon=True).start()


_BESIDE: set = set()


def _kernels_quietly(mod):
    try:
        native.ready(mod)           # builds and loads them once; a failure is remembered (and warned) there
    except Exception:  # noqa: BLE001 - TENSOR_RULES_NATIVE=1's error is raised again on the calling thread
        pass


def why():
    return _STATE.get("broken", "")


def stats():
    return {"compiles": list(_STATS["compiles"]), "cache_hits": _STATS["cache_hits"]}


# ------------------------------------------------------------------------------------------------ registration
class _TooWide(Exception):
    pass


class _Numbering:
    """Buffers and index classes numbered in the order the plan names them, kernels as addresses: the plan of one
    op as the C++ runner reads it."""

    def __init__(self, kernels, ext):
        self.bufs: dict = {}
        self.classes: dict = {}
        self.kernels, self.ext = kernels, ext

    def b(self, n):
        return self.bufs.setdefault(n, len(self.bufs))

    def c(self, n):
        return self.classes.setdefault(n, len(self.classes))

    def addr(self, kernel, sfx):
        fn = self.kernels.lib[f"{kernel}_{sfx}_u"]
        return ctypes.cast(fn, ctypes.c_void_p).value

    def gemm(self, st):
        b, c = self.b, self.c
        return dict(a=b(st["a"]), b=b(st["b"]), alpha=float(st["alpha"]),
                    alpha_buf=-1 if st["alpha_buf"] is None else b(st["alpha_buf"]),
                    a_classes=[c(x) for x in st["a_classes"]], b_classes=[c(x) for x in st["b_classes"]],
                    c_classes=[c(x) for x in st["c_classes"]],
                    groups=[[[c(d[0])] + [-1 if q is None else q for q in d[1:]] for d in st["groups"][g]]
                            for g in "mnkz"])

    def kernel(self, st):
        b, c = self.b, self.c
        n_ptr = sum(k == "buf" for k, _ in st["params"])
        # the runner passes a kernel's parameters in fixed arrays: a wider kernel (a rule with 32 or more inputs:
        # its pullback's kernel takes each input, each cotangent and its mode) is not registered
        if n_ptr >= self.ext.MAX_POINTERS or len(st["params"]) - n_ptr >= self.ext.MAX_NUMBERS:
            raise _TooWide(st["kernel"])
        return dict(k32=self.addr(st["kernel"], "f32"), k64=self.addr(st["kernel"], "f64"),
                    params=[({"buf": 0, "mode": 1, "ext": 2}[k], c(v) if k == "ext" else b(v))
                            for k, v in st["params"]],
                    space=[c(x) for x in st.get("space", ())], rows=[c(x) for x in st.get("rows", ())],
                    red=[c(x) for x in st.get("red", ())], lane=c(st["lane"]) if "lane" in st else -1,
                    moved=[(b(k), v) for k, v in st.get("moved", {}).items()],
                    read_classes=[(b(k), [c(x) for x in v]) for k, v in st.get("read_classes", {}).items()],
                    write_classes=[(b(k), [c(x) for x in v]) for k, v in st.get("write_classes", {}).items()])

    def step(self, st):
        b = self.b
        s = {"cls": {"map": 0, "reduce": 1, "gemm": 2}[st["class"]],
             "outputs": [(b(o["buf"]), o["atoms"] is None, [b(a) for a in o["atoms"] or ()]) for o in st["outputs"]],
             "reads": [b(r) for r in st["reads"]]}
        s.update(self.gemm(st) if st["class"] == "gemm" else self.kernel(st))
        return s

    def program(self, p):
        b, c = self.b, self.c
        steps = [self.step(st) for st in p["steps"]]
        kept = set(p["results"]) | set(p.get("saves", ()))
        return {"args": [b(a) for a in p["args"]], "results": [b(r) for r in p["results"]],
                "saves": [b(s) for s in p.get("saves", ())], "steps": steps,
                "buffers": [(b(k), [c(x) for x in v]) for k, v in p["buffers"].items()],
                "scratch": [b(k) for k in p["buffers"] if k not in kept]}


def _describe(name, entry, meta, kernels, ext):
    """The plan of op `name` as the C++ runner reads it (see _Numbering); None where the Python code must run it."""
    num = _Numbering(kernels, ext)
    b, c = num.b, num.c
    inputs = []
    fixed = []
    declared = meta.get("extents") or {}
    for spec, m in zip(entry["inputs"], meta["inputs"]):
        if spec["kind"] not in ("tensor", "scalar"):
            return None                 # an integer parameter: the Python code
        inputs.append((0 if spec["kind"] == "tensor" else 1, b(spec["name"]), [c(x) for x in spec["classes"]]))
        for letter, cls in zip(m.get("indices") or (), spec["classes"]):
            if letter in declared:
                fixed.append((c(cls), int(declared[letter])))
    try:
        progs = {k: num.program(entry["programs"][k]) for k in ("forward", "rrule", "pullback")}
    except _TooWide:
        return None                     # a kernel with more parameters than the runner passes: the Python code
    written = {o["buf"] for st in entry["programs"]["pullback"]["steps"] for o in st["outputs"]}
    outs = [o["name"] for o in entry["outputs"]]
    pull_args = entry["programs"]["pullback"]["args"]
    desc = {
        "name": name, "elementwise": bool(entry.get("elementwise")), "inputs": inputs, "fixed": fixed,
        "derived": [(c(cls), [(c(ax), [(int(k), c(t)) for k, t in terms], int(const)) for ax, terms, const in rs])
                    for cls, rs in entry.get("derived_extents", {}).items()],
        "checks": [(c(ax), [(int(k), c(t)) for k, t in terms], int(const))
                   for ax, terms, const, _ in entry.get("extent_checks", [])],
        "out_buf": [b(o) for o in outs],
        "dout_buf": [b(a) for a in pull_args[len(pull_args) - len(outs):]],
        "din_buf": [b("b:" + s["name"]) if "b:" + s["name"] in written else -1 for s in entry["inputs"]],
        **progs}
    desc["n_bufs"], desc["n_classes"] = len(num.bufs), len(num.classes)
    return desc


def register(module, name, meta, pull):
    """The C++ runner's index of op `name` of `module` (a generated module with a native plan), or None where it
    has none, or the runner cannot be built here. pull(closure, inputs, grads, needs) is runtime.torch's Python
    pullback, which a backward with create_graph (or under a transform) runs, closure None."""
    if native.mode() == "off":
        return None
    mod = native.plan_for(module)
    if mod is None or name not in mod.manifest["ops"]:
        return None
    ext = extension()
    if ext is None:
        return None
    try:
        if not native.ready(mod):
            return None
    except RuntimeError:                # TENSOR_RULES_NATIVE=1 and the kernels cannot be built: NumPy calls raise
        return None                     # (_ready warned once, with the compiler's words); the Python code answers
    desc = _describe(name, mod.manifest["ops"][name], meta, mod.kernels(native.DEVICE), ext)
    if desc is None or desc["n_classes"] > ext.MAX_CLASSES:
        return None                     # more index classes than the runner binds: the Python code
    return ext.register(desc, pull)


def _after_fork_in_child():
    """A lock another thread held at a fork (building the extension) is not inherited held: the child would wait
    for a thread it does not have."""
    global _LOCK
    _LOCK = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
