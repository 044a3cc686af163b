"""Hostile but plausible input: nothing injected runs, nothing the user had is lost, every failure is a message.

Each reproducer of issue 10 is a test here: comments and file names that try to break out of generated code,
define(name=...) with code in it, names that collide with the generated module's own, a tampered or corrupt
cache, a cache directory others can write, --out aimed at the package's generated/, odd encodings, interrupts.
"""
from __future__ import annotations

import json
import os
import random
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from derive import api, cli, output, pipeline
from derive.emission import safe_text
from derive.language.errors import DeriveError
from runtime import trusted_cache

ROOT = Path(__file__).resolve().parents[2]
RULE = "sq(x[i]) -> y[i] = x[i] * x[i]\n"


def run(*args, cwd=ROOT, env=None, **kw):
    e = dict(os.environ, PYTHONPATH=str(ROOT))
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "derive.cli", *args], cwd=cwd, env=e, capture_output=True,
                          text=True, timeout=300, **kw)


class Done:
    def __init__(self, rc, out, err):
        self.returncode, self.stdout, self.stderr = rc, out, err


def main(*args, cwd=None, cache=None):
    """derive-rules in this process (SymPy stays imported: fast); returns what a subprocess run would."""
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    old_cwd, old_env = os.getcwd(), os.environ.get("TENSOR_RULES_CACHE")
    try:
        if cwd:
            os.chdir(cwd)
        if cache is not None:
            os.environ["TENSOR_RULES_CACHE"] = str(cache)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = cli.main(list(args))
    finally:
        os.chdir(old_cwd)
        if old_env is None:
            os.environ.pop("TENSOR_RULES_CACHE", None)
        else:
            os.environ["TENSOR_RULES_CACHE"] = old_env
    return Done(rc, out.getvalue(), err.getvalue())


def load(src: str, tmp_path: Path, name="m"):
    """Import generated source as a real module file (what a user does with --out)."""
    p = tmp_path / f"{name}.py"
    p.write_text(src)
    r = subprocess.run([sys.executable, "-c", f"import {name}"], cwd=tmp_path, capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=f"{tmp_path}{os.pathsep}{ROOT}"), timeout=120)
    return r


# -- 1. no text from a rule file reaches generated code unescaped ---------------------------------------------

def test_top_comment_cannot_break_out_of_the_docstring(tmp_path, cache):
    f = tmp_path / "t.rules"
    f.write_text('# x """;__import__("os").system("touch PWN");"""\n\n' + RULE)
    p = main(str(f), "--out", str(tmp_path / "o"), "-q")
    assert p.returncode == 0, p.stderr
    r = subprocess.run([sys.executable, "-c", "import t; print(t.__doc__)"], cwd=tmp_path / "o",
                       env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == 'x """;__import__("os").system("touch PWN");"""'
    assert not list(tmp_path.rglob("PWN"))


def test_file_name_cannot_inject_code_even_without_out(tmp_path, cache):
    name = 'a""";__import__("os").system("touch PWN");"""b.rules'
    (tmp_path / name).write_text(RULE)
    p = main(name, "-q", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    p = main(name, "-q", "--out", "o", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert not list(tmp_path.rglob("PWN"))
    (mod,) = (tmp_path / "o").glob("*.py")
    assert load(mod.read_text(), tmp_path, "loaded").returncode == 0
    assert not list(tmp_path.rglob("PWN"))


def test_top_comment_ending_in_backslash_and_nul_load(tmp_path, cache):
    f1, f2 = tmp_path / "bs.rules", tmp_path / "nul.rules"
    f1.write_text("# ends with \\\n\n" + RULE)
    f2.write_text("# nul \0 here\n\n# op \0 doc */ \\\n" + RULE)
    p = main(str(f1), str(f2), "--out", str(tmp_path / "o"), "-q")
    assert p.returncode == 0, p.stderr
    r = subprocess.run([sys.executable, "-c", "import bs, nul; print(repr(bs.__doc__), repr(nul.__doc__))"],
                       cwd=tmp_path / "o", env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == repr("ends with \\") + " " + repr("nul \0 here")
    cu = (tmp_path / "o" / "cuda" / "nul.cu").read_text()
    assert "\0" not in cu


def test_define_name_with_code_is_refused(cache):
    import runtime

    for bad in ['a""";__import__("os").system("touch PWN");"""b', "x y", "1a", "class", "a\nb", "", "é"]:
        with pytest.raises(ValueError, match="define: name must be a rule name"):
            runtime.define("B = inv(A)", name=bad)
    # the derivation API validates too (bare statements are named by their caller)
    with pytest.raises(DeriveError, match="not a valid rule name"):
        api.derive_text("B = inv(A)", "<t>", bare_name='a"b')


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_docstring_and_comment_escaping_round_trip(text):
    import ast

    lit = safe_text.py_docstring(text)
    assert ast.literal_eval(lit) == text
    compile(f"{lit}\nX = 1\n", "<t>", "exec")           # nothing after it is swallowed or injected
    c = safe_text.comment_text(text)
    src = f"# {c}\nX = 1\n"
    ns: dict = {}
    exec(compile(src, "<t>", "exec"), ns)
    assert ns["X"] == 1 and not any(ch in c for ch in "\n\r\0\u2028") and "*/" not in c


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40))
def test_any_doc_comment_gives_a_loadable_module(tmp_path, text):
    body = text.replace("\n", " ").replace("\r", " ")
    src = f"# {body}\n\n# {body}\n{RULE}"
    try:
        results = api.derive_text(src, "<t>", verify_rules=False)
    except DeriveError:
        return  # a character the lexer reports (a positioned error) is fine
    doc = pipeline.file_doc(src)
    mod = api.render_module(results, f"t{body}.rules", doc=doc, export=False)
    ns: dict = {}
    exec(compile(mod, "<t>", "exec"), ns)
    assert ns["__doc__"] == (doc or "Rules derived from t" + body + ".rules.").strip()


# -- names that pass the language's checks must work ----------------------------------------------------------

COLLIDING = ["_NO", "_ZERO", "_add", "_recip", "_", "_t0", "_t1", "_e0", "_e3", "_pb_x5", "_s0", "_P0", "_b0_0",
             "_inv_A", "_z0", "_m", "_ci", "np", "math", "is_zero", "Thunk", "NoTangent", "ZeroTangent", "tangents",
             "acc", "k", "axis", "a", "dy", "n_i", "range", "len", "zip", "export_ops", "x_in", "dx"]


def _check(text):
    results = api.derive_text(text, "<t>")
    bad = [(r.name, r.error or r.check.problems) for r in results if not r.ok]
    assert not bad, (text, bad)
    return results


def _chunks(xs, n):
    return [xs[k:k + n] for k in range(0, len(xs), n)]


@pytest.mark.parametrize("names", _chunks(COLLIDING, 10))
def test_internal_looking_names_work_as_inputs_and_intermediates(names):
    ins = ", ".join(f"{n}[i]" for n in names)
    _check(f"f(x[i], {ins}) -> y[i] = x[i] * " + " * ".join(f"sin({n}[i])" for n in names) + "\n")
    body = "".join(f"    {n}[i] = exp(x[i]) + {k}\n" for k, n in enumerate(names))
    _check(f"f(x[i]) -> y[i]:\n{body}    y[i] = " + " * ".join(f"{n}[i]" for n in names) + "\n")


@pytest.mark.parametrize("n", ["_s0", "_s1", "_P0", "_b0_0", "_a0", "_f0", "_ci", "_m", "n", "i2", "_pb_x5"])
def test_internal_looking_index_names(n):
    _check(f"f(x[{n},j], w[j]) -> y[{n}] = exp(x[{n},j] * w[j]) * sum(k, w[k] * exp(x[{n},k]))\n")
    _check(f"f(x[i,{n}], w[{n}]) -> y[i] = sum({n}, exp(x[i,{n}] * w[{n}])) * x[i,{n}] * w[{n}]\n")


@pytest.mark.parametrize("n", ["_t0", "_t1", "_inv_A", "_z0"])
def test_user_tensors_named_like_lifted_temporaries(n):
    _check(f"f(A[i,j]) -> y[i,j]:\n    {n}[i,j] = A[i,j] * 2 + delta(i,j)\n"
           f"    y[i,j] = inv({n})[i,j] + exp(A[i,j]) * inv(A)[i,j]\n")


SHADOWING = ["_NO", "_ZERO", "_add", "_recip", "_", "np", "math", "is_zero", "range", "Thunk", "_op_np", "dy"]


def test_rule_names_that_shadow_helpers_work_through_import_and_call(tmp_path):
    """One module whose rules are named like the generated code's helpers: derive, write, import, call each op
    and its rrule, compared with hand derivatives (y = s x², dy/dx = 2 s x, dy/ds = x²)."""
    text = "".join(f"{n}(x[i], s) -> y[i] = s * x[i] * x[i]\n" for n in SHADOWING)
    results = _check(text + "other(x[i]) -> y[i] = exp(x[i]) / size(i)\n")
    (tmp_path / "hostile_mod.py").write_text(api.render_module(results, "t.rules"))
    script = (f"import numpy as np, hostile_mod as m\nfrom runtime.tangents import unthunk\n"
              f"x = np.array([1.0, -2.0, 3.0])\n"
              f"for n in {SHADOWING!r}:\n"
              f"    y, pb = getattr(m, n + '_rrule')(x, 2.0)\n"
              f"    _, dx, ds = map(unthunk, pb(np.ones(3)))\n"
              f"    assert np.allclose(y, 2 * x * x) and np.allclose(dx, 4 * x) and np.isclose(ds, (x * x).sum())\n"
              f"    assert np.allclose(getattr(m, n)(x, 2.0), 2 * x * x), n\n"
              f"assert np.allclose(m.other(x), np.exp(x) / 3) and np.allclose(m.other(np.ones(0)), [])\n")
    r = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, PYTHONPATH=f"{tmp_path}{os.pathsep}{ROOT}"))
    assert r.returncode == 0, r.stderr


def test_names_reserved_by_the_module_and_dunders_get_positioned_errors():
    for text, what in [("OPS(x[i]) -> y[i] = x[i]\n", "generated module uses it"),
                       ("__init__(x[i]) -> y[i] = x[i]\n", "reserved"),
                       ("f(__x[i]) -> y[i] = __x[i]\n", "reserved"),
                       ("f(x[__i]) -> y[__i] = x[__i]\n", "reserved")]:
        with pytest.raises(DeriveError, match=what) as e:
            api.derive_text(text, "t.rules")
        assert str(e.value).startswith("t.rules:1:")


ZQ_RULES = """\
zqf(zqx[zqi], zqs) -> zqy[zqi] = zqs * exp(zqx[zqi]) / size(zqi)
zqk(zqx[zqi,zqd], zqz[zqj,zqd], zqb[zqj]) -> zqy[zqi] = sum(zqj, exp(-sum(zqd, (zqx[zqi,zqd] - zqz[zqj,zqd])**2)) * zqb[zqj])
zqm(zqA[zqi,zqj], zqB[zqj,zqk]) -> (zqC[zqi,zqk], zqD[]):
    zqC[zqi,zqk] = inv(zqA)[zqi,zqj] * zqB[zqj,zqk]
    zqD[] = logdet(zqA) + det(zqA)
zqs(zqx[zqi]) -> zqy[zqi]:
    zqe[zqi] = exp(zqx[zqi])
    zqt[] = sum(zqi, zqe[zqi])
    zqy[zqi] = zqe[zqi] / zqt[]
"""


def test_generated_code_uses_no_bare_name_a_user_could_own():
    """The invariant behind the mangling: every name in generated code that does not start with '_' is a user's
    (here all start with 'zq'), an extent (n_<index>), or in codegen's list of its own names, which user names
    are kept apart from. A new internal name that breaks this must be added to that list."""
    import builtins
    import io
    import keyword
    import tokenize

    from derive.emission import numpy_module as codegen

    results = api.derive_text(ZQ_RULES, "zq.rules", verify_rules=False)
    src = api.render_module(results, "zq.rules")
    # + the parameters of the template's helpers _recip(n) and _add(a, b), local to those helpers
    allowed = set(codegen._BARE_INTERNAL) | set(dir(builtins)) | {"n", "b"}
    seen = set()
    toks = list(tokenize.generate_tokens(io.StringIO(src).readline))
    for k, t in enumerate(toks):
        if t.type != tokenize.NAME or keyword.iskeyword(t.string) or (k and toks[k - 1].string in (".", "from")):
            continue  # attributes, and the package in `from runtime.tangents import ...`, bind nothing
        if toks[k + 1].string == "=" and toks[k - 1].string in ("(", ","):
            continue  # a keyword argument (np.einsum(..., optimize=...))
        n = t.string
        seen.add(n)
        # n__batch: the extent of the batched twins' index _batch (derive.lowering.batching), an IR name no user name maps to
        assert n.startswith(("_", "zq", "dzq", "n_zq", "n__batch")) or n in allowed, n
    assert {"zqA", "dzqA", "np", "n_zqi"} <= seen


# -- 2. the cache ---------------------------------------------------------------------------------------------

SOFTPLUS = "softplus_h(x[i]) -> y[i] = log(1 + exp(x[i]))\n"


def _fresh_define(monkeypatch):
    import runtime.rule_cache as rc

    monkeypatch.setattr(rc, "_MEMO", {})
    return rc


def _entries(d):
    return [p for p in d.iterdir() if not p.name.startswith(".")]


def test_cache_is_owner_only_and_a_planted_entry_never_runs(cache, monkeypatch, tmp_path):
    rc = _fresh_define(monkeypatch)
    x = np.array([0.5, -1.0])
    op = rc.define(SOFTPLUS)
    assert np.allclose(op(x), np.log1p(np.exp(x)))
    assert stat.S_IMODE(os.stat(cache).st_mode) == 0o700
    (entry,) = _entries(cache)
    assert stat.S_IMODE(os.stat(entry).st_mode) == 0o600
    # an attacker plants code under the (public) key: with or without a checksum line of their own
    for planted in [f"open({str(tmp_path / 'PWN')!r}, 'w')\n",
                    "hmac-sha256 " + "0" * 64 + f"\nopen({str(tmp_path / 'PWN')!r}, 'w')\n"]:
        entry.write_text(planted)
        rc = _fresh_define(monkeypatch)
        op = rc.define(SOFTPLUS)
        assert not (tmp_path / "PWN").exists()
        assert np.allclose(op(x), np.log1p(np.exp(x)))


@pytest.mark.parametrize("content", ["", "hmac-sha256 ", "# truncated\n", None])
def test_corrupt_define_entries_are_regenerated_silently(cache, monkeypatch, capsys, content):
    rc = _fresh_define(monkeypatch)
    rc.define(SOFTPLUS)
    (entry,) = _entries(cache)
    data = entry.read_bytes()
    entry.write_bytes(data[: len(data) // 2] if content is None else content.encode())
    rc = _fresh_define(monkeypatch)
    op = rc.define(SOFTPLUS)
    assert op.name == "softplus_h" and "Traceback" not in capsys.readouterr().err


def test_world_writable_or_foreign_cache_dir_is_refused_with_a_message(tmp_path, monkeypatch, capsys):
    d = tmp_path / "open"
    d.mkdir()
    os.chmod(d, 0o777)
    monkeypatch.setenv("TENSOR_RULES_CACHE", str(d))
    (d / f"r{'0' * 24}.py").write_text("raise SystemExit('planted')\n")
    with pytest.raises(trusted_cache.UntrustedCache, match="writable by others"):
        trusted_cache.private_dir()
    rc = _fresh_define(monkeypatch)
    op = rc.define(SOFTPLUS)  # still works, without the cache
    assert np.allclose(op(np.zeros(1)), [np.log(2.0)])
    assert "not using the cache" in capsys.readouterr().err
    assert sorted(p.name for p in d.iterdir()) == [f"r{'0' * 24}.py"]  # nothing written there
    trusted_cache._warned.clear()
    p = main("-e", "B = inv(A)", "-q", cache=d)
    assert p.returncode == 0 and "not using the cache" in p.stderr
    assert sorted(p.name for p in d.iterdir()) == [f"r{'0' * 24}.py"]


def test_foreign_owner_is_refused(tmp_path, monkeypatch):
    st_ = os.stat(tmp_path)
    monkeypatch.setattr(os, "getuid", lambda: st_.st_uid + 1)
    with pytest.raises(trusted_cache.UntrustedCache, match="owned by another user"):
        trusted_cache._check_private(tmp_path, st_)


def _derive_entry(cache):
    (e,) = [p for p in (cache / "derive").iterdir() if not p.name.startswith(".")]
    return e


def test_planted_derive_cache_entry_is_not_copied_into_out(tmp_path, cache):
    f = tmp_path / "t.rules"
    f.write_text(RULE)
    assert main(str(f), "-q", "--out", str(tmp_path / "o"), cache=cache).returncode == 0
    entry = _derive_entry(cache)
    head, payload = entry.read_text().split("\n", 1)
    doc = json.loads(payload)
    doc["files"]["t.py"] = f"open({str(tmp_path / 'PWN')!r}, 'w')\n"
    entry.write_text(head + "\n" + json.dumps(doc))  # the old signature no longer matches
    p = main(str(f), "-q", "--out", str(tmp_path / "o2"), cache=cache)
    assert p.returncode == 0, p.stderr
    assert "PWN" not in (tmp_path / "o2" / "t.py").read_text()
    assert (tmp_path / "o2" / "t.py").read_text() == (tmp_path / "o" / "t.py").read_text()


@pytest.mark.parametrize("planted", ["{}", "[]", "null", '{"ok": true, "rules": []}', "", "{"])
def test_malformed_derive_entries_are_regenerated_without_traceback(tmp_path, cache, planted):
    f = tmp_path / "t.rules"
    f.write_text(RULE)
    assert main(str(f), "-q", cache=cache).returncode == 0
    entry = _derive_entry(cache)
    entry.write_text(planted)
    p = main(str(f), "-q", cache=cache)
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr
    # even correctly signed, a wrong shape is regenerated
    key = entry.stem
    trusted_cache.write("derive", entry.name, key, planted.encode())
    p = main(str(f), "-q", cache=cache)
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr


# -- 3. output that never destroys what it did not write ------------------------------------------------------

def _snapshot(d: Path):
    return {p.relative_to(d).as_posix(): p.read_bytes() for p in d.rglob("*") if p.is_file()
            and "__pycache__" not in p.parts}


def test_out_into_the_packages_generated_keeps_every_shipped_file(tmp_path, cache):
    import shutil

    tree = tmp_path / "tree"
    for part in ("primitives", "derive", "runtime", "templates", "rules", "generated"):
        shutil.copytree(ROOT / part, tree / part, ignore=shutil.ignore_patterns("__pycache__"))
    before = _snapshot(tree / "generated")
    f = tmp_path / "t.rules"
    f.write_text(RULE)
    p = run(str(f), "--out", str(tree / "generated"), "-q", cwd=tree, env={"TENSOR_RULES_CACHE": str(cache),
                                                                        "PYTHONPATH": str(tree)})
    assert p.returncode == 0, p.stderr
    after = _snapshot(tree / "generated")
    assert {k: v for k, v in after.items() if k in before} == before
    assert set(after) - set(before) == {"t.py", "cuda/t.cu", "cuda/t.json", "cpu/t.cpp", "cpu/t.json"}
    r = subprocess.run([sys.executable, "-c", "import generated, generated.t; print(generated.matmul.__name__)"],
                       cwd=tree, env=dict(os.environ, PYTHONPATH=str(tree)), capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr


def test_out_refuses_to_replace_a_file_it_did_not_write(tmp_path, cache):
    out = tmp_path / "o"
    out.mkdir()
    (out / "t.py").write_text("precious = 1\n")
    f = tmp_path / "t.rules"
    f.write_text(RULE)
    p = main(str(f), "--out", str(out), "-q", cache=cache)
    assert p.returncode == 2 and "not written by derive-rules" in p.stderr
    assert (out / "t.py").read_text() == "precious = 1\n" and not (out / "cuda").exists()
    # a file it did write for the same source is replaced; another source's file is not
    out2 = tmp_path / "o2"
    assert main(str(f), "--out", str(out2), "-q", cache=cache).returncode == 0
    f.write_text(RULE.replace("x[i] * x[i]", "x[i] * x[i] * x[i]"))
    first = (out2 / "t.py").read_text()
    assert main(str(f), "--out", str(out2), "-q", cache=cache).returncode == 0
    assert (out2 / "t.py").read_text() != first
    (out2 / "cuda" / "t.json").write_text(json.dumps({"generated_from": "other.rules"}))
    f.write_text(RULE)
    p = main(str(f), "--out", str(out2), "-q", cache=cache)
    assert p.returncode == 2 and "t.json exists and was not written" in p.stderr
    assert (out2 / "t.py").read_text() != first  # nothing of the refused run was written


def test_out_files_follow_the_umask(tmp_path, cache):
    f = tmp_path / "t.rules"
    f.write_text(RULE)
    p = subprocess.run(["sh", "-c", f"umask 022 && {sys.executable} -m derive.cli {f} --out {tmp_path / 'o'} -q"],
                       cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT), TENSOR_RULES_CACHE=str(cache)),
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert stat.S_IMODE(os.stat(tmp_path / "o" / "t.py").st_mode) == 0o644


def test_a_killed_swap_is_finished_by_the_next_run_and_blocks_import_meanwhile(tmp_path, monkeypatch):
    out = tmp_path / "generated"
    out.mkdir()
    old = {"a.py": "# @generated from rules/a.rules by `derive-rules` -- x\nA = 1\n",
           "b.py": "# @generated from rules/b.rules by `derive-rules` -- x\nB = 1\n",
           "__init__.py": output.init_source([], {})}
    output.write_atomically(old, out)
    new = {k: v.replace("= 1", "= 2") for k, v in old.items()}
    real = output.finish_interrupted_swap
    calls = []

    def killed(d, staged=()):  # the first call (recovery of a previous run) passes; the swap itself dies after one rename
        calls.append(d)
        if len(calls) == 2:
            plan = json.loads((d / output.JOURNAL).read_text())
            tmp, target = plan["moves"][0]
            os.replace(d / tmp, d / target)
            raise SystemExit("SIGKILL")
        return real(d, staged)

    monkeypatch.setattr(output, "finish_interrupted_swap", killed)
    with pytest.raises(SystemExit):
        output.write_atomically(new, out)
    monkeypatch.setattr(output, "finish_interrupted_swap", real)
    assert (out / output.JOURNAL).exists()
    # a reader of the half-switched package is stopped, with a message
    r = subprocess.run([sys.executable, "-c", "import generated"], cwd=tmp_path, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode != 0 and "half-updated" in r.stderr
    assert output.finish_interrupted_swap(out)
    assert {k: (out / k).read_text() for k in new} == new and not (out / output.JOURNAL).exists()


@pytest.mark.parametrize("seed", range(3))
def test_sigkill_at_random_moments_leaves_the_old_or_the_new_set(tmp_path, seed):
    """Kill a writer at random moments: afterwards (after the recovery any next run does first) the directory
    holds exactly the old set or exactly the new set."""
    rng = random.Random(seed)
    out = tmp_path / "o"
    names = [f"m{k}.py" for k in range(12)]
    old = {n: f"# @generated from rules/x.rules by `derive-rules` -- x\nV = 'old'\n" + "#" * 20000 for n in names}
    new = {n: v.replace("'old'", "'new'") for n, v in old.items()}
    output.write_atomically(old, out)
    (tmp_path / "new.json").write_text(json.dumps(new))
    script = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); from pathlib import Path; from derive import output\n"
              f"import json; new = json.loads(Path({str(tmp_path / 'new.json')!r}).read_text())\n"
              f"print('go', flush=True); output.write_atomically(new, Path({str(out)!r}))\n")
    for _ in range(6):
        p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE)
        p.stdout.readline()
        time.sleep(rng.uniform(0, 0.03))
        p.kill()
        p.wait()
        output.finish_interrupted_swap(out)
        state = {n: (out / n).read_text() for n in names}
        assert state in (old, new)
        output.write_atomically(old, out)


@pytest.mark.parametrize("sig, code, word, seed", [(signal.SIGINT, 130, "interrupted", 10),
                                                   (signal.SIGTERM, 143, "terminated", 11)], ids=["SIGINT", "SIGTERM"])
def test_a_signal_at_random_moments_exits_cleanly(tmp_path, sig, code, word, seed):
    """SIGINT or SIGTERM while importing, deriving, rendering, writing or printing: one message, exit 130 or 143,
    no traceback, and no staged temporary file left behind."""
    rng = random.Random(seed)
    f = tmp_path / "t.rules"
    f.write_text(RULE + "cube(x[i]) -> y[i] = x[i] * x[i] * x[i]\n")
    codes = set()
    for k in range(5):
        env = dict(os.environ, PYTHONPATH=str(ROOT), TENSOR_RULES_CACHE=str(tmp_path / f"c{k % 2}"))
        p = subprocess.Popen([sys.executable, "-c", f"import sys; sys.argv[0] = 'derive-rules'; print('up', flush=True)\n"
                              f"from derive.cli import main; sys.exit(main({[str(f), '--out', str(tmp_path / 'o')] + (['--no-cache'] if k % 2 == 0 else [])!r}))"],
                             cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        p.stdout.readline()
        # the first signal lands early in an uncached run (SymPy is still being imported), so one run is surely
        # interrupted (on an idle machine a whole run can finish within the random window); the others land anywhere
        time.sleep(0.3 if k == 0 else rng.uniform(0.0, 0.8))
        p.send_signal(sig)
        out, err = p.communicate(timeout=300)
        codes.add(p.returncode)
        assert "Traceback" not in err, err
        assert p.returncode in (0, code), (p.returncode, err)
        if p.returncode == code:
            assert err.strip().splitlines()[-1].startswith(f"derive-rules: {word}; "), err
        leftovers = [q.name for q in tmp_path.rglob(".tmp-*")]
        assert not leftovers, leftovers
    assert code in codes


# -- 4. undecodable rule files --------------------------------------------------------------------------------

@pytest.mark.parametrize("data, where", [
    ("f(x[i]) -> y[i] = x[i]  # café\n".encode("latin-1"), "1:30"),
    (RULE.encode("utf-16"), "1:1"),
    (b"f(x[i]) -> y[i] = x[i]\n\n\x80\n", "3:1"),
])
def test_undecodable_rule_files_exit_2_with_the_position(tmp_path, cache, data, where):
    f = tmp_path / "bad.rules"
    f.write_bytes(data)
    p = main(str(f), "-q")
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    assert p.stderr.startswith(f"{f}:{where}: error: not UTF-8 text"), p.stderr


def test_utf8_bom_is_accepted(tmp_path, cache):
    f = tmp_path / "bom.rules"
    f.write_bytes(b"\xef\xbb\xbf" + RULE.encode())
    p = main(str(f), "-q")
    assert p.returncode == 0, p.stderr


@pytest.mark.parametrize("raised, code, word", [("KeyboardInterrupt", 130, "interrupted"),
                                                  ("Terminated", 143, "terminated")])
def test_a_signal_python_wraps_in_runtime_error_still_exits_cleanly(monkeypatch, capsys, raised, code, word):
    """Python 3.11 reports a KeyboardInterrupt raised while a class is created (a dataclass's __set_name__, as a
    module of the command imports) as "RuntimeError: Error calling __set_name__" from it: the same one line and
    exit code as any Ctrl-C (found when test_a_signal_at_random_moments_exits_cleanly's SIGINT landed there)."""
    import derive.cli as cli

    class D:
        def __set_name__(self, owner, name):
            raise (cli.Terminated if raised == "Terminated" else KeyboardInterrupt)()

    def _main(argv):
        class C:                      # noqa: F841 - created for its __set_name__
            d = D()
        return 0
    monkeypatch.setattr(cli, "_main", _main)
    assert cli.main([]) == code
    assert capsys.readouterr().err.strip().startswith(f"derive-rules: {word}; ")
    monkeypatch.setattr(cli, "_main", lambda argv: (_ for _ in ()).throw(RuntimeError("not a signal")))
    with pytest.raises(RuntimeError, match="not a signal"):
        cli.main([])
