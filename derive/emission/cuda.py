"""CUDA code generation: each op's forward, frule, rrule and pullback become kernels plus a launch plan.

`generate_cuda(results, "rules/foo.rules")` returns {"foo.cu": kernels, "foo.json": plan}; the plan (buffers,
steps, kernel parameters) is what runtime/cuda.py interprets. Layout lives in templates/cuda_*.j2.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import sympy as sp

from derive.calculus.differential import COT, GIVEN, TAN, OpaqueLin, base_name, lin_atoms, lin_reads
from derive.emission import cuda_reductions, cuda_shifts
from derive.emission.kernel_plan import Body, Piece, Planner, outer_accesses
from derive.emission.templates import template_env
from derive.ir import nodes as ir
from derive.lowering import reductions

FORMAT = 1
BLOCK = 256
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
        return _horner(codes, [self.extent(c) for c in classes])

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
                soff = _horner([tvar] + [c for _, c in rest], [None] + [self.extent(classes[p]) for p, _ in rest])
                return f"((stage & {1 << bit}) ? {smem}[{soff}] : {self.load(buf, self.offset(buf, codes))})"
        return self.load(buf, self.offset(buf, codes))


def _horner(codes, extents):
    """C-order offset of index values `codes` in axes of sizes `extents` (the first extent is not needed)."""
    out = codes[0]
    for n, x in zip(extents[1:], codes[1:]):
        out = f"{out if '+' not in out else '(' + out + ')'} * {n} + {x}"
    return out


def _decompose(flat, vars_, classes, ctx, indent):
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


def _product(classes, ctx):
    return " * ".join(ctx.extent(c) for c in classes) or "1LL"


def _sum_code(codes):
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


class OpCuda:
    body_cls = Body        # how kernel bodies are printed (derive.emission.cpp prints them for the CPU)

    def __init__(self, result, prefix, kernels: KernelSet):
        self.r = result
        self.kernel_set = kernels
        self.d = result.derivation
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
        pull = self.program("pb", aux_needed, list(d.pullback), None, pull_results)
        saves = sorted(n for n in pull["reads"] if not self.linear(n))
        pull["args"] = saves + cot_in
        progs["rrule"] = self.program("rev", [st for st in self.needed_stmts(set(outs) | (pb_reads - aux))
                                              if st.target not in aux], [], ins, outs, keep=saves)
        missing = [n for n in saves if n not in progs["rrule"]["buffers"] and n not in ins]
        if missing:
            raise AssertionError(f"{self.name}: pullback needs {missing} which the forward pass does not keep")
        progs["rrule"]["saves"] = saves
        progs["pullback"] = pull
        return progs

    def program(self, tag, stmts, lins, args, results, keep=()):
        planner = Planner(self.linear)
        self.planner_temps, self.linear_temps = planner.temps, planner.linear_temps
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

    def kernel_step(self, tag, n, grp, local_only):
        kind = grp[0].kind
        if kind == "map":
            return self.map_step(self.kname(tag, n), grp, local_only)
        pc = grp[0]
        if kind == "reduce":
            return self.reduce_step(self.kname(tag, n), pc)
        if kind == "prod_except":
            return cuda_reductions.prod_except_step(self, self.kname(tag, n), pc)
        if kind == "gemm":
            # small or skinny shapes waste a 128x128 tile: the runtime then runs the plain reduction instead
            step = self.gemm_step(pc)
            alt = Piece("reduce", pc.target, pc.indices, pc.terms, sums=pc.sums)
            step["fallback"] = self.reduce_step(self.kname(tag, n), alt, only_preferred=True)
            return step
        return self.prim_step(self.kname(tag, n), pc)

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
            body_lines.append(f"        const T {var} = {_sum_code(codes)};")
            ctx.local[pc.target] = (var, evars)
            if pc.target in local_only:
                local_atoms[pc.target] = self.atoms(pc, local_atoms) or []
                continue
            k.outputs.append(pc.target)
            body_lines.append(f"        tr_store({cname(pc.target)}, e, {var}, mode_{cname(pc.target)});")
            outputs.append({"buf": pc.target, "atoms": self.atoms(pc, local_atoms)})
        if not outputs:
            return None
        total = _product(space, ctx)
        k.lines = {"decompose": decomp, "body": body_lines}
        k.fields = {"total": total, "last": ctx.extent(space[-1]) if space else "1LL",
                    "lastvar": evars[-1] if evars else ""}
        return {"class": "map", "kernel": self.add(k), "outputs": outputs, "params": k.manifest_params(),
                "space": list(space), "reads": list(k.reads)}

    def map_decompose(self, evars, space, ctx):
        """Lines splitting the flat element index e into the index variables (a grid-stride loop over e)."""
        return _decompose("e", list(evars), space, ctx, "        ")

    def reduce_step(self, name, pc, only_preferred=False):
        """Both variants: `rows` (a thread per output element, reduced-index tiles staged in shared memory)
        and `warp` (a warp per output element, lanes stride over the reduced indices)."""
        rows_cls = tuple(s.ext for s in pc.indices)
        red_cls = tuple(s.ext for s in pc.sums)
        outputs = [{"buf": pc.target, "atoms": self.atoms(pc, {})}]
        step = {"class": "reduce", "outputs": outputs, "rows": list(rows_cls), "red": list(red_cls), "variants": {}}
        is_max = pc.op == "max"
        if pc.op != "sum":
            step["op"] = pc.op
        other = cuda_reductions.reduce_fields(pc.op)    # max, min, product: their own combine and identity
        # votes for the variant whose consecutive threads touch consecutive addresses
        K, I = set(pc.sums), set(pc.indices)
        votes = 0
        for _, inner in pc.terms:
            for a in outer_accesses(inner):
                if a.args and (set(a.args) & I) and (set(a.args) & K):
                    votes += 1 if a.args[-1] in K else -1
        step["prefer"] = "warp" if votes > 0 else "rows"
        for variant in ("rows", "warp"):
            if only_preferred and variant != step["prefer"]:
                continue
            k = Kernel(f"{name}_{variant}", "reduce_" + variant)
            ctx = Ctx(self, k)
            rvars = [f"i{j}" for j in range(len(pc.indices))]
            kvars = [f"q{j}" for j in range(len(pc.sums))]
            names = dict(zip(pc.indices, rvars))
            inner_names = dict(names)
            inner_names.update(zip(pc.sums, kvars))
            lines = {"decompose_row": _decompose("row", rvars, rows_cls, ctx, "    "),
                     "decompose_k": _decompose("kk", kvars, red_cls, ctx, "            "),
                     "stage": [], "smem": []}
            stage = []
            if variant == "rows":
                stage = self._stage_plan(pc, ctx, kvars)
                prev = "sh"
                for bit, (buf, kpos, rest) in enumerate(stage):
                    # slabs of the staged tensors (bits of `stage`) follow one another; unstaged ones take no room
                    smem = f"s_{cname(buf)}"
                    lines["smem"].append(f"    T* const {smem} = {prev};")
                    prev = f"{smem} + ((stage & {1 << bit}) ? (long long)tile * ({_product(rest, ctx)}) : 0LL)"
                    ctx.staged[buf] = (bit, smem, kpos, [kvars[pc.sums.index(s)] for s in
                                                         self._kpos_syms(pc, buf, kpos)], "t")
                    lines["stage"] += self._stage_load(buf, bit, smem, kpos, rest, pc, ctx, kvars)
            accs = [f"acc{j}" for j in range(len(pc.terms))]
            inner = Body(ctx, inner_names, "            ")
            codes = inner.values([i for _, i in pc.terms])
            update = "{a} = fmax({a}, {c});" if is_max else "{a} += {c};"
            if other:
                update = other["update"]
            lines["inner"] = inner.lines + ["            " + update.format(a=a, c=c) for a, c in zip(accs, codes)]
            ctx.staged = {}
            epi = Body(ctx, names, "        ")
            ocodes = epi.values([o for o, _ in pc.terms])
            parts = [a if o == "T(1)" else f"{o} * {a}" for o, a in zip(ocodes, accs)]
            lines["epilogue"] = epi.lines
            k.outputs.append(pc.target)
            k.lines = lines
            k.fields = {"accs": accs, "result": _sum_code(parts).replace("T(-1) * ", "-"),
                        "out": cname(pc.target), "what": "maximum" if is_max else "reduction",
                        "init": "-T(INFINITY)" if is_max else "T(0)",
                        "warp": "tr_warp_max" if is_max else "tr_warp_sum",
                        "store": "tr_store_max" if is_max else "tr_store"}
            if other:
                k.fields.update({f: other[f] for f in ("what", "init", "warp", "store")})
            if variant == "rows":
                k.extra = ["const long long nrows", "const long long nk", "const long long chunk",
                           "const int tile", "const int stage"]
                step["stage"] = [list(rest) for _, _, rest in stage]
            else:
                k.extra = ["const long long nrows", "const long long nk", "const long long chunk", "const int wpr"]
            step["variants"][variant] = {"kernel": self.add(k), "params": k.manifest_params()}
        step["reads"] = sorted({p[1] for v in step["variants"].values() for p in v["params"] if p[0] == "buf"}
                               - {pc.target})
        return step

    def _kpos_syms(self, pc, buf, kpos):
        for _, inner in pc.terms:
            for a in outer_accesses(inner):
                if ir.acc_name(a) == buf:
                    return [a.args[p] for p in kpos]
        raise AssertionError

    def _stage_plan(self, pc, ctx, kvars):
        """Tensors read at reduced indices only (plus other small axes): (buffer, K positions, other classes)."""
        K = set(pc.sums)
        seen: dict = {}
        bad = set()
        for _, inner in pc.terms:
            for a in outer_accesses(inner):
                buf = ir.acc_name(a)
                kpos = tuple(p for p, s in enumerate(a.args) if s in K)
                ks = tuple(a.args[p] for p in kpos)
                rest_ok = all(s not in K for p, s in enumerate(a.args) if p not in kpos)
                if not kpos or not rest_ok or len(set(ks)) != len(ks) or (buf in seen and seen[buf] != (kpos, ks)):
                    bad.add(buf)
                    continue
                seen[buf] = (kpos, ks)
        plan = []
        for buf in sorted(seen):
            if buf in bad:
                continue
            kpos, ks = seen[buf]
            classes = self.classes(buf)
            # the slab is laid out t-major over the flattened K of this statement, so K must be covered
            if set(ks) != K:
                continue
            rest = tuple(c for p, c in enumerate(classes) if p not in kpos)
            plan.append((buf, kpos, rest))
        return plan

    def _stage_load(self, buf, bit, smem, kpos, rest, pc, ctx, kvars):
        classes = self.classes(buf)
        ks = self._kpos_syms(pc, buf, kpos)
        per = _product(rest, ctx)
        ind = "            "
        lines = [f"        if (stage & {1 << bit}) {{",
                 f"            const long long per = {per};",
                 f"            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {{",
                 f"{ind}    const long long kk = k0 + z / per;",
                 f"{ind}    long long p = z % per;"]
        kv = {s: f"z{j}" for j, s in enumerate(pc.sums)}
        lines += _decompose("kk", [kv[s] for s in pc.sums], tuple(s.ext for s in pc.sums), ctx, ind + "    ")
        codes = [None] * len(classes)
        for p, s in zip(kpos, ks):
            codes[p] = kv[s]
        rpos = [p for p in range(len(classes)) if p not in kpos]
        for j in range(len(rpos) - 1, -1, -1):
            p = rpos[j]
            v = f"w{p}"
            if j == 0:
                lines.append(f"{ind}    const long long {v} = p;")
            else:
                lines.append(f"{ind}    const long long {v} = p % {ctx.extent(classes[p])}; p /= {ctx.extent(classes[p])};")
            codes[p] = v
        saved, ctx.identity = ctx.identity, ()
        lines.append(f"{ind}    {smem}[z] = {ctx.load(buf, ctx.offset(buf, codes))};")
        ctx.identity = saved
        lines += ["            }", "        }"]
        return lines

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

    def prim_step(self, name, pc):
        """A step of the generic matrix-primitive kernel: one block per batch element loads its operands into
        contiguous workspace, calls the declaration's device function (primitives/matrix/<name>.py, `Cuda`;
        templates/cuda_linalg.cuh.j2) f(inputs..., output, ws, n[, r]), and stores the output."""
        st = pc.stmt
        if isinstance(st, OpaqueLin):
            p = ir.ALL_PRIMITIVES[st.prim]
            fn, ws = p.cuda.map(st.mode, st.argnum) if p.cuda else ("", None)
            inputs, X, atoms = list(st.saved) + [st.arg], st.of[0], [st.arg]
        else:
            p = ir.ALL_PRIMITIVES[st.prim]
            fn = p.cuda.forward if p.cuda else ""
            ws = p.cuda.ws if fn else None
            inputs, X, atoms = list(st.args), st.args[0], None
        if not fn:
            what = st.prim if not isinstance(st, OpaqueLin) else f"{st.prim}'s {st.mode}"
            raise NotImplementedError(f"no CUDA device function for {what} (runtime/primitives/{st.prim}.py)")
        k = Kernel(name, "prim")
        ctx = Ctx(self, k)
        xcl = self.classes(X)
        nb = len(xcl) - 2
        batch, n = tuple(xcl[:nb]), ctx.extent(xcl[nb])
        rhs = None
        if "rhs" in p.arg_kinds and not isinstance(st, OpaqueLin):
            for a, kind in zip(inputs, p.arg_kinds):
                bcl = self.classes(a)
                if kind == "rhs" and len(bcl) == 2 + nb:
                    rhs = bcl[-1]
        elif "rhs" in p.arg_kinds and len(self.classes(st.of[-1])) == 2 + nb:
            rhs = self.classes(st.of[-1])[-1]      # a map of a solve: the columns of its result

        def operand(buf):
            cl = self.classes(buf)
            assert tuple(cl[:nb]) == batch, (buf, cl, batch)
            elem = list(cl[nb:])
            size = " * ".join(f"(long long){ctx.extent(c)}" for c in elem) or "1LL"
            return {"buf": buf, "size": size, "classes": elem}

        ins = [dict(operand(b), ptr=ctx.read(b)) for b in inputs]
        k.outputs.append(st.target)
        out = dict(operand(st.target), ptr=cname(st.target))
        a, bb, c, d = ws
        k.fields = {"fn": fn, "prim": st.prim, "n": n,
                    "R": ctx.extent(rhs) if rhs else "1LL", "pass_r": "rhs" in p.arg_kinds,
                    "inputs": ins, "output": out,
                    "ws": f"{a}LL * n * n + {bb}LL * n * R + {c}LL * n + {d}LL"}
        k.extra = ["T* __restrict__ ws"]
        return {"class": "prim", "kernel": self.add(k), "fn": fn, "outputs": [{"buf": st.target, "atoms": atoms}],
                "params": k.manifest_params(), "n": xcl[nb], "batch": list(batch), "rhs": rhs,
                "operands": [o["classes"] for o in ins + [out]], "ws": list(ws), "reads": list(k.reads)}


# -----------------------------------------------------------------------------------------------------------
# The module


def stem_of(source_label: str) -> str:
    return _ident(Path(source_label).stem)


def generate_op(result, prefix, kernels: KernelSet):
    """The manifest entry of one derived rule (its kernels go into `kernels`)."""
    return op_entry(OpCuda(result, prefix, kernels))


def op_entry(op: OpCuda):
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


def generate_cuda(results, source_label, command="derive-rules") -> dict:
    """{"<stem>.cu": kernel source, "<stem>.json": launch plan} for the rules derived from source_label.

    Deterministic: the same results give byte-identical text. A rule whose body has no CUDA spelling is left
    out and listed with its reason under "unsupported" in the plan (runtime.cuda raises for it).
    """
    stem = stem_of(source_label)
    env = template_env()
    kernels = KernelSet(env)
    ops, unsupported = {}, {}
    for r in results:
        mark = len(kernels.texts), dict(kernels._by_text)
        try:
            ops[r.name] = generate_op(r, stem, kernels)
        except NotImplementedError as exc:
            del kernels.texts[mark[0]:]
            del kernels.classes[mark[0]:]
            kernels._by_text = mark[1]
            unsupported[r.name] = str(exc)
    cu = env.get_template("cuda_module.cu.j2").render(source=source_label, command=command,
                                                      kernels=kernels.texts, ops=list(ops),
                                                      linalg="prim" in kernels.classes)
    manifest = {"format": FORMAT, "generated_from": source_label, "command": command, "cu": f"{stem}.cu",
                "block": BLOCK, "ops": ops, "unsupported": unsupported}
    text = json.dumps(manifest, indent=1, sort_keys=False) + "\n"
    return {f"{stem}.cu": cu, f"{stem}.json": text}
