"""Adversarial checks of runtime/torch_native (the C++ runner in front of runtime.torch's ops): its plans must be
the module's own (never a stale or edited plan beside it), its registration and build must fall back to the
Python code (never raise), and a process forked while another thread builds it must not hang. Expected values
are NumPy's or torch's own functions. Skipped visibly without torch."""
import os
import subprocess
import sys

import numpy as np
import pytest

from tests.frameworks import need

torch = need("torch")

import runtime.torch as rt  # noqa: E402
from runtime import torch_native  # noqa: E402
from runtime import native
from runtime.rule_cache import load_module_file  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXT = torch_native.extension()
needs_ext = pytest.mark.skipif(EXT is None, reason=f"runtime/torch_native.cpp cannot be built here: "
                                                   f"{torch_native.why()}")


def _derive(rules_file, out):
    res = subprocess.run([sys.executable, "-m", "derive.cli", str(rules_file), "--out", str(out), "-q"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": ROOT})
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]


@pytest.fixture
def private_registry(monkeypatch):
    from runtime import registry

    monkeypatch.setattr(registry, "_OPS", dict(registry._OPS))    # the ops a loaded module registers leave with it


@needs_ext
def test_a_plan_left_by_an_earlier_generation_never_runs(tmp_path, private_registry):
    """derive-rules FILE --out DIR keeps the files a new run no longer writes. Before: rule `advb_scan` first
    written as sin(x) (a native plan), then rewritten as a cumulative sum (no native plan: NumPy's scan), still ran
    the first version's sin kernels from the cpu/ plan left beside it, through the torch runner and through
    runtime.native's NumPy path: [sin(0.5), sin(1), sin(2)] for cumsum([0.5, 1, 2]) = [0.5, 1.5, 3.5]."""
    rules, out = tmp_path / "advb_stale.rules", tmp_path / "out"
    rules.write_text("advb_scan(x[i]) -> y[i] = sin(x[i])\n")
    _derive(rules, out)
    assert (out / "cpu" / "advb_stale.json").is_file()
    rules.write_text("advb_scan(x[i]) -> y[i] = sum(j, where(j <= i, x[j], 0))\n")
    _derive(rules, out)
    assert (out / "cpu" / "advb_stale.json").is_file()          # the earlier plan is still there
    module = load_module_file(out / "advb_stale.py", "advb")
    assert native.plan_for(module) is None
    op = rt.load(module).advb_scan
    x = torch.tensor([0.5, 1.0, 2.0], dtype=torch.float64)
    assert op(x).tolist() == np.cumsum([0.5, 1.0, 2.0]).tolist()
    assert getattr(op, "native_index", None) is None


@needs_ext
def test_files_regenerated_after_the_module_was_imported_do_not_run_for_it(tmp_path, private_registry):
    """Before: a module imported (sin), then its files regenerated beside it (cos), then rt.load(module): the
    runner ran the new cos kernels for the old module's sin (its Python code still sin)."""
    rules, out = tmp_path / "advb_regen.rules", tmp_path / "out"
    rules.write_text("advb_re(x[i]) -> y[i] = sin(x[i])\n")
    _derive(rules, out)
    module = load_module_file(out / "advb_regen.py", "advb")
    rules.write_text("advb_re(x[i]) -> y[i] = cos(x[i])\n")
    _derive(rules, out)
    x = torch.tensor([0.5, 1.0, 2.0], dtype=torch.float64)
    torch.testing.assert_close(rt.load(module).advb_re(x), torch.sin(x), rtol=1e-15, atol=0)
    new = rt.load(load_module_file(out / "advb_regen.py", "advb")).advb_re      # the new module: its own plan
    torch.testing.assert_close(new(x), torch.cos(x), rtol=1e-15, atol=0)
    assert new.native_index is not None


@needs_ext
@pytest.mark.parametrize("edit", ["cpp", "py"])
def test_kernels_or_module_edited_after_generation_do_not_run(tmp_path, private_registry, edit):
    """The plan runs only beside the very files it was generated with. Before: a cpu/<stem>.cpp edited after
    generation (here its sine turned into a cosine) ran as the op's kernels: a wrong answer."""
    stem = f"advb_edit_{edit}"
    rules, out = tmp_path / f"{stem}.rules", tmp_path / "out"
    rules.write_text(f"advb_sin_{edit}(x[i]) -> y[i] = sin(x[i])\n")
    _derive(rules, out)
    if edit == "cpp":
        cpp = out / "cpu" / f"{stem}.cpp"
        text = cpp.read_text()
        assert " = sin(x_x[e]);" in text
        cpp.write_text(text.replace(" = sin(x_x[e]);", " = cos(x_x[e]);"))
    else:           # the module's own text edited (a comment): the plan is no longer proven to be its own
        py = out / f"{stem}.py"
        py.write_text(py.read_text() + "\n# edited\n")
    module = load_module_file(out / f"{stem}.py", "advb")
    assert native.plan_for(module) is None
    op = getattr(rt.load(module), f"advb_sin_{edit}")
    x = torch.tensor([0.5, 1.0, 2.0], dtype=torch.float64)
    torch.testing.assert_close(op(x), torch.sin(x), rtol=1e-15, atol=0)
    assert getattr(op, "native_index", None) is None


@needs_ext
def test_a_rule_with_many_inputs_runs_forward_and_backward(tmp_path, private_registry):
    """33 inputs: the pullback's kernel takes 33 inputs, 33 cotangents and their modes, more pointers than the
    runner passes. Before: the forward ran natively and backward() raised `RuntimeError: tensor-rules: a kernel
    with over 60 parameters`; now the op is not registered with the runner and its Python code answers both."""
    n = 33
    rules, out = tmp_path / "advb_many.rules", tmp_path / "out"
    rules.write_text(f"advb_many({', '.join(f'x{k}[i]' for k in range(n))}) -> y[i] = "
                     + " + ".join(f"x{k}[i]*x{k}[i]" for k in range(n)) + "\n")
    _derive(rules, out)
    op = rt.load(load_module_file(out / "advb_many.py", "advb")).advb_many
    xs = [torch.full((3,), k + 1.0, dtype=torch.float64, requires_grad=True) for k in range(n)]
    y = op(*xs)
    assert y.tolist() == [float(sum((k + 1) ** 2 for k in range(n)))] * 3
    y.sum().backward()
    assert all(x.grad.tolist() == [2.0 * (k + 1)] * 3 for k, x in enumerate(xs))


@needs_ext
def test_native_always_with_kernels_that_cannot_be_built_leaves_the_torch_op_to_its_python_code(monkeypatch):
    """TENSOR_RULES_NATIVE=1 and a module's kernels that fail to build: runtime.native's NumPy calls raise that
    error (asked for), but building the torch op raised it too. Before: rt.sin's creation raised RuntimeError (a
    traceback for every op of the module); now the runner is not put in front and the Python code answers."""
    import generated.elementwise as module
    from runtime.registry import lookup

    mod = native.plan_for(module)
    assert mod is not None
    monkeypatch.setenv("TENSOR_RULES_NATIVE", "1")
    monkeypatch.setitem(native._BROKEN, mod, "native CPU kernels of generated.elementwise could not be built: test")
    with pytest.raises(RuntimeError):
        native.ready(mod)
    reg = lookup("sin")
    monkeypatch.setattr(rt, "_OPS", {})            # made anew (runtime.torch caches the ops it made)
    op = rt.make_op(reg.module_name, reg._impls.define, "sin", reg.meta)
    assert getattr(op, "native_index", None) is None
    x = torch.tensor([0.5, 1.0], dtype=torch.float64)
    torch.testing.assert_close(op(x), torch.sin(x), rtol=1e-15, atol=0)


@needs_ext
def test_a_fork_while_another_thread_builds_the_runner_does_not_hang_the_child():
    """Before: a process forked while another thread held torch_native's build lock (building or loading the
    extension) inherited the lock held, and the child's first op waited forever for a thread it does not have."""
    code = r"""
import os, sys, threading, time
from runtime import torch_native
held, release = threading.Event(), threading.Event()
def builder():
    with torch_native._LOCK:
        held.set(); release.wait()
threading.Thread(target=builder, daemon=True).start()
held.wait()
pid = os.fork()
if pid == 0:
    import signal
    signal.alarm(15)                      # a hang ends the child with SIGALRM
    ext = torch_native.extension()
    os._exit(0 if ext is not None else 3)
release.set()
_, status = os.waitpid(pid, 0)
print("child", status)
sys.exit(0 if status == 0 else 1)
"""
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": ROOT})
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]


@needs_ext
def test_an_input_of_extent_zero_gets_an_empty_gradient_as_torch_gives():
    x = torch.zeros(0, dtype=torch.float64, requires_grad=True)
    rt.sin(x).sum().backward()
    assert x.grad is not None and x.grad.shape == (0,)         # torch.sin(x).sum().backward() gives zeros(0)
