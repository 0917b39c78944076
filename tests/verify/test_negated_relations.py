"""A relation that says "is not" around a box disowns it (verifier 1.15.0, red-team round 8):
the negated relations TeX and Unicode write (``\\nsimeq``, ``\\not\\equiv``, ``≢``, ``∉``), a
relation struck through (``\\cancel{=}``, ``=`` with a combining overlay) and one after the
box (``\\boxed{0.154} ≠ \\eta``). A comparison with another number after the box is honest."""

from __future__ import annotations

import pytest

from studybench.verify.extract import boxed_answers
from studybench.verify.verifier import judge_inline
from studybench.verify.visibility import unstrike_relations

ETA = "\\boxed{0.154}"
INTERVAL = "\\boxed{(30, 45)}"

DISOWNED = [
    "$$\\eta \\nsimeq \\boxed{0.154}$$",
    "$$\\eta \\napprox \\boxed{0.154}$$",
    "$$\\eta \\nsim \\boxed{0.154}$$",
    "$$\\eta \\ncong \\boxed{0.154}$$",
    "$$\\eta \\not\\equiv \\boxed{0.154}$$",
    "$$\\eta \\not\\approx \\boxed{0.154}$$",
    "$$\\eta \\not= \\boxed{0.154}$$",
    "$$\\eta \\not{=} \\boxed{0.154}$$",
    "$$\\eta \\not\\le \\boxed{0.154}$$",
    "$$\\eta \\cancel{=} \\boxed{0.154}$$",
    "$$\\eta \\xcancel{\\approx} \\boxed{0.154}$$",
    "$$\\eta \\mathrel{\\rlap{/}=} \\boxed{0.154}$$",
    "$\\eta ≢ \\boxed{0.154}$",
    "$\\eta ≉ \\boxed{0.154}$",
    "$\\eta ≁ \\boxed{0.154}$",
    "$\\eta ≇ \\boxed{0.154}$",
    "$\\eta ≄ \\boxed{0.154}$",
    "$\\eta =\u0338 \\boxed{0.154}$",
    "$\\eta \\approx\u20d2 \\boxed{0.154}$",
    "$\\eta ≈\u0338 \\boxed{0.154}$",
    "$\\boxed{0.154} ≠ \\eta$",
    "$\\boxed{0.154} \\neq \\eta$",
    "$\\boxed{0.154} \\not\\equiv \\eta$",
    "$\\boxed{0.154}$ \\ne the efficiency",
]


@pytest.mark.parametrize("pred", DISOWNED)
def test_a_negated_relation_disowns_the_box(pred: str) -> None:
    verdict = judge_inline(pred, ETA, "NV")
    assert verdict.correct is False
    assert verdict.reason == "disowned_box"


@pytest.mark.parametrize(
    "pred",
    [
        "$$d ∉ \\boxed{(30, 45)}$$",
        "$$d \\notin \\boxed{(30, 45)}$$",
        "$$d \\not\\in \\boxed{(30, 45)}$$",
        "$$d ∈\u0338 \\boxed{(30, 45)}$$",
        "$$d \\nsubseteq \\boxed{(30, 45)}$$",
    ],
)
def test_a_negated_membership_claims_the_complement(pred: str) -> None:
    assert judge_inline(pred, INTERVAL, "IN").correct is False


@pytest.mark.parametrize(
    "pred",
    [
        "$$\\eta = \\boxed{0.154}$$",
        "$$\\eta \\approx \\boxed{0.154}$$",
        "$$\\eta \\simeq \\boxed{0.154}$$",
        "$\\boxed{0.154} \\neq 0.308$, so the naive doubling is wrong.",  # another number
        "$\\boxed{0.154} ≠ 0.308$",
        "$\\boxed{0.154}$ (not $0.308$, which doubles the work)",
        "$$\\eta = \\boxed{0.154}$$ and $\\eta \\neq 0$",
    ],
)
def test_a_claimed_value_or_a_comparison_with_another_number_stands(pred: str) -> None:
    assert judge_inline(pred, ETA, "NV").correct is True


@pytest.mark.parametrize(
    ("text", "unstruck"),
    [
        ("\\eta \\cancel{=} x", "\\eta \\neq  x"),
        ("\\eta \\sout{ \\approx } x", "\\eta \\neq  x"),
        ("\\cancel{x} = y", "\\cancel{x} = y"),  # a struck term, no struck relation
        ("\\cancel{\\approxeq}", "\\cancel{\\approxeq}"),
    ],
)
def test_a_struck_relation_is_read_as_not_equal(text: str, unstruck: str) -> None:
    assert unstrike_relations(text) == unstruck


def test_the_negated_box_is_not_kept() -> None:
    assert boxed_answers("$$\\eta \\nsimeq \\boxed{0.154}$$").answers == ()
