"""The allocator tuning applied at `import runtime` (runtime/memory.py): on by default on glibc, opt-out, and
its point: a repeated value_and_grad reuses its pages instead of faulting them in again."""
import os
import platform
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
glibc = pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="allocator tuning applies to glibc only")


def run(code, **env):
    clean = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_") and k != "TENSOR_RULES_MALLOC"}
    clean.update(env)
    p = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, cwd=ROOT,
                       env=clean, timeout=120)
    assert p.returncode == 0, p.stderr
    return p.stdout.strip()


SETTINGS = "import runtime, runtime.memory as m; print(m.allocator_settings()); print(m.allocator_note())"


@glibc
def test_applied_on_import():
    out = run(SETTINGS).splitlines()
    assert out[0] == "{'mmap_threshold': 67108864, 'trim_threshold': 268435456}"


@pytest.mark.parametrize("env, why", [({"TENSOR_RULES_MALLOC": "off"}, "TENSOR_RULES_MALLOC is off"),
                                      ({"MALLOC_TRIM_THRESHOLD_": "131072"}, "MALLOC_TRIM_THRESHOLD_"),
                                      ({"GLIBC_TUNABLES": "glibc.malloc.trim_threshold=131072"}, "GLIBC_TUNABLES")])
def test_opt_out_and_user_settings_win(env, why):
    out = run(SETTINGS, **env).splitlines()
    assert out[0] == "None"
    assert why in out[1]


FAULTS = """
import resource, numpy as np, runtime, generated
rng = np.random.default_rng(0)
p = {"W0": rng.standard_normal((256, 256)) / 16, "W1": rng.standard_normal((256, 256)) / 16,
     "c0": np.zeros(256), "c1": np.zeros(256)}
x, t = rng.standard_normal((128, 256)), rng.standard_normal((128, 256))
def loss(p):
    h = generated.dense(p["W0"], x, p["c0"])
    return generated.mse(generated.linear(p["W1"], h, p["c1"]), t)
vg = runtime.value_and_grad(loss)
for _ in range(3):
    vg(p)
f0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(10):
    vg(p)
print((resource.getrusage(resource.RUSAGE_SELF).ru_minflt - f0) / 10)
"""


@glibc
def test_repeated_sweeps_reuse_pages():
    # Every array here is 256 KB, over glibc's default 128 KB mmap threshold.
    assert float(run(FAULTS)) <= 10.0
