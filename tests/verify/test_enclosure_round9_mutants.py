"""Round-9 mutation tests for ``studybench.verify.enclosure``: overprints that reach or do
not reach a box, moves that add up along one line (and only one), redefinitions that take
what follows, code blocks that disagree with the boxes outside them, and code elements."""

from __future__ import annotations

from studybench.verify import enclosure as enc
from studybench.verify.extract import boxed_answers


def _runs(text: str) -> list[tuple[int, int, float]]:
    return list(enc._runs(text, enc._line_ends(text)))


def _far_moves(text: str) -> list[tuple[int, int]]:
    return list(enc._far_moves(text, enc._box_spans(text)))


def _disagreeing(text: str) -> list[tuple[int, int]]:
    return list(enc._disagreeing_code(text, enc._box_spans(text)))


# --- overprints ---------------------------------------------------------------------------


def test_unclosed_overprint_inside_unclosed_box_covers_it() -> None:
    """An overprint that never closes inside a box that never closes ends where the box
    ends (the text's end): it is inside the box and draws over it."""
    text = "\\boxed{1 \\llap{23"
    assert enc.untrusted_boxes(text) == "\\mbox{1 \\llap{23"
    assert list(enc._covered(text, enc._box_spans(text), [0], (9, len(text)), "l")) == [
        (0, len(text))
    ]


def test_overprint_after_a_wide_makebox_is_still_read() -> None:
    """A makebox wide enough to take its room reaches nothing; the overprints after it
    are still read (``\\llap{\\boxed{C}}`` over ``\\boxed{A}``)."""
    text = "\\makebox[5cm]{x} \\boxed{A}\\llap{\\boxed{C}}"
    assert enc.untrusted_boxes(text) == "\\makebox[5cm]{x} \\mbox{A}\\llap{\\mbox{C}}"


def test_overprint_after_one_with_no_box_beside_is_still_read() -> None:
    """A label overprint in a paragraph without a box is left alone, and the overprints
    after it are still read."""
    text = "\\rlap{(a)}\n\n\\boxed{A}\\llap{\\boxed{C}}"
    assert enc.untrusted_boxes(text) == "\\rlap{(a)}\n\n\\mbox{A}\\llap{\\mbox{C}}"


def test_unclosed_overprint_reaches_the_text_end() -> None:
    """An overprint that never closes draws to the end of the text (no error)."""
    assert enc.untrusted_boxes("\\boxed{A}\\llap{\\boxed{C}") == "\\mbox{A}\\llap{\\mbox{C}"


def test_painting_overprint_content_is_read_to_its_closing_brace() -> None:
    """``\\llap{\\hl}`` paints: every box of its paragraph is covered, not only the one
    right against it (the content is read whole, up to the closing brace)."""
    text = "\\boxed{B} and \\boxed{A}\\llap{\\hl}"
    assert enc.untrusted_boxes(text) == "\\mbox{B} and \\mbox{A}\\llap{\\hl}"


def test_blank_overprint_content_stops_at_its_closing_brace() -> None:
    """``\\llap{\\quad}`` draws nothing: the text after its closing brace is not its
    content, so the box beside it stays."""
    text = "\\boxed{B} and \\boxed{A}\\llap{\\quad}x"
    assert enc.untrusted_boxes(text) == text


def test_label_overprint_in_a_paragraph_without_a_box_is_left_alone() -> None:
    """A label overprint (``\\llap{(a)}``) in a paragraph with no box draws over no answer,
    even right after a blank line that follows a box."""
    text = "\\boxed{X}\n\n\\llap{(a)}x"
    assert enc.untrusted_boxes(text) == text
    assert list(enc._overprinted(text, enc._box_spans(text))) == []


def test_overprint_read_even_where_every_trigger_word_appears() -> None:
    """The quick filter only skips texts with no overprint word at all."""
    text = "\\boxed{A}\\llap{\\boxed{C}} put smash"
    assert enc.untrusted_boxes(text) == "\\mbox{A}\\llap{\\mbox{C}} put smash"


def test_zero_width_makebox_is_read_without_lap_words() -> None:
    """``\\makebox[0pt][r]{…}`` is an overprint: found by the word ``box`` alone."""
    text = "\\boxed{A}\\makebox[0pt][r]{\\boxed{C}}"
    assert enc.untrusted_boxes(text) == "\\mbox{A}\\makebox[0pt][r]{\\mbox{C}}"


# --- moves along a line -------------------------------------------------------------------


def test_moves_on_different_lines_do_not_add_up() -> None:
    """Two moves of 200pt on two paragraphs are each under a page: no box is pushed off."""
    text = "\\hspace{200pt}x\n\n\\hspace{200pt}\\boxed{1}"
    assert enc.untrusted_boxes(text) == text
    assert _far_moves(text) == []


def test_move_of_exactly_an_em_adds_to_the_line() -> None:
    """A run of exactly 10pt (``\\quad``) counts toward the far limit."""
    text = "\\hspace{290pt} a \\quad \\boxed{1}"
    assert enc.untrusted_boxes(text) == "\\hspace{290pt} a \\quad \\mbox{1}"


def test_line_already_far_is_reported_once() -> None:
    """The line is reported where its total first reaches the far limit, not again."""
    assert _far_moves("\\hspace{300pt}a\\hspace{20pt}b") == [(14, 29)]


def test_move_back_of_exactly_an_em_after_a_box_overprints() -> None:
    """``\\hspace{-10pt}`` right after a box draws the next box over it."""
    text = "\\boxed{A}\\hspace{-10pt}\\boxed{C}"
    assert enc.untrusted_boxes(text) == "\\mbox{A}\\hspace{-10pt}\\mbox{C}"


def test_move_back_after_text_or_a_display_opening_overprints_nothing() -> None:
    """A move back counts as drawn over a box only right after it (spaces aside): after
    text (``XXXX``) or at the start of a display (``$$``, a new line) it is not."""
    for text in (
        "\\boxed{A}XXXX\\kern-1em\\boxed{C}",
        "\\boxed{A}$$\\kern-3em\\boxed{C}$$",
    ):
        assert enc.untrusted_boxes(text) == text
        assert _far_moves(text) == []


def test_move_back_after_a_math_opening_or_a_brace_overprints() -> None:
    """A move back right after a box overprints it with inline math, ``\\(`` or a group's
    brace between them: they stay on the box's line (a review found these missed)."""
    for text in (
        "\\boxed{A}\\kern-3em\\boxed{C}",
        "\\boxed{A}$\\kern-3em\\boxed{C}$",
        "\\boxed{A} $ \\kern-3em\\boxed{C}$",
        "\\boxed{A}\\(\\kern-3em\\boxed{C}\\)",
        "\\boxed{A}{\\kern-3em}\\boxed{C}",
    ):
        assert enc.untrusted_boxes(text) != text, text
    assert boxed_answers("\\boxed{0.154}$\\kern-2em\\boxed{0.308}$").answers == ()


def test_ties_alone_add_up_to_a_page() -> None:
    """Ties (``~``) are moves even in a text without a backslash: 91 of them are far."""
    assert _far_moves("~" * 91 + "x") == [(91, 92)]
    assert _far_moves("~" * 89 + "x") == []


def test_small_vertical_move_moves_nothing() -> None:
    """A small ``\\vspace`` neither pushes a box off nor adds to the horizontal sum."""
    assert enc.untrusted_boxes("\\vspace{2pt} \\boxed{5}") == "\\vspace{2pt} \\boxed{5}"
    text = "\\hspace{299.5pt}\\vspace{1pt}\\boxed{5}"
    assert enc.untrusted_boxes(text) == text
    assert _runs(text) == [(0, 28, 299.5)]


def test_vertical_move_of_exactly_the_far_limit_is_far() -> None:
    """A ``\\vspace`` of exactly 300pt pushes the box off the page."""
    assert enc.untrusted_boxes("\\vspace{300pt}\\boxed{5}") == "\\vspace{300pt}\\mbox{5}"


def test_small_moves_side_by_side_add_up_within_one_run() -> None:
    """Four ``\\;`` side by side make one run over an em: it adds to the line's total."""
    text = "\\hspace{295pt}x\\;\\;\\;\\;\\boxed{5}"
    assert enc.untrusted_boxes(text) == "\\hspace{295pt}x\\;\\;\\;\\;\\mbox{5}"
    assert _runs("\\hspace{5pt}\\hspace{5pt}") == [(0, 24, 10.0)]


def test_runs_are_split_by_text_and_by_line_ends() -> None:
    """Each run is its start, its end and its sum; text or a newline between moves starts
    a new run."""
    assert _runs("\\quad a\\;b") == [(0, 5, 10.0), (7, 9, 2.78)]
    assert _runs("\\,\\, x \\quad") == [(0, 4, 3.34), (7, 12, 10.0)]
    assert _runs("\\hspace{200pt}\n\\hspace{200pt}") == [(0, 14, 200.0), (15, 29, 200.0)]


# --- redefinitions ------------------------------------------------------------------------


def test_delimited_def_hides_everything_after_it() -> None:
    """``\\def\\x#1.{}`` may take any stretch of text: the box after it is no answer."""
    assert enc.untrusted_boxes("\\def\\x#1.{} \\boxed{1}") == "\\def\\x#1.{} \\mbox{1}"


def test_chardef_is_no_delimited_definition() -> None:
    """``\\chardef\\x=65`` has no parameter: the box after it stays."""
    text = "\\chardef\\x=65 \\boxed{1}"
    assert enc.untrusted_boxes(text) == text


def test_definition_site_is_no_use() -> None:
    """``\\newcommand{\\x}[2]`` names ``\\x``: the box after it in its paragraph is not
    taken by it; a use of ``\\x`` right before a box is."""
    text = "\\newcommand{\\x}[2]{#1} Answer: \\boxed{5}"
    assert enc.untrusted_boxes(text) == text
    text = "\\newcommand{\\x}[2]{#1}\n\n\\x \\boxed{5}"
    assert enc.untrusted_boxes(text) == "\\newcommand{\\x}[2]{#1}\n\n\\x \\mbox{5}"


def test_use_after_a_box_does_not_reach_into_it() -> None:
    """A defined command used after a box is not in it: the box stays."""
    text = "\\newcommand{\\y}{z}\n\n\\boxed{5} and \\y"
    assert enc.untrusted_boxes(text) == text


def test_box_ending_where_the_first_definition_starts_stays() -> None:
    """A box that ends before any definition starts is not changed by it."""
    text = "\\x \\boxed{5}\\def\\x#1{}"
    assert enc.untrusted_boxes(text) == text


# --- code blocks --------------------------------------------------------------------------


def test_disagreeing_code_read_where_every_code_mark_appears() -> None:
    """The quick filter skips only texts without any code mark: one with all of them is
    read, and a fenced box that disagrees with the one outside leaves no answer."""
    text = "```\n\\boxed{5}\n```\n\\boxed{7} ~~~ \t    end"
    assert _disagreeing(text) == [(0, len(text))]


def test_box_starting_in_a_comment_is_not_shown() -> None:
    """A box that starts inside an HTML comment is not seen, even where its argument runs
    past the comment's end: it is no box outside the code."""
    text = "```\n\\boxed{5}\n```\n<!-- \\boxed{7 --> }"
    assert _disagreeing(text) == []
    assert enc.untrusted_boxes(text) == text


def test_indented_block_starting_in_an_environment_is_layout() -> None:
    """An indented line that starts inside an environment is layout, not code, even where
    the line runs past the environment's end."""
    text = "\\boxed{7}\n\\begin{x}\n\n    \\boxed{5} \\end{x}\n"
    assert _disagreeing(text) == []
    assert enc.untrusted_boxes(text) == text


def test_box_starting_before_a_fence_is_outside_the_code() -> None:
    """A box is in code where it starts: one starting before an unclosed fence is not."""
    text = "\\boxed{7} \\boxed{5 ``` } tail"
    assert _disagreeing(text) == []
    assert enc.untrusted_boxes(text) == text


# --- code elements ------------------------------------------------------------------------


def test_code_element_span_starts_at_its_opening_tag() -> None:
    """A ``<pre>`` element (no summary) is untrusted from its ``<``."""
    assert sorted(enc._untrusted_spans("<pre>x</pre>")) == [(0, 12)]
