"""Fixtures the derive tests share."""
import pytest


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A private, empty TENSOR_RULES_CACHE for one test."""
    d = tmp_path / "cache"
    monkeypatch.setenv("TENSOR_RULES_CACHE", str(d))
    return d
