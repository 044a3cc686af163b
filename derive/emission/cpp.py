"""Native CPU kernels: the kernel plan's steps (derive.emission.kernels, as for CUDA) printed as C++ loops with OpenMP.

`generate_cpu(results, "rules/foo.rules")` returns {"foo.cpp": kernels, "foo.json": plan} for every op the planner
can print (not those with a matrix primitive or a masked scan). The plan has the CUDA plan's format; each op's
"worth" names why its kernels beat its NumPy code -- a map-reduce whose summand is nonlinear (the Gaussian kernel
sum and its fused pullback) or an elementwise chain through exp/erf. runtime/native.py compiles the .cpp with the
system C++ compiler and runs those ops' plans on NumPy arrays; runtime.torch runs every op's plan on small CPU
tensors (runtime/torch_native.cpp), where a framework call per step costs more than the loops.

One row per parallel iteration (OpenMP threads), the reduced index in the inner loop, vectorized (`omp simd`):
index sums inside the summand (|x_i - y_j|² = Σ_d ...) are computed a tile of reduced positions at a time, their
own index in the outer loop, so the loop with the exp in it has no inner loop and vectorizes. Nothing of size
rows × reduced is ever in memory. Contractions (gemm steps) run through NumPy's BLAS in the runner; an op with a
matrix primitive (inv, solve, ...) or a product-except reduction has no native kernels.
"""
from __future__ import annotations

import json

import sympy as sp
from sympy.core.function import AppliedUndef

from derive.calculus.differential import canon_bound
from derive.emission.kernel_plan import Body, CudaPrinter, Piece, free_of, outer_accesses, scaled_results
from derive.emission.kernels import (
    FORMAT,
    Ctx,
    Kernel,
    KernelSet,
    OpPlan,
    cname,
    decompose,
    horner,
    kernel_names,
    op_entry,
    plan_ops,
    sum_code,
)
from derive.emission.templates import template_env
from derive.ir import nodes as ir
from derive.ir.nodes import IndexSum
from primitives.elementwise import ROWS as ELEMENTWISE_ROWS
from primitives.elementwise import ZERO as ELEMENTWISE_ZERO
from runtime.artefacts import text_sha256

TILE = 256                  # reduced positions per tile (the sub-sum arrays: TILE values each, on the stack)
# functions the kernels compute with selects and arithmetic only (the elementwise table's cpp_simd column, and the
# IR's index brackets): a loop through them vectorizes. Any other function is a scalar libm call, slower than
# NumPy's SIMD loops.
VECTORIZED = frozenset({r.node_name for r in ELEMENTWISE_ROWS if r.cpp_simd} | {"Iverson"})
# a summand through one of these is nonlinear: NumPy must materialize (a chunk of) rows x reduced to evaluate it
# (every built-in but the piecewise constant ones and the select)
NONLINEAR = frozenset(r.node_name for r in ELEMENTWISE_ROWS if r.dydx != ELEMENTWISE_ZERO and r.condition is None)


def cpp_spelling(row):
    """The C++ spelling of an elementwise built-in: its row's `cpp` column (primitives/elementwise.py). The one
    place the C++ kernels choose a built-in's spelling."""
    return row.cpp


class CpuPrinter(CudaPrinter):
    """CUDA's printing, with exp/erf from templates/cpu_math.h and selects as tr_select (a blend of both values,
    which g++ vectorizes without AVX-512's masks; `c ? a : b` with a constant arm becomes a branch)."""

    def spelling(self, row):
        return cpp_spelling(row)

    def select(self, cond, a, b):
        return f"tr_select<T>({cond}, {a}, {b})"

    def _print_where(self, e):
        return self.select(*(self._print(x) for x in e.args))

    def _print_Function(self, e):
        if type(e).__name__ == "where" and not isinstance(e, AppliedUndef):
            return self._print_where(e)
        return super()._print_Function(e)


class CpuBody(Body):
    def __init__(self, kernel, index_names, indent="    ", parent=None):
        super().__init__(kernel, index_names, indent, parent)
        self.printer = CpuPrinter(self)


def _functions(e):
    return {type(a).__name__ for a in sp.preorder_traversal(e)
            if isinstance(a, sp.Function) and not isinstance(a, (AppliedUndef, ir.Extent))}


class CpuCtx(Ctx):
    """A kernel's spelling of tensor elements, with some read tensors passed with one axis moved last (the axis the
    simd loop runs along): contiguous loads instead of strided gathers. runtime/native.py makes those copies."""

    def __init__(self, gen, kernel, moved=None):
        super().__init__(gen, kernel)
        self.moved = dict(moved or {})

    def offset(self, buf, codes):
        p = self.moved.get(buf)
        if p is None:
            return super().offset(buf, codes)
        classes = list(self.gen.classes(buf))
        codes = list(codes)
        classes.append(classes.pop(p))
        codes.append(codes.pop(p))
        return horner(codes, [self.extent(c) for c in classes])


class OpCpu(OpPlan):
    body_cls = CpuBody

    def __init__(self, result, prefix, kernels):
        super().__init__(result, prefix, kernels)
        self.worth: set = set()         # why this op is worth native kernels (empty: it is not)
        self.map_worth: set = set()     # ... for its elementwise chains, unless it calls a libm function
        self.slow: set = set()          # functions a map step leaves to (scalar) libm

    def _moved(self, pc):
        """Read tensors that hold the last reduced index at one fixed axis that is not their last (y[j,d] read
        along j): passed with that axis moved last."""
        last = pc.sums[-1]
        pos: dict = {}
        for _, inner in pc.terms:
            for a in outer_accesses(inner):
                buf = ir.acc_name(a)
                p = [i for i, x in enumerate(a.args) if x == last]
                pos.setdefault(buf, set()).add(p[0] if len(p) == 1 else -2)
        return {b: next(iter(ps)) for b, ps in sorted(pos.items())
                if b != pc.target and len(ps) == 1 and next(iter(ps)) >= 0
                and next(iter(ps)) != len(self.classes(b)) - 1}

    def _covered(self, pc):
        """Whether an input spans the summand's whole index space (rows and reduced): then NumPy evaluates it in
        one pass over that input (softmax, cross-entropy) and loops gain nothing; otherwise NumPy must build
        rows x reduced arrays (the kernel sum's N x M), chunk by chunk."""
        space = {s.ext for s in pc.indices} | {s.ext for s in pc.sums}
        return any(space <= set(v.classes) for v in self.p.inputs)

    def map_decompose(self, evars, space, ctx):
        # all indices but the last from the outer position o (once per chunk), the last from the simd loop's eL:
        # no division per element
        if not evars:
            return []
        return decompose("o", list(evars[:-1]), space[:-1], ctx, "    ")

    def kernel_step(self, tag, n, grp, local_only):
        step = self._kernel_step(tag, n, grp, local_only)
        for st in ([step] if step is None or step["class"] != "multi" else step["steps"]):
            if st is not None and st["class"] != "gemm":
                # the shapes of what the step reads: a zero (co)tangent is passed as zeros of its shape
                # (templates/cpu_helpers.h.j2: tr_ld), a moved tensor reshaped before its axis moves
                st["read_classes"] = {b: list(self.classes(b)) for b in st["reads"]}
                # ... and an output not wanted (a zero tangent's) gets scratch memory: tr_store has no null test
                st["write_classes"] = {o["buf"]: list(self.classes(o["buf"])) for o in st["outputs"]}
        return step

    def fuse(self, pieces):
        """The CUDA grouping, then a reduction over rows R + [l] and one over rows R, both over the same reduced
        indices, next to each other, share a kernel (the kernel sum's y and b cotangents: the exp once)."""
        groups = super().fuse(pieces)
        out = []
        for g in groups:
            prev = out[-1] if out else None
            if (prev is not None and len(prev) == 1 and len(g) == 1 and prev[0].kind == g[0].kind == "reduce"):
                pair = self._companions(prev[0], g[0]) or self._companions(g[0], prev[0])
                if pair:
                    out[-1] = list(pair)
                    continue
            out.append(g)
        return out

    @staticmethod
    def _companions(lane_pc, free_pc):
        if lane_pc.op != "sum" or free_pc.op != "sum" or len(lane_pc.indices) != len(free_pc.indices) + 1:
            return None
        if [s.ext for s in lane_pc.indices[:-1]] != [s.ext for s in free_pc.indices]:
            return None
        if [s.ext for s in lane_pc.sums] != [s.ext for s in free_pc.sums] or not lane_pc.sums:
            return None
        if lane_pc.target in free_pc.reads() or free_pc.target in lane_pc.reads() or lane_pc.target == free_pc.target:
            return None
        return lane_pc, free_pc

    def _kernel_step(self, tag, n, grp, local_only):
        kind = grp[0].kind
        if kind == "reduce" and len(grp) == 2:
            step = self.cpu_reduce_step(self.kname(tag, n), grp[0], companion=grp[1])
            if step is not None:
                return step
            # not a lane kernel after all: the two reductions one after the other
            return {"class": "multi", "steps": [self.cpu_reduce_step(self.kname(tag, n, "a"), grp[0]),
                                                self.cpu_reduce_step(self.kname(tag, n, "b"), grp[1])],
                    "outputs": [{"buf": pc.target, "atoms": self.atoms(pc, {})} for pc in grp],
                    "reads": sorted(grp[0].reads() | grp[1].reads())}
        if kind == "map":
            # an elementwise chain is worth a native kernel when it calls erf or sigmoid (NumPy evaluates them in
            # many passes) or exp twice, and calls no function the kernels would leave to libm
            calls = [type(a).__name__ for pc in grp for t in pc.terms for a in sp.preorder_traversal(t)
                     if isinstance(a, sp.Function) and not isinstance(a, (AppliedUndef, ir.Extent))]
            self.slow |= {c for c in calls if c not in VECTORIZED}
            if {"erf", "erfc", "sigmoid"} & set(calls) or calls.count("exp") >= 2:
                self.map_worth.add("elementwise chain through " + "/".join(sorted(set(calls) & VECTORIZED)))
            step = self.map_step(self.kname(tag, n), grp, local_only)
            if step is not None:
                step["kernel_class"] = "map"
            return step
        if kind == "reduce":
            return self.cpu_reduce_step(self.kname(tag, n), grp[0])
        if kind == "gemm":
            return self.gemm_step(grp[0])      # run by NumPy (BLAS) in runtime/native.py
        raise NotImplementedError(f"no native CPU kernel for a {kind} step")

    def cpu_reduce_step(self, name, pc: Piece, companion: Piece | None = None):
        """A reduction's kernel; with a companion (rows = pc's rows but the last, same reduced indices), one lane
        kernel computing both, or None when pc is no lane kernel."""
        self._note_reduce(pc)
        rows_cls = tuple(s.ext for s in pc.indices)
        red_cls = tuple(s.ext for s in pc.sums)
        k = Kernel(name, "cpu_reduce")
        moved = self._moved(pc)
        ctx = CpuCtx(self, k, moved)
        rvars = [f"i{j}" for j in range(len(pc.indices))]
        kvars = [f"q{j}" for j in range(len(pc.sums))]
        names = dict(zip(pc.indices, rvars))
        inner_names = dict(names)
        inner_names.update(zip(pc.sums, kvars))
        K = set(pc.sums)
        is_sum = pc.op == "sum"
        placeholders, exprs, free_terms = _abstract_sums(ctx, pc, companion)
        row_lines, tile_decls, tile_lines, row_syms = [], [], [], []
        subs = {}
        for sym, e in sorted(placeholders.values(), key=lambda p: int(p[0].name[1:])):
            if not (free_of(e) & K):
                body = CpuBody(ctx, names, "        ")
                body.emit_sum(sym.name, e)
                row_lines += body.lines
                row_syms.append(sym.name)
                continue
            arr = sym.name + "_t"
            tile_decls.append(f"    T {arr}[TR_TILE];")
            tile_lines += self._tile_sum(ctx, arr, e, inner_names, kvars[-1])
            subs[sym] = sp.Symbol(f"{arr}[t]", real=True)
        exprs = [e.xreplace(subs) for e in exprs]
        lane = pc.indices[-1] if is_sum and len(pc.indices) >= 2 else None
        free_exprs = [i.xreplace(subs) for _, i in free_terms]
        lanes_ok = (lane is not None and not any(lane in free_of(e) for _, e in placeholders.values()) and tile_lines
                    and not any(lane in free_of(e) for e in free_exprs)
                    and not any(lane in free_of(o) for o, _ in free_terms))
        if companion is not None and not lanes_ok:
            return None
        if lanes_ok:
            # the last row index is not in the sums the tiles hold: every row that differs only in it shares
            # them, and the summand's parts free of it (the exp of the kernel sum); a row group does its lanes
            lines = self._lanes(ctx, k, pc, exprs, names, inner_names, rvars, kvars, lane, free_exprs,
                                [o for o, _ in free_terms])
            k.lines = {"decompose_row": decompose("grp", rvars[:-1], rows_cls[:-1], ctx, "    "),
                       "decompose_outer": decompose("ko", kvars[:-1], red_cls[:-1], ctx, "        "),
                       "row": row_lines, "tile_decls": tile_decls, "tile": tile_lines, **lines}
            k.cls = "cpu_reduce_lanes"
            k.extra = ["const long long nrows", "const long long nko", "const long long nki", "const long long nlane"]
            k.fields.update({"out": cname(pc.target), "lane": rvars[-1], "kl": kvars[-1], "row_syms": row_syms,
                             "out2": cname(companion.target) if companion is not None else ""})
            return self._reduce_step(k, [pc] + ([companion] if companion is not None else []), moved,
                                     lane=lane.ext)
        return self._row_kernel(k, ctx, pc, exprs, (names, inner_names, rvars, kvars),
                                (row_lines, tile_decls, tile_lines, row_syms), moved)

    def _row_kernel(self, k, ctx, pc, exprs, scope, tiles, moved):
        """The step of a reduction kernel with one row per iteration (no lanes): the reduced indices but the last
        from an outer counter, the last in the simd loop."""
        names, inner_names, rvars, kvars = scope
        row_lines, tile_decls, tile_lines, row_syms = tiles
        rows_cls = tuple(s.ext for s in pc.indices)
        red_cls = tuple(s.ext for s in pc.sums)
        is_sum = pc.op == "sum"
        accs = [f"a{j}" for j in range(len(exprs))]
        inner = CpuBody(ctx, inner_names, "                ")
        codes = inner.values(exprs)
        # a max: NaN never taken (fmax's answer, the accumulator starting at -inf), written as the comparison
        # g++ vectorizes under `omp simd reduction(max:...)` (tr_fmax's blend, or fmax's libm call, stay scalar)
        update = "{a} += {c};" if is_sum else "{{ const T c_ = {c}; {a} = c_ > {a} ? c_ : {a}; }}"
        epi = CpuBody(ctx, names, "        ")
        parts = scaled_results(epi, [o for o, _ in pc.terms], [f"acc{j}[row - r0]" for j in range(len(pc.terms))])
        k.lines = {"decompose_row": decompose("row", rvars, rows_cls, ctx, "    "),
                   # the reduced indices but the last from the outer counter ko; the last is k0 + t
                   "decompose_outer": decompose("ko", kvars[:-1], red_cls[:-1], ctx, "        "),
                   "decompose_k": [f"                const long long {kvars[-1]} = k0 + t;"],
                   "row": row_lines, "tile_decls": tile_decls, "tile": tile_lines,
                   "inner": inner.lines + ["                " + update.format(a=a, c=c) for a, c in zip(accs, codes)],
                   "epilogue": epi.lines}
        k.fields = {"accs": accs, "result": sum_code(parts).replace("T(-1) * ", "-"), "out": cname(pc.target),
                    "init": "T(0)" if is_sum else "-T(INFINITY)",
                    "simd": f"#pragma omp simd reduction({'+' if is_sum else 'max'}:{', '.join(accs)})",
                    "store": "tr_store" if is_sum else "tr_store_max",
                    "what": "reduction" if is_sum else "maximum", "row_syms": row_syms}
        k.extra = ["const long long nrows", "const long long nko", "const long long nki"]
        k.fields["combine"] = "+" if is_sum else "max"
        return self._reduce_step(k, [pc], moved)

    def _note_reduce(self, pc):
        """Refuse a reduction the kernels do not beat NumPy at; note a nonlinear summand as why they are worth it."""
        if pc.op not in ("sum", "max"):
            raise NotImplementedError(f"no native CPU kernel for a {pc.op} reduction")
        for _, inner in pc.terms:
            if any(type(a).__name__ == "Iverson" for a in sp.preorder_traversal(inner)):
                # a masked sum (a cumulative sum, a causal mask): NumPy runs it as a scan, in O(n) not O(n²)
                raise NotImplementedError("a masked reduction (NumPy's scans are faster)")
            if _functions(inner) & NONLINEAR and not self._covered(pc):
                self.worth.add("nonlinear summand over rows x reduced")

    @staticmethod
    def _tile_sum(ctx, arr, e, inner_names, klast):
        """Lines filling arr[t] with the index sum e at the tile's reduced positions (klast = k0 + t): its own
        indices in outer loops, so the innermost loop over t has no loop in it and vectorizes."""
        lines = [f"        for (long long t = 0; t < tn; ++t) {arr}[t] = T(0);"]
        loop_names = dict(inner_names)
        depth = 0
        for s in e.indices:
            v = ctx.fresh("k")
            loop_names[s] = v
            lines.append("        " + "    " * depth
                         + f"for (long long {v} = 0; {v} < {ctx.extent(s.ext)}; ++{v}) {{")
            depth += 1
        ind = "        " + "    " * depth
        lines.append(ind + "#pragma omp simd")
        lines.append(ind + "for (long long t = 0; t < tn; ++t) {")
        lines.append(ind + f"    const long long {klast} = k0 + t;")
        body = CpuBody(ctx, loop_names, ind + "    ")
        (code,) = body.values([e.body])
        lines += body.lines
        lines.append(ind + f"    {arr}[t] += {code};")
        lines.append(ind + "}")
        for d in reversed(range(depth)):
            lines.append("        " + "    " * d + "}")
        return lines

    def _reduce_step(self, k, pieces, moved, lane=None):
        """The plan's step for reduce kernel k writing the pieces' targets (a lane kernel's companion second)."""
        pc = pieces[0]
        k.outputs += [p.target for p in pieces]
        outs = [{"buf": p.target, "atoms": self.atoms(p, {})} for p in pieces]
        step = {"class": "reduce", "outputs": outs, "rows": [s.ext for s in pc.indices],
                "red": [s.ext for s in pc.sums], "moved": moved}
        if lane is not None:
            step["lane"] = lane
        if pc.op != "sum":
            step["op"] = pc.op
        step["kernel"] = self.add(k)
        step["params"] = k.manifest_params()
        step["reads"] = sorted({p[1] for p in step["params"] if p[0] == "buf"} - {o["buf"] for o in outs})
        return step

    def _lanes(self, ctx, k, pc, exprs, names, inner_names, rvars, kvars, lane, free_exprs=(), free_outer=()):
        """Lines of a lane kernel: the summand's common subexpressions free of the lane index are computed once per
        tile position (arrays h*_t), then each lane's simd loop reads them. `free_exprs` are a companion
        reduction's summands (free of the lane): summed in the tile loop, once per group."""
        gen = (sp.Symbol(ctx.fresh("c"), real=True) for _ in iter(int, 1))
        reps, reduced_all = sp.cse(list(exprs) + list(free_exprs), symbols=gen, order="none")
        reduced, reduced_free = reduced_all[:len(exprs)], reduced_all[len(exprs):]
        hoisted, kept, lane_dep = {}, [], set()
        for sym, e in reps:
            e = e.xreplace(hoisted)
            if lane in free_of(e) or e.free_symbols & lane_dep:
                lane_dep.add(sym)
                kept.append((sym, e))
            else:
                hoisted[sym] = sp.Symbol(f"{sym.name}_t[t]", real=True)
                kept.append((sym, e, "hoist"))
        free_names = {i: v for i, v in inner_names.items() if i != lane}
        decls, hoist_lines, lane_lines = [], [], []
        hb = CpuBody(ctx, free_names, "            ")
        to_hoist = [(x[0], x[1]) for x in kept if len(x) == 3]
        fsum = [e.xreplace(hoisted) for e in reduced_free]
        faccs = [f"f{j}" for j in range(len(fsum))]
        if to_hoist or fsum:
            hcodes = hb.values([e for _, e in to_hoist] + fsum)
            hoist_lines += hb.lines
            for (sym, _), code in zip(to_hoist, hcodes):
                decls.append(f"    T {sym.name}_t[TR_TILE];")
                hoist_lines.append(f"            {sym.name}_t[t] = {code};")
            hoist_lines += [f"            {a} += {c};" for a, c in zip(faccs, hcodes[len(to_hoist):])]
        # what each lane computes: its own subexpressions, then the summands
        lane_reps = [(x[0], x[1]) for x in kept if len(x) == 2]
        final = [e.xreplace(hoisted) for e in reduced]
        lb = CpuBody(ctx, inner_names, "                ")
        codes = lb.values([e for _, e in lane_reps] + final)
        lane_lines += lb.lines
        for (sym, _), code in zip(lane_reps, codes):
            lane_lines.append(f"                const T {sym.name} = {code};")
        accs = [f"a{j}" for j in range(len(final))]
        lane_lines += [f"                {a} += {c};" for a, c in zip(accs, codes[len(lane_reps):])]
        epi = CpuBody(ctx, names, "        ")
        parts = scaled_results(epi, [o for o, _ in pc.terms], [f"acc{j}[g - g0][ln - l0]" for j in range(len(pc.terms))])
        free_names = {i: v for i, v in names.items() if i != lane}
        fepi = CpuBody(ctx, free_names, "        ")
        fparts = scaled_results(fepi, list(free_outer), [f"facc{j}[g - g0]" for j in range(len(free_outer))])
        k.fields = {"accs": accs, "result": sum_code(parts).replace("T(-1) * ", "-"),
                    "simd": f"#pragma omp simd reduction(+:{', '.join(accs)})", "what": "reduction",
                    "faccs": faccs, "result2": sum_code(fparts).replace("T(-1) * ", "-") if fsum else "",
                    "hoist_simd": f"#pragma omp simd reduction(+:{', '.join(faccs)})" if fsum else "#pragma omp simd"}
        return {"tile_decls_h": decls, "hoist": hoist_lines, "lane": lane_lines, "epilogue": epi.lines,
                "epilogue2": fepi.lines}


def _abstract_sums(ctx, pc, companion):
    """The summands (pc's, then its companion's renamed to pc's indices) with each index sum inside replaced by a
    placeholder symbol: ({key: (symbol, sum)}, pc's summands, [(companion outer, summand)]). The sums are computed
    once per row when free of the reduced indices, else a tile at a time."""
    placeholders: dict = {}

    def abstract(e):
        if isinstance(e, IndexSum):
            key = canon_bound(e)
            if key not in placeholders:
                placeholders[key] = (sp.Symbol(ctx.fresh("s"), real=True), e)
            return placeholders[key][0]
        if not e.args or ir.is_access(e):
            return e
        return e.func(*[abstract(a) for a in e.args])

    exprs = [abstract(i) for _, i in pc.terms]
    free_terms = []
    if companion is not None:
        # the companion's indices renamed to pc's: its rows are pc's but the last, its reduced ones the same
        ren = dict(zip(companion.indices, pc.indices[:-1]))
        ren.update(zip(companion.sums, pc.sums))
        free_terms = [(o.xreplace(ren), abstract(i.xreplace(ren))) for o, i in companion.terms]
    return placeholders, exprs, free_terms


def generate_op(result, prefix, kernels):
    """The manifest entry of one rule. Its "worth" lists why its native kernels beat its NumPy code; empty, the
    NumPy runtime keeps to the NumPy code and only runtime.torch runs them (where a framework call per step costs
    more than a loop over a small tensor)."""
    op = OpCpu(result, prefix, kernels)
    entry = op_entry(op)
    if not op.slow:
        op.worth |= op.map_worth
    entry["worth"] = sorted(op.worth)
    return entry


def generate_cpu(results, source_label, command="derive-rules", module_text=None, name=None) -> dict:
    """{"<module>.cpp": kernel source, "<module>.json": plan}, or {} when no rule of the file has native kernels;
    <module> is `name`, by default the module the rule file becomes (kernels.kernel_names). Deterministic, like
    generate_cuda. The plan records the sha256 of the kernels' source and of `module_text` (the generated module it
    belongs to): runtime.native.plan_for runs it only beside exactly those two files, never a stale plan left by an
    earlier generation or kernels edited or copied from elsewhere."""
    prefix, cpp_name, plan_name = kernel_names(source_label, name, "cpu")
    env = template_env()
    kernels = KernelSet(env, "cpu_kernels.cpp.j2")
    ops, skipped = plan_ops(results, kernels, lambda r, ks: generate_op(r, prefix, ks))
    if not ops:
        return {}
    src = env.get_template("cpu_module.cpp.j2").render(source=source_label, command=command,
                                                       kernels=kernels.texts, ops=list(ops), tile=TILE)
    manifest = {"format": FORMAT, "generated_from": source_label, "command": command, "cpp": cpp_name,
                "cpp_sha256": text_sha256(src), "module_sha256": None if module_text is None else text_sha256(module_text),
                "ops": ops, "numpy_only": skipped}
    return {cpp_name: src, plan_name: json.dumps(manifest, indent=1) + "\n"}
