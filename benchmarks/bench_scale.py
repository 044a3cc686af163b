"""How derivation and verification time grows with a rule: rules with many nested index sums (a four-index
transform, a strided NCHW convolution, KeOps-style kernel formulas with exp/sqrt of a sum over a coordinate
index) and the reference evaluator alone on the four-index transform (issue #28 §1-2).

Each rule is derived and verified by `derive-rules --no-cache -q FILE --out TMPDIR` in a fresh subprocess with
TENSOR_RULES_NATIVE=0 (the derivation itself, not the native compile), so start-up and imports count; the
reference evaluator is timed in-process on the verifier's extents, in mpmath at its 30 digits, and compared with
np.einsum. Target: each rule <= 20 s. `python benchmarks/bench_scale.py [--only NAME ...] [--markdown]`.
The 1000-statement chain is `bench_derive.py --scaling`.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
TARGET_S = 20.0
_SUMMARY = re.compile(r"(\d+) rules?, (\d+) verified, (\d+) failed \(([\d.]+) s\)")

RULES = {
    "four_index_transform": "t4(E[e,a], F[f,b], G[g,c], H[h,d], T[a,b,c,d]) -> Y[e,f,g,h] = "
                            "sum(a, b, c, d, E[e,a] * F[f,b] * G[g,c] * H[h,d] * T[a,b,c,d])",
    "conv_nchw_stride2": "conv_nchw_s2(x[n,c,s,t], K[o,c,p,q]) -> y[n,o,h,w] = "
                         "sum(c, p, q, x[n,c,2*h+p,2*w+q] * K[o,c,p,q])",
    "keops_generic": "keops_generic(x[i,e], y[j,e], p0, p1) -> g[i,d] = "
                     "sum(j, sum(e, x[i,e] * y[j,e])**2 * (p0 * x[i,d] + p1 * y[j,d]))",
    "gaussian_kernel": "gauss_kernel(x[i,d], y[j,d], b[j], s: positive) -> out[i] = "
                       "sum(j, exp(-sum(d, (x[i,d] - y[j,d])**2) / s) * b[j])",
    "matern32_kernel": "matern(x[i,d], y[j,d], b[j], r: positive) -> out[i] = "
                       "sum(j, (1 + sqrt(3 * sum(d, (x[i,d] - y[j,d])**2)) / r) "
                       "* exp(-sqrt(3 * sum(d, (x[i,d] - y[j,d])**2)) / r) * b[j])",
    "quadratic_form": "quadform(x[i], A[i,j]) -> q[] = sum(i, j, x[i] * A[i,j] * x[j])",
}


def derive_once(name: str, text: str) -> tuple[float, str]:
    """(wall seconds, summary line) of one derive-rules subprocess on the rule."""
    with tempfile.TemporaryDirectory(prefix="tensor-rules-bench-") as d:
        path = Path(d) / f"{name}.rules"
        path.write_text(text + "\n")
        env = dict(os.environ, TENSOR_RULES_NATIVE="0", TENSOR_RULES_CACHE=str(Path(d) / "cache"),
                   PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        t0 = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "derive.cli", "--no-cache", "-q", str(path), "--out",
                               str(Path(d) / "out")], cwd=ROOT, env=env, capture_output=True, text=True)
        wall = time.perf_counter() - t0
    m = _SUMMARY.search(proc.stdout)
    if proc.returncode != 0 or not m:
        raise SystemExit(f"derive-rules on {name} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}")
    return wall, m.group(0)


def reference_t4() -> tuple[float, float]:
    """(seconds, worst relative error against np.einsum) of the reference evaluator on the four-index transform
    at the verifier's first extents, in mpmath."""
    from derive.verification import reference
    rng = np.random.default_rng(0)
    E, F, G, H = (rng.standard_normal(s) for s in ((3, 4), (5, 6), (7, 8), (15, 16)))
    T = rng.standard_normal((4, 6, 8, 16))
    t0 = time.perf_counter()
    got = reference.evaluate_text(RULES["four_index_transform"], [E, F, G, H, T], precision="mp", dps=30)["Y"]
    seconds = time.perf_counter() - t0
    want = np.einsum("ea,fb,gc,hd,abcd->efgh", E, F, G, H, T)
    return seconds, float(np.max(np.abs(np.array(got, dtype=float) - want)) / np.max(np.abs(want)))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="+", choices=sorted(RULES), help="these rules only")
    ap.add_argument("--markdown", action="store_true", help="also print a markdown table for RESULTS.md")
    args = ap.parse_args(argv)
    secs, err = reference_t4()
    print(f"reference evaluator, four-index transform (1575 entries, mpmath): {secs:.2f} s, "
          f"rel. error vs np.einsum {err:.1e}")
    rows = []
    for name in args.only or RULES:
        wall, summary = derive_once(name, RULES[name])
        rows.append((name, wall, summary))
        print(f"{name:22} {wall:7.2f} s  {'ok' if wall <= TARGET_S else 'OVER'}  ({summary})")
    if args.markdown:
        print("\n| rule | derive-rules --no-cache, wall s | target |\n|---|---:|---|")
        for name, wall, _ in rows:
            print(f"| {name} | {wall:.2f} | ≤ {TARGET_S:g} s |")
    return 0 if all(wall <= TARGET_S for _, wall, _ in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
