"""Edges of how the prose around a box is decoded and read for bounds, cases and offers
(verify/visibility.py), found unchecked by the sixth round of mutation testing.

One table per rule, grouped by the function that applies it: the character a TeX character
code stands for (``_character``), mirrored and overridden text read back (``_unmirrored``,
``_decoded``), bound words and relations around a box (``_bound_after``, ``_bound_before``,
``_direction``, ``bounds``), two boxes labelled as cases (``cases``), a hedge word in the
box's math (``_hedge_in_box_math``), and the runner-up offered in a later sentence
(``_runner_up``, ``_later_offers``).
"""

from __future__ import annotations

import re

import pytest

from studybench.verify.visibility import (
    _CHAR_CODE,
    _bound_after,
    _bound_before,
    _character,
    _decoded,
    _direction,
    _hedge_in_box_math,
    _later_offers,
    _runner_up,
    _unmirrored,
    bounds,
    cases,
)

# ---------------------------------------------------------------------------------------------
# _character: the character one TeX character code stands for
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "character"),
    [
        # a `character code is that character, with or without its backslash
        (r"\char`o", "o"),
        (r"\char`\o", "o"),
        # ^^ before a character is the character 64 places away, on either side of 64
        ("^^/", "o"),
        ("^^?", "\x7f"),
        ("^^@", "\x00"),
        ("^^A", "\x01"),
        ("^^o", "/"),
        # ^^^^ and four hex digits: the character with that hex code
        ("^^^^00e9", "é"),
        ("^^^^0041", "A"),
        # a code outside 1 … 0x10FFFF stands for no character: it is left as written
        (r"\char0", r"\char0"),
        (r"\char1", "\x01"),
        (r"\char1114111", "\U0010ffff"),
        (r"\char1114112", r"\char1114112"),
    ],
)
def test_a_tex_character_code_reads_as_its_character(code: str, character: str) -> None:
    match = _CHAR_CODE.match(code)
    assert match is not None
    assert _character(match) == character


# ---------------------------------------------------------------------------------------------
# _unmirrored and _decoded: mirrored text read back to front, each mirror once
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "read"),
    [
        # a mirror at the text's start, and the text before a mirror kept whole
        (r"\reflectbox{ro}", " or "),
        (r"a\reflectbox{ro}", "a or "),
        # every mirror is read, with the text between and after them kept as it is
        (r"\reflectbox{ro}x\reflectbox{dna}y", " or x and y"),
        (r"\reflectbox{abc}xy", " cba xy"),
        # markup inside the mirror is no letter
        (r"\reflectbox{\text{ro}}", " or "),
        # a mirror inside another is read with it; the next one is read on its own
        (r"\reflectbox{\reflectbox{a}}\reflectbox{dc}", r" axobtcelfer\  cd "),
        # a mirror that never closes is left as written
        (r"a \reflectbox{ro", r"a \reflectbox{ro"),
    ],
)
def test_mirrored_text_reads_back_to_front(text: str, read: str) -> None:
    assert _unmirrored(text) == read


@pytest.mark.parametrize(
    ("text", "read"),
    [
        # \reflectbox alone, \scalebox alone: either one is read back
        (r"\reflectbox{ro}", " or "),
        (r"\scalebox{-1}[1]{ro}", " or "),
        (r"x \reflectbox{ro} y", "x  or  y"),
        # a right-to-left override shows its whole run back to front
        ("\u202eabc", "cba"),
        ("\u202eabcd", "dcba"),
    ],
)
def test_decoded_text_reads_mirrored_runs_back(text: str, read: str) -> None:
    assert _decoded(text) == read


# ---------------------------------------------------------------------------------------------
# _bound_after: bound words after the box are read in its paragraph only
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("after", "way"),
    [
        # the first paragraph ends the bound words, however many paragraphs follow
        (" or less\n\nSo", "upper"),
        (" or less\n\nSo\n\nend", "upper"),
        # the same with the unit written after the box
        (" m/s or less\n\nSo", "upper"),
        (" m/s or less\n\nSo\n\nend", "upper"),
        # a bound word that also reads as a unit is read before the unit is taken off
        (" maximum\n\nSo", "upper"),
        (" maximum\n\nSo\n\nend", "upper"),
        (" tops\n\nSo\n\nend", "upper"),
        # words that go on in the same paragraph are no bound
        (" or less So", None),
        (" tops So", None),
    ],
)
def test_bound_words_after_the_box_end_with_its_paragraph(after: str, way: str | None) -> None:
    assert _bound_after(after) == way


# ---------------------------------------------------------------------------------------------
# _bound_before: a negation right before the bound words, a relation after a line break
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("window", "way"),
    [
        # "no more than" at the window's start turns the bound round
        ("no more than ", "upper"),
        ("more than ", "lower"),
        # the negation is read in the 20 characters before the bound words, from a word's start
        ("no" + " " * 18 + "more than ", "upper"),
        ("piano" + " " * 18 + "more than ", "upper"),
        ("piano" + " " * 19 + "more than ", "lower"),
        # a relation after a line break (¶) or a cut (…) compares nothing on its left
        ("¶ < ", None),
        ("… < ", None),
        ("x < ", "upper"),
    ],
)
def test_the_prose_before_the_box_bounds_it(window: str, way: str | None) -> None:
    assert _bound_before(window) == way


# ---------------------------------------------------------------------------------------------
# _direction: "bounded below" is a lower bound, in any case
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("words", "way"),
    [
        ("bounded below by", "lower"),
        ("Bounded below by", "lower"),
        ("BOUNDED FROM BELOW BY", "lower"),
        ("bounded by", "upper"),
        ("Lower limit", "lower"),
    ],
)
def test_bound_words_point_one_way(words: str, way: str) -> None:
    assert _direction(words) == way


# ---------------------------------------------------------------------------------------------
# bounds: each box read with the prose between it and its neighbours, not their contents
# ---------------------------------------------------------------------------------------------


def _bounds(text: str) -> list[str | None]:
    return bounds(text, [m.span() for m in re.finditer(r"\\boxed\{[^{}]*\}", text)])


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # the relation before the second box is read up to that box, not through it
        (r"\boxed{1}, v < \boxed{2}", [None, "upper"]),
        # the bound words after the first box are read up to the next box, not through it
        (r"\boxed{4} or less \boxed{5}", ["upper", None]),
        # a relation before and bound words after that disagree state no value
        (r"v < \boxed{3} or more", [""]),
        (r"v < \boxed{3} or less", ["upper"]),
        ("no box", []),
    ],
)
def test_each_box_is_bounded_by_the_prose_beside_it(text: str, found: list[str | None]) -> None:
    assert _bounds(text) == found


# ---------------------------------------------------------------------------------------------
# cases: a label before the first box alone makes no two cases
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("gap", "before", "cased"),
    [
        # the first box labelled, the gap only a join: the second box has no label
        (" and ", "Case 1: ", False),
        (" and ", "", False),
        # both labelled
        (" and Case 2: ", "Case 1: ", True),
        # the first label after its box, the second after its own
        (" (case 1) and ", "", True),
    ],
)
def test_two_boxes_are_cases_only_when_both_are_labelled(
    gap: str, before: str, cased: bool
) -> None:
    assert cases(gap, before) is cased


def test_cases_reads_no_label_without_the_text_before() -> None:
    assert cases(" and ") is False


# ---------------------------------------------------------------------------------------------
# _hedge_in_box_math: the hedge word is looked for at the box and within three windows
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("after", "in_math"),
    [
        # a hedge word right at the box, before the math closes
        ("or 6$", True),
        (r"\lor 6$", True),
        (r" \text{or} 6$", True),
        # the math closes before the hedge word
        (r"$ or 6", False),
        # a hedge word past three windows (240 characters) is not looked for
        (" + 1" * 70 + r" \text{or} 6$", False),
        (" + 1" * 50 + r" \text{or} 6$", True),
    ],
)
def test_a_hedge_word_in_the_box_math_is_read_near_the_box(after: str, in_math: bool) -> None:
    assert _hedge_in_box_math(after) is in_math


# ---------------------------------------------------------------------------------------------
# _runner_up: what a runner-up label offers
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rest", "offered"),
    [
        # a value that fills its clause is read as a value: math without its dollars
        ("$29$.", "29"),
        (" 29 m/s.", "29 m/s"),
        # otherwise the words, without the sentence's punctuation at their ends
        (" answer X", "answer X"),
        (" x + X)", "x + X"),
        # the remark's own parentheses go, with the punctuation before them
        ("(x + y", "x + y"),
        ("((x + y", "x + y"),
        (" x + y)", "x + y"),
        (" x + y.)", "x + y"),
        (" x + y;))", "x + y"),
        # up to eight words are an offer; more are prose, which offers ""
        (" one two three four five six seven eight", "one two three four five six seven eight"),
        (" one two three four five six seven eight nine", ""),
    ],
)
def test_a_runner_up_label_offers_what_follows_it(rest: str, offered: str) -> None:
    assert _runner_up(rest) == offered


# ---------------------------------------------------------------------------------------------
# _later_offers: the what-if test reads the offer's own sentence; the runner-up's subject
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("after", "offers"),
    [
        # a what-if in an earlier or a later sentence leaves the offer standing
        (" m/s. If the ramp were smooth, it would differ. It could be 29 m/s.", ("29 m/s",)),
        (" m/s. It could be 29 m/s. If the ramp were smooth, it would be 0.", ("29 m/s",)),
        (" m/s. If it were wet, I'd be unsure. Honestly, 29 m/s is the runner-up.", ("29 m/s",)),
        (" m/s. 29 m/s is the runner-up. If it were wet, 0 would do.", ("29 m/s",)),
        # the same for a runner-up under a label
        (" m/s. If the ramp were smooth, it would differ. Plan B: 29 m/s.", ("29 m/s",)),
        (" m/s. Plan B: 29 m/s. If the ramp were smooth, it would differ.", ("29 m/s",)),
        (" m/s. If the ramp were smooth, plan B: 29 m/s.", ()),
        # a runner-up in a what-if is skipped, and the next one is still read
        (
            " m/s. If it were wet, 5 m/s is the runner-up. Then 29 m/s is the runner-up.",
            ("29 m/s",),
        ),
        # the runner-up is the value right before "is the runner-up", not the clause's words
        (" m/s. Honestly 29 m/s is the runner-up.", ("29 m/s",)),
        (" m/s. Honestly 29 m/s is the runner-up. Then 5 kg.", ("29 m/s",)),
        (" m/s. Between 3 and 4, 29 m/s is the runner-up.", ("29 m/s",)),
    ],
)
def test_later_offers_read_the_runner_up_in_its_sentence(
    after: str, offers: tuple[str, ...]
) -> None:
    assert _later_offers(after) == offers
