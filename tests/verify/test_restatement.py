"""A value for the asked quantity stated again after the final box (verify/restatement.py,
verifier 1.14.0): which sentences restate a value, which labels name the asked quantity, and
the verdicts they make."""

from __future__ import annotations

import pytest

from studybench.verify.restatement import names_asked_quantity, restated_values, value_kind
from studybench.verify.verifier import judge_inline

SPEED = "\\boxed{14.5\\,\\mathrm{m/s}}"
EFFICIENCY = "\\boxed{0.154}"
QUESTION = "Find the efficiency $\\eta$ of the cycle as a decimal number."


@pytest.mark.parametrize(
    ("after", "restated"),
    [
        ("\n\nSo v = 29.0 m/s.", [("v", "29.0 m/s")]),
        ("\n\nTherefore \\eta = 0.308.", [("\\eta", "0.308")]),
        ("\n\nHence, finally, v = 29.0 m/s.", [("v", "29.0 m/s")]),
        ("\n\nHmm, I think v = 29.0 m/s.", [("v", "29.0 m/s")]),
        ("\n\nThus v = 29.0 m/s in the end.", [("v", "29.0 m/s")]),
        ("\n\nRe-checking the arithmetic gives 0.308.", [(None, "0.308")]),
        ("\n\nWith the correct numbers, v_0 = 29 m/s.", [("v_0", "29 m/s")]),
        ("\n\nCorrection: option D.", [(None, "D")]),
        ("\n\nSo the statement is True.", [(None, "True")]),
        ("\n\nSo L = 7.35 × 10^26 W.", [("L", "7.35 × 10^{26} W")]),  # prose powers
        ("\n\nSo E = 7.95 × 10^-19 J.", [("E", "7.95 × 10^{-19} J")]),
        ("\n\nSo the car is fast.", []),
        ("\n\nThe speed is 29 m/s at the top.", []),  # no conclusion word
        ("\n\nSo, as expected, it is fast.", []),
    ],
)
def test_conclusions_that_restate_a_value(
    after: str, restated: list[tuple[str | None, str]]
) -> None:
    assert restated_values(after) == restated


@pytest.mark.parametrize(
    ("label", "own", "question", "asked"),
    [
        ("v", {"v"}, None, True),  # the box's label
        ("v_{0}", {"v_0"}, None, True),  # the same label written otherwise
        ("\\eta", set(), QUESTION, True),  # named by the question, not given
        ("g", set(), "Take $g = 9.8\\,\\mathrm{m/s^2}$. Find the speed.", False),  # given
        ("a", set(), QUESTION, False),  # not named
        ("a", set(), None, False),  # no question, no own label
        (None, {"v"}, QUESTION, False),
    ],
)
def test_which_labels_name_the_asked_quantity(
    label: str | None, own: set[str], question: str | None, asked: bool
) -> None:
    assert names_asked_quantity(label, own, question) is asked


@pytest.mark.parametrize(
    ("value", "kind"), [("D", "option"), ("True", "truth"), ("false", "truth"), ("3 m", "value")]
)
def test_what_a_restated_value_is(value: str, kind: str) -> None:
    assert value_kind(value) == kind


@pytest.mark.parametrize(
    ("pred", "gold", "answer_type", "question", "correct"),
    [
        (SPEED + "\n\nSo v = 29.0 m/s.", SPEED, "NV", None, False),  # the unit places it
        (SPEED + "\n\nTherefore v = 14.5 m/s.", SPEED, "NV", None, True),  # the same value
        (SPEED + "\n\nSo v \\approx 52 km/h.", SPEED, "NV", None, True),  # in other units
        (SPEED + "\n\nSo a = 3.2 m/s^2, as expected.", SPEED, "NV", None, True),  # another
        (EFFICIENCY + "\n\nTherefore \\eta = 0.308.", EFFICIENCY, "NV", QUESTION, False),
        (EFFICIENCY + "\n\nRe-checking the arithmetic gives 0.308.", EFFICIENCY, "NV", None, False),
        (EFFICIENCY + "\n\nSo n = 2.", EFFICIENCY, "NV", QUESTION, True),  # not the asked one
        ("\\boxed{B}\n\nCorrection: option D.", "\\boxed{B}", "MC", None, False),
        ("\\boxed{B}\n\nSo option B.", "\\boxed{B}", "MC", None, True),
        (
            "\\boxed{\\text{False}}\n\nCorrection: the statement is True.",
            "\\boxed{\\text{False}}",
            "TF",
            None,
            False,
        ),
    ],
)
def test_a_restated_value_is_judged(
    pred: str, gold: str, answer_type: str, question: str | None, correct: bool
) -> None:
    assert judge_inline(pred, gold, answer_type, question=question).correct is correct
