"""Verifier 1.13.0's rules outside visibility.py, one case table per rule: bounds are no
values, exact golds hold a prediction to the digits it writes, option letters struck out or
negated, truth values qualified after the box, phrases put as questions, sets of
alternatives, interval units, units named before the box, offers beside several asked
values, boxes labelled as cases, fenced code and final answers stated again after the box.

Each table has the wrong forms a red team found accepted and the honest forms the rule must
keep (controls)."""

from __future__ import annotations

import pytest

from studybench.verify.extract import boxed_answers
from studybench.verify.numeric import (
    interval_with_unit_after,
    unit_place,
    with_unit_after,
    with_unit_before,
)
from studybench.verify.parsing import exact_gold_tolerance, has_decimal, written_precision
from studybench.verify.question import asked_bound
from studybench.verify.rules.choice import qualified_after
from studybench.verify.verifier import judge_inline
from studybench.verify.visibility import cases

SPEED = "\\boxed{14.5\\,\\mathrm{m/s}}"


@pytest.mark.parametrize(
    ("question", "bound"),
    [
        ("Find the maximum speed of the block.", "upper"),
        ("What is the greatest height reached?", "upper"),
        ("How far can it go at most?", "upper"),
        ("Find the minimum launch speed.", "lower"),
        ("What is the least force needed?", "lower"),
        ("Find the threshold frequency.", "lower"),
        ("Find the speed of the block.", None),
        ("Find the maximum and the minimum tension.", None),  # both: no one direction
        (None, None),
        ("", None),
    ],
)
def test_the_extreme_a_question_asks_for(question: str | None, bound: str | None) -> None:
    assert asked_bound(question) == bound


@pytest.mark.parametrize(
    ("pred", "gold", "question", "correct"),
    [
        # a bound for a value asked is no value
        ("\\boxed{v \\le 14.5\\,\\mathrm{m/s}}", SPEED, "Find the speed.", False),
        ("\\boxed{v < 14.5\\,\\mathrm{m/s}}", SPEED, "Find the speed.", False),
        ("\\boxed{v \\gtrsim 14.5\\,\\mathrm{m/s}}", SPEED, "Find the speed.", False),
        ("\\boxed{14.5\\,\\mathrm{m/s} \\le v}", SPEED, "Find the speed.", False),
        ("\\boxed{\\eta \\leqslant 0.154}", "\\boxed{0.154}", None, False),
        # a bound pointing the way the question or the gold's label asks
        ("\\boxed{v \\ge 14.5\\,\\mathrm{m/s}}", SPEED, "Find the minimum speed.", True),
        ("\\boxed{v \\le 14.5\\,\\mathrm{m/s}}", SPEED, "Find the minimum speed.", False),
        ("\\boxed{v \\le 14.5\\,\\mathrm{m/s}}", SPEED, "Find the maximum speed.", True),
        ("\\boxed{v \\ge 4}", "\\boxed{v_{\\min} = 4}", None, True),
        ("\\boxed{v \\le 4}", "\\boxed{v_{\\min} = 4}", None, False),
        # a value is a value (controls)
        ("\\boxed{v = 14.5\\,\\mathrm{m/s}}", SPEED, "Find the speed.", True),
        ("\\boxed{14.5\\,\\mathrm{m/s}}", SPEED, "Find the maximum speed.", True),
        # "max" in the box's remark bounds the value; a direction does not
        ("\\boxed{0.154\\text{ max}}", "\\boxed{0.154}", "Find the efficiency.", False),
        ("\\boxed{0.154\\text{ (maximum)}}", "\\boxed{0.154}", "Find the efficiency.", False),
        ("\\boxed{14.5\\,\\mathrm{m/s}\\text{ (upward)}}", SPEED, "Find the speed.", True),
    ],
)
def test_a_bound_is_no_value(pred: str, gold: str, question: str | None, correct: bool) -> None:
    assert judge_inline(pred, gold, "NV", question=question).correct is correct


def test_a_bound_in_a_tuple_element_is_no_value() -> None:
    gold = "\\boxed{0.750\\,\\mathrm{m}}, \\boxed{0.900\\,\\mathrm{J}}"
    pred = "\\boxed{s<0.750\\,\\mathrm{m}, Q>0.900\\,\\mathrm{J}}"
    verdict = judge_inline(pred, gold, "TUP", "NV,NV")
    assert (verdict.correct, verdict.reason) == (False, "element_0:wrong_bound")


@pytest.mark.parametrize(
    ("text", "whole_numbers", "precision"),
    [
        ("0.667", True, 0.0005 / 0.667),
        ("173", True, 0.5 / 173),
        ("173", False, 1e-9),  # whole numbers in an expression are exact
        ("0.5049", True, 0.00005 / 0.5049),
        ("\\frac{101}{200}", True, 1e-9),  # a fraction of whole numbers is exact
        ("2/4", True, 1e-9),
        ("1.5e3", True, 50 / 1500),
        ("0.333 \\cdot 9.81", False, 0.005 / 9.81),  # the most precise number (1.14.0)
        ("5.04\\times10^{-1}", True, 0.005 / 5.04),  # padding cannot loosen it (1.14.0)
        ("0.672 \\cdot 1.0", False, 0.0005 / 0.672),
        ("0", True, 1e-9),
    ],
)
def test_the_precision_a_number_writes(text: str, whole_numbers: bool, precision: float) -> None:
    assert written_precision(text, whole_numbers) == pytest.approx(precision)


@pytest.mark.parametrize(
    ("pred", "gold", "tolerance"),
    [
        ("0.672049 d", "\\frac{2d}{3}", 2 * 0.0000005 / 0.672049),
        ("0.67 d", "\\frac{2d}{3}", 0.01),  # two figures: the answer tolerance caps it
        ("\\frac{2d}{3}", "\\frac{2d}{3}", 0.01),  # no decimal written
        ("0.672 d", "0.667 d", 0.01),  # a gold with decimals is itself rounded
    ],
)
def test_an_exact_gold_holds_decimals_to_their_digits(
    pred: str, gold: str, tolerance: float
) -> None:
    assert exact_gold_tolerance(pred, gold, 0.01) == pytest.approx(tolerance)
    assert has_decimal(pred) is ("." in pred)


@pytest.mark.parametrize(
    ("pred", "gold", "answer_type", "correct"),
    [
        # NV: a fraction, a root or pi is exact
        ("\\boxed{\\frac{101}{200}}", "\\boxed{\\frac{1}{2}}", "NV", False),
        ("\\boxed{0.5049}", "\\boxed{\\frac{1}{2}}", "NV", False),
        ("\\boxed{0.50}", "\\boxed{\\frac{1}{2}}", "NV", True),
        ("\\boxed{50\\%}", "\\boxed{\\frac{1}{2}}", "NV", True),
        ("\\boxed{2/4}", "\\boxed{\\frac{1}{2}}", "NV", True),
        ("\\boxed{0.333}", "\\boxed{\\frac{1}{3}}", "NV", True),
        ("\\boxed{173\\,\\mathrm{cm}}", "\\boxed{\\sqrt{3}\\,\\mathrm{m}}", "NV", True),
        ("\\boxed{3.1416}", "\\boxed{\\pi}", "NV", True),
        ("\\boxed{3.1516}", "\\boxed{\\pi}", "NV", False),
        # a rounded gold keeps the answer tolerance
        ("\\boxed{14.6\\,\\mathrm{m/s}}", SPEED, "NV", True),
        # EX and EQ against exact golds
        ("\\boxed{0.672049\\, d}", "\\boxed{\\frac{2d}{3}}", "EX", False),
        ("\\boxed{0.667 d}", "\\boxed{\\frac{2d}{3}}", "EX", True),
        ("\\boxed{0.67 d}", "\\boxed{\\frac{2d}{3}}", "EX", True),
        ("\\boxed{6.5500 p_0 V_0}", "\\boxed{\\frac{13}{2} p_0 V_0}", "EX", False),
        ("\\boxed{6.5 p_0 V_0}", "\\boxed{\\frac{13}{2} p_0 V_0}", "EX", True),
        ("\\boxed{0.43190 m g}", "\\boxed{\\frac{3}{7} m g}", "EX", False),
        ("\\boxed{1.01\\kappa}", "\\boxed{\\kappa}", "EX", False),
        (
            "\\boxed{\\sin\\left(0.6931 x\\right)}",
            "\\boxed{\\sin\\left(x \\ln 2\\right)}",
            "EX",
            True,
        ),
        ("\\boxed{x = 0.2915 L}", "\\boxed{x = \\frac{L}{2\\sqrt{3}}}", "EQ", False),
        ("\\boxed{x = 0.2887 L}", "\\boxed{x = \\frac{L}{2\\sqrt{3}}}", "EQ", True),
        ("\\boxed{x = 0.5 a t^{2}}", "\\boxed{x = \\frac{1}{2} a t^{2}}", "EQ", True),
        # interval ends in whole numbers, or symbolic
        ("\\boxed{(0, 1.01]}", "\\boxed{(0, 1]}", "IN", False),
        ("\\boxed{(0, 1.00]}", "\\boxed{(0, 1]}", "IN", True),
        ("\\boxed{(30.0, 45.0)}", "\\boxed{(30, 45)}", "IN", True),
        ("\\boxed{[2T_0, 4.04T_0]}", "\\boxed{[2T_0, 4T_0]}", "IN", False),
        ("\\boxed{[20.5^\\circ, 69.5^\\circ]}", "\\boxed{[20.4^\\circ, 69.6^\\circ]}", "IN", True),
    ],
)
def test_an_exact_gold_is_matched_to_the_digits_written(
    pred: str, gold: str, answer_type: str, correct: bool
) -> None:
    assert judge_inline(pred, gold, answer_type).correct is correct


@pytest.mark.parametrize(
    ("pred", "correct"),
    [
        ("\\boxed{\\sim B}", False),
        ("\\boxed{\\sim\\!B}", False),
        ("\\boxed{\\sim\\text{B}}", False),
        ("\\boxed{B\\!\\!\\!/}", False),
        ("\\boxed{\\text{B}\\!\\!\\!/}", False),
        ("\\boxed{B}", True),
        ("\\boxed{B\\ (\\tfrac{1}{3})}", True),  # the option's text after its letter
        ("\\boxed{\\text{B}, \\tfrac{1}{3}}", True),
        ("\\boxed{B\\ (\\tfrac{1}{2})}", False),  # another option's text
        ("\\boxed{B (A)}", False),  # another letter
    ],
)
def test_an_option_struck_out_or_negated_is_not_chosen(pred: str, correct: bool) -> None:
    question = "Which is the ratio? (A) $\\tfrac12$ (B) $\\tfrac13$ (C) $\\tfrac14$"
    assert judge_inline(pred, "\\boxed{B}", "MC", question=question).correct is correct


@pytest.mark.parametrize(
    ("after", "value", "qualified"),
    [
        ("\\ \\text{unless the problem intends otherwise}", False, True),
        ("\\ \\text{(True under the other reading)}", False, True),
        ("\\,\\text{(I think)}", False, True),
        (" (mostly)", True, True),
        (", if friction is neglected.", False, True),
        ("?", False, True),
        (" since the lowest point is unstable.", False, False),
        (" (the true equilibrium is at the side)", False, False),  # "true" inside, not first
        (" (false: the point is unstable)", False, False),  # its own value again
        ("\n\nIf the speed were lower, it would be true.", False, False),  # another line
        ("", False, False),
    ],
)
def test_a_truth_value_qualified_right_after_its_box(
    after: str, value: bool, qualified: bool
) -> None:
    assert qualified_after(after, value) is qualified


@pytest.mark.parametrize(
    ("pred", "correct"),
    [
        ("\\boxed{\\text{False}}\\ \\text{unless the problem intends otherwise}", False),
        ("\\boxed{\\text{False, unless the setup differs}}", False),
        ("\\boxed{\\text{False}}\\,\\text{(I think)}", False),
        ("\\boxed{\\text{Untrue}}", True),
        ("\\boxed{\\text{False}} since the lowest point is unstable.", True),
    ],
)
def test_truth_values_after_and_inside_the_box(pred: str, correct: bool) -> None:
    question = "True or false: the lowest point is a stable equilibrium."
    assert judge_inline(pred, "\\boxed{\\text{False}}", "TF", question=question).correct is correct


@pytest.mark.parametrize(
    ("pred", "correct"),
    [
        ("\\boxed{\\text{runs slow?}}", False),
        ("\\boxed{\\text{runs slow (?)}}", False),
        ("\\boxed{\\text{runs slow}}", True),
    ],
)
def test_a_phrase_put_as_a_question_is_no_answer(pred: str, correct: bool) -> None:
    assert judge_inline(pred, "\\boxed{\\text{runs slow}}", "QL").correct is correct


ROOTS = "\\boxed{1.0\\,\\mathrm{s}} \\text{ or } \\boxed{3.0\\,\\mathrm{s}}"


@pytest.mark.parametrize(
    ("pred", "correct"),
    [
        ("\\boxed{t \\in \\{1.0, 3.0\\}\\,\\mathrm{s}}", True),
        ("\\boxed{\\{1.0\\,\\mathrm{s}, 3.0\\,\\mathrm{s}\\}}", True),
        ("\\boxed{t \\in \\{1.0, 2.0\\}\\,\\mathrm{s}}", False),  # every element is offered
        ("\\boxed{\\{1.0, 3.0\\}\\,\\mathrm{ms}}", False),  # the unit goes with each
    ],
)
def test_a_set_of_alternatives_offers_each_element(pred: str, correct: bool) -> None:
    assert judge_inline(pred, ROOTS, "ALT", "NV,NV").correct is correct


@pytest.mark.parametrize(
    ("box", "after", "read"),
    [
        ("(30, 45)", "\\,\\mathrm{mm}", "(30, 45)\\,mm"),
        ("[0, 20)", " cm.", "[0, 20)\\,cm"),
        ("d \\in (30, 45)", " \\text{ mm}", "d \\in (30, 45)\\,mm"),
        ("0 < u < 20", "\\,\\text{mm}", "0 < u < 20\\,mm"),
        ("(30, 45)", " (in inches)", "(30, 45)\\,inches"),
        ("(30, 45)", " for the object distance", "(30, 45)"),
        ("(30\\,\\mathrm{cm}, 45\\,\\mathrm{cm})", " mm", "(30\\,\\mathrm{cm}, 45\\,\\mathrm{cm})"),
        ("(a, b)", " mm", "(a, b)"),  # ends that are no numbers
    ],
)
def test_the_unit_after_an_interval_box_is_read(box: str, after: str, read: str) -> None:
    assert interval_with_unit_after(box, after) == read


@pytest.mark.parametrize(
    ("pred", "correct"),
    [
        ("\\boxed{(0, 20)}\\,\\mathrm{mm}", False),
        ("\\boxed{(0, 200)}\\,\\mathrm{mm}", True),
        ("\\boxed{0 < u < 20}\\,\\mathrm{mm}", False),
        ("\\boxed{(0; 20)}", True),  # a semicolon between the ends
        ("\\boxed{(0; 21)}", False),
    ],
)
def test_interval_units_and_separators(pred: str, correct: bool) -> None:
    question = "For what range of object distances $u$, in centimetres, is the image virtual?"
    assert judge_inline(pred, "\\boxed{(0, 20)}", "IN", question=question).correct is correct


@pytest.mark.parametrize(
    ("box", "after", "read"),
    [
        ("0.230", "\\,\\unit{\\milli\\second}", "0.230\\,ms"),  # siunitx after the box
        ("0.230", "\\,\\si{\\second}", "0.230\\,s"),
        ("14.5", "\n(km/h)", "14.5\\,km/h"),
    ],
)
def test_siunitx_and_a_bracketed_unit_after_the_box(box: str, after: str, read: str) -> None:
    assert with_unit_after(box, after) == read


@pytest.mark.parametrize(
    ("before", "read"),
    [
        ("Expressed in keV, the energy is ", "4.96\\,keV"),
        ("Measured in millimetres, ", "4.96\\,millimetres"),
        ("In centimetres: h = ", "4.96\\,centimetres"),
        ("Given in meV: ", "4.96\\,meV"),
        ("The energy is ", "4.96"),
        ("In part (b), the energy is ", "4.96"),  # a part, not a unit
    ],
)
def test_more_ways_to_name_the_unit_before_the_box(before: str, read: str) -> None:
    assert with_unit_before("4.96", before) == read


@pytest.mark.parametrize(
    ("offer", "elements", "place"),
    [
        ("900 mJ", ("0.750 m", "0.900 J"), 1),
        ("75.0 cm", ("0.750 m", "0.900 J"), 0),
        ("1.50 s", ("0.750 m", "0.900 J"), None),  # no element measures time
        ("2 m", ("0.750 m", "1.2 m"), None),  # two lengths: the offer cannot be placed
        ("4T_0", ("2T_0", "4T_0"), None),  # no unit
    ],
)
def test_an_offer_beside_several_values_is_placed_by_its_unit(
    offer: str, elements: tuple[str, ...], place: int | None
) -> None:
    assert unit_place(offer, elements) == place


TUPLE = "\\boxed{0.750\\,\\mathrm{m}}, \\boxed{0.900\\,\\mathrm{J}}"


@pytest.mark.parametrize(
    ("tail", "correct"),
    [
        ("The energy could also be written as 900 mJ.", True),
        ("The distance could also be written as 75.0 cm.", True),
        ("The energy could also be 1.80 J.", False),
        ("It might also be 1.50 m.", False),
    ],
)
def test_offers_beside_a_tuple_are_judged_in_their_place(tail: str, correct: bool) -> None:
    pred = f"So $\\boxed{{0.750\\,\\mathrm{{m}}, 0.900\\,\\mathrm{{J}}}}$\n\n{tail}"
    assert judge_inline(pred, TUPLE, "TUP", "NV,NV").correct is correct


@pytest.mark.parametrize(
    ("before", "gap", "labelled"),
    [
        ("So\n\nCase 1: ", "\n\nCase 2: ", True),
        ("So\n\nIf the surface is rough: ", ". If it is smooth: ", True),
        ("So ", " (case 1) and ", True),
        ("So\n\nScenario A: ", "\nScenario B: ", True),
        ("In the first case, ", ". In the second case, ", True),
        ("So ", "\n\nFinal answer: ", False),
        ("Case 1: v > 0, so t = ", ". Rejected. Final: ", False),
        ("For the first stage, ", ". For the whole trip, ", False),  # intermediate results
        ("When it reaches the bottom, ", ". When it stops, ", False),
    ],
)
def test_two_boxes_labelled_as_cases(before: str, gap: str, labelled: bool) -> None:
    assert cases(gap, before) is labelled


@pytest.mark.parametrize(
    ("pred", "answer_type", "correct"),
    [
        (
            "Case 1: \\boxed{29\\,\\mathrm{m/s}}\n\nCase 2: \\boxed{14.5\\,\\mathrm{m/s}}",
            "NV",
            False,
        ),
        (
            "If rough: \\boxed{29\\,\\mathrm{m/s}}. If smooth: \\boxed{14.5\\,\\mathrm{m/s}}.",
            "NV",
            False,
        ),
        (
            "Case 1: \\boxed{14.5\\,\\mathrm{m/s}}\n\nCase 2: \\boxed{14.5\\,\\mathrm{m/s}}",
            "NV",
            True,
        ),
        (
            "For the first stage, \\boxed{2\\,\\mathrm{s}}. Overall: \\boxed{14.5\\,\\mathrm{m/s}}",
            "NV",
            True,
        ),
    ],
)
def test_cases_beside_one_asked_value_are_each_judged(
    pred: str, answer_type: str, correct: bool
) -> None:
    assert judge_inline(pred, SPEED, answer_type).correct is correct


def test_cases_answer_a_tuple_that_asks_for_them() -> None:
    gold = "\\boxed{29\\,\\mathrm{m/s}}, \\boxed{14.5\\,\\mathrm{m/s}}"
    pred = "Case 1: \\boxed{29\\,\\mathrm{m/s}}\n\nCase 2: \\boxed{14.5\\,\\mathrm{m/s}}"
    assert judge_inline(pred, gold, "TUP", "NV,NV").correct


@pytest.mark.parametrize(
    ("pred", "answers"),
    [
        # a code box that says what the box outside says keeps it (1.15.0: one that says
        # something else leaves no answer, test_enclosure_round8.py)
        ("\\boxed{14.5}\n\n```\nFinal answer: \\boxed{14.5}\n```", ("14.5", "14.5")),
        (
            "\\boxed{14.5\\,\\mathrm{m/s}}\n\n```\nFinal answer: \\boxed{14.5 m/s}\n```",
            ("14.5\\,\\mathrm{m/s}", "14.5 m/s"),
        ),
        ("\\boxed{14.5}\n\n```\nFinal answer: \\boxed{29}\n```", ()),
        ("So\n```latex\n\\boxed{14.5}\n```", ("14.5",)),
        ("\\boxed{14.5}\n```python\nv = 9.81  # or 9.8\n```", ("14.5",)),  # code's words
        ("```\n\\fbox{14.5}\n```", ("14.5",)),
        ("<!-- ```\\boxed{29}``` -->\\boxed{14.5}", ("14.5",)),  # hidden with its comment
    ],
)
def test_fenced_code_keeps_its_boxes_not_its_words(pred: str, answers: tuple[str, ...]) -> None:
    extraction = boxed_answers(pred)
    assert extraction.answers == answers
    assert not any(extraction.hedges)


@pytest.mark.parametrize(
    ("tail", "correct"),
    [
        ("Final answer: 29 m/s.", False),
        ("**Final Answer:** $29\\,\\mathrm{m/s}$", False),
        ("So the answer is 29 m/s.", False),
        ("The correct answer is $v = 29$ m/s.", False),
        ("Final answer: 14.5 m/s, i.e. about 52 km/h.", True),
        ("**Final Answer:** $14.5\\,\\mathrm{m/s}$", True),
        ("The final answer is $v = 14.5$ m/s.", True),
        ("The answer is consistent with the energy check at 80 m.", True),  # no value at once
    ],
)
def test_a_final_answer_stated_again_after_the_box_must_agree(tail: str, correct: bool) -> None:
    pred = f"The speed is {SPEED}.\n\n{tail}"
    assert judge_inline(pred, SPEED, "NV").correct is correct


@pytest.mark.parametrize(
    ("pred", "correct"),
    [
        # a bounded intermediate box before a final box that holds the whole tuple
        (
            "First $s \\le \\boxed{1.0\\,\\mathrm{m}}$. "
            "So \\boxed{0.750\\,\\mathrm{m}, 0.900\\,\\mathrm{J}}",
            True,
        ),
        # a bounded element among the boxes compared
        ("$s \\le \\boxed{0.750\\,\\mathrm{m}}$, \\boxed{0.900\\,\\mathrm{J}}", False),
    ],
)
def test_only_the_boxes_compared_are_checked_for_bounds(pred: str, correct: bool) -> None:
    assert judge_inline(pred, TUPLE, "TUP", "NV,NV").correct is correct
