"""The compiled-kernel cache is checked before use: a cubin runs on the GPU, so a planted or corrupted entry is
recompiled, never loaded. PyCUDA's compiler is stood in for, so this runs without a GPU."""
import os
import stat
import sys
import types

import pytest

from runtime import cuda


@pytest.fixture
def fake_nvcc(tmp_path, monkeypatch):
    calls = []

    def compile(source, **kw):
        calls.append(source)
        return b"CUBIN:" + source.encode()

    pkg, comp = types.ModuleType("pycuda"), types.ModuleType("pycuda.compiler")
    comp.compile = compile
    pkg.compiler = comp
    monkeypatch.setitem(sys.modules, "pycuda", pkg)
    monkeypatch.setitem(sys.modules, "pycuda.compiler", comp)
    monkeypatch.setenv("TENSOR_RULES_CACHE", str(tmp_path / "cache"))
    return calls


def _entry(tmp_path, source):
    return tmp_path / "cache" / "cuda" / f"{cuda.cache_key(source, 'sm_90')}.cubin"


def test_a_compiled_kernel_is_cached_owner_only(tmp_path, fake_nvcc):
    assert cuda.compile_cubin("src", "sm_90") == b"CUBIN:src"
    assert cuda.compile_cubin("src", "sm_90") == b"CUBIN:src"
    assert fake_nvcc == ["src"]                      # the second call came from the cache
    assert stat.S_IMODE(os.stat(_entry(tmp_path, "src")).st_mode) == 0o600


@pytest.mark.parametrize("tamper", ["planted", "truncated", "empty"])
def test_a_planted_or_corrupt_cubin_is_recompiled_not_loaded(tmp_path, fake_nvcc, tamper):
    cuda.compile_cubin("src", "sm_90")
    path = _entry(tmp_path, "src")
    data = path.read_bytes()
    path.write_bytes({"planted": b"EVIL CUBIN", "truncated": data[:-3], "empty": b""}[tamper])
    assert cuda.compile_cubin("src", "sm_90") == b"CUBIN:src"
    assert fake_nvcc == ["src", "src"]


def test_a_cache_writable_by_others_is_not_used(tmp_path, fake_nvcc, capsys):
    (tmp_path / "cache").mkdir(mode=0o700)
    os.chmod(tmp_path / "cache", 0o777)
    assert cuda.compile_cubin("src", "sm_90") == b"CUBIN:src"
    assert not _entry(tmp_path, "src").exists()
    assert "writable by others" in capsys.readouterr().err
