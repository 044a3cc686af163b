"""Cotangent terms placed at shifted positions of their target (the transpose of a shifted read, x̄[t] =
Σ_{i+k=t} w[k]·ȳ[i]): printed as a gather (a convolution over the padded cotangent) where one can be solved for,
else as a scatter, one vectorised slice per tap (runtime.shifts)."""
from __future__ import annotations

from derive.emission.numpy_chunks import expand_sums
from derive.ir import nodes as ir
from derive.ir.nodes import Idx, IndexSum
from derive.lowering import shifts


def emit_scatter(em, t, place, rest, target, ext):
    """A term placed at shifted positions of its target (x̄[t] = Σ_{i+k=t} w[k]·ȳ[i], the transpose of a
    shifted read): G over the target's other indices and the indices of the positions, then added in place,
    one vectorised slice per kernel tap (runtime.shifts.scatter). Where it can be solved for the cotangent's
    own position it is a gather instead (emit_gather)."""
    gathered = emit_gather(em, t, place, rest, target, ext)
    if gathered is not None:
        return gathered
    # in the subscripts' own (canonical) order: a set's order would change the code from run to run
    pos = list(dict.fromkeys(s for p in target if p in place for _, s in shifts.affine_parts(place[p])[0]))
    g_axes = tuple([p for p in target if p not in place] + pos)
    sums = [s for s in t.sums if s not in pos]
    e = expand_sums(IndexSum(rest * t.atom, sums))
    em.pref = g_axes
    code, axes = em.emit(e)
    g = em.to_axes(code, axes, g_axes)
    em.pref = tuple(target)
    spec = shifts.scatter_spec(target, place, g_axes)
    shape = "(" + "".join(f"{ext(p)}, " for p in target) + ")"
    v = em.tmp("sc")
    em.line(f"{v} = np.shift_scatter({g}, {spec!r}, {shape})")
    return v


def emit_gather(em, t, place, rest, target, ext):
    """The scatter x̄[t] = Σ_{i+k=t} w[k]·ȳ[i] as the gather x̄[t] = Σ_k w[k]·ȳ₀[t-k+K-1], ȳ₀ the cotangent
    padded with zeros (K-1 before, as many after): the transposed convolution as a convolution, whose
    contraction reads a window in place and never builds G, the product over every (position, tap) pair (nine
    times the input for a 3×3 kernel). Taken when each placed target index t = i + Σ c·k + const has exactly
    one index i of coefficient 1 that the linear atom ȳ reads (plainly, once) and nothing else of the term
    does, with every other index k of positive coefficient and absent from ȳ, and some tap k at all; else None
    (a stride, x[2i+k], stays a scatter: the gather would read mostly padding; a shift without taps, the
    stencil's u[i+1,j], is already one slice)."""
    rows = _gather_rows(t, place, rest, target)
    if rows is None:
        return None
    atom, solved = t.atom, set(rows)

    def span(others):                  # Σ c·(extent - 1) over the taps: how far the taps move a position
        return " + ".join(shifts.scaled_text(c, f"({ext(s)} - 1)") for c, s in others) or "0"
    # the cotangent padded: ȳ₀[const + span + e] = ȳ[e] along each solved axis, extent(t) + span long. A tap
    # axis of extent 0 makes span negative: the window below is then empty (the term is an empty sum, 0), and
    # the pad only has to hold ȳ, from const on (ȳ's extent is at most extent(t) - span - const)
    pad_spec, pad_shape = [], []
    for k, a in enumerate(atom.args):
        if a in rows:
            p, others, const = rows[a]
            at = f"max(0, {span(others)})"
            lo = at if const == 0 else f"{const}" if not others else f"{const} + {at}"
            pad_spec.append(f"((({k}, 1),), {lo})")
            pad_shape.append(f"{ext(p)} + abs({span(others)})" if others else ext(p))
        else:
            pad_spec.append(f"((({k}, 1),), 0)")
            pad_shape.append(ext(a))
    padded = em.tmp("pad")
    em.line(f"{padded} = np.shift_scatter({em.names[ir.acc_name(atom)]}, ({', '.join(pad_spec)},), "
            f"({''.join(s + ', ' for s in pad_shape)}))")
    # its window W[.., t, k, ..] = ȳ₀[t - Σ c·k + span]: the atom's own indices, the targets, the taps
    vaxes = [a for a in atom.args if a not in rows]
    for a in atom.args:
        if a in rows:
            p, others, _ = rows[a]
            vaxes += [p] + [s for _, s in others if s not in vaxes]
    win_spec = []
    for a in atom.args:
        if a in rows:
            p, others, _ = rows[a]
            terms = [f"({vaxes.index(p)}, 1)"] + [f"({vaxes.index(s)}, {-c})" for c, s in others]
            win_spec.append(f"(({', '.join(terms)},), {span(others)})")
        else:
            win_spec.append(f"((({vaxes.index(a)}, 1),), 0)")
    window = em.tmp("gw")
    em.line(f"{window} = np.shift_window({padded}, ({', '.join(win_spec)},), "
            f"({''.join(ext(a) + ', ' for a in vaxes)}))")
    name = f"_gather_{window}"
    em.names[name] = window
    sums = [s for s in t.sums if s not in solved]
    e = expand_sums(IndexSum(rest * ir.access(name, vaxes), sums))
    em.pref = tuple(target)
    code, axes = em.emit(e)
    return em.to_axes(code, axes, target)


def _gather_rows(t, place, rest, target):
    """{atom index i: (placed target index t, taps [(c, k)], const)} when the scatter is a gather (see
    emit_gather), else None."""
    atom = t.atom
    if (not ir.is_access(atom) or not all(isinstance(a, Idx) for a in atom.args)
            or len(set(atom.args)) != len(atom.args)):
        return None
    rows = {}
    for p in target:
        if p not in place:
            continue
        terms, const = shifts.affine_parts(place[p])
        own = [s for c, s in terms if c == 1 and s in atom.args]
        if len(own) != 1:
            return None
        others = [(c, s) for c, s in terms if s != own[0]]
        if any(c <= 0 or s in atom.args for c, s in others):
            return None
        rows[own[0]] = (p, others, const)
    solved = set(rows)
    if len(solved) != len(place) or rest.free_symbols & solved:
        return None
    if any(s in solved for _, others, _ in rows.values() for _, s in others):
        return None
    if not any(others for _, others, _ in rows.values()):
        return None                    # no taps: the scatter is a plain shift, as cheap as it gets
    return rows
