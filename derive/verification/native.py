"""Verification of the native CPU kernels (derive.emission.cpp) against the verified NumPy code of the same rules.

The NumPy code is checked against finite differences, the adjoint identity and the reference evaluator
(derive.verification.verify); the native plan computes the same quantities another way (loops in C++, reductions a tile at a
time), so each of its ops is run forward, as an frule and as an rrule with its pullback, at random points from the
inputs' domains, in float64 and float32, at the verifier's extents, at extents that
cross the kernels' tiles and chunks, and with one index long enough that a reduction over it is split across
threads, and compared with the NumPy functions. NaN where NumPy has a number is a failure.

Far from the origin (inputs moved to OFFSETS, float64 and float32) either code may be the one that loses digits,
so where the native and the NumPy code (run on the same rounded inputs, in the same dtype) differ by more than
TOL, the reference evaluation of the rule's text judges (derive.verification.arbiter): the native code fails
where it errs by more than TOL and more than the NumPy code does (an uncentred x·Σ K - Σ K·y, an unshifted
exp(x - lse)); where both err alike (an underflowing log Σ exp) it passes.

The kernels are compiled for the check with runtime.native.CHECK_FLAGS (fast to compile, the same arithmetic), and
each program runs only at extents where its loops and buffers fit a budget (BUDGET): the long extents that split a
reduction across threads would make a convolution's pullback or an N x N output quadratic in them. What a budget
leaves out is said in the outcome (`skipped`), never a hang or a MemoryError.
"""
from __future__ import annotations

import json
import math
import time
from typing import NamedTuple

import numpy as np

from derive.emission.cpp import TILE
from derive.verification import arbiter, verify
from runtime import backend_numpy
from runtime import cuda as plan
from runtime import native
from runtime.tangents import ZeroTangent, is_zero, unthunk

TOL = {np.float64: 1e-9, np.float32: 2e-3}
OFFSETS = (1e3, 1e6)         # inputs moved this far from the origin are checked against the reference (_check_far)
ARBITER_SECONDS = 10.0       # the reference evaluations judging one op's disagreements there, at most
SPLIT = (1 << 16) + 3        # reduced positions past which a reduction with few rows is split across threads
SEEDS = (0, 1)
BUDGET = 1 << 25             # loop iterations of one program's steps, and elements of its buffers, at one extent set
PARTS = {"forward": ("forward",), "frule": ("frule",), "rrule": ("rrule", "pullback")}


class Checked(NamedTuple):
    """One op's check: the worst relative difference, the problems (an op with any is left out of the plans), and
    the (part, extents) pairs the budget left out."""
    worst: float
    problems: list
    skipped: list


def _step_classes(step):
    """The index classes one step's loops run over, a class once per loop (a fused step: each of its sub-steps)."""
    for sub in step.get("steps", [step]):
        if sub["class"] == "gemm":
            yield sorted(set(sub["a_classes"]) | set(sub["b_classes"]) | set(sub["c_classes"]))
        elif sub["class"] == "map":
            yield list(sub["space"])
        else:
            # a reduction loops over its rows, then its reduced classes; a class can be both (x[i,e] and x[i,d]
            # read along one axis: d rows, e reduced), and a shifted read's class (t = i + k) is no loop at all
            yield list(sub["rows"]) + list(sub["red"])


def cost(entry, part, sizes):
    """The work of one part of an op (its programs' loop iterations, summed over steps) at `sizes`, and the elements
    of the buffers its steps write; a class without an extent counts 1."""
    work = mem = 0
    for prog in PARTS[part]:
        for step in entry["programs"].get(prog, {}).get("steps", []):
            for classes in _step_classes(step):
                work += math.prod(sizes.get(c, 1) for c in classes)
            for sub in step.get("steps", [step]):
                mem += sum(math.prod(sizes.get(c, 1) for c in cs) for cs in sub.get("write_classes", {}).values())
    return work, mem


def _reduced(entry):
    """The (row, reduced) class tuples of the plan's reduce steps (where a long range is split across threads)."""
    return sorted({(tuple(sub["rows"]), tuple(sub["red"])) for prog in entry["programs"].values()
                   for st in prog["steps"] for sub in st.get("steps", [st]) if sub["class"] == "reduce" and sub["red"]})


def _sizes(meta, reduced=()):
    """The verifier's extent sets, then each free extent in turn past one tile of reduced positions. An input axis
    that shifted subscripts read (x[i+k]) is not free: its extent follows from the others (verify.reached_extents)."""
    base = verify.extent_assignments(meta)
    classes = verify.index_classes(meta)
    reaches = meta.get("shifted", [])
    read = {classes.get(a, a) for a, _, _ in reaches}
    fixed = meta.get("extents", {})
    free = [c for c in base[0] if c not in fixed and c not in read]

    def at(ext):
        return verify.reached_extents({k: v for k, v in ext.items() if k not in read}, reaches, classes)

    out = [dict(e) for e in base]
    for c in free:
        out.append(at({**base[0], c: TILE + 5}))
    # one long index and the others 1: a reduction with few rows and a long reduced range is split across threads
    # and its partial results combined (templates/cpu_kernels.cpp.j2), a path the extents above never reach
    for rows, red in reduced:
        # a class both a row and reduced (causal attention's i ≤ j) would make rows x reduced SPLIT²: left out
        long = [c for c in dict.fromkeys(red) if c in free and c not in rows]
        if reaches:     # a window's taps (x[i+k]): the input's extents grow with them; one long tap index is enough
            long = long[:1]
        if long:
            n = math.ceil(SPLIT ** (1 / len(long)))     # their product just past SPLIT, every other extent 1
            ext = at({**{k: fixed.get(k, 1) for k in base[0]}, **{c: n for c in long}})
            # an index read along two axes of one input (trace's A[i,i]) would need SPLIT² elements: left out
            if max((math.prod(ext.get(classes.get(l, l), 1) for l in inp.get("indices", []))
                    for inp in meta["inputs"]), default=0) <= 4 * SPLIT and ext not in out:
                out.append(ext)
    return out


def _val(t):
    t = unthunk(t)
    return None if is_zero(t) or t is None or type(t).__name__ == "NoTangent" else t


def check(module_source: str, files: dict, label: str, rules=None) -> dict:
    """{op name: Checked} for every op of the native plan in `files` ({"cpu/<stem>.cpp": ..., "cpu/<stem>.json":
    ...}); {} when there is none or no compiler here. `rules` ({op name: parsed rule}) lets the reference
    evaluation judge where native and NumPy disagree far from the origin (_check_far); without, that is not
    checked."""
    cpp = next((v for k, v in files.items() if k.startswith("cpu/") and k.endswith(".cpp")), None)
    js = next((v for k, v in files.items() if k.startswith("cpu/") and k.endswith(".json")), None)
    if cpp is None or js is None:
        return {}
    ok, _ = native.available()
    if not ok:
        return {}
    manifest = json.loads(js)
    ns: dict = {"__name__": "_tensor_rules_native_check"}
    exec(compile(module_source, f"<generated from {label}>", "exec"), ns)   # noqa: S102 - our own generated code
    fns = ns["_define"](backend_numpy)
    mod = plan.Module(label, cpp, manifest)
    rules = rules or {}
    return {name: _check_op(mod, name, fns, ns["OPS"][name], manifest["ops"][name], rules.get(name))
            for name in manifest["ops"]}


def _check_op(mod, name, fns, meta, entry, rule=None) -> Checked:
    worst, problems, skipped = 0.0, [], []
    base = verify.extent_assignments(meta)
    ran: set = set()
    for sizes in _sizes(meta, _reduced(entry)):
        parts = []
        for part in PARTS:
            if max(cost(entry, part, sizes)) <= BUDGET:
                parts.append(part)
            else:
                skipped.append((part, dict(sizes)))
        ran.update(parts)
        if not parts:
            continue
        long = SPLIT in sizes.values()
        # two points at the verifier's own extents; one where an extent crosses a tile or splits a reduction (the
        # paths those reach are about extents, not values)
        for seed in SEEDS if sizes in base else SEEDS[:1]:
            rng = np.random.default_rng(seed)
            x = verify.sample_inputs(meta, rng, sizes)
            for dtype in (np.float64,) if long else (np.float64, np.float32):
                err, why = _compare(mod, name, fns, meta, x, rng, dtype, parts)
                worst = max(worst, err)
                if why:
                    problems.append(f"{why} ({np.dtype(dtype).name}, extents {sizes}, seed {seed})")
    # a part the budget left out at every extent set was never compared: it must not run unchecked
    problems += [f"its {part} was not checked: over the check's budget at every extent set" for part in PARTS
                 if part not in ran]
    if rule is not None and all(max(cost(entry, part, base[0])) <= BUDGET for part in PARTS):
        problems += _check_far(mod, name, fns, meta, rule, base[0])
    return Checked(worst, problems[:3], skipped)


def _force(v):
    """`v` with every thunk in it (a tuple's items too) computed."""
    v = unthunk(v)
    return tuple(_force(u) for u in v) if isinstance(v, tuple) else v


def _cast(v, dtype):
    return v.astype(dtype) if isinstance(v, np.ndarray) else v


def _compare(mod, name, fns, meta, x, rng, dtype, parts=tuple(PARTS)):
    """(worst relative difference, the first problem or None) of the native `parts` of op `name` against the NumPy
    code's at inputs `x`, computed in `dtype`."""
    try:
        pairs, _ = _pairs(mod, name, fns, meta, x, rng, dtype, parts)
    except _KernelsRaised as exc:
        return float("inf"), str(exc)
    worst, why = 0.0, None
    for what, _, p, q, e in _differences(pairs):
        worst = max(worst, e)
        if not e <= TOL[dtype] and why is None:
            why = f"{what} differs from the NumPy code's by {e:.2g} (relative to its largest entry)"
    return worst, why


def _differences(pairs):
    """(what, kind, native, NumPy, relative difference) of each pair whose NumPy value is not zero, a zero native
    value as zeros."""
    for what, kind, p, q in pairs:
        p, q = _val(p), _val(q)
        if q is None:
            continue
        if p is None:
            p = np.zeros_like(np.asarray(q, dtype=np.float64))
        yield what, kind, p, q, arbiter.relative_error(p, q)


def _check_far(mod, name, fns, meta, rule, sizes):
    """The problems of the native parts at inputs moved to each of OFFSETS, in float64 and float32, against the
    NumPy code run on the same (rounded) inputs in the same dtype: where the two differ by more than TOL, the
    reference evaluation of the rule's text judges (derive.verification.arbiter), and the native code fails only
    where it is the one that errs. (Near the origin both agree to TOL, _check_op; far from it the NumPy code
    centres and shifts, and a kernel that expands x·Σ K - Σ K·y uncentred cancels.)"""
    problems = []
    start = time.perf_counter()
    for offset in OFFSETS:
        x = [verify.moved_input(v, inp, meta.get("domains", {}).get(inp["name"], "real"), offset, 1.0)
             for v, inp in zip(verify.sample_inputs(meta, np.random.default_rng(0), sizes), meta["inputs"])]
        if any(v is None for v in x):
            continue
        for dtype in (np.float64, np.float32):
            xs = [_cast(v, dtype) for v in x]
            try:
                pairs, probe = _pairs(mod, name, fns, meta, xs, np.random.default_rng(1), dtype, tuple(PARTS))
            except _KernelsRaised as exc:
                problems.append(f"{exc} (offset {offset:g}, {np.dtype(dtype).name})")
                continue
            judge = arbiter.Arbiter(rule, meta, [_cast(v, np.float64) for v in xs],
                                    max(0.0, ARBITER_SECONDS - (time.perf_counter() - start)))
            for what, kind, p, q, e in _differences(pairs):
                if e <= TOL[dtype]:
                    continue
                try:
                    errors = arbiter.judge(judge, kind, p, q, TOL[dtype], probe)
                except arbiter.Undecided:
                    continue
                if arbiter.native_is_wrong(errors, TOL[dtype]):
                    problems.append(f"{what} at inputs offset by {offset:g} ({np.dtype(dtype).name}) differs from "
                                    f"the reference evaluation of the rule by {errors[0]:.2g}, where the NumPy "
                                    f"code's differs by {errors[1]:.2g}")
    return problems


class _KernelsRaised(Exception):
    pass


def _pairs(mod, name, fns, meta, x, rng, dtype, parts):
    """([(what, kind, native value, NumPy value)] for the parts asked for, a value per output (kind ("value", j),
    ("tangent", j) or ("cotangent", k), derive.verification.arbiter), and the probe: the tangents and output
    cotangents drawn, as the NumPy code got them)."""
    xs = [_cast(v, dtype) for v in x]
    tan = [None if inp["kind"] == "int" else np.asarray(rng.standard_normal(np.shape(v))) if isinstance(v, np.ndarray)
           else float(rng.standard_normal()) for v, inp in zip(x, meta["inputs"])]
    tans = [None] + [_cast(t, dtype) if t is not None else None for t in tan]
    tans = [ZeroTangent() if t is None else t for t in tans]
    dev, pairs, probe = native.CHECK_DEVICE, [], {"tangents": tan, "ybar": None}
    with np.errstate(all="ignore"):
        try:
            if "forward" in parts:
                pairs += _per_output("forward", "value", native.call(mod, name, "forward", xs, dev), fns[name](*x))
            if "frule" in parts:
                want_fy, want_dy = fns[name + "_frule"](tuple([ZeroTangent()] + tan), *x)
                got_fy, got_dy = native.call(mod, name, "frule", [tuple(tans)] + xs, dev)
                pairs += _per_output("frule value", "value", got_fy, want_fy)
                pairs += _per_output("frule tangent", "tangent", _force(got_dy), want_dy)
            if "rrule" in parts:
                want_y2, pb = fns[name + "_rrule"](*x)
                multi = isinstance(want_y2, tuple)
                ybar = probe["ybar"] = (tuple(rng.standard_normal(np.shape(v)) for v in want_y2) if multi
                                        else rng.standard_normal(np.shape(want_y2)))
                want_g = pb(ybar)
                got_y2, gpb = native.call(mod, name, "rrule", xs, dev)
                cast_bar = (tuple(_cast(np.asarray(v), dtype) for v in ybar) if multi
                            else _cast(np.asarray(ybar), dtype))
                # the cotangents are thunks, run here: an exception from them is the kernels' problem too
                got_g = _force(gpb(cast_bar))
                pairs += _per_output("rrule value", "value", got_y2, want_y2)
                for k, (a, b) in enumerate(zip(got_g[1:], want_g[1:])):
                    pairs.append((f"cotangent of {meta['inputs'][k]['name']}", ("cotangent", k), a, b))
        except Exception as exc:  # noqa: BLE001 - reported as the problem
            raise _KernelsRaised(f"the native kernels raised {type(exc).__name__}: {exc}") from None
    return pairs, probe


def _per_output(what, kind, got, want):
    if isinstance(want, tuple):
        got = got if isinstance(got, tuple) else (got,) * len(want)
        return [(what, (kind, j), a, b) for j, (a, b) in enumerate(zip(got, want))]
    return [(what, (kind, 0), got, want)]
