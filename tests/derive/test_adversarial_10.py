"""Issue 10, second pass: hostile input the first suite (test_hostile.py) did not try, each a regression test.

Rule names that collide with another rule's exports, cache entries that are FIFOs or directories, a reader of a
half-switched --out directory, rule files named like the modules generated code imports, LaTeX that a file name
or an underscore breaks, and error echoes that would send a rule file's escape sequences to the terminal.
"""
from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from derive import api, cli, output
from derive.language.errors import RuleError
from runtime import artefacts, trusted_cache

ROOT = Path(__file__).resolve().parents[2]
RULE = "sq(x[i]) -> y[i] = x[i] * x[i]\n"


def _env(**extra):
    return {**os.environ, "PYTHONPATH": str(ROOT), **extra}


# -- a rule may not take a name another rule exports ---------------------------------------------------------

@pytest.mark.parametrize("text, line, other", [
    ("f(x[i]) -> y[i] = x[i] * x[i]\nf_frule(x[i]) -> y[i] = 3 * x[i]\n", 2, "the frule of rule 'f'"),
    ("f(x[i]) -> y[i] = x[i] * x[i]\n\nf_rrule(x[i]) -> y[i] = 3 * x[i]\n", 3, "the rrule of rule 'f'"),
    ("g_frule(x[i]) -> y[i] = 3 * x[i]\ng(x[i]) -> y[i] = x[i]\n", 2, "rule 'g_frule'"),
])
def test_a_rule_named_like_another_rules_frule_or_rrule_is_a_positioned_error(text, line, other):
    # before: both were emitted into one dict; `f_frule` replaced f's frule, and verification failed with
    # "TypeError: f_frule() takes 1 positional argument but 2 were given"
    with pytest.raises(RuleError) as e:
        api.derive_text(text, "t.rules", verify_rules=False)
    assert str(e.value).startswith(f"t.rules:{line}:1: error: ") and other in str(e.value), str(e.value)


def test_names_that_only_look_like_exports_still_work():
    rs = api.derive_text("f(x[i]) -> y[i] = x[i] * x[i]\nf_frule_x(x[i]) -> y[i] = 3 * x[i]\n"
                         "frule(x[i]) -> y[i] = 2 * x[i]\nf_pullback(x[i]) -> y[i] = 5 * x[i]\n", "t.rules")
    assert all(r.ok for r in rs), [(r.name, r.error) for r in rs]


# -- cache entries that are not regular files ---------------------------------------------------------------

class _Blocked(Exception):
    """Not an OSError: code that swallows OSError must not mistake the alarm for a failed open."""


class _Alarm:
    """Fail (instead of hanging the suite) if the body blocks: a FIFO opened for reading waits for a writer."""

    def __enter__(self):
        def fire(*_):
            raise _Blocked("blocked on a cache entry")
        self.old = signal.signal(signal.SIGALRM, fire)
        signal.alarm(10)

    def __exit__(self, *exc):
        signal.alarm(0)
        signal.signal(signal.SIGALRM, self.old)


@pytest.mark.parametrize("kind", ["fifo", "dir", "symlink"])
def test_a_cache_entry_that_is_a_fifo_directory_or_link_is_a_miss_never_a_hang_or_traceback(cache, kind, tmp_path):
    trusted_cache.write(None, "rk.py", "k", b"X = 1\n")
    assert trusted_cache.read(None, "rk.py", "k") == b"X = 1\n"
    entry = cache / "rk.py"
    entry.unlink()
    if kind == "fifo":
        os.mkfifo(entry)          # before: read() blocked forever opening it
    elif kind == "dir":
        entry.mkdir()             # before: IsADirectoryError traceback out of define()
    else:
        (tmp_path / "elsewhere.py").write_bytes(b"X = 2\n")
        entry.symlink_to(tmp_path / "elsewhere.py")
    with _Alarm():
        assert trusted_cache.read(None, "rk.py", "k") is None
    assert kind == "dir" or not os.path.lexists(entry)   # a FIFO or link is removed; a directory is left alone
    assert (tmp_path / "elsewhere.py").exists() if kind == "symlink" else True


@pytest.mark.parametrize("kind", ["fifo", "dir"])
def test_a_key_file_that_is_a_fifo_or_directory(cache, kind):
    trusted_cache.write(None, "rk.py", "k", b"X = 1\n")
    secret = cache / ".secret"
    secret.unlink()
    os.mkfifo(secret) if kind == "fifo" else secret.mkdir()
    with _Alarm():
        if kind == "fifo":  # replaced by a fresh key: the old entry no longer verifies and is regenerated
            assert trusted_cache.read(None, "rk.py", "k") is None
            assert secret.is_file() and len(secret.read_bytes()) == 32
        else:               # cannot be replaced without deleting a directory: the cache is not used, with a reason
            with pytest.raises(trusted_cache.UntrustedCache, match="private key file"):
                trusted_cache.read(None, "rk.py", "k")


def test_define_and_derive_rules_work_past_a_fifo_entry(cache, tmp_path):
    """End to end, as a user meets it: the entry define() and derive-rules would read is a FIFO."""
    script = ("import numpy as np, runtime\n"
              "op = runtime.define('B[i] = 3 * A[i]', name='q')\n"
              "print(op(np.array([2.0]))[0])\n")
    env = _env(TENSOR_RULES_CACHE=str(cache))
    r = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "6.0", r.stderr
    (entry,) = [p for p in cache.iterdir() if p.name.startswith("r")]
    entry.unlink()
    os.mkfifo(entry)
    r = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "6.0" and "Traceback" not in r.stderr, r.stderr
    # the same for derive-rules' own cache (a signed JSON entry per rule file)
    f = tmp_path / "t.rules"
    f.write_text(RULE)
    cmd = [sys.executable, "-m", "derive.cli", str(f), "-q"]
    assert subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, timeout=120).returncode == 0
    for p in (cache / "derive").iterdir():
        p.unlink()
        os.mkfifo(p)
    r = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "1 verified" in r.stdout, r.stderr


# -- a half-switched --out directory cannot be read as a mix -------------------------------------------------

def test_generated_modules_refuse_to_import_beside_a_swap_journal(tmp_path, cache):
    """--out with several modules has no __init__.py to guard it: each generated module checks for the journal
    a killed swap leaves (before: `import a, b` read a new a and an old b, silently)."""
    from runtime import registry

    assert registry.SWAP_JOURNAL == output.JOURNAL
    for n, k in (("a", 2), ("b", 3)):
        (tmp_path / f"{n}.rules").write_text(f"{n}(x[i]) -> y[i] = {k} * x[i]\n")
    out = tmp_path / "o"
    assert cli.main([str(tmp_path / "a.rules"), str(tmp_path / "b.rules"), "--out", str(out), "-q"]) == 0
    imp = [sys.executable, "-c", "import a, b; print(a.a(2.0) + b.b(2.0))"]
    env = _env(PYTHONPATH=f"{out}{os.pathsep}{ROOT}")
    r = subprocess.run(imp, cwd=out, env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and float(r.stdout) == 10.0, r.stderr
    (out / output.JOURNAL).write_text(json.dumps({"moves": [], "removals": []}))
    r = subprocess.run(imp, cwd=out, env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode != 0 and "half-updated" in r.stderr, r.stderr
    assert output.finish_interrupted_swap(out)
    r = subprocess.run(imp, cwd=out, env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr


# -- rule files named like the modules generated code imports ------------------------------------------------

@pytest.mark.parametrize("stem, module", [("runtime", "rules_runtime"), ("numpy", "rules_numpy"),
                                          ("random", "rules_random"), ("functools", "rules_functools"),
                                          ("generated", "rules_generated"), ("signal_proc", "signal_proc"),
                                          ("nn", "nn"), ("sys", "rules_sys")])
def test_module_names_never_shadow_what_generated_code_imports(stem, module):
    assert artefacts.module_name(Path(f"{stem}.rules")) == module


def test_a_rule_file_named_numpy_or_random_gives_importable_modules(tmp_path, cache):
    # before: o/numpy.py and o/random.py, which shadow NumPy and the standard library for whoever imports from
    # o/: "partially initialized module 'numpy' has no attribute 'sqrt' (most likely due to a circular import)"
    for stem in ("numpy", "random", "runtime"):
        (tmp_path / f"{stem}.rules").write_text(f"{stem}_sq(x[i]) -> y[i] = x[i] * x[i]\n")
    files = [str(tmp_path / f"{s}.rules") for s in ("numpy", "random", "runtime")]
    assert cli.main(files + ["--out", str(tmp_path / "o"), "-q"]) == 0
    assert not {"numpy.py", "random.py", "runtime.py"} & {p.name for p in (tmp_path / "o").iterdir()}
    script = ("import numpy as np, rules_numpy, rules_random, rules_runtime\n"
              "x = np.array([3.0])\n"
              "print(float(rules_numpy.numpy_sq(x)[0] + rules_random.random_sq(x)[0] + rules_runtime.runtime_sq(x)[0]))")
    r = subprocess.run([sys.executable, "-c", script], cwd=tmp_path / "o", capture_output=True, text=True,
                       timeout=120, env=_env(PYTHONPATH=f"{tmp_path / 'o'}{os.pathsep}{ROOT}"))
    assert r.returncode == 0 and float(r.stdout) == 27.0, r.stderr


# -- LaTeX output that compiles whatever the names and file names hold --------------------------------------

def _tex_script_errors(tex: str) -> list:
    """Double subscripts/superscripts (`a_b_c`, `x_{1}_{i}`), a dangling `_`, unbalanced braces: what makes
    LaTeX stop with "Double subscript" or "Missing { inserted". A small model of TeX's math lexer."""
    errs = []
    stack = [{"_": False, "^": False}]
    k = 0

    def skip_arg(k):  # the argument of _ or ^: one token or a group
        while k < len(tex) and tex[k] == " ":
            k += 1
        if k >= len(tex) or tex[k] in "_^}&":
            errs.append(f"missing script argument at {k}")
            return k
        if tex[k] == "{":
            depth = 0
            while k < len(tex):
                depth += {"{": 1, "}": -1}.get(tex[k], 0) if tex[k - 1] != "\\" else 0
                k += 1
                if depth == 0:
                    return k
            errs.append("unbalanced group")
            return k
        if tex[k] == "\\":
            m = re.match(r"\\([A-Za-z]+|.)", tex[k:])
            return k + len(m.group(0))
        return k + 1

    while k < len(tex):
        c = tex[k]
        if c in "_^":
            if stack[-1][c]:
                errs.append(f"double {c} at {k}: {tex[max(0, k - 20):k + 10]!r}")
            stack[-1][c] = True
            k = skip_arg(k + 1)
            continue
        if c == "{":
            stack.append({"_": False, "^": False})
        elif c == "}":
            if len(stack) == 1:
                errs.append(f"unbalanced }} at {k}")
            else:
                stack.pop()
            stack[-1] = {"_": False, "^": False}
        elif c == "\\":
            m = re.match(r"\\([A-Za-z]+|.)", tex[k:])
            k += len(m.group(0))
            stack[-1] = {"_": False, "^": False}
            continue
        elif c != " ":
            stack[-1] = {"_": False, "^": False}
        k += 1
    if len(stack) != 1:
        errs.append("unbalanced {")
    return errs


def test_the_tex_model_catches_what_latex_rejects():
    assert _tex_script_errors(r"a_b_c") and _tex_script_errors(r"x_{1}_{i}") and _tex_script_errors(r"\mathrm{d}lambda_")
    assert not _tex_script_errors(r"{x_{1}}_{i} + \mathit{a\_b} + x_{1}^{\top} + \frac{a_{i}}{b_{j}}")


def _latex_of(text, label="t.rules"):
    buf = io.StringIO()
    rs = api.derive_text(text, label, verify_rules=False)
    cli.print_latex([{"rules": [r.to_json() for r in rs]}], out=buf)
    return buf.getvalue()


NAME = st.from_regex(r"[A-Za-z][A-Za-z0-9]?(_[A-Za-z0-9]{0,2}){0,3}", fullmatch=True).filter(
    lambda n: n.lower() not in {"i", "j", "w", "y"})


@settings(max_examples=30, deadline=None)
@given(NAME, st.from_regex(r"[a-z](_?[a-z0-9]){0,3}", fullmatch=True).filter(lambda n: n not in ("i", "w", "y")))
def test_latex_of_names_with_underscores_has_no_double_subscript(name, idx):
    # before: `a_b_c`, `x_` and `x_1[i, j_k]` printed as a_b_c, x_ and x_1_{ij_k}: LaTeX's "Double subscript"
    try:
        tex = _latex_of(f"f({name}[i,{idx}]: positive, w[{idx}]) -> y[i] = "
                        f"sum({idx}, log({name}[i,{idx}]) * w[{idx}]) + {name}[i,{idx}] * w[{idx}]\n")
    except RuleError:
        return  # a name the language reserves (a built-in function): refused with a position, fine
    body = [ln for ln in tex.splitlines() if not ln.startswith("%") and "aligned" not in ln]
    for ln in body:
        assert not _tex_script_errors(ln), (name, idx, ln, _tex_script_errors(ln))


def test_a_file_name_with_a_newline_stays_inside_the_latex_comment():
    tex = _latex_of(RULE, "a\n\\end{aligned}\\input{x}\r\nb.rules")
    lines = tex.splitlines()
    assert lines[0].startswith("% ") and lines[1] == "\\begin{aligned}", tex
    assert not any(ln.startswith("\\end{aligned}\\input") for ln in lines)


# -- error echoes never send a rule file's control characters to the terminal --------------------------------

def test_error_echo_shows_control_characters_visibly_and_keeps_the_caret_under_tabs():
    with pytest.raises(RuleError) as e:
        api.derive_text("f(x[i]) -> y[i] = x[i] \x1b[2J\x1b]0;owned\x07\n", "t\x1b[31m.rules")
    msg = str(e.value)
    assert "\x1b" not in msg and "\x07" not in msg, repr(msg)
    assert msg.startswith("t\ufffd[31m.rules:1:24: error: unexpected character '\\x1b'")
    line, caret = msg.splitlines()[1:3]
    assert line[4 + 23] == "\ufffd" and caret.index("^") == 4 + 23
    with pytest.raises(RuleError) as e:
        api.derive_text("f(x[i]) ->\ty[i] = \tq[i]\n", "t.rules")
    line, caret = str(e.value).splitlines()[1:3]
    assert line.expandtabs(8)[caret.expandtabs(8).index("^")] == "q"


# -- a planted swap journal is input, not a command ----------------------------------------------------------

def test_a_planted_swap_journal_moves_nothing_outside_out_or_over_the_users_files(tmp_path, cache):
    """A journal can arrive with a cloned repository. Before: `{"moves": [["payload", "/abs/victim.txt"]]}`
    made the next `derive-rules --out` replace victim.txt (outside --out) with the payload."""
    out = tmp_path / "gen"
    out.mkdir()
    victim, notes = tmp_path / "victim.txt", out / "notes.py"
    victim.write_text("precious\n")
    notes.write_text("mine = 1\n")
    (out / "payload").write_text("evil\n")
    (out / ".tmp-x").write_text("# @generated from x by `derive-rules` -- forged\nevil = 1\n")
    (out / "sub").symlink_to(tmp_path)
    (out / output.JOURNAL).write_text(json.dumps({
        "moves": [["payload", str(victim)], [".tmp-x", "notes.py"], [".tmp-x", "../victim.py"],
                  [".tmp-x", "sub/victim.py"], [".tmp-x", str(tmp_path / "abs.py")], ["payload", "new.py"]],
        "removals": [str(victim), "notes.py", "../victim.txt"]}))
    f = tmp_path / "t.rules"
    f.write_text(RULE)
    assert cli.main([str(f), "--out", str(out), "-q"]) == 0
    assert victim.read_text() == "precious\n" and notes.read_text() == "mine = 1\n"
    assert not (tmp_path / "victim.py").exists() and not (tmp_path / "abs.py").exists()
    assert not (out / "new.py").exists() and not (out / output.JOURNAL).exists() and (out / "t.py").exists()
