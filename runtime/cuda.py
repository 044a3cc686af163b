"""GPU execution of generated ops: generated/cuda/<module>.cu compiled through PyCUDA, its launch plan run on GPUArrays.

Compiled cubins are cached on disk by sha256(source, arch, options), signed and owner-only (runtime.trusted_cache). PyCUDA is imported lazily; without it (or
without a GPU) `available()` says why and every entry point raises RuntimeError with that reason.
"""
from __future__ import annotations

import hashlib
import json
import math
import shutil
import sys
from pathlib import Path

import numpy as np

from runtime import artefacts, trusted_cache
from runtime.tangents import NoTangent, Thunk, ZeroTangent, is_zero, unthunk

CACHE_VERSION = "1"
GENERATED = Path(__file__).resolve().parent.parent / "generated" / "cuda"
OPTIONS = ("-O3",)
BLOCK = 256
SMEM_BUDGET = 48 * 1024           # bytes of dynamic shared memory a launch may ask for without opting in
GEMM_MIN = 64                     # below this many rows or columns a contraction runs as a plain reduction

_MODULES: dict = {}               # (module name, id of the module object) -> Module
_REGISTERED: dict = {}            # module name -> {"cu": text, "json": text} (rules generated at run time)
_DEVICE = None


# --------------------------------------------------------------------------------------------------- availability
def available():
    """(True, "") when PyCUDA, a GPU and nvcc are usable here, else (False, the reason)."""
    try:
        import pycuda.driver as drv
    except Exception as exc:  # ImportError, or a broken install
        return False, f"PyCUDA is not importable ({type(exc).__name__}: {exc})"
    try:
        drv.init()
        if drv.Device.count() == 0:
            return False, "PyCUDA found no CUDA device"
    except Exception as exc:
        return False, f"the CUDA driver is unusable ({type(exc).__name__}: {exc})"
    if not _nvcc():
        return False, "nvcc (needed to compile the kernels) is not on PATH"
    return True, ""


def _nvcc():
    return shutil.which("nvcc")


def _require():
    ok, why = available()
    if not ok:
        raise RuntimeError(f"CUDA backend unavailable: {why}")


# --------------------------------------------------------------------------------------------------- compile cache
def cache_key(source: str, arch: str, options=OPTIONS) -> str:
    h = hashlib.sha256()
    for part in (CACHE_VERSION, arch, " ".join(options), source):
        h.update(part.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()


def compile_cubin(source: str, arch: str, options=OPTIONS) -> bytes:
    """The cubin for `source`: from the disk cache when its entry verifies, else compiled by PyCUDA's nvcc driver
    and cached. The cache is runtime.trusted_cache's (owner-only, every entry signed): a cubin runs on the GPU, so
    a planted or corrupted one is discarded and recompiled, never loaded."""

    key = cache_key(source, arch, options)

    def build():
        from pycuda.compiler import compile as nvcc_compile

        return nvcc_compile(source, no_extern_c=True, arch=arch, options=list(options), cache_dir=False)

    return trusted_cache.cached("cuda", f"{key}.cubin", key, build, "tensor-rules cuda")[0]


# --------------------------------------------------------------------------------------------------- devices
class PyCudaDevice:
    """Arrays are pycuda GPUArrays; kernels come from one compiled module per source text."""

    def __init__(self):
        import pycuda.driver as drv
        from pycuda import gpuarray

        if drv.Context.get_current() is None:
            import pycuda.autoinit  # noqa: F401  (creates and cleans up a context on device 0)
        self.drv, self.gpuarray = drv, gpuarray
        dev = drv.Context.get_device()
        major, minor = dev.compute_capability()
        self.arch = f"sm_{major}{minor}"
        self.sm_count = dev.get_attribute(drv.device_attribute.MULTIPROCESSOR_COUNT)
        self._modules: dict = {}

    # arrays
    def is_array(self, x):
        return hasattr(x, "gpudata")

    def empty(self, shape, dtype):
        return self.gpuarray.empty(tuple(shape), dtype)

    def zeros(self, shape, dtype):
        return self.gpuarray.zeros(tuple(shape), dtype)

    def fill_zero(self, a):
        a.fill(0)

    def asarray(self, x, dtype):
        if self.is_array(x):
            if x.dtype != dtype:
                x = x.astype(dtype)
            if not x.flags.c_contiguous:
                raise ValueError("CUDA ops need C-contiguous GPU arrays")
            return x
        return self.gpuarray.to_gpu(np.ascontiguousarray(np.asarray(x, dtype=dtype)))

    def to_host_scalar(self, a):
        return float(a.get())

    def pointer(self, a):
        if a is None or a.size == 0:
            return np.uintp(0)
        return np.uintp(int(a.gpudata))      # a DeviceAllocation, or an int for a view

    # kernels
    def load(self, source):
        mod = self._modules.get(source)
        if mod is None:
            mod = self._modules[source] = self.drv.module_from_buffer(compile_cubin(source, self.arch))
        return _PyCudaKernels(mod)


class _PyCudaKernels:
    def __init__(self, mod):
        self.mod = mod
        self._fns: dict = {}

    def launch(self, name, grid, block, smem, args):
        fn = self._fns.get(name)
        if fn is None:
            fn = self._fns[name] = self.mod.get_function(name)
        vals = []
        for kind, v in args:
            if kind == "p":
                vals.append(v)
            elif kind == "i32":
                vals.append(np.int32(v))
            elif kind == "i64":
                vals.append(np.int64(v))
            else:                              # "f32" / "f64"
                vals.append(np.float32(v) if kind == "f32" else np.float64(v))
        fn(*vals, block=tuple(block), grid=tuple(grid), shared=int(smem))


def device():
    global _DEVICE
    if _DEVICE is None:
        _require()
        _DEVICE = PyCudaDevice()
    return _DEVICE


# --------------------------------------------------------------------------------------------------- modules
def register(module_name: str, files: dict):
    """Use these generated files (as returned by derive.emission.cuda.generate_cuda) for `module_name`."""
    cu = next(v for k, v in files.items() if k.endswith(".cu"))
    js = next(v for k, v in files.items() if k.endswith(".json"))
    _REGISTERED[module_name] = {"cu": cu, "json": js}
    for key in [k for k in _MODULES if k[0] == module_name]:
        del _MODULES[key]


def _files_for(module_name):
    """(source, manifest) of a module's CUDA kernels: registered (runtime.define), else cuda/<stem>.cu and its plan
    beside the module's own file (named by runtime.artefacts, as derive-rules writes them: a module of a user's
    --out directory finds its own kernels, never the shipped ones of a module that has its name), and only when
    the plan records exactly those kernels and that module (a plan left by an earlier generation never runs)."""
    if module_name in _REGISTERED:
        f = _REGISTERED[module_name]
        return f["cu"], json.loads(f["json"])
    mfile = getattr(sys.modules.get(module_name), "__file__", None)
    shipped = module_name.split(".")
    if mfile:
        mpath = Path(mfile)
    elif len(shipped) == 2 and shipped[0] == "generated" and shipped[1].isidentifier():
        mpath = GENERATED.parent / f"{shipped[1]}.py"        # a shipped module not imported yet
    else:
        raise RuntimeError(f"no CUDA kernels for module {module_name!r}: it is not an imported module with a file "
                           f"(derive-rules writes its kernels beside the module)")
    where = artefacts.paths(mpath.stem)
    base = mpath.resolve().parent
    cu, js = base / where["cuda"], base / where["cuda_plan"]
    try:
        source, manifest, module_text = cu.read_text(), json.loads(js.read_text()), mpath.read_text()
    except (OSError, ValueError):
        raise RuntimeError(f"no CUDA kernels for module {module_name!r}: expected {cu} and {js} beside "
                           f"{mpath} (run derive-rules on its rule file)") from None
    if not (isinstance(manifest, dict) and isinstance(manifest.get("ops"), dict)
            and manifest.get("cu_sha256") == artefacts.text_sha256(source)
            and manifest.get("module_sha256") == artefacts.text_sha256(module_text)):
        raise RuntimeError(f"the CUDA kernels {cu} were not generated with {mpath} (a file from an earlier "
                           f"generation, or edited): run derive-rules on its rule file again")
    return source, manifest


class Module:
    """One generated module: its manifest and, per device, its compiled kernels."""

    def __init__(self, name, source, manifest):
        self.name, self.source, self.manifest = name, source, manifest
        self._kernels: dict = {}

    def kernels(self, dev):
        k = self._kernels.get(id(dev))
        if k is None:
            k = self._kernels[id(dev)] = dev.load(self.source)
        return k

    def op(self, opname):
        ops = self.manifest["ops"]
        if opname not in ops:
            why = self.manifest.get("unsupported", {}).get(opname)
            if why:
                raise RuntimeError(f"{opname}: no CUDA kernels were generated ({why})")
            raise RuntimeError(f"{opname}: module {self.name!r} has no CUDA op of that name")
        return ops[opname]


def load_module(module_name) -> Module:
    if not isinstance(module_name, str):
        raise TypeError(f"runtime.cuda.load_module: a module name (str), got {type(module_name).__name__}")
    # keyed by the module object too: another module imported later under the same name has kernels of its own
    key = (module_name, id(sys.modules.get(module_name)))
    mod = _MODULES.get(key)
    if mod is None:
        source, manifest = _files_for(module_name)
        mod = _MODULES[key] = Module(module_name, source, manifest)
    return mod


_SUFFIXES = {"_frule": "frule", "run_rrule": "rrule"}


def dispatch(module_name, op_name, kind, args=None):
    """Run op `op_name` of a generated module on GPU arrays. kind: "forward" (the op), "frule" (args are
    (tangents, *primals)) or "rrule" (returns (y, pullback), pullback giving GPU arrays). The registry's
    three-argument form dispatch(module, "<op>_frule", args) is accepted too."""
    if args is None:
        args, kind = kind, "forward"
        for sfx, k in _SUFFIXES.items():
            if op_name.endswith(sfx):
                op_name, kind = op_name[: -len(sfx)], k
    ok, why = available()
    if not ok:
        raise RuntimeError(f"{op_name}: got GPU arrays but the CUDA backend is unavailable: {why}")
    return call(load_module(module_name), op_name, kind, args, device())


# --------------------------------------------------------------------------------------------------- the ops
def call(mod: Module, op_name, kind, args, dev):
    entry = mod.op(op_name)
    if kind == "forward":
        return _forward(mod, op_name, entry, args, dev)
    if kind == "frule":
        return _frule(mod, op_name, entry, args, dev)
    if kind == "rrule":
        return run_rrule(mod, op_name, entry, args, dev)
    raise ValueError(f"{op_name}: unknown kind {kind!r} (forward, frule or rrule)")


def _runner(mod, dev, dtype, sizes):
    # a device may run the plan its own way (runtime.native's CPU steps)
    make = getattr(dev, "runner", None)
    return make(mod, dtype, sizes) if make else Runner(mod, dev, dtype, sizes)


def _dtype(op_name, args, dev):
    dts = {np.dtype(a.dtype) for a in args if dev.is_array(a) or isinstance(a, np.ndarray)}
    dts = {d for d in dts if d.kind == "f"}
    if len(dts) > 1:
        raise TypeError(f"{op_name}: mixed dtypes {sorted(map(str, dts))}; pass float32 or float64 arrays throughout")
    dt = dts.pop() if dts else np.dtype(np.float64)
    if dt not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise TypeError(f"{op_name}: CUDA kernels exist for float32 and float64, not {dt}")
    return dt


def _bind_inputs(entry, args, dtype, dev, op_name):
    if len(args) != len(entry["inputs"]):
        raise TypeError(f"{op_name}: expected {len(entry['inputs'])} arguments, got {len(args)}")
    env = {}
    shape = None
    for spec, a in zip(entry["inputs"], args):
        a = dev.asarray(a, dtype)
        if entry.get("elementwise") and spec["kind"] == "tensor":
            shape = a.shape if shape is None else shape
            a = a.reshape(-1)
        env[spec["name"]] = a
    sizes = {}
    for cls, (name, axis) in entry["extents"].items():
        sizes[cls] = int(env[name].shape[axis])
    if "derived_extents" in entry:
        _shifted_extents(entry, sizes, op_name)
    return env, sizes, shape


def _shifted_extents(entry, sizes, op_name):
    """The extent of each index read only at shifted positions (x[i+k]): the largest for which every read
    stays inside its tensor, as the NumPy code computes it (derive.lowering.shifts); reads past an end are refused."""
    def need(terms, const, skip=None):
        return sum(c * (sizes[k] - 1) for c, k in terms if k != skip) + const + 1

    for cls, reaches in entry["derived_extents"].items():
        vals = []
        for axis, terms, const in reaches:
            coef = next(c for c, k in terms if k == cls)
            vals.append((sizes[axis] - need(terms, const, cls)) // coef + 1)
        sizes[cls] = min(vals)
        if sizes[cls] < 1:
            raise ValueError(f"{op_name}: index {cls!r} has no valid position (shifted subscripts read inside "
                             f"their tensors only; pad the input, e.g. with np.pad)")
    for axis, terms, const, what in entry.get("extent_checks", []):
        if need(terms, const) > sizes[axis]:
            raise ValueError(f"{op_name}: {what} needs extent {need(terms, const)} along that axis, which has "
                             f"{sizes[axis]} (pad the input, e.g. with np.pad)")


def _shaped(a, shape):
    """An elementwise op's result (or cotangent) in the shape of its arguments."""
    if shape is None or a is None or is_zero(a):
        return a
    return a.reshape(shape)


def _forward(mod, op_name, entry, args, dev):
    dtype = _dtype(op_name, args, dev)
    env, sizes, shape = _bind_inputs(entry, args, dtype, dev, op_name)
    prog = entry["programs"]["forward"]
    bufs = _runner(mod, dev, dtype, sizes).run(prog, env)
    ys = [_shaped(bufs[n], shape) for n in prog["results"]]
    return ys[0] if len(ys) == 1 else tuple(ys)


def _frule(mod, op_name, entry, args, dev):
    tangents, primals = args[0], args[1:]
    if len(tangents) != len(primals) + 1:
        raise TypeError(f"{op_name}_frule: expected {len(primals) + 1} tangents (d_self first), got {len(tangents)}")
    dtype = _dtype(op_name, list(primals) + [unthunk(t) for t in tangents[1:]], dev)
    env, sizes, shape = _bind_inputs(entry, primals, dtype, dev, op_name)
    for spec, t in zip(entry["inputs"], tangents[1:]):
        t = unthunk(t)
        if spec["kind"] == "int" or is_zero(t):
            continue
        t = dev.asarray(t, dtype)
        env["d:" + spec["name"]] = t.reshape(-1) if shape is not None and spec["kind"] == "tensor" else t
    prog = entry["programs"]["frule"]
    bufs = _runner(mod, dev, dtype, sizes).run(prog, env)
    outs = [o["name"] for o in entry["outputs"]]
    ys = [_shaped(bufs[n], shape) for n in outs]
    dys = [_shaped(bufs["d:" + n], shape) if bufs.get("d:" + n) is not None else ZeroTangent() for n in outs]
    if len(outs) == 1:
        return ys[0], dys[0]
    return tuple(ys), tuple(dys)


def _subprogram(prog, result):
    """The steps of `prog` that `result` needs (its writers and, transitively, theirs)."""
    need, keep = {result}, []
    for step in reversed(prog["steps"]):
        if any(o["buf"] in need for o in step["outputs"]):
            keep.append(step)
            need |= set(step["reads"])
    return dict(prog, steps=keep[::-1], results=[result])


def run_rrule(mod, op_name, entry, args, dev, lazy=False):
    dtype = _dtype(op_name, args, dev)
    env, sizes, shape = _bind_inputs(entry, args, dtype, dev, op_name)
    fwd, pull = entry["programs"]["rrule"], entry["programs"]["pullback"]
    bufs = _runner(mod, dev, dtype, sizes).run(fwd, env)
    saved = {n: bufs[n] for n in fwd.get("saves", [])}
    outs = [o["name"] for o in entry["outputs"]]
    ys = [_shaped(bufs[n], shape) for n in outs]
    was_array = [dev.is_array(a) for a in args]
    del bufs

    def pullback(dy):
        dys = [dy] if len(outs) == 1 else list(dy)
        if len(dys) != len(outs):
            raise ValueError(f"{op_name}_pullback: expected {len(outs)} cotangents, got {len(dys)}")
        dys = [unthunk(g) for g in dys]
        zeros = tuple(NoTangent() if s["kind"] == "int" else ZeroTangent() for s in entry["inputs"])
        if all(is_zero(g) for g in dys):
            return (NoTangent(),) + zeros
        penv = dict(saved)
        for name, g, arg in zip(outs, dys, pull["args"][len(pull["args"]) - len(outs):]):
            if not is_zero(g):
                g = dev.asarray(g, dtype)
                penv[arg] = g.reshape(-1) if shape is not None else g
        def result(g, spec, arr):
            if g is None:
                return ZeroTangent()
            if spec["kind"] == "scalar" and not arr:
                return dev.to_host_scalar(g)
            return _shaped(g, shape) if spec["kind"] == "tensor" else g

        if lazy:
            return _lazy_cotangents(lambda sub, env: _runner(mod, dev, dtype, sizes).run(sub, env), entry, pull,
                                    penv, was_array, result)
        res = _runner(mod, dev, dtype, sizes).run(pull, penv)
        out = [NoTangent()]
        for spec, arr in zip(entry["inputs"], was_array):
            out.append(NoTangent() if spec["kind"] == "int" else result(res.get("b:" + spec["name"]), spec, arr))
        return tuple(out)

    return (ys[0] if len(ys) == 1 else tuple(ys)), pullback


def _lazy_cotangents(run_program, entry, pull, penv, was_array, result):
    """(NoTangent(), cotangent thunks...): each runs only the pullback steps its cotangent needs (the NumPy code's
    pullbacks are lazy too); a step that writes two cotangents fills both on the way."""
    done: dict = {}

    def thunk(spec, arr):
        name = "b:" + spec["name"]

        def run():
            if name not in done:
                sub = _subprogram(pull, name)
                bufs = run_program(sub, dict(penv))
                kept = {id(st) for st in sub["steps"]}
                # a cotangent is complete when every step adding to it ran (not only the shared one)
                for k, v in bufs.items():
                    if k.startswith("b:") and k not in penv and all(
                            id(st) in kept for st in pull["steps"] if any(o["buf"] == k for o in st["outputs"])):
                        done[k] = v
                done.setdefault(name, bufs.get(name))
            return result(done.get(name), spec, arr)
        return Thunk(run)

    writes = {o["buf"] for st in pull["steps"] for o in st["outputs"]}
    return (NoTangent(),) + tuple(
        NoTangent() if spec["kind"] == "int" else
        thunk(spec, arr) if "b:" + spec["name"] in writes else ZeroTangent()
        for spec, arr in zip(entry["inputs"], was_array))


# --------------------------------------------------------------------------------------------------- the launch plan
class Runner:
    """Runs one program of a manifest: buffers by name, None standing for a zero (co)tangent."""

    def __init__(self, mod, dev, dtype, sizes):
        self.mod, self.dev, self.dtype, self.sizes = mod, dev, np.dtype(dtype), sizes
        self.sfx = "_f32" if self.dtype == np.float32 else "_f64"
        self.tkind = self.sfx[1:]
        self.kernels = mod.kernels(dev)

    def size(self, classes):
        return math.prod(self.sizes[c] for c in classes)

    def shape(self, buf):
        return tuple(self.sizes[c] for c in self.prog["buffers"][buf])

    def run(self, prog, env):
        self.prog = prog
        self.bufs = {k: v for k, v in env.items() if v is not None}
        self.init = set(self.bufs)
        for step in prog["steps"]:
            getattr(self, "step_" + step["class"])(step)
        return self.bufs

    # -- shared --------------------------------------------------------------------------------------------
    def outputs(self, step):
        """{buffer: mode-to-be} for the outputs this step must compute (a zero one is skipped)."""
        live = {}
        for o in step["outputs"]:
            atoms = o["atoms"]
            if atoms is not None and not any(self.bufs.get(a) is not None for a in atoms):
                continue
            b = o["buf"]
            if b not in self.bufs:
                self.bufs[b] = self.dev.empty(self.shape(b), self.dtype)
            live[b] = 1 if b in self.init else 0
        return live

    def param_buffers(self, params, live):
        """Pointers for the step's buffers: written ones only when live, read ones when present (else null)."""
        written = {name for kind, name in params if kind == "mode"}
        out = []
        for kind, name in params:
            if kind == "buf":
                if name in written:
                    out.append(("p", self.dev.pointer(self.bufs[name]) if name in live else self.dev.pointer(None)))
                else:
                    out.append(("p", self.dev.pointer(self.bufs.get(name))))
            elif kind == "mode":
                out.append(("i32", live.get(name, 0)))
            elif kind == "ext":
                out.append(("i64", self.sizes[name]))
            else:
                raise ValueError(f"unknown parameter kind {kind!r}")
        return out

    def launch(self, kernel, grid, smem, args, block=BLOCK):
        self.kernels.launch(kernel + self.sfx, grid, (block, 1, 1), smem, args)

    # -- classes -------------------------------------------------------------------------------------------
    def step_map(self, step):
        live = self.outputs(step)
        if not live:
            return
        total = self.size(step["space"])
        if total:
            blocks = max(1, min(-(-total // BLOCK), 32 * self.dev.sm_count))
            self.launch(step["kernel"], (blocks, 1, 1), 0, self.param_buffers(step["params"], live))
        self.init |= set(live)

    def step_reduce(self, step, live=None):
        live = self.outputs(step) if live is None else live
        if not live:
            return
        (buf,) = live
        nrows, nk = self.size(step["rows"]), self.size(step["red"])
        if nrows == 0:
            self.init.add(buf)
            return
        variants = step["variants"]
        v = step["prefer"] if step["prefer"] in variants else next(iter(variants))
        if len(variants) == 2:
            if nrows < BLOCK:
                v = "warp"
            elif nk < 32:
                v = "rows"
        sm = self.dev.sm_count
        item = self.dtype.itemsize
        extra = []
        if v == "rows":
            blocks = -(-nrows // BLOCK)
            tile, mask = self.stage_plan(step.get("stage", []), item)
            per = sum(self.size(c) for b, c in enumerate(step.get("stage", [])) if mask >> b & 1)
            smem = tile * per * item
            nsplit = 1
            if blocks < 2 * sm and nk > 4 * tile:
                nsplit = min(-(-2 * sm // blocks), -(-nk // (2 * tile)), 65535)
            chunk = -(-nk // nsplit)
            chunk = -(-chunk // tile) * tile
            nsplit = max(1, -(-nk // chunk)) if nk else 1
            grid = (blocks, nsplit, 1)
            extra = [("i64", nrows), ("i64", nk), ("i64", max(chunk, 1)), ("i32", tile), ("i32", mask)]
        else:
            warps = BLOCK // 32
            # few rows and a long reduction: all warps of a block share a row, and blocks split the reduction
            wpr = warps if nrows * 32 < 4 * sm * BLOCK and nk > 32 * warps else 1
            blocks = -(-nrows // (warps // wpr))
            smem = 0
            nsplit = 1
            if blocks < 2 * sm and nk > 32 * wpr * 8:
                nsplit = min(-(-4 * sm // blocks), -(-nk // (32 * wpr * 8)), 65535)
            chunk = max(1, -(-nk // nsplit))
            nsplit = max(1, -(-nk // chunk)) if nk else 1
            grid = (blocks, nsplit, 1)
            extra = [("i64", nrows), ("i64", nk), ("i64", chunk), ("i32", wpr)]
            nsplit *= wpr          # partial sums from several warps: accumulate atomically
        modes = dict(live)
        if nsplit > 1:
            if modes[buf] == 0:
                self.dev.fill_zero(self.bufs[buf])
            modes[buf] = 2
        args = self.param_buffers(variants[v]["params"], modes)
        self.launch(variants[v]["kernel"], grid, smem, args + extra)
        self.init.add(buf)

    def stage_plan(self, stage, item):
        """(tile, bit mask) of the tensors staged in shared memory: the largest tile that fits the budget."""
        per = [self.size(c) for c in stage]
        budget = SMEM_BUDGET // item
        order = sorted(range(len(per)), key=lambda b: (per[b], b))
        for tile in (BLOCK, 128, 64, 32):
            mask, used = 0, 0
            for b in order:
                if (used + per[b]) * tile <= budget:
                    mask |= 1 << b
                    used += per[b]
            if mask == (1 << len(per)) - 1 or tile == 32:
                return tile, mask
        return BLOCK, 0

    def step_gemm(self, step):
        M, N, K, NB = (self.size([d[0] for d in step["groups"][g]]) for g in "mnkz")
        if min(M, N) < GEMM_MIN:
            return self.step_reduce(step["fallback"])
        live = self.outputs(step)
        if not live:
            return
        (buf,) = live
        if M and N and NB:
            A, B = step["a"], step["b"]
            classes = {"a": step["a_classes"], "b": step["b_classes"], "c": step["c_classes"]}
            slot = {"a": 1, "b": 2, "c": 3}
            desc = []
            for g, roles in (("m", "ac"), ("n", "bc"), ("k", "ab"), ("z", "abc")):
                dims = step["groups"][g]
                ext = [self.sizes[d[0]] for d in dims] + [1] * (3 - len(dims))
                desc += [("i64", ext[1]), ("i64", ext[2])]
                for role in roles:
                    strides = []
                    for d in dims:
                        p = d[slot[role]]
                        strides.append(0 if p is None else math.prod(self.sizes[c] for c in classes[role][p + 1:]))
                    desc += [("i64", x) for x in strides + [0] * (3 - len(strides))]
            alpha_buf = step["alpha_buf"]
            args = [("p", self.dev.pointer(self.bufs[A])), ("p", self.dev.pointer(self.bufs[B])),
                    ("p", self.dev.pointer(self.bufs[buf])), ("i32", live[buf]),
                    ("p", self.dev.pointer(self.bufs.get(alpha_buf) if alpha_buf else None)),
                    (self.tkind, step["alpha"]), ("i64", M), ("i64", N), ("i64", K), ("i64", NB),
                    ("i32", int(step["kfast_a"])), ("i32", int(step["kfast_b"]))] + desc
            grid = (-(-N // 128), -(-M // 128), min(NB, 65535))
            self.launch(step["kernel"], grid, 2 * 8 * 132 * self.dtype.itemsize, args)
        self.init.add(buf)

    def step_prim(self, step):
        """The generic matrix-primitive kernel: one block per batch element, its operands and the device
        function's workspace (a·n² + b·n·r + c·n + d, from the declaration) in shared memory, or in a global
        buffer where they do not fit."""
        live = self.outputs(step)
        if not live:
            return
        (buf,) = live
        n = self.sizes[step["n"]]
        NB = self.size(step["batch"])
        R = self.sizes[step["rhs"]] if step["rhs"] else 1
        a, b, c, d = step["ws"]
        per = sum(self.size(cl) for cl in step["operands"]) + a * n * n + b * n * R + c * n + d
        item = self.dtype.itemsize
        if NB:
            ws = None
            smem = per * item
            if smem > SMEM_BUDGET:
                ws = self.dev.empty((NB * per,), self.dtype)
                smem = 0
            block = 32 if n <= 8 else 64 if n <= 16 else 128 if n <= 32 else 256
            args = self.param_buffers(step["params"], live) + [("p", self.dev.pointer(ws))]
            self.launch(step["kernel"], (NB, 1, 1), smem, args, block=block)
        self.init.add(buf)
