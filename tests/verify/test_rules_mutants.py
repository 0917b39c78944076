"""ALT decisions and their reasons (rules/combine.py ``judge_alternatives``), from its docstring:
one alternative suffices, every value offered must be one of them. Found unchecked by mutation
testing (issue 26): the reasons (``extra_guess`` for a wrong value beside others, the last
rejection's reason for a lone wrong value), several values in one box, and the unit the
question asks for reaching every alternative."""

from __future__ import annotations

from typing import Any

import pytest

from studybench.data.answer_types import AnswerType
from studybench.verify.rules.combine import judge_alternatives
from studybench.verify.units import parse_unit

NV = AnswerType.NV
DAY = parse_unit("day")


@pytest.mark.parametrize(
    ("preds", "golds", "requested", "expect"),
    [
        (("2",), ("2", "3"), (), (True, "alternative:equal")),
        (("3",), ("2", "3"), (), (True, "alternative:equal")),
        (("2", "3"), ("2", "3"), (), (True, "alternative:equal")),  # both roots boxed
        (("2 or 3",), ("2", "3"), (), (True, "alternative:equal")),  # both in one box
        (("2", "5"), ("2", "3"), (), (False, "extra_guess")),  # a guess beside a right one
        (("5", "2"), ("2", "3"), (), (False, "extra_guess")),  # in either order
        (("2 or 7",), ("2", "3"), (), (False, "extra_guess")),
        (("5", "7"), ("2", "3"), (), (False, "extra_guess")),  # two boxes, both wrong
        (("5",), ("2", "3"), (), (False, "wrong_value")),  # one wrong value: its own reason
        (("72 h",), ("3", "2"), (DAY,), (True, "alternative:unit_requested")),
        (("72 h",), ("3", "2"), (), (False, "unit_unrequested")),
        (("3 kg",), ("3", "2"), (DAY,), (False, "unit_mismatch")),
    ],
)
def test_alternatives(
    preds: tuple[str, ...], golds: tuple[str, ...], requested: tuple[Any, ...], expect: Any
) -> None:
    outcome = judge_alternatives(preds, golds, (NV,) * len(golds), 0.01, requested)
    assert (outcome.correct, outcome.reason) == expect


def test_a_type_sequence_shorter_than_the_golds_is_an_error() -> None:
    with pytest.raises(ValueError):
        judge_alternatives(("5",), ("2", "3"), (NV,), 0.01)
