"""The elementwise built-ins of the rule language, one row each: the one declaration every stage and backend reads.

Plain Python, no SymPy, torch or JAX (the runtime imports it): a row names each spelling and derive/ir/nodes.py,
the printers, runtime.backend_numpy / tnp / backend_torch / backend_jax and derive.verification.reference each
resolve their own column. A function NumPy, torch and JAX already have is one new row here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Elementwise:
    """One built-in. Code spellings are a function name (printed `name(a, b)`) or a template with `{0}`, `{1}`…

    - `sympy`: the SymPy constructor by name: one of derive's own functions (derive.ir.nodes.OWN_FUNCTIONS, looked
      up first), else a function of `sympy` or `sympy.codegen.cfunctions`; None: derive makes a SymPy function of
      this row, whose derivative is `dydx` and whose value at a number is `mpmath`'s (cbrt, which SymPy only has
      as the complex principal root x**(1/3)). `node`: the class name of the SymPy node it builds, where that
      differs from `name` ("Pow" nodes are printed by the printers' power rules, which read the spellings of
      `sqrt` and `pow` from here).
    - `domain`: the natural domain of each argument ("" for all reals), as derive.language.domains text: lowering
      marks the inputs an argument reads with it, and the verifier and the tests sample there.
      `exempt_if_integer`: the argument whose being an integer lifts the domain (x**3 is defined for negative x).
    - `numpy`: the spelling in generated NumPy code, inside the namespace `np` the module is defined on
      (runtime.backend_numpy, or the traced runtime.tnp); `impl`: where NumPy lacks it, the name in
      primitives.special that implements it, or "module:attribute" of an optional dependency imported on first
      call (runtime.backend_numpy installs it under the `numpy` name).
    - `torch`: None for `torch.<numpy>`; else a dotted name under `torch` ("special.erfinv"), or a function
      f(torch, *args) written over the torch module where torch has none. `jax`: None for `jax.numpy.<numpy>`,
      else a dotted name under `jax` ("nn.sigmoid"), or f(jax, *args).
    - `cpp`, `cuda`: the native CPU kernels' and the device spelling (C++ / CUDA math functions, or tr_* helpers
      of templates/cpu_helpers.h.j2 and templates/cuda_helpers.cuh.j2).
    - `mpmath`: the high-precision reference (derive.verification.reference): None for `mpmath.<name>`, a name in
      mpmath, or f(mpmath, *args); "" where the reference evaluator defines the function itself (pow, where).
    - `condition`: the argument that must be a comparison (where's first), if any.
    - `cpp_simd`: whether the `cpp` spelling computes with selects and arithmetic only (templates/cpu_math.h,
      cpu_helpers.h.j2), so that a loop through it vectorizes; any other is a scalar libm call, slower than
      NumPy's SIMD loops (derive.emission.cpp leaves an elementwise chain through one to NumPy).
    - `dydx(np, y, x)`: the derivative, written over the traced namespace np (y the value at x), from which
      runtime.tnp builds the traced primitive `np.<numpy>` (and derive the derivative of a `sympy=None` row);
      ZERO for a piecewise constant function (traced without a derivative); None where tnp defines the
      primitive itself (where, the power operator).
    """

    name: str
    arity: int
    sympy: str | None
    numpy: str
    cpp: str
    cuda: str
    dydx: Callable | str | None = None
    domain: tuple = ()
    exempt_if_integer: int | None = None
    impl: str | None = None
    torch: str | Callable | None = None
    jax: str | Callable | None = None
    mpmath: str | Callable | None = None
    node: str = ""
    condition: int | None = None
    cpp_simd: bool = False

    @property
    def node_name(self) -> str:
        return self.node or self.name


def resolve(module, spelling, default_name):
    """A row's spelling in a framework `module` (torch, jax, mpmath): `module.<default_name>` for None, the
    attribute at a dotted path for a name, or the function f(module, *args) bound to the module."""
    if spelling is None:
        spelling = default_name
    if callable(spelling):
        def fn(*args, _f=spelling):
            return _f(module, *args)
        return fn
    out = module
    for part in spelling.split("."):
        out = getattr(out, part)
    return out


def row_function(row, column: str, module, default_name: str):
    """The function row `row` names in `column` ("torch", "jax", "mpmath") of framework `module`; a misspelt
    column is an error naming the row, where the framework is imported (never a bare AttributeError later)."""
    try:
        return resolve(module, getattr(row, column), default_name)
    except AttributeError:
        spelled = getattr(row, column) or default_name
        raise LookupError(f"primitives/elementwise.py: the row of {row.name!r} spells its {column} function "
                          f"{spelled!r}, which {module.__name__} does not have") from None


ZERO = "zero"        # dydx of a piecewise constant function: 0 wherever it is differentiable
_TWO_OVER_SQRT_PI = 1.1283791670955126   # 2/√π as a Python float: float32 arrays stay float32
_SQRT_PI_OVER_TWO = 0.886226925452758    # √π/2


def _torch_softplus(torch, x):
    # log(1 + e^x) = max(x, 0) + log1p(e^-|x|): exact in both tails (F.softplus's threshold returns x past 20)
    return torch.clamp_min(x, 0) + torch.log1p(torch.exp(-torch.abs(x)))


def _cbrt_mp(mp, x):
    return mp.sign(x) * mp.cbrt(abs(x))       # the real cube root (mpmath's cbrt of x < 0 is the complex one)


ROWS = (
    Elementwise("exp", 1, "exp", "exp", "tr_exp", "exp", lambda np, y, x: y, cpp_simd=True),
    # log(1 + exp(v)) is read as softplus(v) (derive.ir.log_or_softplus)
    Elementwise("log", 1, "log_or_softplus", "log", "log", "log", lambda np, y, x: 1.0 / x, domain=("positive",)),
    Elementwise("log1p", 1, "log1p", "log1p", "log1p", "log1p", lambda np, y, x: 1.0 / (1.0 + x)),
    Elementwise("expm1", 1, "expm1", "expm1", "expm1", "expm1", lambda np, y, x: y + 1.0),
    Elementwise("sin", 1, "sin", "sin", "sin", "sin", lambda np, y, x: np.cos(x)),
    Elementwise("cos", 1, "cos", "cos", "cos", "cos", lambda np, y, x: -np.sin(x)),
    Elementwise("tan", 1, "tan", "tan", "tan", "tan", lambda np, y, x: 1.0 + y * y),
    Elementwise("asin", 1, "asin", "arcsin", "asin", "asin", lambda np, y, x: 1.0 / np.sqrt(1.0 - x * x)),
    Elementwise("acos", 1, "acos", "arccos", "acos", "acos", lambda np, y, x: -1.0 / np.sqrt(1.0 - x * x)),
    Elementwise("atan", 1, "atan", "arctan", "atan", "atan", lambda np, y, x: 1.0 / (1.0 + x * x)),
    Elementwise("sinh", 1, "sinh", "sinh", "sinh", "sinh", lambda np, y, x: np.cosh(x)),
    Elementwise("cosh", 1, "cosh", "cosh", "cosh", "cosh", lambda np, y, x: np.sinh(x)),
    # tanh'(x) = 1 - y², from the saved value (as PyTorch, JAX and TensorFlow): its error is absolute, within an
    # ulp of 1 (relative only where sech²(x) < eps: |x| > 19 in float64, 9 in float32, where it gives 0). An
    # accurate sech²(x) = 4·σ(2x)·σ(-2x) reads the argument: 4.8x the NumPy pullback, and a rule's whole
    # pre-activation recomputed in its pullback (tanh(W·x + c): a second matmul)
    Elementwise("tanh", 1, "tanh", "tanh", "tr_tanh", "tanh", lambda np, y, x: 1.0 - y * y, cpp_simd=True),
    Elementwise("sqrt", 1, "sqrt", "sqrt", "sqrt", "sqrt", lambda np, y, x: 0.5 / y, domain=("positive",),
                node="Pow"),
    Elementwise("cbrt", 1, None, "cbrt", "cbrt", "cbrt", lambda np, y, x: 1.0 / (3.0 * (y * y)),
                torch=lambda torch, x: torch.sign(x) * torch.abs(x).pow(1.0 / 3.0), mpmath=_cbrt_mp),
    Elementwise("abs", 1, "Abs", "abs", "fabs", "fabs", lambda np, y, x: np.sign(x), mpmath="fabs", node="Abs",
                cpp_simd=True),
    Elementwise("sign", 1, "sign", "sign", "tr_sign", "tr_sign", ZERO, cpp_simd=True),
    Elementwise("pow", 2, "Pow", "{0} ** {1}", "pow", "pow", domain=("positive", ""), exempt_if_integer=1,
                mpmath="", node="Pow"),
    Elementwise("sigmoid", 1, "sigmoid", "sigmoid", "tr_sigmoid", "tr_sigmoid",
                # σ'(x) = σ(x)·σ(-x): σ(x)·(1 - σ(x)) is 0 for large x, where 1 - σ(x) rounds to 0
                lambda np, y, x: y * np.sigmoid(-x), impl="sigmoid", jax="nn.sigmoid",
                mpmath=lambda mp, x: 1 / (1 + mp.exp(-x)), cpp_simd=True),
    Elementwise("softplus", 1, "softplus", "softplus", "tr_softplus", "tr_softplus",
                lambda np, y, x: np.sigmoid(x), impl="softplus", torch=_torch_softplus, jax="nn.softplus",
                mpmath=lambda mp, x: mp.log1p(mp.exp(x)) if x < 0 else x + mp.log1p(mp.exp(-x))),
    Elementwise("erf", 1, "erf", "erf", "tr_erf", "erf", lambda np, y, x: _TWO_OVER_SQRT_PI * np.exp(-(x * x)),
                impl="erf", jax="scipy.special.erf", cpp_simd=True),
    # erfc(x) = 1 - erf(x) without the cancellation for x ≫ 0 (gelu = x·erfc(-x/√2)/2 in its left tail)
    Elementwise("erfc", 1, "erfc", "erfc", "tr_erfc", "erfc", lambda np, y, x: -_TWO_OVER_SQRT_PI * np.exp(-(x * x)),
                impl="erfc", jax="scipy.special.erfc", cpp_simd=True),
    # erfinv: CUDA's math library has it; the C++ kernels' tr_erfinv is templates/erfinv.h
    Elementwise("erfinv", 1, "erfinv", "erfinv", "tr_erfinv", "erfinv",
                lambda np, y, x: _SQRT_PI_OVER_TWO * np.exp(y * y), domain=("(-1, 1)",),
                impl="scipy.special:erfinv", jax="scipy.special.erfinv"),
    Elementwise("relu", 1, "relu", "relu", "tr_relu", "tr_relu", lambda np, y, x: np.step(x), impl="relu",
                jax="nn.relu", mpmath=lambda mp, x: x if x > 0 else 0 * x, cpp_simd=True),   # relu'(0) = 0, as step(0) = 0
    # step(0) = 0: relu's derivative, a subgradient choice (as PyTorch makes)
    Elementwise("step", 1, "step", "step", "tr_step", "tr_step", ZERO, impl="step",
                torch=lambda torch, x: (x > 0).to(x.dtype), jax=lambda jax, x: jax.numpy.heaviside(x, 0.0),
                mpmath=lambda mp, x: mp.mpf(1 if x > 0 else 0), cpp_simd=True),
    Elementwise("where", 3, "where", "where", "({0} ? ({1}) : ({2}))", "({0} ? ({1}) : ({2}))", condition=0,
                mpmath="", cpp_simd=True),
)

BY_NAME = {r.name: r for r in ROWS}
