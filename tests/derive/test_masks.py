"""Index comparisons as values (derive/ir/masks.py): where(j <= i, ...) against NumPy's cumsum, tril/triu and a
causal softmax; finite differences in both modes; cumsum emitted as np.cumsum without an N×N mask; errors."""
import re
import tracemalloc

import numpy as np
import pytest

import generated.masks as gm
from derive import api
from derive.emission.kernel_plan import CudaPrinter
from derive.ir.masks import Iverson
from derive.ir.nodes import Idx
from derive.language.errors import DeriveError
from derive.verification import verify
from runtime import grad, jvp, tnp, vjp
from runtime.tangents import ZeroTangent, unthunk

rng = np.random.default_rng(12)


def _derive(text):
    return api.derive_text(text, "<expr>", bare_name=None if "->" in text else "expr")[0]


def _fd_jvp(f, args, tans, eps=1e-6):
    plus = f(*[a + eps * t for a, t in zip(args, tans)])
    minus = f(*[a - eps * t for a, t in zip(args, tans)])
    return (plus - minus) / (2 * eps)


def _causal_softmax_ref(s):
    n, m = s.shape
    mask = np.arange(m)[None, :] <= np.arange(n)[:, None]
    z = np.where(mask, s, -np.inf)
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


REFS = {
    "cumsum": (lambda x: np.cumsum(x), [(7,)]),
    "cumsum_exclusive": (lambda x: np.concatenate([[0.0], np.cumsum(x)[:-1]]), [(7,)]),
    "reverse_cumsum": (lambda x: np.cumsum(x[::-1])[::-1], [(7,)]),
    "cumsum_rows": (lambda x: np.cumsum(x, axis=1), [(3, 6)]),
    "tril": (np.tril, [(5, 4)]),
    "triu_strict": (lambda A: np.triu(A, 1), [(4, 6)]),
    "causal_softmax": (_causal_softmax_ref, [(5, 5)]),
    "causal_attention": (lambda q, k, v: _causal_softmax_ref(q @ k.T / np.sqrt(q.shape[1])) @ v,
                         [(6, 3), (6, 3), (6, 2)]),
}


@pytest.mark.parametrize("name", sorted(REFS))
def test_values_match_numpy(name):
    ref, shapes = REFS[name]
    args = [rng.standard_normal(s) for s in shapes]
    np.testing.assert_allclose(getattr(gm, name)(*args), ref(*args), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name", sorted(REFS))
def test_frule_and_rrule_against_finite_differences(name):
    ref, shapes = REFS[name]
    args = [rng.standard_normal(s) for s in shapes]
    tans = [rng.standard_normal(s) for s in shapes]
    y, dy = getattr(gm, name + "_frule")((None, *tans), *args)
    want = _fd_jvp(ref, args, tans)
    np.testing.assert_allclose(dy, want, rtol=1e-6, atol=1e-8)
    # reverse mode: <ȳ, J·ṫ> = <Jᵀ·ȳ, ṫ>, with J·ṫ from finite differences of the NumPy reference
    ybar = rng.standard_normal(np.shape(y))
    _, pb = getattr(gm, name + "_rrule")(*args)
    bars = [unthunk(b) for b in pb(ybar)[1:]]
    lhs = float(np.sum(ybar * want))
    rhs = sum(float(np.sum(b * t)) for b, t in zip(bars, tans))
    assert abs(lhs - rhs) <= 1e-6 * max(1.0, abs(lhs))


def _load(src):
    ns = {}
    exec(compile(src, "<t>", "exec"), ns)
    return verify.load(ns)


def _source_of(text):
    r = api.derive_text(text, "<t>")[0]
    assert r.ok, r.error or r.check.problems
    return r, api.render_module([r], "<t>", export=False)


@pytest.mark.parametrize("cond,scan", [("j <= i", "np.cumsum"), ("j < i", "np.concatenate"),
                                       ("j >= i", "np.flip"), ("i > j", "np.concatenate"), ("i <= j", "np.flip")])
def test_cumsum_is_emitted_as_a_scan_without_a_mask(cond, scan):
    _, src = _source_of(f"c(x[i]) -> y[i] = sum(j, where({cond}, x[j], 0))")
    body = src[src.index("def c("):]
    assert "np.cumsum" in body and scan in body
    assert "arange" not in body and "einsum" not in body and "@" not in body


def test_cumsum_memory_is_linear_at_n_1e5():
    # the shipped code first (an N×N mask at this N would take the machine's memory, not fail a test)
    text = open(gm.__file__).read()
    for fn in ("cumsum", "cumsum_rrule"):
        body = text[text.index(f"    def {fn}(x):"):].split("\n\n")[0]
        assert "np.cumsum" in body and "arange" not in body, body
    n = 100_000
    x = rng.standard_normal(n)
    tracemalloc.start()
    y, pb = gm.cumsum_rrule(x)
    xbar = unthunk(pb(np.ones(n))[1])
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 40 * n * 8            # a few vectors; the N×N mask would be 80 GB
    np.testing.assert_allclose(y, np.cumsum(x), rtol=1e-9, atol=1e-9)
    np.testing.assert_array_equal(xbar, np.arange(n, 0, -1, dtype=float))   # Σ_{i ≥ j} 1 = n - j


def test_causal_softmax_masked_entries_are_exact_and_stable():
    n = 6
    s = rng.standard_normal((n, n)) * 800.0          # exp would overflow without the shift
    s[np.triu_indices(n, 1)] = 1e308                 # huge masked scores must not matter
    y, pb = gm.causal_softmax_rrule(s)
    upper = np.triu_indices(n, 1)
    assert np.all(np.isfinite(y)) and np.all(y[upper] == 0.0)
    np.testing.assert_allclose(y.sum(axis=1), 1.0, rtol=1e-13)
    np.testing.assert_allclose(y, _causal_softmax_ref(s), rtol=1e-12, atol=1e-300)
    sbar = unthunk(pb(rng.standard_normal((n, n)))[1])
    assert np.all(np.isfinite(sbar)) and np.all(sbar[upper] == 0.0)
    _, ds = gm.causal_softmax_frule((None, rng.standard_normal((n, n))), s)
    assert np.all(np.isfinite(ds)) and np.all(ds[upper] == 0.0)


def test_where_on_indices_keeps_the_masked_branch_out():
    # 1/A is inf above the diagonal here; the where the text wrote gives 0 there, not 0·inf = NaN
    r, src = _source_of("lower_inv(A[i,j]) -> L[i,j] = where(j <= i, 1 / A[i,j], 0)")
    A = np.tril(rng.uniform(1, 2, (4, 4)))          # zeros above the diagonal
    with np.errstate(divide="ignore"):
        L = _load(src)["lower_inv"](A)
    np.testing.assert_array_equal(L, np.tril(1 / np.where(A == 0, 1, A)))


def test_equality_of_indices_is_delta():
    a = _derive("y[i] = sum(j, where(i == j, A[i,j], 0))")
    b = _derive("y[i] = sum(j, delta(i, j) * A[i,j])")
    assert a.ok and b.ok
    assert a.pullback_text() == b.pullback_text()


def test_display_shows_an_iverson_bracket():
    # the index form shows the bracket; the matrix form the scan or triangle a book writes (issue 25)
    r = _derive("c(x[i]) -> y[i] = sum(j, where(j < i, x[j], 0))")
    assert "[k < i]" in r.pushforward_index() and "Iverson" not in r.pushforward_index()
    assert r.pushforward_text().splitlines() == ["dy = cumsum(dx) - dx",
                                                 "cumsum(u)[i] = Σ_k [k ≤ i]·u[k], along the last index"]
    r = _derive("tril(A[i,j]) -> L[i,j] = where(j <= i, A[i,j], 0)")
    assert "[j ≤ i]" in r.pullback_index() and r.pullback_text().splitlines()[0] == "dA = tril(dL)"
    from derive.display import forms as display
    assert r"[j \le i]" in display.program_text(r.derivation, "pullback", "latex", matrix=False)
    assert r"\operatorname{tril}" in display.program_text(r.derivation, "pullback", "latex")


def test_other_comparisons_verify():
    for text in ("y[i] = where(i < size(i) - 1, x[i], 0)", "y[i] = where(i >= 1, x[i] * x[i], 0)",
                 "z[i] = sum(j, where(i != j, A[i,j], 0) * x[j])",
                 "y[i] = exp(where(i >= 1, x[i], -inf))"):
        r = _derive(text)
        assert r.ok, (text, r.error or r.check.problems)


def test_not_equal_is_not_expanded_into_a_cancelling_difference():
    # Σ_j [i ≠ j]·A·x as Σ_j A·x - A[i,i]·x[i] loses every digit when the diagonal dominates
    r, src = _source_of("offdiag(A[i,j], x[j]) -> z[i] = sum(j, where(i != j, A[i,j], 0) * x[j])")
    f = _load(src)["offdiag"]
    A = np.array([[1e17, 1.0], [1.0, 1e17]])
    np.testing.assert_array_equal(f(A, np.ones(2)), [1.0, 1.0])


@pytest.mark.parametrize("text,col,phrase", [
    ("y[i] = x[i] * i", 15, "index 'i' cannot be used as a value"),
    ("y[i] = sum(j, where(i + 1 <= j, x[j], 0))", 21, "compare it with another index or an integer"),
    ("f(inf[i]) -> y[i] = inf[i]", 3, "'inf' is a built-in constant"),
    # nothing gives y's i an extent (x is indexed by j only): said at the left side's i, naming the comparison
    ("y[i] = sum(j, where(j <= i, x[j], 0))", 3, "the extent of index 'i' cannot be known: no input tensor is "
     "indexed by it (the comparison j <= i does not set its range)"),
])
def test_misuse_is_refused_with_a_position(text, col, phrase):
    with pytest.raises(DeriveError) as info:
        _derive(text)
    msg = str(info.value)
    assert phrase in msg and re.search(rf":1:{col}:", msg), msg


def test_cuda_prints_brackets_and_infinity():
    class Ctx:
        def index(self, i):
            return f"i_{i.name}"

        def extent(self, c):
            return f"n_{c}"

    i, j = Idx("i", "n"), Idx("j", "n")
    p = CudaPrinter(Ctx())
    assert p.doprint(Iverson(j <= i)) == "((i_j <= i_i) ? T(1) : T(0))"
    import sympy as sp
    assert p.doprint(-sp.oo) == "(-T(INFINITY))"


def test_runtime_reverse_forward_and_traced_modes_through_masks():
    x = rng.standard_normal(5)
    w = rng.standard_normal(5)
    f = lambda x: tnp.sum(w * gm.cumsum(tnp.tanh(x)))           # noqa: E731
    want = (1 - np.tanh(x) ** 2) * np.cumsum(w[::-1])[::-1]
    np.testing.assert_allclose(grad(f)(x), want, rtol=1e-12)
    t = rng.standard_normal(5)
    np.testing.assert_allclose(jvp(f, (x,), (t,))[1], want @ t, rtol=1e-12)
    _, back = vjp(gm.cumsum_exclusive, x)
    np.testing.assert_allclose(back(w)[0], np.concatenate([np.cumsum(w[::-1])[::-1][1:], [0.0]]), rtol=1e-12)
    # second order runs the pullback itself traced (runtime.tnp): Hessian-vector product against differences
    s = rng.standard_normal((4, 4))
    g = lambda s: tnp.sum(gm.causal_softmax(s) * s)            # noqa: E731
    hv = jvp(grad(g), (s,), (t[:4, None] * np.ones((4, 4)),))[1]
    want_hv = _fd_jvp(lambda z: grad(g)(z), [s], [t[:4, None] * np.ones((4, 4))])
    np.testing.assert_allclose(hv, want_hv, rtol=1e-5, atol=1e-7)
    assert np.all(np.isfinite(hv))


def test_a_sliced_pass_compares_the_positions_of_its_slice():
    # the kernel sum is evaluated in slices of i; each slice must compare its own positions lo..hi, not 0..len
    # (the verifier runs the sliced path and compares it with the one-shot pass)
    for text in ("ks(x[i,d], b[i]) -> y[i] = sum(j, where(j <= i, exp(-sum(d, (x[i,d] - x[j,d])**2)) * b[j], 0))",
                 "ks2(x[i,d], y[j,d], b[j]) -> o[i] = sum(j, where(j < i, exp(-sum(d, (x[i,d] - y[j,d])**2)) * b[j], 0))"):
        r, src = _source_of(text)
        assert "np.arange(n_i)[" in src


def test_a_value_comparison_in_a_sliced_pass_reads_the_tensor_not_positions():
    """A sliced (chunked) pass gives comparisons of the sliced index its positions; a comparison of tensor
    values that merely reads x[i] must keep reading x (found by the fuzzer: x[i] > v[k] became x[pos[i]])."""
    (r,) = api.derive_text("r(x[i], v[k]) -> y[k] = sum(i, where(x[i] > v[k], x[i], 0))", "<t>")
    assert r.ok, r.check.problems
    ns = {}
    exec(api.render_module([r], "<t>", export=False), ns)
    x, v = np.array([0.5, -1.0, 2.0, 3.0]), np.array([0.0, 1.0, 2.5])
    want = np.array([np.sum(np.where(x > vk, x, 0)) for vk in v])
    np.testing.assert_allclose(verify.load(ns)["r"](x, v), want)
