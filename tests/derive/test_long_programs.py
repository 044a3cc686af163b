"""A long program's outcome shows each statement once: the record, the JSON and the shown pullback share their
checked forms (derive.display.notation.shared_forms), and nothing of that outlives the outcome. Counted, not
timed: benchmarks/bench_derive.py --scaling times it."""
from collections import Counter

from derive import api
from derive.display import matrixform, notation
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
