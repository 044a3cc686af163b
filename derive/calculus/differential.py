"""Linearization and transposition: the pushforward of a Program, then its pullback as the transpose.

A linear expression is a list of Terms, each `Σ_sums coeff · t[J]` with exactly one tangent (or cotangent)
factor t. Transposing a term renames t's indices to the cotangent's and sums over everything else;
Kronecker deltas contract away. Matrix primitives contribute their differential, written once below.
"""
from __future__ import annotations

import collections
import functools
import itertools
from dataclasses import dataclass, field

import sympy as sp

from derive.ir import nodes as ir
from derive.ir.nodes import Extent, Idx, IndexSum, KroneckerDelta, Program, Stmt, TensorVar
from derive.language import domains
from derive.lowering import reductions

TAN, COT, GIVEN = "d:", "b:", "g:"


def tan(name):
    return TAN + name


def cot(name):
    return COT + name


def base_name(n):
    return n.split(":", 1)[1] if ":" in n else n


def is_linear_atom(e, prefixes=(TAN, COT, GIVEN)):
    return ir.is_access(e) and ir.acc_name(e).startswith(prefixes)


_counter = itertools.count()


def reset_counters():
    """Fresh names start again from 0: every rule's derivation names the same whatever was derived before it."""
    global _counter
    _counter = itertools.count()


def fresh_like(s, hint=None):
    return Idx(f"{hint or s.name.rstrip('0123456789')}{next(_counter)}", s.ext)


@dataclass(frozen=True)
class Term:
    coeff: sp.Expr
    sums: tuple
    atom: sp.Expr            # the tangent / cotangent access

    def free(self):
        return ir.free_indices(sp.Mul(self.coeff, self.atom), _index_atoms(self))


def _index_atoms(t):
    return set(t.coeff.atoms(Idx)) | set(t.atom.atoms(Idx)) | set(t.sums)


@dataclass
class LinStmt:
    """`target[indices] = Σ terms`: one statement of a pushforward or pullback program."""

    target: str
    indices: tuple
    terms: list


@dataclass
class Derivation:
    program: Program
    aux: list = field(default_factory=list)             # primal statements needed only by derivatives
    pushforward: list = field(default_factory=list)     # LinStmts, forward order
    pullback: list = field(default_factory=list)        # LinStmts, reverse order, ending with inputs' cotangents
    tangent_temps: list = field(default_factory=list)   # names of tangent-only temporaries (e.g. solve's z)


# -----------------------------------------------------------------------------------------------------------
# Linearization of scalar expressions


def _dummies(n):
    return [sp.Symbol(f"_u{k}", real=True) for k in range(n)]


_partials_cache: dict = {}


def partial(fn_expr, k):
    """∂f/∂(k-th argument), evaluated at f's arguments (SymPy differentiates the scalar body)."""
    f = fn_expr.func
    args = fn_expr.args
    key = (f, len(args), k)
    if key not in _partials_cache:
        us = _dummies(len(args))
        _partials_cache[key] = (us, sp.diff(f(*us), us[k]))
    us, d = _partials_cache[key]
    return d.xreplace(dict(zip(us, args)))


def linearize(e, active: set):
    """The differential of e: linear in `d:X` accesses for every tensor X in `active`."""
    if ir.is_access(e):
        n = ir.acc_name(e)
        return ir.access(tan(n), e.args) if n in active else sp.S.Zero
    if not e.free_symbols and not ir.accesses(e):
        return sp.S.Zero
    if isinstance(e, (sp.Symbol, sp.KroneckerDelta, Extent)) or e.is_Relational:
        return sp.S.Zero
    if not any(ir.acc_name(a) in active for a in ir.accesses(e)):
        return sp.S.Zero
    if isinstance(e, sp.Add):
        return sp.Add(*[linearize(a, active) for a in e.args])
    if isinstance(e, sp.Mul):
        out = []
        for k, a in enumerate(e.args):
            da = linearize(a, active)
            if da != 0:
                out.append(sp.Mul(*(e.args[:k] + e.args[k + 1:])) * da)
        return sp.Add(*out)
    if isinstance(e, IndexSum):
        return IndexSum(linearize(e.body, active), e.indices)
    if isinstance(e, sp.Pow):
        b, x = e.args
        db = linearize(b, active)
        dx = linearize(x, active)
        out = sp.S.Zero
        if db != 0:
            if x.is_number:
                out += x * b ** (x - 1) * db
            else:
                # x·b^(x-1) at x = 0 is 0·b⁻¹, NaN where b = 0: there the exponent is 0 instead, as the factor
                # x makes the term 0 anyway (autograd's x ** where(y, y - 1, 1)); power(x, 0) at x = 0
                out += x * b ** ir.where(sp.Ne(x, 0), x - 1, 0) * db
        if dx != 0:
            out += e * sp.log(b) * dx
        return out
    if isinstance(e, sp.Function):
        out = []
        for k, a in enumerate(e.args):
            if getattr(a, "is_Relational", False):
                continue
            da = linearize(a, active)
            if da != 0:
                out.append(partial(e, k) * da)
        return sp.Add(*out)
    raise NotImplementedError(f"cannot linearize {type(e).__name__}: {e}")


# -----------------------------------------------------------------------------------------------------------
# Linear expressions as terms


def to_terms(e) -> list:
    """Split a linear expression into Terms (one linear atom each), lifting sums outward."""
    if e == 0:
        return []
    if is_linear_atom(e):
        return [Term(sp.S.One, (), e)]
    if isinstance(e, sp.Add):
        return [t for a in e.args for t in to_terms(a)]
    if isinstance(e, sp.Mul):
        lin = [a for a in e.args if _has_linear(a)]
        rest = sp.Mul(*[a for a in e.args if not _has_linear(a)])
        if len(lin) != 1:
            raise AssertionError(f"not linear: {e}")
        return [Term(rest * t.coeff, t.sums, t.atom) for t in to_terms(lin[0])]
    if isinstance(e, IndexSum):
        ren = {s: fresh_like(s) for s in e.indices}
        out = []
        for t in to_terms(e.body.xreplace(ren)):
            out.append(Term(t.coeff, t.sums + tuple(ren.values()), t.atom))
        return out
    raise AssertionError(f"not linear: {e}")


def _has_linear(e):
    return any(is_linear_atom(a) for a in ir.accesses(e))


def factors(c):
    return list(c.args) if isinstance(c, sp.Mul) else [c]


def contract_deltas(t: Term) -> Term:
    sums = list(t.sums)
    coeff, atom = t.coeff, t.atom
    changed = True
    while changed:
        changed = False
        for f in factors(coeff):
            if isinstance(f, sp.KroneckerDelta):
                a, b = f.args
                if a == b:
                    coeff = coeff.xreplace({f: sp.S.One})
                    changed = True
                    break
                if isinstance(a, Idx) and isinstance(b, Idx) and a.ext != b.ext:
                    continue        # a read at a shifted range (derive.lowering.shifts): a placement, not a renaming
                for x, y in ((a, b), (b, a)):
                    if x in sums:
                        coeff = (coeff / f)
                        coeff = coeff.xreplace({x: y})
                        atom = atom.xreplace({x: y})
                        sums.remove(x)
                        changed = True
                        break
                if changed:
                    break
    # a summed index the summand does not mention multiplies by its extent
    present = set(coeff.atoms(Idx)) | set(atom.atoms(Idx)) if sums else set()
    for s in list(sums):
        if s not in present:
            sums.remove(s)
            coeff = coeff * Extent(s)
    return Term(coeff, tuple(sums), atom)


def split_sums(t: Term) -> list:
    """Distribute a coefficient factor that is a sum when that keeps intermediates smaller or exposes deltas."""
    out = [t]
    fs = factors(t.coeff)
    for k, f in enumerate(fs):
        if not isinstance(f, sp.Add):
            continue
        pieces = f.args
        idx = [set(p.atoms(Idx)) for p in pieces]
        union = set().union(*idx)
        has_delta = any(p.has(sp.KroneckerDelta) for p in pieces)
        if has_delta or (len(union) > 1 and all(s < union for s in idx) and not spread_difference(pieces)):
            rest = sp.Mul(*(fs[:k] + fs[k + 1:]))
            out = []
            for p in pieces:
                out.extend(split_sums(Term(rest * p, t.sums, t.atom)))
            return out
    return out


def spread_difference(pieces) -> bool:
    """The pieces are plain reads, each times a number, that do not all agree in sign, x[i,d] - y[j,d]: such a
    difference stays one factor. Distributed, Σ_j K[i,j]·(x[i,d] - y[j,d]) becomes x[i,d]·Σ_j K[i,j] -
    Σ_j K[i,j]·y[j,d], two terms as large as |x| whose difference is as small as |x - y|: two clusters far
    from the origin lose |x|·eps there (the Gaussian kernel sum's x-cotangent, 30 % in float32 at 1e6), where
    the forward, which reads x - y, is exact. Kept, the emitters read x[i,d] - y[j,d] per pair, as KeOps does
    (and the NumPy code reads the inputs as passed there, not their centred copies: centring.reading_given)."""
    signs = set()
    for p in pieces:
        n, rest = p.as_coeff_Mul()
        if not (ir.is_access(rest) and n.is_Rational):
            return False
        signs.add(n > 0)
    return len(signs) == 2


def _num_and_rest(c):
    n, rest = c.as_coeff_Mul()
    return n, rest


def canonical(t: Term) -> Term:
    """Rename summed indices canonically so equal terms compare equal."""
    sums = list(t.sums)
    if not sums:
        return t
    best = None
    perms = itertools.permutations(range(len(sums))) if len(sums) <= 4 else [range(len(sums))]
    for perm in perms:
        ren = {sums[p]: Idx(f"_s{k}", sums[p].ext) for k, p in enumerate(perm)}
        c, a = t.coeff.xreplace(ren), t.atom.xreplace(ren)
        key = (str(a), str(c))
        if best is None or key < best[0]:
            best = (key, c, a, tuple(ren[s] for s in sums))
    _, c, a, new_sums = best
    return Term(c, tuple(sorted(new_sums, key=lambda s: s.name)), a)


def _zero_off(f):
    """(condition, value) for a factor that is exactly 0 on a whole region and `value` where `condition`
    holds: step(u) is 1 where u > 0; where(c, a, 0) is a where c; where(c, 0, b) is b where c fails."""
    if isinstance(f, ir.step):
        return sp.StrictGreaterThan(f.args[0], 0), sp.S.One, True
    if isinstance(f, ir.where):
        c, a, b = f.args
        if b == 0:
            return c, a, True
        if a == 0:
            return c, b, False
    return None


def _may_blow_up(e) -> bool:
    """e may be infinite or NaN somewhere: it divides by, takes a root or a log of, a tensor value."""
    for p in e.atoms(sp.Pow):
        if ir.accesses(p.base) and not (p.exp.is_integer and p.exp.is_nonnegative):
            return True
    return any(ir.accesses(f) for f in e.atoms(sp.log, sp.tan, sp.asin, sp.acos, sp.atanh, sp.acosh))


def guard_zero_regions(e):
    """Move the other factors of a product into the branch of a factor that is exactly zero on a region:
    step(u)·r -> where(u > 0, r, 0). On that region the product's true value is 0 (the function is locally
    constant there), while r may be infinite, and 0·∞ is NaN: d sqrt(relu(u)) = step(u)/(2·sqrt(relu(u)))
    is 0/0 for every u < 0. NumPy's where evaluates the other branch but never lets it through.
    Applied to every product inside e, innermost first."""
    if not e.args or ir.is_access(e) or not e.has(ir.step, ir.where):
        return e
    e = e.func(*[guard_zero_regions(a) for a in e.args])
    if not isinstance(e, sp.Mul):
        return e
    fs = list(e.args)
    for k, f in enumerate(fs):
        z = _zero_off(f)
        if z is None:
            continue
        rest = sp.Mul(*(fs[:k] + fs[k + 1:]))
        if not _may_blow_up(rest):
            continue
        cond, val, on_true = z
        inner = guard_zero_regions(val * rest)
        return ir.where(cond, inner, sp.S.Zero) if on_true else ir.where(cond, sp.S.Zero, inner)
    return e


@functools.lru_cache(maxsize=8192)
def factor_terms(e):
    """sympy.factor_terms(e), made once per expression: simplifying a long program's terms asks it again and again
    for the same coefficients (a chain of 1000 statements: 9334 calls, 1501 distinct expressions)."""
    return sp.factor_terms(e)


def simplify_terms(terms, reserved=()) -> list:
    out = []
    terms = [Term(guard_zero_regions(t.coeff), t.sums, t.atom) for t in terms]
    for t in terms:
        for u in split_sums(contract_deltas(t)):
            u = contract_deltas(u)
            out.append(canonical(Term(canon_bound(u.coeff), u.sums, u.atom)))
    out = drop_cancelling(out)
    # combine terms equal up to a numeric factor
    groups: dict = {}
    order = []
    for t in out:
        n, rest = _num_and_rest(factor_terms(t.coeff))
        key = (t.atom, t.sums, rest)
        if key not in groups:
            groups[key] = sp.S.Zero
            order.append(key)
        groups[key] += n
    res = []
    for key in order:
        n = groups[key]
        if n == 0:
            continue
        atom, sums, rest = key
        res.append(Term(factor_terms(n * rest), sums, atom))
    return _rename_sums(merge_terms(res), reserved)


def drop_cancelling(terms):
    """terms less those on one atom whose coefficients, each summed over the indices its atom does not read,
    add up to exactly 0: log-sum-exp's shift m contributes dm·(1 - Σ_k e_k/Σ_k′ e_k′) = 0 (issue 25)."""
    moved = [_summed_out(t) for t in terms]
    groups: dict = {}
    for n, (t, m) in enumerate(zip(terms, moved)):
        groups.setdefault((m.atom, m.sums), []).append(n)
    drop = set()
    for ns in groups.values():
        if len(ns) > 1 and any(moved[n] is not terms[n] for n in ns) and sp.Add(*[moved[n].coeff for n in ns]) == 0:
            drop.update(ns)
    return [t for n, t in enumerate(terms) if n not in drop] if drop else terms


def _summed_out(t):
    """t with its sums over indices its atom does not read moved into its coefficient (the factors free of them
    outside the sum); t itself where there are none."""
    own = t.atom.atoms(Idx)
    out_s = [s for s in t.sums if s not in own]
    if not out_s:
        return t
    inner = [f for f in sp.Mul.make_args(t.coeff) if set(out_s) & f.free_symbols]
    outer = [f for f in sp.Mul.make_args(t.coeff) if not set(out_s) & f.free_symbols]
    coeff = canon_bound(sp.Mul(*outer) * IndexSum(sp.Mul(*inner), out_s))
    return Term(coeff, tuple(s for s in t.sums if s in own), t.atom)


def merge_terms(terms):
    """Join terms on the same atom and sums into one when the joint coefficient is simpler
    (x·A + x·Aᵀ -> (A + Aᵀ)·x; where(c,1,0) + where(c,0,1)/10 -> where(c, 1, 1/10)), unless
    that would rebuild a sum split_sums took apart to keep intermediates small."""
    out: list = []
    same: dict = {}     # (atom, sums) -> positions in out of the terms a new term may join
    sizes = collections.Counter((t.atom, t.sums) for t in terms)
    for t in terms:
        where = same.setdefault((t.atom, t.sums), [])
        # each try costs a factorization and a term tries every earlier one: a group of more than MERGE_LIMIT
        # terms (a long sum, sin(x) + sin(2x) + ...) is left as it is, so its cost stays linear
        for k in (where if sizes[t.atom, t.sums] <= MERGE_LIMIT else ()):
            u = out[k]
            joint = _collapse_where(factor_terms(u.coeff + t.coeff))
            if len(split_sums(Term(joint, t.sums, t.atom))) > 1:
                continue
            if sp.count_ops(joint) < sp.count_ops(u.coeff) + sp.count_ops(t.coeff) + 1:
                out[k] = Term(joint, t.sums, t.atom)
                break
        else:
            where.append(len(out))
            out.append(t)
    return [t for t in out if t.coeff != 0]


MERGE_LIMIT = 16


def _collapse_where(c):
    """Σ w·where(cond, a, b) over one condition -> where(cond, Σ w·a, Σ w·b)."""
    c = sp.expand(c, deep=False)
    if not isinstance(c, sp.Add):
        return c
    conds = {}
    rest = []
    for a in c.args:
        ws = [f for f in factors(a) if isinstance(f, ir.where)]
        if len(ws) == 1:
            w = ws[0]
            others = sp.Mul(*[f for f in factors(a) if f is not w])
            conds.setdefault(w.args[0], []).append((others, w.args[1], w.args[2]))
        else:
            rest.append(a)
    if not conds:
        return factor_terms(c)
    out = sp.Add(*rest)
    for cond, items in conds.items():
        out += ir.where(cond, sp.Add(*[o * a for o, a, _ in items]), sp.Add(*[o * b for o, _, b in items]))
    return factor_terms(out)


def _rename_sums(terms, reserved=()):
    """Give summed indices short readable names that clash with nothing free in the term nor with the
    statement's own indices (`reserved`): a sum never shares a name with an index of its statement."""
    out = []
    for t in terms:
        if not t.sums:      # nothing to name: the walks below would find the names only to rename nothing
            out.append(Term(t.coeff, (), t.atom))
            continue
        taken = {s.name for s in (set(t.coeff.atoms(Idx)) | set(t.atom.atoms(Idx))) if s not in t.sums}
        taken |= {s.name for s in reserved}
        for acc in ir.accesses(t.coeff * t.atom):     # nor with a tensor's name: Σ_k k[k,d] reads as nothing
            n = ir.acc_name(acc)
            n = base_name(n) if n.startswith((TAN, COT, GIVEN)) else n
            taken |= {n, n.lstrip("_")}
        ren = {}
        pool = iter(n for n in ["k", "l", "m", "n", "r", "s", "u", "v", "w"] + [f"k{q}" for q in range(2, 99)]
                    if n not in taken)
        for s in t.sums:
            ren[s] = Idx(next(pool), s.ext)
        out.append(Term(t.coeff.xreplace(ren), tuple(ren[s] for s in t.sums), t.atom.xreplace(ren)))
    return out


def canon_bound(e, depth=0):
    """Rename the indices bound by IndexSums to canonical names, so equal sums compare equal (for CSE too)."""
    if isinstance(e, IndexSum):
        body = canon_bound(e.body, depth + 1)
        ren = {s: Idx(f"_b{depth}_{k}", s.ext) for k, s in enumerate(e.indices)}
        return IndexSum(body.xreplace(ren), list(ren.values()))
    if not e.args or ir.is_access(e) or not e.has(IndexSum):
        return e
    return e.func(*[canon_bound(a, depth) for a in e.args])


def _divisors(e):
    return {p.base for p in e.atoms(sp.Pow) if p.exp.is_negative}


def _new_divisors(new, old, output=None, pattern=None):
    """Bases `new` divides by that `old` did not: SymPy rewrites n·xⁿ⁻¹ through y = xⁿ as n·y/x, which is
    0·∞ = NaN at x = 0 where the original is finite. The output y = uᵖ (p > 0) may divide where `old` divided by
    u: 1/(2·√x) is 1/(2·y), singular where the original is (u = 0 exactly where y = 0)."""
    got = _divisors(new) - _divisors(old)
    if output is not None and isinstance(pattern, sp.Pow) and pattern.exp.is_positive and \
            pattern.base in _divisors(old):
        got.discard(output)
    return got


def through_output(terms, st: Stmt):
    """Rewrite coefficients through the statement's own output where its right side reappears
    (exp -> y, softmax's exp(x_i)/Σexp -> y_i): cheaper code and the compact textbook form.

    Reading y = rest ± log(S) back into S = exp(±(y - rest)) is refused where it leaves y inside a difference in
    an exponent: a log-sum-exp's exp(u)/Σ exp(u) would become exp(u - y), which loses |u|·eps where u and y are
    large (3 % in float32 at 1e6: y is rounded to |y|·eps), where the emitters evaluate exp(u)/Σ exp(u) shifted
    by the maximum, exact as softmax's forward (numpy_contract.stable_softmax, kernel_plan.Planner._stabilize).
    log-softmax's exp(x_k)/Σ exp(x) -> exp(y_k) stays: its exponent is y alone."""
    pattern = canon_bound(st.expr)
    if ir.is_access(pattern) or pattern.is_Number:
        return terms
    I = st.indices
    # y = rest ± log(S) with S free of the statement's indices gives S = exp(±(y - rest))
    logs = [a for a in (pattern.args if isinstance(pattern, sp.Add) else [pattern])
            if isinstance(a, sp.log) or (isinstance(a, sp.Mul) and len(a.args) == 2 and -1 in a.args
                                         and any(isinstance(x, sp.log) for x in a.args))]
    if len(logs) == 1:
        lg = logs[0]
        sgn = 1 if isinstance(lg, sp.log) else -1
        S = lg if sgn == 1 else next(x for x in lg.args if isinstance(x, sp.log))
        S = S.args[0]
        rest = pattern - lg
    parts = {"pattern": pattern, "rest": rest, "S": S} if len(logs) == 1 else {"pattern": pattern}
    instances: dict = {}    # each part at each choice of indices, built once, not once per term

    def instance(part, m):
        key = (part, tuple(m.items()))
        if key not in instances:
            instances[key] = parts[part].xreplace(m)
        return instances[key]

    out = []
    for t in terms:
        c = t.coeff
        cands = set(c.atoms(Idx)) | set(t.sums)
        choices = [[s for s in cands if s.ext == i.ext] for i in I]
        best = c
        for combo in itertools.islice(itertools.product(*choices), 64):
            if len(set(combo)) != len(combo):
                continue
            m = dict(zip(I, combo))
            y = ir.access(st.target, combo)
            new = best.subs(instance("pattern", m), y)
            if new != best and sp.count_ops(new) <= sp.count_ops(best) and \
                    not _new_divisors(new, best, y, instance("pattern", m)):
                best = new
        if len(logs) == 1:
            for combo in (itertools.islice(itertools.product(*choices), 64) if I else [()]):
                if len(set(combo)) != len(combo):
                    continue
                m = dict(zip(I, combo))
                y = ir.access(st.target, combo)
                repl = sp.exp(sgn * (y - instance("rest", m)))
                cand = sp.powsimp(best.subs(instance("S", m), repl))
                if (sp.count_ops(cand) < sp.count_ops(best) and not _new_divisors(cand, best)
                        and not _exponent_cancels(cand, y)):
                    best = cand
        out.append(Term(best, t.sums, t.atom) if best is not c else t)
    return out


def _exponent_cancels(e, y):
    """Whether e has exp(u ± y) with u not 0: a difference of the output y and what it was computed from, which
    cancels where both are large (through_output)."""
    return any(isinstance(a, sp.exp) and isinstance(a.args[0], sp.Add) and a.args[0].has(y)
               for a in sp.preorder_traversal(e))


def _inner_sums_fresh(e):
    """Re-bind every IndexSum inside e with fresh names (so lifting terms never captures an index)."""
    if isinstance(e, IndexSum):
        ren = {s: fresh_like(s) for s in e.indices}
        return IndexSum(_inner_sums_fresh(e.body.xreplace(ren)), list(ren.values()))
    if not e.args or ir.is_access(e):
        return e
    return e.func(*[_inner_sums_fresh(a) for a in e.args])


# -----------------------------------------------------------------------------------------------------------
# Matrix primitives: each contributes its differential, in index form (DESIGN.md)


@dataclass
class OpaqueLin:
    """`target = prim.jvp(saved..., arg)` or `target = prim.vjp(saved..., arg)`: one argument's part of a
    primitive's differential without an index form (expm, eigh, cholesky, solve_triangular), given as code and its
    transpose by the declaration. `saved` are primal tensors; `arg` is the one linear input (a tangent or
    cotangent name); `argnum` the primitive's argument whose map it is (declarations give one per argument)."""

    target: str
    indices: tuple
    prim: str
    mode: str            # 'jvp' | 'vjp'
    saved: tuple
    arg: str
    of: tuple = ()       # (arguments..., result) of the primitive statement, for displays
    terms: tuple = ()    # none: nothing here is a sum of index terms
    argnum: int = 0

    def reads(self):
        return set(self.saved)


def lin_reads(ls) -> set:
    """Primal tensors a linear statement reads (its coefficients', or an opaque map's saved values)."""
    if isinstance(ls, OpaqueLin):
        return ls.reads()
    return {ir.acc_name(a) for t in ls.terms for a in ir.accesses(t.coeff)}


def lin_atoms(ls) -> set:
    """Names of the linear inputs a statement reads."""
    if isinstance(ls, OpaqueLin):
        return {ls.arg}
    return {ir.acc_name(t.atom) for t in ls.terms}


def _opaque_differential(p, st: Stmt, aux, active):
    """dR = Σ over the active arguments of that argument's map (the declaration's jvp per argument): one
    OpaqueLin into dR where one argument is active, else one into a tangent temporary each, and their sum."""
    R, X = st.target, st.args[0]
    values = dict(zip(p.args, st.args), X=X, R=R)
    saved = tuple(values[s] if s in values else aux(X, s) for s in p.saves)
    parts = [(k, a) for k, a in enumerate(st.args) if a in active and p.jvps[k] is not None]
    if len(parts) == 1:
        k, a = parts[0]
        return [OpaqueLin(tan(R), st.indices, p.name, "jvp", saved, tan(a), (*st.args, R), argnum=k)]
    out, total = [], sp.S.Zero
    for k, a in parts:
        z = f"_z{next(_counter)}"
        out.append(OpaqueLin(tan(z), st.indices, p.name, "jvp", saved, tan(a), (*st.args, R), argnum=k))
        total += ir.access(tan(z), st.indices)
    return out + [LinStmt(tan(R), st.indices, total)] if out else []


def primitive_differential(st: Stmt, prog: Program, aux, active):
    """The differential of a primitive statement, read from its declaration (primitives/matrix): LinStmts
    from its index form, or an OpaqueLin for a linear map given as code."""
    p = ir.ALL_PRIMITIVES[st.prim]
    R = st.target
    X = st.args[0]
    nb = prog.var(X).rank - 2
    if p.opaque:
        return _opaque_differential(p, st, aux, active)
    names = dict(zip(p.args, st.args))
    names["R"] = R
    classes = {a: prog.var(n).classes for a, n in names.items()}
    for a in p.args:
        classes["d" + a] = classes[a]
    classes["dR"] = prog.var(R).classes
    batch = tuple(Idx(f"b{next(_counter)}", c) for c in prog.var(X).classes[:nb])
    # optional letters (a right-hand side's columns) exist when the argument has them
    missing = set()
    for a, kind in zip(p.args, p.arg_kinds):
        if kind == "rhs" and prog.var(names[a]).rank - nb == 1:
            missing = set(p.optional)

    def present(ix):
        return tuple(c for c in ix if c not in missing)

    letters: dict = {}       # index letter of the declaration -> index class
    for ln in p.lines:
        for m in ln.terms:
            for f in m.factors:
                cls = classes.get(f.name, classes.get(f.call and f.name))
                if cls is not None:
                    for c, k in zip(present(f.indices), cls[nb:]):
                        letters.setdefault(c, k)
    temp_names: dict = {}
    out = []
    for ln in p.lines:
        if ln.target == "dR":
            tgt = tan(R)
        else:
            z = temp_names[ln.target] = f"_z{next(_counter)}"
            tgt = tan(z)
        sym = {c: Idx(f"{c}{next(_counter)}", letters[c]) for c in letters}
        tidx = batch + tuple(sym[c] for c in present(ln.indices))

        def ix(f):
            return batch + tuple(sym[c] for c in present(f.indices))
        terms = sp.S.Zero
        for m in ln.terms:
            e = _index_term(m, ix, names, temp_names, aux, active)
            if e is not None:
                summed = [sym[c] for c in dict.fromkeys(c for f in m.factors for c in present(f.indices))
                          if c not in present(ln.indices)]
                terms = terms + IndexSum(e, summed)
        if terms != 0:
            out.append(LinStmt(tgt, tidx, terms))
    return out


def _index_term(m, ix, names, temp_names, aux, active):
    """One term of an index-form line as an IR product (its sums apart), or None where its tangent is inactive;
    ix(factor) gives the factor's subscripts."""
    tf = m.factors[m.tangent]
    if tf.name in temp_names:
        atom_name = tan(temp_names[tf.name])
    else:
        base = names[tf.name[1:]]
        if base not in active:
            return None
        atom_name = tan(base)
    e = sp.Rational(m.coeff.numerator, m.coeff.denominator)
    for k, f in enumerate(m.factors):
        if k == m.tangent:
            e = e * ir.access(atom_name, ix(f))
        elif f.call:
            e = e * ir.access(aux(names[f.name], f.call), ix(f))
        else:
            e = e * ir.access(names[f.name], ix(f))
    return e


# -----------------------------------------------------------------------------------------------------------
# The derivation


def derive(prog: Program) -> Derivation:
    d = Derivation(prog)
    active = {v.name for v in prog.inputs if v.kind != "int"}
    shared: dict = {}

    for st in prog.stmts:
        if st.prim and len(st.args) == 1:
            shared.setdefault((st.prim, st.args[0]), st.target)   # reuse a value the rule computes anyway

    def aux(X, prim):
        """prim(X) (the inverse, the adjugate, eigenvectors), computed once for all derivatives that need it."""
        key = (prim, X)
        if key not in shared:
            xv = prog.var(X)
            name = f"_{prim}_{X}"     # X's own IR name: `_adj__inv_X` is adj(X⁻¹), never a user's inv_X
            shared[key] = name
            p = ir.ALL_PRIMITIVES[prim]
            idx = tuple(Idx(f"q{k}", c) for k, c in enumerate(xv.classes))
            idx = {"square": idx, "scalar": idx[:-2], "vector": idx[:-1]}[p.result]
            prog.temps.append(TensorVar(name, "tensor", tuple(i.ext for i in idx), "temp"))
            d.aux.append(Stmt(name, idx, prim=prim, args=(X,)))
        return shared[key]

    tangent_of: dict = {}   # name -> list of LinStmt (pushforward statements)
    for st in prog.stmts:
        deps = st.args if st.prim else {ir.acc_name(a) for a in ir.accesses(st.expr)}
        if not any(x in active for x in deps):
            continue
        if st.prim:
            lins = primitive_differential(st, prog, aux, active)
        else:
            dexpr = reductions.linearize_stmt(st, active, linearize) if reductions.is_stmt(st) else \
                linearize(st.expr, active)
            lins = [LinStmt(tan(st.target), st.indices, dexpr)]
        for ls in lins:
            if isinstance(ls, OpaqueLin):
                active.add(base_name(ls.target))
                if base_name(ls.target).startswith("_z"):
                    d.tangent_temps.append(base_name(ls.target))
                d.pushforward.append(ls)
                continue
            ls.terms = simplify_terms(to_terms(_inner_sums_fresh(ls.terms)), ls.indices)
            if not st.prim:
                ls.terms = simplify_terms(through_output(ls.terms, st), ls.indices)
            active.add(base_name(ls.target))
            if base_name(ls.target).startswith("_z"):
                d.tangent_temps.append(base_name(ls.target))
            d.pushforward.append(ls)
    d.pushforward = live_tangents(d.pushforward, {tan(v.name) for v in prog.outputs})
    d.pullback = transpose_program(d, prog, aux)
    letters = {v.name: v.indices for v in prog.all_vars}
    for ls in d.pushforward + d.pullback:
        if not isinstance(ls, OpaqueLin):
            relabel(ls, letters.get(base_name(ls.target)), letters)
    return d


def live_tangents(stmts, outputs):
    """The pushforward's statements an output's tangent reads, directly or through others: a tangent whose every
    use cancelled (log-sum-exp's dm) is not computed."""
    live = set(outputs)
    keep = []
    for ls in reversed(stmts):
        if ls.target not in live and not isinstance(ls, OpaqueLin):
            continue
        keep.append(ls)
        live |= {ls.arg} if isinstance(ls, OpaqueLin) else {ir.acc_name(t.atom) for t in ls.terms}
    return keep[::-1]


def _read_letters(ls, known):
    """Letters for the free indices of a statement whose target the rule does not name (solve's tangent temporary
    z[b,i]): each the letter of the rule's tensor read at that index's position (x[b,k]'s b), so a batch index
    keeps its name b beside the rule's own statements; None where some index has none, or two share one."""
    out = []
    for s in ls.indices:
        got = None
        for t in ls.terms:
            for a in ir.accesses(t.coeff * t.atom):
                name = base_name(ir.acc_name(a))
                prim = next((p for p in ir.ALL_PRIMITIVES if name.startswith(f"_{p}_")), None)
                L = known.get(name) or (known.get(name[len(prim) + 2:]) if prim else None)
                if got is None and L and len(L) == len(a.args) and s in a.args:
                    got = L[list(a.args).index(s)]
        out.append(got)
    return out if None not in out and len(set(out)) == len(out) else None


def relabel(ls, letters, known=None):
    """Name a statement's free indices with its tensor's letters (or those of the tensors it reads at them, else
    i, j, k...), sums avoiding them."""
    pool = list("ijklmnpqrs")
    if (not letters or len(set(letters)) != len(ls.indices)) and known:
        letters = _read_letters(ls, known)
    if not letters or len(set(letters)) != len(ls.indices):
        letters = pool[:len(ls.indices)]
    new_idx = tuple(Idx(l, s.ext) for l, s in zip(letters, ls.indices))
    terms = []
    for t in ls.terms:
        ren = {s: fresh_like(s) for s in t.sums}
        # one renaming, not the sums' and then the free indices' in turn (see _retarget): the sums' fresh names
        # are no free index, and a sum that were also named as a free index keeps its fresh name, as in turn
        both = {**dict(zip(ls.indices, new_idx)), **ren}
        terms.append(Term(t.coeff.xreplace(both), tuple(ren.values()), t.atom.xreplace(both)))
    ls.indices = new_idx
    ls.terms = _rename_sums(terms, new_idx)


def transpose_program(d: Derivation, prog: Program, aux=None) -> list:
    """Chain the statements' transposes in reverse order: each intermediate's cotangent is built once.
    aux(X, prim) names prim(X), computed once (a primitive's pullback at the identity may read one)."""
    outs = {v.name for v in prog.outputs}
    read_later = set()
    for ls in d.pushforward:
        read_later |= {base_name(a) for a in lin_atoms(ls)}
    contrib: dict = {}
    for o in prog.outputs:
        if o.name in read_later:
            idx = tuple(Idx(f"_P{k}", c) for k, c in enumerate(o.classes))
            contrib[o.name] = [Term(sp.S.One, (), ir.access(GIVEN + o.name, idx))]
    pull = []
    for ls in reversed(d.pushforward):
        T = base_name(ls.target)
        if T in outs and T not in contrib:
            ybar_name = cot(T)
        elif T in contrib:
            # materialize T's cotangent, then use it
            idx = ls.indices
            bar = simplify_terms(_retarget(contrib.pop(T), idx), idx)
            if isinstance(ls, OpaqueLin) and _at_identity(ls, bar, prog, contrib, aux):
                continue
            if (not isinstance(ls, OpaqueLin) and len(ls.terms) == 1 and len(bar) == 1
                    and _outer_product(bar[0], idx)):
                # a single use of a cotangent that is a product of factors over disjoint indices (x̄·xᵀ, a rank-one
                # matrix): substituted, not built, so the contraction that reads it is planned through its factors
                # (S⁻ᵀ·(x·xᵀ)·S⁻ᵀ as (S⁻ᵀx)(S⁻ᵀx)ᵀ, O(n²), not two O(n³) products)
                _transpose_terms(ls, contrib, lambda ren, b=bar[0], ix=idx: _substituted(b, ix, ren), prog)
                continue
            pull.append(LinStmt(cot(T), idx, bar))
            ybar_name = cot(T)
        else:
            continue
        if isinstance(ls, OpaqueLin):
            # the declaration's transpose: v̄ = prim.vjp(saved..., T̄), then X̄ += v̄
            X = base_name(ls.arg)
            v = f"_v{next(_counter)}"
            d.tangent_temps.append(v)
            xcl = prog.var(X).classes
            vidx = tuple(Idx(f"q{next(_counter)}", c) for c in xcl)
            pull.append(OpaqueLin(cot(v), vidx, ls.prim, "vjp", ls.saved, ybar_name, ls.of, argnum=ls.argnum))
            P = tuple(Idx(f"_P{k}", c) for k, c in enumerate(xcl))
            contrib.setdefault(X, []).append(Term(sp.S.One, (), ir.access(cot(v), P)))
            continue
        _transpose_terms(ls, contrib, lambda ren, name=ybar_name, ix=ls.indices:
                         (sp.S.One, (), ir.access(name, ix).xreplace(ren)), prog)
    inputs = [v for v in prog.inputs if v.kind != "int"]
    symmetric = _symmetric_names(d, prog, pull)
    for v in inputs:
        letters = list(v.indices)
        if len(set(letters)) != len(letters):
            letters = [x for x in "ijklmnopqr"][:len(letters)]
        P = tuple(Idx(letter, c) for letter, c in zip(letters, v.classes))
        terms = simplify_terms(_retarget(contrib.get(v.name, []), P), P)
        if v.domain in domains.MATRIX and terms and not _symmetric_by_form(terms, P, symmetric):
            pull += _projected(d, v, P, terms)
        else:
            pull.append(LinStmt(cot(v.name), P, terms))
    return pull


def _identity_scale(bar, idx, result):
    """The terms of c where the cotangent Σ bar (over idx) is c·I of a square result, or c·𝟙 of a vector one, c
    read at the batch indices alone (trace(expm(X)): dt[i,j] = dy·δ[i,j]); None where it is not of that form."""
    own = tuple(idx[-2:]) if result == "square" else tuple(idx[-1:])
    out = []
    for t in bar:
        coeff = t.coeff
        if result == "square":
            ds = [f for f in sp.Mul.make_args(coeff) if isinstance(f, KroneckerDelta) and set(f.args) == set(own)]
            if len(ds) != 1 or own[0] == own[1]:
                return None
            coeff = coeff / ds[0]
        if set(own) & (coeff.atoms(Idx) | t.atom.atoms(Idx) | set(t.sums)):
            return None
        out.append(Term(coeff, t.sums, t.atom))
    return out or None


def _at_identity(ls, bar, prog, contrib, aux) -> bool:
    """X̄ += the declaration's closed form of its pullback at a cotangent c·I (c·𝟙), where the opaque map ls's
    cotangent Σ bar has that form (primitives.matrix: vjp_at_identity); False (nothing added) where it has not."""
    p = ir.ALL_PRIMITIVES[ls.prim]
    line = p.at_identity
    if line is None or aux is None or ls.argnum != 0:
        return False
    scale = _identity_scale(bar, ls.indices, p.result)
    if scale is None:
        return False
    X = base_name(ls.arg)
    names = dict(zip(p.args, ls.of[:-1]), R=ls.of[-1])
    xcl = prog.var(X).classes
    P = tuple(Idx(f"_P{k}", c) for k, c in enumerate(xcl))
    nb = len(xcl) - 2
    batch = dict(zip(ls.indices[:nb], P[:nb]))
    letters = dict(zip(line.indices, P[nb:]))
    for m in line.terms:
        e = sp.Rational(m.coeff.numerator, m.coeff.denominator)
        for k, f in enumerate(m.factors):
            ix = tuple(letters[c] for c in f.indices)
            if k == m.tangent:
                continue
            if f.name == "I" and not f.call:
                e = e * KroneckerDelta(*ix)
            else:
                e = e * ir.access(aux(names[f.name], f.call) if f.call else names[f.name], P[:nb] + ix)
        for t in scale:
            contrib.setdefault(X, []).append(Term(e * t.coeff.xreplace(batch), t.sums, t.atom.xreplace(batch)))
    return True


# -----------------------------------------------------------------------------------------------------------
# Inputs declared on symmetric matrices (docs/language.md, *Symmetric tangents*): an input declared `symmetric` or
# `spd` lives on symmetric matrices (in its last two indices), so its cotangent is the one in that tangent space,
# sym(G) = (G + Gᵀ)/2 of the transpose G. The pushforward is left alone: its tangents are symmetric there, and on
# them G and sym(G) are the same linear function.


def _symmetric_names(d: Derivation, prog: Program, pull: list) -> set:
    """Tensors the rule's declarations make symmetric in their last two indices: inputs declared spd or symmetric,
    a primitive's value at a symmetric argument where the primitive keeps symmetry (S⁻¹, logm(S)), and the
    cotangent a primitive defined on symmetric matrices returns (cholesky's, eigvalsh's: symmetric gradients)."""
    names = {v.name for v in prog.inputs if v.domain in domains.MATRIX}
    for st in list(prog.stmts) + list(d.aux):
        if st.prim and ir.ALL_PRIMITIVES[st.prim].keeps_symmetry and st.args[0] in names:
            names.add(st.target)
    return names | {ls.target for ls in pull if isinstance(ls, OpaqueLin) and ls.mode == "vjp"
                    and ir.ALL_PRIMITIVES[ls.prim].symmetric}


def _symmetric_by_form(terms, P, symmetric) -> bool:
    """Σ terms over P is symmetric in P's last two indices by its form (then sym(G) = G and nothing is built): the
    terms with those two indices swapped are the same terms, once every read of a symmetric tensor lists its last
    two indices in one order and summed indices are named alike. Sound, not complete: a form it cannot match is
    projected."""
    a, b = P[-2], P[-1]
    mirrored = [Term(t.coeff.xreplace({a: b, b: a}), t.sums, t.atom.xreplace({a: b, b: a})) for t in terms]
    key = _symmetric_key(symmetric)
    return collections.Counter(map(key, terms)) == collections.Counter(map(key, mirrored))


def _symmetric_key(symmetric):
    """A term's text with its sums named canonically (each order tried, up to 4 sums) and each read of a tensor in
    `symmetric` with its last two indices sorted: equal keys, equal terms."""
    def ordered(e):
        return e.replace(lambda x: ir.is_access(x) and ir.acc_name(x) in symmetric and len(x.args) >= 2,
                         lambda x: ir.access(ir.acc_name(x), x.args[:-2] + tuple(sorted(x.args[-2:], key=str))))

    def key(t):
        sums = list(t.sums)
        perms = itertools.permutations(range(len(sums))) if len(sums) <= 4 else [range(len(sums))]
        best = None
        for perm in perms:
            ren = {sums[p]: Idx(f"_s{k}", sums[p].ext) for k, p in enumerate(perm)}
            text = (str(ordered(t.atom.xreplace(ren))), str(ordered(t.coeff.xreplace(ren))))
            best = text if best is None or text < best else best
        return best
    return key


def _projected(d: Derivation, v: TensorVar, P: tuple, terms: list) -> list:
    """v̄ = sym(G), G = Σ terms built once (a tensor of its own unless it is one already: a primitive's vjp)."""
    out = []
    t = terms[0]
    if len(terms) == 1 and t.coeff == 1 and not t.sums and tuple(t.atom.args) == P:
        G = ir.acc_name(t.atom)          # already a tensor of its own (a primitive's vjp): read it twice
    else:
        g = f"_v{next(_counter)}"
        d.tangent_temps.append(g)
        G = cot(g)
        out.append(LinStmt(G, P, terms))
    mirrored = P[:-2] + (P[-1], P[-2])
    half = sp.Rational(1, 2)
    return out + [LinStmt(cot(v.name), P, [Term(half, (), ir.access(G, P)), Term(half, (), ir.access(G, mirrored))])]


def _transpose_terms(ls, contrib, ybar_of, prog=None):
    """Each term c·ẋ[J] of ls contributes Σ c·ȳ·δ(P, J) to X̄; ybar_of(renaming) gives ȳ as (factor, sums, atom).
    A shifted subscript J_m = i + k keeps its δ(P_m, i + k): X̄ is then a scatter (derive.lowering.shifts)."""
    for t in ls.terms:
        # fresh names for everything summed, so no index of the result can be captured
        ren = {s: fresh_like(s) for s in tuple(ls.indices) + t.sums}
        yc, ysums, ybar = ybar_of(ren)
        X = base_name(ir.acc_name(t.atom))
        J = tuple(j.xreplace(ren) for j in t.atom.args)
        P = tuple(Idx(f"_P{k}", _axis_class(prog, X, k, j)) for k, j in enumerate(J))
        # Σ_{I,K} c · ȳ[I] · Π δ(P_m, J_m)
        coeff = t.coeff.xreplace(ren)
        deltas = sp.Mul(*[KroneckerDelta(p, j, evaluate=False) for p, j in zip(P, J)])
        contrib.setdefault(X, []).append(Term(coeff * yc * deltas, tuple(ren.values()) + ysums, ybar))


def _axis_class(prog, X, k, j):
    """The extent class of axis k of X, read at subscript j: j's own, except where a shifted read's range
    differs from the axis it reads (u[i+1,j] beside u[i,j+2]: j runs over fewer values than u's axis)."""
    try:
        return prog.var(X).classes[k]
    except (KeyError, AttributeError):
        return j.ext


def _outer_product(term, idx):
    """The term is a product whose free indices idx each sit in a different factor (no factor holds two)."""
    if len(idx) < 2 or term.sums:
        return False
    factors = sp.Mul.make_args(term.coeff) + (term.atom,)
    for f in factors:
        if len(set(f.atoms(Idx)) & set(idx)) > 1:
            return False
    return True


def _substituted(term, idx, ren):
    """A materialized cotangent's one term, with its free indices renamed as the consumer's ȳ[idx] would be."""
    m = {i: ren.get(i, i) for i in idx}
    inner = {s: fresh_like(s) for s in term.sums}
    m.update(inner)
    return term.coeff.xreplace(m), tuple(inner.values()), term.atom.xreplace(m)


def _retarget(terms, P):
    """Terms whose free indices are _P0, _P1, ... (by position) renamed to the target's indices P."""
    out = []
    for t in terms:
        # one renaming, not two in turn: rebuilding a coefficient re-runs SymPy's evaluation of every
        # function in it, the main cost of a long program's derivation (the maps are disjoint, and neither
        # renames what the other introduces)
        ren = {s: fresh_like(s) for s in t.sums}
        for s in set(t.coeff.atoms(Idx)) | set(t.atom.atoms(Idx)):
            if s.name.startswith("_P") and s not in t.sums:
                k = int(s.name[2:])
                if k < len(P):
                    ren[s] = P[k]
        out.append(Term(t.coeff.xreplace(ren), tuple(ren[s] for s in t.sums), t.atom.xreplace(ren)))
    return out
