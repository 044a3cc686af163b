"""benchmarks/gpu/run.sh, the prepared device check (issue #26), up to the first step that needs a GPU.

Without a GPU it must check what it can (its arguments, the carried files, the CPU-side imports, nvcc on the
generated kernels), stop before the GPU steps with one line saying so, and exit 0; it must say clearly which
carried files are missing. The carried files are stood in for by empty files of the right names: nothing here
installs, builds or downloads anything."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUN = ROOT / "benchmarks" / "gpu" / "run.sh"
FETCH = ROOT / "benchmarks" / "gpu" / "fetch.sh"
BASH = shutil.which("bash")
NVCC = shutil.which("nvcc") or next((p for p in ("/usr/local/bin/nvcc", "/usr/local/cuda/bin/nvcc")
                                     if os.path.exists(p)), None)
STOPPED = "stopped before the first step that needs a GPU"
# what fetch.sh saves: PyCUDA's source archive and the wheels of its requirements
CARRIED = ["pycuda-2026.1.tar.gz", "pytools-2026.1.1-py3-none-any.whl", "platformdirs-4.14.8-py3-none-any.whl",
           "mako-1.4.3-py3-none-any.whl", "markupsafe-3.0.4-cp312-cp312-manylinux_2_17_x86_64.whl",
           "typing_extensions-4.16.0-py3-none-any.whl", "siphash24-1.9-cp312-cp312-manylinux_2_17_x86_64.whl"]

pytestmark = pytest.mark.skipif(BASH is None, reason="bash is not installed: the device check is a bash script")


def _wheels(tmp_path, names=CARRIED):
    d = tmp_path / "whl"
    d.mkdir()
    for n in names:
        (d / n).write_bytes(b"")
    return d


def _run(tmp_path, *args):
    env = dict(os.environ, OUT=str(tmp_path / "out"), TR_GPU_WORK=str(tmp_path / "work"), PYTHON=sys.executable)
    if NVCC:
        env["PATH"] = f"{env.get('PATH', '')}:{os.path.dirname(NVCC)}"
    # where a GPU is present, --dry-run still stops before it
    extra = ["--dry-run"] if shutil.which("nvidia-smi") else []
    res = subprocess.run([BASH, str(RUN), *args, *extra], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120)
    return res, res.stdout + res.stderr


@pytest.mark.parametrize("script", [RUN, FETCH], ids=lambda p: p.name)
def test_bash_syntax(script):
    res = subprocess.run([BASH, "-n", str(script)], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr


def test_stops_before_the_gpu_steps(tmp_path):
    res, out = _run(tmp_path, "--wheels", str(_wheels(tmp_path)), "--nvcc", "none")
    assert res.returncode == 0, out
    assert STOPPED in out
    assert "CPU-side imports       ok" in out
    assert "MISSING" not in out
    # the results table is the last thing printed, and is kept under $OUT with the log
    last = out.strip().splitlines()[-1]
    assert last.startswith("GPU steps") and "stopped" in last, out
    for name in ("run.log", "results.txt"):
        assert (tmp_path / "out" / name).is_file()
    assert STOPPED in (tmp_path / "out" / "run.log").read_text()
    assert not (tmp_path / "work" / "site").exists()       # nothing installed or built without a GPU


@pytest.mark.slow
@pytest.mark.skipif(NVCC is None, reason="nvcc is not installed: the script's compile step is skipped without it")
def test_compiles_a_generated_module_with_nvcc(tmp_path):
    res, out = _run(tmp_path, "--wheels", str(_wheels(tmp_path)), "--nvcc", "elementwise")
    assert res.returncode == 0, out
    assert "ok      generated/cuda/elementwise.cu" in out
    assert (tmp_path / "work" / "nvcc" / "elementwise.cubin").stat().st_size > 0
    assert STOPPED in out


def test_missing_wheels_are_named(tmp_path):
    res, out = _run(tmp_path, "--wheels", str(tmp_path / "nowhere"), "--nvcc", "none")
    assert res.returncode == 2, out
    assert "MISSING" in out and "pycuda-*.tar.gz" in out and "siphash24" in out
    assert "benchmarks/gpu/fetch.sh" in out
    assert out.strip().splitlines()[-1].startswith("carried files") and "FAILED" in out.strip().splitlines()[-1]



def test_only_what_is_missing_is_named(tmp_path):
    res, out = _run(tmp_path, "--wheels", str(_wheels(tmp_path, CARRIED[1:])), "--nvcc", "none")
    assert res.returncode == 2, out
    missing = next(line for line in out.splitlines() if "MISSING" in line).split("MISSING in ")[1].split(": ", 1)[1]
    assert "PyCUDA's source archive" in missing and "pytools" not in missing and "mako" not in missing


def test_two_versions_of_a_wheel_are_refused(tmp_path):
    res, out = _run(tmp_path, "--wheels", str(_wheels(tmp_path, CARRIED + ["mako-1.3.0-py3-none-any.whl"])),
                    "--nvcc", "none")
    assert res.returncode == 2, out
    assert "keep one version" in out


def test_unknown_argument_is_a_usage_error(tmp_path):
    res, out = _run(tmp_path, "--no-such-flag")
    assert res.returncode == 2 and "unknown argument --no-such-flag" in out
