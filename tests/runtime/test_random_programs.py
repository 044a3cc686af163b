"""Property test of the whole runtime: random programs over the shipped ops and traced NumPy arithmetic, their
derivatives (reverse, forward, second order, float32) checked against finite differences of the same program.

A program is data (`Program`: input shapes, a seed, a list of `Step`s), so hypothesis shrinks it and a failure
prints it. `Program.values(xp, xs)` runs it with xp = runtime.tnp (traced) or numpy (the reference). Domains are
respected by construction (log/sqrt see v*v + c, divisors 1 + v*v, matrices are n·I + 0.5·tanh(X)), and kinks and
ties are kept KINK_GAP away from the data, so central differences are valid. `check_*` are the properties; a
scratch script can run them with many more examples.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import generated as G
from runtime import grad, jvp, tnp, vjp

# ------------------------------------------------------------------------------------------ operand adapters


def take(xp, v, shape, stride, offset):
    """Any value as an array of `shape`: elements (offset + stride * k) mod size of its ravel (a gather)."""
    size = int(np.prod(np.shape(v)))
    idx = (offset + stride * np.arange(int(np.prod(shape)))) % size
    return xp.reshape(xp.ravel(v)[idx], shape)


def adapt(xp, kind, x):
    """Condition an operand (matrix axes last, batch axes first): wc = well-conditioned square (wcB: batched),
    small = ‖A‖ ≤ 1/4, spd = symmetric positive definite, pos = ≥ 1."""
    if kind in ("wc", "wcB"):    # n·I + 0.5·tanh(X): ‖0.5 tanh X‖ ≤ n/2, so det > 0 and cond ≤ 3
        n = np.shape(x)[-1]
        return n * np.eye(n) + 0.5 * xp.tanh(x)
    if kind == "small":     # ‖A‖ ≤ 1/4: I - A is invertible (Cayley)
        return (0.25 / np.shape(x)[-1]) * xp.tanh(x)
    if kind == "spd":
        n = np.shape(x)[-1]
        return xp.matmul(x, xp.swapaxes(x, -1, -2)) + n * np.eye(n)
    if kind == "pos":
        return 1.0 + x * x
    return x


# ------------------------------------------------------------------------------------------ the op catalogue
# Ops of one operand of any shape (most elementwise): name -> function(xp, x).
UNARY = {
    "tanh": lambda xp, x: G.tanh(x),
    "sigmoid": lambda xp, x: G.sigmoid(x),
    "sin": lambda xp, x: G.sin(x),
    "cos": lambda xp, x: G.cos(x),
    "exp": lambda xp, x: G.exp(0.5 * x),
    "softplus": lambda xp, x: G.softplus(x),
    "gelu": lambda xp, x: G.gelu(x),
    "erf": lambda xp, x: G.erf(x),
    "asin": lambda xp, x: G.asin(0.5 * G.tanh(x)),
    "log": lambda xp, x: G.log(x * x + 0.5),
    "log1p": lambda xp, x: G.log1p(x * x),
    "expm1": lambda xp, x: G.expm1(0.5 * x),
    "sqrt": lambda xp, x: G.sqrt(x * x + 0.25),
    "power0": lambda xp, x: G.power(x, 0),
    "power1": lambda xp, x: G.power(x, 1),
    "power2": lambda xp, x: G.power(x, 2),
    "power3": lambda xp, x: G.power(x, 3),
    "neg": lambda xp, x: -x,
    "square": lambda xp, x: x ** 2,
    "recip": lambda xp, x: 1.0 / (1.0 + x * x),
    "xp.exp": lambda xp, x: xp.exp(0.5 * x),
    "xp.log": lambda xp, x: xp.log(1.0 + x * x),
    "xp.sqrt": lambda xp, x: xp.sqrt(0.5 + x * x),
    "xp.tanh": lambda xp, x: xp.tanh(x),
    "xp.arctan": lambda xp, x: xp.arctan(x),
    "xp.sinh": lambda xp, x: xp.sinh(x),
    "xp.cbrt": lambda xp, x: xp.cbrt(1.0 + x * x),
    "xp.pow": lambda xp, x: (1.0 + x * x) ** 1.5,
    "xp.rpow": lambda xp, x: 2.0 ** x,
    "xp.logaddexp": lambda xp, x: xp.logaddexp(x, 0.5 - x),
    # not elementwise, but shape-agnostic
    "xp.flip": lambda xp, x: xp.flip(x),
    "xp.cumsum": lambda xp, x: xp.cumsum(x),
    "xp.var": lambda xp, x: xp.var(x),
    "xp.prod": lambda xp, x: xp.prod(1.0 + 0.5 * xp.tanh(x)),
    "xp.norm": lambda xp, x: xp.linalg.norm(xp.ravel(1.0 + x * x)),
    ".T": lambda xp, x: x.T,
    "xp.squeeze": lambda xp, x: xp.squeeze(xp.expand_dims(x, 0)),
    "xp.broadcast_to": lambda xp, x: xp.broadcast_to(x, (2,) + np.shape(x)),
    "xp.stack": lambda xp, x: xp.stack([x, x * x], axis=-1),
    "xp.concatenate": lambda xp, x: xp.concatenate([xp.ravel(x), xp.ravel(xp.sin(x))]),
}
# ... and those with kinks (at 0 unless KINKS says otherwise): their operand is shifted (`shift`) so no element
# is within KINK_GAP of one. KINKED2 are binary, with a kink where the shifted first operand meets the second.
KINKED = {
    "relu": lambda xp, x: G.relu(x),
    "leaky_relu": lambda xp, x: G.leaky_relu(x),
    "abs": lambda xp, x: xp.abs(x),
    "xp.maximum0": lambda xp, x: xp.maximum(x, 0.0),
    "xp.clip": lambda xp, x: xp.clip(x, -0.5, 0.5),
    "xp.where": lambda xp, x: xp.where(x > 0, xp.sin(x), x * x - 1.0),
}
KINKS = {"xp.clip": (-0.5, 0.5)}
KINKED2 = {
    "xp.maximum": lambda xp, a, b: xp.maximum(a, b),
    "xp.minimum": lambda xp, a, b: xp.minimum(a, b),
    "xp.where2": lambda xp, a, b: xp.where(a > b, a * b, a - b),
}
KINK_GAP = 1e-2

BINARY = {
    "add": lambda xp, a, b: a + b,
    "sub": lambda xp, a, b: a - b,
    "mul": lambda xp, a, b: a * b,
    "div": lambda xp, a, b: a / (1.0 + b * b),
    "rdiv": lambda xp, a, b: (a - 0.5) / (2.0 + xp.sin(b)),
    "pow": lambda xp, a, b: (0.5 + a * a) ** xp.tanh(b),
    "scale": lambda xp, a, b: G.scale(a, xp.mean(b)),
    "xp.hypot": lambda xp, a, b: xp.hypot(a, 1.0 + b * b),
    "xp.arctan2": lambda xp, a, b: xp.arctan2(a, 1.0 + b * b),
    "xp.logaddexp2": lambda xp, a, b: xp.logaddexp(a, b),
}

# Ops on adapted operands: name -> (operand specs, function). An operand spec is (axes, kind): axes are letters
# bound to random extents 1..3 per step; `take` gathers any program value into that shape, `adapt` conditions it.
STRUCTURED = {
    "matmul": ((("rk", ""), ("kc", "")), lambda xp, A, B: G.matmul(A, B)),
    "matvec": ((("rk", ""), ("k", "")), lambda xp, A, x: G.matvec(A, x)),
    "dot": ((("k", ""), ("k", "")), lambda xp, x, y: G.dot(x, y)),
    "outer": ((("r", ""), ("c", "")), lambda xp, x, y: G.outer(x, y)),
    "transpose": ((("rc", ""),), lambda xp, A: G.transpose(A)),
    "trace": ((("nn", ""),), lambda xp, A: G.trace(A)),
    "bilinear": ((("r", ""), ("rc", ""), ("c", "")), lambda xp, x, A, y: G.bilinear(x, A, y)),
    "quadratic": ((("n", ""), ("nn", "")), lambda xp, x, A: G.quadratic(x, A)),
    "inv": ((("nn", "wc"),), lambda xp, A: G.inv(A)),
    "det": ((("nn", "wc"),), lambda xp, A: G.det(A)),
    "logdet": ((("nn", "wc"),), lambda xp, A: G.logdet(A)),
    "solve": ((("nn", "wc"), ("n", "")), lambda xp, A, b: G.solve(A, b)),
    "solve_matrix": ((("nn", "wc"), ("nc", "")), lambda xp, A, B: G.solve_matrix(A, B)),
    "mahalanobis": ((("n", ""), ("nn", "wc")), lambda xp, x, S: G.mahalanobis(x, S)),
    "cayley": ((("nn", "small"),), lambda xp, A: G.cayley(A)),
    "sum1": ((("k", ""),), lambda xp, x: G.sum(x)),
    "mean1": ((("k", ""),), lambda xp, x: G.mean(x)),
    "softmax": ((("k", ""),), lambda xp, x: G.softmax(x)),
    "logsumexp": ((("k", ""),), lambda xp, x: G.logsumexp(x)),
    "log_softmax": ((("k", ""),), lambda xp, x: G.log_softmax(x)),
    "mse": ((("bo", ""), ("bo", "")), lambda xp, p, t: G.mse(p, t)),
    "dense": ((("oi", ""), ("bi", ""), ("o", "")), lambda xp, W, x, c: G.dense(W, x, c)),
    "linear": ((("oi", ""), ("bi", ""), ("o", "")), lambda xp, W, x, c: G.linear(W, x, c)),
    "cross_entropy": ((("bc", ""), ("bc", "")), lambda xp, z, t: G.cross_entropy(z, t)),
    "kernel_sum": ((("id", ""), ("jd", ""), ("j", ""), ("", "pos")),
                   lambda xp, x, y, b, s: G.gaussian_kernel_sum(x, y, b, s)),
    "batched_matmul": ((("bik", ""), ("kj", "")), lambda xp, A, B: G.batched_matmul(A, B)),
    "bmm": ((("bik", ""), ("bkj", "")), lambda xp, A, B: G.bmm(A, B)),
    "batched_transpose": ((("bij", ""),), lambda xp, A: G.batched_transpose(A)),
    "batched_inv": ((("bnn", "wcB"),), lambda xp, A: G.batched_inv(A)),
    "batched_logdet": ((("bnn", "wcB"),), lambda xp, A: G.batched_logdet(A)),
    "batched_solve": ((("bnn", "wcB"), ("bn", "")), lambda xp, A, y: G.batched_solve(A, y)),
    "batched_cayley": ((("bnn", "small"),), lambda xp, A: G.batched_cayley(A)),
    "@": ((("rk", ""), ("bkc", "")), lambda xp, A, B: A @ B),
    "@vec": ((("k", ""), ("kc", "")), lambda xp, x, B: x @ B),
    "xp.inv": ((("bnn", "wcB"),), lambda xp, A: xp.linalg.inv(A)),
    "xp.det": ((("bnn", "wcB"),), lambda xp, A: xp.linalg.det(A)),
    "xp.slogdet": ((("nn", "wc"),), lambda xp, A: xp.linalg.slogdet(A)[1]),
    "xp.solve": ((("bnn", "wcB"), ("bnc", "")), lambda xp, A, B: xp.linalg.solve(A, B)),
    "xp.solve_vec": ((("nn", "wc"), ("n", "")), lambda xp, A, b: xp.linalg.solve(A, b)),
    "xp.cholesky": ((("nn", "spd"),), lambda xp, A: xp.linalg.cholesky(A)),
    "xp.einsum": ((("ij", ""), ("jk", "")), lambda xp, A, B: xp.einsum("ij,jk->ik", A, B)),
    "xp.einsum...": ((("bij", ""), ("jk", "")), lambda xp, A, B: xp.einsum("...ij,jk->...ik", A, B)),
    "xp.einsum_ii": ((("nnc", ""),), lambda xp, A: xp.einsum("iij->j", A)),
    "xp.tensordot": ((("ijk", ""), ("jkl", "")), lambda xp, A, B: xp.tensordot(A, B, axes=2)),
    "xp.diagonal": ((("rc", ""),), lambda xp, A: xp.diagonal(A)),
    "xp.trace": ((("nn", ""),), lambda xp, A: xp.trace(A)),
    "xp.tril": ((("rc", ""),), lambda xp, A: xp.tril(A)),
    "xp.triu": ((("rc", ""),), lambda xp, A: xp.triu(A, 1)),
    "xp.moveaxis": ((("ijk", ""),), lambda xp, A: xp.moveaxis(A, 0, -1)),
    "xp.swapaxes": ((("ijk", ""),), lambda xp, A: xp.swapaxes(A, 0, 2)),
    "xp.outer": ((("r", ""), ("c", "")), lambda xp, x, y: xp.outer(x, y)),
    "xp.dot": ((("rk", ""), ("kc", "")), lambda xp, A, B: xp.dot(A, B)),
}

REDUCTIONS = ("sum", "mean", "max", "min", "var", "prod")
SHAPE_OPS = REDUCTIONS + ("cumsum", "reshape", "transpose_axes", "index")
OPS = sorted(UNARY) + sorted(KINKED) + sorted(KINKED2) + sorted(BINARY) + sorted(STRUCTURED) + list(SHAPE_OPS)


# ------------------------------------------------------------------------------------------ programs as data
@dataclass(frozen=True)
class Step:
    op: str
    args: tuple          # indices into the program's values (inputs first)
    params: tuple = ()   # op-specific, hashable and printable

    def text(self):
        p = dict(self.params)
        a = [f"v{i}" for i in self.args]
        if self.op in KINKED:
            return f"{self.op}({a[0]} + {p['shift']:.3g})"
        if self.op in KINKED2:
            return f"{self.op}({a[0]} + {p['shift']:.3g}, {a[1]})"
        if self.op in STRUCTURED:
            parts = [f"{kind + '(' if kind else ''}take({x}, {shape}, {stride}, {off}){')' if kind else ''}"
                     for x, (shape, kind, stride, off) in zip(a, p["operands"])]
            return f"{self.op}({', '.join(parts)})"
        extra = ", ".join(f"{k}={v!r}" for k, v in self.params)
        return f"{self.op}({', '.join(a)}{', ' + extra if extra else ''})"


@dataclass
class Program:
    shapes: tuple
    seed: int
    steps: tuple
    grid: bool = False   # inputs on a grid of halves: exact zeros, ones and repeated values
    # derived from the seed: the point and the output weights
    xs: list = field(default_factory=list, repr=False)
    weights: list = field(default_factory=list, repr=False)

    def __repr__(self):
        inputs = ", ".join(f"v{i}{list(s)}" for i, s in enumerate(self.shapes))
        lines = [f"Program(seed={self.seed}, grid={self.grid}, inputs {inputs}"]
        n = len(self.shapes)
        lines += [f"  v{n + k} = {s.text()}" for k, s in enumerate(self.steps)]
        lines.append(f"  out = Σ w·v for v in {[f'v{i}' for i in self.sinks()]})")
        return "\n".join(lines)

    def sinks(self):
        """The values no later step reads: each enters the scalar output."""
        used = {i for s in self.steps for i in s.args}
        return [i for i in range(len(self.shapes) + len(self.steps)) if i not in used]

    def values(self, xp, xs):
        vals = list(xs)
        for s in self.steps:
            vals.append(apply_step(xp, s, vals))
        return vals

    def outputs(self, xp):
        return lambda *xs: tuple(self.values(xp, xs)[i] for i in self.sinks())

    def scalar(self, xp):
        def f(*xs):
            ys = self.outputs(xp)(*xs)
            return sum(xp.sum(w * y) for w, y in zip(self.weights, ys))
        return f


def apply_step(xp, step, vals):
    p = dict(step.params)
    ops = [vals[i] for i in step.args]
    if step.op in UNARY:
        return UNARY[step.op](xp, ops[0])
    if step.op in KINKED:
        return KINKED[step.op](xp, ops[0] + p["shift"])
    if step.op in KINKED2:
        return KINKED2[step.op](xp, ops[0] + p["shift"], ops[1])
    if step.op in BINARY:
        return BINARY[step.op](xp, *ops)
    if step.op in STRUCTURED:
        adapted = [adapt(xp, kind, take(xp, x, shape, stride, off))
                   for x, (shape, kind, stride, off) in zip(ops, p["operands"])]
        return STRUCTURED[step.op][1](xp, *adapted)
    x = ops[0]
    if step.op in REDUCTIONS:
        return getattr(xp, step.op)(x, axis=p["axis"], keepdims=p["keepdims"])
    if step.op == "cumsum":
        return xp.cumsum(x, axis=p["axis"])
    if step.op == "reshape":
        return xp.reshape(x, p["shape"])
    if step.op == "transpose_axes":
        return xp.transpose(x, p["axes"])
    if step.op == "index":
        return x[p["index"]]
    raise AssertionError(step.op)


# ------------------------------------------------------------------------------------------ strategies
SMALL_SHAPES = [s for nd in range(4) for s in itertools.product((1, 2, 3), repeat=nd) if np.prod(s) <= 12]


def _reshapes(size):
    return [s for s in SMALL_SHAPES + [(size,), (size, 1), (1, size)] if int(np.prod(s)) == size]


def _draw_index(draw, shape):
    items = []
    for n in shape[: draw(st.integers(0, len(shape)))]:
        kind = draw(st.sampled_from(["all", "int", "slice", "newaxis"]))
        if kind == "int":
            items.append(draw(st.integers(-n, n - 1)))
        elif kind == "slice":
            step = draw(st.sampled_from([1, -1, 2, -2]))
            items.append(slice(draw(st.integers(0, n - 1)), None, step))
        elif kind == "newaxis":
            items += [None, slice(None)]
        else:
            items.append(slice(None))
    return tuple(items)


def _draw_step(draw, vals):
    op = draw(st.sampled_from(OPS))
    a = len(vals) - 1 - draw(st.integers(0, len(vals) - 1))  # shrinks towards the latest value: a chain
    x = vals[a]
    if op in UNARY:
        return Step(op, (a,))
    if op in KINKED or op in KINKED2:
        # a shift putting every element at least KINK_GAP away from a kink (the data decides it)
        b = draw(st.integers(0, len(vals) - 1)) if op in KINKED2 else None
        if b is not None:
            assume(_broadcastable(np.shape(x), np.shape(vals[b])))
        kinks = KINKS.get(op, (0.0,)) if b is None else vals[b]
        shift = draw(st.sampled_from([0.0, 0.3, -0.3, 0.7]))
        for _ in range(20):
            if _far(x + shift, kinks):
                break
            shift += 0.37
        assume(_far(x + shift, kinks))
        return Step(op, (a,) if b is None else (a, b), (("shift", shift),))
    if op in BINARY:
        ok = [j for j, v in enumerate(vals) if _broadcastable(np.shape(x), np.shape(v))]
        return Step(op, (a, draw(st.sampled_from(ok))))
    if op in STRUCTURED:
        specs = STRUCTURED[op][0]
        ext = {c: draw(st.integers(1, 3)) for c in sorted({c for axes, _ in specs for c in axes})}
        args, operands = [], []
        for k, (axes, kind) in enumerate(specs):
            args.append(a if k == 0 else draw(st.integers(0, len(vals) - 1)))
            shape = tuple(ext[c] for c in axes)
            operands.append((shape, kind, draw(st.sampled_from([1, 2, 3])), draw(st.integers(0, 4))))
        return Step(op, tuple(args), (("operands", tuple(operands)),))
    nd = np.ndim(x)
    if op == "cumsum":
        return Step(op, (a,), (("axis", draw(st.sampled_from([None] + list(range(-nd, nd))))),))
    if op in REDUCTIONS:
        tuples = [(0, nd - 1)] if nd >= 2 and op not in ("max", "min") else []
        params = (("axis", draw(st.sampled_from([None] + list(range(-nd, nd)) + tuples))),
                  ("keepdims", draw(st.booleans())))
        if op in ("max", "min"):  # keep the extremum away from a tie (finite differences would straddle it)
            axis = dict(params)["axis"]
            rows = np.sort(np.ravel(x) if axis is None else np.moveaxis(x, axis, -1).reshape(-1, x.shape[axis]))
            if rows.shape[-1] >= 2:
                gaps = rows[..., -1] - rows[..., -2] if op == "max" else rows[..., 1] - rows[..., 0]
                assume(np.min(gaps) > KINK_GAP)
        return Step(op, (a,), params)
    if op == "reshape":
        return Step(op, (a,), (("shape", draw(st.sampled_from(_reshapes(int(np.size(x)))))),))
    if op == "transpose_axes":
        return Step(op, (a,), (("axes", tuple(draw(st.permutations(range(nd))))),))
    return Step(op, (a,), (("index", _draw_index(draw, np.shape(x))),))


def _far(x, kinks):
    """Every element of x at least KINK_GAP from every kink: a tuple of points, or an array broadcast against x."""
    if isinstance(kinks, tuple):
        return all(np.all(np.abs(x - k) >= KINK_GAP) for k in kinks)
    return bool(np.all(np.abs(x - kinks) >= KINK_GAP))


def _broadcastable(s, t):
    try:
        np.broadcast_shapes(s, t)
        return True
    except ValueError:
        return False


def make_program(shapes, seed, steps, grid=False):
    """The program with its point and weights filled in from `seed` (a pure function of the description)."""
    prog = Program(tuple(shapes), seed, tuple(steps), grid)
    rng = np.random.default_rng(seed)
    prog.xs = [rng.uniform(-1.5, 1.5, s) for s in shapes]
    if grid:
        prog.xs = [np.asarray(np.round(2 * x) / 2) for x in prog.xs]
    ys = prog.outputs(np)(*prog.xs)
    prog.weights = [rng.standard_normal(np.shape(y)) for y in ys]
    return prog


@st.composite
def programs(draw, max_steps=6):
    shapes = draw(st.lists(st.sampled_from(SMALL_SHAPES), min_size=1, max_size=3))
    seed = draw(st.integers(0, 2 ** 32 - 1))
    grid = draw(st.booleans())
    vals = list(make_program(shapes, seed, (), grid).xs)
    steps = []
    for _ in range(draw(st.integers(2, max_steps))):
        step = _draw_step(draw, vals)
        with np.errstate(all="ignore"):
            v = apply_step(np, step, vals)
        # keep values moderate: finite differences of huge values lose every digit
        assume(np.all(np.isfinite(v)) and np.max(np.abs(v), initial=0.0) < 1e3)
        steps.append(step)
        vals.append(np.asarray(v))
    return make_program(shapes, seed, steps, grid)


# ------------------------------------------------------------------------------------------ the properties
EPS = 1e-6


def _fd(f, xs, dirs, eps=EPS):
    """Central difference of f (any pytree of arrays out) at xs along dirs."""
    hi = f(*[x + eps * d for x, d in zip(xs, dirs)])
    lo = f(*[x - eps * d for x, d in zip(xs, dirs)])
    return [(np.asarray(h) - np.asarray(l)) / (2 * eps) for h, l in zip(hi, lo)]


def _close(got, ref, prog, what, rtol=1e-5, atol=1e-6):
    for k, (g, r) in enumerate(zip(got, ref)):
        g, r = np.asarray(g, dtype=np.float64), np.asarray(r, dtype=np.float64)
        assert g.shape == r.shape, f"{what} [{k}]: shape {g.shape} vs {r.shape}\n{prog}"
        floor = atol * (1.0 + np.max(np.abs(r), initial=0.0))
        err = np.abs(g - r) - rtol * np.abs(r)
        assert np.all(err <= floor), (f"{what} [{k}]: max error {np.max(np.abs(g - r)):.3g}\n"
                                      f"got {g}\nref {r}\n{prog}")


def _directions(prog, salt):
    rng = np.random.default_rng([prog.seed, salt])
    return [rng.standard_normal(np.shape(x)) for x in prog.xs]


def _argnums(prog):
    return tuple(range(len(prog.xs)))


def check_grad(prog):
    """(a) reverse mode against central differences, one coordinate at a time."""
    f_np = prog.scalar(np)
    g = grad(prog.scalar(tnp), _argnums(prog))(*prog.xs)
    ref = []
    for k, x in enumerate(prog.xs):
        gk = np.zeros(np.shape(x))
        for i in np.ndindex(np.shape(x)):
            e = [np.zeros(np.shape(v)) for v in prog.xs]
            e[k][i] = 1.0
            gk[i] = _fd(lambda *xs: [f_np(*xs)], prog.xs, e)[0]
        ref.append(gk)
    _close(g, ref, prog, "grad")


def check_jvp_vjp(prog):
    """(b) forward mode against central differences along a random direction; jvp and vjp are adjoint."""
    f = prog.outputs(tnp)
    dirs = _directions(prog, 1)
    ys, dys = jvp(f, prog.xs, dirs)
    _close(dys, _fd(prog.outputs(np), prog.xs, dirs), prog, "jvp")
    ybars = [np.random.default_rng([prog.seed, 2, k]).standard_normal(np.shape(y)) for k, y in enumerate(ys)]
    _, back = vjp(f, *prog.xs)
    xbars = back(tuple(ybars))
    lhs = sum(np.sum(yb * dy) for yb, dy in zip(ybars, dys))
    rhs = sum(np.sum(xb * d) for xb, d in zip(xbars, dirs))
    assert np.isclose(lhs, rhs, rtol=1e-9, atol=1e-9 * (1 + abs(lhs))), \
        f"<ȳ, J ẋ> = {lhs} but <Jᵀ ȳ, ẋ> = {rhs}\n{prog}"


def check_hvp(prog):
    """(c) the Hessian along v two ways (grad of <grad f, v>, jvp of grad f) and by differences of grad f."""
    gf = grad(prog.scalar(tnp), _argnums(prog))
    v = _directions(prog, 3)
    hv_rev = grad(lambda *xs: sum(tnp.sum(g * d) for g, d in zip(gf(*xs), v)), _argnums(prog))(*prog.xs)
    _, hv_fwd = jvp(gf, prog.xs, v)
    _close(hv_fwd, hv_rev, prog, "hvp forward-over-reverse vs reverse-over-reverse", rtol=1e-8, atol=1e-9)
    _close(hv_rev, _fd(gf, prog.xs, v), prog, "hvp vs differences of grad", rtol=1e-5, atol=1e-5)


def check_float32(prog):
    """(d) float32 inputs get float32 gradients, close to the float64 ones."""
    x32 = [x.astype(np.float32) for x in prog.xs]
    g32 = grad(prog.scalar(tnp), _argnums(prog))(*x32)
    g64 = grad(prog.scalar(tnp), _argnums(prog))(*[x.astype(np.float64) for x in x32])
    for k, g in enumerate(g32):
        assert isinstance(g, np.ndarray) and g.dtype == np.float32, \
            f"gradient {k} is {type(g).__name__} {getattr(g, 'dtype', '')}, not float32\n{prog}"
    _close(g32, g64, prog, "float32 grad vs float64", rtol=1e-2, atol=1e-3)
    # forward mode: a float32 output has a float32 tangent; second order keeps float32 too
    ys, dys = jvp(prog.outputs(tnp), x32, [d.astype(np.float32) for d in _directions(prog, 1)])
    for k, (y, dy) in enumerate(zip(ys, dys)):
        assert np.asarray(dy).dtype == np.asarray(y).dtype, f"output {k} is {np.asarray(y).dtype}, its tangent " \
                                                             f"{np.asarray(dy).dtype}\n{prog}"
    _, hv = jvp(grad(prog.scalar(tnp), _argnums(prog)), x32, [d.astype(np.float32) for d in _directions(prog, 3)])
    for k, h in enumerate(hv):
        assert np.asarray(h).dtype == np.float32, f"Hessian-vector product {k} is {np.asarray(h).dtype}\n{prog}"


# ------------------------------------------------------------------------------------------ the tests
SETTINGS = settings(max_examples=300, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@SETTINGS
@given(programs())
def test_grad_matches_finite_differences(prog):
    check_grad(prog)


@SETTINGS
@given(programs())
def test_jvp_matches_finite_differences_and_is_adjoint_to_vjp(prog):
    check_jvp_vjp(prog)


@SETTINGS
@given(programs())
def test_hessian_vector_products_agree(prog):
    check_hvp(prog)


@SETTINGS
@given(programs())
def test_float32_inputs_get_float32_gradients(prog):
    check_float32(prog)
