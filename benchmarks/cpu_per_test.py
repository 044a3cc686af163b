"""A pytest plugin that records each test's CPU time (its process and the child processes it waited for: compilers,
derive-rules runs), one line "seconds node-id" per test, to $CPU_PER_TEST_DIR/cpu.<xdist worker>.

    CPU_PER_TEST_DIR=/tmp/cpu PYTHONPATH=benchmarks python -m pytest -q -p cpu_per_test
    cat /tmp/cpu/cpu.* | sort -rn | head -20

CPU time rather than wall time: this machine is shared, and a test's wall time says more about its neighbours
than about it. A module's or session's fixtures count to the first test that uses them. tests/slow_tests.txt (the
tests marked `slow` from outside) was chosen from these figures.
"""
import os
import resource

import pytest


def _cpu():
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    t0 = _cpu()
    yield
    out = os.path.join(os.environ.get("CPU_PER_TEST_DIR", "."), f"cpu.{os.environ.get('PYTEST_XDIST_WORKER', 'main')}")
    with open(out, "a") as f:
        f.write(f"{_cpu() - t0:.2f} {item.nodeid}\n")
