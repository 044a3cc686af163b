"""Make the repository root and this folder importable (the fake generated module lives here)."""
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(os.path.dirname(_HERE))
for p in (_ROOT, _HERE):
    if p not in sys.path:
        sys.path.insert(0, p)


import pytest  # noqa: E402


@pytest.fixture(scope="module")
def define(tmp_path_factory):
    """runtime.define with a private rule cache for the module (a test's rules never reach the user's cache)."""
    import runtime
    old = os.environ.get("TENSOR_RULES_CACHE")
    os.environ["TENSOR_RULES_CACHE"] = str(tmp_path_factory.mktemp("cache"))
    try:
        yield runtime.define
    finally:
        if old is None:
            os.environ.pop("TENSOR_RULES_CACHE", None)
        else:
            os.environ["TENSOR_RULES_CACHE"] = old
