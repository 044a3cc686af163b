"""Second adversarial round on issues 9 and 10 together: declared domains, hostile names, the reference check at
moved points, the cache and the CLI outputs, each a regression test for a bug found by running them."""
from __future__ import annotations

import threading

import pytest

from derive import api, codegen
from derive.lower import lower


def _program(text):
    return lower(api.parse(text)[0])


def test_centring_does_not_expand_a_product_of_hundreds_of_binomials():
    # (x - 0)(x - 1)···(x - 199): whether shifting x leaves it unchanged was decided by sp.expand of the
    # product (degree 200 in two symbols), minutes of CPU for a rule that is plainly not shift invariant
    prog = _program("q(x[i]: (199, 200)) -> y[i] = " + " * ".join(f"(x[i] - {k})" for k in range(200)) + "\n")
    out = []
    t = threading.Thread(target=lambda: out.append(codegen._shift_invariant(prog, prog.inputs[0].classes[0], ["x"])),
                         daemon=True)
    t.start()
    t.join(20)
    assert out == [False]


def test_a_small_shift_invariant_difference_is_still_proved_invariant():
    # the size guard must not stop centring where it pays: a squared distance is invariant under a common shift
    prog = _program("d(x[i,k], y[j,k]) -> D[i,j] = sum(k, (x[i,k] - y[j,k])**2)\n")
    cls = prog.inputs[0].classes[1]
    assert codegen._shift_invariant(prog, cls, ["x", "y"])
