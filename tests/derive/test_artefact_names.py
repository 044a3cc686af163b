"""One name for every artefact of a rule file (issue #25, "Nothing lost"): its Python module, its CPU kernels and plan,
its CUDA kernels and plan are all called after the module (runtime.artefacts), so the runtime finds the kernels
beside the module and two files of one --out never write the same path.

Before: the module of `a b.rules` was rules_a_b.py but its kernels cpu/a_b.cpp (named from the file's stem by
another function), so they were never found and every call ran the NumPy code; `a-b.rules` and `a b.rules`
wrote the same cpu/a_b.cpp, and two -e expressions the same cpu/expr.cpp.
"""
from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from derive import cli
from runtime import artefacts, native

ROOT = Path(__file__).resolve().parents[2]
ok, why = native.available()
needs_native = pytest.mark.skipif(not ok, reason=f"native CPU kernels unavailable here: {why}")

# chains through erf (and no libm call): the native kernels are worth running for them (runtime.native runs only those)
RULES = {"erfexp": "(x[i]) -> y[i] = erf(x[i]) * exp(x[i])",
         "erftanh": "(x[i]) -> y[i] = erf(x[i]) * tanh(x[i])"}
WANT = {"erfexp": lambda v: math.erf(v) * math.exp(v), "erftanh": lambda v: math.erf(v) * math.tanh(v)}

# imports each module from DIR as a user would, calls each op with the native path counted
CHILD = """\
import json, sys
sys.path.insert(0, sys.argv[1])
import importlib
import numpy as np
from runtime import native
calls = []
real = native.call
native.call = lambda *a, **k: calls.append(a[1]) or real(*a, **k)
out = {}
for module, op in json.loads(sys.argv[2]):
    m = importlib.import_module(module)
    y = getattr(m, op)(np.linspace(-1.0, 1.0, 7))
    out[op] = {"y": [float(v) for v in y], "plan": native.plan_for(m) is not None, "native": calls.count(op)}
print(json.dumps(out))
"""


def _ops_run(out: Path, modules_ops) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT), TENSOR_RULES_NATIVE="1")
    r = subprocess.run([sys.executable, "-c", CHILD, str(out), json.dumps(modules_ops)], cwd=out, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def _check_native(out: Path, modules_ops):
    got = _ops_run(out, modules_ops)
    xs = [-1.0 + k / 3 for k in range(7)]
    for module, op in modules_ops:
        g = got[op]
        assert g["plan"] and g["native"] == 1, (module, op, g)         # the kernels ran, not the NumPy code
        want = [WANT[op.rstrip("0123456789_")](v) for v in xs]
        assert max(abs(a - b) for a, b in zip(g["y"], want)) < 1e-12, (op, g["y"], want)


def _files(out: Path):
    return sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


@needs_native
def test_files_whose_names_are_not_identifiers_get_their_kernels_under_their_module_name(tmp_path, cache):
    (tmp_path / "a b.rules").write_text("erfexp" + RULES["erfexp"] + "\n")
    (tmp_path / "import.rules").write_text("erftanh" + RULES["erftanh"] + "\n")
    out = tmp_path / "o"
    assert cli.main([str(tmp_path / "a b.rules"), str(tmp_path / "import.rules"), "--out", str(out), "-q"]) == 0
    _check_native(out, [("rules_a_b", "erfexp"), ("rules_import", "erftanh")])
    assert _files(out) == sorted(p for m in ("rules_a_b", "rules_import") for p in artefacts.paths(m).values())


@needs_native
def test_a_dash_and_a_space_in_one_out_keep_their_own_kernels(tmp_path, cache):
    (tmp_path / "a-b.rules").write_text("erfexp" + RULES["erfexp"] + "\n")
    (tmp_path / "a b.rules").write_text("erftanh" + RULES["erftanh"] + "\n")
    out = tmp_path / "o"
    assert cli.main([str(tmp_path / "a-b.rules"), str(tmp_path / "a b.rules"), "--out", str(out), "-q"]) == 0
    assert _files(out) == sorted(p for m in ("a_b", "rules_a_b") for p in artefacts.paths(m).values())
    assert json.loads((out / "cpu" / "a_b.json").read_text())["generated_from"].endswith("a-b.rules")
    assert json.loads((out / "cpu" / "rules_a_b.json").read_text())["generated_from"].endswith("a b.rules")
    _check_native(out, [("a_b", "erfexp"), ("rules_a_b", "erftanh")])


@needs_native
def test_two_expressions_in_one_out_keep_their_own_kernels(tmp_path, cache):
    out = tmp_path / "o"
    assert cli.main(["-e", "erfexp_1" + RULES["erfexp"], "-e", "erftanh_2" + RULES["erftanh"], "--out", str(out),
                     "-q"]) == 0
    assert _files(out) == sorted(p for m in ("expr0", "expr1") for p in artefacts.paths(m).values())
    _check_native(out, [("expr0", "erfexp_1"), ("expr1", "erftanh_2")])


@pytest.mark.parametrize("names", [("a_b", "a-b"), ("x.y", "x y"), ("Nn", "nn"), ("expr", None)])
def test_two_sources_one_name_are_refused_naming_both(tmp_path, cache, capsys, names):
    """Names that would be equal (or equal but for case: one file on macOS and Windows) are refused, nothing
    written: a name made unique by what else is on the command line would change as the command line does."""
    args, shown = [], []
    for n in names:
        if n is None:                                   # an expression: module expr
            args += ["-e", "f(x[i]) -> y[i] = x[i]"]
            shown.append("<expr>")
        else:
            (tmp_path / f"{n}.rules").write_text(f"r_{len(args)}(x[i]) -> y[i] = x[i]\n")
            args.append(str(tmp_path / f"{n}.rules"))
            shown.append(str(tmp_path / f"{n}.rules"))
    assert cli.main(args + ["--out", str(tmp_path / "o"), "-q"]) == 2
    err = capsys.readouterr().err
    assert all(s in err for s in shown) and "rename one" in err, err
    assert not (tmp_path / "o").exists()


def test_the_shipped_library_is_named_by_the_same_function():
    """Every file the shipped run writes is an artefact of its module, the module named after the rule file."""
    expected = {"__init__.py"}
    for p in (ROOT / "rules").glob("*.rules"):
        expected |= set(artefacts.paths(artefacts.module_name(p)).values())
    written = {p.relative_to(ROOT / "generated").as_posix() for p in (ROOT / "generated").rglob("*")
               if p.is_file() and "__pycache__" not in p.parts}
    modules = {artefacts.paths(artefacts.module_name(p))["module"] for p in (ROOT / "rules").glob("*.rules")}
    assert written <= expected and modules <= written
