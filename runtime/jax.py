"""Every derived rule as a JAX function: `import runtime.jax as rj; rj.inv(A)`, `rj.define(text)`, `rj.load(path)`.

Each op is a `jax.custom_jvp` over the generated code run on jax.numpy (runtime.backend_jax): its value is the
generated forward, its jvp the generated frule (primal and pushforward fused). The pushforward is linear in the
tangents, so JAX transposes it for reverse mode, and jit, grad, vmap, jacfwd and jacrev compose; differentiating
the frule's code again gives higher orders. Why custom_jvp and not custom_vjp with the derived pullback: a
custom_vjp function has no forward mode (jax.jvp / jacfwd refuse it), and JAX offers no supported way to give
one function both a jvp and a hand-written transpose (see docs/frameworks.md, "## JAX").

float64 is JAX's choice, not ours: call jax.config.update("jax_enable_x64", True) before creating arrays.
"""
from __future__ import annotations

try:
    import jax
    import jax.numpy as jnp
except ImportError as exc:  # pragma: no cover - exercised without jax installed
    raise ImportError("runtime.jax needs JAX, which is not installed: pip install 'tensor-rules[jax]'") from exc

import functools
import types

import numpy as _np

from runtime import backend_jax, batching
from runtime import registry as _registry
from runtime.checking import MATRIX_DOMAINS
from runtime.rule_cache import define as _define
from runtime.rule_cache import load_module_file
from runtime.tangents import NoTangent, ZeroTangent, is_zero, unthunk

__all__ = ["define", "load", "op"]

_NO, _ZERO = NoTangent(), ZeroTangent()
_IMPLS: dict = {}      # module name -> its `_define(backend_jax)`
_WRAPPED: dict = {}    # registry Op -> its JAX function


def _impls(reg_op):
    impls = _IMPLS.get(reg_op.module_name)
    if impls is None:
        impls = _IMPLS[reg_op.module_name] = batching.wrap(reg_op._impls.define(backend_jax), reg_op._impls.OPS,
                                                           backend_jax)
    return impls


def _arrays(y):
    """Outputs as JAX arrays (a rule may return a Python number: an extent, a constant)."""
    return tuple(jnp.asarray(v) for v in y) if isinstance(y, tuple) else jnp.asarray(y)


def _tangent_out(dy, y):
    """The frule's output tangent as JAX wants it: an array of the output's dtype, zeros for ZeroTangent, and
    float0 zeros for an integer output (`n[] = size(i)` has no tangent space)."""
    if isinstance(y, tuple):
        if is_zero(dy):
            dy = (_ZERO,) * len(y)
        return tuple(_tangent_out(d, v) for d, v in zip(dy, y))
    if not jnp.issubdtype(jnp.result_type(y), jnp.inexact):
        return _np.zeros(jnp.shape(y), dtype=jax.dtypes.float0)
    dy = unthunk(dy)
    if is_zero(dy):
        return jnp.zeros_like(y)
    return jnp.asarray(dy, dtype=jnp.result_type(y))


def _wrap(reg_op):
    """The JAX function of a registry Op (a generated or define()d op)."""
    fn = _WRAPPED.get(reg_op)
    if fn is not None:
        return fn
    impls = _impls(reg_op)
    name, meta, sig = reg_op.name, reg_op.meta, reg_op.signature
    n = reg_op.n_in
    ints = tuple(k for k, p in enumerate(meta["inputs"]) if p.get("kind") == "int")
    # an input declared spd/symmetric lives on symmetric matrices: JAX transposes the jvp for reverse mode, so the
    # jvp projects its tangent, (Ȧ + Ȧᵀ)/2 (the same on the symmetric tangents it is defined for), and the
    # transpose returns the symmetric gradient the generated pullback returns (docs/language.md)
    sym = tuple(k for k, p in enumerate(meta["inputs"]) if p.get("domain") in MATRIX_DOMAINS)
    core = _custom_jvp(impls[name], impls[name + "_frule"], n, ints, sym)
    check = reg_op.check

    tensor_args = [(k, p["name"], bool(p.get("indices"))) for k, p in enumerate(meta["inputs"])
                   if p.get("kind") == "tensor"]
    int_args = [(k, meta["inputs"][k]["name"]) for k in ints]

    def op(*args, **kw):
        if kw:
            args = _registry.bind_arguments(name, meta, sig, args, kw)
        if len(args) != n:
            raise _registry.arity_error(name, meta, sig, len(args))
        _check_arguments(name, args, tensor_args, int_args)
        check(args)
        return core(*args)

    op.__name__ = op.__qualname__ = name
    op.__module__ = __name__
    op.__doc__ = reg_op.forward.__doc__
    op.signature = sig
    op.meta = meta
    _WRAPPED[reg_op] = op
    return op


def _custom_jvp(forward, frule, n, ints, sym=()):
    """forward as a jax.custom_jvp whose JVP is the op's frule (int parameters are nondiff_argnums), the tangents
    of the arguments at positions `sym` first projected onto symmetric matrices (last two axes)."""
    diff = tuple(k for k in range(n) if k not in ints)

    def assemble(fixed, primals):
        args = [None] * n
        for k, v in zip(ints, fixed):
            args[k] = v
        for k, v in zip(diff, primals):
            args[k] = v
        return args

    @functools.partial(jax.custom_jvp, nondiff_argnums=ints)
    def core(*args):
        return _arrays(forward(*args))

    def core_jvp(*a):
        fixed, (primals, tangents) = a[:len(ints)], a[len(ints):]
        args = assemble(fixed, primals)
        tans = [_NO] * n
        for k, t in zip(diff, tangents):
            if isinstance(t, jax.custom_derivatives.SymbolicZero):
                t = _ZERO
            elif k in sym:
                t = (t + jnp.swapaxes(t, -1, -2)) / 2
            tans[k] = t
        y, dy = frule((_NO, *tans), *args)
        y = _arrays(y)
        return y, _tangent_out(dy, y)

    core.defjvp(core_jvp, symbolic_zeros=True)
    return core


def _check_arguments(name, args, tensor_args, int_args):
    """A clear error for what the op cannot take: a non-array where an array goes, a complex array (the rules are
    real), a traced int parameter."""
    for k, arg_name, has_axes in tensor_args:
        a = args[k]
        dtype = getattr(a, "dtype", None)
        if dtype is None:
            if has_axes or isinstance(a, bool) or not isinstance(a, (int, float)):
                raise TypeError(f"{name}: {arg_name} must be an array, not {type(a).__name__}; convert it with "
                                f"jnp.asarray")
        elif jnp.issubdtype(dtype, jnp.complexfloating):
            raise TypeError(f"{name}: {arg_name} is complex ({dtype}); the derived rules are real (their "
                            f"derivatives do not conjugate)")
    for k, arg_name in int_args:
        if isinstance(args[k], jax.core.Tracer):
            raise TypeError(f"{name}: {arg_name} is an int parameter but was traced; under jax.jit mark it "
                            f"static (jax.jit(f, static_argnums=...) or static_argnames=...)")


def op(name):
    """The JAX function of a registered op ("inv", or "generated.linalg:inv")."""
    return _wrap(_registry.lookup(name))


def define(text: str, name: str | None = None):
    """runtime.define's op (derived, verified and cached on disk once) as a JAX function."""

    return _wrap(_define(text, name))


def load(module_or_path):
    """The ops of a module written by `derive-rules FILE --out DIR` (a module object, or the path of its .py file)
    as JAX functions, in a namespace: `rj.load("out/mine.py").myop(x)`."""
    module = module_or_path
    if not isinstance(module, types.ModuleType):

        module = load_module_file(module_or_path, "runtime.jax.load")
    ops = getattr(module, "OPS", None)
    if not ops:
        raise ValueError(f"runtime.jax.load: {getattr(module, '__name__', module)!r} is not a generated module "
                         f"(it has no OPS)")
    return types.SimpleNamespace(**{k: _wrap(_registry.lookup(f"{module.__name__}:{k}")) for k in ops})


def __getattr__(name):
    # the shipped ops, each built on first use: always the shipped one (generated/), never a rule of the same
    # name a program defined, whatever was imported first (rj.op(name) looks up the registry instead)
    if name.startswith("__"):
        raise AttributeError(name)
    try:
        reg_op = _registry.shipped(name)
    except KeyError as exc:
        raise AttributeError(f"runtime.jax: {exc.args[0]} (rj.define(text) makes one)") from None
    fn = _wrap(reg_op)
    globals()[name] = fn
    return fn


def __dir__():
    _registry.shipped_package()
    return sorted(set(globals()) | set(_registry.names()))
