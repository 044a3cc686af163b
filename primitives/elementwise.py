"""The elementwise built-ins of the rule language, one row each: every stage reads this table.

Plain Python, no SymPy (the runtime imports it): derive/ir/nodes.py joins each row with its SymPy constructor, the
lowering takes names, arities and domains from it, the NumPy and CUDA printers their spellings, and
runtime.backend_numpy / runtime.tnp the implementation and the traced derivative.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Elementwise:
    """One built-in. Spellings are a function name (printed `name(a, b)`) or a template with `{0}`, `{1}`…

    - `sympy`: the SymPy constructor, as "module:attribute" (derive resolves it; the runtime never does);
      `node`: the class name of the SymPy node it builds, where that differs from `name` ("Pow" nodes are
      printed by the printers' power rules, which read the spellings of `sqrt` and `pow` from here).
    - `domain`: the natural domain of each argument ("" for all reals), as derive.language.domains text: lowering
      marks the inputs an argument reads with it, and the verifier samples there. `exempt_if_integer`: the
      argument whose being an integer lifts the domain (x**3 is defined for negative x).
    - `numpy`: the spelling in generated NumPy code, inside the namespace `np` the module is defined on
      (runtime.backend_numpy, or the traced runtime.tnp); `impl`: the name in primitives.special that
      implements it where NumPy lacks it (the backend installs it under the `numpy` name).
    - `condition`: the argument that must be a comparison (where's first), if any.
    - `cuda`: the device spelling (tr_* helpers live in templates/cuda_helpers.cuh.j2).
    - `dydx(np, y, x)`: the derivative, written over the traced namespace np (y the value at x), from which
      runtime.tnp builds the traced primitive `np.<numpy>`; ZERO for a piecewise constant function (traced
      without a derivative); None where tnp defines the primitive itself (where, the power operator).
    """

    name: str
    arity: int
    sympy: str
    numpy: str
    cuda: str
    dydx: Callable | str | None = None
    domain: tuple = ()
    exempt_if_integer: int | None = None
    impl: str | None = None
    node: str = ""
    condition: int | None = None

    @property
    def node_name(self) -> str:
        return self.node or self.name


ZERO = "zero"        # dydx of a piecewise constant function: 0 wherever it is differentiable
_TWO_OVER_SQRT_PI = 1.1283791670955126   # 2/√π as a Python float: float32 arrays stay float32

ROWS = (
    Elementwise("exp", 1, "sympy:exp", "exp", "exp", lambda np, y, x: y),
    # log(1 + exp(v)) is read as softplus(v) (derive.ir.log_or_softplus)
    Elementwise("log", 1, "derive.ir.nodes:log_or_softplus", "log", "log", lambda np, y, x: 1.0 / x,
                domain=("positive",)),
    Elementwise("log1p", 1, "sympy.codegen.cfunctions:log1p", "log1p", "log1p", lambda np, y, x: 1.0 / (1.0 + x)),
    Elementwise("expm1", 1, "sympy.codegen.cfunctions:expm1", "expm1", "expm1", lambda np, y, x: y + 1.0),
    Elementwise("sin", 1, "sympy:sin", "sin", "sin", lambda np, y, x: np.cos(x)),
    Elementwise("cos", 1, "sympy:cos", "cos", "cos", lambda np, y, x: -np.sin(x)),
    Elementwise("tan", 1, "sympy:tan", "tan", "tan", lambda np, y, x: 1.0 + y * y),
    Elementwise("asin", 1, "sympy:asin", "arcsin", "asin", lambda np, y, x: 1.0 / np.sqrt(1.0 - x * x)),
    Elementwise("acos", 1, "sympy:acos", "arccos", "acos", lambda np, y, x: -1.0 / np.sqrt(1.0 - x * x)),
    Elementwise("atan", 1, "sympy:atan", "arctan", "atan", lambda np, y, x: 1.0 / (1.0 + x * x)),
    Elementwise("sinh", 1, "sympy:sinh", "sinh", "sinh", lambda np, y, x: np.cosh(x)),
    Elementwise("cosh", 1, "sympy:cosh", "cosh", "cosh", lambda np, y, x: np.sinh(x)),
    Elementwise("tanh", 1, "sympy:tanh", "tanh", "tanh", lambda np, y, x: 1.0 - y * y),
    Elementwise("sqrt", 1, "sympy:sqrt", "sqrt", "sqrt", lambda np, y, x: 0.5 / y, domain=("positive",),
                node="Pow"),
    Elementwise("abs", 1, "sympy:Abs", "abs", "fabs", lambda np, y, x: np.sign(x), node="Abs"),
    Elementwise("sign", 1, "derive.ir.nodes:sign", "sign", "tr_sign", ZERO),
    Elementwise("pow", 2, "sympy:Pow", "{0} ** {1}", "pow", domain=("positive", ""), exempt_if_integer=1,
                node="Pow"),
    Elementwise("sigmoid", 1, "derive.ir.nodes:sigmoid", "sigmoid", "tr_sigmoid",
                # σ'(x) = σ(x)·σ(-x): σ(x)·(1 - σ(x)) is 0 for large x, where 1 - σ(x) rounds to 0
                lambda np, y, x: y * np.sigmoid(-x), impl="sigmoid"),
    Elementwise("softplus", 1, "derive.ir.nodes:softplus", "softplus", "tr_softplus",
                lambda np, y, x: np.sigmoid(x), impl="softplus"),
    Elementwise("erf", 1, "sympy:erf", "erf", "erf", lambda np, y, x: _TWO_OVER_SQRT_PI * np.exp(-(x * x)),
                impl="erf"),
    Elementwise("relu", 1, "derive.ir.nodes:relu", "relu", "tr_relu", lambda np, y, x: np.step(x), impl="relu"),
    # step(0) = 0: relu's derivative, a subgradient choice (as PyTorch makes)
    Elementwise("step", 1, "derive.ir.nodes:step", "step", "tr_step", ZERO, impl="step"),
    Elementwise("where", 3, "derive.ir.nodes:where", "where", "({0} ? ({1}) : ({2}))", condition=0),
)

BY_NAME = {r.name: r for r in ROWS}
