"""What the prose around a box makes of it (verify/visibility.py), pinned where the seventh
round's tables left it open: a qualifier written after the box's unit, a qualifier's
condition in the next sentence, the windows of prose read after a box, how many sentences a
later bound may stand in, a cause that makes "the actual value will be lower" a caveat, a
negated bound that points no way, a box that opens a bracket with no interval, and cases
environments with one row, no end or an earlier closed one.

Each table reads the extraction a reader's text gives (``boxed_answers``: its ``bounds`` and
``offers``), with the honest form beside the one that changes the verdict.
"""

from __future__ import annotations

import pytest

from studybench.verify.extract import boxed_answers


def _bound(text: str) -> str | None:
    extraction = boxed_answers(text)
    assert extraction.answers, text
    return extraction.bounds[-1]


def _offers(text: str) -> tuple[str, ...]:
    extraction = boxed_answers(text)
    assert extraction.answers, text
    return extraction.offers


# ---------------------------------------------------------------------------------------------
# qualifiers after the box: "(±20%)" makes it no committed value (an offer of "")
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "offers"),
    [
        # the unit written after the box does not hide the qualifier after it
        ("v = \\boxed{14.5} m/s (±20%)", ("",)),
        ("v = \\boxed{14.5} (±20%)", ("",)),
        # a qualifier stays one when a sentence follows it
        ("v = \\boxed{14.5} (±20%). Done.", ("",)),
        ("v = \\boxed{14.5} m/s (±20%). The car is fast.", ("",)),
        # a condition with "only" in the next sentence is a what-if, not the box's validity
        ("v = \\boxed{14.5}. If it did not rotate only the spin would matter.", ()),
        # in the box's own sentence it restricts the box
        ("v = \\boxed{14.5} for small angles only.", ("",)),
        # spacing after the box (thin spaces: blank lines are collapsed to one break, as a
        # reader sees them): a qualifier within the window is read, one past it is not
        ("v = \\boxed{14.5}" + "\\," * 75 + "(±20%)", ("",)),
        ("v = \\boxed{14.5}" + "\\," * 85 + "(±20%)", ()),
    ],
)
def test_qualifier_after_the_box(text: str, offers: tuple[str, ...]) -> None:
    """A spread or a restriction right after the box (past its unit) makes it no committed
    value; a condition in the next sentence, or a remark far past the box, does not."""
    assert _offers(text) == offers


@pytest.mark.parametrize(
    ("text", "offers"),
    [
        ("v = \\boxed{14.5} (double if the road is icy)", ("",)),
        ("v = \\boxed{14.5}" + "\\," * 75 + "(double if the road is icy)", ("",)),
        ("v = \\boxed{14.5}" + "\\," * 85 + "(double if the road is icy)", ()),
    ],
)
def test_relative_remark_window(text: str, offers: tuple[str, ...]) -> None:
    """A relative remark ("(double if …)") is read within the window after the box only."""
    assert _offers(text) == offers


@pytest.mark.parametrize(
    ("text", "offers"),
    [
        ("t = \\boxed{2.0 s} (as well as 5.0 s)", ("5.0 s",)),
        ("t = \\boxed{2.0 s}" + "\\," * 70 + "(as well as 5.0 s)", ("5.0 s",)),
        ("t = \\boxed{2.0 s}" + "\\," * 75 + "(as well as 5.0 s)", ()),
        ("t = \\boxed{2.0 s}" + "\\," * 85 + "(as well as 5.0 s)", ()),
    ],
)
def test_paired_value_window(text: str, offers: tuple[str, ...]) -> None:
    """A value listed in a remark ("(as well as 5.0 s)") is offered when the whole remark
    stands within the window after the box; one cut off or past it offers nothing."""
    assert _offers(text) == offers


# ---------------------------------------------------------------------------------------------
# bounds stated after the box
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "way"),
    [
        # the sentence after the box's: a bound
        ("v = \\boxed{14.5} m/s. This is only an upper bound.", "upper"),
        ("v = \\boxed{14.5} m/s. This is only an upper bound", "upper"),
        # a third sentence is no longer about the box
        ("v = \\boxed{14.5} m/s. The car is fast. This is only an upper bound.", None),
        ("v = \\boxed{14.5} m/s. The car is fast. This is only an upper bound", None),
        # a long next sentence: read up to the window, not past it
        (
            "v = \\boxed{14.5} m/s. The car goes " + "very " * 30 + "fast, so this is only an "
            "upper bound.",
            "upper",
        ),
        (
            "v = \\boxed{14.5} m/s. The car goes " + "very " * 50 + "fast, so this is only an "
            "upper bound.",
            None,
        ),
        # a note in the next paragraph is the box's only where nothing follows it in its own
        ("v = \\boxed{14.5}\n\nThis is only an upper bound.", "upper"),
        ("v = \\boxed{14.5} $.$\n\nThis is only an upper bound.", "upper"),
        ("v = \\boxed{14.5} X\n\nThis is only an upper bound.", None),
        # "the actual value will be lower" because of a cause is a caveat on the ideal model
        ("v = \\boxed{14.5} m/s. The actual value will be lower because of friction.", None),
        ("v = \\boxed{14.5} m/s. The actual value will be lower.", "upper"),
    ],
)
def test_bound_in_the_sentences_after(text: str, way: str | None) -> None:
    """A bound stated after the box counts in the box's sentence and the next one, within
    the window, in the box's paragraph (or the next where its own is empty), and not when a
    physical cause explains it."""
    assert _bound(text) == way


@pytest.mark.parametrize(
    ("text", "way"),
    [
        # a comparative that points no known way states no value, negated or not
        ("The price is cheaper than \\boxed{5}.", ""),
        ("The price is not cheaper than \\boxed{5}.", ""),
        ("The trip takes no sooner than \\boxed{5} h.", ""),
    ],
)
def test_negated_bound_without_direction(text: str, way: str) -> None:
    """A negated bound whose words point neither way is still a bound with no value."""
    assert _bound(text) == way


@pytest.mark.parametrize(
    ("text", "way"),
    [
        ("$x \\in [\\boxed{3}, 5]$", "lower"),
        # a bracket the box opens with no second end after it is no interval
        ("$x \\in [\\boxed{3}]$", None),
        ("$x \\in (\\boxed{2} - \\epsilon, 2 + \\epsilon)$", None),
        ("$x \\in [\\boxed{3}\\pm 0.1]$", None),
    ],
)
def test_interval_opened_by_the_box(text: str, way: str | None) -> None:
    """A box is an interval's lower end only where a comma and the other end follow it."""
    assert _bound(text) == way


# ---------------------------------------------------------------------------------------------
# cases environments
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "offers"),
    [
        # another unboxed row beside the box's: a second value
        ("$\\begin{cases}\\boxed{5} & x>0 \\\\ 3 & x<0\\end{cases}$", ("",)),
        # a cases environment closed before the box's own one opens
        (
            "$\\begin{cases}1 & a \\\\ 2 & b\\end{cases}$ and "
            "$\\begin{cases}\\boxed{5} & x>0 \\\\ 3 & x<0\\end{cases}$",
            ("",),
        ),
        # one row only: nothing beside the box
        ("$\\begin{cases}\\boxed{5} & x>0\\end{cases}$", ()),
        # an environment never closed is no environment the reader sees
        ("$\\begin{cases}\\boxed{5} & x>0 \\\\ 3 & x<0$", ()),
    ],
)
def test_cases_rows(text: str, offers: tuple[str, ...]) -> None:
    """A box in a cases environment with another unboxed row is no committed value."""
    assert _offers(text) == offers
