"""How short the displayed pullbacks are against textbook tables of identities (issue 13, part 2).

Each row is a rule, the source it comes from, and the pullback that source writes for it, transcribed from
the book into our notation (x̄ written dx, the seed ȳ written dy: the book's gradient G of a scalar y is the
pullback dx = dy·G) -- never copied from our output. For each row the script derives the rule, shows its
pullback as `derive-rules` does (matrix form only where it passes display_check's numerical comparison, else
index form), and reports whether every displayed cotangent the row names is in matrix form and no longer
than the book's.

Length (`symbols`): the right-hand sides, counted one symbol per
  - name (letters, digits, primes, `_`: `dX`, `t0`, `adj`, `sigmoid`; `𝟙`, `I`, `σ`, `ε` too), number,
    extent (`size(i)`, the book's n),
  - run of superscripts (`ᵀ`, `⁻¹`, `⁻ᵀ`, `²`, `∘²`),
  - other character (`+ - / ⊙ ( ) | ‖ ,`),
with spaces and the product dot `·` not counted (books write a product by juxtaposition). A row's length is
the sum over the lines that give its named cotangents, plus the lines of the intermediates those read
(`dt0 = ...`, `dz = ...`), each counted once; an intermediate's name counts as one symbol where it is read.
The book's rows are counted by the same rule, its own intermediates (Giles' B̄ in Ā = -B̄·Cᵀ) included.

`python benchmarks/bench_display.py [--markdown]` (about a minute; prints the table and the share).
"""
from __future__ import annotations

import argparse
import re
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

MC = "Matrix Cookbook (Petersen & Pedersen, 2012)"
GILES = "Giles, An extended collection of matrix derivative results (2008)"
NN = "NN layer (standard backward pass, e.g. Goodfellow et al. §6.5)"

# (source, rule, {displayed cotangent: the book's pullback})
TABLE = [
    # -- The Matrix Cookbook §2.1.2 determinants
    (f"{MC} (49)", "f(X[i,j]) -> y[] = det(X)", {"dX": "dX = dy·det(X)·X⁻ᵀ"}),
    (f"{MC} (53), k = 3", "f(X[i,j]) -> y[] = det(X[i,k]*X[k,l]*X[l,j])", {"dX": "dX = 3·dy·det(X³)·X⁻ᵀ"}),
    (f"{MC} (57)", "f(X[i,j]) -> y[] = log(abs(det(X)))", {"dX": "dX = dy·X⁻ᵀ"}),
    (f"{MC} (57), X spd", "f(X[i,j]: spd) -> y[] = logdet(X)", {"dX": "dX = dy·X⁻ᵀ"}),
    (f"{MC} (50)", "f(A[i,j], X[j,k], B[k,l]) -> y[] = det(A[i,j]*X[j,k]*B[k,l])",
     {"dX": "dX = dy·det(A·X·B)·X⁻ᵀ"}),
    (f"{MC} (56)", "f(X[i,j]) -> y[] = det(inv(X))", {"dX": "dX = -dy·det(X⁻¹)·X⁻ᵀ"}),
    (f"{MC} (55), ln det(XᵀX)", "f(X[k:6,i:3]) -> y[] = logdet(X[k,i]*X[k,j])",
     {"dX": "dX = 2·dy·X·(Xᵀ·X)⁻¹"}),
    # -- §2.2 inverses
    (f"{MC} (61)", "f(a[i], X[i,j], b[j]) -> y[] = a[i]*inv(X)[i,j]*b[j]", {"dX": "dX = -dy·X⁻ᵀ·a·bᵀ·X⁻ᵀ"}),
    (f"{MC} (63)", "f(A[i,j], X[j,k], B[k,i]) -> y[] = A[i,j]*inv(X)[j,k]*B[k,i]",
     {"dX": "dX = -dy·(X⁻¹·B·A·X⁻¹)ᵀ"}),
    (f"{MC} (63), A = B = I", "f(X[i,j]) -> y[] = inv(X)[i,i]", {"dX": "dX = -dy·(X⁻²)ᵀ"}),
    (f"{MC} (61), a = b", "f(x[i], S[i,j]) -> y[] = x[i]*inv(S)[i,j]*x[j]",
     {"dx": "dx = dy·(S⁻¹ + S⁻ᵀ)·x", "dS": "dS = -dy·S⁻ᵀ·x·xᵀ·S⁻ᵀ"}),
    (f"{GILES} §2.2.1 inverse", "f(A[i,j]) -> B = inv(A)", {"dA": "dA = -Bᵀ·dB·Bᵀ"}),
    # -- §2.4 linear and quadratic forms
    (f"{MC} (69)", "f(x[i], a[i]) -> y[] = x[i]*a[i]", {"dx": "dx = dy·a"}),
    (f"{MC} (70)", "f(a[i], X[i,j], b[j]) -> y[] = a[i]*X[i,j]*b[j]", {"dX": "dX = dy·a·bᵀ"}),
    (f"{MC} (71)", "f(a[i], X[j,i], b[j]) -> y[] = a[i]*X[j,i]*b[j]", {"dX": "dX = dy·b·aᵀ"}),
    (f"{MC} (72)", "f(a[i], X[i,j]) -> y[] = a[i]*X[i,j]*a[j]", {"dX": "dX = dy·a·aᵀ"}),
    (f"{MC} (77)", "f(b[i], X[k,i], c[j]) -> y[] = b[i]*X[k,i]*X[k,j]*c[j]", {"dX": "dX = dy·X·(b·cᵀ + c·bᵀ)"}),
    (f"{MC} (78)", "f(B[i,j], x[j], b[i], C[i,k], D[k,l], d[k]) -> y[] = "
                   "(B[i,j]*x[j] + b[i])*C[i,k]*(D[k,l]*x[l] + d[k])",
     {"dx": "dx = dy·(Bᵀ·C·(D·x + d) + Dᵀ·Cᵀ·(B·x + b))"}),
    (f"{MC} (80)", "f(b[i], X[k,i], D[k,l], c[j]) -> y[] = b[i]*X[k,i]*D[k,l]*X[l,j]*c[j]",
     {"dX": "dX = dy·(Dᵀ·X·b·cᵀ + D·X·c·bᵀ)"}),
    (f"{MC} (81)", "f(X[i,j], b[j], c[i], D[i,k]) -> y[] = (X[i,j]*b[j] + c[i])*D[i,k]*(X[k,l]*b[l] + c[k])",
     {"dX": "dX = dy·(D + Dᵀ)·(X·b + c)·bᵀ"}),
    (f"{MC} (84), W symmetric", "f(x[i], A[i,j], s[j], W[i,k]: symmetric) -> y[] = "
                                "(x[i] - A[i,j]*s[j])*W[i,k]*(x[k] - A[k,l]*s[l])",
     {"ds": "ds = -2·dy·Aᵀ·W·(x - A·s)"}),
    (f"{MC} (86)", "f(x[i], B[i,j]) -> y[] = x[i]*B[i,j]*x[j]", {"dx": "dx = dy·(B + Bᵀ)·x"}),
    (f"{MC} (86), B = I", "f(x[i]) -> y[] = x[i]*x[i]", {"dx": "dx = 2·dy·x"}),
    (f"{MC} (129)", "f(x[i], a[i]) -> y[] = sqrt((x[i] - a[i])*(x[i] - a[i]))", {"dx": "dx = dy·(x - a)/‖x - a‖"}),
    (f"{MC} (119) least squares, vector", "f(A[i,j], x[j], b[i]) -> y[] = sum(i, (A[i,j]*x[j] - b[i])**2)",
     {"dx": "dx = 2·dy·Aᵀ·(A·x - b)"}),
    # -- §2.5 traces
    (f"{MC} (99)", "f(X[i,j]) -> y[] = X[i,i]", {"dX": "dX = dy·I"}),
    (f"{MC} (100)", "f(A[i,j], X[j,i]) -> y[] = A[i,j]*X[j,i]", {"dX": "dX = dy·Aᵀ"}),
    (f"{MC} (101)", "f(A[i,j], X[j,k], B[k,i]) -> y[] = A[i,j]*X[j,k]*B[k,i]", {"dX": "dX = dy·Aᵀ·Bᵀ"}),
    (f"{MC} (102)", "f(A[i,j], X[k,j], B[k,i]) -> y[] = A[i,j]*X[k,j]*B[k,i]", {"dX": "dX = dy·B·A"}),
    (f"{MC} (103)", "f(X[j,i], A[j,i]) -> y[] = X[j,i]*A[j,i]", {"dX": "dX = dy·A"}),
    (f"{MC} (106)", "f(X[i,j]) -> y[] = X[i,j]*X[j,i]", {"dX": "dX = 2·dy·Xᵀ"}),
    (f"{MC} (107)", "f(X[i,j], B[k,i]) -> y[] = X[i,j]*X[j,k]*B[k,i]", {"dX": "dX = dy·(X·B + B·X)ᵀ"}),
    (f"{MC} (108)", "f(X[i,j], B[i,k]) -> y[] = X[i,j]*B[i,k]*X[k,j]", {"dX": "dX = dy·(B·X + Bᵀ·X)"}),
    (f"{MC} (109)", "f(B[i,j], X[j,k]) -> y[] = B[i,j]*X[j,k]*X[i,k]", {"dX": "dX = dy·(B·X + Bᵀ·X)"}),
    (f"{MC} (111)", "f(X[i,j], B[j,k]) -> y[] = X[i,j]*B[j,k]*X[i,k]", {"dX": "dX = dy·(X·Bᵀ + X·B)"}),
    (f"{MC} (112)", "f(B[i,j], X[k,j]) -> y[] = B[i,j]*X[k,j]*X[k,i]", {"dX": "dX = dy·(X·Bᵀ + X·B)"}),
    (f"{MC} (114)", "f(A[i,j], X[j,k], B[k,l]) -> y[] = A[i,j]*X[j,k]*B[k,l]*X[l,i]",
     {"dX": "dX = dy·(Aᵀ·Xᵀ·Bᵀ + Bᵀ·Xᵀ·Aᵀ)"}),
    (f"{MC} (115)", "f(X[i,j]) -> y[] = X[i,j]*X[i,j]", {"dX": "dX = 2·dy·X"}),
    (f"{MC} (116)", "f(B[j,l], X[i,j], C[i,k]) -> y[] = B[j,l]*X[i,j]*C[i,k]*X[k,m]*B[m,l]",
     {"dX": "dX = dy·(Cᵀ·X·B·Bᵀ + C·X·B·Bᵀ)"}),
    (f"{MC} (117)", "f(X[i,j], B[i,k], C[l,j]) -> y[] = X[i,j]*B[i,k]*X[k,l]*C[l,j]",
     {"dX": "dX = dy·(B·X·C + Bᵀ·X·Cᵀ)"}),
    (f"{MC} (118)", "f(A[i,j], X[j,k], B[k,l], C[m,i]) -> y[] = A[i,j]*X[j,k]*B[k,l]*X[m,l]*C[m,i]",
     {"dX": "dX = dy·(Aᵀ·Cᵀ·X·Bᵀ + C·A·X·B)"}),
    (f"{MC} (119)", "f(A[i,j], X[j,k], B[k,l], C[i,l]) -> y[] = sum(i, l, (A[i,j]*X[j,k]*B[k,l] + C[i,l])**2)",
     {"dX": "dX = 2·dy·Aᵀ·(A·X·B + C)·Bᵀ"}),
    (f"{MC} (121), k = 3", "f(X[i,j]) -> y[] = X[i,j]*X[j,k]*X[k,i]", {"dX": "dX = 3·dy·(X²)ᵀ"}),
    # -- Giles §2: the elementary matrix operations
    (f"{GILES} §2.1 sum", "f(A[i,j], B[i,j]) -> C[i,j] = A[i,j] + B[i,j]", {"dA": "dA = dC", "dB": "dB = dC"}),
    (f"{GILES} §2.1 product", "f(A[i,k], B[k,j]) -> C[i,j] = A[i,k]*B[k,j]",
     {"dA": "dA = dC·Bᵀ", "dB": "dB = Aᵀ·dC"}),
    (f"{GILES} §2.1 transpose", "f(A[i,j]) -> C[j,i] = A[i,j]", {"dA": "dA = dCᵀ"}),
    (f"{GILES} §2.1 Hadamard product", "f(A[i,j], B[i,j]) -> C[i,j] = A[i,j]*B[i,j]", {"dA": "dA = dC ⊙ B"}),
    (f"{GILES} §2.2.2 determinant", "f(A[i,j]) -> C[] = det(A)", {"dA": "dA = dC·C·A⁻ᵀ"}),
    (f"{GILES} §2.3.1 solve", "f(A[i,j], b[i]) -> x = solve(A, b)",
     {"db": "db = A⁻ᵀ·dx", "dA": "dA = -db·xᵀ"}),
    (f"{GILES} §2.1 matrix-vector product", "f(A[i,j], x[j]) -> y[i] = A[i,j]*x[j]",
     {"dA": "dA = dy·xᵀ", "dx": "dx = Aᵀ·dy"}),
    (f"{GILES} §2.1 outer product", "f(a[i], b[j]) -> C[i,j] = a[i]*b[j]", {"da": "da = dC·b", "db": "db = dCᵀ·a"}),
    (f"{GILES} §2.1 scalar multiple", "f(s, X[i,j]) -> Y[i,j] = s*X[i,j]",
     {"ds": "ds = tr(dYᵀ·X)", "dX": "dX = s·dY"}),
    # -- the same identities per batch element b (NumPy's leading batch axis): X_b is X[b,:,:], a tensor without b
    # is shared across the batch and its cotangent sums over b (Giles sums the contributions of each use)
    (f"{GILES} §2.1 product, per batch element", "f(A[b,i,k], B[b,k,j]) -> C[b,i,j] = A[b,i,k]*B[b,k,j]",
     {"dA_b": "dA_b = dC_b·B_bᵀ", "dB_b": "dB_b = A_bᵀ·dC_b"}),
    (f"{GILES} §2.1 product, batch times shared", "f(A[b,i,k], B[k,j]) -> C[b,i,j] = A[b,i,k]*B[k,j]",
     {"dA_b": "dA_b = dC_b·Bᵀ", "dB": "dB = Σ_b A_bᵀ·dC_b"}),
    (f"{GILES} §2.1 transpose, per batch element", "f(A[b,i,j]) -> C[b,j,i] = A[b,i,j]", {"dA_b": "dA_b = dC_bᵀ"}),
    (f"{GILES} §2.2.1 inverse, per batch element", "f(A[b,i,j]) -> B[b,i,j] = inv(A[b,i,j])",
     {"dA_b": "dA_b = -B_bᵀ·dB_b·B_bᵀ"}),
    (f"{GILES} §2.3.1 solve, per batch element", "f(A[b,i,j], c[b,i]) -> x[b,i] = solve(A[b,i,j], c[b,j])",
     {"dc_b": "dc_b = A_b⁻ᵀ·dx_b", "dA_b": "dA_b = -dc_b·x_bᵀ"}),
    (f"{MC} (57), X spd, per batch element", "f(X[b,i,j]: spd) -> y[b] = logdet(X[b,i,j])",
     {"dX_b": "dX_b = dy_b·X_b⁻ᵀ"}),
    # -- neural-network layers
    (f"{NN}: dense layer", "f(W[o,i], x[i], b[o]) -> y[o] = W[o,i]*x[i] + b[o]",
     {"dW": "dW = dy·xᵀ", "dx": "dx = Wᵀ·dy", "db": "db = dy"}),
    (f"{NN}: dense layer, batch", "f(X[n,i], W[o,i], b[o]) -> Y[n,o] = X[n,i]*W[o,i] + b[o]",
     {"dX": "dX = dY·W", "dW": "dW = dYᵀ·X", "db": "db = dYᵀ·𝟙"}),
    (f"{NN}: relu", "f(x[i]) -> y[i] = where(x[i] > 0, x[i], 0)", {"dx": "dx = dy ⊙ (x > 0)"}),
    (f"{NN}: sigmoid", "f(x[i]) -> y[i] = sigmoid(x[i])", {"dx": "dx = dy ⊙ y ⊙ (1 - y)"}),
    (f"{NN}: tanh", "f(x[i]) -> y[i] = tanh(x[i])", {"dx": "dx = dy ⊙ (1 - y²)"}),
    (f"{NN}: exp", "f(x[i]) -> y[i] = exp(x[i])", {"dx": "dx = dy ⊙ y"}),
    (f"{NN}: log", "f(x[i]) -> y[i] = log(x[i])", {"dx": "dx = dy/x"}),
    (f"{NN}: softplus", "f(x[i]) -> y[i] = log(1 + exp(x[i]))", {"dx": "dx = dy ⊙ σ(x)"}),
    (f"{NN}: elementwise scale", "f(a[i], x[i]) -> y[i] = a[i]*x[i]", {"dx": "dx = a ⊙ dy"}),
    (f"{NN}: softmax", "f(x[i]) -> y[i] = exp(x[i]) / sum(k, exp(x[k]))", {"dx": "dx = y ⊙ (dy - (yᵀ·dy))"}),
    (f"{NN}: softmax, rows of a batch", "f(x[b,c]) -> y[b,c] = exp(x[b,c]) / sum(k, exp(x[b,k]))",
     {"dx": "dx = y ⊙ (dy - (dy ⊙ y)·𝟙·𝟙ᵀ)"}),
    (f"{NN}: log-softmax", "f(x[i]) -> y[i] = x[i] - log(sum(k, exp(x[k])))", {"dx": "dx = dy - exp(y)·(𝟙ᵀ·dy)"}),
    (f"{NN}: log-softmax, rows of a batch", "f(x[b,c]) -> y[b,c] = x[b,c] - log(sum(k, exp(x[b,k])))",
     {"dx": "dx = dy - exp(y) ⊙ (dy·𝟙·𝟙ᵀ)"}),
    (f"{NN}: logsumexp", "f(x[i]) -> y[] = log(sum(i, exp(x[i])))", {"dx": "dx = dy·softmax(x)"}),
    (f"{NN}: mean squared error", "f(p[i], t[i]) -> L[] = sum(i, (p[i] - t[i])**2) / size(i)",
     {"dp": "dp = 2·dL·(p - t)/size(i)"}),
    (f"{NN}: binary cross-entropy on logits", "f(z[i], t[i]) -> L[] = sum(i, log(1 + exp(z[i])) - t[i]*z[i])",
     {"dz": "dz = dL·(σ(z) - t)"}),
    # the book's p - t takes Σt = 1, which a rule cannot declare: p·(𝟙ᵀt) - t in general
    (f"{NN}: softmax cross-entropy", "f(z[c], t[c]) -> L[] = -sum(c, t[c]*(z[c] - log(sum(k, exp(z[k])))))",
     {"dz": "dz = dL·(softmax(z)·(𝟙ᵀ·t) - t)"}),
    (f"{NN}: layer normalization", "f(x[i]) -> y[i]:\n    mu[] = sum(i, x[i]) / size(i)\n"
                                   "    v[] = sum(i, (x[i] - mu)**2) / size(i)\n"
                                   "    y[i] = (x[i] - mu) / sqrt(v + 1e-5)",
     {"dx": "dx = (dy - 𝟙·(𝟙ᵀ·dy)/size(i) - y·(yᵀ·dy)/size(i))/sqrt(v + ε)"}),
    (f"{NN}: L2 normalization", "f(x[i]) -> y[i] = x[i] / sqrt(sum(k, x[k]*x[k]))",
     {"dx": "dx = (dy - y·(yᵀ·dy))/‖x‖"}),
    (f"{NN}: attention scores", "f(Q[n,d], K[m,d]) -> S[n,m] = Q[n,d]*K[m,d] / sqrt(size(d))",
     {"dQ": "dQ = dS·K/sqrt(size(d))", "dK": "dK = dSᵀ·Q/sqrt(size(d))"}),
    (f"{NN}: sum", "f(X[i,j]) -> y[] = sum(i, j, X[i,j])", {"dX": "dX = dy·𝟙·𝟙ᵀ"}),
    (f"{NN}: row sums", "f(X[i,j]) -> y[i] = sum(j, X[i,j])", {"dX": "dX = dy·𝟙ᵀ"}),
    (f"{NN}: bias broadcast", "f(x[b,o], c[o]) -> y[b,o] = x[b,o] + c[o]", {"dc": "dc = dyᵀ·𝟙"}),
    (f"{NN}: diagonal", "f(X[i,j]) -> y[i] = X[i,i]", {"dX": "dX = diag(dy)"}),
    (f"{MC} §8.1.1 Gaussian negative log-likelihood, S spd",
     "f(x[i], mu[i], S[i,j]: spd) -> L[] = (x[i] - mu[i])*inv(S)[i,j]*(x[j] - mu[j])/2 + logdet(S)/2",
     {"dmu": "dmu = -dL·S⁻¹·(x - mu)", "dS": "dS = dL·(S⁻¹ - S⁻¹·(x - mu)·(x - mu)ᵀ·S⁻¹)/2"}),
]

_SUPER = "ᵀ⁻¹²³⁴⁵⁶⁷⁸⁹⁰∘"
_TOKEN = re.compile(rf"size\([^()]*\)|[A-Za-z_0-9′ΣσεμΦ𝟙]+|[{_SUPER}]+|\S")


def symbols(text: str, names=()) -> int:
    """Symbols of a right-hand side (see the module's docstring); `names` are intermediates, one symbol each."""
    for n in sorted(names, key=len, reverse=True):
        text = text.replace(n, "N")
    return sum(1 for t in _TOKEN.findall(text) if t != "·")


def _lines(text):
    out = {}
    for line in text.splitlines():
        lhs, _, rhs = line.partition(" = ")
        out[lhs] = rhs
    return out


def _cost(lines: dict, targets, index_marker=True):
    """(symbols, every line used is matrix form, lines used) of the named targets and what they read."""
    base = {t.split("[")[0]: t for t in lines}
    inter = [b for b in base if b not in targets]
    need, todo = [], list(targets)
    while todo:
        b = todo.pop()
        if b in need or b not in base:
            continue
        need.append(b)
        rhs = lines[base[b]]
        todo += [n for n in inter if re.search(rf"(?<![\w′]){re.escape(n)}(?![\w′])", rhs)]
    total = sum(symbols(lines[base[b]], [n for n in inter if n != b]) for b in need)
    matrix = all("[" not in base[b] for b in need)
    return total, matrix, [f"{base[b]} = {lines[base[b]]}" for b in need]


def _rule_text(rule):
    if "\n" in rule:
        return rule + "\n"
    return rule + "\n"


def measure(rows=TABLE):
    """One dict per row: source, rule, shown (the displayed lines used), matrix, ours, book, ok."""
    from derive.calculus import differential as calculus
    from derive.display import forms as display
    from derive.api import parse
    from derive.lowering.lower import lower

    out = []
    for source, rule, book in rows:
        r = parse(textwrap.dedent(_rule_text(rule)), "<bench_display>")[0]
        prog = lower(r)
        d = calculus.derive(prog)
        shown = display.program_text(d, "pullback")     # at every input the code accepts (issue 25)
        lines = _lines(shown)
        inputs = {"d" + v for v in re.findall(r"(\w+)(?:\[[^\]]*\])?(?::\s*\w+)?\s*[,)]", rule.split("->")[0])}
        ours, matrix, used = _cost({k: v for k, v in lines.items()
                                    if k.split("[")[0] in book or k.split("[")[0] not in inputs}, list(book))
        ref_lines = {v.split(" = ")[0]: v.split(" = ", 1)[1] for v in book.values()}
        theirs = sum(symbols(rhs) for rhs in ref_lines.values())
        out.append({"source": source, "rule": rule, "shown": used, "matrix": matrix, "ours": ours,
                    "book": theirs, "book_form": list(book.values()), "ok": matrix and ours <= theirs})
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)
    rows = measure()
    for k, r in enumerate(rows, 1):
        mark = "ok" if r["ok"] else ("LONGER" if r["matrix"] else "INDEX")
        print(f"{k:3d} {mark:6s} {r['ours']:3d} vs {r['book']:3d}  {r['source']}")
        print(f"      rule: {r['rule'].splitlines()[0]}{' ...' if chr(10) in r['rule'] else ''}")
        for line in r["shown"]:
            print(f"      ours: {line}")
        for line in r["book_form"]:
            print(f"      book: {line}")
    n_ok = sum(r["ok"] for r in rows)
    n_index = sum(not r["matrix"] for r in rows)
    n_long = sum(r["matrix"] and not r["ok"] for r in rows)
    print(f"\n{n_ok}/{len(rows)} ({100 * n_ok / len(rows):.0f} %) in matrix form no longer than the book's; "
          f"{n_index} index form, {n_long} longer matrix form")
    if args.markdown:
        print("\n| # | source | ours | book | matrix form | no longer |\n|---|---|---|---|---|---|")
        for k, r in enumerate(rows, 1):
            print(f"| {k} | {r['source']} | {r['ours']} | {r['book']} | {'yes' if r['matrix'] else 'no'} "
                  f"| {'yes' if r['ok'] else 'no'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
