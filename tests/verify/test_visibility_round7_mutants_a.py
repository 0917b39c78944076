"""Mutation round 7 (verify/visibility.py), part a: the behaviours the surviving mutants of
the relation-name and look-alike patterns, the HTML and LaTeX hiding scans, the operation
before a box, and the conditional hedge between boxes left unpinned.

Each table reads a rule through what a reader sees: the boxes ``boxed_answers`` keeps, the
bound or operation it reports for them, or :func:`hedged` for the prose between two boxes.
"""

from __future__ import annotations

import pytest

from studybench.verify.extract import boxed_answers
from studybench.verify.verifier import judge_inline
from studybench.verify.visibility import hedged

# ---------------------------------------------------------------------------------------------
# relations and foreign bound words before the box
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "way"),
    [
        # TeX relation names: each whole name is read, short or long
        ("$v \\leq \\boxed{14.5}$", "upper"),
        ("$v \\le \\boxed{14.5}$", "upper"),
        ("$v \\leqq \\boxed{14.5}$", "upper"),
        ("$v \\geqslant \\boxed{14.5}$", "lower"),
        ("$v \\ge \\boxed{14.5}$", "lower"),
        ("$v \\ll \\boxed{14.5}$", ""),
        ("$v \\lessgtr \\boxed{14.5}$", ""),
        ("$v \\varpropto \\boxed{14.5}$", ""),
        # a command that only starts like a relation name is none
        ("$v = \\left(\\boxed{14.5}\\right)$", None),
        ("$v \\gets \\boxed{14.5}$", None),
        # Cyrillic bound words, read through their look-alike letters
        ("Скорость не более \\boxed{14.5}", "upper"),
        ("Скорость не менее \\boxed{14.5}", "lower"),
        ("Скорость максимум \\boxed{14.5}", "upper"),
        ("Скорость равна \\boxed{14.5}", None),
    ],
)
def test_relation_names_and_foreign_words_make_a_bound(text: str, way: str | None) -> None:
    """A relation or bound word right before the box makes it a bound (or no value)."""
    extraction = boxed_answers(text)
    assert extraction.answers == ("14.5",)
    assert extraction.bounds == (way,)


# ---------------------------------------------------------------------------------------------
# hidden content: HTML <details>, beamer's \invisible, colour and hiding scans
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "answers"),
    [
        # a collapsed <details> shows its summary only: the box inside is hidden
        ("The answer is \\boxed{3}. <details><summary>Show</summary>\\boxed{5}</details>", ("3",)),
        ("The answer is \\boxed{3}. <DETAILS><summary>Show</summary>\\boxed{5}</DETAILS>", ("3",)),
        ("The answer is \\boxed{3}. <details>\\boxed{5}</details>", ("3",)),
        # an open one shows its content
        (
            "The answer is \\boxed{3}. <details open><summary>Show</summary>\\boxed{5}</details>",
            ("3", "5"),
        ),
        # beamer's \invisible hides on every slide, with an overlay spec or without
        ("The answer is \\boxed{3}. \\invisible{\\boxed{5}}", ("3",)),
        ("The answer is \\boxed{3}. \\invisible<2>{\\boxed{5}}", ("3",)),
        # \only without an overlay spec is shown on every slide
        ("The answer is \\boxed{3}. \\only{\\boxed{5}}", ("3", "5")),
    ],
)
def test_collapsed_or_invisible_content_hides_its_box(text: str, answers: tuple[str, ...]) -> None:
    """A box a reader never sees (collapsed details, an invisible overlay) is no answer."""
    assert boxed_answers(text).answers == answers


@pytest.mark.parametrize(
    "text",
    [
        # a nested hiding command inside an earlier hidden group does not end the scan
        "\\boxed{1} \\phantom{\\phantom{x}} \\phantom{\\boxed{3}}",
        "\\boxed{1} \\sout{\\cancel{x}} \\phantom{\\boxed{3}}",
        # a readable colour earlier in the text does not end the scan: a later invisible one
        # still hides its box
        "\\boxed{1} \\colorbox{yellow}{x} \\colorbox{black}{\\boxed{3}}",
        "\\boxed{1} \\style{color:red}{x} \\style{color:white}{\\boxed{3}}",
        "\\boxed{1} \\textcolor{red}{x} \\textcolor{white}{\\boxed{3}}",
        "\\boxed{1} {\\color{blue} x} {\\color{white} \\boxed{3}}",
    ],
)
def test_later_hidden_box_stays_hidden_after_earlier_markup(text: str) -> None:
    """Every hiding group is read, whatever markup comes before it: the last visible box
    is the answer."""
    assert boxed_answers(text).answers == ("1",)


@pytest.mark.parametrize(
    "text",
    [
        "\\invisible{It is not} \\boxed{3}",
        "\\invisible{Wrong answer:} \\boxed{3}",
        "\\phantom{\\phantom{x}} \\phantom{It is not} \\boxed{3}",
        "\\phantom{\\phantom{x}} \\phantom{Wrong:} \\boxed{3}",
        "<del>x</del> <details>It is not</details> \\boxed{3}",
    ],
)
def test_hidden_denial_does_not_disown_the_box(text: str) -> None:
    """A denial a reader never sees (an invisible or phantom group, even after a nested
    one) takes nothing back: the box is the answer."""
    verdict = judge_inline(text, "3", "NV")
    assert verdict.correct, verdict.reason
    assert verdict.extracted == ("3",)


@pytest.mark.parametrize(
    ("text", "correct"),
    [
        ("The answer is \\boxed{3}. <details>Or maybe 5.</details>", True),
        ("The answer is \\boxed{3}. <details>Or maybe \\boxed{5}.</details>", True),
        ("The answer is \\boxed{3}. <details open>Or maybe 5.</details>", False),
        ("The answer is \\boxed{3}. Or maybe 5.", False),
    ],
)
def test_collapsed_details_hide_a_hedge(text: str, correct: bool) -> None:
    """An offer inside a collapsed <details> block is never shown, so it hedges nothing;
    an open block or plain prose shows it, and the box is hedged."""
    assert judge_inline(text, "3", "NV").correct is correct


# ---------------------------------------------------------------------------------------------
# an operation right before the box
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "operand"),
    [
        # a sign that opens a line is a bullet, however many lines come before it
        ("Answer:\n- \\boxed{5}", False),
        ("Answer:\nNext line\n- \\boxed{5}", False),
        ("Intro\nStep one\nStep two\n- \\boxed{5}", False),
        ("Answer:\nNext line\n+ \\boxed{5}", False),
        # a sign after a value on its line is an operation
        ("Answer:\nNext line\nv = 3 - \\boxed{5}", True),
        # a unary plus after a relation is a sign convention: the value itself
        ("$v = +\\boxed{60\\,\\mathrm{cm}}$", False),
        ("$v = + \\boxed{60}$", False),
        ("$(+\\boxed{60})$", False),
        # a plus after a value is an addition
        ("$v = 3 +\\boxed{60}$", True),
        ("$v = 2\\boxed{60}$", True),
    ],
)
def test_sign_before_box(text: str, operand: bool) -> None:
    """A bullet or a unary plus leaves the box alone; a binary sign makes it an operand."""
    extraction = boxed_answers(text)
    assert len(extraction.answers) == 1
    assert extraction.operands == (operand,)


# ---------------------------------------------------------------------------------------------
# a conditional denial between boxes
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("gap", "hedge"),
    [
        ("\\quad \\text{if not,} \\quad", True),
        (" if not, ", True),
        (" should that be wrong: ", True),
        # eight words: still short enough to join the boxes as alternatives
        (" if my working above is at all wrong, ", True),
        # nine words: prose of its own, no hedge
        (" if my working above is at all really wrong, ", False),
    ],
)
def test_conditional_denial_between_boxes_hedges(gap: str, hedge: bool) -> None:
    """ "\\boxed{a} if not, \\boxed{b}" offers b in case a is wrong: the two are a hedge."""
    assert hedged(gap) is hedge
    extraction = boxed_answers(f"\\boxed{{3}}{gap}\\boxed{{5}}")
    assert extraction.answers == ("3", "5")
    assert extraction.hedges == (hedge,)
