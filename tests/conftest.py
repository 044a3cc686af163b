"""Suite-wide settings."""
import os


def pytest_xdist_auto_num_workers(config):
    """`-n auto` (pyproject's addopts): one worker per CPU this process may run on, at most 4. Each worker imports
    NumPy, SymPy, PyTorch and JAX (about 1 GB) and starts BLAS and OpenMP pools, so a large CI machine would
    otherwise start dozens; past 4 the suite's longest files set its time anyway."""
    n = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(4, n))
