"""Every derived rule as a PyTorch op: `import runtime.torch as rt; rt.inv(A)`, `rt.define(text)`, `rt.load(path)`.

Each op is a `torch.autograd.Function` whose code is the generated module's own `_define(runtime.backend_torch)`:
the rules over torch tensors, on whatever device the tensors live. Under torch.func transforms the op's
Function is written with `setup_context` (so grad/vjp/jvp/vmap compose); a plain eager call takes a ctx-style
twin of it with the same steps (cheaper to call); with no input requiring grad, or under no_grad, the generated
forward runs alone. The usual call (every argument a tensor with its rule's own axes) is one straight-line
function compiled per op (_compile_fast_op); any other call goes through the general one, and only a call with
leading (batch) axes pays for runtime.batching's wrapper.
- forward runs the generated rrule and keeps its pullback closure (exactly what the derivation keeps: the
  forward is not recomputed by a first-order backward);
- backward calls that pullback; Thunks are unthunked, ZeroTangent/NoTangent become None;
- higher order: a backward run with grad enabled (create_graph=True, gradgradcheck, torch.func.grad of grad)
  recomputes the rrule from the saved inputs with grad enabled, so torch records the pullback's own torch ops
  and differentiates them -- the same namespace mechanism that gives the NumPy runtime (runtime.tnp) its
  higher order. Only that path pays for a second forward;
- jvp (forward-mode AD) runs the generated frule (primal and pushforward fused, so it recomputes the primal).
vmap: `generate_vmap_rule=True`; see docs/frameworks.md for what works under torch.func.vmap.
Shape and arity errors are runtime.registry's (they name the op, the index and both extents).
"""
from __future__ import annotations

import builtins
import importlib.util
import os
import sys
import types

try:
    import torch
except ImportError:
    raise ImportError("runtime.torch needs PyTorch, which is not installed: pip install 'tensor-rules[torch]'") \
        from None

from runtime import backend_torch as _bt
from runtime import batching, native, registry, torch_native
from runtime.registry import arity_error, bind_arguments, make_checker, no_check
from runtime.registry import shipped as _shipped
from runtime.registry import signature_text
from runtime.rule_cache import define as _define
from runtime.rule_cache import load_module_file
from runtime.tangents import NoTangent, ZeroTangent, is_zero, unthunk

_NO, _ZERO = NoTangent(), ZeroTangent()
_JVP = torch._C._functorch.TransformType.Jvp
_saved_tensor_hooks = torch._C._autograd._top_saved_tensors_default_hooks
_fw_ad = torch.autograd.forward_ad
_state = _bt.state
_IMPLS: dict = {}     # (module name, its _define) -> _define(backend_torch)
_OPS: dict = {}       # (module name, op name) -> torch op


class _Pullback:
    """The pullback closure, carried out of forward as a non-tensor output (setup_context keeps it)."""

    __slots__ = ("pb",)

    def __init__(self, pb):
        self.pb = pb


def _impls(module_name, define):
    key = (module_name, define)
    out = _IMPLS.get(key)
    if out is None:
        out = _IMPLS[key] = define(_bt)
    return out


def _cotangent(c, arg):
    c = unthunk(c)
    if not isinstance(arg, torch.Tensor) or is_zero(c) or c is None:
        return None
    if not isinstance(c, torch.Tensor):
        c = torch.as_tensor(c, dtype=arg.dtype, device=arg.device)
    return c


def _own(y, args, n_out):
    """The op's outputs, each its own tensor: an output that is an input or another output (`y = x`) is returned
    as a copy (autograd refuses a Function output that is an input it also saves, and a caller modifying one
    output in place must not change another)."""
    if n_out == 1:        # the usual case, without building lists (this runs on every call)
        for a in args:
            if a is y:
                return y.clone() if isinstance(y, torch.Tensor) else y
        return y
    seen = [id(a) for a in args]
    outs = []
    for v in (y if n_out > 1 else (y,)):
        outs.append(v.clone() if isinstance(v, torch.Tensor) and id(v) in seen else v)
        seen.append(id(v))
    return tuple(outs) if n_out > 1 else outs[0]


class _Steps:
    """What both autograd.Functions of one op do (rrule/frule: its generated functions over backend_torch): run
    the rrule on the arguments' device, keep what backward needs, pull cotangents back, push tangents forward."""

    def __init__(self, name, rrule, frule, n_out):
        self.name, self.rrule, self.frule, self.n_out = name, rrule, frule, n_out

    def run(self, args):
        prev = _state.__dict__.get("device")
        _state.device = _bt.device_of(args)
        try:
            y, pb = self.rrule(*args)
        finally:
            _state.device = prev
        return _own(y, args, self.n_out), pb

    def keep(self, ctx, inputs, outputs, pb, forward_mode):
        # under saved-tensor hooks (activation checkpointing, save_on_cpu) the closure, which the hooks cannot
        # see, is not kept: backward recomputes it from the inputs the hooks saved, so they decide the memory
        ctx.pb = pb if _saved_tensor_hooks(False) is None else None
        if forward_mode or self.n_out > 1:
            # an output whose gradient is not asked for comes to backward as None, not as zeros torch would
            # build; one output of a ctx-style Function: backward runs only when its gradient is asked for
            ctx.set_materialize_grads(False)
        tensors = [a for a in inputs if isinstance(a, torch.Tensor)]
        # the usual case, every argument a tensor, keeps no template (this runs on every call)
        ctx.template = None if len(tensors) == len(inputs) else \
            [None if isinstance(a, torch.Tensor) else a for a in inputs]
        # the outputs are saved too, though backward reads them through the pullback closure: saved, they are
        # under autograd's version counter, so modifying one in place before backward is torch's usual error
        # instead of a wrong gradient (softmax's pullback reads its output)
        ctx.n_in = len(tensors)
        ctx.save_for_backward(*tensors, *[y for y in outputs if isinstance(y, torch.Tensor)])
        if forward_mode or _fw_ad._current_level >= 0:    # a jvp can only be asked for at the call itself
            ctx.save_for_forward(*tensors)

    @staticmethod
    def args(ctx, tensors):
        tensors = tensors[:ctx.n_in]
        if ctx.template is None:
            return list(tensors)
        it = iter(tensors)
        return [next(it) if a is None else a for a in ctx.template]

    def pull(self, ctx, grads):
        if all(g is None for g in grads):      # no output's gradient asked for: nothing flows back
            return (None,) * len(ctx.needs_input_grad)
        dy = tuple(_ZERO if g is None else g for g in grads) if self.n_out > 1 else grads[0]
        args = self.args(ctx, ctx.saved_tensors)
        prev = _state.__dict__.get("device")
        _state.device = _bt.device_of(args)
        try:
            if torch.is_grad_enabled() or ctx.pb is None:
                # create_graph: recompute the rrule with grad enabled so torch records the pullback's torch ops;
                # a second backward (retain_graph=True) recomputes too, since the first dropped the closure
                _, pb = self.rrule(*args)
            else:
                pb, ctx.pb = ctx.pb, None
                # the closure is dropped at its backward, as torch frees saved tensors: a loss kept after
                # backward (losses.append(loss)) then no longer keeps every activation alive
            cots = pb(dy)
            # a cotangent no input asks for (x of a first layer, the target of a loss) is a Thunk never run
            return tuple(_cotangent(c, a) if need else None
                         for c, a, need in zip(cots[1:], args, ctx.needs_input_grad))
        finally:
            _state.device = prev

    def push(self, ctx, tangents):
        stack = torch._C._functorch.get_interpreter_stack() or ()
        if builtins.sum(i.key() == _JVP for i in stack) >= 2:
            # torch does not forward-differentiate a custom Function's jvp: forward over forward gives zeros
            # for any autograd.Function (a textbook one too), so it is refused rather than wrong
            raise NotImplementedError(
                f"{self.name}: forward-mode over forward-mode (jacfwd(jacfwd(...)), jvp of jvp) is not supported "
                f"for custom torch ops; use torch.func.hessian or jacfwd(jacrev(...)), or jacrev(jacrev(...))")
        args = self.args(ctx, ctx.saved_tensors)
        tans = (_NO,) + tuple(_ZERO if t is None else t for t in tangents)
        prev = _state.__dict__.get("device")
        _state.device = _bt.device_of(args)
        try:
            y, dy = self.frule(tans, *args)
        finally:
            _state.device = prev
        if self.n_out > 1:
            return tuple(torch.zeros_like(v) if is_zero(d) else d for v, d in zip(y, dy))
        return (torch.zeros_like(y) if is_zero(dy) else dy),


def _function(name, rrule, frule, n_out, n_all):
    """The autograd.Functions of one op: one written with setup_context, for torch.func transforms, and one in
    the ctx style, for plain eager calls (torch calls one Python function where setup_context takes two, and no
    pullback object travels as an output). Both share the steps of _Steps."""
    steps = _Steps(name, rrule, frule, n_out)
    keep, pull, push = steps.keep, steps.pull, steps.push

    # torch.func: setup_context style; the pullback closure travels out of forward as a last, non-tensor output
    def forward(*args):
        y, pb = steps.run(args)
        return (*y, _Pullback(pb)) if n_out > 1 else (y, _Pullback(pb))

    def setup_context(ctx, inputs, output):
        keep(ctx, inputs, output[:-1], output[-1].pb, True)

    def backward(ctx, *grads):
        return pull(ctx, grads[:-1])

    def jvp(ctx, *tangents):
        return (*push(ctx, tangents), None)

    eager_forward = _eager_forward(rrule, n_out, keep)

    def eager_backward(ctx, *grads):
        return pull(ctx, grads)

    def eager_jvp(ctx, *tangents):
        out = push(ctx, tangents)
        return out if n_out > 1 else out[0]

    doc = f"torch.autograd.Function of the derived op {name}."
    transforms = type(f"{name}_function", (torch.autograd.Function,), {
        "forward": staticmethod(forward), "setup_context": staticmethod(setup_context),
        "backward": staticmethod(backward), "jvp": staticmethod(jvp), "generate_vmap_rule": True,
        "__doc__": doc})
    eager = type(f"{name}_eager_function", (torch.autograd.Function,), {
        "forward": staticmethod(eager_forward), "backward": staticmethod(eager_backward),
        "jvp": staticmethod(eager_jvp), "__doc__": doc})
    # the ctx of the usual call (every argument a tensor) reads these from its class, not set on every call
    eager._backward_cls.template, eager._backward_cls.n_in = None, n_all
    return transforms, eager


def _eager_forward(rrule, n_out, keep):
    """The ctx-style forward: _Steps.run and .keep spelled out for the usual call (one output, every argument a
    tensor), since this is every eager call with an input requiring grad."""
    Tensor = torch.Tensor

    def eager_forward(ctx, *args):
        prev = _state.__dict__.get("device")
        for a in args:
            if isinstance(a, Tensor):
                _state.device = a.device
                break
        else:
            _state.device = None
        try:
            y, pb = rrule(*args)
        finally:
            _state.device = prev
        if n_out == 1 and isinstance(y, Tensor):
            # _own() and keep() for the usual call: one output, every argument a tensor
            for a in args:
                if a is y:
                    y = y.clone()
                    break
                if not isinstance(a, Tensor):
                    break
            else:
                ctx.pb = pb if _saved_tensor_hooks(False) is None else None
                # (template None and n_in = n_all: the class's defaults, see _function)
                ctx.save_for_backward(*args, y)
                if _fw_ad._current_level >= 0:
                    ctx.save_for_forward(*args)
                return y
        y = _own(y, args, n_out)
        keep(ctx, args, y if n_out > 1 else (y,), pb, False)
        return y

    return eager_forward


def make_op(module_name, define, name, meta):
    """The torch op `name` of a generated module (its `_define` and its `OPS[name]`)."""
    key = (module_name, name)
    op = _OPS.get(key)
    if op is not None:
        return op
    core = _impls(module_name, define)
    impls = batching.wrap(core, {name: meta}, _bt)     # leading axes, as NumPy's
    sig = signature_text(name, meta)
    n, n_out = len(meta["inputs"]), len(meta["outputs"])
    check = make_checker(name, meta)
    fn, c_apply, c_apply_core = _applies(name, impls, core, n_out, n)
    apply = fn.apply
    forward_core = core[name]
    transforms_active = torch._C._are_functorch_transforms_active
    unwrap_if_dead = torch._C._functorch.unwrap_if_dead

    tensor_args = [(k, m["name"], bool(m.get("indices")), len(m.get("indices") or ()))
                   for k, m in enumerate(meta["inputs"]) if m["kind"] == "tensor"]

    forward_impl = impls[name]
    grad_enabled = torch.is_grad_enabled
    fw_ad = torch.autograd.forward_ad

    plain = _plain(forward_core, n_out)

    def op(*args, **kw):
        if kw:
            args = bind_arguments(name, meta, sig, args, kw)
        if len(args) != n:
            raise arity_error(name, meta, sig, len(args))
        needs_grad, looped, tensors = _scan_tensors(name, args, tensor_args)
        if check is not no_check:
            check(args)
        if transforms_active():
            out = apply(*args)
            return out[0] if n_out == 1 else out[:-1]
        if (not needs_grad or not grad_enabled()) and fw_ad._current_level < 0:
            # inference (no_grad, or no input requiring grad), no forward-mode level
            return plain(args, forward_impl if looped else forward_core)
        # a tensor left over from a finished torch.func transform is unwrapped, as Function.apply does
        if tensors == n:
            return (c_apply if looped else c_apply_core)(*map(unwrap_if_dead, args))
        return (c_apply if looped else c_apply_core)(*[unwrap_if_dead(a) if isinstance(a, torch.Tensor) else a
                                                      for a in args])

    general = op
    module = sys.modules.get(module_name)
    if module is not None:      # the extension and this module's kernels, if both must be built, side by side
        torch_native.build_kernels_beside(module)
    op = _compile_fast_op(name, meta, general, c_apply_core, plain,
                          _node_apply(name, core[name + "_rrule"], n, n_out)) or general
    python_op = op
    op = _native_first(module_name, name, meta, core[name + "_rrule"], n_out, op) or op
    op.general, op.python = general, python_op        # (tests hold them to the same answers)
    _describe_op(op, name, meta, sig, fn, impls)
    _OPS[key] = op
    return op


def _plain(forward_core, n_out):
    def plain(args, forward=forward_core):
        """The generated forward alone: no autograd node, no pullback closure (nothing will differentiate)."""
        prev = _state.__dict__.get("device")
        _state.device = _bt.device_of(args)
        try:
            y = forward(*args)
        finally:
            _state.device = prev
        return _own(y, args, n_out)

    return plain


def _applies(name, impls, core, n_out, n):
    """(the Function for torch.func transforms, the C apply of the eager Function, the same over the rule's own
    functions). Function.apply binds the arguments to forward's signature through inspect on every call (~15 µs,
    twice the cost of a small matmul) to fill in defaults; our forward has none. Outside torch.func transforms,
    the C apply it ends in is called directly, as Function.apply itself does then (unwrap_if_dead included)."""
    fn, eager = _function(name, impls[name + "_rrule"], impls[name + "_frule"], n_out, n)
    c_apply = super(torch.autograd.Function, eager).apply
    # a call with no loop axes (no input has axes before its rule's own) runs the rule's own functions, not
    # their runtime.batching wrapper (which would find no loop axes, at ~1 µs a call)
    if impls[name] is core[name]:
        return fn, c_apply, c_apply
    core_eager = _function(name, core[name + "_rrule"], core[name + "_frule"], n_out, n)[1]
    return fn, c_apply, super(torch.autograd.Function, core_eager).apply


def _scan_tensors(name, args, tensor_args):
    """(an input requires grad, an input has loop axes, how many tensors) of a call; a clear error for a complex
    tensor or a non-tensor where a tensor goes."""
    needs_grad = looped = False
    tensors = 0
    for k, arg_name, has_axes, rank in tensor_args:
        a = args[k]
        if isinstance(a, torch.Tensor):
            tensors += 1
            if a.requires_grad:
                needs_grad = True
            if a.dim() > rank:
                looped = True
            if a.dtype.is_complex:
                raise TypeError(f"{name}: {arg_name} is complex ({a.dtype}); the derived rules are real "
                                f"(their pullbacks do not conjugate)")
        elif has_axes or isinstance(a, bool) or not isinstance(a, (int, float)):
            raise TypeError(f"{name}: {arg_name} must be a torch.Tensor, not {type(a).__name__}; "
                            f"convert it with torch.as_tensor")
    return needs_grad, looped, tensors


def _describe_op(op, name, meta, sig, fn, impls):
    """What the op says about itself: name, docstring, its Function, signature, metadata and implementations."""
    op.__name__ = op.__qualname__ = name
    op.__module__ = __name__
    source = f"Generated from {meta['source']}." if meta.get("source") else ""
    op.__doc__ = "\n\n".join(part for part in (sig, meta.get("doc"), source) if part)
    op.function, op.signature, op.meta = fn, sig, meta
    op.forward_impl, op.frule_impl, op.rrule_impl = impls[name], impls[name + "_frule"], impls[name + "_rrule"]


def _compile_fast_op(name, meta, general, apply, plain, node_apply=None):
    """The usual call of `general` (the op above) as one straight-line function compiled for this op's signature,
    as runtime.registry compiles its shape checks: every argument positional and a tensor, each with exactly its
    rule's axes (so no loop axes) and the extents the rule's indices ask for, none complex, no torch.func
    transform active. Then it runs the rule's own Function (a forward-mode level), the rrule under a node of
    runtime/torch_native.cpp where it can be built (an input requiring grad, grad enabled: node_apply, the same
    saves, closure and backward as the Function's eager twin), or its forward alone, as `general` would; anything else, errors included, is
    `general`'s. None where the op has no such call (integer parameters, elementwise or optional axes)."""
    ins = meta["inputs"]
    if (not ins or meta.get("elementwise") or meta.get("batch_indices")
            or builtins.any(p["kind"] != "tensor" for p in ins)):
        return None
    a = [f"a{k}" for k in range(len(ins))]
    s = [f"s{k}" for k in range(len(ins))]
    ranks, first, extents = [], {}, []
    for k, p in enumerate(ins):
        idx = tuple(p.get("indices") or ())
        ranks.append(f"len({s[k]}) != {len(idx)}")
        for ax, letter in enumerate(idx):
            here = f"{s[k]}[{ax}]"
            if letter in first:
                extents.append(f"{here} != {first[letter]}")
            else:
                first[letter] = here
    for group in meta.get("equal_extents") or ():
        refs = [first[i] for i in group if i in first]
        extents += [f"{r} != {refs[0]}" for r in refs[1:]]
    extents += [f"{first[i]} != {int(v)}" for i, v in (meta.get("extents") or {}).items() if i in first]
    complex_ = [f"{x}.dtype.is_complex" for x in a]
    src = "\n".join([
        "def op(*args, **kw):",
        f"    if kw or len(args) != {len(ins)}:",
        "        return _general(*args, **kw)",
        f"    {', '.join(a)}, = args",
        f"    if not ({' and '.join(f'isinstance({x}, _Tensor)' for x in a)}):",
        "        return _general(*args)",
        *[f"    {sk} = {x}.shape" for sk, x in zip(s, a)],
        f"    if {' or '.join(ranks + extents + complex_)} or _transforms_active():",
        "        return _general(*args)",
        f"    if (({' or '.join(f'{x}.requires_grad' for x in a)}) and _grad_enabled()) or _fw._current_level >= 0:",
        *([f"        if _fw._current_level < 0:",
           f"            return _pyapply(_pyindex, {', '.join(f'_unwrap_if_dead({x})' for x in a)})"]
          if node_apply else []),
        f"        return _apply({', '.join(f'_unwrap_if_dead({x})' for x in a)})",
        "    return _plain(args)",
    ])
    namespace = {"_general": general, "_Tensor": torch.Tensor, "_transforms_active":
                 torch._C._are_functorch_transforms_active, "_grad_enabled": torch.is_grad_enabled, "_fw": _fw_ad,
                 "_apply": apply, "_unwrap_if_dead": torch._C._functorch.unwrap_if_dead, "_plain": plain,
                 "_pyapply": node_apply[0] if node_apply else None, "_pyindex": node_apply[1] if node_apply else -1}
    exec(compile(src, f"<runtime.torch op {name}>", "exec"), namespace)
    return namespace["op"]


def _pull(rrule, n_out):
    """pull(pb, inputs, grads, needs): the cotangents autograd asks for, from the pullback closure pb of the
    forward, or (pb None, or a backward with create_graph) from the rrule recomputed from the inputs with grad
    as it is, so torch records the pullback's own ops (as the Python Function's backward does)."""
    def pull(pb, ins, grads, needs):
        args = list(ins)
        prev = _state.__dict__.get("device")
        _state.device = _bt.device_of(args)
        try:
            if pb is None or torch.is_grad_enabled():
                _, pb = rrule(*args)
            dy = tuple(_ZERO if g is None else g for g in grads) if n_out > 1 else grads[0]
            cots = pb(dy)
            return tuple(_cotangent(c, a) if need else None for c, a, need in zip(cots[1:], args, needs))
        finally:
            _state.device = prev
    return pull


def _node_apply(name, rrule, n_in, n_out):
    """A call of the op's Python rrule that records one node of runtime/torch_native.cpp (PyPullNode) instead of
    a Python autograd.Function (whose apply costs ~3 µs): (pyapply, index), or None where the extension cannot
    be built here."""

    if native.mode() == "off":
        return None
    ext = torch_native.extension()
    if ext is None:
        return None

    def forward(*args):
        prev = _state.__dict__.get("device")
        _state.device = args[0].device if args else None
        try:
            return rrule(*args)
        finally:
            _state.device = prev

    return ext.pyapply, ext.register_python(name, forward, _pull(rrule, n_out), n_in, n_out)


def _native_first(module_name, name, meta, rrule, n_out, python_op):
    """`python_op` with runtime/torch_native.cpp's runner in front, for an op of a module with a native CPU plan
    (generated/cpu/): a call on small dense CPU tensors is one call into C++ and one autograd node, where the
    Python code calls torch once per step. Any call the runner declines (it answers None) is `python_op`'s.
    None where the op has no plan or the runner cannot be built here (runtime.torch_native)."""
    module = sys.modules.get(module_name)
    if module is None:
        return None

    index = torch_native.register(module, name, meta, _pull(rrule, n_out))
    if index is None:
        return None
    call = torch_native.extension().call

    def op(*args, **kw):
        if not kw:
            out = call(index, *args)
            if out is not None:
                return out
        return python_op(*args, **kw)

    op.native_index = index
    return op


def _from_registry(reg):
    return make_op(reg.module_name, reg._impls.define, reg.name, reg.meta)


def define(text: str, name: str | None = None):
    """Derive the rule in `text` (runtime.define: verified, cached on disk) and return it as a torch op."""

    return _from_registry(_define(text, name))


def load(module_or_path):
    """The torch ops of a module written by `derive-rules FILE --out DIR`: a module object, a module name, or
    the path of its .py file. Returns a namespace with one torch op per rule (`load(p).my_rule(x)`)."""
    mod = module_or_path
    if isinstance(mod, (str, os.PathLike)) and (str(mod).endswith(".py") or os.sep in str(mod)):

        mod = load_module_file(mod, "runtime.torch.load")
    elif isinstance(mod, str):
        mod = importlib.import_module(mod)
    ops, define_fn = getattr(mod, "OPS", None), getattr(mod, "_define", None)
    if not ops or define_fn is None:
        raise ValueError(f"runtime.torch.load: {getattr(mod, '__name__', mod)!r} is not a module written by "
                         f"derive-rules (it has no OPS and _define)")
    return types.SimpleNamespace(**{nm: make_op(mod.__name__, define_fn, nm, meta) for nm, meta in ops.items()})


def __getattr__(name):
    """A shipped op (generated/), built on first use: always the shipped one, never a rule of the same name a
    program defined (that one is what rt.define returned)."""
    if name.startswith("__"):
        raise AttributeError(name)

    try:
        reg = _shipped(name)
    except KeyError as exc:
        raise AttributeError(f"runtime.torch: {exc.args[0]} (rt.define(text) makes one)") from None
    op = _from_registry(reg)
    globals()[name] = op
    return op


def shipped():
    """The names of the shipped ops (rules/*.rules)."""
    pkg = registry.shipped_package()
    return sorted({k for m in pkg.MODULES for k in sys.modules[f"{pkg.__name__}.{m}"].OPS})
