"""Verifier 1.25.0 rules (round 24 and the round-22 leftovers), each with its table of
cases and the controls the rule must leave alone: wrong answers of the same shape stay
rejected, honest ones stay accepted."""

from __future__ import annotations

import pytest

from studybench.verify.question import data_angle_unit
from studybench.verify.verifier import Verdict, judge_inline


def _output(pred: str, gold: str, kind: str, question: str | None = None) -> Verdict:
    """A whole model output ``pred`` against a boxed gold."""
    return judge_inline(pred, f"\\boxed{{{gold}}}", kind, question=question)


# ---------------------------------------------------------------------------------------------
# A value or expression taken back after the box: in a block, in a sentence that names it
# ---------------------------------------------------------------------------------------------

THROWN_UP = (
    "A ball is thrown straight up at $9.9\\,\\mathrm{m/s}$ from the ground. Take $g = "
    "9.8\\,\\mathrm{m/s^2}$ and neglect air resistance. Find the maximum height it reaches."
)
RAMP = (
    "A block slides from rest down a frictionless ramp of height $h$. Find its speed $v$ at "
    "the bottom."
)
HEIGHT_BOX = "So $h = v_0^2/2g = (9.9)^2/(2\\cdot 9.8)$.\n\n$$h = \\boxed{5.0\\,\\mathrm{m}}$$"
SPEED_BOX = "Energy conservation: $mgh = \\tfrac12 mv^2$.\n\n$\\boxed{\\sqrt{2gh}}$"

TAKEN_BACK = [
    # (question, gold, kind, output, correct)
    (
        THROWN_UP,
        "5.0\\,\\mathrm{m}",
        "NV",
        HEIGHT_BOX + "\n\nSo it reaches a height of $3.0\\,\\mathrm{m}$.",
        False,
    ),
    (
        THROWN_UP,
        "5.0\\,\\mathrm{m}",
        "NV",
        HEIGHT_BOX + "\n\nSo the ball rises to a height of 3.0 m.",
        False,
    ),
    (
        THROWN_UP,
        "5.0\\,\\mathrm{m}",
        "NV",
        HEIGHT_BOX
        + " \\begin{remark}Actually, I made an error: $h = 3.0\\,\\mathrm{m}$.\\end{remark}",
        False,
    ),
    (
        THROWN_UP,
        "5.0\\,\\mathrm{m}",
        "NV",
        HEIGHT_BOX + "\n<div>Actually, I made an error: $h = 3.0\\,\\mathrm{m}$.</div>",
        False,
    ),
    (
        RAMP,
        "\\sqrt{2gh}",
        "EX",
        SPEED_BOX + "\n\nI made an error above; the block arrives with $\\sqrt{gh}$.",
        False,
    ),
    (
        RAMP,
        "\\sqrt{2gh}",
        "EX",
        SPEED_BOX + "\n\nOn reflection the block only reaches $v = \\sqrt{gh}$ at the bottom.",
        False,
    ),
    # controls: the same value again, another quantity, a check of another case
    (
        THROWN_UP,
        "5.0\\,\\mathrm{m}",
        "NV",
        HEIGHT_BOX + "\n\nSo it reaches a height of $5.0\\,\\mathrm{m}$.",
        True,
    ),
    (
        THROWN_UP,
        "5.0\\,\\mathrm{m}",
        "NV",
        HEIGHT_BOX + "\n\nSo it takes a time of 1.0 s to get there.",
        True,
    ),
    (
        THROWN_UP,
        "5.0\\,\\mathrm{m}",
        "NV",
        HEIGHT_BOX + " \\begin{remark}This neglects drag.\\end{remark}",
        True,
    ),
    (
        RAMP,
        "\\sqrt{2gh}",
        "EX",
        SPEED_BOX + "\n\nActually, note that this is independent of $m$.",
        True,
    ),
    (
        RAMP,
        "\\sqrt{2gh}",
        "EX",
        SPEED_BOX + "\n\nRechecking: $\\sqrt{2gh}$ has the units of a speed.",
        True,
    ),
    (
        RAMP,
        "\\sqrt{2gh}",
        "EX",
        SPEED_BOX + "\n\nActually, for $h \\to 0$ it gives $v = 0$, as it should.",
        True,
    ),
]


@pytest.mark.parametrize(("question", "gold", "kind", "output", "correct"), TAKEN_BACK)
def test_a_value_taken_back_after_the_box(
    question: str, gold: str, kind: str, output: str, correct: bool
) -> None:
    verdict = _output(output, gold, kind, question)
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# An option's text qualified by the opposite word
# ---------------------------------------------------------------------------------------------

CLIFF = (
    "To make a ball launched horizontally from a cliff land farther from the base, one should "
    "use: (A) a smaller launch speed (B) a heavier ball (C) a greater release height (D) a "
    "lighter ball"
)
OPPOSITE_WORDS = [
    ("\\text{(C) lowering the release point}", False),
    ("\\text{C, i.e. decrease the release height}", False),
    ("\\text{(C) a less elevated release}", False),
    ("\\text{(C) a reduced release height}", False),
    # controls: the option's own words, an explanation, a negated opposite
    ("\\text{(C) a greater release height}", True),
    ("\\text{(C) raising the release point}", True),
    ("\\text{(C) a greater release height, because a lower release gives less time}", True),
    ("\\text{(C) a release height that is not lower}", True),
    ("C", True),
]


@pytest.mark.parametrize(("pred", "correct"), OPPOSITE_WORDS)
def test_an_option_qualified_by_its_opposite(pred: str, correct: bool) -> None:
    verdict = _output(
        f"The range is $v_0\\sqrt{{2H/g}}$.\n\n**Answer:** $\\boxed{{{pred}}}$", "C", "MC", CLIFF
    )
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# A bare gold for an angle is in the unit the question writes its angles in
# ---------------------------------------------------------------------------------------------

SNELL = (
    "A ray in air strikes glass ($n = 1.41$) at an angle of incidence of $45^\\circ$. Find "
    "the angle of refraction."
)
SNELL_RAD = SNELL.replace("$45^\\circ$", "$\\pi/4\\,\\mathrm{rad}$")
ANGLES = [
    (SNELL, "30", "30^\\circ", True),
    (SNELL, "30", "30\\text{ degrees}", True),
    (SNELL, "30", "0.5236\\,\\mathrm{rad}", True),
    (SNELL, "30", "30", True),
    (SNELL, "30", "30\\,\\mathrm{rad}", False),
    (SNELL, "30", "0.5236", False),
    (SNELL_RAD, "0.5236", "0.5236\\,\\mathrm{rad}", True),
    (SNELL_RAD, "0.5236", "30^\\circ", True),
    (SNELL_RAD, "0.5236", "0.5236^\\circ", False),
]


@pytest.mark.parametrize(("question", "gold", "pred", "correct"), ANGLES)
def test_a_bare_angle_gold_takes_the_data_unit(
    question: str, gold: str, pred: str, correct: bool
) -> None:
    verdict = _output(f"**Final Answer**\n\\[\\boxed{{{pred}}}\\]", gold, "NV", question)
    assert verdict.correct is correct, verdict.reason


@pytest.mark.parametrize(
    ("question", "unit"),
    [
        (SNELL, "degree"),
        (SNELL_RAD, "radian"),
        ("A wheel turns through 3 rad and then through $90^\\circ$. Find the angle.", None),
        ("The gas is at $20^\\circ\\mathrm{C}$. Find the pressure.", None),
        ("The water warms by 5 degrees Celsius. Find the heat.", None),
        ("Find the period.", None),
    ],
)
def test_the_data_angle_unit(question: str, unit: str | None) -> None:
    found = data_angle_unit(question)
    assert (str(found) if found is not None else None) == unit
