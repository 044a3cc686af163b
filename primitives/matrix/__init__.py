"""Matrix primitives, each declared once in a file of this package; every stage reads the declaration.

A declaration (`MatrixPrimitive`) holds the primitive's signature and domain, its differential -- in index form
where one exists (`differential`, text that both the derivation and the runtime read, see `index_form`),
otherwise one linear map and its transpose as code per argument (`jvp`/`vjp`, as JAX's defjvp per argument,
written over an array namespace `xp` so the same code runs on NumPy arrays in generated modules and on traced
arrays in `runtime.tnp`) --, its NumPy implementation (and torch's and JAX's where those frameworks have
it under another name) and what it saves for the pullback, its display, and its CUDA kernel fields.

Adding a matrix primitive is one new file here (plus, only for a new algorithm, a CUDA device function in
templates/cuda_linalg.cuh.j2); a file may declare several related primitives (`PRIMITIVES`, a tuple). This
package imports no SymPy: generated code and the runtime use it directly.

Layouts: declarations are written in NumPy's batch convention (matrix axes last: `(..., n, n)`), which is the
rule language's too, so generated code passes its arrays through unchanged.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from primitives import factor as _factor
from primitives import index_form


@dataclass(frozen=True)
class Cuda:
    """A primitive's CUDA fields: the device function (templates/cuda_linalg.cuh.j2) each direction calls and
    the workspace it needs per matrix, as numbers (a, b, c, d): a·n² + b·n·r + c·n + d elements of the kernel's
    type (r: the columns of a right-hand side). Every device function has the signature
    f(inputs..., outputs..., ws, n[, r])."""

    forward: str
    ws: tuple = (0, 0, 0, 0)
    jvp: str | tuple = ""             # per argument (a tuple) where the primitive's maps are
    jvp_ws: tuple = (0, 0, 0, 0)      # ... and then a tuple of workspaces, one per argument
    vjp: str | tuple = ""
    vjp_ws: tuple = (0, 0, 0, 0)

    def map(self, mode: str, arg: int = 0):
        """(device function, workspace) of argument `arg`'s jvp or vjp ("" where there is none)."""
        fn, ws = getattr(self, mode), getattr(self, mode + "_ws")
        if isinstance(fn, tuple):
            return fn[arg], ws[arg]
        return (fn, ws) if arg == 0 else ("", ws)


@dataclass(frozen=True)
class MatrixPrimitive:
    name: str
    doc: str
    forward: Callable                 # NumPy, batch-first: forward(*args) -> result
    args: tuple = ("X",)              # argument names the differential uses
    arg_kinds: tuple = ("square",)    # 'square': (n, n); 'rhs': (n,) or (n, r) with n = the first argument's
    result: str = "square"            # 'square' (n, n) | 'vector' (n,) | 'scalar' () | 'rhs' (like the rhs)
    domain: str = ""                  # the first argument's natural domain: 'wellcond' | 'spd' | 'symmetric' | ''
    symmetric: bool = False           # defined on symmetric matrices: symmetric tangents, symmetric gradients
    keeps_symmetry: bool = False      # a symmetric argument has a symmetric value (inv, expm, logm ...)
    differential: str | None = None   # index form (see index_form), R the result, dX the tangent of X
    jvp: Callable | tuple | None = None   # else: jvp(xp, *saved, dX) -> dR, or a tuple: one map per argument
    vjp: Callable | tuple | None = None   #       (None: not differentiable in it); vjp(xp, *saved, R̄) -> X̄,
                                          #       the transpose of jvp (per argument likewise)
    saves: tuple = ("X", "R")         # what jvp/vjp read: 'X' (the first argument), 'R', another argument's name,
                                      # or another primitive's name applied to X
    traceable: bool = True            # jvp/vjp are written in xp operations (so they differentiate again)
    show: str = "{name}({X})"         # the value's display; {X} is the argument's display
    show_latex: str = r"\operatorname{{{name}}}({X})"
    show_jvp: str | tuple = ""        # the pushforward's display, e.g. "dL = L·Φ(L⁻¹·dA·L⁻ᵀ)" (per argument
    show_vjp: str | tuple = ""        # where the maps are); {X}, {R} and the arguments' names are filled in
    # the symbols those maps read besides them, each shown on a line of its own: (symbol, its definition in
    # Unicode, in LaTeX, its value from X: fn(X) -> array, or a function for a symbol applied like L_exp(A, E));
    # derive.display.mapform reads the maps and checks them against jvp/vjp at general points
    show_where: tuple = ()
    cuda: Cuda | None = None
    torch: Callable | None = None     # forward(torch, *args) where torch spells it otherwise than the runtime's
    jax: Callable | None = None       # table (runtime/backend_torch.py FORWARD), likewise over the jax module
    factored: Callable | None = None  # forward(F, *rest) from a shared factorisation F of X (see _factor)
    user: bool = True                 # a function of the rule language (False: internal, such as adj)
    max_norm: float | None = None     # beyond this 1-norm of the argument float64 cannot compute the value
                                      # (verification treats such a point as ill posed, as a singular matrix)
    optional: str = ""                # index letters of the differential that exist only when an argument has them
    # the pullback of the first argument at a cotangent c·I of a square result (c·𝟙 of a vector one), where the
    # map simplifies to a closed form (expm: L_exp(Xᵀ, c·I) = c·exp(X)ᵀ), as index_form.parse_at_identity reads
    # it; the derivation uses it in place of the map where a rule's cotangent has that form (trace(expm(X)))
    vjp_at_identity: str = ""
    lines: tuple = field(default=(), compare=False)   # the differential, parsed
    at_identity: object = field(default=None, compare=False)   # vjp_at_identity, parsed

    def __post_init__(self):
        if (self.differential is None) == (self.jvp is None):
            raise ValueError(f"primitive {self.name}: give either an index-form differential or jvp/vjp")
        if self.jvp is not None:
            if len(self.jvps) != len(self.args) or len(self.vjps) != len(self.args):
                raise ValueError(f"primitive {self.name}: one jvp and one vjp per argument {self.args}")
            if any((j is None) != (v is None) for j, v in zip(self.jvps, self.vjps)):
                raise ValueError(f"primitive {self.name}: a jvp needs its transpose, vjp")
        if self.differential is not None:
            try:
                object.__setattr__(self, "lines", index_form.parse(self.differential, self.args))
            except ValueError as exc:
                raise ValueError(f"primitive {self.name}: {exc}") from None
        if self.vjp_at_identity:
            if self.result not in ("square", "vector"):
                raise ValueError(f"primitive {self.name}: a pullback at the identity needs a square or vector result")
            try:
                object.__setattr__(self, "at_identity", index_form.parse_at_identity(self.vjp_at_identity, self.args))
            except ValueError as exc:
                raise ValueError(f"primitive {self.name}: {exc}") from None

    @property
    def opaque(self) -> bool:
        return self.jvp is not None

    @property
    def jvps(self) -> tuple:
        """One pushforward per argument (None: not differentiable in it), as JAX's defjvp takes them."""
        return _per_argument(self.jvp, self.args)

    @property
    def vjps(self) -> tuple:
        return _per_argument(self.vjp, self.args)

    def show_map(self, mode: str, arg: int = 0) -> str:
        text = self.show_jvp if mode == "jvp" else self.show_vjp
        return text[arg] if isinstance(text, tuple) else (text if arg == 0 else "")

    def aux_names(self) -> tuple:
        """Other primitives of the same argument its derivative reads (inv(X) for logdet, eigvecsh for eigvalsh)."""
        if self.opaque:
            return tuple(s for s in self.saves if s not in ("X", "R"))
        return tuple(dict.fromkeys(f.call for ln in self.lines for t in ln.terms for f in t.factors if f.call))


def _per_argument(maps, args) -> tuple:
    if isinstance(maps, tuple):
        return maps
    return (maps,) + (None,) * (len(args) - 1) if maps is not None else ()


def _discover() -> dict:
    out = {}
    for m in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if m.name.startswith("_") or m.name == "index_form":
            continue
        mod = importlib.import_module(f"{__name__}.{m.name}")
        found = getattr(mod, "PRIMITIVES", None) or (getattr(mod, "PRIMITIVE", None),)
        for p in found:
            if not isinstance(p, MatrixPrimitive):
                continue
            if p.name in out:
                raise RuntimeError(f"matrix primitive {p.name!r} declared twice")
            out[p.name] = p
    for p in out.values():      # what a derivative reads of other primitives must be declared too
        named = set(p.aux_names()) | {s for s in p.saves if s not in ("X", "R")}
        named |= {f.call for t in getattr(p.at_identity, "terms", ()) for f in t.factors if f.call}
        unknown = sorted(n for n in named if n not in out)
        if unknown:
            raise ValueError(f"primitive {p.name}: its derivative reads {', '.join(unknown)}, which no file of "
                             f"primitives/matrix declares")
    return out


PRIMITIVES: dict = _discover()
USER_NAMES = tuple(n for n, p in PRIMITIVES.items() if p.user)


# ---------------------------------------------------------------------------------------------------------
# Calls from generated code (batch axes first, matrix axes last)


class _Bound:
    """One primitive's functions as generated code calls them: `np.prim.inv.forward(X)`."""

    def __init__(self, p: MatrixPrimitive, xp, watch=None):
        self.p, self.xp, self.watch = p, xp, watch

    def forward(self, *args):
        if self.watch is not None:
            self.watch(np.asarray(args[0]), self.p)
        return self.p.forward(*args)

    def factored(self, F, *rest, trans=False):
        """The value from F = `Calls.factor(X)`: the shared factorisation where there is one, else (F is X
        itself: batched, traced or not NumPy) the unfactored forward. `trans`: of Xᵀ (solve only)."""
        if isinstance(F, _factor.Factor):
            if self.watch is not None:
                self.watch(F.X, self.p)
            return self.p.factored(F, *rest, trans=True) if trans else self.p.factored(F, *rest)
        if trans:
            F = np.swapaxes(F, -1, -2)
        return self.forward(F, *rest)

    def jvp(self, *args, arg=0):
        """Argument `arg`'s pushforward (generated code passes arg= for all but the first)."""
        return self.p.jvps[arg](self.xp, *args)

    def vjp(self, *args, arg=0):
        return self.p.vjps[arg](self.xp, *args)


class Calls:
    """`np.prim` of a backend namespace: every primitive bound to that namespace."""

    def __init__(self, xp, watch=None):
        self._numpy = getattr(xp, "__name__", "") == "runtime.backend_numpy"
        for name, p in PRIMITIVES.items():
            setattr(self, name, _Bound(p, xp, watch))

    def factor(self, X, spd=False):
        """One (lazy) factorisation of an unbatched real matrix X that the primitives applied to X share
        (`np.prim.inv.factored(F)`); X itself where there is none to share (see _Bound.factored)."""
        if self._numpy and type(X) is np.ndarray and X.ndim == 2 and X.dtype in (np.float64, np.float32):
            return _factor.factor(X, spd)
        return X
