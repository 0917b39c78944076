"""The edges of verifier 1.18.0's restatement readers (verify/restatement.py).

Each table pins one reader of the text after the final box at the places where a careless
change would read it otherwise: which labelled numbers a clause that concludes states for an
asked quantity (``_asked_statements``: a label marked as the answer's, a statement after one
already read, after another case, a preposition or a value, an expression, a math closed
without a unit after it), which quantity a name in words is about (``_asks_about``), which
values a conclusion, a line or a unit named before it gives (``restated_values``), where a
clause and a bound lie (``_sentence_at``, ``_in_bound``), which sentences set a value aside
(``_set_aside``) and which name another alternative (``other_alternatives``).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from studybench.verify.restatement import (
    _asked_statements,
    _asks_about,
    _in_bound,
    _sentence_at,
    _set_aside,
    other_alternatives,
    restated_values,
)
from studybench.verify.verifier import judge_inline


def _asking(*labels: str) -> Callable[[str], bool]:
    """An ``asked`` that names exactly ``labels``."""
    return lambda label: label in labels


# -- labelled numbers anywhere in a clause that concludes (``_asked_statements``) ------------
@pytest.mark.parametrize(
    ("after", "labels", "values"),
    [
        # a label marked as the answer's is asked by its own name too
        (
            "\n\nSo, as computed, $v_{\\text{final}} = 29$ m/s.",
            ("v_{\\text{final}}",),
            [("v_{\\text{final}}", "29 m/s")],
        ),
        # a statement a conclusion has read already does not end the reading
        (
            "\n\nSo $v = 14.5$ m/s. So, as computed, $v_{\\text{final}} = 29$ m/s.",
            ("v", "v_{\\text{final}}"),
            [("v", "14.5 m/s"), ("v_{\\text{final}}", "29 m/s")],
        ),
        # nor does another quantity's statement, another case, a preposition, a value
        # before it or an expression
        (
            "\n\nSo, as computed, $a = 3.2$ m/s². So, as computed, $v = 29$ m/s.",
            ("v",),
            [("v", "29 m/s")],
        ),
        (
            "\n\nSo if the bank were 30°, $v = 21$ m/s. So, as computed, $v = 29$ m/s.",
            ("v",),
            [("v", "29 m/s")],
        ),
        (
            "\n\nSo with $v = 20$ m/s the car slips. So, as computed, $v = 29$ m/s.",
            ("v",),
            [("v", "29 m/s")],
        ),
        (
            "\n\nSo on the Moon, with $g = 1.62$ m/s², $h = 4.94$ m."
            " So, as computed, $h = 2.00$ m.",
            ("h",),
            [("h", "2.00 m")],
        ),
        (
            "\n\nSo, as computed, $v = 2\\sqrt{gh}$. So, as computed, $v = 29$ m/s.",
            ("v",),
            [("v", "29 m/s")],
        ),
        # a preposition early in the text is read as near the statement as a later one
        ("\n\nSo with $v = 20$ m/s the car slips.", ("v",), []),
        # a word that ends in a preposition's letters is no preposition
        ("\n\nSo, on the flat" + " " * 38 + "$v = 29$ m/s.", ("v",), [("v", "29 m/s")]),
        ("\n\nSo, on the flat $v = 29$ m/s.", ("v",), [("v", "29 m/s")]),
        # a math closed with nothing after it: a number without a unit
        ("\n\nSo, as computed, $\\eta = 0.31$.", ("\\eta",), [("\\eta", "0.31")]),
        ("\n\nSo, as computed, $\\eta = 0.31$, as expected.", ("\\eta",), [("\\eta", "0.31")]),
    ],
)
def test_labelled_numbers_in_a_concluding_clause(
    after: str, labels: tuple[str, ...], values: list[tuple[str | None, str]]
) -> None:
    assert restated_values(after, None, _asking(*labels)) == values


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # a math closed by "\)" takes the unit after it, as one closed by "$" does
        ("So \\( v = 29\\) m/s.", [(6, "v", "29 m/s")]),
        ("So $v = 29$ m/s.", [(4, "v", "29 m/s")]),
    ],
)
def test_a_closed_math_takes_the_unit_after_it(
    text: str, found: list[tuple[int, str | None, str]]
) -> None:
    assert _asked_statements(text, _asking("v"), None, []) == found


# -- what the conclusions, lines and units named before a value give (``restated_values``) --
SPEED_Q = "A cart rolls down a ramp. Find the speed of the cart at the bottom."


@pytest.mark.parametrize(
    ("after", "question", "values"),
    [
        # a quantity named in words that the question does not ask for, in every form
        ("\n\nSo a time of 1.5 s.", SPEED_Q, []),
        ("\n\nThe time is therefore 1.5 s.", SPEED_Q, []),
        ("\n\nSo a speed of 29 m/s.", SPEED_Q, [(None, "29 m/s")]),
        ("\n\nThe speed is therefore 29 m/s.", SPEED_Q, [(None, "29 m/s")]),
        # a line right after a conclusion's blank line is read too
        ("\n\nSo v = 29 m/s\n\nh = 1.63 m", None, [("v", "29 m/s"), ("h", "1.63 m")]),
        # a unit named in math before the value keeps all its letters
        ("\n\nIn $X_0$, this is 3.2.", None, [(None, "3.2\\,X_0")]),
        ("\n\nIn $\\mathrm{km/h}$, this is 104.", None, [(None, "104\\,\\mathrm{km/h}")]),
    ],
)
def test_restated_values_at_the_edges(
    after: str, question: str | None, values: list[tuple[str | None, str]]
) -> None:
    assert restated_values(after, question) == values


DISTANCE_Q = "How far does she walk altogether? Give the distance $d$ in km."


def test_a_conclusion_and_a_named_line_at_one_place() -> None:
    # "Altogether d = 12 km" is a conclusion and a line that names the asked quantity: both
    # start at one place, and the values are ordered by place alone
    restated = restated_values(" Altogether d = 12 km.", DISTANCE_Q, _asking("d"))
    assert ("d", "12 km") in restated
    assert {value for _, value in restated} == {"12 km"}


@pytest.mark.parametrize(
    ("pred", "correct"),
    [
        ("She walks \\boxed{12\\,\\mathrm{km}} Altogether d = 12 km.", True),
        ("She walks \\boxed{12\\,\\mathrm{km}} Altogether d = 15 km.", False),
    ],
)
def test_a_restated_distance_is_judged(pred: str, correct: bool) -> None:
    assert judge_inline(pred, "12 km", "NV", question=DISTANCE_Q).correct is correct


# -- which quantity a name in words is about (``_asks_about``) ---------------------------------
FRICTIONLESS_Q = "Find the acceleration of the block if friction is neglected."
INCLINE_Q = "Find the acceleration of the block on the incline if friction is neglected."


@pytest.mark.parametrize(
    ("noun", "question", "asks"),
    [
        # every word after the head says which one it is, a preposition among them: "with
        # friction" is another case than the asked one
        ("acceleration of the block with friction", FRICTIONLESS_Q, False),
        ("acceleration of the block with friction on the incline", INCLINE_Q, False),
        ("acceleration of the block on the incline", INCLINE_Q, True),
        ("acceleration of the block", FRICTIONLESS_Q, True),
        # words that only say it is the asked one need not be in the question
        ("required speed", "What speed does the car reach?", True),
        ("the final speed", "What speed does the car reach?", True),
        ("initial speed", "What speed does the car reach?", False),
    ],
)
def test_which_quantity_a_name_is_about(noun: str, question: str, asks: bool) -> None:
    assert _asks_about(noun, question) is asks


# -- where a bound and a clause lie (``_in_bound``, ``_sentence_at``) --------------------------
BOUND = "Both satisfy $t \\le 4.0$ s."


@pytest.mark.parametrize(
    ("at", "inside"),
    [
        (BOUND.index("$"), False),  # the opening dollar: the math begins after it
        (BOUND.index("$") + 1, True),
        (BOUND.index("4"), True),
        (BOUND.rindex("$") + 1, False),  # after the closing dollar
        (BOUND.index("s."), False),
        (0, False),
    ],
)
def test_a_position_in_math_that_states_a_bound(at: int, inside: bool) -> None:
    assert _in_bound(BOUND, at) is inside


CLAUSES = "So v = 29 m/s. Then w = 3 m/s"


@pytest.mark.parametrize(
    ("at", "clause"),
    [
        (0, (0, "So v = 29 m/s")),  # the first character is in the first clause
        (CLAUSES.index("v"), (0, "So v = 29 m/s")),
        (CLAUSES.index("."), (0, "So v = 29 m/s")),  # the full stop ends its clause
        (CLAUSES.index("w"), (14, " Then w = 3 m/s")),
        (len(CLAUSES), (14, " Then w = 3 m/s")),  # the end of the text ends the last
        (100, (100, "")),  # past the text: no clause
    ],
)
def test_the_clause_that_holds_a_position(at: int, clause: tuple[int, str]) -> None:
    assert _sentence_at(CLAUSES, at) == clause


# -- which sentences set a value aside (``_set_aside``) ----------------------------------------
@pytest.mark.parametrize(
    ("text", "aside"),
    [
        # a set-aside word that is a denial itself is not denied by one before it
        ("We need not worry since no other root is positive.", True),
        ("We need not worry as it is not physical.", True),
        ("We need not worry as it is not allowed.", True),
        # a set-aside word that is denied sets nothing aside
        ("The root is not unphysical.", False),
        ("No root needs to be rejected.", False),
        ("The other root, -3.0 s, is unphysical.", True),
    ],
)
def test_what_sets_a_value_aside(text: str, aside: bool) -> None:
    assert _set_aside(text) is aside


# -- which values name another alternative (``other_alternatives``) ---------------------------
@pytest.mark.parametrize(
    ("after", "values"),
    [
        # a sentence read as another alternative does not end the reading
        (
            "\n\nThe other root, $t = -3.0$ s, is unphysical. Likewise $t = 4.0$ s works.",
            ["4.0\\,\\mathrm{s}"],
        ),
        # a list of the alternatives is read as one clause, up to what explains them
        (
            "\n\nBoth $t = 1.0$ s and $t = 4.0$ s work: each is before the landing at 5.0 s.",
            ["1.0\\,\\mathrm{s}", "4.0\\,\\mathrm{s}"],
        ),
        # another clause is another event
        (
            "\n\nThe lens works equally well at 70.0 cm, and the image is then 30.0 cm away.",
            ["70.0\\,\\mathrm{cm}"],
        ),
        # an appositive or a remark is no unit of the value before it
        ("\n\nLikewise $n = 2$, the zero after $n = 1$, since the product vanishes there.", ["2"]),
        ("\n\nLikewise $n = 2$ (a zero of the product).", ["2"]),
        # every sentence adds its values to the ones before
        (
            "\n\n$t = 1.0$ s works. Likewise $t = 4.0$ s works.",
            ["1.0\\,\\mathrm{s}", "4.0\\,\\mathrm{s}"],
        ),
        (
            "\n\nThe other position, 70.0 cm, works too. Likewise 45.0 cm is valid.",
            ["70.0\\,\\mathrm{cm}", "45.0\\,\\mathrm{cm}"],
        ),
        # a bound early in the text is a bound; one before another value bounds only its own
        ("\n\nAny t < 4.0 s works.", []),
        (
            "\n\nWith t > 0 the ball likewise passes the same height at 4.0 s.",
            ["4.0\\,\\mathrm{s}"],
        ),
    ],
)
def test_other_alternatives_at_the_edges(after: str, values: list[str]) -> None:
    assert other_alternatives(after) == values
