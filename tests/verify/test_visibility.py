"""What a reader does not see, boxes taken back, and hedges (studybench.verify.visibility).

The verdict-level behaviour is in the case tables (``sound_hidden_boxes.jsonl``,
``sound_disowned_boxes.jsonl``, ``sound_hedged_boxes.jsonl``); these tests pin the pieces.
"""

from __future__ import annotations

import pytest

from studybench.data.boxes import scan_boxes
from studybench.verify.extract import Extraction, boxed_answers
from studybench.verify.visibility import _visible_colour, denials, hedged, without_hidden


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("36% of it", "36% of it"),  # a percent sign after a number
        ("36 % of it", "36 % of it"),
        (r"36\% of it", r"36\% of it"),
        ("a % b\nc", "a  \nc"),  # a comment ends at the line's end
        ("a <!-- b --> c", "a   c"),
        ("a <!-- b", "a  "),  # never closed: the rest is hidden
        (r"a \iffalse b \fi c", "a   c"),
        (r"a \phantom{b} c", "a   c"),
        (r"a \cancel{b {x}} c", "a   c"),
        (r"a \textcolor{white}{b} c", "a   c"),
        (r"a \textcolor{red}{b} c", r"a \textcolor{red}{b} c"),
        (r"{a \color{white} b} c", "{a  } c"),  # a switch paints the rest of its group
        (r"a \verb|b| c", "a   c"),
        ("a ~~b~~ c", "a   c"),
        ("a~~b c~~d", "a~~b c~~d"),  # doubled ~ inside words is LaTeX spacing
        ("a <del>b</del> c", "a   c"),
        ('a <span style="display:none">b</span> c', "a   c"),
        ('a <span class="x">b</span> c', "a  b</span> c"),  # attributes never render
        (r"a \phantom\boxed{b} c", "a   c"),  # an unbraced box argument
        (r"a \colorbox{black}{b} c", "a   c"),  # black text on black
        (r"a \colorbox{yellow}{b} c", r"a \colorbox{yellow}{b} c"),
        ("a `\\boxed{b}` c", "a `\\mbox{b}` c"),  # code: a box shown as code is no box
        ("a `or b` c", "a `or b` c"),  # code without a box is text a reader sees
        ("a ![b](x.png) c", "a   c"),
    ],
)
def test_without_hidden_removes_only_what_a_reader_does_not_see(text: str, kept: str) -> None:
    assert without_hidden(text) == kept


@pytest.mark.parametrize(
    ("spec", "model", "visible"),
    [
        ("red", None, True),
        ("Blue", None, True),
        ("red!60", None, True),
        ("red!20", None, False),  # mostly white
        ("blue!50!black", None, True),
        ("white", None, False),
        ("yellow", None, False),  # too light to read on white
        ("mycolour", None, False),  # a custom name may be anything
        ("1F3A93", "HTML", True),
        ("FAFAFA", "HTML", False),
        ("#c00", None, True),
        ("0.5,0,0", "rgb", True),
        ("1,1,1", "rgb", False),
        ("128,0,0", "RGB", True),
        ("255,255,255", "RGB", False),
        ("0.2", "gray", True),
        ("0.9", "gray", False),
    ],
)
def test_only_colours_readable_on_white_count_as_visible(
    spec: str, model: str | None, visible: bool
) -> None:
    assert _visible_colour(spec, model) is visible


def _denied(text: str) -> list[bool]:
    return denials(text, list(scan_boxes(text).spans))


def test_a_denial_before_or_after_a_box_takes_it_back() -> None:
    assert _denied(r"it is not \boxed{1}") == [True]
    assert _denied(r"\boxed{1} is wrong") == [True]
    assert _denied(r"\boxed{1} (incorrect) \boxed{2}") == [True, False]
    assert _denied(r"\boxed{1} \neq \boxed{2}") == [False, True]
    assert _denied(r"wrong: \boxed{1}") == [True]


def test_a_denial_runs_through_a_list_and_stops_at_prose() -> None:
    assert _denied(r"not \boxed{1}, \boxed{2} and \boxed{3}") == [True, True, True]
    assert _denied(r"\boxed{1}, \boxed{2} are wrong") == [True, True]
    assert _denied(r"not \boxed{1}; so the answer is \boxed{2}") == [True, False]


def test_words_that_only_look_like_denials_do_not_take_a_box_back() -> None:
    assert _denied(r"My first try was wrong: \boxed{1}") == [False]  # about the try
    assert _denied(r"\boxed{False}. False, since the flux is constant.") == [False]
    assert _denied(r"The field is not uniform, so \boxed{1}") == [False]
    assert _denied(r"\boxed{1} is not the only root: \boxed{2}") == [False, False]


@pytest.mark.parametrize(
    ("gap", "hedge"),
    [
        (r" \text{ or } ", True),
        (" / ", True),
        (", maybe ", True),
        ("$ or possibly $", True),
        (r" \lor ", True),
        (" ", False),
        (", ", False),
        (" and ", False),
        (". Wait, I dropped a factor; redoing the algebra with it and simplifying gives ", False),
    ],
)
def test_a_hedge_is_a_short_gap_with_a_hedge_word(gap: str, hedge: bool) -> None:
    assert hedged(gap) is hedge


def test_a_redefined_box_hides_every_box() -> None:
    assert without_hidden(r"\renewcommand{\boxed}[1]{\fbox{2}} \boxed{1}") == " "


def test_extraction_reports_hedges_hidden_and_disowned_boxes() -> None:
    assert boxed_answers(r"\boxed{1} or \boxed{2} \boxed{3}").hedges == (True, False)
    assert boxed_answers(r"\phantom{\boxed{1}}") == Extraction((), "hidden_box")
    assert boxed_answers(r"It is not \boxed{1}.") == Extraction((), "disowned_box")
    assert boxed_answers(r"\boxed{1} % \boxed{2}").answers == ("1",)


def test_adversarial_nesting_costs_one_scan() -> None:
    """Thousands of unclosed hiding groups, or tags without an end, are read once: the
    results are what one scan gives (a time bound is the benchmark's business)."""
    assert boxed_answers(r"{\color{white}" * 4000 + r"\boxed{1}").problem == "hidden_box"
    assert boxed_answers(r"\phantom{" * 4000 + r"\boxed{1}").problem == "hidden_box"
    assert boxed_answers("<details " * 4000 + r"\boxed{1}").answers == ("1",)
    assert boxed_answers("~~a " * 4000 + r"\boxed{1}").answers == ("1",)
