"""value_and_grad of a Gaussian log-likelihood, generated code versus hand-written SciPy with one Cholesky.

    l = 0.5·(x-mu)ᵀ·S⁻¹·(x-mu) + 0.5·log det S,  S spd (n × n)

"generated": the rule compiled through the public path (runtime.define), value_and_grad = rrule + pullback(1.0)
with every cotangent unthunked. "scipy": cho_factor once; a = S⁻¹(x-mu) by cho_solve; S⁻¹ by LAPACK potri;
∂l/∂x = a, ∂l/∂mu = -a, ∂l/∂S = 0.5·(S⁻¹ - a·aᵀ). Both run in one process, repetitions interleaved, medians
compared. The rule is written both with solve (the form of issue #11 §3) and with inv(S).

    PYTHONPATH=$PWD python benchmarks/bench_loglik.py [--n 512] [--reps 30]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import scipy.linalg as sla

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import runtime  # noqa: E402
try:
    from primitives import factor as _factor  # noqa: E402
except ImportError:                          # a tree from before the shared factorisation
    _factor = None
from runtime.tangents import unthunk  # noqa: E402

RULES = {
    "solve": "loglik(x[i], mu[i], S[i,j]: spd) -> l[] = "
             "0.5 * (x[i]-mu[i]) * solve(S, x[j]-mu[j])[i] + 0.5 * logdet(S[i,j])",
    "inv": "loglik(x[i], mu[i], S[i,j]: spd) -> l[] = "
           "0.5 * (x[i]-mu[i]) * inv(S)[i,j] * (x[j]-mu[j]) + 0.5 * logdet(S[i,j])",
}


def compile_rule(form):
    return runtime.define(RULES[form]).rrule      # a single rule: define returns its op


def generated_vg(rrule):
    def vg(x, mu, S):
        l, pb = rrule(x, mu, S)
        _, dx, dmu, dS = pb(1.0)
        return l, unthunk(dx), unthunk(dmu), unthunk(dS)
    return vg


def scipy_vg(x, mu, S):
    c = sla.cho_factor(S, lower=True, check_finite=False)
    r = x - mu
    a = sla.cho_solve(c, r, check_finite=False)
    Si, info = sla.lapack.dpotri(c[0], lower=True)
    Si = np.tril(Si) + np.tril(Si, -1).T
    l = 0.5 * (r @ a) + np.sum(np.log(np.diagonal(c[0])))
    return l, a, -a, 0.5 * (Si - np.outer(a, a))


def count(f, x, mu, S):
    _factor.COUNT.update(cholesky=0, lu=0)
    f(x, mu, S)
    return dict(_factor.COUNT)


def problem(n, seed=0):
    r = np.random.default_rng(seed)
    A = r.standard_normal((n, n))
    return r.standard_normal(n), r.standard_normal(n), A @ A.T / n + np.eye(n)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=512)
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--forms", default="solve,inv")
    a = ap.parse_args(argv)
    x, mu, S = problem(a.n)
    impls = {"scipy": scipy_vg}
    for form in a.forms.split(","):
        impls[form] = generated_vg(compile_rule(form))
    ref = scipy_vg(x, mu, S)
    for name, f in impls.items():
        got = f(x, mu, S)
        err = max(float(np.max(np.abs(g - r)) / (1 + np.max(np.abs(r)))) for g, r in zip(got, ref))
        print(f"{name:6s} max rel. difference from scipy {err:.1e}" + ("" if _factor is None else
              f"; shared factorisations per call {count(f, x, mu, S)}"))
    times = {k: [] for k in impls}
    for _ in range(a.reps):                       # interleaved: every implementation once per round
        for name, f in impls.items():
            t = time.perf_counter()
            f(x, mu, S)
            times[name].append(time.perf_counter() - t)
    base = statistics.median(times["scipy"])
    print(f"n = {a.n}, {a.reps} interleaved repetitions, medians:")
    for name, ts in times.items():
        m = statistics.median(ts)
        print(f"  {name:6s} {m * 1e3:8.2f} ms   ratio to scipy {m / base:5.2f}")


if __name__ == "__main__":
    main()
