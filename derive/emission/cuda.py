"""CUDA code generation: each op's forward, frule, rrule and pullback become kernels plus a launch plan.

`generate_cuda(results, "rules/foo.rules")` returns {"foo.cu": kernels, "foo.json": plan}; the plan (buffers,
steps, kernel parameters) is what runtime/cuda.py interprets. The steps are planned by kernels.OpPlan (shared with
the C++ printer, cpp.py); this module prints them as CUDA kernels. Layout lives in templates/cuda_*.j2.
"""
from __future__ import annotations

import json

from derive.calculus.differential import OpaqueLin
from derive.emission import cuda_reductions
from derive.emission.kernel_plan import Body, Piece, outer_accesses, scaled_results
from derive.emission.kernels import (
    FORMAT,
    Ctx,
    Kernel,
    KernelSet,
    OpPlan,
    cname,
    decompose,
    kernel_names,
    op_entry,
    plan_ops,
    product,
    sum_code,
)
from derive.emission.templates import template_env
from derive.ir import nodes as ir
from runtime.artefacts import text_sha256

BLOCK = 256


class OpCuda(OpPlan):
    """An op's kernel steps printed as CUDA kernels (a block-per-row or warp-per-row reduction, a generic tiled
    gemm, a matrix primitive's device function)."""

    body_cls = Body

    def kernel_step(self, tag, n, grp, local_only):
        kind = grp[0].kind
        if kind == "map":
            return self.map_step(self.kname(tag, n), grp, local_only)
        pc = grp[0]
        if kind == "reduce":
            return self.reduce_step(self.kname(tag, n), pc)
        if kind == "prod_except":
            return self.prod_except_step(self.kname(tag, n), pc)
        if kind == "gemm":
            # small or skinny shapes waste a 128x128 tile: the runtime then runs the plain reduction instead
            step = self.gemm_step(pc)
            alt = Piece("reduce", pc.target, pc.indices, pc.terms, sums=pc.sums)
            step["fallback"] = self.reduce_step(self.kname(tag, n), alt, only_preferred=True)
            return step
        return self.prim_step(self.kname(tag, n), pc)


    def reduce_step(self, name, pc, only_preferred=False):
        """Both variants: `rows` (a thread per output element, reduced-index tiles staged in shared memory)
        and `warp` (a warp per output element, lanes stride over the reduced indices)."""
        outputs = [{"buf": pc.target, "atoms": self.atoms(pc, {})}]
        step = {"class": "reduce", "outputs": outputs, "rows": [s.ext for s in pc.indices],
                "red": [s.ext for s in pc.sums], "variants": {}}
        if pc.op != "sum":
            step["op"] = pc.op
        step["prefer"] = self._prefer(pc)
        for variant in ("rows", "warp"):
            if only_preferred and variant != step["prefer"]:
                continue
            k, stage = self._reduce_kernel(f"{name}_{variant}", pc, variant)
            if variant == "rows":
                step["stage"] = [list(rest) for _, _, rest in stage]
            step["variants"][variant] = {"kernel": self.add(k), "params": k.manifest_params()}
        step["reads"] = sorted({p[1] for v in step["variants"].values() for p in v["params"] if p[0] == "buf"}
                               - {pc.target})
        return step

    @staticmethod
    def _prefer(pc):
        """The variant whose consecutive threads touch consecutive addresses, by a vote of the summand's reads."""
        K, I = set(pc.sums), set(pc.indices)
        votes = 0
        for _, inner in pc.terms:
            for a in outer_accesses(inner):
                if a.args and (set(a.args) & I) and (set(a.args) & K):
                    votes += 1 if a.args[-1] in K else -1
        return "warp" if votes > 0 else "rows"

    def _reduce_kernel(self, name, pc, variant):
        """The kernel of one variant of a reduction, and the tensors its `rows` variant stages."""
        is_max = pc.op == "max"
        other = cuda_reductions.reduce_fields(pc.op)    # max, min, product: their own combine and identity
        k = Kernel(name, "reduce_" + variant)
        ctx = Ctx(self, k)
        rvars = [f"i{j}" for j in range(len(pc.indices))]
        kvars = [f"q{j}" for j in range(len(pc.sums))]
        names = dict(zip(pc.indices, rvars))
        inner_names = dict(names)
        inner_names.update(zip(pc.sums, kvars))
        lines = {"decompose_row": decompose("row", rvars, tuple(s.ext for s in pc.indices), ctx, "    "),
                 "decompose_k": decompose("kk", kvars, tuple(s.ext for s in pc.sums), ctx, "            "),
                 "stage": [], "smem": []}
        stage = self._stage_slabs(pc, ctx, kvars, lines) if variant == "rows" else []
        accs = [f"acc{j}" for j in range(len(pc.terms))]
        inner = Body(ctx, inner_names, "            ")
        codes = inner.values([i for _, i in pc.terms])
        update = "{a} = fmax({a}, {c});" if is_max else "{a} += {c};"
        if other:
            update = other["update"]
        lines["inner"] = inner.lines + ["            " + update.format(a=a, c=c) for a, c in zip(accs, codes)]
        ctx.staged = {}
        epi = Body(ctx, names, "        ")
        parts = scaled_results(epi, [o for o, _ in pc.terms], accs)
        lines["epilogue"] = epi.lines
        k.outputs.append(pc.target)
        k.lines = lines
        k.fields = {"accs": accs, "result": sum_code(parts).replace("T(-1) * ", "-"),
                    "out": cname(pc.target), "what": "maximum" if is_max else "reduction",
                    "init": "-T(INFINITY)" if is_max else "T(0)",
                    "warp": "tr_warp_max" if is_max else "tr_warp_sum",
                    "store": "tr_store_max" if is_max else "tr_store"}
        if other:
            k.fields.update({f: other[f] for f in ("what", "init", "warp", "store")})
        k.extra = ["const long long nrows", "const long long nk", "const long long chunk"]
        k.extra += ["const int tile", "const int stage"] if variant == "rows" else ["const int wpr"]
        return k, stage

    def _stage_slabs(self, pc, ctx, kvars, lines):
        """The `rows` variant's shared-memory slabs: the staged tensors' pointers and loads go into `lines`,
        their reads through ctx.staged; returns the stage plan."""
        stage = self._stage_plan(pc, ctx, kvars)
        prev = "sh"
        for bit, (buf, kpos, rest) in enumerate(stage):
            # slabs of the staged tensors (bits of `stage`) follow one another; unstaged ones take no room
            smem = f"s_{cname(buf)}"
            lines["smem"].append(f"    T* const {smem} = {prev};")
            prev = f"{smem} + ((stage & {1 << bit}) ? (long long)tile * ({product(rest, ctx)}) : 0LL)"
            ctx.staged[buf] = (bit, smem, kpos, [kvars[pc.sums.index(s)] for s in
                                                 self._kpos_syms(pc, buf, kpos)], "t")
            lines["stage"] += self._stage_load(buf, bit, smem, kpos, rest, pc, ctx, kvars)
        return stage

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
        per = product(rest, ctx)
        ind = "            "
        lines = [f"        if (stage & {1 << bit}) {{",
                 f"            const long long per = {per};",
                 f"            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {{",
                 f"{ind}    const long long kk = k0 + z / per;",
                 f"{ind}    long long p = z % per;"]
        kv = {s: f"z{j}" for j, s in enumerate(pc.sums)}
        lines += decompose("kk", [kv[s] for s in pc.sums], tuple(s.ext for s in pc.sums), ctx, ind + "    ")
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
            raise NotImplementedError(f"no CUDA device function for {what} (the `cuda` field of its declaration in primitives/matrix/)")
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



    def prod_except_step(self, name, pc):
        """A `map`-class step over the rows of T (its indices but k): each thread writes P[row, q] = Π_{j≠q} T[row, j]
        for every q, from the suffix products (first pass, stored) times the prefix products (second pass)."""
        (T,) = pc.terms
        (k,) = pc.sums
        rows = [s for s in T.args if s != k]
        rows_cls = tuple(s.ext for s in rows)
        kern = Kernel(name, "map")
        ctx = Ctx(self, kern)
        kern.outputs.append(pc.target)
        rvars = [f"e{j}" for j in range(len(rows))]
        decomp = decompose("e", rvars, rows_cls, ctx, "        ")
        names = dict(zip(rows, rvars))
        names[k] = "q"
        buf = ir.acc_name(T)
        # P has T's axes in T's order, so one offset serves both
        off = ctx.offset(buf, [names[s] for s in T.args])
        assert self.classes(pc.target) == self.classes(buf), (pc.target, buf)
        x = ctx.load(buf, "o")
        P = cname(pc.target)
        n = ctx.extent(k.ext)
        ind = "        "
        body = [f"{ind}// the product of the other factors along the reduced axis: suffix products, then times the prefix ones",
                f"{ind}T suf = T(1);",
                f"{ind}for (long long q = {n} - 1; q >= 0; --q) {{",
                f"{ind}    const long long o = {off};",
                f"{ind}    {P}[o] = suf;",
                f"{ind}    suf *= {x};",
                f"{ind}}}",
                f"{ind}T pre = T(1);",
                f"{ind}for (long long q = 0; q < {n}; ++q) {{",
                f"{ind}    const long long o = {off};",
                f"{ind}    const T v = {x};",
                f"{ind}    {P}[o] *= pre;",
                f"{ind}    pre *= v;",
                f"{ind}}}"]
        kern.lines = {"decompose": decomp, "body": body}
        kern.fields = {"total": product(rows_cls, ctx)}
        return {"class": "map", "kernel": self.add(kern), "outputs": [{"buf": pc.target, "atoms": None}],
                "params": kern.manifest_params(), "space": list(rows_cls), "reads": list(kern.reads)}


# -----------------------------------------------------------------------------------------------------------
# The module


def generate_op(result, prefix, kernels: KernelSet):
    """The manifest entry of one derived rule (its kernels go into `kernels`)."""
    return op_entry(OpCuda(result, prefix, kernels))


def generate_cuda(results, source_label, command="derive-rules", name=None, module_text=None) -> dict:
    """{"<module>.cu": kernel source, "<module>.json": launch plan} for the rules derived from source_label;
    <module> is `name`, by default the module the rule file becomes (kernels.kernel_names). The plan records the
    sha256 of the kernels and of `module_text` (the generated module they belong to): runtime.cuda runs them only
    beside exactly that module, as runtime.native does its plans.

    Deterministic: the same results give byte-identical text. A rule whose body has no CUDA spelling is left
    out and listed with its reason under "unsupported" in the plan (runtime.cuda raises for it).
    """
    prefix, cu_name, plan_name = kernel_names(source_label, name, "cuda")
    env = template_env()
    kernels = KernelSet(env)
    ops, unsupported = plan_ops(results, kernels, lambda r, ks: generate_op(r, prefix, ks))
    cu = env.get_template("cuda_module.cu.j2").render(source=source_label, command=command,
                                                      kernels=kernels.texts, ops=list(ops),
                                                      linalg="prim" in kernels.classes)
    manifest = {"format": FORMAT, "generated_from": source_label, "command": command, "cu": cu_name,
                "cu_sha256": text_sha256(cu), "module_sha256": None if module_text is None else text_sha256(module_text),
                "block": BLOCK, "ops": ops, "unsupported": unsupported}
    text = json.dumps(manifest, indent=1, sort_keys=False) + "\n"
    return {cu_name: cu, plan_name: text}

