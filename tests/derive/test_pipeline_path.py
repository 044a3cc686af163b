"""The path of a rule's text through the pipeline (issue #24): each stage entered from derive.pipeline in the
order a rule flows, none entered again except emission and verification once more after display (the module
carries the records display makes; the native kernels are checked against it). runtime.define and
derive-rules run this same path."""
import sys

import pytest

from derive import pipeline
from runtime import native

STAGES = ("language", "lowering", "calculus", "emission", "verification", "display")


def _path(call, *args, **kw):
    """The derive stages the pipeline's own code calls into, in order, consecutive repeats collapsed: calls of a
    stage's functions, not of its objects' methods and properties (a Check's `ok` is data the pipeline reads; the
    IR is the data every stage reads, not a stage a rule passes)."""
    seen = []

    def prof(frame, event, arg):
        if event != "call" or frame.f_back is None:
            return
        caller = frame.f_back.f_globals.get("__name__", "")
        callee = frame.f_globals.get("__name__", "").split(".")
        if "." in frame.f_code.co_qualname:
            return
        if caller == "derive.pipeline" and callee[0] == "derive" and len(callee) > 2 and callee[1] in STAGES:
            if not seen or seen[-1] != callee[1]:
                seen.append(callee[1])

    sys.setprofile(prof)
    try:
        call(*args, **kw)
    finally:
        sys.setprofile(None)
    return seen


RULES = ["f(x[i], A[i,j]) -> y[j] = sum(i, tanh(x[i]) * A[i,j])", "B = inv(A)",
         "g(x[i]) -> y[i] = sin(x[i])\nh(S[i,j]: spd) -> L[i,j] = cholesky(S[i,j])"]


@pytest.mark.parametrize("text", RULES)
def test_define_visits_each_stage_once_in_order(text):
    assert _path(pipeline.define_files, text, "r") == [
        "language", "lowering", "calculus", "emission", "verification", "display", "emission"]


def test_with_kernels_the_native_check_comes_last():
    path = _path(pipeline.derive_file, RULES[0], "t.rules", "t", kernels=True)
    tail = ["verification"] if native.available()[0] else []
    assert path == ["language", "lowering", "calculus", "emission", "verification", "display", "emission"] + tail
