"""Mutation round 9 (verify/visibility.py): the behaviours the surviving mutants of this
week's chain, check, remark, denial and confidence rules left unpinned, and of the rows of a
table of cases.

Each table reads a rule through what a reader sees: the boxes ``boxed_answers`` keeps, the
bound or operation it reports for them, the public readers of the prose around a box
(:func:`denials`, :func:`bounds`, :func:`offers_in_prose`, :func:`remark_content`,
:func:`remark_value`, :func:`written_unit`), or ``_link_value`` for a chain side.
"""

from __future__ import annotations

import pytest

from studybench.data.boxes import scan_boxes
from studybench.verify import visibility
from studybench.verify.extract import boxed_answers
from studybench.verify.verifier import judge_inline
from studybench.verify.visibility import (
    bounds,
    denials,
    offers_in_prose,
    remark_content,
    remark_value,
    written_unit,
)


def _spans(text: str) -> list[tuple[int, int]]:
    """The spans of the boxes in ``text``, as the extraction finds them."""
    return list(scan_boxes(text).spans)


# ---------------------------------------------------------------------------------------------
# relation names before the box (built once at import)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "way"),
    [
        ("$v \\le \\boxed{14.5}$", "upper"),
        ("$v \\lt \\boxed{14.5}$", "upper"),
        ("$v \\vartriangleleft \\boxed{14.5}$", "upper"),
        ("$v \\succnapprox \\boxed{14.5}$", "lower"),
        ("$v \\gg \\boxed{14.5}$", ""),
        ("$v \\nleq \\boxed{14.5}$", ""),
        ("Скорость не более \\boxed{14.5}", "upper"),
        ("Скорость по крайней мере \\boxed{14.5}", "lower"),
    ],
)
def test_every_relation_name_makes_a_bound(text: str, way: str) -> None:
    """The first, last and middle names of each relation list are read whole."""
    extraction = boxed_answers(text)
    assert extraction.answers == ("14.5",)
    assert extraction.bounds == (way,)


def test_a_negated_relation_before_the_box_states_no_value() -> None:
    """``v \\not\\le \\boxed{…}`` bounds nothing the question asks: no value, ``""``."""
    text = "$v \\not\\le \\boxed{14.5}$"
    assert bounds(text, _spans(text)) == [""]


# ---------------------------------------------------------------------------------------------
# a check after the box, and a chain before it
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "operand"),
    [
        # the box's content is read whole: a fraction, not its last braced group
        ("$\\eta = \\boxed{\\frac{1}{3}}$. Check: $x = 0.5$.", True),
        ("$\\eta = \\boxed{\\frac{1}{3}}$. Check: $x = 0.333$.", False),
        # a check of a power is skipped, and a later check is still read
        ("$\\eta = \\boxed{0.154}$. Check: $v^2 = 210$. Numerically, $W/Q_H = 0.308$.", True),
        ("$\\eta = \\boxed{0.154}$. Check: $v = 3$. Numerically, $W/Q_H = 0.154$.", True),
        ("$\\eta = \\boxed{0.154}$. Check: $v^2 = 210$. Numerically, $W/Q_H = 0.154$.", False),
        # the last side of a check's chain is its result
        ("$\\eta = \\boxed{0.154}$. Numerically, $W/Q_H = 2/13 = 0.308$.", True),
        ("$\\eta = \\boxed{0.154}$. Numerically, $W/Q_H = 0.308 = 2/13$.", False),
        # a side of the box's own chain that is another value, the box read whole
        ("$\\frac{1}{3} = \\boxed{\\frac{1}{2}}$", True),
        ("$\\frac{1}{2} = \\boxed{\\frac{1}{2}}$", False),
        ("$x = 0.3 = \\boxed{0.5}$", True),
        ("$x = 0.5 = \\boxed{\\frac{1}{2}}$", False),
        ("$v = 29.0\\,\\mathrm{m/s} = \\boxed{14.5\\,\\mathrm{m/s}}$", True),
        # a side in another unit than the box's is passed over, and the next one read
        ("$v = 29.0 = \\boxed{14.5\\,\\mathrm{m/s}}$", False),
        ("$v = 29.0\\,\\mathrm{km/h} = 14.5 = \\boxed{14.5}$", False),
        ("$v = 29.0\\,\\mathrm{km/h} = 7 = \\boxed{14.5}$", True),
        # a zero equals a zero: no gap at all is no contradiction
        ("$x = 0 = \\boxed{0}$", False),
        ("$\\eta = \\boxed{0}$. Numerically, $W/Q_H = 0$.", False),
    ],
)
def test_checks_and_chains_that_contradict_the_box(text: str, operand: bool) -> None:
    """A check or a chain side that evaluates to another number makes the box no claim."""
    extraction = boxed_answers(text)
    assert len(extraction.answers) == 1
    assert extraction.operands == (operand,)


# ---------------------------------------------------------------------------------------------
# a stated confidence
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("note", "kept"),
    [
        ("Confidence: 0.95.", True),  # a share of one at or above certainty
        ("Confidence: 0.5.", False),
        ("Confidence: 90%.", True),  # exactly certain
        ("Confidence: 89%.", False),
        ("Confidence: 1.0.", True),  # one is a share, not a percentage
        ("Confidence: 1.5.", False),  # above one it is a percentage: 1.5 %
        ("Confidence: 2.", False),
    ],
)
def test_a_stated_confidence_is_read_as_a_share(note: str, kept: bool) -> None:
    """A number above one is a percentage; one and below are a share; 0.9 is certain."""
    answers = boxed_answers(f"The answer is \\boxed{{3}}. {note}").answers
    assert answers == (("3",) if kept else ())


# ---------------------------------------------------------------------------------------------
# remarks after the box
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("after", "content"),
    [
        (" (i.e. namely virtual)", "virtual"),  # both lead-ins dropped
        (" ($x = 5$)", "x = 5"),  # dollars dropped
        (" (\\text{virtual and upright})", "virtual and upright"),
        (" " * 150 + "(virtual)", "virtual"),
        (" " * 170 + "(virtual)", None),  # beyond the window read after a box
        (" virtual", None),
    ],
)
def test_remark_content(after: str, content: str | None) -> None:
    """A remark in parentheses right after a box, its lead-in and dollars dropped."""
    assert remark_content(after) == content


@pytest.mark.parametrize(
    ("after", "value"),
    [
        (" (52 km/h)", "52 km/h"),
        (" " * 150 + "(52 km/h)", "52 km/h"),
        (" " * 170 + "(52 km/h)", None),  # beyond the window read after a box
        # the box's unit before the remark is passed over
        ("\\,\\mathrm{m/s}\\ (52\\,\\mathrm{km/h})", "52\\,km/h"),
        (" (5\\,\\mu m)", "5\\,\\mu m"),
        # a bare number is a tag or a count, no value
        (" (52)", None),
        (" (1/3)", None),
    ],
)
def test_remark_value(after: str, value: str | None) -> None:
    """A value with a unit alone in parentheses right after a box."""
    assert remark_value(after) == value


# ---------------------------------------------------------------------------------------------
# chain sides read for certain
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("side", "value", "unit"),
    [
        ("1.5\\times10^{-3}", 0.0015, ""),
        ("1.5 \\times 10^{−3}", 0.0015, ""),  # a Unicode minus in the power
        ("2e5", 200000.0, ""),
        ("1e300", 1e300, ""),  # the largest power still read
        ("1" * 300, float("1" * 300), ""),  # and the longest mantissa
        ("\\sqrt{16}", 4.0, ""),
        ("3/1", 3.0, ""),
        ("\\frac{3}{4}", 0.75, ""),
        ("-0.5", -0.5, ""),
        ("−0.5", -0.5, ""),  # a Unicode minus
        ("+0.5", 0.5, ""),
        ("14.5\\,\\mathrm{m/s}", 14.5, "m/s"),
        ("14.5\\,\\text{ m / s}", 14.5, "m/s"),  # spacing in the unit dropped
    ],
)
def test_a_side_read_for_certain(side: str, value: float, unit: str) -> None:
    """A number, a power of ten, a root or fraction of whole numbers, and its unit."""
    read = visibility._link_value(side)
    assert read is not None
    assert read[0] == pytest.approx(value, rel=1e-9)
    assert read[1] == unit
    assert written_unit(side) == unit


@pytest.mark.parametrize(
    "side",
    ["1e400", "1" * 301, "\\frac{1}{0}", "5 + x", "W/Q_H", "", "\\frac{12.3}{4.56}"],
)
def test_a_side_not_read_for_certain(side: str) -> None:
    """Working, symbols, a zero denominator or a value a float cannot hold are not read."""
    assert visibility._link_value(side) is None
    assert written_unit(side) is None


# ---------------------------------------------------------------------------------------------
# denials, and a box said to be unequal to itself
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "denied"),
    [
        # a negated relation to the box's own value commits to nothing
        ("$\\boxed{14.5\\,\\mathrm{m/s}} \\neq 14.5\\,\\mathrm{m/s}$", [True]),
        ("$\\boxed{14.5} \\neq 14.5$", [True]),
        ("$\\boxed{\\frac{1}{2}} \\neq 0.5$", [True]),
        ("$\\boxed{0.154} \\ne 0.1541$", [True]),  # within rounding
        # another value, or the same number in another unit, is a comparison
        ("$\\boxed{14.5\\,\\mathrm{m/s}} \\neq 29.0\\,\\mathrm{m/s}$", [False]),
        ("$\\boxed{14.5} \\neq 14.5\\,\\mathrm{m/s}$", [False]),
        ("$\\boxed{14.5} \\neq 29.0$", [False]),
        # a denial before, after, or a mark
        ("It is not \\boxed{1}.", [True]),
        ("\\boxed{1} is wrong.", [True]),
        ("❌ \\boxed{1}", [True]),
        ("\\boxed{1}", [False]),
        # a denial runs on through a list, forwards and backwards, and stops at a new clause
        (
            "It is not \\boxed{1}, \\boxed{2}, \\boxed{3}. The answer is \\boxed{4}.",
            [True, True, True, False],
        ),
        ("It is not \\boxed{1}. So \\boxed{2}, \\boxed{3}. Done.", [True, False, False]),
        ("It is not \\boxed{1}; the answer is \\boxed{2}.", [True, False]),
        (
            "\\boxed{1}, \\boxed{2}, \\boxed{3} are wrong. The answer is \\boxed{4}.",
            [True, True, True, False],
        ),
        ("The answer is \\boxed{2}. \\boxed{1}, \\boxed{3} are wrong.", [False, True, True]),
        ("\\boxed{1} is wrong; the answer is \\boxed{2}.", [True, False]),
        ("❌ \\boxed{1}. The answer is \\boxed{2}.", [True, False]),
        # a denial after the first box runs back only, never round to the last box
        ("\\boxed{1} is wrong. \\boxed{2}, \\boxed{3}.", [True, False, False]),
        # marks and labels that disown the box
        ("👎 \\boxed{1}", [True]),
        ("\\boxed{1} (sarcasm)", [True]),
    ],
)
def test_denials(text: str, denied: list[bool]) -> None:
    """Which boxes the output takes back."""
    assert denials(text, _spans(text)) == denied


# ---------------------------------------------------------------------------------------------
# boxes left open, one reason at a time
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Had the carts bounced apart, the answer would be \\boxed{3}.",  # counterfactual
        "Order of magnitude: \\boxed{3}.",  # imprecise
        "A classmate got \\boxed{3}.",  # attributed
        "The answer is \\boxed{3} (pending verification).",  # provisional words
        "Draft answer: \\boxed{3}",  # provisional label
        "Is it \\boxed{3}?",  # a question
        "I'm not sure, but it is \\boxed{3}.",  # doubt before
        "The answer is \\boxed{3}, I'm not sure.",  # doubt after
        "Both \\boxed{3} and 4 are correct.",  # two values called right
        "The answer is \\boxed{3}. I am 60% sure of this.",  # a note of six words
    ],
)
def test_each_reason_alone_leaves_the_box_open(text: str) -> None:
    """Any one reason is enough to make the box no committed answer."""
    assert boxed_answers(text).answers == ()


def test_a_longer_sentence_after_the_box_is_no_note() -> None:
    """A confidence in a next sentence of more than six words is not read as a note."""
    text = "The answer is \\boxed{3}. I am 60% sure of this one."
    assert boxed_answers(text).answers == ("3",)


# ---------------------------------------------------------------------------------------------
# words and units after the box
# ---------------------------------------------------------------------------------------------


def test_a_power_in_words_after_the_unit_makes_another_quantity() -> None:
    """ "squared" after the box's unit group makes its value another quantity's."""
    assert boxed_answers("The answer is $\\boxed{3}\\,\\mathrm{m}$ squared.").operands == (True,)


def test_a_capitalised_multiplier_word_is_no_unit() -> None:
    """ "\\text{Million}" after the box multiplies it, as "\\text{million}" does."""
    verdict = judge_inline("The answer is $\\boxed{3}\\,\\text{Million}$.", "3", "NV")
    assert not verdict.correct


# ---------------------------------------------------------------------------------------------
# other rows of a table of cases, other items of a list of conditions
# ---------------------------------------------------------------------------------------------

_HEADER = "| case | answer |\n|---|---|\n"


@pytest.mark.parametrize(
    ("before", "after", "offers"),
    [
        (_HEADER + "| ideal | ", " |\n| with losses | $29.0$ |", ("29.0",)),
        # an indented table is a table
        (
            "  | case | answer |\n  |---|---|\n  | ideal | ",
            " |\n  | with losses | $29.0$ |",
            ("29.0",),
        ),
        # the header is the table's first line, rows above the box's own between
        (_HEADER + "| a | 1 |\n| ideal | ", " |\n| with losses | $29.0$ |", ("29.0",)),
        # the value is the last cell, read whole
        (
            "| case | note | answer |\n|---|---|---|\n| ideal | x | ",
            " |\n| with losses | y | $29.0$ |",
            ("29.0",),
        ),
        (_HEADER + "| ideal | ", " |\n| with losses | 29.0 m/s |", ("29.0 m/s",)),
        (_HEADER + "| ideal | ", " |\n|with losses|29X|", ("29X",)),
        # a rule line is no value, and a closing dot is dropped
        (_HEADER + "| ideal | ", " |\n|---|---|\n| with losses | 29.0. |", ("29.0",)),
        ("1. If frictionless: ", "\n2. Otherwise: 29.0 m/s.\n", ("29.0 m/s",)),
        # a table of quantities lists other things
        ("| quantity | value |\n|---|---|\n| v | ", " |\n| KE | 105 J |", ()),
    ],
)
def test_other_rows_offer_their_values(before: str, after: str, offers: tuple[str, ...]) -> None:
    """The unboxed value of each other row of a table of cases is offered beside the box."""
    assert offers_in_prose(before, after) == offers


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # a stated spread of 5 % or more is an imprecision; below it, a precision
        ("Within 5%, the answer is \\boxed{3}.", False),
        ("Within 4.96%, the answer is \\boxed{3}.", True),
        # a question mark after the box, read in the plain text too
        ("The answer is \\boxed{3}\\textbf{?}", False),
        # a question before the box, closed by a question mark after it
        ("Is it \\boxed{3} or more?", False),
        ("The answer is \\boxed{3}, which one would pick?", True),
        # "both" before and "and … correct" after, or "accept both" and another value
        ("The answer is \\boxed{3} and it is correct.", True),
        ("I accept both \\boxed{3} and 4.", False),
        ("We take both \\boxed{3}.", True),
    ],
)
def test_questions_spreads_and_both(text: str, kept: bool) -> None:
    """A question, a spread of 5 % or more, or two values called right leave a box open."""
    assert boxed_answers(text).answers == (("3",) if kept else ())
