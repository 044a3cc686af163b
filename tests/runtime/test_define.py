"""define(): generator called once on a miss, on-disk cache keyed by sha256, no SymPy on a cache hit."""
import os
import subprocess
import sys
import textwrap
import types

import numpy as np
import pytest
from numdiff import assert_close

import runtime.rule_cache as define_mod
from runtime import check_rrule, define, grad, jvp, tnp

TEXT = "softplus2(x[i]) -> y[i] = log(1 + exp(x[i]))"
TWO = "twice(x[i]) -> y[i] = 2*x[i]\nthrice(x[i]) -> y[i] = 3*x[i]"

HEADER = '''# @generated from {label} by `derive-rules` -- do not edit
import numpy as _numpy
from runtime.tangents import NoTangent, ZeroTangent, Thunk, is_zero
from runtime.registry import export_ops
'''

SOFTPLUS = HEADER + '''
def _define(np):
    def softplus2(x):
        y = np.log(1 + np.exp(x))
        return y
    def softplus2_frule(tangents, x):
        _, dx = tangents
        y = np.log(1 + np.exp(x))
        if is_zero(dx):
            return y, ZeroTangent()
        return y, dx * (1 / (1 + np.exp(-x)))
    def softplus2_rrule(x):
        y = np.log(1 + np.exp(x))
        def softplus2_pullback(dy):
            if is_zero(dy):
                return (NoTangent(), ZeroTangent())
            return (NoTangent(), Thunk(lambda: dy * (1 / (1 + np.exp(-x)))))
        return y, softplus2_pullback
    return {"softplus2": softplus2, "softplus2_frule": softplus2_frule, "softplus2_rrule": softplus2_rrule}

OPS = {"softplus2": {"signature": "softplus2(x[i]) -> y[i]",
                     "inputs": [{"name": "x", "kind": "tensor", "indices": ["i"]}],
                     "outputs": [{"name": "y", "indices": ["i"]}],
                     "equal_extents": [], "batch_indices": [], "source": "{label}:1"}}
globals().update(export_ops(__name__, OPS, _define))
'''

SCALE_OP = '''
def _define_{n}(np):
    def {n}(x):
        return {k} * x
    def {n}_frule(tangents, x):
        _, dx = tangents
        return {k} * x, ZeroTangent() if is_zero(dx) else {k} * dx
    def {n}_rrule(x):
        def {n}_pullback(dy):
            return (NoTangent(), ZeroTangent() if is_zero(dy) else {k} * dy)
        return {k} * x, {n}_pullback
    return {{"{n}": {n}, "{n}_frule": {n}_frule, "{n}_rrule": {n}_rrule}}
'''

TWO_SRC = HEADER + SCALE_OP.format(n="twice", k=2) + SCALE_OP.format(n="thrice", k=3) + '''
def _define(np):
    return {**_define_twice(np), **_define_thrice(np)}

_meta = lambda n: {"signature": n + "(x[i]) -> y[i]", "inputs": [{"name": "x", "kind": "tensor", "indices": ["i"]}],
                   "outputs": [{"name": "y", "indices": ["i"]}], "equal_extents": [], "batch_indices": []}
OPS = {"twice": _meta("twice"), "thrice": _meta("thrice")}
globals().update(export_ops(__name__, OPS, _define))
'''


def _entries(d):
    """Cache entries (the signing key, .secret, and temporary files start with a dot)."""
    return [f for f in os.listdir(d) if not f.startswith(".")]


@pytest.fixture
def generator(monkeypatch, tmp_path):
    """A stand-in for derive.pipeline.define_files (the pipeline runtime.define runs), recording its calls; cache
    in a fresh folder."""
    calls = []

    def define_files(text, name=None, label="<runtime>", *, kernels=False):
        calls.append((text, name, label))
        if text == TEXT:
            return {"module.py": SOFTPLUS.replace("{label}", label)}
        if text == TWO:
            return {"module.py": TWO_SRC.replace("{label}", label)}
        from derive.language.errors import DeriveError
        raise DeriveError(f"cannot parse {text!r}")

    pipeline = types.ModuleType("derive.pipeline")
    pipeline.define_files = define_files
    monkeypatch.setitem(sys.modules, "derive.pipeline", pipeline)
    import derive
    monkeypatch.setattr(derive, "pipeline", pipeline, raising=False)   # `from derive import pipeline` reads this
    monkeypatch.setenv("TENSOR_RULES_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(define_mod, "_MEMO", {})
    return calls


def test_define_derives_once_and_the_op_is_differentiable(generator, tmp_path):
    op = define(TEXT)
    x = np.array([-1.0, 0.0, 2.0])
    assert_close(op(x), np.log1p(np.exp(x)), rtol=1e-14)
    assert_close(grad(lambda x: tnp.sum(op(x)))(x), 1 / (1 + np.exp(-x)))
    assert_close(jvp(op, (x,), (np.ones(3),))[1], 1 / (1 + np.exp(-x)))
    check_rrule(op, x)
    assert op.name == "softplus2" and op.signature == "softplus2(x[i]) -> y[i]"
    assert define(TEXT) is op and len(generator) == 1
    files = _entries(tmp_path / "cache")
    assert len(files) == 1 and files[0].endswith(".py")
    assert generator[0][2] == "<define>"


def test_cache_on_disk_is_reused_without_the_generator(generator, monkeypatch):
    define(TEXT)
    monkeypatch.setattr(define_mod, "_MEMO", {})  # as if in a new process
    sys.modules["derive.pipeline"].define_files = None  # would fail if called
    op = define(TEXT)
    assert_close(op(np.zeros(1)), [np.log(2.0)])
    assert len(generator) == 1


def test_cache_key_includes_name_and_name_picks_op(generator, tmp_path):
    with pytest.raises(ValueError, match=r"defines \['thrice', 'twice'\]; pass name= to choose one"):
        define(TWO)
    twice, thrice = define(TWO, name="twice"), define(TWO, name="thrice")
    assert_close(twice(np.ones(2)), 2 * np.ones(2))
    assert_close(grad(lambda x: tnp.sum(thrice(x)))(np.ones(2)), 3 * np.ones(2))
    assert define_mod.cache_key(TWO, "twice") != define_mod.cache_key(TWO, "thrice") != define_mod.cache_key(TWO, None)
    assert len(_entries(tmp_path / "cache")) == 3


def test_cache_key_includes_the_engine_fingerprint(generator, tmp_path, monkeypatch):
    """A changed derivation engine or template (derive-rules' fingerprint) regenerates, never serves stale code."""
    import derive.fingerprint
    define(TEXT)
    monkeypatch.setattr(define_mod, "_MEMO", {})
    monkeypatch.setattr(derive.fingerprint, "engine_fingerprint", lambda: "another engine")
    define(TEXT)
    assert len(generator) == 2 and len(_entries(tmp_path / "cache")) == 2


def test_derive_errors_propagate_and_nothing_is_cached(generator, tmp_path):
    from derive.language.errors import DeriveError
    with pytest.raises(DeriveError, match="cannot parse"):
        define("this is not a rule")
    assert not (tmp_path / "cache").exists() or not _entries(tmp_path / "cache")


def test_corrupt_cache_entry_is_regenerated(generator, tmp_path, monkeypatch):
    define(TEXT)
    (path,) = (tmp_path / "cache" / f for f in _entries(tmp_path / "cache"))
    path.write_text("this is not python")
    monkeypatch.setattr(define_mod, "_MEMO", {})
    op = define(TEXT)
    assert_close(op(np.zeros(1)), [np.log(2.0)])
    assert len(generator) == 2


def test_second_process_loads_from_cache_without_sympy(generator, tmp_path):
    define(TEXT)
    script = textwrap.dedent(f"""
        import sys
        import numpy as np
        import runtime
        op = runtime.define({TEXT!r})
        g = runtime.grad(lambda x: runtime.tnp.sum(op(x)))(np.zeros(2))
        assert np.allclose(g, 0.5), g
        assert 'sympy' not in sys.modules, 'sympy was imported'
        assert 'derive.pipeline' not in sys.modules, 'the generator was imported'
        print('ok')
    """)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, TENSOR_RULES_CACHE=str(tmp_path / "cache"), PYTHONPATH=root)
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_importing_runtime_does_not_import_sympy():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    script = "import sys, runtime; assert 'sympy' not in sys.modules and 'derive' not in sys.modules; print('ok')"
    out = subprocess.run([sys.executable, "-c", script], env=dict(os.environ, PYTHONPATH=root),
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr


def test_with_the_real_generator(tmp_path, monkeypatch):
    """Integration with derive.api (skipped while it is unavailable): derive once, then a cache hit."""
    try:
        import derive.api  # noqa: F401
    except Exception as exc:  # pragma: no cover - depends on the derivation engine being present
        pytest.skip(f"derive.api unavailable: {exc}")
    monkeypatch.setenv("TENSOR_RULES_CACHE", str(tmp_path / "real"))
    monkeypatch.setattr(define_mod, "_MEMO", {})
    text = "softplus3(x[i]) -> y[i] = log(1 + exp(x[i]))"
    op = define(text)
    x = np.array([-1.0, 0.5])
    assert_close(op(x), np.log1p(np.exp(x)))
    assert_close(grad(lambda x: tnp.sum(op(x)))(x), 1 / (1 + np.exp(-x)))
    commented = define("# softplus\nsoftplus4(x[i]) -> y[i] = log(1 + exp(x[i]))")  # a rule, not statements
    assert commented.name == "softplus4"
    assert_close(commented(x), np.log1p(np.exp(x)))
    bare = define("B = inv(A)", name="myinv")
    assert bare.name == "myinv"
    assert_close(bare(2 * np.eye(2)), np.eye(2) / 2)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    script = (f"import sys, numpy as np, runtime; op = runtime.define({text!r}); "
              "assert np.allclose(op(np.zeros(1)), np.log(2)); assert 'sympy' not in sys.modules; print('ok')")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, TENSOR_RULES_CACHE=str(tmp_path / "real"), PYTHONPATH=root))
    assert out.returncode == 0, out.stderr


def _bound_by_mode_bits():
    """A command prefix under which a directory's mode bits bind this process: none for a user, setpriv without
    CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH for root (who reads a mode-000 directory otherwise); None if neither."""
    import shutil

    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    drop = "-dac_override,-dac_read_search"
    return [setpriv, f"--inh-caps={drop}", f"--bounding-set={drop}"] if setpriv else None


@pytest.mark.parametrize("where", ["itself", "inside"])
@pytest.mark.parametrize("native", ["0", "1"])
def test_a_cache_directory_that_may_not_be_searched_is_warned_about_once(tmp_path, where, native):
    """TENSOR_RULES_CACHE a mode-000 directory, or a directory inside one: define warns once that it does not use
    the cache and works without it (before, a PermissionError traceback followed the warning: the native kernels
    were looked for beside the module's would-be file in the cache)."""
    prefix = _bound_by_mode_bits()
    if prefix is None:
        pytest.skip("running as root without setpriv: mode bits do not bind this process")
    locked = tmp_path / "locked"
    locked.mkdir()
    cache = locked if where == "itself" else locked / "inner"
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    script = ("import runtime\n"
              "f = runtime.define('f(x[i]) -> y[i] = sin(x[i])')\n"
              "g = runtime.define('g(x[i]) -> y[i] = cos(x[i])')\n"
              "print(f([0.5]), g([0.5]))\n")
    locked.chmod(0o000)
    try:
        out = subprocess.run(prefix + [sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                             env=dict(os.environ, TENSOR_RULES_CACHE=str(cache), PYTHONPATH=root,
                                      TENSOR_RULES_NATIVE=native))
    finally:
        locked.chmod(0o700)
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    assert out.stdout.split() == [f"[{np.sin(0.5):.8f}]", f"[{np.cos(0.5):.8f}]"]
    warnings = out.stderr.splitlines()
    assert len(warnings) == 1 and "not using the cache: cannot use cache directory" in warnings[0], out.stderr
    assert str(cache) in warnings[0]
    assert not any(locked.iterdir())
