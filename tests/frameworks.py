"""Optional frameworks in tests: `need("jax")` imports the module, or skips the test module visibly when it is not
installed; under CI (the CI environment variable set) a missing framework fails instead of skipping."""
import importlib
import os

import pytest


def need(name):
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        reason = f"{name} is not installed ({exc}); install the extra: pip install 'tensor-rules[{name}]'"
        if os.environ.get("CI"):
            pytest.fail(f"CI: {reason}", pytrace=False)
        pytest.skip(reason, allow_module_level=True)
