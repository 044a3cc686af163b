"""A long build cached in runtime.trusted_cache (runtime.torch's extension) says so on stderr and runs once per
machine: processes that start at once wait on the first one's lock (saying so) and take its entry from the cache."""
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from runtime import trusted_cache

pytest.importorskip("fcntl")

ROOT = Path(__file__).resolve().parents[2]

CHILD = textwrap.dedent("""
    import os, sys, time
    from runtime import trusted_cache
    log = sys.argv[1]
    ready = log + ".second"       # test_waiting_process_says_it_waits: the second process is about to ask
    def build():
        with open(log, "a") as f:
            f.write("built\\n")
        # hold the lock until a second process (if the test starts one) is on its way to it, however slowly
        # a loaded machine starts Python: then a while longer, so that it finds the lock taken
        deadline = time.time() + (60 if len(sys.argv) > 2 else 0)
        while time.time() < deadline and not os.path.exists(ready):
            time.sleep(0.05)
        time.sleep(1.5)
        return b"payload"
    if len(sys.argv) > 2 and sys.argv[2] == "second":
        open(ready, "w").close()
    blob, hit = trusted_cache.cached("lock-test", "entry.bin", "k1", build, "tensor-rules", what="a test library")
    assert blob == b"payload"
    print("hit" if hit else "built")
""")


def test_processes_starting_together_build_once(tmp_path):
    env = {"TENSOR_RULES_CACHE": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    log = tmp_path / "builds.log"
    procs = [subprocess.Popen([sys.executable, "-c", CHILD, str(log)], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(4)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    assert log.read_text().splitlines() == ["built"]          # one build, whatever the timing
    said = [o[0].strip() for o in outs]
    assert sorted(said) == ["built", "hit", "hit", "hit"]
    builder = outs[said.index("built")][1]
    assert "building a test library (once per machine" in builder and "built a test library in" in builder
    # the others either waited on the lock (and said so) or found the entry already there
    for (out, err), s in zip(outs, said):
        if s == "hit":
            assert "building a test library (once" not in err


def test_a_quick_build_says_nothing_without_what(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TENSOR_RULES_CACHE", str(tmp_path))
    blob, hit = trusted_cache.cached("lock-test", "e", "k", lambda: b"x", "tensor-rules")
    assert (blob, hit) == (b"x", False)
    assert capsys.readouterr().err == ""
    assert trusted_cache.cached("lock-test", "e", "k", lambda: b"y", "tensor-rules", what="it") == (b"x", True)
    assert capsys.readouterr().err == ""       # a hit is silent


def test_waiting_process_says_it_waits(tmp_path):
    env = {"TENSOR_RULES_CACHE": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    log = tmp_path / "builds.log"
    first = subprocess.Popen([sys.executable, "-c", CHILD, str(log), "first"], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    # the second starts once the first is building (its log line is written inside the lock); the first holds the
    # lock until the second has started (its file) and a while longer
    for _ in range(600):
        if log.exists():
            break
        subprocess.run(["sleep", "0.05"])
    second = subprocess.run([sys.executable, "-c", CHILD, str(log), "second"], env=env, capture_output=True, text=True,
                            timeout=120)
    first.communicate(timeout=120)
    assert second.returncode == 0, second.stderr
    assert second.stdout.strip() == "hit"
    assert "waiting for another process that is building a test library" in second.stderr
    assert log.read_text().splitlines() == ["built"]
