"""The one pipeline that `derive-rules` (derive.cli) and `runtime.define` (runtime.rule_cache) both run.

A rule file's text passes the stages in this order, each called from here:
  language (derive.language: parse, each rule's own text) -> lowering (derive.lowering: the IR program, and the
  batched twin's) -> calculus (derive.calculus: pushforward, then the pullback as its transpose) -> emission
  (derive.emission: each op's NumPy code) -> verification (derive.verification.run: that code run against finite
  differences, the adjoint identity and the reference evaluator) -> display (derive.display.outcome: the shown
  formulas, each op's record) -> emission (the module's text, which carries the records; with kernels, the CPU
  and CUDA plans) -> verification of the native kernels against the verified NumPy code.
The module is emitted after display because it carries what display made; nothing else goes back a stage.
`process` returns the outcome as plain data (the files to write and each rule's JSON), cached by content in
runtime.trusted_cache.
"""
from __future__ import annotations

import contextlib
import gc
import json
import multiprocessing
import os
import re
import signal
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import PurePath

from derive import COMMAND, outcome_cache, progress
from derive.calculus import differential as calculus
from derive.display import forms as display
from derive.display import outcome, record
from derive.emission import module as emit_module
from derive.emission import numpy_module as codegen
from derive.emission.cpp import generate_cpu
from derive.emission.cuda import generate_cuda
from derive.language import parser
from derive.language.errors import DeriveError, RuleError, RuleErrors, VerificationError
from derive.lowering import batching
from derive.lowering.lower import lower
from derive.verification import native as verify_native
from derive.verification import verify
from derive.verification.run import verify_results
from runtime import artefacts


@dataclass
class RuleResult:
    """One derived rule: its program, pushforward, pullbacks, generated code and verification."""

    name: str
    source: str
    program: object
    derivation: object
    code: object = None
    check: verify.Check | None = None
    seconds: float = 0.0
    doc: str = ""
    error: str | None = None
    rule: object = None            # the parsed rule (derive.language.ast.RuleDef), for the reference check
    text: str = ""                 # the rule's source text (derive.language.parser.rule_text)
    twin: object = None            # its batched twin (a RuleResult, see derive.lowering.batching), None for none
    _record: tuple | None = field(default=None, repr=False, compare=False)   # (the check it was made for, record)

    @property
    def ok(self) -> bool:
        return self.error is None and self.check is not None and self.check.ok and (
            self.twin is None or self.twin.ok)

    def record(self) -> dict:
        """What the generated op carries about itself (op.rule; derive.display.record), made once per check."""
        if self._record is None or self._record[0] is not self.check:
            self._record = (self.check, record.make(self))
        return self._record[1]

    # display --------------------------------------------------------------------------------------------------
    def pushforward_text(self, style="unicode") -> str:
        return display.program_text(self.derivation, "pushforward", style)

    def pullback_text(self, style="unicode") -> str:
        return display.program_text(self.derivation, "pullback", style)

    def pushforward_index(self, style="unicode") -> str:
        return display.program_text(self.derivation, "pushforward", style, matrix=False)

    def pullback_index(self, style="unicode") -> str:
        return display.program_text(self.derivation, "pullback", style, matrix=False)

    def pushforward(self):
        """The pushforward as (tangent name, index symbols, [Term]) triples (SymPy objects)."""
        return [(s.target, s.indices, s.terms) for s in self.derivation.pushforward]

    def pullbacks(self):
        """Each differentiable input's cotangent statement, and the intermediates' ones before it."""
        return [(s.target, s.indices, s.terms) for s in self.derivation.pullback]

    def pullback_needs(self) -> dict:
        """What the pullback keeps from the forward pass (derive.display.outcome.pullback_needs)."""
        return outcome.pullback_needs(self)

    def to_json(self) -> dict:
        return outcome.rule_json(self)


def parse(text: str, path: str = "<string>", bare_name: str | None = None):
    return _parse(text, path, bare_name)[0]


def _parse(text, path, bare_name, found=None):
    """(the rules, the file's doc comment, each rule's own text): a bare statement list is one rule named
    bare_name; two rules of one name, or two exporting one name, are a RuleError at the second. With a list
    `found`, the file's errors go there (derive.language.errors.RuleErrors) and the rules without one are returned."""
    errors = [] if found is None else found
    if bare_name is not None:
        rules = [parser.parse_statements(text, name=bare_name, path=path)]
        return rules, "", [parser.rule_text(text, rules, 0)]
    parsed = parser.parse_file(text, path, errors)
    rules = list(parsed.rules)
    seen: dict = {}
    exported: dict = {}  # every public name a module exports: <op>, <op>_frule, <op>_rrule -> (rule, line)
    for r in rules:
        if r.name in seen:
            errors.append(RuleError(f"rule '{r.name}' is defined twice (first at line {seen[r.name]})", r.pos,
                                    width=len(r.name)))
            continue
        seen[r.name] = r.pos.line
        for n in (r.name, r.name + "_frule", r.name + "_rrule"):
            if n in exported and exported[n][0] != r.name:
                other, line = exported[n]
                what = f"the {n[len(other) + 1:]} of rule '{other}'" if n != other else f"rule '{other}'"
                errors.append(RuleError(f"rule '{r.name}' exports '{n}', the name of {what} (line {line}); "
                                        f"rename one", r.pos, width=len(r.name)))
                break
            exported[n] = (r.name, r.pos.line)
    if found is None:
        RuleErrors.raise_found(errors)
    return rules, parsed.doc, [parser.rule_text(text, rules, k) for k in range(len(rules))]


def derive_text(text: str, path: str = "<string>", *, bare_name: str | None = None,
                verify_rules: bool = True) -> list[RuleResult]:
    """Parse, lower, derive, generate and verify every rule in `text`. Bad input raises RuleError."""
    with fewer_collections():
        return _derive(text, path, bare_name, verify_rules)[0]


# Deriving allocates millions of small SymPy objects and keeps most of them (SymPy's caches, the statements, their
# shown forms). At Python's default thresholds (700, 10, 10) the cyclic collector runs every 700 allocations and
# walks the survivors again and again: 15 % of a 1000-statement rule's CPU (1.9 s of 12), 0.6 s at these.
# Within a derivation the young generation is collected every YOUNG_THRESHOLD allocations; the process's own
# thresholds are back when the last derivation running in it ends.
YOUNG_THRESHOLD = 50_000
_collections = {"depth": 0, "saved": None, "lock": threading.Lock()}


@contextlib.contextmanager
def fewer_collections():
    with _collections["lock"]:
        if _collections["depth"] == 0:
            _collections["saved"] = gc.get_threshold()
            young, middle, old = _collections["saved"]
            gc.set_threshold(max(young, YOUNG_THRESHOLD), max(middle, 20), old)
        _collections["depth"] += 1
    try:
        yield
    finally:
        with _collections["lock"]:
            _collections["depth"] -= 1
            if _collections["depth"] == 0:
                gc.set_threshold(*_collections["saved"])


def _derive(text, path, bare_name, verify_rules=True, note=None):
    """(results, the file's doc comment): each stage over every rule before the next stage (language, lowering,
    calculus, emission), then the verification of all of them at once (one module of their code)."""
    note = note or _no_note
    found: list = []      # every rule is parsed and lowered before errors are reported: all of them at once
    rules, doc, texts = _parse(text, path, bare_name, found)
    clock = [0.0] * len(rules)

    def step(what, k, r):
        note(f"{what} rule {k + 1}/{len(rules)} {r.name}")
        return k, r

    lowered = [_timed(clock, *step("lowering", k, r), path, _lowered, r, path, found=found)
               for k, r in enumerate(rules)]
    RuleErrors.raise_found(found)
    derived = [_timed(clock, *step("deriving", k, r), path, _derived, lw)
               for k, (r, lw) in enumerate(zip(rules, lowered))]
    results = [_timed(clock, *step("emitting", k, r), path, _emitted, r, t, lw, dv)
               for k, (r, t, lw, dv) in enumerate(zip(rules, texts, lowered, derived))]
    for res, seconds in zip(results, clock):
        res.seconds = seconds
    if verify_rules:
        note(f"verifying {len(rules)} rule{'s' if len(rules) != 1 else ''}")
        verify_results(results, path)
    return results, doc


def _timed(clock, k, r, path, step, *args, found=None):
    """step(*args) for rule r, its time added to clock[k]; an exception of ours still names the rule, never
    SymPy's insides. With a list `found`, the error goes there and None is returned."""
    t0 = time.perf_counter()
    try:
        try:
            return step(*args)
        except DeriveError:
            raise
        except Exception as exc:
            raise DeriveError(f"{path}:{r.pos.line}: internal error while deriving rule '{r.name}': "
                              f"{type(exc).__name__}: {exc}") from exc
    except DeriveError as exc:
        if found is None:
            raise
        found.append(exc)
        return None
    finally:
        clock[k] += time.perf_counter() - t0


def _lowered(r, path):
    """(the rule's Program, (its batched twin's rule, Program) or None): the lowering stage."""
    prog = lower(r)
    prog.source = f"{path}:{r.pos.line}"
    twin = batching.lower_twin(r, prog)[0]
    if twin is not None:
        twin[1].source = prog.source
    return prog, twin


def _derived(lowered):
    """(the rule's Derivation, its twin's or None): the calculus stage. Fresh names restart for every rule, so its
    code never depends on what was derived before it (deterministic output, valid cache entries)."""
    prog, twin = lowered
    calculus.reset_counters()
    return calculus.derive(prog), _derived_twin(twin)


def _emitted(r, text, lowered, derived) -> RuleResult:
    """The RuleResult of a rule (`text`: its own source text) with its twin's: the emission stage (each op's code)."""
    (prog, twin), (d, td) = lowered, derived
    code = codegen.generate_op(d)
    tresult = None
    if td is not None:
        trule, tprog = twin
        code.meta["batched"] = trule.name
        tresult = RuleResult(trule.name, prog.source, tprog, td, codegen.generate_op(td), rule=trule)
    return RuleResult(r.name, prog.source, prog, d, code, doc=r.doc, rule=r, text=text, twin=tresult)


def _derived_twin(twin):
    """The twin's derivation, or None where it cannot be derived (the op then refuses leading axes)."""
    if twin is None:
        return None
    try:
        return calculus.derive(twin[1])
    except (DeriveError, RuleError):
        return None


def render_module(results, source: str, *, export: bool = True, doc: str = "", command: str = COMMAND) -> str:
    """The module of `results`, with their records (op.rule) where it is exported."""
    records = record.literal({r.name: r.record() for r in results}) if export else "{}"
    return emit_module.render(results, source, export=export, doc=doc, command=command, records=records)


def generate_module_source(text: str, module_name: str | None = None, source_label: str = "<runtime>") -> str:
    """Source of an importable module for the rules in `text` (what runtime.define caches, without kernels)."""
    return define_files(text, module_name, source_label)["module.py"]


def process(text: str, label: str, module: str, *, use_cache=True, bare_name=None, kernels=True,
            command: str = COMMAND) -> dict:
    """Derive + verify + render one rule file; the outcome is a JSON-able dict, cached by content hash
    (derive.outcome_cache: $TENSOR_RULES_CACHE/derive/<key>.json, owner-only, every entry signed and checked before
    use). `kernels`: emit the CPU and CUDA kernel plans too, and check the CPU ones where a compiler is found."""
    def build():
        return derive_file(text, label, module, bare_name=bare_name, kernels=kernels, command=command)[1]

    if not use_cache:
        return build()
    return outcome_cache.cached(outcome_cache.key(text, label, module, bare_name=bare_name, kernels=kernels,
                                                  command=command), build)


def workers() -> int:
    """Processes that may derive files side by side: $TENSOR_RULES_JOBS, else the CPUs this process may run on, at
    most 8 (each worker holds its own SymPy caches, a few hundred MB on a large file)."""
    v = os.environ.get("TENSOR_RULES_JOBS", "").strip()
    if v.isdigit() and int(v) > 0:
        return int(v)
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return min(cpus, 8)


def process_many(jobs, *, kernels=True, jobs_at_once=None, status=None) -> list:
    """The outcomes of `jobs` ([(text, label, module, bare name)]), uncached, in order. Files are independent, so
    with more than one CPU they are derived in forked worker processes (SymPy holds the GIL; a native check's
    compile runs beside another file's derivation). `status` (derive.progress) hears which files run and finish,
    and, for files derived here, the step each is at. A DeriveError in a file is raised here as in the sequential
    run; Ctrl-C stops the workers and raises KeyboardInterrupt."""
    status = status or progress.Silent()
    n = min(jobs_at_once or workers(), len(jobs))
    if n <= 1 or sys.platform != "linux":   # fork, as the workers inherit the loaded engine: Linux only
        outs = []
        for i, (text, label, module, bare) in enumerate(jobs):
            status.start([i])
            outs.append(derive_file(text, label, module, bare_name=bare, kernels=kernels, note=status.at)[1])
            status.finished(i)
        return outs
    order = sorted(range(len(jobs)), key=lambda i: -_weight(jobs[i][0]))     # the costliest first: others fill in
    outs: list = [None] * len(jobs)
    pool = multiprocessing.get_context("fork").Pool(n, initializer=_worker_init)
    try:
        status.start(order[:n])          # after the fork: the status line's thread is never copied into a worker
        for i, ok, out in pool.imap_unordered(_worker, [(i, jobs[i], kernels) for i in order]):
            if not ok:
                raise DeriveError(out)
            outs[i] = out
            status.finished(i)
            status.start([j for j in order if outs[j] is None][:n])
        pool.close()
    finally:
        pool.terminate()
        pool.join()
    return outs


def _weight(text: str) -> int:
    """A guess at a file's cost, to start the costliest first: a rule's checks grow with its number of distinct
    indices (extent sets, reference loops, kernel tiles), so each line counts its distinct one-letter names squared."""
    return sum(len(set(_LETTER.findall(line))) ** 2 for line in text.splitlines())


_LETTER = re.compile(r"\b[a-z]\b")


def _worker_init():
    """A worker leaves Ctrl-C to the command (which terminates the pool) and dies quietly on SIGTERM."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _worker(item):
    i, (text, label, module, bare), kernels = item
    try:
        return i, True, derive_file(text, label, module, bare_name=bare, kernels=kernels)[1]
    except DeriveError as exc:      # its text only: an error's own attributes need not survive pickling
        return i, False, str(exc)


def derive_file(text: str, label: str, module: str, *, bare_name=None, kernels=True, command: str = COMMAND,
                note=None):
    """(results, outcome) of one rule file, uncached: every stage once, in the order the module docstring gives.
    `note(step)` hears each step as it starts (derive.progress shows it)."""
    with fewer_collections():
        return _derive_file(text, label, module, bare_name, kernels, command, note or _no_note)


def _derive_file(text, label, module, bare_name, kernels, command, note):
    results, doc = _derive(text, label, bare_name, note=note)
    out = {
        "source": label,
        "module": module,
        "rules": [r.to_json() for r in results],
        "ok": all(r.ok for r in results),
        "files": {},
    }
    if out["ok"]:
        where = artefacts.paths(module)      # every file of this rule file is named after its module
        out["files"][where["module"]] = render_module(results, label, doc=doc, command=command)
        if kernels:
            note("emitting the CUDA and CPU kernels")
            out["files"].update(_named(where, "cuda", generate_cuda(results, label, name=module,
                                                                    module_text=out["files"][where["module"]])))
            cpu = generate_cpu(results, label, module_text=out["files"][where["module"]], name=module)
            out["files"].update(_named(where, "cpu", cpu))
            note("compiling and checking the native CPU kernels")
            _check_native(out, label, {r.name: r.rule for r in results})
    return results, out


def _named(where: dict, kind: str, files: dict) -> dict:
    """The kernels and plan of `kind` ("cpu", "cuda") at their paths in the output directory (runtime.artefacts)."""
    return {where[k]: files[PurePath(where[k]).name] for k in (kind, kind + "_plan") if files}


def _no_note(step):
    pass


def define_files(text: str, name: str | None = None, label: str = "<runtime>", *, kernels: bool = False) -> dict:
    """The files runtime.define caches for `text`, through the same pipeline as derive-rules: `module.py`, and with
    `kernels` the CPU plan checked against the verified NumPy code (`cpu/*.cpp`, `cpu/*.json`) and the CUDA plan.
    A bare statement list (`B = inv(A)`) is named `name`. Every rule must verify (VerificationError otherwise)."""
    bare = None if parser.starts_with_header(text, label) else name or "expr"
    results, out = derive_file(text, label, "module", bare_name=bare, kernels=kernels,
                               command=f"runtime.define (derive {__package__})")
    bad = [r for r in results if not r.ok]
    if bad:
        r = bad[0]
        why = r.error or "; ".join(r.check.problems)
        raise VerificationError(f"rule '{r.name}' ({r.source}) failed verification: {why}")
    return out["files"]


def _check_native(out, label, rules=None):
    """Run the native plan against the verified NumPy code (derive.verification.native). An op whose kernels disagree is
    left out of the CPU plan and the CUDA plan (the planner printed both from one plan; on a GPU the same mistake
    would go unseen here), with a warning: the rule is right and its verified NumPy code runs. Only an exception
    from the check itself fails the rule. (tests/derive/test_native_plans.py holds every shipped op to its kernels.)"""
    found = verify_native.check(out["files"][artefacts.paths(out["module"])["module"]], out["files"], label, rules)
    dropped = {}
    for rule in out["rules"]:
        if rule["name"] not in found:
            continue
        err, problems, skipped = found[rule["name"]]
        v = rule.setdefault("verification", {})
        v["native_error"] = err
        if skipped:     # parts the check's budget left out at some extents (derive.verification.native.BUDGET)
            v["native_skipped"] = [f"{part} at {' '.join(f'{k}={n}' for k, n in sizes.items())}"
                                   for part, sizes in skipped]
        if problems:
            why = f"{NATIVE_LEFT_OUT}: {problems[0]}"
            dropped[rule["name"]] = why
            v.setdefault("warnings", []).append(f"{why}; the verified NumPy code runs instead")
    if dropped:
        _leave_out(out["files"], dropped)


NATIVE_LEFT_OUT = "native kernels disagree with the verified NumPy code, left out"


def _leave_out(files, dropped):
    """Take the ops in `dropped` ({name: why}) out of the cpu/ and cuda/ plans among `files` (their kernels stay in
    the source, never called); a CPU plan left with no op is not written."""
    for name in list(files):
        if not name.endswith(".json") or not name.startswith(("cpu/", "cuda/")):
            continue
        manifest = json.loads(files[name])
        gone = {op: why for op, why in dropped.items() if op in manifest["ops"]}
        if not gone:
            continue
        for op, why in gone.items():
            del manifest["ops"][op]
            manifest["numpy_only" if name.startswith("cpu/") else "unsupported"][op] = why
        if name.startswith("cpu/") and not manifest["ops"]:
            del files[name], files[name[:-len(".json")] + ".cpp"]
            continue
        files[name] = json.dumps(manifest, indent=1) + "\n"


def file_doc(text):
    try:
        return parser.parse_file(text).doc
    except Exception:
        return ""
