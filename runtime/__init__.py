"""Runtime: primitives registry, tangent types, reverse-mode tape, forward-mode duals, backends.

Importing it is cheap: NumPy only (SymPy and `derive` are imported lazily by `define`, on a cache miss).
Importing it also tunes glibc's malloc thresholds once, so a sweep reuses freed pages (see runtime/memory.py;
TENSOR_RULES_MALLOC=off opts out).
"""
from runtime import memory as _memory

_memory.tune_allocator()

from runtime import tnp
from runtime.forward import jvp
from runtime.registry import custom_rrule, frule, lookup, register_frule, register_rrule, rrule
from runtime.rule_cache import define
from runtime.tangents import NoTangent, Tangent, Thunk, ZeroTangent, add_tangents, is_zero, unthunk
from runtime.tape import grad, value_and_grad, vjp
from runtime.testing import check_frule, check_rrule

__all__ = [
    "grad", "value_and_grad", "vjp", "jvp", "rrule", "frule",
    "ZeroTangent", "NoTangent", "Thunk", "Tangent", "unthunk", "is_zero", "add_tangents",
    "define", "register_rrule", "register_frule", "custom_rrule", "lookup",
    "check_rrule", "check_frule", "tnp",
]
