"""Suite-wide settings."""
import os


def pytest_xdist_auto_num_workers(config):
    """`-n auto` (pyproject's addopts): one worker per CPU this process may run on, at most 4. Each worker imports
    NumPy, SymPy, PyTorch and JAX (about 1 GB) and starts BLAS and OpenMP pools, so a large CI machine would
    otherwise start dozens; past 4 the suite's longest files set its time anyway."""
    n = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(4, n))


import signal  # noqa: E402

import pytest  # noqa: E402


# the handlers the session started with (Python's own: Ctrl-C raises KeyboardInterrupt, SIGTERM ends the process)
_SESSION_HANDLERS = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}


@pytest.fixture(autouse=True)
def _signal_handlers_restored():
    """Each test runs with the SIGINT and SIGTERM handlers the session started with. Code a test runs in-process
    (a library's import, derive.cli's interrupt path, a module fixture) may leave SIGINT ignored, and every child
    process started later in that worker then inherits an ignored SIGINT (Python keeps an inherited SIG_IGN):
    the signal tests that ran after it in the same worker failed by their order (exit 0 where 130 was due)."""
    def restore():
        # and not blocked: a mask left by code a test ran is inherited by every child process too
        signal.pthread_sigmask(signal.SIG_UNBLOCK, set(_SESSION_HANDLERS))
        for s, h in _SESSION_HANDLERS.items():
            if h is not None and signal.getsignal(s) != h:
                signal.signal(s, h)
    restore()
    yield
    restore()


def _listed_slow():
    path = os.path.join(os.path.dirname(__file__), "slow_tests.txt")
    with open(path, encoding="utf-8") as f:
        return {line.strip() for line in f if line.strip() and not line.startswith("#")}


def pytest_collection_modifyitems(config, items):
    """The tests tests/slow_tests.txt lists (measured, not guessed: see its header) are marked `slow`, as those
    marked in their own files are: `-m "not slow"` leaves them out locally, CI runs them."""
    listed = _listed_slow()
    for item in items:
        if item.nodeid in listed or item.nodeid.split("[", 1)[0] in listed:
            item.add_marker(pytest.mark.slow)
