"""Verifier 1.12.0's reading of what is written right after a bare number's box
(verify/numeric.py), of roundings, and of qualified truth values (verify/rules/choice.py).

The prompt asks for units outside the box, so what follows a bare number's box is part of the
answer: a power of ten, a unit in brackets, emphasis or siunitx, a micro sign or a degree
sign. What follows on the next line, after a full stop, or a part's label is not.
"""

from __future__ import annotations

import pytest

from studybench.verify.numeric import rounds_to, with_unit_after, with_unit_before
from studybench.verify.verifier import judge_inline


@pytest.mark.parametrize(
    ("box", "after", "read"),
    [
        # a power of ten after the box belongs to the number, then its unit
        ("5.54", "\\times10^{3}\\,\\mathrm{s}", "5.54\\times10^{3}\\,s"),
        ("5.54", " \\cdot 10^{3} s", "5.54\\times10^{3}\\,s"),
        ("5.54", "e3 m/s", "5.54\\times10^{3}\\,m/s"),
        ("5.54", " × 10³ m/s", "5.54\\times10^{3}\\,m/s"),
        ("5.54", "\\times 10^{-2}", "5.54\\times10^{-2}"),
        ("5.54", " x 10^4 m", "5.54\\times10^{4}\\,m"),
        ("5.54", "\\times 10^{\u22123} m", "5.54\\times10^{-3}\\,m"),  # a Unicode minus
        ("5.54e2", "\\times10^{3}", "5.54e2"),  # a number with its own power takes no other
        # a unit in brackets holds nothing else; a part's label is no unit
        ("14.5", " (km/h)", "14.5\\,km/h"),
        ("14.5", " [km/h]", "14.5\\,km/h"),
        ("14.5", " (in keV)", "14.5\\,keV"),
        ("14.5", " (b)", "14.5"),
        ("14.5", " (ii) next", "14.5"),
        ("14.5", " (2)", "14.5"),
        ("14.5", " (29 m/s if the other reading)", "14.5"),
        ("14.5", "\n(km/h)", "14.5\\,km/h"),  # alone on the next line
        ("14.5", "\n\n(km/h)", "14.5"),  # a paragraph later: not the box's unit
        ("14.5", "\n(b) The time", "14.5"),  # a part label on the next line
        # emphasis, \rm, sans-serif and siunitx groups
        ("0.230", " **ms**", "0.230\\,ms"),
        ("0.230", " *ms*", "0.230\\,ms"),
        ("0.230", "{\\rm ms}", "0.230\\,ms"),
        ("0.230", " \\mathsf{ms}", "0.230\\,ms"),
        ("0.230", "\\,\\si{ms}", "0.230\\,ms"),
        # a micro sign and a degree sign before the unit
        ("14.5", "\\,\\mu\\mathrm{s}", "14.5\\,\\mu s"),
        ("57.5", "^\\circ\\mathrm{F}", "57.5\\,^{\\circ} F"),
        # a full stop or a line end ends the unit: the next sentence's first word is no unit
        ("0.157", "$ m.\n\nAt 1% of the speed of light", "0.157\\,m"),
        ("6.70e5", "$ J. A 2 kW kettle", "6.70e5\\,J"),
        ("9.8", " m/s^2.", "9.8\\,m/s^2"),
        ("0.157", " m\nAt rest", "0.157\\,m"),
    ],
)
def test_what_follows_a_bare_box_is_read(box: str, after: str, read: str) -> None:
    assert with_unit_after(box, after) == read


@pytest.mark.parametrize(
    ("before", "read"),
    [
        # a unit the prose names right before the box
        ("Speed in km/h: ", "14.5\\,km/h"),
        ("v [km/h] = ", "14.5\\,km/h"),
        ("Temperature (in K): $", "14.5\\,K"),
        ("**Final answer (m/s):** ", "14.5\\,m/s"),
        ("$v$ (in km/h) $= ", "14.5\\,km/h"),  # the math's own dollar before "="
        # a part's label, words that are no unit, nothing named
        ("Part (b): ", "14.5"),
        ("(ii): ", "14.5"),
        ("The answer in SI units: ", "14.5"),
        ("Result in the ground frame: ", "14.5"),
        ("So ", "14.5"),
        ("Speed in km/h is what we want. So " + "x" * 60, "14.5"),  # too far back
    ],
)
def test_a_unit_named_before_a_bare_box_is_read(before: str, read: str) -> None:
    assert with_unit_before("14.5", before) == read


def test_a_unit_after_the_box_wins_over_one_named_before() -> None:
    gold = "\\boxed{14.5\\,\\mathrm{m/s}}"
    assert judge_inline("Speed in km/h: \\boxed{14.5} m/s", gold, "NV").correct
    assert not judge_inline("Speed in km/h: \\boxed{14.5}", gold, "NV").correct
    assert judge_inline("Speed in m/s: \\boxed{14.5}", gold, "NV").correct


@pytest.mark.parametrize(
    ("offered", "value", "rounds"),
    [
        ("0.15", "0.154", True),
        ("15 m/s", "14.5 m/s", True),
        ("1/4", "1/2", False),  # a fraction is no 1 rounded
        ("1 * 2", "2", False),
        ("1^2", "1.4", False),
        ("3 4", "3.4", False),
    ],
)
def test_a_rounding_is_a_number_alone(offered: str, value: str, rounds: bool) -> None:
    assert rounds_to(offered, value) is rounds


@pytest.mark.parametrize(
    ("pred", "correct"),
    [
        ("\\boxed{\\text{False (mostly)}}", False),
        ("\\boxed{\\text{False, usually}}", False),
        ("\\boxed{\\text{False}}\\,\\text{?}", False),
        ("\\boxed{\\text{False (I think)}}", False),
        ("\\boxed{\\text{False, in most cases}}", False),
        ("\\boxed{\\text{False}}", True),
        ("\\boxed{\\text{False}} because the work depends on the path in general.", True),
    ],
)
def test_a_qualified_truth_value_is_no_truth_value(pred: str, correct: bool) -> None:
    verdict = judge_inline(pred, "\\boxed{\\text{False}}", "TF")
    assert verdict.correct is correct, verdict.reason


@pytest.mark.parametrize(
    ("before", "read"),
    [
        ("The speed in km/h is ", "14.5\\,km/h"),
        ("In km/h the speed is ", "14.5\\,km/h"),
        ("Speed, km/h: ", "14.5\\,km/h"),
        ("In this case the speed is ", "14.5"),
        ("In short, the speed is ", "14.5"),
        ("So, in the end: ", "14.5"),
    ],
)
def test_a_unit_named_in_a_sentence_before_the_box_is_read(before: str, read: str) -> None:
    assert with_unit_before("14.5", before) == read


def test_a_magnitude_with_its_direction_in_words_takes_either_sign() -> None:
    gold = "\\boxed{-30.0\\,\\mathrm{cm}}"
    assert judge_inline(
        "\\boxed{-30.0\\,\\mathrm{cm}}, i.e. 30.0 cm left of lens 2.", gold, "NV"
    ).correct
    assert not judge_inline(
        "\\boxed{-30.0\\,\\mathrm{cm}}, i.e. 45 cm left of lens 2.", gold, "NV"
    ).correct
