"""Peak memory and time of the generated Gaussian kernel sum (forward, rrule, pullback for every input).

out[i] = Σ_j exp(-|x_i - y_j|² / s) b_j: a naive broadcast needs an N×M×D array (N·M·D·8 bytes, 240 GB
at N = M = 100 000, D = 3); the generated code evaluates it in chunks and should stay within 1 GB.
The forward runs in a fresh subprocess; the rrule and the pullbacks (each input's cotangent unthunked on its
own) share a second one. Both get an address-space cap and an optional per-phase time limit.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import platform
import resource
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_BYTES = 1 << 30
PHASES = ("forward", "rrule", "pullback_x", "pullback_y", "pullback_b", "pullback_s")
QUICK_N = 20_000
DEFAULT_N = 50_000  # the largest size whose whole run (both dtypes, every phase) takes a few minutes here
FULL_N = 100_000


# ----------------------------------------------------------------------------------------------- child side
class _Timeout(Exception):
    pass


def loadavg() -> str:
    """The 1/5/15-minute load averages: on a shared machine, the context a time was measured in."""
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "n/a"


def _vm_kb(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def _child(spec: dict) -> list:
    """Run one group of phases in this (fresh) process: ["forward"], or "rrule" followed by pullbacks (all
    from the one rrule call, so no forward pass is repeated). One measurement dict per phase."""
    import tracemalloc

    import numpy as np

    sys.path.insert(0, str(ROOT))
    import generated.nn as nn
    import runtime.backend_numpy as backend
    from runtime.tangents import unthunk

    # count the kernel entries evaluated (every kernel block goes through one np.exp) to expose recomputation
    kernel_elems = [0]
    real_exp = backend.exp

    def counting_exp(a, *args, **kwargs):
        kernel_elems[0] += np.size(a)
        return real_exp(a, *args, **kwargs)

    backend.exp = counting_exp

    n, m, d, dtype = spec["n"], spec["m"], spec["d"], np.dtype(spec["dtype"])
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, d)).astype(dtype)
    y = rng.standard_normal((m, d)).astype(dtype)
    b = rng.standard_normal(m).astype(dtype)
    s = 2.0
    dout = rng.standard_normal(n).astype(dtype)
    args = (x, y, b, s)

    if spec.get("mem_limit_gb"):
        # cap the address space a fixed amount above what we hold now: an unchunked N×M×D temporary fails fast
        # with MemoryError instead of swamping a shared machine
        cap = _vm_kb("VmSize") * 1024 + int(spec["mem_limit_gb"] * (1 << 30))
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    def on_alarm(signum, frame):
        raise _Timeout()

    signal.signal(signal.SIGALRM, on_alarm)
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    state = {}

    def step(phase):
        if phase == "forward":
            nn.gaussian_kernel_sum(*args)
        elif phase == "rrule":
            state["pullback"] = nn.gaussian_kernel_sum_rrule(*args)[1]
        else:
            unthunk(state["pullback"](dout)[1 + "xybs".index(phase[-1])])

    results = []
    tracemalloc.start()
    for phase in spec["phases"]:
        kernel_elems[0] = 0
        tracemalloc.reset_peak()
        out = {"phase": phase, "ok": True, "error": None, "timed_out": False}
        if spec.get("timeout_s"):
            signal.alarm(int(math.ceil(spec["timeout_s"])))
        t0 = time.perf_counter()
        try:
            step(phase)
        except _Timeout:
            done = kernel_elems[0] / (n * m)
            out.update(ok=False, timed_out=True, error=f"stopped after {spec['timeout_s']:g} s with {done:.2f} of "
                       f"the N·M kernel evaluated (~{spec['timeout_s'] / max(done, 1e-9):.0f} s per whole-kernel pass)")
        except MemoryError as exc:
            out.update(ok=False, error=f"MemoryError: {exc}")
        seconds = time.perf_counter() - t0
        signal.alarm(0)
        # a failed allocation still shows in tracemalloc's peak (numpy reports the request): keep only real peaks
        peak = tracemalloc.get_traced_memory()[1] if out["ok"] or out["timed_out"] else float("nan")
        rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        out.update(seconds=seconds, tracemalloc_peak=peak, maxrss_delta=(rss1 - rss0) * 1024,
                   kernel_evals=kernel_elems[0] / (n * m))
        results.append(out)
        if phase == "rrule" and not out["ok"]:
            break
    tracemalloc.stop()
    return results


# ---------------------------------------------------------------------------------------------- parent side
def run_group(n, d, dtype, phases, mem_limit_gb, timeout_s) -> list:
    spec = {"n": n, "m": n, "d": d, "dtype": dtype, "phases": phases, "mem_limit_gb": mem_limit_gb,
            "timeout_s": timeout_s}
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, __file__, "--child", json.dumps(spec)], capture_output=True, text=True,
                          env=env, timeout=len(phases) * ((timeout_s or 3600) + 120))
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("[")]
    if proc.returncode != 0 or not lines:
        err = (proc.stderr.strip().splitlines() or [f"exit status {proc.returncode}"])[-1]
        return [{"phase": ph, "ok": False, "error": err, "timed_out": False, "seconds": float("nan"),
                 "tracemalloc_peak": float("nan"), "maxrss_delta": float("nan"), "kernel_evals": float("nan")}
                for ph in phases]
    return json.loads(lines[-1])


def groups(phases):
    """The subprocesses to run: the forward alone, and the rrule with the pullbacks that need it."""
    out = []
    if "forward" in phases:
        out.append(["forward"])
    rest = [p for p in PHASES if p in phases and p.startswith("pullback_")]
    if "rrule" in phases or rest:
        out.append(["rrule"] + rest)
    return out


def run(sizes, dtypes, d, phases, repeats, mem_limit_gb, timeout_s, log=print):
    results = []
    for n in sizes:
        for dtype in dtypes:
            for group in groups(phases):
                reps = [run_group(n, d, dtype, group, mem_limit_gb, timeout_s) for _ in range(repeats)]
                for k, phase in enumerate(group):
                    rows = [r[k] for r in reps if k < len(r)]
                    if not rows:
                        continue
                    ok = [r for r in rows if r["ok"]]
                    row = dict(ok[0] if ok else rows[-1])
                    if ok:
                        for key in ("seconds", "tracemalloc_peak", "maxrss_delta"):
                            row[key] = statistics.median(r[key] for r in ok)
                    row.update(n=n, d=d, dtype=dtype, phase=phase, runs=len(ok))
                    results.append(row)
                    log(_row_text(row), flush=True)
    return results


def _gb(b):
    return "—" if b != b else f"{b / (1 << 30):.3f}"


def _status(r):
    """Memory verdict; a phase stopped by --timeout-s has already passed its peak (the first chunk sets it)."""
    if r["ok"] or r["timed_out"]:
        return "yes" if max(r["tracemalloc_peak"], r["maxrss_delta"]) <= TARGET_BYTES else "NO"
    return "NO"


def _row_text(r):
    naive = r["n"] * r["n"] * r["d"] * (8 if r["dtype"] == "float64" else 4)
    err = "" if r["ok"] else f"  [{r['error']}]"
    return (f"N=M={r['n']:<7} {r['dtype']:8} {r['phase']:11} {r['seconds']:9.2f} s  tracemalloc {_gb(r['tracemalloc_peak'])}"
            f" GB  maxrss Δ {_gb(r['maxrss_delta'])} GB  kernel evals {r['kernel_evals']:.2f}  naive "
            f"{naive / 1e9:.1f} GB  ≤1GB {_status(r)}{err}")


def print_markdown(results, repeats):
    print(f"Seconds and peaks: median of {repeats} run(s), each in fresh subprocesses. \"kernel evals\" counts the "
          "N·M kernel entries evaluated (np.exp input size / N·M). The rrule and the pullbacks run one after another "
          "in one process, so ru_maxrss Δ is that process's high-water mark so far (cumulative); tracemalloc peak "
          "covers the phase alone.\n")
    print("| N = M | dtype | phase | seconds | tracemalloc peak GB | ru_maxrss Δ GB | kernel evals | naive N·M·D GB "
          "| ≤ 1 GB | note |")
    print("|---:|---|---|---:|---:|---:|---:|---:|---|---|")
    for r in results:
        naive = r["n"] * r["n"] * r["d"] * (8 if r["dtype"] == "float64" else 4)
        st = {"yes": "yes", "NO": "**no**"}[_status(r)] + (" (partial run)" if r["timed_out"] else "")
        note = "" if r["ok"] else r["error"].replace("|", "\\|")
        secs = f"{r['seconds']:.2f}" if r["ok"] else (f"> {r['seconds']:.0f}" if r["timed_out"] else "—")
        evals = "—" if r["kernel_evals"] != r["kernel_evals"] else f"{r['kernel_evals']:.2f}"
        print(f"| {r['n']:,} | {r['dtype']} | {r['phase']} | {secs} | {_gb(r['tracemalloc_peak'])} | "
              f"{_gb(r['maxrss_delta'])} | {evals} | {naive / 1e9:.1f} | {st} | {note} |")
    # totals per size and dtype
    print("\n| N = M | dtype | forward s | rrule + all pullbacks s | max peak GB (tracemalloc) | all phases ok |")
    print("|---:|---|---:|---:|---:|---|")
    keys = list(dict.fromkeys((r["n"], r["dtype"]) for r in results))
    for n, dt in keys:
        rs = [r for r in results if (r["n"], r["dtype"]) == (n, dt)]
        fwd = next((r for r in rs if r["phase"] == "forward"), None)
        rest = [r for r in rs if r["phase"] != "forward"]
        tot = sum(r["seconds"] for r in rest if r["ok"])
        all_ok = all(r["ok"] for r in rs)
        peak = max((r["tracemalloc_peak"] for r in rs if r["ok"]), default=float("nan"))
        fwd_s = f"{fwd['seconds']:.2f}" if fwd and fwd["ok"] else "—"
        tot_s = f"{tot:.2f}" if all_ok else f"{tot:.2f} (completed phases only)"
        print(f"| {n:,} | {dt} | {fwd_s} | {tot_s} | {_gb(peak)} | {'yes' if all_ok else '**no**'} |")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    size = ap.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true",
                      help=f"N = M = {QUICK_N:,} (under a minute)")
    size.add_argument("--full", action="store_true", help=f"N = M = {FULL_N:,}, the target size (about 15 minutes here, 9 in float64 only)")
    size.add_argument("--n", type=int, nargs="+", help=f"explicit sizes N = M (default {DEFAULT_N:,})")
    ap.add_argument("--d", type=int, default=3)
    ap.add_argument("--dtypes", nargs="+", default=["float64", "float32"], choices=["float64", "float32"])
    ap.add_argument("--phases", nargs="+", default=list(PHASES), choices=PHASES)
    ap.add_argument("--repeats", type=int, default=1, help="runs (fresh subprocesses each); medians reported")
    ap.add_argument("--mem-limit-gb", type=float, default=4.0,
                    help="address-space cap per phase above its inputs (0: none); default 4")
    ap.add_argument("--timeout-s", type=float, default=0, help="stop a phase after this many seconds (0: none)")
    ap.add_argument("--markdown", action="store_true", help="also print markdown tables for RESULTS.md")
    ap.add_argument("--json", metavar="FILE", help="write the raw results as JSON")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(_child(json.loads(args.child))))
        return 0
    sizes = [QUICK_N] if args.quick else [FULL_N] if args.full else (args.n or [DEFAULT_N])
    import numpy as np
    print(f"python {platform.python_version()}, numpy {np.__version__}, D = {args.d}, address-space cap "
          f"{args.mem_limit_gb:g} GB per phase, target peak ≤ 1 GB; load average {loadavg()} on {os.cpu_count()} CPUs")
    t0 = time.perf_counter()
    results = run(sizes, args.dtypes, args.d, args.phases, args.repeats, args.mem_limit_gb, args.timeout_s or None)
    print(f"total {time.perf_counter() - t0:.0f} s; load average at the end {loadavg()}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    if args.markdown:
        print()
        print_markdown(results, args.repeats)
    return 0 if all(r["ok"] and _status(r) == "yes" for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
