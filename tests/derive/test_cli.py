"""The derive-rules command: output, --json, --check, --out, exit codes, caching and atomic writes."""
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from derive import cli, outcome_cache, output, pipeline

ROOT = Path(__file__).resolve().parents[2]


def run(*args, env=None, cwd=None):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "derive.cli", *args], capture_output=True, text=True,
                          env=e, cwd=cwd or ROOT, timeout=300)


def test_expression_shows_matrix_forms(cache):
    p = run("-e", "B = inv(A)", env={"TENSOR_RULES_CACHE": str(cache)})
    assert p.returncode == 0, p.stderr
    assert "pushforward  dB = -B·dA·B" in p.stdout
    assert "pullback     dA = -Bᵀ·dB·Bᵀ" in p.stdout


# The whole library, derived afresh, in the next three tests: the native kernels' check (compiling and running 49
# ops' kernels, ~35 s a run) is CI's `derive-rules --check --no-cache` and tests/runtime's, not theirs
NO_NATIVE = {"TENSOR_RULES_NATIVE": "0"}


@pytest.fixture(scope="module")
def library_cache(tmp_path_factory):
    """A cache holding the shipped library's outcomes, derived once for this module by the code under test
    (without native kernels): the tests about what the command prints, checks and exits with read it instead of
    each deriving the whole library again (about 17 s of CPU each)."""
    d = tmp_path_factory.mktemp("library") / "cache"
    p = run("--no-write", "-q", env={"TENSOR_RULES_CACHE": str(d), **NO_NATIVE})
    assert p.returncode == 0, p.stderr
    return d


def test_json_covers_every_shipped_rule(library_cache):
    p = run("--json", "--no-write", env={"TENSOR_RULES_CACHE": str(library_cache), **NO_NATIVE})
    assert p.returncode == 0, p.stderr
    rules = json.loads(p.stdout)
    names = {r["name"] for r in rules}
    shipped = set()
    for f in (ROOT / "rules").glob("*.rules"):
        from derive.language.parser import parse_file
        shipped |= {r.name for r in parse_file(f.read_text(), str(f)).rules}
    assert names == shipped
    assert all(r["verified"] for r in rules)
    inv = next(r for r in rules if r["name"] == "inv")
    assert inv["pullback"][0]["matrix_form"] == "dA = -Bᵀ·dB·Bᵀ"
    assert inv["verification"]["adjoint_error"] < 1e-10


@pytest.mark.slow
def test_check_passes_on_the_committed_generated_dir(library_cache):
    p = run("--check", "-q", env={"TENSOR_RULES_CACHE": str(library_cache), **NO_NATIVE})
    assert p.returncode == 0, p.stderr + p.stdout


def test_bad_input_exits_2_without_traceback(tmp_path, cache):
    f = tmp_path / "bad.rules"
    f.write_text("f(x[i]) -> y[i] = exq(x[i])\n")
    p = run(str(f), env={"TENSOR_RULES_CACHE": str(cache)})
    assert p.returncode == 2
    assert "Traceback" not in p.stderr
    assert "bad.rules:1:19: error: in rule 'f': unknown function 'exq'" in p.stderr
    assert "^^^" in p.stderr


def _caret_column(stderr_lines, k):
    """The 1-based column of the caret under the source line echoed at stderr_lines[k]."""
    return stderr_lines[k + 2].index("^") - 4 + 1


def test_every_independent_error_of_a_file_is_reported(tmp_path, cache):
    lines = ["ok(x[i]) -> y[i] = sin(x[i])",
             "typo(A[i,k], B[k,j]) -> C[i,j] = A[i,k] * B[kk,j]",
             "block(x[i]) -> y[i]:",
             "    t[i] = exp(x[i]) $ 2",
             "    y[i] = t[i]",
             "unknown(x[i]) -> y[i] = x[i] * w[i]",
             "syntax(x[i]) -> y[i] = x[i] +* 2"]
    f = tmp_path / "several.rules"
    f.write_text("\n".join(lines) + "\n")
    p = run(str(f), env={"TENSOR_RULES_CACHE": str(cache)})
    assert p.returncode == 2 and "Traceback" not in p.stderr
    err = p.stderr.splitlines()
    heads = [k for k, e in enumerate(err) if e.startswith(str(f))]
    # one error per bad rule, in the order of the file, each followed by its line and a caret under the token
    expected = [(2, "kk"), (4, "$"), (6, "w"), (7, "*")]
    assert len(heads) == len(expected) == len(err) // 3, p.stderr
    for k, (line, token) in zip(heads, expected):
        col = lines[line - 1].index(token, lines[line - 1].index("=")) + 1
        assert err[k].startswith(f"{f}:{line}:{col}: error: ")
        assert err[k + 1] == "    " + lines[line - 1]
        assert _caret_column(err, k) == col
    assert "index 'kk' appears once" in err[heads[0]] and "unknown name 'w'" in err[heads[2]]


def test_many_errors_are_cut_after_ten(tmp_path, cache):
    f = tmp_path / "many.rules"
    lines = [f"r{k}(x[i]) -> y[i] = x[i] * w{k}[i]" for k in range(13)]
    f.write_text("\n".join(lines))
    p = run(str(f), env={"TENSOR_RULES_CACHE": str(cache)})
    assert p.returncode == 2
    err = p.stderr.splitlines()
    assert [e.split(": error:")[0] for e in err[0:30:3]] == [f"{f}:{k + 1}:{lines[k].index('w') + 1}"
                                                             for k in range(10)]
    assert err[30:] == ["and 3 more errors"]


def test_failing_rule_exits_1_and_writes_nothing(tmp_path, cache):
    f = tmp_path / "nan.rules"
    f.write_text("shifted_log(x[i]) -> y[i] = log(x[i] - 10)\n")
    out = tmp_path / "out"
    p = run(str(f), "--out", str(out), env={"TENSOR_RULES_CACHE": str(cache)})
    assert p.returncode == 1
    assert "FAILED" in p.stdout
    assert not out.exists()


def test_out_writes_an_importable_module(tmp_path, cache):
    f = tmp_path / "mine.rules"
    f.write_text("# my rules\nsoftplus2(x[i]) -> y[i] = log(1 + exp(x[i]))\n"
                 "gram(X[i,j]) -> G[j,k] = X[i,j] * X[i,k]\n")
    out = tmp_path / "out"
    p = run(str(f), "--out", str(out), env={"TENSOR_RULES_CACHE": str(cache)})
    assert p.returncode == 0, p.stderr
    code = (
        "import sys, numpy as np; sys.path.insert(0, %r); import mine;"
        "X = np.arange(6.).reshape(3, 2) / 7;"
        "G, pb = mine.gram_rrule(X); g = pb(np.ones((2, 2)))[1];"
        "print(np.allclose(g, 2 * X @ np.ones((2, 2))), np.allclose(mine.softplus2(np.zeros(2)), np.log(2)))"
    ) % str(out)
    q = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert q.stdout.split() == ["True", "True"], q.stderr
    p2 = run(str(f), "--out", str(out), "--check", env={"TENSOR_RULES_CACHE": str(cache)})
    assert p2.returncode == 0
    (out / "mine.py").write_text((out / "mine.py").read_text() + "\n# edited\n")
    p3 = run(str(f), "--out", str(out), "--check", env={"TENSOR_RULES_CACHE": str(cache)})
    assert p3.returncode == 1 and "mine.py" in p3.stderr


def test_cached_rerun_does_not_derive_again(tmp_path, monkeypatch, cache):
    text = "twice(x[i]) -> y[i] = 2 * x[i]\n"
    first = pipeline.process(text, "t.rules", "t")
    from derive import api

    def boom(*a, **k):
        raise AssertionError("derived again despite an unchanged input")

    monkeypatch.setattr(api, "derive_text", boom)
    assert pipeline.process(text, "t.rules", "t") == first


def test_cache_entry_without_cuda_does_not_serve_a_run_with_cuda(cache):
    """`derive-rules rules/nn.rules --latex` caches no .cu; a later shipped run must not drop generated/cuda/nn.*."""
    text = "twice(x[i]) -> y[i] = 2 * x[i]\n"
    assert not [f for f in pipeline.process(text, "t.rules", "t", kernels=False)["files"] if f.startswith("cuda/")]
    assert "cuda/t.cu" in pipeline.process(text, "t.rules", "t", kernels=True)["files"]


def test_interrupted_run_leaves_generated_intact(tmp_path, monkeypatch, cache):
    out = tmp_path / "gen"
    out.mkdir()
    (out / "old.py").write_text("# @generated from rules/old.rules by `derive-rules` -- do not edit by hand.\n")
    (out / "mine.py").write_text("MINE = 1\n")  # not derive-rules' own: never removed
    files = {"a.py": "A = 1\n", "b.py": "B = 2\n"}
    real_replace = os.replace
    calls = []

    def flaky(src, dst):
        calls.append(dst)
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", flaky)
    output.write_atomically(files, out, remove_stale=True)
    assert sorted(p.name for p in out.iterdir()) == ["a.py", "b.py", "mine.py"]

    # an interrupt while deriving (before any write) leaves the directory as it was
    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(pipeline, "derive_file", interrupted)
    before = {p.name: p.read_text() for p in out.iterdir()}
    assert cli.main(["--no-cache", "--out", str(out), str(ROOT / "rules" / "linalg.rules")]) == 130
    assert {p.name: p.read_text() for p in out.iterdir()} == before


@pytest.mark.slow
def test_one_file_alone_generates_the_same_module_as_the_whole_library(tmp_path, cache):
    """Fresh-name counters restart per rule: a file's code does not depend on what was derived before it."""
    out = tmp_path / "out"
    p = run("rules/nn.rules", "--out", str(out), "--no-cache", env={"TENSOR_RULES_CACHE": str(cache)})
    assert p.returncode == 0, p.stderr
    assert (out / "nn.py").read_text() == (ROOT / "generated" / "nn.py").read_text()


@pytest.mark.slow
def test_closed_stdout_exits_141_without_traceback(library_cache):
    """`derive-rules --latex | head`: the reader goes away before the output is written."""
    p = subprocess.Popen([sys.executable, "-m", "derive.cli", "--latex", "--no-write"], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=dict(os.environ, TENSOR_RULES_CACHE=str(library_cache), **NO_NATIVE))
    p.stdout.close()
    err = p.stderr.read().decode()
    assert p.wait(timeout=300) == cli.EXIT_BROKEN_PIPE == 141, err
    assert "Traceback" not in err and "BrokenPipeError" not in err, err


def test_summaries_count_one_rule_in_the_singular(capsys, cache):
    assert cli.main(["-e", "B = inv(A)", "-q"]) == 0
    assert capsys.readouterr().out.startswith("1 rule, 1 verified, 0 failed (")
    out = io.StringIO()
    rule = {"signature": "f(x[i]) -> y[i]", "source": "t.rules:1", "pushforward": [], "pullback": [],
            "verified": True, "seconds": 0.0, "verification": {"fd_error": 0.0, "adjoint_error": 0.0}}
    cli.print_table([{"rules": [rule]}], out=out)
    assert out.getvalue().splitlines()[-1] == "1 rule, 1 verified, 0 failed"
    cli.print_table([{"rules": [rule, dict(rule, verified=False)]}], out=out)
    assert out.getvalue().splitlines()[-1] == "2 rules, 1 verified, 1 failed"


def test_the_cli_cache_and_define_share_the_engine_fingerprint(tmp_path, monkeypatch):
    """Both caches key on one fingerprint of derive/, templates/ and the elementwise table, so an edited
    template or table row invalidates both."""
    from derive import fingerprint
    from runtime.rule_cache import cache_key

    assert outcome_cache.engine_fingerprint is fingerprint.engine_fingerprint
    assert "primitives" in fingerprint.SOURCES
    for d in ("derive", "templates", "primitives"):
        shutil.copytree(ROOT / d, tmp_path / d, ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "runtime").mkdir()
    shutil.copy(ROOT / "runtime" / "artefacts.py", tmp_path / "runtime" / "artefacts.py")   # names every output file
    assert fingerprint.fingerprint_of(tmp_path) == fingerprint.engine_fingerprint()
    key = cache_key("t(x[i]) -> y[i] = x[i]", None)
    monkeypatch.setattr(fingerprint, "ROOT", tmp_path)
    for edited in ("templates/numpy_module.py.j2", "templates/cpu_math.h", "primitives/elementwise.py",
                   "primitives/matrix/inv.py", "runtime/artefacts.py"):
        with open(tmp_path / edited, "a") as f:
            f.write("# changed\n")
        fingerprint.engine_fingerprint.cache_clear()
        try:
            new = cache_key("t(x[i]) -> y[i] = x[i]", None)
            assert new != key, edited
            key = new
        finally:
            fingerprint.engine_fingerprint.cache_clear()
