"""Optional frameworks (torch, jax) in tests: skip visibly where one is absent, but fail under CI (the CI
environment variable set), where the extras are installed and a skip would hide a broken bridge."""
import importlib
import os

import pytest


def need(module_name):
    """The module `module_name`, or a skip naming it (a failure when $CI is set)."""
    try:
        return importlib.import_module(module_name)
    except ImportError as exc:
        msg = f"{module_name} is not installed ({exc}); pip install 'tensor-rules[{module_name.split('.')[0]}]'"
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but {msg}", pytrace=False)
        pytest.skip(msg, allow_module_level=True)
