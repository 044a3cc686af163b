"""The runnable examples: each main() runs quickly and meets its stated target."""
import pytest

pytest.importorskip("generated")


def test_train_mlp_loss_falls_100x():
    from examples import train_mlp
    r = train_mlp.main(verbose=False)
    assert r["ratio"] >= 100 and r["rises"] == 0, r


def test_minibatch_loss_pullback_over_all_params():
    from examples import loss_pullback
    r = loss_pullback.main(epochs=5, verbose=False)
    assert r["fd_error"] < 1e-6 and r["linearity_error"] < 1e-12
    assert r["structure"] == "list[dict]" and r["final_loss"] < r["first_batch_loss"] / 5


def test_batched_cayley_through_batched_inverse():
    from examples import cayley_batched
    r = cayley_batched.main(verbose=False)
    assert r["orthogonality"] < 1e-12 and r["final_orthogonality"] < 1e-12
    assert r["rule_vs_inverse"] < 1e-10 and r["directional_fd_error"] < 1e-6
    assert r["final_loss"] < 1e-3 * r["initial_loss"]


def test_riemannian_gradients_and_retractions():
    from examples import riemannian
    r = riemannian.main(verbose=False)
    st, sp = r["stiefel"], r["spd"]
    assert st["tangent_error"] < 1e-12 and st["metric_duality_error"] < 1e-10
    assert st["one_step_cayley_f"] < st["f0"] and st["one_step_qr_f"] < st["f0"]
    assert st["one_step_cayley_orth"] <= 1e-10 and st["one_step_qr_orth"] <= 1e-10 and st["final_orth"] <= 1e-10
    assert abs(st["final_f"] - st["optimum"]) < 1e-6
    assert sp["metric_duality_error"] < 1e-10 and sp["f1"] < sp["f0"] and sp["rgrad_vs_numpy"] < 1e-12


def test_examples_run_as_scripts():
    import os
    import subprocess
    import sys
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = subprocess.run([sys.executable, "-m", "examples.riemannian"], cwd=root, capture_output=True, text=True,
                         timeout=120, env=dict(os.environ, PYTHONPATH=root))
    assert out.returncode == 0, out.stderr
    assert "Stiefel" in out.stdout
    # and as a file path, which puts examples/ (not the root) on sys.path
    out = subprocess.run([sys.executable, os.path.join("examples", "loss_pullback.py")], cwd=root,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr


CHAINRULES_DOCS_VALUE = -1.0531613736418153  # foo(x) = asin(0.2 + sin(x)) at x = 3, from ChainRules.jl's docs


def test_chainrules_example_three_ways():
    from examples import chainrules_foo
    assert chainrules_foo.main() == (CHAINRULES_DOCS_VALUE,) * 3


def test_readme_chainrules_block_runs_as_written():
    import os
    import re
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    text = open(os.path.join(root, "README.md"), encoding="utf-8").read()
    section = text[text.index("## The ChainRules example, three ways"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    ns = {}
    exec(compile(code, "README.md", "exec"), ns)
    g = ns["runtime"].grad(lambda x: ns["generated"].asin(0.2 + ns["generated"].sin(x)))(ns["x"])
    assert ns["dx"] == ns["dy"] == g == CHAINRULES_DOCS_VALUE
    assert type(g) is float  # a Python float in, a Python float out
