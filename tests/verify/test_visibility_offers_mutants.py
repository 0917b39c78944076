"""Edges of the offers read around the final box (verify/visibility.py), found unchecked by
mutation testing.

One table per rule, grouped by the function that applies it: whether the box stands in math
(``_box_in_math``), what the rest of the box's math offers (``_math_offer``), a restatement
or a value listed right after the box (``_restated``), values offered in later sentences
(``_later_offers``: the sentence each is read in, what-ifs, the four-word gap of "is also
plausible"), an offer relative to the box (``_relative``), how one offered value is written
(``_item_value``, ``_offered_after``), and how far the hedge word's sentence and window reach
(``offered_in_prose``, ``_hedge_word_offers``, ``offers_in_prose``).
"""

from __future__ import annotations

import pytest

from studybench.verify.visibility import (
    _OFFER_ITEM,
    _box_in_math,
    _item_value,
    _math_offer,
    _offered_after,
    _relative,
    offered_in_prose,
    offers_in_prose,
)

# ---------------------------------------------------------------------------------------------
# _box_in_math: an odd count of $$ or of lone $, or a \[ / \( left open
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "in_math"),
    [
        # an escaped dollar is no delimiter
        (r"It costs \$5, so ", False),
        # a closed display (two $$) and a closed inline math (two $) leave the box in prose
        ("$$x$$ so ", False),
        ("$x$ and $y$ so ", False),
        # one lone $ opens the box's math
        ("So $", True),
        # the last \[ after the last \] opens a display, however many came before
        (r"\[ a \] then \[ ", True),
        (r"\[ ", True),
        # displays opened and closed in turn: the last one is closed
        (r"\[a\] \[b\] so ", False),
        (r"\[a\] so ", False),
        # the same for \( … \)
        (r"\( a \) then \( ", True),
        (r"\( ", True),
        (r"\(a\) \(b\) so ", False),
        (r"\(a\) so ", False),
    ],
)
def test_the_box_stands_in_math_only_inside_an_open_one(before: str, in_math: bool) -> None:
    assert _box_in_math(before) is in_math


# ---------------------------------------------------------------------------------------------
# _math_offer: the rest of the box's math, up to its close, as the offered value
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rest", "value"),
    [
        # a blank line before the close: the math runs on into prose, no value
        (" 5\n\n6$", None),
        # at most 200 characters before the close (the edge is kept)
        ("1" * 200 + "$", "1" * 200),
        ("1" * 201 + "$", None),
        (" " + "1" * 250 + "$", None),
        # punctuation at the value's ends goes, letters stay
        (" 5;$", "5"),
        (" 3X$", "3X"),
        # the close of a group the hedge word opened in goes, and the punctuation before it
        (" 2d/3}$", "2d/3"),
        (" 29.}$", "29"),
        (" 2X}$", "2X"),
        # a balanced parenthesis is part of the value
        (" 2(a+b)$", "2(a+b)"),
    ],
)
def test_the_rest_of_the_box_math_is_the_offered_value(rest: str, value: str | None) -> None:
    assert _math_offer(rest) == value


# ---------------------------------------------------------------------------------------------
# _restated: a restatement right after the box, in its math or past its close
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after", "offers"),
    [
        # the box's math closed before "i.e.": the value is the item, not the rest up to the
        # next math ("52 km/h for")
        ("So $", "$ m/s, i.e. 52 km/h for $v$.", ("52 km/h",)),
        ("So $", "$, i.e. 52 km/h for $v$.", ("52 km/h",)),
        # a box in prose: a later inline math does not make "= 29 m/s, so" the value
        ("So ", " = 29 m/s, so $v$ is fast.", ("29 m/s",)),
        # the restatement is read within 160 characters of the box
        ("So ", " =" + " " * 170 + "29 m/s", ()),
        # a value listed after the box's unit ("m/s, 29 m/s")
        ("So ", " m/s, 29 m/s.", ("29 m/s",)),
        # a parenthesised value under a condition after "and" read as the box's unit
        ("So ", " and (29 m/s if the other convention is used)", ("29 m/s",)),
    ],
)
def test_a_restatement_after_the_box_is_read_where_it_stands(
    before: str, after: str, offers: tuple[str, ...]
) -> None:
    assert offers_in_prose(before, after) == offers


# ---------------------------------------------------------------------------------------------
# _later_offers: each offer is judged in its own sentence, and all of them are kept
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("after", "offers"),
    [
        # a counterfactual in the sentence before a hedge-word sentence is not its what-if
        (". If the road were flat, the speed is 10 m/s. Maybe 29 m/s, though.", ("29 m/s",)),
        # nor is one in the sentence after
        (". It might also be 29 m/s. If g were 9.81, the time is 2 s.", ("29 m/s",)),
        # a what-if sentence is skipped, and the offers after it are still read
        (". If g were 9.81, it could also be 14.6 m/s. It might also be 29 m/s.", ("29 m/s",)),
        # an offer relative to the box, then a value: both
        (". It could be twice that. It might also be 0.31.", ("", "0.31")),
        # two later offers: both
        (". It might also be 0.31. It could also be 0.42.", ("0.31", "0.42")),
        # "is also plausible": the value right before it, not the sentence's last value
        (". 31.6 N/m is also plausible. The energy is 105 J.", ("31.6 N/m",)),
        # a counterfactual before or after the sentence of "is also possible" is not its own
        (". If g were 9.81, the time is 2 s. I'm not sure; 29 m/s is also possible.", ("29 m/s",)),
        (". 29 m/s is also possible. If g were 9.81, the time is 2 s.", ("29 m/s",)),
        # a clause "is also possible" with no value before it does not end the scan
        (". That is also possible. 29 m/s is also plausible.", ("29 m/s",)),
        # a value that "is correct" without "also" restates; "also" in a later clause does not
        # make it a second value
        (" m/s. 14.5 m/s is correct; the time also follows.", ()),
        # up to four words between the value and "is also possible", not five
        (". 29 m/s for the second block is also possible.", ("29 m/s",)),
        (". 29 m/s for the second heavier block is also possible.", ()),
    ],
)
def test_later_offers_are_read_sentence_by_sentence(after: str, offers: tuple[str, ...]) -> None:
    assert offers_in_prose("So ", after) == offers


# ---------------------------------------------------------------------------------------------
# _relative: the clause right after the hedge word is "twice that" and nothing more
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("region", "relative"),
    [
        # the clause ends at the full stop: the next sentence is not part of it
        (" twice that. More text here.", True),
        # "10X" (ten times): a capital X is part of the clause
        (" 10X", True),
    ],
)
def test_a_relative_offer_is_read_in_its_own_clause(region: str, relative: bool) -> None:
    assert _relative(region) is relative


def test_a_relative_offer_before_a_further_sentence_is_an_offer() -> None:
    # "or twice that" offers a second value even with a sentence after it
    after = " or twice that. The time it takes to fall follows from the height."
    assert offers_in_prose("So ", after) == ("",)


# ---------------------------------------------------------------------------------------------
# _item_value and _offered_after: how one offered value is written, and each once
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("region", "value"),
    [
        # the close of a group the value stands in goes, and the space before it
        ("$29 }$", "29"),
        # a clause mark at the end of a math's value goes
        ("$29;$", "29"),
    ],
)
def test_an_offered_value_is_trimmed_at_its_end(region: str, value: str) -> None:
    item = _OFFER_ITEM.match(region)
    assert item is not None
    assert _item_value(region, item) == value


def test_a_value_in_math_keeps_its_unit_without_the_clause_mark() -> None:
    # "$29;$ m/s": the ";" goes, so the number takes its unit
    assert offers_in_prose("So ", " or maybe $29;$ m/s") == ("29 m/s",)


def test_each_value_after_the_box_is_offered_once() -> None:
    # the opening of the sentence and "perhaps" both lead to 29 m/s: it is read once
    assert _offered_after(" perhaps 29 m/s") == ["29 m/s"]


# ---------------------------------------------------------------------------------------------
# offered_in_prose, _hedge_word_offers, offers_in_prose: the hedge word's reach
# ---------------------------------------------------------------------------------------------


def test_a_hedge_word_offers_only_within_its_window() -> None:
    # the value must come within 80 characters of the box
    assert offered_in_prose("So ", " or" + " " * 100 + "29") is None


@pytest.mark.parametrize(
    ("before", "after", "offers"),
    [
        # the values after the hedge word are read to its sentence's end: "Otherwise the time
        # is 2 s" in the next sentence offers nothing
        ("So ", " or maybe 15 m/s. Otherwise the time is 2 s.", ("15 m/s",)),
        # a hedge word at the end of the box's math with no value left in it: the value in
        # the prose after the math is the offer
        ("So $", " \\text{ or }$ 29 m/s.", ("29 m/s",)),
    ],
)
def test_a_hedge_word_beside_the_box_offers_its_sentence_values(
    before: str, after: str, offers: tuple[str, ...]
) -> None:
    assert offers_in_prose(before, after) == offers
