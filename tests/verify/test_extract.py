from __future__ import annotations

import pytest

from studybench.data import AnswerType
from studybench.verify.extract import (
    MAX_INPUT_CHARS,
    boxed_answers,
    gold_answers,
    select_answers,
    strip_think,
)


@pytest.mark.parametrize(
    ("text", "visible", "unterminated"),
    [
        ("<think>a</think>b", " b", False),
        ("<THINK>a</Think> b <think>c</think> d", "  b   d", False),
        ("before <think> never closed \\boxed{3}", "before ", True),
        ("stray thinking </think> answer", " answer", False),
        ("no thinking", "no thinking", False),
    ],
)
def test_strip_think(text: str, visible: str, unterminated: bool) -> None:
    assert strip_think(text) == (visible, unterminated)


def test_box_only_inside_unterminated_think_is_no_answer() -> None:
    extraction = boxed_answers(r"<think>so it is \boxed{3}")
    assert extraction.answers == ()
    assert extraction.problem == "think_unterminated"


def test_box_before_unterminated_think_counts() -> None:
    assert boxed_answers(r"\boxed{2} <think> \boxed{3}").answers == ("2",)


def test_thinking_not_stripped_when_disabled() -> None:
    assert boxed_answers(r"<think>\boxed{3}</think>", strip_thinking=False).answers == ("3",)


def test_no_box_and_unbalanced_box() -> None:
    assert boxed_answers("the answer is 3").problem == "no_box"
    assert boxed_answers(r"\boxed{3").problem == "unbalanced_box"
    assert boxed_answers(r"\boxed{2} then \boxed{3").answers == ("2",)


def test_input_is_capped_to_the_tail() -> None:
    text = r"\boxed{early}" + "x" * (2 * MAX_INPUT_CHARS) + r"\boxed{late}"
    assert boxed_answers(text).answers == ("late",)


def test_gold_without_box_is_one_answer() -> None:
    assert gold_answers("42 J") == ("42 J",)
    assert gold_answers(r"\boxed{1} or \boxed{2}") == ("1", "2")


@pytest.mark.parametrize(
    ("boxes", "kind", "count", "selected"),
    [
        (("1", "2", "3"), AnswerType.NV, 1, ("3",)),
        (("1", "2", "3"), AnswerType.NV, 2, ("2", "3")),
        (("a", "b", "c"), AnswerType.TUP, 2, ("b", "c")),
        (("x", "a, b"), AnswerType.TUP, 2, ("a", "b")),
        (("(a, b)",), AnswerType.TUP, 2, ("a", "b")),
        ((r"\frac{1,2}{3}, c",), AnswerType.TUP, 2, (r"\frac{1,2}{3}", "c")),
        (("a, b, c",), AnswerType.TUP, 2, ("a, b, c",)),
        (("x", "(3, 4)"), AnswerType.TUP, 2, ("x", "(3, 4)")),
        (("1,000", "2,500"), AnswerType.TUP, 2, ("1,000", "2,500")),
        (("1", "2", "3", "4", "5"), AnswerType.ALT, 2, ("4", "5")),
        ((), AnswerType.NV, 1, ()),
    ],
)
def test_select_answers(
    boxes: tuple[str, ...], kind: AnswerType, count: int, selected: tuple[str, ...]
) -> None:
    assert select_answers(boxes, kind, count) == selected
