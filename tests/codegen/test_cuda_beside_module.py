"""runtime.cuda finds a generated module's CUDA kernels beside the module's own file, as runtime.native finds its C++
kernels, and runs them only with the module they were generated with.

Before: it looked in the shipped generated/cuda/ by the module's name alone, so the module of a user's `nn.rules`
(derive-rules nn.rules --out DIR; DIR/nn.py) was given the shipped nn kernels, which compute other rules (a wrong
answer on the GPU), and kernels left by an earlier generation ran for a regenerated module. No GPU is needed: these
are the files runtime.cuda would compile.
"""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from runtime import cuda

ROOT = Path(__file__).resolve().parents[2]

# the name of a shipped rule file, rules of its own
USER_RULES = "user_op(x[i]) -> y[i] = sin(x[i]) * x[i]\n"


def _import(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    d = tmp_path_factory.mktemp("cuda_beside")
    (d / "nn.rules").write_text(USER_RULES)
    env = dict(os.environ, PYTHONPATH=str(ROOT), TENSOR_RULES_NATIVE="0", TENSOR_RULES_CACHE=str(d / "cache"))
    done = subprocess.run([sys.executable, "-m", "derive.cli", "-q", str(d / "nn.rules"), "--out", str(d / "out")],
                          capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    return d / "out"


def test_a_users_module_named_like_a_shipped_one_gets_its_own_kernels(out):
    module = _import(out / "nn.py", "nn_of_a_user")
    try:
        mod = cuda.load_module(module.__name__)
        assert mod.source == (out / "cuda" / "nn.cu").read_text()
        assert mod.source != (ROOT / "generated" / "cuda" / "nn.cu").read_text()
        assert set(mod.manifest["ops"]) == {"user_op"}
    finally:
        sys.modules.pop("nn_of_a_user", None)


def test_the_shipped_modules_still_find_theirs():
    import generated.nn

    mod = cuda.load_module(generated.nn.__name__)
    assert mod.source == (ROOT / "generated" / "cuda" / "nn.cu").read_text()
    assert "gaussian_kernel_sum" in mod.manifest["ops"]


def test_kernels_of_another_generation_are_refused(out, tmp_path):
    stale = tmp_path / "stale"
    (stale / "cuda").mkdir(parents=True)
    for f in ("cuda/nn.cu", "cuda/nn.json"):
        (stale / f).write_text((out / f).read_text())
    # the module regenerated (here: edited) after its kernels were written
    (stale / "nn.py").write_text((out / "nn.py").read_text() + "\n# regenerated\n")
    module = _import(stale / "nn.py", "nn_regenerated")
    try:
        with pytest.raises(RuntimeError, match="were not generated with"):
            cuda.load_module(module.__name__)
    finally:
        sys.modules.pop("nn_regenerated", None)


def test_a_module_imported_later_under_a_shipped_name_gets_its_own_kernels(out):
    """The kernels are cached per module object: asked for `nn` before the user's nn was imported (refused: no such
    module), then after, it gets the user's (before: the shipped ones, cached under the name)."""
    sys.modules.pop("nn", None)
    with pytest.raises(RuntimeError, match="not an imported module"):
        cuda.load_module("nn")
    module = _import(out / "nn.py", "nn")
    try:
        assert set(cuda.load_module("nn").manifest["ops"]) == {"user_op"}
    finally:
        sys.modules.pop("nn", None)


@pytest.mark.parametrize("name", ["/tmp/x/nn", "../../nn", "nn", None])
def test_names_that_are_no_imported_module_are_refused(name):
    sys.modules.pop("nn", None)
    with pytest.raises((RuntimeError, TypeError)):
        cuda.load_module(name)
