"""Batched rules in matrix form: the slice at one batch index b, each batched tensor subscripted (A_b is A[b,:,:]),
a tensor shared across the batch as it is and its cotangent summed over b. Expected forms are the per-batch
textbook identities (Giles 2008: C = A·B gives dA = dC·Bᵀ, dB = Aᵀ·dC; B = A⁻¹ gives dA = -Bᵀ·dB·Bᵀ; x = A⁻¹·y
gives dy = A⁻ᵀ·dx, dA = -dy·xᵀ; d log det A = tr(A⁻¹·dA)), written with the subscript b by hand."""
from pathlib import Path

import pytest

from derive import api
from derive.display import check as dc
from derive.display import matrixform

BATCHED = (Path(__file__).resolve().parents[2] / "rules" / "batched.rules").read_text()


@pytest.fixture(scope="module")
def rules():
    return {r.name: r for r in api.derive_text(BATCHED, "batched.rules", verify_rules=False)}


WANT = {
    "batched_matmul": ("dC_b = A_b·dB + dA_b·B", "dA_b = dC_b·Bᵀ\ndB = Σ_b A_bᵀ·dC_b"),
    "bmm": ("dC_b = A_b·dB_b + dA_b·B_b", "dA_b = dC_b·B_bᵀ\ndB_b = A_bᵀ·dC_b"),
    "batched_transpose": ("dB_b = dA_bᵀ", "dA_b = dB_bᵀ"),
    "batched_inv": ("dB_b = -B_b·dA_b·B_b", "dA_b = -B_bᵀ·dB_b·B_bᵀ"),
    # logdet's code takes every invertible A (spd is only where it is sampled): A⁻ᵀ, not A⁻¹ (issue 25)
    "batched_logdet": ("dd_b = tr(A_b⁻¹·dA_b)", "dA_b = dd_b·A_b⁻ᵀ"),
    "batched_solve": ("dz_b = dy_b - dA_b·x_b\ndx_b = A_b⁻¹·dz_b", "dy_b = A_b⁻ᵀ·dx_b\ndA_b = -dy_b·x_bᵀ"),
}


@pytest.mark.parametrize("name", sorted(WANT))
def test_batched_rules_show_the_per_batch_textbook_form(rules, name):
    dc.rejections.clear()
    r = rules[name]
    assert (r.pushforward_text(), r.pullback_text()) == WANT[name]
    assert dc.rejections == []


def test_latex_subscripts_the_batch_and_sums_a_shared_cotangent(rules):
    tex = rules["batched_matmul"].pullback_text("latex").splitlines()
    assert tex[0] == r"\mathrm{d}A_{b} = \mathrm{d}C_{b} B^{\top} \\"
    assert tex[1] == r"\mathrm{d}B = \sum_{b} A_{b}^{\top} \mathrm{d}C_{b}"
    assert rules["batched_inv"].pullback_text("latex") == r"\mathrm{d}A_{b} = -B_{b}^{\top} \mathrm{d}B_{b} B_{b}^{\top}"


def test_temporaries_keep_the_batch_letter_in_index_form(rules):
    # solve's tangent temporary and cayley's lifted one were dz[i,j] and dt0[k,i,j] beside dx[b,i]
    assert rules["batched_solve"].pushforward_index().splitlines()[0] == "dz[b,i] = Σ_k -dA[b,i,k]·x[b,k] + dy[b,i]"
    assert rules["batched_cayley"].pushforward_index().splitlines()[0] == "dt0[b,i,j] = -dA[b,i,j]"
    assert rules["batched_cayley"].pushforward_text().splitlines()[0] == "dt0_b = -dA_b"


def test_a_wrong_slice_is_caught_per_batch_element(monkeypatch, rules):
    # read every cotangent slice at the next batch element: each element's form, and the sum over the batch of a
    # shared cotangent, disagree with the index form, so index form is shown
    real = matrixform._SlicePoint.array

    def shifted(self, access):
        if "C§" in matrixform.ir.acc_name(access):
            return real(matrixform._SlicePoint(self.pt, self.b, (self.beta + 1) % self.pt.size(self.b)), access)
        return real(self, access)

    monkeypatch.setattr(matrixform._SlicePoint, "array", shifted)
    dc.rejections.clear()
    r = rules["batched_matmul"]
    assert r.pullback_text() == r.pullback_index()
    assert {why.split(":")[0] for _, _, why in dc.rejections} == {"batch element 0", "the sum over the batch"}


def test_a_batch_index_off_axis_0_keeps_index_form():
    # A carries b at axis 1: no slice A_b of A's leading axis exists, so no batched form is claimed
    r = api.derive_text("f(A[i,b,k], B[b,k,j]) -> C[b,i,j] = A[i,b,k]*B[b,k,j]", verify_rules=False)[0]
    assert r.pullback_text() == r.pullback_index()
    assert r.pushforward_text() == r.pushforward_index()


def test_an_unbatched_rule_is_unchanged():
    r = api.derive_expr("C = A[i,k]*B[k,j]")
    assert r.pullback_text() == "dA = dC·Bᵀ\ndB = Aᵀ·dC"
