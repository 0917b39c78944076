"""Edges of answer extraction (verify/extract.py), written from its docstrings.

Found unchecked by mutation testing (issue 26): the 64 KB cap at its exact boundary, empty and
blank boxes, gold without usable text, the bracket forms a TUP box may use (``\\langle``,
``\\left(``, ``[``), the element separators of one box, a box with an empty element, and the
count when a gold has no box at all.
"""

from __future__ import annotations

import pytest

from studybench.data import AnswerType
from studybench.verify.extract import (
    MAX_INPUT_CHARS,
    Extraction,
    boxed_answers,
    gold_answers,
    select_answers,
    strip_think,
    visible_text,
)
from studybench.verify.extract import _unparenthesise as unparenthesise

EARLY, LATE = r"\boxed{early}", r"\boxed{late}"


def test_the_cap_is_64_kib_exactly() -> None:
    assert MAX_INPUT_CHARS == 65536
    # the last 64 KiB start right after the early box: only the late one is seen
    cut = EARLY + "x" * (MAX_INPUT_CHARS - len(LATE)) + LATE
    assert boxed_answers(cut).answers == ("late",)
    # exactly 64 KiB in all: both boxes are inside the window
    kept = EARLY + "x" * (MAX_INPUT_CHARS - len(LATE) - len(EARLY)) + LATE
    assert len(kept) == MAX_INPUT_CHARS
    assert boxed_answers(kept).answers == ("early", "late")
    text, unterminated = visible_text("y" * (MAX_INPUT_CHARS + 3))
    assert (len(text), unterminated) == (MAX_INPUT_CHARS, False)


def test_the_cap_applies_after_thinking_is_removed() -> None:
    thinking = "<think>" + "t" * (2 * MAX_INPUT_CHARS) + "</think>"
    assert boxed_answers(EARLY + thinking + LATE).answers == ("early", "late")
    assert visible_text("<think>a</think>b", strip_thinking=False) == ("<think>a</think>b", False)
    assert visible_text("<think>a</think>b") == (" b", False)  # stripped by default


def test_blank_boxes_are_skipped_and_contents_stripped() -> None:
    assert boxed_answers(r"\boxed{ } \boxed{} \boxed{  3 }").answers == ("3",)
    assert boxed_answers(r"\boxed{ }") == Extraction((), "no_box")
    thought = boxed_answers(r"<think>x</think>\boxed{ 4 }")
    assert (thought.answers, thought.problem) == (("4",), None)


def test_an_unterminated_think_after_a_blank_box_has_no_answer() -> None:
    assert boxed_answers(r"\boxed{ } <think> \boxed{5}") == Extraction((), "think_unterminated")


def test_strip_think_keeps_text_between_blocks_and_after_the_last() -> None:
    assert strip_think("a<think>x</think>b<think>y</think>c") == ("a b c", False)
    assert strip_think("a<think>x<think>y</think>b") == ("a b", False)  # inner open: one block
    assert strip_think("a</think>b</think>c") == ("c", False)
    assert strip_think("a<think>x</think>b<think>y") == ("a b", True)


@pytest.mark.parametrize(
    ("gold", "answers"),
    [
        ("", ()),
        ("   ", ()),
        (r"  7 m ", ("7 m",)),
        (r"\boxed{ 2 } and \boxed{3 }", ("2", "3")),
    ],
)
def test_gold_answers(gold: str, answers: tuple[str, ...]) -> None:
    assert gold_answers(gold) == answers


@pytest.mark.parametrize(
    ("boxes", "count", "selected"),
    [
        ((r"\langle 1, 2 \rangle",), 2, ("1", "2")),
        ((r"\left( 1, 2 \right)",), 2, ("1", "2")),
        ((r"\left\langle 1, 2 \right\rangle",), 2, ("1", "2")),
        ((r"|\psi\rangle, |\phi\rangle",), 2, (r"|\psi\rangle", r"|\phi\rangle")),  # kets
        ((r"\langle a|, \langle b|",), 2, (r"\langle a|", r"\langle b|")),  # bras
        (
            (r"\langle a \rangle, \langle b \rangle",),
            2,
            (r"\langle a \rangle", r"\langle b \rangle"),
        ),
        (("x", r"\langle 1, 2 \rangle"), 2, ("x", r"\langle 1, 2 \rangle")),  # not alone: as is
        ((r"\langle 1, 2, 3 \rangle",), 3, ("1", "2", "3")),
        ((r"\langle x \rangle, |\psi\rangle",), 2, (r"\langle x \rangle", r"|\psi\rangle")),
        ((r"\langle a|, \langle b|c\rangle",), 2, (r"\langle a|", r"\langle b|c\rangle")),
        ((r"\left[ 1, 2 \right]",), 2, ("1", "2")),
        (("[a, b]",), 2, ("a", "b")),
        (("{a, b}",), 2, ("{a, b}",)),  # braces are not a tuple bracket
        (("(a, b)", "(c, d)"), 2, ("(a, b)", "(c, d)")),  # two points, not one tuple
        (("a, ",), 2, ("a, ",)),  # an empty element is not a tuple
        ((r"3 \quad 4",), 2, ("3", "4")),
        (("3; 4",), 2, ("3", "4")),
        (("3", r"4 \quad 5"), 2, ("3", r"4 \quad 5")),  # as many boxes as golds: not split
        (("3 and 4",), 2, ("3", "4")),
        (("3; 4; 5",), 2, ("3; 4; 5",)),  # three elements for two golds
        (("1{,}000",), 2, ("1{,}000",)),  # a thousands separator, not a tuple
        (("-1,000.5",), 2, ("-1,000.5",)),
        (("1, 2",), 1, ("1, 2",)),  # one gold: the box as a whole
        (("1", "2"), 0, ("2",)),  # a gold count of 0 still takes the last box
        (("p", "1, 2"), 2, ("1", "2")),  # the final line boxes the tuple
        (("p", "(1, 2)"), 2, ("p", "(1, 2)")),  # ... but a parenthesised one only when alone
    ],
)
def test_tuple_selection(boxes: tuple[str, ...], count: int, selected: tuple[str, ...]) -> None:
    assert select_answers(boxes, AnswerType.TUP, count) == selected


def test_an_angle_bracket_tuple_is_split_inside_its_brackets() -> None:
    """Bug found here: the comma split does not count \\langle/\\rangle as brackets, so
    ``\\langle 1, 2 \\rangle`` became the elements ``\\langle 1`` and ``2 \\rangle`` (both
    unparseable) before the bracket-stripping reading was tried: a right vector answer in
    angle brackets was marked wrong."""
    from studybench.verify import judge_inline

    gold = r"\boxed{1} \boxed{2}"
    right = judge_inline(r"\boxed{\langle 1, 2 \rangle}", gold, "TUP", type_sequence="NV,NV")
    assert (right.correct, right.extracted) == (True, ("1", "2"))
    swapped = judge_inline(r"\boxed{\langle 2, 1 \rangle}", gold, "TUP", type_sequence="NV,NV")
    assert not swapped.correct


def test_atomic_types_never_split_a_box() -> None:
    assert select_answers(("1, 2",), AnswerType.NV, 2) == ("1, 2",)
    assert select_answers(("(1, 2)",), AnswerType.EX, 2) == ("(1, 2)",)
    assert select_answers(("a", "b", "c"), AnswerType.ALT, 5) == ("a", "b", "c")


@pytest.mark.parametrize(
    ("text", "inner"),
    [
        (r"\langle 1, 2 \rangle", "1, 2"),
        (r"|a\rangle, |b\rangle", r"|a\rangle, |b\rangle"),  # kets end in \rangle: unchanged
        (r"\langle a|, \langle b|", r"\langle a|, \langle b|"),  # bras start with \langle
        ("(1, 2)", "1, 2"),
        ("[1, 2]", "1, 2"),
        ("(1, 2]", "(1, 2]"),  # mismatched brackets: an interval, not a tuple
        ("x", "x"),
    ],
)
def test_only_a_whole_bracket_pair_is_removed(text: str, inner: str) -> None:
    assert unparenthesise(text).strip() == inner


@pytest.mark.parametrize(
    ("box", "last"),
    [
        (r"3, \text{and c}", "c"),  # the group's closing brace went with "and"
        (r"3, \text{and } c", "c"),  # the group closed before the element: nothing more
        (r"3, \text{and } \frac{1}{2}", r"\frac{1}{2}"),  # the element's own braces stay
        (r"3, \text{and x}=\frac{1}{2}", r"x=\frac{1}{2}"),  # only the group's brace goes
        (r"3, and {c}", "{c}"),  # a plain "and": no \text group, every brace is the element's
        (r"3\ ,\ c", "c"),  # spacing around the comma
    ],
)
def test_the_and_of_the_last_element_is_dropped_with_its_text_group(box: str, last: str) -> None:
    """``a, b, \\text{and } c``: the "and" before the last element is not part of it; when
    it opened a ``\\text{...}`` group that also holds the element (``\\text{and c}``), the
    group's closing brace goes too, and no other brace."""
    assert select_answers((box,), AnswerType.TUP, 2) == ("3", last)


@pytest.mark.parametrize(
    ("box", "count", "selected"),
    [
        (r"(T_B, T_C) = (2T_0, 4T_0)", 2, ("T_B = 2T_0", "T_C = 4T_0")),  # each element named
        (r"\mathbf v = (1, 2)", 2, ("1", "2")),  # one name for the whole tuple
        (r"F\left(t\right) = (1, 2)", 2, ("1", "2")),  # F(t) names the tuple: sizing dropped
        (r"\vec v = (1, 2, 3)", 2, (r"\vec v = (1, 2, 3)",)),  # 3 values for 2 golds: whole
        (r"(a, b) = (1, 2, 3)", 3, (r"(a, b) = (1, 2, 3)",)),  # 2 names for 3 values: whole
        (r"[a, 2b] = (1, 2)", 2, (r"[a, 2b] = (1, 2)",)),  # 2b names nothing: whole
        # the name is also read as written, \mathbf as a vector: a sizing command standing as
        # the letter (\mathbf{\left}) names the tuple though the sizing-free form does not
        (r"\mathbf{\left} = (1, 2)", 2, ("1", "2")),
    ],
)
def test_a_named_tuple_gives_its_values(box: str, count: int, selected: tuple[str, ...]) -> None:
    assert select_answers((box,), AnswerType.TUP, count) == selected


def test_with_one_gold_the_last_box_is_the_answer_as_written() -> None:
    """One gold: the last box is compared whole, neither read as a named tuple nor cleaned
    like a list element (a TUP of one element is that element)."""
    assert select_answers((r"\vec v = (3)",), AnswerType.TUP, 1) == (r"\vec v = (3)",)
    assert select_answers((r"5\,",), AnswerType.TUP, 1) == (r"5\,",)
    assert select_answers((r"\text{and } 5",), AnswerType.TUP, 1) == (r"\text{and } 5",)


def test_only_a_tuple_answer_reads_a_named_tuple() -> None:
    """``(T_B, T_C) = (2, 4)`` boxed for two NV golds stays one box (atomic types never split a
    box), whatever its shape."""
    box = r"(T_B, T_C) = (2, 4)"
    assert select_answers((box,), AnswerType.NV, 2) == (box,)
    assert select_answers((box,), AnswerType.EX, 2) == (box,)


def test_two_points_after_one_name_are_not_a_list_of_values() -> None:
    """``\\vec v = (1, 2), (3, 4)`` has a comma at the top level: it is no named tuple (whose
    values are inside one bracket pair), so it is not read as the three "values" ``1``,
    ``2)``, ``(3, 4`` for three golds."""
    box = r"\vec v = (1, 2), (3, 4)"
    assert select_answers((box,), AnswerType.TUP, 3) == (box,)


NV, QL = AnswerType.NV, AnswerType.QL


@pytest.mark.parametrize(
    ("box", "sequence", "selected"),
    [
        (r"m = -6 \text{ (inverted)}", (NV, QL), ("m = -6", "inverted")),
        (r"-6\ (\text{inverted})", (NV, QL), ("-6", "inverted")),
        (r"-6 \text{(inverted})", (NV, QL), ("-6", "inverted")),  # a brace put inside
        (r"-6 (inverted)", (NV, QL), ("-6", "inverted")),
        (r"x = 3, v = -6 \text{ (inverted)}", (NV, NV, QL), ("x = 3", "v = -6", "inverted")),
        (r"3, -6 (inverted)", (NV, NV, QL), ("3", "-6", "inverted")),
        (r"1, 2, -6 (inverted)", (NV, NV, NV, QL), ("1", "2", "-6", "inverted")),
        # not enough elements before the phrase: the box as it is
        (r"-6 (inverted)", (NV, NV, QL), (r"-6 (inverted)",)),
        # an empty phrase, or nothing before it: no element
        (r"-6 \text{ ( )}", (NV, QL), (r"-6 \text{ ( )}",)),
        (r"\text{ (inverted)}", (NV, QL), (r"\text{ (inverted)}",)),
        # only where the last element is a phrase
        (r"-6 (inverted)", (NV, NV), (r"-6 (inverted)",)),
        (r"-6 (inverted)", (QL, NV), (r"-6 (inverted)",)),
        (r"-6 (inverted)", (), (r"-6 (inverted)",)),
    ],
)
def test_a_last_phrase_may_follow_the_others_in_parentheses(
    box: str, sequence: tuple[AnswerType, ...], selected: tuple[str, ...]
) -> None:
    """When the gold's last element is a phrase (QL), one box may give it in parentheses
    after the other elements: ``m = -6 \\text{ (inverted)}`` is (``m = -6``, ``inverted``)."""
    count = max(len(sequence), 2)
    assert select_answers((box,), AnswerType.TUP, count, sequence) == selected


@pytest.mark.parametrize(
    ("output", "answers"),
    [
        (r"\boxed{\boxed{14.5}}", ("14.5",)),  # a box in a box is the same answer
        (r"\boxed {\boxed{2}}", ("2",)),
        (r"\boxed{x = \boxed{3}}", ("x = {3}",)),  # an inner box is a group
        (r"\boxed{\boxed{3}\,\mathrm{m}}", (r"{3}\,\mathrm{m}",)),  # not the whole content
        (r"\boxed{\boxed{3} + {4}}", ("{3} + {4}",)),
        (r"\boxed{\boxed{3} + \boxed{4}}", ("{3} + {4}",)),
        (r"\boxed{\fbox{3}}", ("3",)),
    ],
)
def test_a_box_inside_a_box(output: str, answers: tuple[str, ...]) -> None:
    assert boxed_answers(output).answers == answers


@pytest.mark.parametrize(
    ("output", "extraction"),
    [
        # the only box denied: no answer, and the problem says why
        (r"it is not \boxed{5}", Extraction((), "disowned_box")),
        (r"\boxed{5} is wrong", Extraction((), "disowned_box")),
        # a box never closed: no answer, as an empty tuple like every other problem
        (r"\boxed{5", Extraction((), "unbalanced_box")),
        (r"\fbox{3", Extraction((), "unbalanced_box")),
        # an \fbox a reader cannot see is a hidden box as much as a hidden \boxed is
        (r"<!-- \fbox{3} -->", Extraction((), "hidden_box")),
        (r"\phantom{\fbox{3}}", Extraction((), "hidden_box")),
        (r"<!-- \boxed{3} -->", Extraction((), "hidden_box")),
    ],
)
def test_an_output_without_a_kept_box_says_why(output: str, extraction: Extraction) -> None:
    assert boxed_answers(output) == extraction


@pytest.mark.parametrize(
    ("output", "offered"),
    [
        # a hedge word after the last box, then a value: the value is offered
        (r"\boxed{14.5} or maybe 29 m/s", "29 m/s"),
        # a value at the very start of the output, then a hedge word before the only box
        (r"7 or \boxed{8}", "7"),
        (r"$29$ or \boxed{14.5}", "29"),
        # the prose before the last box starts after the previous box, not at the output's start
        (r"7 or \boxed{6} then \boxed{8}", None),
    ],
)
def test_the_value_offered_beside_the_last_box(output: str, offered: str | None) -> None:
    extraction = boxed_answers(output)
    assert extraction.offered == offered
    assert extraction.offers == (() if offered is None else (offered,))


@pytest.mark.parametrize(
    ("output", "tabled"),
    [
        (r"\boxed{0.2} | \boxed{0.3}", (True,)),  # a cell bar between the boxes
        # a bar inside the later box is its content, not a table between them
        (r"\boxed{0.2} and \boxed{P(A | B)}", (False,)),
        (r"\boxed{P(A | B)} and \boxed{0.2}", (False,)),
    ],
)
def test_only_a_bar_between_boxes_makes_them_a_table(output: str, tabled: tuple[bool, ...]) -> None:
    assert boxed_answers(output).tabled == tabled
