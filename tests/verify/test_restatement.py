"""A value for the asked quantity stated again after the final box (verify/restatement.py,
verifier 1.14.0): which sentences restate a value, which labels name the asked quantity, and
the verdicts they make."""

from __future__ import annotations

import pytest

from studybench.verify.restatement import (
    names_asked_quantity,
    restated_expressions,
    restated_values,
    shares_symbol,
    value_kind,
)
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
        ("\n\n**Answer:** 29 m/s", [(None, "29 m/s")]),  # an answer label, in bold
        ("\n\nFinal answer: 29 m/s", [(None, "29 m/s")]),
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


POSITION = "\\boxed{\\frac{2d}{3}}"
POSITION_QUESTION = (
    "A charge $+4q$ is fixed at $x = 0$ and a charge $+q$ at $x = d$. Where between them is "
    "the field zero? Express the position $x$ in terms of $d$."
)
ROLLING = "\\boxed{\\sqrt{\\frac{10 g h}{7}}}"
ROLLING_QUESTION = "Find the speed $v$ of the centre of the sphere at the lowest point."
STOPPING = "\\boxed{0.750\\,\\mathrm{m}}, \\boxed{0.900\\,\\mathrm{J}}"
STOPPING_QUESTION = "Evaluate the stopping distance $s$ and the total energy dissipated."


@pytest.mark.parametrize(
    ("after", "restated"),
    [
        ("\n\nCorrection: x = d/3.", [("x", "d/3", True)]),
        ("\n\nSo $x = d/3$.", [("x", "d/3", False)]),
        ("\n\nTherefore x = d/3.", [("x", "d/3", False)]),
        ("\n\nActually, it's $d/3$.", [(None, "d/3", True)]),
        ("\n\nWait, it should be d/3.", [(None, "d/3", True)]),
        ("\n\nTL;DR: d/3", [(None, "d/3", True)]),
        ("\n\n**Answer:** d/3", [(None, "d/3", True)]),
        ("\n\nHmm, I think x = d/3.", [("x", "d/3", False)]),
        ("\n\nThus x = d/3 in the end.", [("x", "d/3", False)]),
        ("\n\nRe-checking gives $\\sqrt{2gh}$.", [(None, "\\sqrt{2gh}", True)]),
        # prose, a second form and a clause end the expression
        ("\n\nSo x = 2d/3 from the left charge.", [("x", "2d/3", False)]),
        ("\n\nSo $v = \\sqrt{2gh} \\approx 1.4\\sqrt{gh}$.", [("v", "\\sqrt{2gh}", False)]),
        ("\n\nSo x = 2d/3, between the charges.", [("x", "2d/3", False)]),
        ("\n\nSo $v = \\sin\\theta\\, u$.", [("v", "\\sin\\theta\\, u", False)]),
        ("\n\nSo $x = 2d/3,$ as expected.", [("x", "2d/3", False)]),  # punctuation in math
        ("\n\nSo $x = 2dX;$ as expected.", [("x", "2dX", False)]),
        ("\n\nSo $x = 2R$.", [("x", "2R", False)]),  # capitals are symbols too
        # nothing symbolic, or no conclusion; a later conclusion is still read
        ("\n\nSo x = 0.5. Correction: x = d/3.", [("x", "d/3", True)]),
        ("\n\nSo x = 0.5.", []),
        ("\n\nSo the charge is pulled in.", []),
        ("\n\nThe position is d/3 from the right.", []),
    ],
)
def test_conclusions_that_restate_an_expression(
    after: str, restated: list[tuple[str | None, str, bool]]
) -> None:
    assert restated_expressions(after) == restated


@pytest.mark.parametrize(
    ("expression", "gold", "shared"),
    [
        ("\\sqrt{2gh}", ROLLING, True),  # a product of letters shares its letters
        ("d/3", POSITION, True),
        ("29 m/s", ROLLING, False),  # a numeric evaluation in units
        ("\\omega R", "\\boxed{\\frac{\\omega^2 R}{g}}", True),
        ("\\theta", "\\boxed{\\tan\\theta}", True),  # a Greek letter is a symbol
        ("\\phi", "\\boxed{\\tan\\theta}", False),  # a command is not its letters
        ("\\Omega", "\\boxed{m}", False),
        ("2R", "\\boxed{\\frac{R}{3}}", True),  # capitals are symbols
        ("2r", "\\boxed{\\frac{R}{3}}", False),
    ],
)
def test_an_expression_about_the_gold_shares_a_symbol(
    expression: str, gold: str, shared: bool
) -> None:
    assert shares_symbol(expression, gold) is shared


def test_a_coordinate_the_question_also_gives_can_name_the_asked_quantity() -> None:
    assert names_asked_quantity("x", set(), POSITION_QUESTION) is False
    assert names_asked_quantity("x", set(), POSITION_QUESTION, given_counts=True) is True


@pytest.mark.parametrize(
    ("tail", "correct"),
    [
        ("Correction: x = d/3.", False),
        ("So $x = d/3$.", False),
        ("Therefore x = d/3.", False),
        ("Actually, it's $d/3$.", False),
        ("Wait, it should be d/3.", False),
        ("TL;DR: d/3", False),
        ("**Answer:** d/3", False),
        ("Thus x = d/3 in the end.", False),
        # the same expression, written otherwise, or with a remark or a second form
        ("So $x = 2d/3$.", True),
        ("So x = 2d/3 from the left charge.", True),
        ("Therefore $x = \\frac{2}{3}d \\approx 0.67d$.", True),
        ("TL;DR: $\\tfrac{2}{3}d$", True),
        # another quantity, a number, prose, or nothing a parser reads
        ("So $E = kq/x^2$ vanishes there.", True),
        ("So x = 0.5 m for d = 0.75 m.", True),
        ("So it lies closer to the smaller charge.", True),
        ("Correction: none needed.", True),
    ],
)
def test_an_expression_stated_again_is_judged(tail: str, correct: bool) -> None:
    pred = POSITION + "\n\n" + tail
    verdict = judge_inline(pred, POSITION, "EX", question=POSITION_QUESTION)
    assert verdict.correct is correct
    if not correct:
        assert verdict.reason == "hedged:unboxed"


@pytest.mark.parametrize(
    ("tail", "correct"),
    [
        ("So v = \\sqrt{2gh}.", False),  # the asked label, in the gold's symbols
        ("Hmm, I think v = \\sqrt{2gh}.", False),
        ("So $v = \\sqrt{10gh/7}$.", True),
        ("So v = 3.7 m/s for h = 1 m.", True),  # a numeric case is another claim
        ("So $a = 5g/7$ along the incline.", True),  # another quantity
    ],
)
def test_a_labelled_expression_needs_the_asked_label_and_the_gold_symbols(
    tail: str, correct: bool
) -> None:
    pred = ROLLING + "\n\n" + tail
    assert judge_inline(pred, ROLLING, "EX", question=ROLLING_QUESTION).correct is correct


@pytest.mark.parametrize(
    ("tail", "correct"),
    [
        ("So s = 1.50 m.", False),  # the unit places it at the distance
        ("Thus 1.5 m in the end.", False),
        ("Hence, finally, 1.8 J.", False),  # no label: the unit places it at the energy
        ("So s = 0.75 m.", True),
        ("Therefore the energy is 0.90 J.", True),
        ("So the energy is 900 mJ.", True),  # converted
        ("So v = 3.0 m/s initially.", True),  # no element measures a speed
        ("So s = 0.750 m and E = 0.900 J.", True),
    ],
)
def test_a_value_stated_again_after_a_tuple_is_judged_in_its_place(
    tail: str, correct: bool
) -> None:
    pred = STOPPING + "\n\n" + tail
    verdict = judge_inline(pred, STOPPING, "TUP", "NV,NV", question=STOPPING_QUESTION)
    assert verdict.correct is correct


CURRENT = "\\boxed{\\frac{BLv}{R}}"
CURRENT_QUESTION = "Find the induced current $I$ in the rod."


@pytest.mark.parametrize(
    ("pred", "correct"),
    [
        # restated in a clause, or after "in words" (a product of symbols is no prose word)
        ("$I = " + CURRENT + "$\n\nSo, in words: $I = BLv/(2R)$.", False),
        ("$I = " + CURRENT + "$, so $I = BLv/(2R)$ as expected.", False),
        ("$I = " + CURRENT + "$, so $I = BLv/R$ as expected.", True),
        ("$I = " + CURRENT + "$\n\nSo, in other words: $I = vBL/R$.", True),
    ],
)
def test_an_expression_restated_in_a_clause_is_judged(pred: str, correct: bool) -> None:
    assert judge_inline(pred, CURRENT, "EX", question=CURRENT_QUESTION).correct is correct


def test_a_checked_value_of_another_quantity_in_a_clause_is_left_alone() -> None:
    gold = "\\boxed{60.0\\,\\mathrm{cm}}"
    pred = "$v = \\boxed{60.0\\ \\text{cm}}$. Check: 1/30 + 1/60 = 1/20, so f = 20 cm."
    assert judge_inline(pred, gold, "NV").correct is True
