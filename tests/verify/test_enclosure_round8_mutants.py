"""Round-8 mutation tests for ``studybench.verify.enclosure``'s small helpers: how far back
spaces reach before a box, lengths in points, overprint reach, box contents, definitions."""

from __future__ import annotations

import re

from studybench.verify import enclosure as enc


def _overprint(text: str) -> re.Match[str]:
    match = enc._OVERPRINT.search(text)
    assert match is not None
    return match


def _definition(text: str) -> re.Match[str]:
    match = enc._DEFINITION.search(text)
    assert match is not None
    return match


# --- _before_spaces ---------------------------------------------------------------------


def test_before_spaces_steps_back_over_each_space() -> None:
    """Every space before a position is skipped, one at a time, down to the last word."""
    assert enc._before_spaces("xy   z", 5) == 2
    assert enc._before_spaces("xy  z", 4) == 2
    assert enc._before_spaces("a b", 2) == 1


def test_before_spaces_reaches_the_text_start() -> None:
    """Spaces at the very start are skipped to position 0, never past it (no wrap-around)."""
    assert enc._before_spaces(" x", 1) == 0
    assert enc._before_spaces(" a ", 1) == 0


def test_before_spaces_skips_marks_and_spaces_together() -> None:
    """A ``$`` (a math opening) and spaces before a box are both stepped over."""
    assert enc._before_spaces("a $", 3) == 1
    assert enc._before_spaces("a$", 2) == 1


def test_before_spaces_default_marks_are_dollar_and_brace_only() -> None:
    """Other characters (a letter X) stop the walk back."""
    assert enc._before_spaces("aX$", 3) == 2


def test_before_spaces_steps_over_a_math_opening() -> None:
    """``\\(`` and ``\\[`` before a box are math openings: stepped over as two characters."""
    assert enc._before_spaces("x\\(", 3) == 1
    assert enc._before_spaces("abc\\(", 5) == 3
    assert enc._before_spaces("\\(", 2) == 0
    assert enc._before_spaces("x \\[", 4) == 1


def test_before_spaces_bare_parenthesis_is_no_opening() -> None:
    """A ``(`` without a backslash, or ``\\X``, is text: the walk stops there."""
    assert enc._before_spaces("x(", 2) == 2
    assert enc._before_spaces("\\X", 2) == 2
    assert enc._before_spaces("(\\", 1) == 1


def test_before_spaces_without_marks_skips_only_spaces() -> None:
    """With no marks, math openings are not stepped over either."""
    assert enc._before_spaces("x\\(", 3, marks="") == 3
    assert enc._before_spaces("x  ", 3, marks="") == 1


# --- _far / _length_points --------------------------------------------------------------


def test_far_threshold_and_spaced_lengths() -> None:
    """A tikz length of exactly the far limit is far; spaces inside a length are dropped."""
    assert enc._far("300pt")
    assert enc._far("3 00pt")
    assert not enc._far("299pt")
    assert not enc._far("nonsense")


def test_length_points_signs_and_units() -> None:
    """A length keeps its sign; a bare unit counts as one of it; spaces are dropped."""
    assert enc._length_points("2pt") == 2.0
    assert enc._length_points("-2pt") == -2.0
    assert enc._length_points("2 pt") == 2.0
    assert enc._length_points("\\textwidth") == 345.0


def test_length_points_mu_and_sums() -> None:
    """18 mu make an em (10pt), added to the other terms."""
    assert abs(enc._length_points("18mu") - 10.0) < 1e-9
    assert abs(enc._length_points("1pt+18mu") - 11.0) < 1e-9


def test_length_points_stretch_is_dropped() -> None:
    """Glue's stretch moves nothing: ``\\textwidth plus 1fil`` is a text width."""
    assert enc._length_points("\\textwidth plus 1fil") == 345.0


# --- _reach -----------------------------------------------------------------------------


def test_reach_of_laps() -> None:
    """``\\llap`` reaches left, ``\\rlap`` right, ``\\clap`` both ways."""
    assert enc._reach(_overprint("\\llap{x}")) == "l"
    assert enc._reach(_overprint("\\rlap{x}")) == "r"
    assert enc._reach(_overprint("\\clap{x}")) == "lr"


def test_reach_of_pictures_and_smash() -> None:
    """A picture's ``\\put`` reaches both sides; ``\\smash`` only the lines around."""
    assert enc._reach(_overprint("\\put(0,0){x}")) == "lr"
    assert enc._reach(_overprint("\\smash{x}")) == "v"


def test_reach_of_narrow_makebox_by_alignment() -> None:
    """A zero-width ``\\makebox`` overflows away from its alignment side."""
    assert enc._reach(_overprint("\\makebox[0pt][r]{x}")) == "l"
    assert enc._reach(_overprint("\\makebox[0pt][l]{x}")) == "r"
    assert enc._reach(_overprint("\\makebox[0pt]{x}")) == "lr"
    assert enc._reach(_overprint("\\makebox[0pt][c]{x}")) == "lr"
    assert enc._reach(_overprint("\\hbox to 0pt{x}")) == "lr"


def test_reach_of_wide_or_unreadable_makebox() -> None:
    """A box an em wide or more, or with no readable width, takes its room: no reach."""
    assert enc._reach(_overprint("\\makebox[10pt]{x}")) == ""
    assert enc._reach(_overprint("\\makebox[2em][r]{x}")) == ""
    assert enc._reach(_overprint("\\makebox[abc]{x}")) == ""
    assert enc._reach(_overprint("\\makebox[\\ z@]{x}")) == "lr"
    assert enc._reach(_overprint("\\makebox[p t]{x}")) == "lr"


# --- _said / _inside / _paragraph ---------------------------------------------------------


def test_said_reads_the_box_argument() -> None:
    """A box's content without the command or its closing brace, spacing dropped."""
    assert enc._said("\\boxed{12}x", (0, 10)) == "12"
    spaced, fraction = "\\boxed{14.5\\,m}", "\\boxed{\\frac{1}{2}}"
    assert enc._said(spaced, (0, len(spaced))) == "14.5m"
    assert enc._said(fraction, (0, len(fraction))) == "\\frac{1}{2}"


def test_said_without_a_brace_is_empty() -> None:
    """A box span with no brace says nothing; a span starting on its brace says its content."""
    assert enc._said("\\boxed x", (0, 8)) == ""
    assert enc._said("{12}", (0, 4)) == "12"


def test_inside_excludes_the_stretch_end() -> None:
    """A stretch ends before its end position."""
    assert enc._inside(4, [(0, 5)])
    assert not enc._inside(5, [(0, 5)])


def test_paragraph_bounds() -> None:
    """The first paragraph starts at 0 and ends at the blank line."""
    assert enc._paragraph("ab", 1) == (0, 2)
    assert enc._paragraph("a\n\nb", 0) == (0, 1)


# --- class names --------------------------------------------------------------------------


def test_overflow_classes_do_not_hide() -> None:
    """``overflow-hidden`` clips overflow only: its content is shown."""
    assert not enc._hiding_classes("overflow-hidden")
    assert not enc._hiding_classes("Overflow-hidden")
    assert enc._hiding_classes("hidden")


def test_no_owner_names_no_hiding_class() -> None:
    """A brace with no owning command has no class argument."""
    assert not enc._hiding_class_argument(None)


# --- definitions --------------------------------------------------------------------------


def test_let_and_document_commands_take_arguments() -> None:
    """``\\let``, ``\\futurelet``, robust and document commands may take what follows."""
    assert enc._takes_arguments(_definition("\\let\\x\\y"))
    assert enc._takes_arguments(_definition("\\futurelet\\x\\y"))
    assert enc._takes_arguments(_definition("\\DeclareRobustCommand{\\x}{y}"))
    assert enc._takes_arguments(_definition("\\NewDocumentCommand{\\x}{m}{y}"))


def test_commands_with_parameters_take_arguments() -> None:
    """``\\renewcommand`` / ``\\providecommand`` with two parameters take arguments."""
    assert enc._takes_arguments(_definition("\\renewcommand{\\x}[2]{#1}"))
    assert enc._takes_arguments(_definition("\\providecommand{\\x}[2]{#1}"))
    assert not enc._takes_arguments(_definition("\\newcommand{\\x}{y}"))


def test_register_definitions_take_no_arguments() -> None:
    """``\\chardef\\hash=`\\#`` names a character, not a parameter; other kinds take none."""
    assert not enc._takes_arguments(_definition("\\chardef\\hash=`\\#"))
    assert not enc._takes_arguments(_definition("\\mathchardef\\hash=`\\#"))
    assert not enc._takes_arguments(_definition("\\countdef\\hash=`\\#"))
    assert not enc._takes_arguments(_definition("\\DeclareMathOperator{\\x}{y}"))


def test_uses_pattern() -> None:
    """No definitions give no pattern; several give one matching each defined command."""
    assert enc._uses([]) is None
    pattern = enc._uses(list(enc._DEFINITION.finditer("\\def\\foo{1}\\def\\bar{2}")))
    assert pattern is not None
    assert pattern.search("a \\foo b") and pattern.search("a \\bar b")
    assert not pattern.search("a \\food b")


# --- environments, code blocks, lines, moves ----------------------------------------------


def test_environments_outermost_stretches() -> None:
    """Nested environments make one stretch from the outer begin to the outer end; one never
    closed runs to the text's end; a closed one adds nothing after it."""
    nested = "p \\begin{a}x\\begin{b}y\\end{b}z\\end{a} q"
    assert enc._environments(nested) == [(2, nested.index(" q"))]
    assert enc._environments("p \\begin{a} x") == [(2, 13)]
    assert enc._environments("\\begin{a}\\end{a} tail") == [(0, 16)]
    two = "\\begin{a}\\end{a} \\begin{b}\\end{b}"
    assert enc._environments(two) == [(0, 16), (17, len(two))]


def test_indented_blocks_after_blank_line() -> None:
    """Lines indented four spaces after a blank line are a code block, its own span."""
    assert list(enc._indented_blocks("text\n\n    code\nmore", [])) == [(6, 15)]
    assert list(enc._indented_blocks("    code\n", [])) == [(0, 9)]
    assert list(enc._indented_blocks("a\nb\n\n    code", [])) == [(5, 13)]
    text = "a\n\n    x\n    y\nz"
    assert list(enc._indented_blocks(text, [])) == [(3, text.index("z"))]


def test_indented_blocks_not_in_fences_or_lists() -> None:
    """Indented lines inside a fence, or continuing a list item, are no code block."""
    fenced = "```\n\n    x\n```\n"
    assert list(enc._indented_blocks(fenced, [(0, len(fenced))])) == []
    assert list(enc._indented_blocks("- item\n\n    continued\n", [])) == []
    assert list(enc._indented_blocks("- item\nmore\n\n    code\n", [])) == []


def test_line_ends_around_displays() -> None:
    """A newline inside a ``\\[ … \\]`` display is a space; one right after a display ends
    a line."""
    assert enc._line_ends("\\[a\nb\\]") == [0, 5, 7]
    assert enc._line_ends("$$x$$\ny") == [0, 3, 5, 7]


def test_move_points_named_and_directed() -> None:
    """A tie is a space's width; ``\\moveleft`` moves back; ``\\raise`` moves vertically."""
    tie = enc._MOVE.search("~")
    raise_ = enc._MOVE.search("\\raise5pt")
    left = enc._MOVE.search("\\moveleft 5pt")
    assert tie is not None and raise_ is not None and left is not None
    assert enc._move_points(tie) == (3.33, False)
    assert enc._move_points(raise_) == (5.0, True)
    assert enc._move_points(left) == (-5.0, False)


def test_box_spans_reach_the_matching_brace() -> None:
    """A box's span ends at the brace matching its argument's, past nested groups."""
    assert enc._box_spans("\\boxed{{a}b} c") == [(0, 12)]
    assert enc._box_spans("\\framebox[2cm] x") == [(0, 16)]
    assert enc._box_spans("\\framebox[2cm] x} y") == [(0, 19)]


def test_bare_hiding_class_attribute_hides_box() -> None:
    """An unquoted ``class=hidden`` hides its element's box as a quoted one does."""
    shown = enc.untrusted_boxes("<span class=hidden>\\boxed{5}</span>")
    assert "\\boxed" not in shown
    assert "\\mbox{5}" in shown


# --- loops ----------------------------------------------------------------------------------


def test_plain_loop_body_is_a_span() -> None:
    """A plain TeX ``\\loop … \\repeat`` is a loop body: its box is no answer."""
    text = "a \\loop \\boxed{1} \\repeat b"
    assert list(enc._loop_bodies(text)) == [(2, text.index(" b"))]


def test_foreach_braced_body_spans_to_its_brace() -> None:
    """A ``\\foreach`` body in braces ends at its matching brace; unclosed, at the end."""
    text = "\\foreach \\x in {1,2} {{a}\\boxed{b}} tail"
    assert list(enc._loop_bodies(text)) == [(0, text.index(" tail"))]
    other = "\\pgfplotsforeachungrouped \\x in {1,2} {\\boxed{\\x}} tail"
    assert list(enc._loop_bodies(other)) == [(0, other.index(" tail"))]
    unclosed = "\\foreach \\x in {1} {\\boxed{1}"
    assert list(enc._loop_bodies(unclosed)) == [(0, len(unclosed))]


def test_foreach_statement_body_ends_at_its_semicolon() -> None:
    """A tikz ``\\foreach`` statement runs to its own ``;`` (not an earlier or later one), or
    to the paragraph's end without one."""
    text = "x; \\foreach \\i in {1,2} \\node {\\boxed{1}}; a; b"
    assert list(enc._loop_bodies(text)) == [(3, text.index("; a"))]
    open_ = "\\foreach \\i in {1} \\node {A}\n\nnext"
    assert list(enc._loop_bodies(open_)) == [(0, open_.index("\n\n"))]


# --- overprints, reach of a use, disagreeing code ---------------------------------------------


def test_covered_right_reach_takes_the_next_box() -> None:
    """``\\rlap{x}\\boxed{A}`` draws over the box right after it; ``\\llap`` does not."""
    text = "\\rlap{x}\\boxed{A}"
    boxes = enc._box_spans(text)
    starts = [start for start, _ in boxes]
    assert list(enc._covered(text, boxes, starts, (0, 8), "r")) == [(8, 17)]
    assert list(enc._covered(text, boxes, starts, (0, 8), "l")) == []


def test_reached_by_a_use_at_the_paragraph_start() -> None:
    """A command taking arguments used at the very start of the box's paragraph may reach it."""
    assert enc._reached("\\x a \\boxed{1}", 5, [(0, 2)])


def test_disagreeing_code_untrusts_a_box_at_the_text_start() -> None:
    """A fenced box saying another value leaves no box an answer, the first one included."""
    text = "\\boxed{1}\n\n```\n\\boxed{2}\n```\n"
    assert "\\boxed" not in enc.untrusted_boxes(text)
