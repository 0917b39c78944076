"""The atomic judgers' contracts that a verdict cannot show (verify/rules/, issue 26).

Mutation testing found these unchecked. The verdicts and reasons of MC, TF, QL and IN are
pinned by the case tables ``cases/reason_choice.jsonl`` and ``cases/reason_interval.jsonl``;
this file pins what no verdict reaches:

- ``parse_intervals`` reads an infinite end as open, whatever the text: nothing is included
  at infinity (``x \\le 3`` is ``(-\\infty, 3]``, ``\\mathbb{R}`` is ``(-\\infty, +\\infty)``).
  ``judge_in`` ignores the bracket at an infinite end of the gold, so only the parser's own
  result shows it.
- a multiple-choice answer that starts like one option (``(A)``) and then lists another before
  a colon selects both; reading it as the first alone is a false accept (bug, see
  /tmp/coord/bugs_A.md; xfail until fixed).
"""

from __future__ import annotations

import pytest

from studybench.verify.rules.choice import judge_mc, mc_letters
from studybench.verify.rules.interval import _Interval, parse_intervals

TOLERANCE = 0.01


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("R", [_Interval("-inf", "+inf", False, False)]),
        (r"\mathbb{R}", [_Interval("-inf", "+inf", False, False)]),
        ("x < 3", [_Interval("-inf", "3", False, False, "x")]),  # the bounded quantity kept
        (r"x \le 3", [_Interval("-inf", "3", False, True, "x")]),
        ("x > 3", [_Interval("3", "+inf", False, False, "x")]),
        (r"x \ge 3", [_Interval("3", "+inf", True, False, "x")]),
        ("3 > x", [_Interval("-inf", "3", False, False, "x")]),
        (r"3 \le x", [_Interval("3", "+inf", True, False, "x")]),
        (r"\omega > 100", [_Interval("100", "+inf", False, False, r"\omega")]),  # a Greek name
        (r"x^2 < 3", [_Interval("-inf", "3", False, False, "x^2")]),  # a function of one
        (r"3 > x^2", [_Interval("-inf", "3", False, False, "x^2")]),
        (r"1 < x \lt 2", [_Interval("1", "2", False, False, "x")]),
        ("0 < x \u2a7d 1", [_Interval("0", "1", False, True, "x")]),  # U+2A7D
        (r"\theta \in [1, 2)", [_Interval("1", "2", True, False, r"\theta")]),
        ("]0, 1]", [_Interval("0", "1", False, True)]),  # ISO: a bracket turned out is open
        ("[0, 1[", [_Interval("0", "1", True, False)]),
        (r"x \ge 1 and x < 2", [_Interval("1", "2", True, False, "x")]),  # a conjunction
        (r"\{x : 1 \le x \le 2\}", [_Interval("1", "2", True, True, "x")]),  # set builder
        (r"x \ge 1 and y < 2", None),  # two quantities: no interval
        (
            r"[1, 2) \cup (3, 4]",
            [_Interval("1", "2", True, False), _Interval("3", "4", False, True)],
        ),
    ],
)
def test_parse_intervals_reads_ends(text: str, expected: list[_Interval] | None) -> None:
    assert parse_intervals(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A", {"A"}),
        ("(b)", {"B"}),
        ("A, C", {"A", "C"}),
        ("a and c", {"A", "C"}),
        ("B: 5 m/s", {"B"}),
        ("B) 5 m/s", {"B"}),
        ("A, C: the ratio is 2:1", {"A", "C"}),
        ("Option D", {"D"}),
        ("the second one", None),
    ],
)
def test_mc_letters(text: str, expected: set[str] | None) -> None:
    letters = mc_letters(text)
    assert letters == (None if expected is None else frozenset(expected))


def test_a_leading_option_then_another_selects_both() -> None:
    assert mc_letters("(A), (C): both are correct") == frozenset({"A", "C"})
    outcome = judge_mc("(A), (C): both are correct", "A", TOLERANCE)
    assert (outcome.correct, outcome.reason) == (False, "wrong_choice")  # an extra letter
