"""The kernel plan both native printers share: an op's programs as steps of kernels (map, reduce, gemm, prim).

`OpPlan` plans each program into Pieces (kernel_plan.Planner), fuses them and prints each group through
`kernel_step`, which the CUDA printer (cuda.OpCuda) and the C++ printer (cpp.OpCpu) define; `Kernel`, `Ctx` and the
index arithmetic (horner, decompose) are the parts of a kernel's text both spell the same way.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from pathlib import PurePath

import sympy as sp

from derive.calculus.differential import COT, GIVEN, TAN, OpaqueLin, base_name, lin_atoms, lin_reads
from derive.calculus.logsumexp import inline_log_sum_exp
from derive.emission import centring, cuda_reductions, cuda_shifts
from derive.emission.kernel_plan import Body, Planner, outer_accesses
from derive.ir import nodes as ir
from derive.lowering import reductions
from runtime import artefacts

FORMAT = 1
LINEAR_PREFIXES = (TAN, COT, GIVEN)
DTYPES = (("f32", "float"), ("f64", "double"))


def _ident(s):
    s = re.sub(r"[^0-9A-Za-z_]", "_", s)
    s = re.sub(r"_+", "_", s).strip("_") or "x"
    return s if not s[0].isdigit() else "x" + s


def _tail(name: str) -> str:
    # IR names are ASCII identifiers: kept whole (never collapsed), so distinct tensors get distinct C names
    return name if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) else _ident(name)


def cname(buf: str) -> str:
    """C parameter name of a buffer: d_/b_/g_ for (co)tangents, x_ for primal tensors, u_ for the IR's own
    temps (its names start with '_', so 'u' + name); one-to-one, so `x` and `x_` or `_x` never meet."""
    for pre, c in ((TAN, "d"), (COT, "b"), (GIVEN, "g")):
        if buf.startswith(pre):
            base = base_name(buf)
            return c + ("u" if base.startswith("_") else "_") + _tail(base)
    return ("u" if buf.startswith("_") else "x_") + _tail(buf)


# -----------------------------------------------------------------------------------------------------------
# One kernel: collects its parameters while its body is printed


@dataclass
class Kernel:
    name: str
    cls: str
    outputs: list = field(default_factory=list)       # buffers written, in order
    reads: list = field(default_factory=list)          # buffers read
    extents: list = field(default_factory=list)        # extent classes used
    lines: dict = field(default_factory=dict)          # the template's placeholders: lists of code lines
    fields: dict = field(default_factory=dict)         # ... and single values
    extra: list = field(default_factory=list)          # trailing parameters the class adds (C declarations)

    def params(self, T):
        out = []
        for b in self.outputs:
            out.append(f"{T}* __restrict__ {cname(b)}")
            out.append(f"const int mode_{cname(b)}")
        for b in self.reads:
            out.append(f"const {T}* __restrict__ {cname(b)}")
        for c in self.extents:
            out.append(f"const long long n_{c}")
        out += [p.replace("T*", f"{T}*") for p in self.extra]
        return out

    def unpacked(self, T):
        """params(T) read from a uniform call (void* const* tr_p, const long long* tr_n): each pointer from tr_p, each
        integer from tr_n, both in parameter order (the CPU kernels' `_u` entry points)."""
        out, n_p, n_n = [], 0, 0
        for p in self.params(T):
            typ = p.rsplit(" ", 1)[0].replace(" __restrict__", "")
            if "*" in typ:
                out.append(f"({typ})tr_p[{n_p}]")
                n_p += 1
            else:
                out.append(f"({typ.replace('const ', '')})tr_n[{n_n}]")
                n_n += 1
        return out

    def args(self):
        out = []
        for b in self.outputs:
            out += [cname(b), f"mode_{cname(b)}"]
        out += [cname(b) for b in self.reads]
        out += [f"n_{c}" for c in self.extents]
        out += [p.split()[-1] for p in self.extra]
        return out

    def manifest_params(self):
        out = []
        for b in self.outputs:
            out += [["buf", b], ["mode", b]]
        out += [["buf", b] for b in self.reads]
        out += [["ext", c] for c in self.extents]
        return out


class Ctx:
    """What a Body asks of its kernel: how a tensor element, an extent or a fresh name is spelled."""

    def __init__(self, gen, kernel):
        self.gen = gen
        self.k = kernel
        self.counter = 0
        self.local: dict = {}          # buffer -> (C variable, index variables it was computed at)
        self.staged: dict = {}         # buffer -> (bit, smem pointer, K positions, K variables, tile variable)
        self.identity: tuple = ()      # index variables at which offset == flat element index `e`

    def fresh(self, hint):
        self.counter += 1
        return f"{hint}{self.counter}"

    def extent(self, cls):
        if cls not in self.k.extents:
            self.k.extents.append(cls)
        return f"n_{cls}"

    def read(self, buf):
        if buf not in self.k.reads and buf not in self.k.outputs:
            self.k.reads.append(buf)
        return cname(buf)

    def offset(self, buf, codes):
        classes = self.gen.classes(buf)
        assert len(classes) == len(codes), (buf, classes, codes)
        if not codes:
            return "0"
        if self.identity and tuple(codes) == self.identity:
            return "e"
        return horner(codes, [self.extent(c) for c in classes])

    def load(self, buf, off):
        p = self.read(buf)
        return f"tr_ld({p}, {off})" if self.gen.linear(buf) else f"{p}[{off}]"

    def access(self, e, body):
        buf = ir.acc_name(e)
        codes = tuple(body.index(s) for s in e.args)
        if buf in self.local and self.local[buf][1] == codes:
            return self.local[buf][0]
        st = self.staged.get(buf)
        if st is not None:
            bit, smem, kpos, kvars, tvar = st
            if all(codes[p] == v for p, v in zip(kpos, kvars)):
                rest = [(p, c) for p, c in enumerate(codes) if p not in kpos]
                classes = self.gen.classes(buf)
                soff = horner([tvar] + [c for _, c in rest], [None] + [self.extent(classes[p]) for p, _ in rest])
                return f"((stage & {1 << bit}) ? {smem}[{soff}] : {self.load(buf, self.offset(buf, codes))})"
        return self.load(buf, self.offset(buf, codes))


def horner(codes, extents):
    """C-order offset of index values `codes` in axes of sizes `extents` (the first extent is not needed)."""
    out = codes[0]
    for n, x in zip(extents[1:], codes[1:]):
        out = f"{out if '+' not in out else '(' + out + ')'} * {n} + {x}"
    return out


def decompose(flat, vars_, classes, ctx, indent):
    """Lines splitting the flat C-order index `flat` into vars_ (one per class)."""
    lines = []
    if not vars_:
        return lines
    if len(vars_) == 1:
        return [f"{indent}const long long {vars_[0]} = {flat};"]
    rem = ctx.fresh("rem")
    lines.append(f"{indent}long long {rem} = {flat};")
    for k in range(len(vars_) - 1, 0, -1):
        n = ctx.extent(classes[k])
        lines.append(f"{indent}const long long {vars_[k]} = {rem} % {n}; {rem} /= {n};")
    lines.append(f"{indent}const long long {vars_[0]} = {rem};")
    return lines


def product(classes, ctx):
    return " * ".join(ctx.extent(c) for c in classes) or "1LL"


def sum_code(codes):
    if not codes:
        return "T(0)"
    return " + ".join(codes).replace("+ -", "- ")


# -----------------------------------------------------------------------------------------------------------
# One op


class KernelSet:
    """The module's kernels, rendered once each; a kernel identical to an earlier one (the rrule's forward pass
    and the forward function, say) is not emitted twice — its step names the earlier kernel."""

    def __init__(self, env, template="cuda_kernels.cu.j2"):
        self.macros = env.get_template(template).module
        self.texts: list = []
        self.classes: list = []        # each text's kernel class (a "prim" kernel needs cuda_linalg.cuh.j2)
        self._by_text: dict = {}

    def add(self, k: Kernel) -> str:
        final = k.name
        k.name = "@KERNEL@"
        text = str(self.macros.kernel(k, DTYPES))
        k.name = final
        name = self._by_text.get(text)
        if name is None:
            name = self._by_text[text] = final
            self.texts.append(text.replace("@KERNEL@", final).strip("\n"))
            self.classes.append(k.cls)
        return name

    def mark(self):
        """Where the set stands now, for `rollback` (an op left out must leave none of its kernels)."""
        return len(self.texts), dict(self._by_text)

    def rollback(self, mark):
        n, by_text = mark
        del self.texts[n:]
        del self.classes[n:]
        self._by_text = by_text


class OpPlan:
    """One op's programs (forward, frule, rrule, pullback) planned into kernel steps. A printer subclasses it with
    `kernel_step(tag, n, group, local_only)`, the step of one fused group of pieces (None when it writes nothing),
    and may change `body_cls` (how kernel bodies are printed) and `map_decompose`."""

    body_cls = Body

    def __init__(self, result, prefix, kernels: KernelSet):
        self.r = result
        self.kernel_set = kernels
        self.d = inline_log_sum_exp(result.derivation)      # as the NumPy code's (calculus.logsumexp)
        self.p = self.d.program
        self.name = self.p.name
        self.prefix = prefix
        self._classes: dict = {}
        for v in self.p.all_vars:
            self._classes[v.name] = tuple(v.classes)
        for v in self.p.inputs + self.p.outputs:
            for pre in LINEAR_PREFIXES:
                self._classes[pre + v.name] = tuple(v.classes)
        for ls in self.d.pushforward + self.d.pullback:
            self._classes[ls.target] = tuple(s.ext for s in ls.indices)
        self.planner_temps: dict = {}
        self.linear_temps: set = set()
        # translation-invariant inputs read through centred copies, as the NumPy code centres them
        self.centre = centring.groups(self.d)
        self.centre_back: list = []
        self._classes.update(centring.buffers(self.p, self.centre))

    def add(self, k):
        return self.kernel_set.add(k)

    # -- buffers -------------------------------------------------------------------------------------------
    def classes(self, buf):
        if buf in self._classes:
            return self._classes[buf]
        if buf in self.planner_temps:
            return self.planner_temps[buf]
        raise KeyError(f"{self.name}: unknown buffer {buf}")

    def linear(self, buf):
        return buf.startswith(LINEAR_PREFIXES) or buf in self.linear_temps

    def needed_stmts(self, targets):
        need = set(targets)
        out = []
        allst = self.p.stmts + self.d.aux
        for st in reversed(allst):
            if st.target in need:
                out.append(st)
                need |= set(st.args) if st.prim else {ir.acc_name(a) for a in ir.accesses(st.expr)}
        order = {id(s): k for k, s in enumerate(allst)}
        return sorted(out, key=lambda s: order[id(s)])

    # -- programs ------------------------------------------------------------------------------------------
    def programs(self):
        p, d = self.p, self.d
        outs = [v.name for v in p.outputs]
        ins = [v.name for v in p.inputs]
        diff_ins = [v.name for v in p.inputs if v.kind != "int"]
        aux = {st.target for st in d.aux}
        progs = {}
        # forward
        progs["forward"] = self.program("fwd", self.needed_stmts(outs), [], ins, outs)
        # frule: primal + pushforward (terms whose tangent exists)
        coef_reads = set().union(*(lin_reads(ls) for ls in d.pushforward))
        computed = set(diff_ins)
        lins = []
        for ls in d.pushforward:
            if isinstance(ls, OpaqueLin):
                # a linear map given as code: computed when its one linear input is
                if base_name(ls.arg) in computed:
                    lins.append(ls)
                    computed.add(base_name(ls.target))
                continue
            live = [t for t in ls.terms if base_name(ir.acc_name(t.atom)) in computed]
            lins.append(type(ls)(ls.target, ls.indices, live))
            computed.add(base_name(ls.target))
        tan_outs = [TAN + o for o in outs]
        progs["frule"] = self.program("jvp", self.needed_stmts(set(outs) | coef_reads), lins,
                                      ins + [TAN + n for n in diff_ins], outs + tan_outs)
        # pullback first (its reads decide what the rrule's forward pass keeps)
        read_later = set().union(*(lin_atoms(ls) for ls in d.pullback))
        cot_in = [GIVEN + o if GIVEN + o in read_later else COT + o for o in outs]
        pb_reads = set().union(*(lin_reads(ls) for ls in d.pullback))
        aux_needed = [st for st in d.aux if st.target in pb_reads]
        pull_results = [COT + n for n in diff_ins]
        rev = [st for st in self.needed_stmts(set(outs) | (pb_reads - aux)) if st.target not in aux]
        self.centre_back = centring.exposed_in(self.p, self.centre, rev + aux_needed, d.pullback)
        pull = self.program("pb", aux_needed, list(d.pullback), None, pull_results)
        saves = sorted(n for n in pull["reads"] if not self.linear(n))
        pull["args"] = saves + cot_in
        progs["rrule"] = self.program("rev", rev, [], ins, outs, keep=saves)
        missing = [n for n in saves if n not in progs["rrule"]["buffers"] and n not in ins]
        if missing:
            raise AssertionError(f"{self.name}: pullback needs {missing} which the forward pass does not keep")
        progs["rrule"]["saves"] = saves
        progs["pullback"] = pull
        return progs

    def program(self, tag, stmts, lins, args, results, keep=()):
        planner = Planner(self.linear)
        self.planner_temps, self.linear_temps = planner.temps, planner.linear_temps
        stmts, lins = self.centred(tag, planner, stmts, lins)
        for st in stmts:
            if st.prim:
                planner.prim(st)
            elif reductions.is_stmt(st):
                cuda_reductions.plan_stmt(planner, st)
            else:
                expr = cuda_reductions.rewrite(planner, st.expr)
                planner.assign(st.target, st.indices, list(sp.Add.make_args(expr)))
        for ls in lins:
            if isinstance(ls, OpaqueLin):
                planner.opaque(ls)
                continue
            terms = [cuda_reductions.rewrite(planner, ir.IndexSum(t.coeff * t.atom, t.sums))
                     for t in cuda_shifts.gathers(ls.terms, self.p)]
            if terms:
                planner.assign(ls.target, ls.indices, terms)
        pieces = planner.pieces
        keep = set(results) | set(keep)
        groups = self.fuse(pieces)
        # the kernels (groups) reading each buffer: a temp read only where it is computed stays in registers
        reads_by = {}
        for g, grp in enumerate(groups):
            for pc in grp:
                for name in pc.reads():
                    reads_by.setdefault(name, set()).add(g)
        steps = []
        written = []
        for g, grp in enumerate(groups):
            local_only = set()
            if grp[0].kind == "map":
                for pc in grp:
                    # a target other kernels add to (pc.single false) must reach memory
                    if pc.single and pc.target not in keep and reads_by.get(pc.target, set()) <= {g}:
                        local_only.add(pc.target)
            step = self.kernel_step(tag, len(steps), grp, local_only)
            if step is None:
                continue
            steps.append(step)
            for o in step["outputs"]:
                if o["buf"] not in written:
                    written.append(o["buf"])
        buffers = {b: list(self.classes(b)) for b in written}
        all_reads = []
        for s in steps:
            for r in s["reads"]:
                if r not in written and r not in all_reads:
                    all_reads.append(r)
        return {"args": list(args) if args is not None else None, "results": list(results), "steps": steps,
                "buffers": buffers, "reads": sorted(all_reads)}

    def centred(self, tag, planner, stmts, lins):
        """The statements and linear statements reading the centred copies of the translation-invariant inputs
        they multiply out (derive.emission.centring); a program that takes the inputs computes the copies first.
        The rrule and its pullback centre the same groups (self.centre_back): the pullback reads the copies, and
        whatever else it reads, from the rrule."""
        groups = self.centre_back if tag in ("rev", "pb") else centring.exposed_in(self.p, self.centre, stmts, lins)
        if not groups:
            return stmts, lins
        if tag != "pb":
            centring.plan_centre(planner, self.p, groups)
        stmts = [st if st.prim else dataclasses.replace(st, expr=centring.centred(st.expr, groups)) for st in stmts]
        lins = [ls if isinstance(ls, OpaqueLin) else
                type(ls)(ls.target, ls.indices, [dataclasses.replace(t, coeff=centring.centred(t.coeff, groups))
                                                 for t in ls.terms]) for ls in lins]
        return stmts, lins

    # -- fusion --------------------------------------------------------------------------------------------
    def fuse(self, pieces):
        """Consecutive elementwise pieces over the same index space share one kernel (one pass over memory)."""
        groups: list = []
        for pc in pieces:
            if pc.kind == "map" and groups and groups[-1][0].kind == "map" and self._fusable(groups[-1], pc):
                groups[-1].append(pc)
            else:
                groups.append([pc])
        return groups

    def _fusable(self, grp, pc):
        space = tuple(s.ext for s in grp[0].indices)
        if tuple(s.ext for s in pc.indices) != space:
            return False
        writers = {q.target: q for q in grp}
        if pc.target in writers:
            return False
        for t in pc.terms:
            for a in outer_accesses(t):
                w = writers.get(ir.acc_name(a))
                if w is None:
                    continue
                if not w.single or tuple(a.args) != tuple(pc.indices):
                    return False
        return True

    # -- kernels -------------------------------------------------------------------------------------------
    def kname(self, tag, n, suffix=""):
        return f"tr_{self.prefix}_{_tail(self.name)}_{tag}{n}{suffix}"

    def atoms(self, pc, local_atoms):
        if not self.linear(pc.target):
            return None
        out = []
        for name in sorted(pc.reads()):
            if not self.linear(name):
                continue
            for a in local_atoms.get(name, [name]):
                if a not in out:
                    out.append(a)
        return out

    def map_step(self, name, grp, local_only):
        k = Kernel(name, "map")
        ctx = Ctx(self, k)
        space = tuple(s.ext for s in grp[0].indices)
        evars = tuple(f"e{j}" for j in range(len(space)))
        ctx.identity = evars
        decomp = self.map_decompose(evars, space, ctx)
        body_lines = []
        outputs = []
        local_atoms = {}
        for pc in grp:
            names = dict(zip(pc.indices, evars))
            body = self.body_cls(ctx, names, "        ")
            codes = body.values(pc.terms)
            body_lines += body.lines
            var = ctx.fresh("r")
            body_lines.append(f"        const T {var} = {sum_code(codes)};")
            ctx.local[pc.target] = (var, evars)
            if pc.target in local_only:
                local_atoms[pc.target] = self.atoms(pc, local_atoms) or []
                continue
            k.outputs.append(pc.target)
            body_lines.append(f"        tr_store({cname(pc.target)}, e, {var}, mode_{cname(pc.target)});")
            outputs.append({"buf": pc.target, "atoms": self.atoms(pc, local_atoms)})
        if not outputs:
            return None
        total = product(space, ctx)
        k.lines = {"decompose": decomp, "body": body_lines}
        k.fields = {"total": total, "last": ctx.extent(space[-1]) if space else "1LL",
                    "lastvar": evars[-1] if evars else ""}
        return {"class": "map", "kernel": self.add(k), "outputs": outputs, "params": k.manifest_params(),
                "space": list(space), "reads": list(k.reads)}

    def map_decompose(self, evars, space, ctx):
        """Lines splitting the flat element index e into the index variables (a grid-stride loop over e)."""
        return decompose("e", list(evars), space, ctx, "        ")

    def gemm_step(self, pc):
        """A step of the generic tiled kernel (tr_gemm_*, in the helpers): only the strided view is described."""
        g = pc.gemm
        a, b = g["a"], g["b"]
        A, B = ir.acc_name(a), ir.acc_name(b)

        def pos(acc, s):
            return list(acc.args).index(s) if s in acc.args else None

        groups = {}
        for key, syms in (("m", g["rows"]), ("n", g["cols"]), ("k", g["red"]), ("z", g["batch"])):
            groups[key] = [[s.ext, pos(a, s), pos(b, s), pos(ir.access(pc.target, pc.indices), s)] for s in syms]
        reads = sorted({A, B} | ({g["alpha_buf"]} if g["alpha_buf"] else set()))
        return {"class": "gemm", "kernel": "tr_gemm", "outputs": [{"buf": pc.target, "atoms": self.atoms(pc, {})}],
                "a": A, "b": B, "alpha": g["alpha"], "alpha_buf": g["alpha_buf"],
                "kfast_a": a.args[-1] in g["red"], "kfast_b": b.args[-1] in g["red"], "groups": groups,
                "a_classes": list(self.classes(A)), "b_classes": list(self.classes(B)),
                "c_classes": list(self.classes(pc.target)),
                "reads": reads}


# -----------------------------------------------------------------------------------------------------------
# The module


def kernel_names(source_label: str, name, kind: str):
    """(symbol prefix, kernels file, plan file) of the `kind` ("cpu" or "cuda") kernels of module `name` -- by
    default the module the rule file `source_label` becomes: every artefact of a file is named after its module
    (runtime.artefacts), where the runtime looks for it."""
    module = name or artefacts.module_name(source_label)
    where = artefacts.paths(module)
    return _ident(module), PurePath(where[kind]).name, PurePath(where[kind + "_plan"]).name


def op_entry(op: OpPlan):
    """The manifest entry of an op's programs (shared by the CUDA and the native CPU plans)."""
    progs = op.programs()
    p, result = op.p, op.r
    entry = {
        "signature": p.signature,
        "source": p.source,
        "inputs": [{"name": v.name, "kind": v.kind, "classes": list(v.classes)} for v in p.inputs],
        "outputs": [{"name": v.name, "classes": list(v.classes)} for v in p.outputs],
        "extents": {},
        # an elementwise op takes arrays of any shape: the runtime runs it on their flat views
        "elementwise": bool(getattr(getattr(result, "code", None), "meta", {}).get("elementwise", False)),
        "programs": progs,
    }
    for v in p.inputs:
        for a, c in enumerate(v.classes):
            entry["extents"].setdefault(c, [v.name, a])
    derived, checks = cuda_shifts.extents_meta(p)
    if derived or checks:
        # extents of indices read only at shifted positions, from the input shapes (runtime.cuda)
        entry["derived_extents"], entry["extent_checks"] = derived, checks
    return entry


# A rule of more statements than this gets no kernels: its verified NumPy code runs (issue 28). The C++ of a chain of
# n elementwise statements compiles at -O3 in 2.3 s for n = 100, 12.5 s for 300 and 69 s for 1000 (at its first
# call on a machine), and at -O0 for derive-rules' check in 0.85, 4.0 and 9.3 s, growing faster than n, while
# the kernels of the chain of 100 ran no faster than its NumPy code (0.31 s against 0.24 s a call at 10⁶
# elements): past a few hundred statements the compile costs more than it can save (benchmarks/RESULTS.md).
KERNEL_STATEMENTS = 256


def plan_ops(results, kernels: KernelSet, generate_op):
    """({rule name: manifest entry}, {rule name: why it has none}): a rule whose kernels cannot be printed
    (generate_op raises NotImplementedError), or longer than KERNEL_STATEMENTS, is left out with its reason, none
    of its kernels kept."""
    ops, left_out = {}, {}
    for r in results:
        n = len(getattr(getattr(r, "program", None), "stmts", None) or ())
        if n > KERNEL_STATEMENTS:
            left_out[r.name] = (f"left to NumPy: {n} statements, more than the {KERNEL_STATEMENTS} whose kernels "
                                f"compile in seconds")
            continue
        mark = kernels.mark()
        try:
            ops[r.name] = generate_op(r, kernels)
        except NotImplementedError as exc:
            kernels.rollback(mark)
            left_out[r.name] = str(exc)
    return ops, left_out
