"""Verifier 1.14.0's rules, each read through the function that applies it: two boxes joined
by one condition are two cases, a decimal comma written as ``{,}``, a value labelled as a
function of one quantity (``v^2 = 14.5``), and an operation written around a box (the whole
verdicts are in ``cases/form_*.jsonl`` and ``cases/sound_redteam7.jsonl``)."""

from __future__ import annotations

import pytest

from studybench.verify.chains import transformed_quantity
from studybench.verify.verifier import join_digit_groups, judge_inline
from studybench.verify.visibility import cases, operands

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


@pytest.mark.parametrize(
    ("side", "transformed"),
    [
        ("v^2", True),
        ("2v", True),
        ("v/2", True),
        ("\\frac{v}{2}", True),
        ("\\ln v", True),
        ("v+1", True),
        ("v_2^2", True),
        ("\\eta^2", True),
        ("\\sqrt{v}", True),
        ("x^{-1}", True),
        ("v", False),
        ("v_2", False),  # an index names the quantity
        ("v_{\\max}", False),
        ("\\Delta x", False),
        ("E_k", False),
        ("F(t)", False),
        ("\\frac{1}{2}mv^2", False),  # a formula in two quantities: a step of the working
        ("\\alpha_\\mu\\alpha^\\mu", False),
    ],
)
def test_a_function_of_one_quantity(side: str, transformed: bool) -> None:
    assert transformed_quantity(side) is transformed


SPEED = "\\boxed{14.5\\,\\mathrm{m/s}}"


@pytest.mark.parametrize(
    ("pred", "reason"),
    [
        ("\\boxed{v^2 = 14.5\\,\\mathrm{m/s}}", "chain_link_0:transformed_quantity"),
        ("\\boxed{2v = 14.5\\,\\mathrm{m/s}}", "chain_link_0:transformed_quantity"),
        ("\\boxed{\\ln v = 14.5\\,\\mathrm{m/s}}", "chain_link_0:transformed_quantity"),
        ("\\boxed{v = 14.5\\,\\mathrm{m/s}}", "unit_converted"),
        ("\\boxed{v = \\sqrt{2gh} = 14.5\\,\\mathrm{m/s}}", "unit_converted"),
        ("\\boxed{v_{\\max} = 14.5\\,\\mathrm{m/s}}", "unit_converted"),
    ],
)
def test_a_value_labelled_as_a_function_of_the_quantity(pred: str, reason: str) -> None:
    assert judge_inline("So " + pred, SPEED, "NV").reason == reason


def test_a_step_inside_the_chain_may_be_a_function_of_one_quantity() -> None:
    pred = "\\boxed{a = g/2 = 4.9\\,\\mathrm{m/s^2}}"
    assert judge_inline(pred, "\\boxed{4.9\\,\\mathrm{m/s^2}}", "NV").correct


def test_the_gold_may_label_the_function_itself() -> None:
    gold = "\\boxed{T^2 = 4.0\\,\\mathrm{s^2}}"
    assert judge_inline("\\boxed{T^2 = 4.0\\,\\mathrm{s^2}}", gold, "NV").correct


@pytest.mark.parametrize(
    ("text", "operand"),
    [
        ("$v = 2\\boxed{14.5}$", True),
        ("$v = 2 \\times \\boxed{14.5}$", True),
        ("The answer: $-\\boxed{14.5}$.", True),
        ("$$v = \\frac{\\boxed{14.5}}{2}$$", True),
        ("$$v = \\sqrt{\\boxed{14.5}}$$", True),
        ("$$v = e^{\\boxed{14.5}}$$", True),
        ("$$v = 1/\\boxed{14.5}$$", True),
        ("$$v = \\sin \\boxed{14.5}$$", True),
        ("$$v = \\boxed{14.5}^2$$", True),
        ("$$v = \\boxed{14.5}^{-1}$$", True),
        ("$$v = \\boxed{14.5}\\,/\\,2$$", True),
        ("$$v = \\boxed{4.96\\,\\mathrm{eV}}\\times10^{3}$$", True),
        ("$\\boxed{B L v/R} + I_0$", True),
        ("\\boxed{14.5} thousand m/s", True),
        ("$\\boxed{14.5}\\,\\text{thousand}$", True),  # a multiplier word is no unit
        ("$\\boxed{14.5}$ thousand.", True),
        ("$$v^2 = \\boxed{14.5}$$", True),
        ("$$2v = \\boxed{14.5}$$", True),
        ("$$\\ln v = \\boxed{14.5}$$", True),
        ("The answer is $\\neg \\boxed{B}$", True),
        ("The answer is $\\sim \\boxed{B}$", True),
        ("The answer is $\\overline{\\boxed{B}}$", True),
        ("$$v = \\boxed{14.5}$$", False),
        ("$v = \\boxed{14.5}\\,\\mathrm{m/s}$", False),
        ("\\boxed{3}\\,\\mathrm{m}^2", False),  # the unit's power, not the box's
        ("\\boxed{5.54}\\times10^{3}\\,\\mathrm{s}", False),  # a bare number's scale
        ("- \\boxed{14.5}", False),  # a bullet
        ("**Answer:** \\boxed{14.5}", False),
        ("$\\sim \\boxed{14.5}$", False),  # about 14.5: only a choice is negated so
        ("$$E = \\frac{1}{2}mv^2 = \\boxed{105}$$", False),  # a step before the box
        ("$$\\frac{1}{2}mv^2 = \\boxed{105}$$", False),  # a formula in two quantities
        ("$$v_2 = \\boxed{14.5}$$", False),
        ("Step 2: \\boxed{14.5}", False),
    ],
)
def test_an_operation_around_a_box(text: str, operand: bool) -> None:
    start = text.index("\\boxed")
    end = text.index("}", start) + 1
    while text.count("{", start, end) > text.count("}", start, end):
        end = text.index("}", end) + 1
    assert operands(text, [(start, end)]) == [operand]
