"""A long program's outcome shows each statement once: the record, the JSON and the shown pullback share their
checked forms (derive.display.notation.shared_forms), and nothing of that outlives the outcome. Counted, not
timed: benchmarks/bench_derive.py --scaling times it."""
from collections import Counter

from derive import api
from derive.display import forms, matrixform, notation
from derive.display import record as record_mod


def _chain(n):
    lines = [f"chain(x[i]) -> t{n}[i]:", "    t1[i] = sin(x[i])"]
    lines += [f"    t{k}[i] = sin(t{k - 1}[i]) * x[i]" if k % 2 else f"    t{k}[i] = tanh(t{k - 1}[i])"
              for k in range(2, n + 1)]
    return "\n".join(lines) + "\n"


def test_each_form_of_a_long_program_is_made_once_per_outcome(monkeypatch):
    r = api.derive_text(_chain(12), "<chain>")[0]
    made, named = Counter(), Counter()
    real_form, real_names = matrixform._symmetric_safe_stmt_matrix, notation.internal_names

    def form(ls, style, domains):
        made[notation.stmt_key(ls), style] += 1
        return real_form(ls, style, domains)

    def names(d):
        named[id(d)] += 1
        return real_names(d)

    monkeypatch.setattr(matrixform, "_symmetric_safe_stmt_matrix", form)
    monkeypatch.setattr(notation, "internal_names", names)
    out = r.to_json()
    assert made and max(made.values()) == 1, [k for k, v in made.items() if v > 1][:3]
    assert list(named.values()) == [1]
    # the same outcome as each display made on its own, outside the shared memo
    assert out["record"] == record_mod.make(r)
    assert [s["matrix_form"] or s["index_form"] for s in out["pushforward"]] == r.pushforward_text().splitlines()
    assert [s["matrix_form"] or s["index_form"] for s in out["pullback"]] == r.pullback_text().splitlines()


def test_the_memo_ends_with_the_outcome():
    r = api.derive_text(_chain(4), "<chain>")[0]
    r.to_json()
    assert notation._SHARED.get() is None and notation._MEMO.get() is None


def _sins(n):
    lines = [f"sins(x[i]) -> t{n}[i]:", "    t1[i] = sin(x[i])"]
    return "\n".join(lines + [f"    t{k}[i] = sin(t{k - 1}[i])" for k in range(2, n + 1)]) + "\n"


def test_the_shown_pullback_is_rewritten_once_per_outcome(monkeypatch):
    """The JSON and the record show one pullback: each substitution of it is made once, not once for each."""
    r = api.derive_text(_sins(12), "<sins>")[0]
    made = Counter()
    real = forms._inline

    def inline(reader, ls):
        made[notation.stmt_key(ls), notation.stmt_key(reader)] += 1
        return real(reader, ls)

    monkeypatch.setattr(forms, "_inline", inline)
    out = r.to_json()
    assert made and max(made.values()) == 1, max(made.values())
    assert len(out["pullback"]) < 12       # substitutions were made: t{k}'s cotangents fold into one statement


def test_the_shown_pullback_looks_at_each_statement_once_per_change(monkeypatch):
    """A substitution is followed by a look at the statements it may have changed, not at every statement
    again: looks <= statements + substitutions (a rescan from the top after each one was quadratic)."""
    n = 80
    r = api.derive_text(_sins(n), "<sins>")[0]
    looks, folds = Counter(), Counter()
    real_others, real_inline = forms._Readers.others, forms._inline

    def others(self, ls):
        looks["looks"] += 1
        return real_others(self, ls)

    def inline(reader, ls):
        folds["tried"] += 1
        return real_inline(reader, ls)

    monkeypatch.setattr(forms._Readers, "others", others)
    monkeypatch.setattr(forms, "_inline", inline)
    out = r.to_json()
    taken = n - len(out["pullback"])          # each substitution taken removes one statement
    assert taken > n // 2
    assert looks["looks"] <= n + folds["tried"], (looks, folds, taken)


def test_simplifying_a_long_program_factors_each_coefficient_once(monkeypatch):
    """simplify_terms asks factor_terms of the same coefficients again and again (each term's and each statement's
    twice); each distinct expression is factored once."""
    import sympy

    asked = Counter()
    real = sympy.factor_terms

    def factor_terms(e, *a, **k):
        asked[e] += 1
        return real(e, *a, **k)

    monkeypatch.setattr(sympy, "factor_terms", factor_terms)
    # names no other test uses, so that no expression of this rule was factored before
    lines = ["facts(wq[i]) -> fq30[i]:", "    fq1[i] = sin(wq[i])"]
    lines += [f"    fq{k}[i] = sin(fq{k - 1}[i]) * wq[i]" if k % 2 else f"    fq{k}[i] = tanh(fq{k - 1}[i])"
              for k in range(2, 31)]
    api.derive_text("\n".join(lines) + "\n", "<facts>")
    assert asked and max(asked.values()) == 1, asked.most_common(2)


def test_a_derivation_collects_garbage_less_often_and_restores_the_thresholds(monkeypatch):
    """The cyclic collector walks every surviving SymPy object each time it runs: within a derivation the young
    generation is collected every pipeline.YOUNG_THRESHOLD allocations, and the process's own thresholds are back
    after (also after an error)."""
    import gc

    from derive import pipeline
    from derive.display import outcome

    before = gc.get_threshold()
    seen = []
    real = outcome.rule_json

    def rule_json(result):
        seen.append(gc.get_threshold())
        return real(result)

    monkeypatch.setattr(outcome, "rule_json", rule_json)
    pipeline.derive_file(_chain(3), "<chain>", "chain", kernels=False)
    assert seen and seen[0][0] >= 50_000, seen
    assert gc.get_threshold() == before
    try:
        pipeline.derive_file("chain(x[i]) -> y[i]:\n    y[i] = nosuch(x[i])\n", "<bad>", "bad", kernels=False)
    except Exception:
        pass
    assert gc.get_threshold() == before
