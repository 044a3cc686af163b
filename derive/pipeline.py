"""The one pipeline that `derive-rules` (derive.cli) and `runtime.define` (runtime.rule_cache) both run.

A rule file's text passes each stage once, in this order: language (parse) -> lowering (to the IR) -> calculus
(pushforward, then the pullback as its transpose) -> emission (the NumPy code of each op) -> verification (that
code run against finite differences, the adjoint identity and the reference evaluator) -> display (the shown
formulas and each op's record) -> emission of the files (the module, its CPU and CUDA kernel plans) ->
verification of the native kernels against the verified NumPy code. `process` returns the outcome as plain data
(the files to write and each rule's JSON), cached by content in runtime.trusted_cache.
"""
from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field

from derive.calculus import differential as calculus
from derive.display import forms as display
from derive.display import record
from derive.emission import numpy_module as codegen
from derive.emission import numpy_print as emit_numpy
from derive.emission.cpp import generate_cpu
from derive.emission.cuda import generate_cuda
from derive.emission.templates import template_env
from derive.fingerprint import engine_fingerprint
from derive.ir import nodes as ir
from derive.ir.names import user_name
from derive.language import parser
from derive.language.errors import DeriveError, RuleError, VerificationError
from derive.lowering import batching
from derive.lowering.lower import lower
from derive.verification import native as verify_native
from derive.verification import verify
from derive.verification.twin import check_twin
from runtime import native, trusted_cache

COMMAND = "derive-rules"
CACHE_VERSION = "2"


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
    text: str = ""                 # the rule's source text (derive.display.record.rule_text)
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
        """What the pullback keeps from the forward pass: inputs, outputs and intermediates it reads
        (auxiliary values such as det's A⁻¹ are recomputed inside the pullback, from what is kept)."""
        p = self.program
        roles = {v.name: v.role for v in p.all_vars}
        aux = {st.target: st.args for st in self.derivation.aux}
        names = set()
        for ls in self.derivation.pullback:
            for t in ls.terms:
                for a in ir.accesses(t.coeff):
                    n = ir.acc_name(a)
                    names |= set(aux[n]) if n in aux else ({n} if ":" not in n else set())
        order = [v.name for v in p.inputs + p.outputs + p.temps]
        out = {"inputs": [], "outputs": [], "intermediates": []}
        for n in order:
            if n in names:
                key = {"input": "inputs", "output": "outputs"}.get(roles.get(n), "intermediates")
                out[key].append(user_name(n))
        return out

    def to_json(self) -> dict:
        p = self.program
        out = {
            "name": self.name,
            "signature": p.signature,
            "doc": self.doc,
            "source": self.source,
            "inputs": [{"name": user_name(v.name), "kind": v.kind, "indices": [user_name(i) for i in v.indices],
                        **({} if v.kind == "int" else {"domain": p.domains.get(v.name, "real"),
                                                       "domain_declared": bool(v.domain)})}
                       for v in p.inputs],
            "outputs": [{"name": user_name(v.name), "indices": [user_name(i) for i in v.indices]}
                        for v in p.outputs],
            "pushforward": display.program_json(self.derivation, "pushforward"),
            "pullback": display.program_json(self.derivation, "pullback"),
            "pullback_needs": self.pullback_needs(),
            "verified": self.ok,
            "seconds": round(self.seconds, 4),
        }
        if self.check is not None:
            c = self.check
            out["verification"] = {"fd_error": c.fd_error, "adjoint_error": c.adjoint_error,
                                   "chunk_error": c.chunk_error, "reference_error": c.reference_error,
                                   "reference_points": c.reference_points, "points": c.points, "skipped": c.skipped,
                                   "extents": [dict(e) for e in c.extents], "skipped_because": list(c.notes),
                                   "problems": list(c.problems), "warnings": list(c.warnings)}
        if self.error:
            out["error"] = self.error
        out["record"] = self.record()       # what the generated op carries (op.rule); the report reads it
        return out


def parse(text: str, path: str = "<string>", bare_name: str | None = None):
    if bare_name is not None:
        return [parser.parse_statements(text, name=bare_name, path=path)]
    return list(parser.parse_file(text, path).rules)


def derive_text(text: str, path: str = "<string>", *, bare_name: str | None = None,
                verify_rules: bool = True) -> list[RuleResult]:
    """Parse, lower, derive, generate and verify every rule in `text`. Bad input raises RuleError."""
    rules = parse(text, path, bare_name)
    seen: dict = {}
    exported: dict = {}  # every public name a module exports: <op>, <op>_frule, <op>_rrule -> (rule, line)
    for r in rules:
        if r.name in seen:
            raise RuleError(f"rule '{r.name}' is defined twice (first at line {seen[r.name]})", r.pos,
                            width=len(r.name))
        seen[r.name] = r.pos.line
        for n in (r.name, r.name + "_frule", r.name + "_rrule"):
            if n in exported and exported[n][0] != r.name:
                other, line = exported[n]
                what = f"the {n[len(other) + 1:]} of rule '{other}'" if n != other else f"rule '{other}'"
                raise RuleError(f"rule '{r.name}' exports '{n}', the name of {what} (line {line}); rename one",
                                r.pos, width=len(r.name))
            exported[n] = (r.name, r.pos.line)
    results = []
    for k, r in enumerate(rules):
        t0 = time.perf_counter()
        _reset_counters()
        try:
            prog = lower(r)
            prog.source = f"{path}:{r.pos.line}"
            d = calculus.derive(prog)
            code = codegen.generate_op(d)
            twin = _twin(r, prog, code)
        except DeriveError:
            raise
        except Exception as exc:  # a bug of ours must still name the rule, never dump SymPy's insides
            raise DeriveError(f"{path}:{r.pos.line}: internal error while deriving rule '{r.name}': "
                              f"{type(exc).__name__}: {exc}") from exc
        results.append(RuleResult(r.name, prog.source, prog, d, code, doc=r.doc,
                                  seconds=time.perf_counter() - t0, rule=r, text=record.rule_text(text, rules, k),
                                  twin=twin))
    if verify_rules:
        verify_results(results, path)
    return results


def _twin(r, prog, code):
    """The batched twin of a derived rule (derive.lowering.batching), which runs an op over extra leading axes; None for
    an elementwise op (which takes any shape already) or a rule whose twin cannot be derived."""
    if code.meta.get("elementwise"):
        return None
    t0 = time.perf_counter()
    parts, _why = batching.derive_twin(r, prog, lambda p: calculus.derive(p))
    if parts is None:
        return None
    twin, tprog, d = parts
    tprog.source = prog.source
    tcode = codegen.generate_op(d)
    code.meta["batched"] = twin.name
    return RuleResult(twin.name, prog.source, tprog, d, tcode, seconds=time.perf_counter() - t0, rule=twin)


def _reset_counters():
    """Fresh-name counters restart for every rule, so its generated code never depends on what was
    derived before it in the same process (deterministic output, valid cache entries)."""
    calculus.reset_counters()


def verify_results(results, path="<string>"):
    t0 = time.perf_counter()
    src = render_module(results, path, export=False)
    ns: dict = {}
    try:
        exec(compile(src, f"<generated from {path}>", "exec"), ns)
        fns = verify.load(ns)
    except Exception as exc:
        for r in results:
            r.error = f"generated code does not load: {type(exc).__name__}: {exc}"
        return
    share = (time.perf_counter() - t0) / max(1, len(results))
    for r in results:
        t1 = time.perf_counter()
        for x in (r, r.twin) if r.twin is not None else (r,):
            try:
                x.check = verify.check_op(x.name, fns, x.code.meta)
                if x is r:
                    verify.check_reference(x.check, x.name, fns, x.code.meta, x.rule)
                else:
                    check_twin(x.check, r.name, x.name, fns, r.code.meta, x.code.meta)
            except Exception as exc:
                x.error = f"generated code fails at a random point: {type(exc).__name__}: {exc}"
        if r.twin is not None and not r.twin.ok and r.error is None:
            r.error = f"its batched twin (leading axes) fails verification: {r.twin.error or r.twin.check.problems}"
        r.seconds += time.perf_counter() - t1 + share


def render_module(results, source: str, *, export: bool = True, doc: str = "", command: str = COMMAND) -> str:
    tpl = template_env().get_template("numpy_module.py.j2")
    ops = [r.code for r in results] + [r.twin.code for r in results if r.twin is not None]
    metas = {r.name: r.code.meta for r in results}
    # the records (op.rule) are for the exported module; the one verification runs needs none
    rules = record.literal({r.name: r.record() for r in results}) if export else "{}"
    return tpl.render(source=source, command=command, doc=(doc or f"Rules derived from {source}.").strip(),
                      ops=ops, ops_literal=codegen.ops_literal(metas), rules_literal=rules, export=export,
                      chunk_name=emit_numpy.CHUNK_NAME, chunk_elements=emit_numpy.CHUNK_ELEMENTS)


def generate_module_source(text: str, module_name: str | None = None, source_label: str = "<runtime>") -> str:
    """Source of an importable module for the rules in `text` (what runtime.define caches, without kernels)."""
    return define_files(text, module_name, source_label)["module.py"]


def _valid_entry(out) -> bool:
    return (isinstance(out, dict) and isinstance(out.get("files"), dict) and isinstance(out.get("rules"), list)
            and isinstance(out.get("ok"), bool) and isinstance(out.get("module"), str)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in out["files"].items())
            and all(isinstance(r, dict) for r in out["rules"]))


def process(text: str, label: str, module: str, *, use_cache=True, bare_name=None, kernels=True,
            command: str = COMMAND) -> dict:
    """Derive + verify + render one rule file; the outcome is a JSON-able dict, cached by content hash.

    The cache ($TENSOR_RULES_CACHE/derive/<key>.json) is runtime.trusted_cache's: owner-only, every entry signed
    and checked before use; an entry that does not verify or has the wrong shape is regenerated. `kernels`: emit
    the CPU and CUDA kernel plans too, and check the CPU ones where a compiler is found."""
    # whether the native kernels are checked here (verify_native needs a compiler, and TENSOR_RULES_NATIVE=0 turns
    # it off) is part of the key: an outcome whose plan went unchecked must never answer a run that checks it
    parts = [CACHE_VERSION, engine_fingerprint(), label, module, str(bare_name), str(kernels),
             f"native-checked={kernels and _native_checkable()}", command, text]
    key = hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()
    entry = f"{key}.json"
    if use_cache:
        try:
            payload = trusted_cache.read("derive", entry, key)
            out = json.loads(payload) if payload is not None else None
            if _valid_entry(out):
                return out
        except trusted_cache.UntrustedCache as exc:
            trusted_cache.warn_once(exc, "derive-rules")
            use_cache = False
        except ValueError:  # signed by us, yet not JSON: regenerate
            pass
    out = derive_file(text, label, module, bare_name=bare_name, kernels=kernels, command=command)[1]
    if use_cache and out["ok"]:
        try:
            trusted_cache.write("derive", entry, key, json.dumps(out).encode("utf-8"))
        except OSError:
            pass
        except trusted_cache.UntrustedCache as exc:
            trusted_cache.warn_once(exc, "derive-rules")
    return out


def derive_file(text: str, label: str, module: str, *, bare_name=None, kernels=True, command: str = COMMAND):
    """(results, outcome) of one rule file, uncached: every stage once, in the order the module docstring gives."""
    results = derive_text(text, label, bare_name=bare_name)
    out = {
        "source": label,
        "module": module,
        "rules": [r.to_json() for r in results],
        "ok": all(r.ok for r in results),
        "files": {},
    }
    if out["ok"]:
        out["files"][f"{module}.py"] = render_module(results, label, doc=file_doc(text), command=command)
        if kernels:
            out["files"].update(_cuda_files(results, label))
            out["files"].update(_cpu_files(results, label, out["files"][f"{module}.py"]))
            _check_native(out, label)
    return results, out


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


def _cuda_files(results, label):
    return {f"cuda/{name}": text for name, text in generate_cuda(results, label).items()}


def _cpu_files(results, label, module_text):
    return {f"cpu/{name}": text for name, text in generate_cpu(results, label, module_text=module_text).items()}


def _native_checkable() -> bool:
    """Whether _check_native can run the native kernels here (derive.verification.native.check's own condition)."""
    return native.available()[0]


def _check_native(out, label):
    """Run the native plan against the verified NumPy code (derive.verification.native). An op whose kernels disagree is
    left out of the CPU plan and the CUDA plan (the planner printed both from one plan; on a GPU the same mistake
    would go unseen here), with a warning: the rule is right and its verified NumPy code runs. Only an exception
    from the check itself fails the rule. (tests/derive/test_native_plans.py holds every shipped op to its kernels.)"""
    found = verify_native.check(out["files"][f"{out['module']}.py"], out["files"], label)
    dropped = {}
    for rule in out["rules"]:
        if rule["name"] not in found:
            continue
        err, problems = found[rule["name"]]
        v = rule.setdefault("verification", {})
        v["native_error"] = err
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
