"""Wall time of `derive-rules` deriving and verifying the whole shipped library (rules/*.rules), and how
the time of one long program scales with its number of statements (`--scaling`).

Each library figure is a fresh subprocess, so interpreter start-up and imports (SymPy, derive) count:
cold without the cache, cold into an empty TENSOR_RULES_CACHE, and the cached re-run that follows it.
The scaling table derives one generated program of n chained statements (`t1[i] = x[i] * 2`,
`t2[i] = t1[i] + x[i]`, `t3[i] = tanh(t2[i])`, ...) from a rule file in a fresh `derive-rules --no-cache` subprocess each, and reports
seconds per 1 000 statements: flat when the cost is linear in n.
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_COLD_S = 10.0
TARGET_CACHED_S = 1.0
LAST_CPU = [0.0]        # the CPU seconds of run_once's last subprocess
_SUMMARY = re.compile(r"(\d+) rules?, (\d+) verified, (\d+) failed \(([\d.]+) s\)")


def derive_command() -> list[str]:
    exe = shutil.which("derive-rules")
    return [exe] if exe else [sys.executable, "-m", "derive.cli"]


def run_once(args: list[str], cache_dir: str | None, command: list[str] | None = None,
             tree: Path = ROOT) -> tuple[float, float, str]:
    """(wall seconds, seconds the summary line reports, summary line) of one `derive-rules` subprocess run in the
    checkout `tree` (its code first on PYTHONPATH); its CPU seconds (user + system) are added to LAST_CPU[0]."""
    env = dict(os.environ)
    if cache_dir is not None:
        env["TENSOR_RULES_CACHE"] = cache_dir
    if tree != ROOT:
        env["PYTHONPATH"] = str(tree)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run((command or derive_command()) + args, cwd=tree, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    LAST_CPU[0] = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    if proc.returncode != 0:
        raise SystemExit(f"derive-rules {' '.join(args)} exited {proc.returncode}:\n{proc.stderr}")
    m = _SUMMARY.search(proc.stdout)
    if not m:
        raise SystemExit(f"unexpected derive-rules output:\n{proc.stdout}")
    return wall, float(m.group(4)), m.group(0)


def python_startup() -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - t0


def measure(repeats: int) -> tuple[dict, str]:
    """Interleaved rounds (cold --no-cache, cold into an empty cache, cached re-run) so noise hits all alike."""
    walls = {"cold_nocache": [], "cold_empty_cache": [], "cached": [], "python_startup": []}
    inner = {k: [] for k in walls}
    summary = ""
    run_once(["--no-cache", "--no-write", "-q"], None)  # warm the OS file cache; not counted
    for _ in range(repeats):
        w, s, summary = run_once(["--no-cache", "--no-write", "-q"], None)
        walls["cold_nocache"].append(w)
        inner["cold_nocache"].append(s)
        d = tempfile.mkdtemp(prefix="tensor-rules-bench-")
        try:
            w, s, _ = run_once(["--no-write", "-q"], d)
            walls["cold_empty_cache"].append(w)
            inner["cold_empty_cache"].append(s)
            w, s, _ = run_once(["--no-write", "-q"], d)
            walls["cached"].append(w)
            inner["cached"].append(s)
        finally:
            shutil.rmtree(d, ignore_errors=True)
        walls["python_startup"].append(python_startup())
        inner["python_startup"].append(float("nan"))
    med = {k: (statistics.median(walls[k]), statistics.median(inner[k]) if k != "python_startup" else float("nan"),
               walls[k]) for k in walls}
    return med, summary


ROWS = [
    ("cold_nocache", "cold, `--no-cache`", "derive-rules --no-cache --no-write -q", TARGET_COLD_S),
    ("cold_empty_cache", "cold, empty TENSOR_RULES_CACHE", "TENSOR_RULES_CACHE=<new tmpdir> derive-rules --no-write -q",
     TARGET_COLD_S),
    ("cached", "cached re-run (same cache dir)", "TENSOR_RULES_CACHE=<same tmpdir> derive-rules --no-write -q",
     TARGET_CACHED_S),
    ("python_startup", "reference: `python -c pass`", f"{Path(sys.executable).name} -c pass", None),
]


TARGET_PROGRAM_1000_S = 5.0
SCALING_SIZES = (100, 300, 1000, 3000)
_CHAIN_OPS = ("{p} * 2", "sin({p})", "{p} + x[i]", "tanh({p})", "{p} * x[i]", "exp({p}) / 3")


def chain_program(n: int) -> str:
    """A rule of n statements, each reading the previous one and cycling through six operations."""
    lines = [f"chain(x[i]) -> t{n}[i]:", "    t1[i] = x[i] * 2"]
    for k in range(2, n + 1):
        lines.append(f"    t{k}[i] = " + _CHAIN_OPS[k % len(_CHAIN_OPS)].format(p=f"t{k - 1}[i]"))
    return "\n".join(lines) + "\n"


def sin_chain_program(n: int, indexed: bool = True) -> str:
    """A rule of n statements t{k} = sin(t{k-1}): each shown pullback statement could fold into the next one
    (derive.display.forms.shown_pullback), the longest chain of substitutions a program can offer."""
    i = "[i]" if indexed else ""
    lines = [f"sins(x{i}) -> t{n}{i}:", f"    t1{i} = sin(x{i})"]
    lines += [f"    t{k}{i} = sin(t{k - 1}{i})" for k in range(2, n + 1)]
    return "\n".join(lines) + "\n"


PROGRAMS = {"chain": chain_program, "sin": sin_chain_program,
            "sin-scalar": lambda n: sin_chain_program(n, indexed=False)}


def measure_scaling(sizes, program=chain_program) -> list[tuple[int, float, float]]:
    """(n, wall seconds, seconds the summary line reports) of `derive-rules --no-cache` on an n-statement chain."""
    rows = []
    d = tempfile.mkdtemp(prefix="tensor-rules-bench-")
    try:
        for n in sizes:
            path = Path(d) / f"chain{n}.rules"
            path.write_text(program(n))
            # this checkout's code (python -m from the repository root), not an installed derive-rules
            wall, inner, _ = run_once(["--no-cache", "-q", str(path)], None, [sys.executable, "-m", "derive.cli"])
            rows.append((n, wall, inner))
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return rows


def measure_side_by_side(trees, sizes, program, rounds) -> list[tuple[int, str, float, float]]:
    """(n, tree, best wall seconds, best CPU seconds) of `derive-rules --no-cache -q` on an n-statement program in
    each checkout, into an empty TENSOR_RULES_CACHE, the trees interleaved in each round so that load hits all."""
    best: dict = {}
    d = tempfile.mkdtemp(prefix="tensor-rules-bench-")
    try:
        for _ in range(rounds):
            for n in sizes:
                path = Path(d) / f"chain{n}.rules"
                path.write_text(program(n))
                for tree in trees:
                    cache = tempfile.mkdtemp(dir=d)
                    wall, _, _ = run_once(["--no-cache", "-q", str(path)], cache, [sys.executable, "-m", "derive.cli"],
                                          tree=Path(tree).resolve())
                    w, c = best.get((n, tree), (float("inf"), float("inf")))
                    best[n, tree] = (min(w, wall), min(c, LAST_CPU[0]))
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return [(n, tree, *best[n, tree]) for n in sizes for tree in trees]


def print_side_by_side(rows, rounds):
    print(f"derive-rules --no-cache -q FILE, empty TENSOR_RULES_CACHE, best of {rounds} interleaved rounds")
    print("| statements | checkout | wall s | CPU s (user + sys) | CPU s per 1 000 statements |")
    print("|---:|---|---:|---:|---:|")
    for n, tree, wall, cpu in rows:
        print(f"| {n} | {tree} | {wall:.2f} | {cpu:.2f} | {cpu / n * 1000:.2f} |")


def print_scaling(rows, markdown=False):
    if markdown:
        print("| statements | wall s | in-process s | in-process s per 1 000 statements |")
        print("|---:|---:|---:|---:|")
        for n, wall, inner in rows:
            print(f"| {n} | {wall:.2f} | {inner:.2f} | {inner / n * 1000:.2f} |")
        return
    print("one rule of n chained statements, derive-rules --no-cache, fresh subprocess each")
    print(f"{'n':>6} {'wall s':>8} {'in-proc s':>10} {'s per 1000':>11}")
    for n, wall, inner in rows:
        print(f"{n:6d} {wall:8.2f} {inner:10.2f} {inner / n * 1000:11.2f}")
    at_1000 = [wall for n, wall, _ in rows if n == 1000]
    if at_1000:
        ok = at_1000[0] <= TARGET_PROGRAM_1000_S
        print(f"1000 statements: {at_1000[0]:.2f} s wall, target <= {TARGET_PROGRAM_1000_S:g} s: {'yes' if ok else 'NO'}")


def print_table(med, repeats, summary):
    print(f"derive-rules on rules/ ({summary.split(' (')[0]}); median of {repeats}, fresh subprocess each")
    print(f"{'run':34} {'wall s':>8} {'in-proc s':>10} {'target':>8}  {'met':4}  all runs (s)")
    for key, label, _, target in ROWS:
        wall, inner, runs = med[key]
        tgt = f"<= {target:g}" if target else ""
        met = ("yes" if wall <= target else "NO") if target else ""
        inner_s = f"{inner:10.2f}" if inner == inner else f"{'':10}"
        print(f"{label:34} {wall:8.2f} {inner_s} {tgt:>8}  {met:4}  {', '.join(f'{r:.2f}' for r in runs)}")
    print(f"cold/cached = {med['cold_nocache'][0] / med['cached'][0]:.1f}x")


def print_markdown(med, repeats):
    print("| run | command | wall s (median of %d) | in-process s | target | met |" % repeats)
    print("|---|---|---:|---:|---|---|")
    for key, label, cmd, target in ROWS:
        wall, inner, _ = med[key]
        tgt = f"≤ {target:g} s" if target else "—"
        met = ("yes" if wall <= target else "**no**") if target else "—"
        inner_s = f"{inner:.2f}" if inner == inner else "—"
        print(f"| {label} | `{cmd}` | {wall:.2f} | {inner_s} | {tgt} | {met} |")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3, help="rounds; the median is reported (default 3)")
    ap.add_argument("--markdown", action="store_true", help="also print a markdown table for RESULTS.md")
    ap.add_argument("--scaling", action="store_true",
                    help="time one long program at n = 100, 300, 1000, 3000 statements instead (about 40 s)")
    ap.add_argument("--sizes", type=int, nargs="+", default=list(SCALING_SIZES), help="statement counts for --scaling")
    ap.add_argument("--program", choices=sorted(PROGRAMS), default="chain",
                    help="--scaling's program: the six-op chain (default), or t{k} = sin(t{k-1}) indexed or scalar")
    ap.add_argument("--trees", nargs="+", metavar="DIR",
                    help="--scaling side by side: the same programs in each checkout (e.g. a base commit's worktree "
                         "and this one), with CPU seconds, best of --repeats interleaved rounds")
    args = ap.parse_args(argv)
    if args.scaling and args.trees:
        print_side_by_side(measure_side_by_side(args.trees, args.sizes, PROGRAMS[args.program], args.repeats),
                           args.repeats)
        return 0
    if args.scaling:
        rows = measure_scaling(args.sizes, PROGRAMS[args.program])
        print_scaling(rows)
        if args.markdown:
            print()
            print_scaling(rows, markdown=True)
        return 0 if all(wall <= TARGET_PROGRAM_1000_S for n, wall, _ in rows if n == 1000) else 1
    med, summary = measure(args.repeats)
    print_table(med, args.repeats, summary)
    if args.markdown:
        print()
        print_markdown(med, args.repeats)
    cold_ok = med["cold_nocache"][0] <= TARGET_COLD_S and med["cold_empty_cache"][0] <= TARGET_COLD_S
    return 0 if cold_ok and med["cached"][0] <= TARGET_CACHED_S else 1


if __name__ == "__main__":
    sys.exit(main())
