"""What a reader sees (verify/visibility.py): edges that mutation testing found unchecked.

Pinned here, one table per rule: colours given by value in xcolor's cmyk, hsb and HSB models
(a missing component, the luminance edge, HSB's 0-240 scale); which HTML block shows a
``<summary>`` (a collapsed ``<details>`` only, closed or not); how a simple macro's body is
shown where it is used (argument groups, the 20-macro cap, text around the definitions); that
fenced code alone is read for hiding; and when two boxes count as answers to two readings.
"""

from __future__ import annotations

import pytest

from studybench.verify.extract import boxed_answers
from studybench.verify.visibility import hedged, without_hidden


def _answers(text: str) -> tuple[str, ...]:
    return boxed_answers(text).answers


def _shown(text: str) -> str:
    return " ".join(without_hidden(text).split())


# ---------------------------------------------------------------------------------------------
# _visible_colour: cmyk and hsb/HSB values, read by value against a luminance of 0.75
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "answers"),
    [
        # cmyk: a missing black component is 0, so c=m=y=0 is white and hides
        ("\\textcolor[cmyk]{0,0,0}{\\boxed{2}}", ()),
        # cmyk: full cyan, magenta and yellow without black is a composite black, readable
        ("\\textcolor[cmyk]{1,1,1,0}{\\boxed{2}}", ("2",)),
        # cmyk: a grey of luminance exactly 0.75 is too light (only darker is readable)
        ("\\textcolor[cmyk]{0,0,0,0.25}{\\boxed{2}}", ()),
        # hsb: brightness exactly 0.75 is too light
        ("\\textcolor[hsb]{0,0,0.75}{\\boxed{2}}", ()),
        # hsb: a number past the model's three is ignored, as gray's and cmyk's extras are
        ("\\textcolor[hsb]{0,0,0,1}{\\boxed{2}}", ("2",)),
        # HSB counts 0-240: brightness 100 is a dark grey, readable
        ("\\textcolor[HSB]{0,0,100}{\\boxed{2}}", ("2",)),
        # HSB: brightness 180 of 240 is luminance exactly 0.75, too light
        ("\\textcolor[HSB]{0,0,180}{\\boxed{2}}", ()),
    ],
)
def test_colour_models_are_read_by_value(text: str, answers: tuple[str, ...]) -> None:
    assert _answers(text) == answers


# ---------------------------------------------------------------------------------------------
# _html_spans: only a collapsed <details> shows its <summary>
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "answers"),
    [
        # a closed <dialog> hides a <summary> in it too: only <details> shows one
        ("<dialog><summary>\\boxed{3}</summary></dialog> \\boxed{4}", ("4",)),
        # an unclosed <details> whose summary ends the text still shows the summary
        ("\\boxed{4} <details><summary>\\boxed{3}</summary>", ("4", "3")),
    ],
)
def test_only_details_shows_its_summary(text: str, answers: tuple[str, ...]) -> None:
    assert _answers(text) == answers


# ---------------------------------------------------------------------------------------------
# _expanded (through without_hidden): a simple macro's body shown where it is used
# ---------------------------------------------------------------------------------------------

_TWENTY = "".join(f"\\def\\m{letter}{{{letter}}}" for letter in "abcdefghijklmnopqrst")


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        # \def alone (no "command" in the text) expands; the text before the definition stays
        ("A \\def\\alt{or maybe 7} \\boxed{5} \\alt", "A \\boxed{5} or maybe 7"),
        # several macros: each name is looked for, the first as well as the last
        ("\\def\\alt{or maybe 7}\\def\\q{x} \\boxed{5} \\alt \\q", "\\boxed{5} or maybe 7 x"),
        # a group after a macro without arguments is not its argument: it is still shown
        ("\\def\\alt{or maybe} \\boxed{5} \\alt{7}", "\\boxed{5} or maybe {7}"),
        # a one-argument macro used without a group shows its body with #1 empty
        ("\\newcommand{\\alt}[1]{or maybe #1} \\boxed{5} \\alt.", "\\boxed{5} or maybe ."),
        # a box in a body becomes \mbox: its text is shown, but it is no box
        ("\\newcommand{\\alt}{\\boxed{7}} \\boxed{5} \\alt", "\\boxed{5} \\mbox{7}"),
        # at most 20 macros are expanded: a 21st stays as written
        (_TWENTY + "\\def\\mz{or maybe 7} \\boxed{5} \\mz", "\\boxed{5} \\mz"),
    ],
)
def test_a_macro_shows_its_body_where_used(text: str, shown: str) -> None:
    assert _shown(text) == shown


# ---------------------------------------------------------------------------------------------
# without_hidden: a text whose only mark is a backtick is still read
# ---------------------------------------------------------------------------------------------


def test_a_fenced_code_block_alone_is_hidden() -> None:
    # no %, backslash, <, ~~ or link mark: the code fence alone sends the text through
    assert _shown("```\nor maybe 7\n```\nx = 5") == "x = 5"


# ---------------------------------------------------------------------------------------------
# _readings (through hedged): two boxes labelled as answers to two readings
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "gap", "hedge"),
    [
        # a reading word opening the gap counts, apart from the head's last word
        ("Case 1: ", "\nInterpretation 2: ", True),
        # only the earlier box labelled, the boxes joined by "and": a list, no hedge
        ("Interpretation A: ", " and ", False),
        # only the later box labelled: no hedge
        ("", " Interpretation B: ", False),
    ],
)
def test_both_boxes_need_a_reading_label(before: str, gap: str, hedge: bool) -> None:
    assert hedged(gap, before) is hedge
