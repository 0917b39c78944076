"""Verifier 1.14.0's rules, each read through the function that applies it: two boxes joined
by one condition are two cases, a decimal comma written as ``{,}``, and the sets of values an
ALT answer offers (the whole verdicts are in ``cases/form_*.jsonl`` and
``cases/sound_round7.jsonl``)."""

from __future__ import annotations

import pytest

from studybench.verify.verifier import join_digit_groups, judge_inline
from studybench.verify.visibility import cases

FALSE = "\\boxed{\\text{False}}"


@pytest.mark.parametrize(
    ("gap", "labelled"),
    [
        (" if we consider the bead at rest, ", True),
        (" if the track is smooth; ", True),
        (" assuming no friction, ", True),
        (" provided that the bead is at rest: ", True),
        (" supposing the hoop is fixed, ", True),
        (" In case the hoop rotates, ", True),
        (" when it reaches the bottom, ", False),  # a moment, not a condition
        (". If the mass doubles, ", False),  # a sentence of its own: a later step
        (" if we consider the bead at rest. Then ", False),
        (" if it rotates? ", False),
        (" , ", False),
        (" if" + " x" * 90 + ", ", False),  # longer than a condition: reasoning
    ],
)
def test_one_condition_between_two_boxes_makes_them_cases(gap: str, labelled: bool) -> None:
    assert cases(gap, "So ") is labelled


@pytest.mark.parametrize(
    ("pred", "correct"),
    [
        (
            "It could be either: \\boxed{\\text{True}} if we consider the bead at rest, "
            "\\boxed{\\text{False}} in the rotating case.",
            False,
        ),
        ("\\boxed{\\text{True}} assuming no rotation; \\boxed{\\text{False}} otherwise", False),
        ("\\boxed{\\text{False}} if the hoop rotates, \\boxed{\\text{False}} at rest too.", True),
        ("\\boxed{\\text{True}} when it starts, \\boxed{\\text{False}}", True),  # last box
    ],
)
def test_conditional_truth_values_are_each_judged(pred: str, correct: bool) -> None:
    assert judge_inline(pred, FALSE, "TF").correct is correct


@pytest.mark.parametrize(
    ("box", "read"),
    [
        ("14{,}5", "14.5"),
        ("0{,}154", "0.154"),  # after a lone 0, three digits are decimals
        ("0{,}5", "0.5"),
        ("12{,}5000", "12.5000"),
        ("3{,}14159", "3.14159"),
        ("1{,}500", "1500"),  # three digits: a thousands group
        ("1{,}000{,}000", "1000000"),
        ("x_1{,}5", "x_1{,}5"),  # an index, then a comma: no number
        ("2^{0{,}5}", "2^{0{,}5}"),  # inside braces: left as written
        ("14,5", "14,5"),  # a bare comma lists values
        ("1{,}5{,}3", "1{,}5{,}3"),  # two commas: no number
    ],
)
def test_decimal_commas(box: str, read: str) -> None:
    assert join_digit_groups(box) == read
