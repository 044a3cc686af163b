"""derive.output's switch of an output directory under signals (issue #25, "Nothing lost"): a SIGINT or SIGTERM that
arrives while the files are being renamed waits until the whole set is switched, whichever thread the kernel
delivers it to, and the one line derive-rules prints then says truly what the directory holds.

Before: the renames ran with the signals blocked by pthread_sigmask, which blocks them for the main thread only.
With OpenBLAS's threads running (NumPy starts them when it loads, one per CPU), the kernel delivers the signal
to one of them, Python raises it in the main thread mid-switch: some files switched, the journal left behind,
`import generated` refused, and the message said the directory "holds the new files".
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from derive import output

ROOT = Path(__file__).resolve().parents[2]

OLD = {"alpha": "alpha_op(x[i]) -> y[i] = erf(x[i]) * exp(x[i])\n",
       "beta": "beta_op(x[i], z[i]) -> y[i] = x[i] * z[i] + sin(x[i])\n",
       "gamma": "gamma_op(x[i, j]) -> y[i] = sum(j, x[i, j] * x[i, j])\n"}
NEW = {k: v.replace("-> y[i] = ", "-> y[i] = 2 * ").replace("beta_op", "beta_op2") for k, v in OLD.items()}

# The child: derive-rules as the command, its "shipped library" a temporary rules/ and generated/, OpenBLAS with
# two threads started, and each rename in the output directory announced and then slowed down, so that the test
# can signal while the switch is half done.
CHILD = """\
import os, sys, time
from pathlib import Path
sys.argv[0] = "derive-rules"
import numpy as np
np.ones((300, 300)) @ np.ones((300, 300))      # OpenBLAS's threads run: a signal may be delivered to one of them
from derive import cli
cli.RULES_DIR, cli.GENERATED_DIR = Path(sys.argv[1]), Path(sys.argv[2])
real = os.replace

def slow(src, dst, **kw):
    real(src, dst, **kw)
    if Path(dst).parent.name in ("generated", "cpu", "cuda") and not str(dst).endswith(".derive-rules-swap"):
        print("renamed", Path(dst).name, flush=True)
        time.sleep(0.05)

os.replace = slow
sys.exit(cli.main(["-q"]))
"""


def _write_rules(d: Path, texts: dict):
    d.mkdir(exist_ok=True)
    for name, text in texts.items():
        (d / f"{name}.rules").write_text(text)


def _state(gen: Path) -> dict:
    return {p.relative_to(gen).as_posix(): p.read_text() for p in sorted(gen.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts}


def _run(tmp_path, texts, gen: Path, sig=None, env=None):
    """derive-rules on `texts` into `gen`; with `sig`, that signal is sent after each of the first renames."""
    rules = tmp_path / "rules"
    _write_rules(rules, texts)
    p = subprocess.Popen([sys.executable, "-c", CHILD, str(rules), str(gen)], cwd=tmp_path, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    renamed = 0
    for line in p.stdout:
        if line.startswith("renamed"):
            renamed += 1
            if sig is not None and renamed <= 4:   # most of the set is still to switch
                p.send_signal(sig)
    err = p.stderr.read()
    p.wait(timeout=300)
    return p.returncode, err, renamed


@pytest.mark.parametrize("sig, code, word", [(signal.SIGINT, 130, "interrupted"),
                                             (signal.SIGTERM, 143, "terminated")], ids=["SIGINT", "SIGTERM"])
def test_signals_during_the_switch_wait_for_the_whole_set_with_blas_threads(tmp_path, sig, code, word):
    env = dict(os.environ, PYTHONPATH=str(ROOT), OPENBLAS_NUM_THREADS="2", TENSOR_RULES_CACHE=str(tmp_path / "c"),
               TENSOR_RULES_PROGRESS="0")
    want = tmp_path / "want" / "generated"           # the new set, written by an uninterrupted run
    rc, err, _ = _run(tmp_path, NEW, want, env=env)
    assert rc == 0, err
    gen = tmp_path / "generated"
    rc, err, _ = _run(tmp_path, OLD, gen, env=env)
    assert rc == 0, err
    old, new = _state(gen), _state(want)
    changed = [k for k in new if old.get(k) != new[k]]
    assert len(new) == 16 and old.keys() == new.keys() and len(changed) >= 10, changed

    rc, err, renamed = _run(tmp_path, NEW, gen, sig=sig, env=env)
    assert renamed == len(changed), err            # the switch ran to its end
    assert rc == code and "Traceback" not in err, err
    assert err.strip().splitlines()[-1] == f"derive-rules: {word}; {gen} holds the new files", err
    assert _state(gen) == new
    assert not (gen / output.JOURNAL).exists() and not list(tmp_path.rglob(".tmp-*"))
    r = subprocess.run([sys.executable, "-c", "import generated; print(generated.__file__, len(generated.__all__))"],
                       cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [str(gen / "__init__.py"), "9"]


def _sets():
    old = {f"m{k}.py": f"# @generated from rules/m.rules by `derive-rules` -- x\nV = {k}\n" for k in range(4)}
    return old, {k: v.replace("V = ", "V = 10 + ") for k, v in old.items()}


def _failing_switch(monkeypatch, signal_first):
    """The switch renames one file and then fails (a full disk), after a SIGINT if `signal_first`."""
    real = output.finish_interrupted_swap

    def failing(d, staged=()):
        if not staged:                          # the recovery of an earlier run: none here
            return real(d, staged)
        tmp, target = staged[0]
        os.replace(d / tmp, d / target)
        if signal_first:
            signal.raise_signal(signal.SIGINT)  # recorded, not raised: the switch goes on
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(output, "finish_interrupted_swap", failing)
    monkeypatch.setattr(output, "SWAPPED", [])
    monkeypatch.setattr(output, "UNFINISHED", [])


def test_a_signal_during_a_switch_an_error_stops_says_the_directory_is_half_switched(tmp_path, monkeypatch, capsys):
    from derive import cli

    out = tmp_path / "o"
    old, new = _sets()
    output.write_atomically(old, out)
    _failing_switch(monkeypatch, signal_first=True)
    with pytest.raises(KeyboardInterrupt) as exc:   # raised after the block, not in the middle of the switch
        output.write_atomically(new, out)
    assert isinstance(exc.value.__context__, OSError)
    assert output.SWAPPED == [] and output.UNFINISHED == [out] and (out / output.JOURNAL).exists()
    assert cli._interrupted() == 130
    assert capsys.readouterr().err == f"derive-rules: interrupted; {out} is half-switched: run derive-rules again " \
                                      f"to finish\n"


def test_an_error_during_a_switch_says_the_directory_is_half_switched(tmp_path, monkeypatch, capsys):
    import argparse

    from derive import cli

    out = tmp_path / "o"
    old, new = _sets()
    output.write_atomically(old, out)
    _failing_switch(monkeypatch, signal_first=False)
    args = argparse.Namespace(check=False, quiet=True, json=False)
    assert cli._write_outputs(args, [{"module": "m", "rules": [], "files": new, "ok": True}], out, False) == 2
    assert capsys.readouterr().err == f"derive-rules: cannot write {out}: [Errno 28] No space left on device; it is " \
                                      f"half-switched: run derive-rules again to finish\n"
    assert output.finish_interrupted_swap(out)      # what the next run does first
    assert {k: (out / k).read_text() for k in new} == new and not list(out.rglob(".tmp-*"))
