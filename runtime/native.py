"""Native CPU kernels: generated/cpu/<module>.cpp compiled by the system C++ compiler with OpenMP, its plan run on
NumPy arrays (the CUDA launch-plan runner, runtime.cuda.Runner, with CPU steps).

Used automatically for the ops derive.emission.cpp marks worth it (a nonlinear map-reduce such as the Gaussian kernel
sum, an elementwise chain through exp/erf) when a compiler is found and the arrays are large enough; the generated
NumPy code stays the fallback. `available()` says whether it can run here and why not.

Environment: TENSOR_RULES_NATIVE=0 turns it off, =1 uses it for every call the plan covers (whatever the size);
CXX names the compiler (default: g++, then c++). Compiled libraries are cached in runtime.trusted_cache (owner-only,
every entry signed and checked before use), keyed by sha256(source, compiler, flags, CPU); the first call's compile
time is in `stats()`.
"""
from __future__ import annotations

import ctypes
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from pathlib import Path

import numpy as np

from runtime import cuda as _plan
from runtime import artefacts, trusted_cache
from runtime.tangents import Thunk, is_zero, unthunk

CACHE_VERSION = "1"
# -ffp-contract=off: the same rounding in the vector body and its scalar remainder (templates/cpu_math.h uses
# explicit fma where it wants one); never -ffast-math (the exp rounding trick and NaN/inf handling need IEEE)
FLAGS = ("-std=c++17", "-O3", "-march=native", "-fopenmp", "-fno-math-errno", "-ffp-contract=off", "-fPIC", "-shared")
# the same kernels compiled for a check of what they compute (derive.verification.native): -O0 compiles the shipped
# library's 1 MB of C++ in ~8 s of CPU where -O3 takes ~60 s, and without -ffast-math every optimisation level
# rounds the same operations the same way (IEEE, no contraction); the runtime's own build is always FLAGS
CHECK_FLAGS = tuple("-O0" if f == "-O3" else f for f in FLAGS)
MIN_ELEMENTS = 4096          # below this many input elements an op runs through NumPy (call overhead dominates)

_LOCK = threading.Lock()
_MODULES: dict = {}          # (module name, source, manifest) -> _Module
_LIBS: dict = {}             # sha key -> _Kernels
_STATS = {"compiles": [], "cache_hits": 0}
_PROBE: list = []            # [(ok, why)] once probed


def compiler():
    cxx = os.environ.get("CXX")
    if cxx:
        return shutil.which(cxx)
    return shutil.which("g++") or shutil.which("c++")


def mode():
    """"off", "auto" (large enough calls) or "always" (every call the plan covers), from TENSOR_RULES_NATIVE."""
    v = os.environ.get("TENSOR_RULES_NATIVE", "").strip().lower()
    if v in ("0", "off", "no", "false"):
        return "off"
    if v in ("1", "always", "on", "yes", "true"):
        return "always"
    return "auto"


def available():
    """(True, "") when native kernels can be compiled and run here, else (False, the reason)."""
    if mode() == "off":
        return False, "TENSOR_RULES_NATIVE=0 turns the native CPU kernels off"
    if not _PROBE:
        _PROBE.append(_probe())
    return _PROBE[0]


_PROBE_SOURCE = """#include <omp.h>
extern "C" int tr_probe() { return omp_get_max_threads(); }
extern "C" void tr_omp_threads(int n) { omp_set_num_threads(n); }
"""
_OMP: list = []              # the probe library once built: OpenMP's controls from Python
_RAN: list = []              # [True] once a kernel ran here (and may have started OpenMP's thread team)


def _after_fork_in_child():
    """A process forked after OpenMP ran (multiprocessing's default on Linux) must not start an OpenMP team from the
    forking thread: its worker threads did not survive the fork and libgomp waits for them forever. The child's
    kernels run on one thread (from that thread; threads the child starts get fresh teams), and a lock another
    thread held at the fork is not inherited held."""
    global _LOCK
    _LOCK = threading.Lock()
    if _OMP and _RAN:     # a process that only loaded OpenMP (never ran a kernel) started no team: nothing to lose
        _OMP[0].lib.tr_omp_threads(1)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def _probe():
    if sys.platform == "win32":
        return False, "native CPU kernels are built with a Unix C++ compiler; not on Windows"
    cxx = compiler()
    if cxx is None:
        return False, "no C++ compiler (g++ or c++, or $CXX) on PATH"
    try:
        _OMP.append(load_library(_PROBE_SOURCE))
    except Exception as exc:  # noqa: BLE001 - any failure means "not here", with the reason
        return False, f"{cxx} cannot build an OpenMP shared library: {str(exc).strip().splitlines()[-1][:300]}"
    return True, ""


def stats():
    """Compiles this process did (seconds each) and cache hits."""
    return {"compiles": list(_STATS["compiles"]), "cache_hits": _STATS["cache_hits"]}


# ------------------------------------------------------------------------------------------------ compile cache
def cpu_id():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return hashlib.sha256(line.encode()).hexdigest()[:16]
    except OSError:
        pass
    return platform.processor() or platform.machine()


def cache_key(source: str, flags=FLAGS) -> str:
    cxx = compiler() or ""
    try:
        version = subprocess.run([cxx, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        version = ""
    h = hashlib.sha256()
    for part in (CACHE_VERSION, cxx, version, " ".join(flags), platform.machine(), cpu_id(), source):
        h.update(part.encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.hexdigest()


def _build(source: str, flags=FLAGS) -> bytes:
    cxx = compiler()
    with tempfile.TemporaryDirectory(prefix="tensor-rules-native-") as d:
        src, lib = Path(d) / "k.cpp", Path(d) / "k.so"
        src.write_text(source)
        t0 = time.perf_counter()
        res = subprocess.run([cxx, *flags, str(src), "-o", str(lib)], capture_output=True, text=True)
        _STATS["compiles"].append(round(time.perf_counter() - t0, 3))
        if res.returncode != 0:
            raise RuntimeError(f"{cxx} failed on the native kernels:\n{res.stderr[-3000:]}")
        if not lib.is_file():
            raise RuntimeError(f"{cxx} exited 0 but wrote no shared library (is CXX a C++ compiler?)")
        return lib.read_bytes()


def load_library(source: str, flags=FLAGS, what: str = ""):
    """ctypes library for `source`: the cached build when its entry verifies, else compiled now and cached. The
    verified bytes are copied to a private file of ours and loaded from it (never a path another user could swap)."""

    key = cache_key(source, flags)
    # idle OpenMP threads sleep instead of spinning on the cores the next NumPy call needs (read by libgomp when
    # it first loads; a user's own setting wins)
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    with _LOCK:
        if key in _LIBS:
            return _LIBS[key]
        # `what` names a long build (seconds to a minute): said on stderr, and built once under a lock that other
        # processes wait on (trusted_cache.cached)
        blob, hit = trusted_cache.cached("native", f"{key}.so", key, lambda: _build(source, flags),
                                         "tensor-rules", what=what)
        _STATS["cache_hits"] += hit
        fd, path = tempfile.mkstemp(prefix="tensor-rules-", suffix=".so")   # O_EXCL, 0600
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(blob)
            lib = ctypes.CDLL(path)
        finally:
            os.unlink(path)
        _LIBS[key] = _Kernels(lib)
        return _LIBS[key]


class _Kernels:
    _C = {"p": ctypes.c_void_p, "i32": ctypes.c_int, "i64": ctypes.c_longlong, "f32": ctypes.c_float,
          "f64": ctypes.c_double}

    def __init__(self, lib):
        self.lib = lib
        self._fns: dict = {}

    def call(self, name, args):
        fn = self._fns.get(name)
        if fn is None:
            # a fresh function object (lib[name], not the attribute ctypes caches), published only once typed: another
            # thread must never call it with default argument conversion (a pointer truncated to a C int)
            fn = self.lib[name]
            fn.restype = None
            fn.argtypes = [self._C[k] for k, _ in args]
            self._fns[name] = fn
            _RAN[:] = [True]
        fn(*[v for _, v in args])


# ------------------------------------------------------------------------------------------------ the device
class CpuDevice:
    """runtime.cuda's device interface over NumPy arrays and the library compiled with `flags`."""

    sm_count = 1
    arch = "cpu"

    def __init__(self, flags=FLAGS):
        self.flags = tuple(flags)

    def is_array(self, x):
        return isinstance(x, np.ndarray)

    def empty(self, shape, dtype):
        return np.empty(tuple(shape), dtype)

    def zeros(self, shape, dtype):
        return np.zeros(tuple(shape), dtype)

    def fill_zero(self, a):
        a.fill(0)

    def asarray(self, x, dtype):
        # not np.ascontiguousarray: that makes a 0-d array 1-d (an elementwise op's result would come back (1,))
        return np.asarray(x, dtype=dtype, order="C")

    def to_host_scalar(self, a):
        return a.reshape(-1)[0]          # a NumPy scalar of the computation's dtype, as the NumPy code's np.sum gives

    def pointer(self, a):
        if a is None or a.size == 0:
            return None
        return a.ctypes.data

    def load(self, source):
        # the runtime's own build of a rule file's kernels is a long one; derive's -O0 check build is quick
        return load_library(source, self.flags, "the native CPU kernels of a rule file" if self.flags == FLAGS else "")

    def runner(self, mod, dtype, sizes):
        return CpuRunner(mod, self, dtype, sizes)


class CpuRunner(_plan.Runner):
    """The plan's steps on the CPU: map and reduce steps call their compiled kernel (which runs its own OpenMP
    loop), a contraction goes to NumPy's BLAS."""

    def args(self, step, live):
        """The step's parameters as on the GPU, except: a linear buffer read and absent (a zero tangent) is
        passed as zeros and an output nobody reads as scratch, never null (tr_ld and tr_store test nothing, so
        their loops vectorize), and a tensor read along an axis that is not its last as a copy with that axis
        last (derive.emission.cpp.CpuCtx)."""
        params = step["params"]
        out = self.param_buffers(params, live)
        read = step.get("read_classes", {})
        moved = step.get("moved", {})
        written = {name for kind, name in params if kind == "mode"}
        for k, (kind, name) in enumerate(params):
            if kind != "buf":
                continue
            a = None
            if name in written:
                if name not in live:
                    a = np.empty(max(1, self.size(step["write_classes"][name])), self.dtype)
            elif self.bufs.get(name) is None:
                a = np.zeros(max(1, self.size(read[name])), self.dtype)
            elif name in moved:
                a = np.ascontiguousarray(np.moveaxis(self.bufs[name].reshape(self._shape(read[name])),
                                                     moved[name], -1))
            if a is not None:
                self._keep.append(a)
                out[k] = ("p", a.ctypes.data)
        return out

    def _shape(self, classes):
        return tuple(self.sizes[c] for c in classes)

    def run(self, prog, env):
        self._keep = []          # the arrays passed by pointer: alive until the program has run
        return super().run(prog, env)

    def step_map(self, step):
        live = self.outputs(step)
        if not live:
            return
        if self.size(step["space"]):
            self.kernels.call(step["kernel"] + self.sfx, self.args(step, live))
        self.init |= set(live)

    def step_multi(self, step):
        for st in step["steps"]:
            self.step_reduce(st)

    def step_reduce(self, step, live=None):
        live = self.outputs(step) if live is None else live
        if not live:
            return
        nrows, nk = self.size(step["rows"]), self.size(step["red"])
        if "lane" in step and not self.sizes[step["lane"]] and len(step["outputs"]) > 1:
            # a lane kernel (rows grouped by all but the last row index) with no lanes still computes its companion
            # reduction, one value per group: passed the group count as its rows
            nrows = self.size(step["rows"][:-1])
        if nrows:
            # the last reduced index runs in the inner (simd) loop, the others in the outer one
            nki = self.sizes[step["red"][-1]] if step["red"] else 1
            nko = nk // nki if nki else 0
            args = self.args(step, live) + [("i64", nrows), ("i64", nko), ("i64", nki)]
            if "lane" in step:
                args.append(("i64", self.sizes[step["lane"]]))
            self.kernels.call(step["kernel"] + self.sfx, args)
        self.init |= set(live)

    def step_gemm(self, step):
        live = self.outputs(step)
        if not live:
            return
        (buf,) = live
        letters = iter("abcdefghijklmnopqrstuvwxyz")
        subs = {"a": [None] * len(step["a_classes"]), "b": [None] * len(step["b_classes"]),
                "c": [None] * len(step["c_classes"])}
        for g in "mnkz":
            for dim in step["groups"][g]:
                ch = next(letters)
                for role, pos in zip("abc", dim[1:]):
                    if pos is not None:
                        subs[role][pos] = ch
        spec = f"{''.join(subs['a'])},{''.join(subs['b'])}->{''.join(subs['c'])}"
        a, b = self.bufs[step["a"]], self.bufs[step["b"]]
        a = a.reshape(self._shape(step["a_classes"]))
        b = b.reshape(self._shape(step["b_classes"]))
        res = np.einsum(spec, a, b, optimize=True)
        alpha = step["alpha"]
        if step["alpha_buf"]:
            alpha = alpha * float(self.bufs[step["alpha_buf"]])
        if alpha != 1:
            res = res * alpha
        out = self.bufs[buf].reshape(res.shape)
        if live[buf]:
            out += res
        else:
            out[...] = res
        self.init.add(buf)

    def step_prim(self, step):
        raise AssertionError("native plans have no matrix-primitive steps (derive.emission.cpp leaves such ops out)")


DEVICE = CpuDevice()
CHECK_DEVICE = CpuDevice(CHECK_FLAGS)     # derive.verification.native's: the same kernels, compiled fast


# ------------------------------------------------------------------------------------------------ modules and calls
def attach(module, module_text: str, cpp: str, plan: str) -> bool:
    """Bind a CPU plan to a module that has no file of its own beside it (runtime.define's, loaded from its signed
    cache): `plan_for(module)` answers it. Only a plan made for exactly these texts is bound (the sha256 of the
    kernels and of the module that the plan records); the answer says whether it was."""
    try:
        manifest = json.loads(plan)
    except ValueError:
        return False
    if not _made_for(manifest, cpp, module_text):
        return False
    _ATTACHED[module] = (cpp, manifest)
    return True


_ATTACHED = weakref.WeakKeyDictionary()   # module -> (kernels source, manifest), see attach


def _files_for(module):
    """(source, manifest) of a generated module's native kernels: bound by attach, or cpu/<stem>.cpp beside the
    module's own file."""
    try:
        if module in _ATTACHED:
            return _ATTACHED[module]
    except TypeError:                   # not weakly referenceable
        pass
    mfile = getattr(module, "__file__", None)
    if not mfile:
        return None
    # named after the file's own stem (runtime.artefacts, as derive-rules names them): a module imported under
    # another name (importlib.util.spec_from_file_location) still finds the kernels derive-rules wrote beside it
    where = artefacts.paths(Path(mfile).stem)
    try:       # a directory we may not search (a cache refused for its mode) has no kernels either
        d = Path(mfile).resolve().parent
        cpp, js = d / where["cpu"], d / where["cpu_plan"]
        if not cpp.is_file() or not js.is_file():
            return None
        source, manifest, text = cpp.read_text(), json.loads(js.read_text()), Path(mfile).read_text()
    except (OSError, ValueError):
        return None
    # the plan runs only beside the very files it was generated with, and for the module as it was first seen
    # (its import asks for its plan; a reload re-executes it with new OPS): a plan left by an earlier generation
    # (derive-rules --out keeps files a new run no longer writes), kernels edited or copied from elsewhere, or files
    # regenerated after the module was imported would run other code than the module's own (a wrong answer); then
    # the NumPy code answers
    ops = id(getattr(module, "OPS", None))
    try:
        pin = _PINNED.get(module)
        if pin is None or pin[0] != ops:
            pin = _PINNED[module] = (ops, artefacts.text_sha256(text))
    except TypeError:                   # not weakly referenceable: only the files' agreement
        pin = (ops, artefacts.text_sha256(text))
    if not _made_for(manifest, source, text) or pin[1] != artefacts.text_sha256(text):
        return None
    return source, manifest


def _made_for(manifest, cpp: str, module_text: str) -> bool:
    """Whether a plan records exactly these kernels and this module (the sha256 of each, written by derive)."""
    return (isinstance(manifest, dict) and manifest.get("cpp_sha256") == artefacts.text_sha256(cpp)
            and manifest.get("module_sha256") == artefacts.text_sha256(module_text))


_PINNED = weakref.WeakKeyDictionary()   # module -> (id of its OPS, sha256 of its file) when first seen


def plan_for(module):
    """The native plan of a generated module (None when it has none), loaded once."""
    name = module.__name__
    files = _files_for(module)
    if files is None:
        return None
    # keyed by the files' text too: a module regenerated and reloaded (importlib.reload) never runs the old kernels
    key = (name, files[0], json.dumps(files[1], sort_keys=True))
    if key not in _MODULES:
        _MODULES[key] = _plan.Module(name, files[0], files[1])
    return _MODULES[key]


def covers(entry, args):
    """Whether the plan can run these arguments as the NumPy code would: declared ranks (no extra leading axes),
    no broadcasting between an elementwise op's tensors, float32/float64 arrays or Python numbers."""
    shape = None
    for spec, a in zip(entry["inputs"], args):
        if isinstance(a, np.generic):       # a NumPy scalar (np.float32(2.0)) is the 0-d array it holds
            a = np.asarray(a)
        if isinstance(a, np.ndarray):
            if a.dtype.kind not in "f" or a.dtype.itemsize not in (4, 8):
                return False
            if spec["kind"] != "tensor":
                if a.ndim != 0:
                    return False
                continue
            if entry.get("elementwise"):
                if shape is not None and a.shape != shape:
                    return False
                shape = a.shape
            elif a.ndim != len(spec["classes"]):
                return False
        elif isinstance(a, (float, int)) and not isinstance(a, bool):
            if spec["kind"] == "tensor":       # a number where a tensor goes: NumPy broadcasts it, the plan not
                return False
        else:
            return False
    return True


_BROKEN: dict = {}           # _Module -> why its kernels cannot be built or loaded here


def ready(mod):
    """Whether the module's kernels are built and loaded (once). When they cannot be (the compiler fails on them),
    its ops run through the NumPy code from then on, after one warning with the compiler's words; with
    TENSOR_RULES_NATIVE=1 (native asked for) every call raises that error instead."""
    why = _BROKEN.get(mod)
    if why is None:
        try:
            mod.kernels(DEVICE)
            return True
        except Exception as exc:  # noqa: BLE001 - any failure: the NumPy code still answers
            why = _BROKEN[mod] = f"native CPU kernels of {mod.name} could not be built: {exc}"
            import warnings
            warnings.warn(why + "\n(the NumPy code runs instead; TENSOR_RULES_NATIVE=0 silences this)",
                          RuntimeWarning, stacklevel=4)
    if mode() == "always":
        raise RuntimeError(why)
    return False


def worth(args):
    """Large enough to gain from native kernels (or TENSOR_RULES_NATIVE=1), and they can run here."""
    m = mode()
    if m == "off":
        return False
    if m != "always" and sum(a.size for a in args if isinstance(a, np.ndarray)) < MIN_ELEMENTS:
        return False
    return available()[0]


def call(mod, op_name, kind, args, device=DEVICE):
    """Run op `op_name` ("forward", "frule" or "rrule") through the native plan of `mod`; an rrule's pullback
    gives each cotangent as a Thunk that runs only the steps it needs."""
    if kind == "rrule":
        return _plan.run_rrule(mod, op_name, mod.op(op_name), args, device, lazy=True)
    return _plan.call(mod, op_name, kind, args, device)


def wrap(module, plain: dict) -> dict:
    """`plain` (name -> NumPy function, as runtime.registry builds it) with the ops of the module's native plan
    running natively when available and worth it, and through NumPy otherwise."""
    if mode() == "off":
        return plain
    mod = plan_for(module)
    if mod is None:
        return plain
    out = dict(plain)
    for name, entry in mod.manifest["ops"].items():
        if name not in plain or not entry.get("worth"):     # kernels that do not beat NumPy (runtime.torch's)
            continue
        out[name] = _forward(mod, name, entry, plain[name])
        out[name + "_frule"] = _frule(mod, name, entry, plain[name + "_frule"])
        out[name + "_rrule"] = _rrule(mod, name, entry, plain[name + "_rrule"])
    return out


def _dtype_ok(vals):
    """One floating dtype among the arrays and NumPy scalars (NumPy would promote float32 with a float64 one), in
    the machine's byte order (the kernels read machine floats; a big-endian '>f8' array goes to the NumPy code)."""
    dts = {a.dtype for a in vals if isinstance(a, (np.ndarray, np.generic))}
    return len(dts) <= 1 and all(dt.isnative for dt in dts)


def _np_like(v):
    """A result as the NumPy code returns it: a NumPy scalar where it has a 0-d array (its reductions and ufuncs on
    0-d inputs give scalars), tuples item by item."""
    if isinstance(v, tuple):
        return tuple(_np_like(x) for x in v)
    if isinstance(v, np.ndarray) and v.ndim == 0:
        return v[()]
    return v


def _cotangents_ok(dys, dtype):
    """Whether the plan may pull `dy` back in `dtype`: each cotangent zero, a Python number, or an array or NumPy
    scalar of that dtype. Anything else (a float64 cotangent on float32 primals, which NumPy promotes; a list)
    goes to the NumPy pullback, so the result (or the error) is the NumPy code's."""

    for g in dys:
        g = unthunk(g)
        if is_zero(g) or (isinstance(g, (float, int)) and not isinstance(g, (bool, np.generic))):
            continue
        if not isinstance(g, (np.ndarray, np.generic)) or g.dtype != dtype:
            return False
    return True


def _computation_dtype(args):
    for a in args:
        if isinstance(a, (np.ndarray, np.generic)):
            return a.dtype
    return np.dtype(np.float64)


def _forward(mod, name, entry, fallback):
    def forward(*args):
        if covers(entry, args) and _dtype_ok(args) and worth(args) and ready(mod):
            return _np_like(call(mod, name, "forward", args))
        return fallback(*args)
    forward.__name__ = name
    return forward


def _frule(mod, name, entry, fallback):

    def frule(tangents, *args):
        ts = [t for t in tangents[1:] if not is_zero(t)]
        if (covers(entry, args) and _dtype_ok(list(args) + ts) and worth(args) and ready(mod)
                and all(isinstance(t, np.ndarray) and t.shape == np.shape(a) or isinstance(t, float) and np.ndim(a) == 0
                        for t, a in zip(tangents[1:], args) if not is_zero(t))):
            return _np_like(call(mod, name, "frule", (tangents,) + args))
        return fallback(tangents, *args)
    frule.__name__ = name + "_frule"
    return frule


def _rrule(mod, name, entry, fallback):

    specs = entry["inputs"]
    # as derive.emission.numpy_module's pullbacks: with more than one differentiable input each gradient is a Thunk (computed when
    # first read: here the one native pass for all of them), one the rule has no terms for a ZeroTangent
    lazy = sum(p["kind"] != "int" for p in specs) > 1
    multi = len(entry["outputs"]) > 1

    def rrule(*args):
        if not (covers(entry, args) and _dtype_ok(args) and worth(args) and ready(mod)):
            return fallback(*args)
        y, pull = call(mod, name, "rrule", args)
        dtype = _computation_dtype(args)

        def fix(k, v):
            v = unthunk(v)
            if isinstance(v, np.ndarray) and (specs[k - 1]["kind"] == "scalar" or v.ndim == 0):
                return v.reshape(-1)[0]
            return v

        def pullback(dy):
            dys = tuple(dy) if multi and isinstance(dy, (tuple, list)) else (dy,)
            if not _cotangents_ok(dys, dtype):
                return fallback(*args)[1](dy)
            out = pull(dy)        # a Thunk per cotangent, each running only the steps it needs (runtime.cuda)
            if not lazy or all(is_zero(unthunk(g)) for g in dys):
                return (out[0],) + tuple(fix(k, v) for k, v in enumerate(out[1:], 1))
            return (out[0],) + tuple(Thunk(lambda k=k, v=v: fix(k, v)) if isinstance(v, Thunk) else v
                                     for k, v in enumerate(out[1:], 1))
        return _np_like(y), pullback
    rrule.__name__ = name + "_rrule"
    return rrule
