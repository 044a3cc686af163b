"""The status line derive-rules shows while it derives: which file (and, for one file, which rule or which step),
how many of how many are done, and the seconds so far. Shown only on a terminal: never when stderr is a pipe or a
file, under CI (the CI variable set), with --json or --quiet, or with TENSOR_RULES_PROGRESS=0; and only once the
work has taken longer than DELAY seconds, so that a quick run prints nothing extra. The line is erased when the
work ends; what the command prints afterwards is unchanged.
"""
from __future__ import annotations

import os
import sys
import threading
import time

DELAY = 2.0          # seconds of work before the line first appears
TICK = 0.5           # seconds between redraws of the elapsed time


def wanted(stream=None, *, quiet=False) -> bool:
    """Whether a status line belongs on `stream` (stderr by default)."""
    stream = stream or sys.stderr
    if quiet or os.environ.get("TENSOR_RULES_PROGRESS", "").strip() == "0" or os.environ.get("CI"):
        return False
    try:
        return stream.isatty() and os.environ.get("TERM") != "dumb"
    except (AttributeError, ValueError, OSError):
        return False


class Status:
    """A line on a terminal, redrawn in place by a daemon thread (started by `start`, after any fork)."""

    def __init__(self, names, stream=None):
        self.names = list(names)              # the files, in the order given
        self.done: set = set()
        self.running: list = []               # indices being derived now
        self.step = ""                        # for one file: the rule or step it is at
        self.stream = stream or sys.stderr
        self.t0 = time.monotonic()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = None
        self._width = 0

    def start(self, running):
        """The files being derived now (indices into names); the first call starts the redrawing."""
        with self._lock:
            self.running = list(running)
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="derive-rules progress", daemon=True)
            self._thread.start()

    def at(self, step: str):
        """The step one file is at (a rule's name, compiling, checking)."""
        with self._lock:
            self.step = step

    def finished(self, i):
        with self._lock:
            self.done.add(i)
            self.running = [j for j in self.running if j != i]

    def close(self):
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self._erase()

    def text(self) -> str:
        with self._lock:
            now = ", ".join(self.names[i] for i in self.running)
            step = self.step
            n, k = len(self.names), len(self.done)
        secs = time.monotonic() - self.t0
        head = f"derive-rules: {k}/{n} files" if n > 1 else "derive-rules:"
        what = f"deriving {now}" if now else "finishing"
        if step and len(self.running) == 1:
            what += f": {step}"
        return f"{head} · {what} · {secs:.0f} s"

    def _run(self):
        while not self._stop.wait(TICK):
            if time.monotonic() - self.t0 >= DELAY:
                self._draw(self.text())

    def _draw(self, line):
        cols = _columns(self.stream)
        line = line if len(line) < cols else line[:cols - 2] + "…"
        try:
            self.stream.write("\r" + line + " " * max(0, self._width - len(line)))
            self.stream.flush()
        except (OSError, ValueError):
            self._stop.set()
            return
        self._width = len(line)

    def _erase(self):
        if self._width:
            try:
                self.stream.write("\r" + " " * self._width + "\r")
                self.stream.flush()
            except (OSError, ValueError):
                pass
            self._width = 0


def _columns(stream) -> int:
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, ValueError, OSError):
        return 80


class Silent:
    """What the pipeline is given when no line is shown: every call does nothing."""

    def start(self, running):
        pass

    def at(self, step):
        pass

    def finished(self, i):
        pass

    def close(self):
        pass
