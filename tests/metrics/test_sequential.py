"""EvaLearn's sequential metrics on hand-computed cases (``sequential_cases.json``): every
metric, O_learned included, overall and per type; the outcome parser's rules."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from studybench.metrics.sequential import (
    SequenceOutcome,
    first_correct,
    longest_streak,
    parse_outcomes,
    parse_sequences,
    sequential_metrics,
    slope,
    solved_ids,
)

TABLE = json.loads(Path(__file__).with_name("sequential_cases.json").read_text())
CASES = TABLE["cases"]


def _value(text: str | None) -> float | None:
    return None if text is None else float(Fraction(text))


def _sequences(case: dict[str, Any]) -> list[SequenceOutcome]:
    return [
        SequenceOutcome(type=s["type"], outcomes=tuple(s["y"]), problem_ids=tuple(s["ids"]))
        for s in case["sequences"]
    ]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_hand_computed_case(case: dict[str, Any]) -> None:
    solved = case["zero_shot_solved"]
    result = sequential_metrics(
        _sequences(case),
        warmup=case["warmup"],
        problems=case["problems"],
        zero_shot_solved=None if solved is None else set(solved),
    )
    expected = case["expected"]
    for key in ("acc", "slope", "first_correct", "longest_streak", "post_warmup_acc"):
        assert getattr(result, key) == pytest.approx(_value(expected[key]), abs=1e-12), key
    if expected["learned_offset"] is None:
        assert result.learned_offset is None
    else:
        assert result.learned_offset == pytest.approx(_value(expected["learned_offset"]))
    assert result.curve == pytest.approx([_value(v) for v in expected["curve"]])
    assert set(result.per_type) == set(expected["per_type"])
    for name, row in expected["per_type"].items():
        got = result.per_type[name]
        assert set(got) == set(row), name
        for key, value in row.items():
            assert got[key] == pytest.approx(_value(value), abs=1e-12), (name, key)
    assert result.sequences == len(case["sequences"]) and result.problems == case["problems"]


@pytest.mark.parametrize(
    ("warmup", "value"), sorted(TABLE["post_warmup_cases"]["by_warmup"].items())
)
def test_post_warmup_accuracy_for_every_k(warmup: str, value: str) -> None:
    y = TABLE["post_warmup_cases"]["y"]
    result = sequential_metrics({"T": [y]}, warmup=int(warmup), problems=len(y))
    assert result.post_warmup_acc == pytest.approx(_value(value))


PARSE = TABLE["parse_cases"]


@pytest.mark.parametrize("case", PARSE, ids=[c["name"] for c in PARSE])
def test_parse_outcomes(case: dict[str, Any]) -> None:
    if case["error"] is None:
        parsed = parse_outcomes(case["data"])
        assert parsed == case["data"]
        sequential_metrics(parsed)  # a parsed vector is always accepted
    else:
        with pytest.raises(ValueError) as caught:
            parse_outcomes(case["data"])
        assert case["error"] in str(caught.value)


def test_parse_sequences_reads_vectors_and_id_records() -> None:
    """Both sequence forms of the docstring, in order, with ids as text (an int id too)."""
    data = {
        "math": [[1, 0, None], {"outcomes": [0, 1], "problem_ids": ["q1", 2]}],
        "logic": [{"outcomes": [1]}],
        "empty": [],
    }
    assert parse_sequences(data) == [
        SequenceOutcome(type="math", outcomes=(1, 0, None), problem_ids=()),
        SequenceOutcome(type="math", outcomes=(0, 1), problem_ids=("q1", "2")),
        SequenceOutcome(type="logic", outcomes=(1,), problem_ids=()),
    ]


SEQUENCE_ERRORS: list[tuple[Any, str]] = [
    ([[1]], "expected an object of task type -> list of outcome sequences"),
    ({"m": 3}, "task type 'm': expected a list of outcome vectors, got int"),
    # the first bad value in order, before the records of later types are read
    (
        {"m": 3, "n": [{"outcomes": [1], "x": 1}]},
        "task type 'm': expected a list of outcome vectors, got int",
    ),
    (
        {"m": [[1], {"outcomes": [1], "problem_ids": ["a"], "x": 1}]},
        "task type 'm', sequence 1: expected the fields outcomes and problem_ids, "
        "got outcomes, problem_ids, x",
    ),
    (
        {"m": [{"problem_ids": ["a"]}]},
        "task type 'm', sequence 0: expected the fields outcomes and problem_ids, got problem_ids",
    ),
    (
        {"m": [{"outcomes": [1], "problem_ids": "a"}]},
        "task type 'm', sequence 0: problem_ids must be a list of ids (text or int)",
    ),
    (
        {"m": [{"outcomes": [1], "problem_ids": None}]},
        "task type 'm', sequence 0: problem_ids must be a list of ids (text or int)",
    ),
    (
        {"m": [{"outcomes": [1], "problem_ids": [True]}]},
        "task type 'm', sequence 0: problem_ids must be a list of ids (text or int)",
    ),
    (
        {"m": [{"outcomes": [1], "problem_ids": [""]}]},
        "task type 'm', sequence 0: problem_ids must be a list of ids (text or int)",
    ),
    (
        {"m": [{"outcomes": [1], "problem_ids": [1.5]}]},
        "task type 'm', sequence 0: problem_ids must be a list of ids (text or int)",
    ),
    (
        {"m": [{"outcomes": [1, 0], "problem_ids": ["a"]}]},
        "task type 'm', sequence 0: 1 problem_ids for 2 outcomes (one id per position)",
    ),
    (
        {"m": [{"outcomes": [1], "problem_ids": ["a", "b"]}]},
        "task type 'm', sequence 0: 2 problem_ids for 1 outcomes (one id per position)",
    ),
    # outcomes that are no list reach parse_outcomes, which names what they are
    (
        {"m": [{"outcomes": "ab", "problem_ids": ["a"]}]},
        "task type 'm', sequence 0: expected a list of outcomes (0, 1 or null), got str",
    ),
    (
        {"m": [[1], {"outcomes": [1, 2], "problem_ids": ["a", "b"]}]},
        "task type 'm', sequence 1, position 2: outcomes must be 0, 1 or null (missing), got 2",
    ),
]


@pytest.mark.parametrize(("data", "message"), SEQUENCE_ERRORS)
def test_parse_sequences_names_the_first_bad_value(data: Any, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        parse_sequences(data)
    assert str(caught.value) == message


def test_the_mapping_form_is_the_same_as_sequences() -> None:
    mapping = {"math": [[0, 1, 1], [0, 0, 1]], "logic": [[1, 1, 1]]}
    as_list = [SequenceOutcome(type=t, outcomes=tuple(v)) for t, vs in mapping.items() for v in vs]
    assert sequential_metrics(mapping, warmup=1) == sequential_metrics(as_list, warmup=1)


def test_solved_ids_are_any_success_by_id() -> None:
    runs = [
        SequenceOutcome("T", (1, 0, None), ("a", "b", "c")),
        SequenceOutcome("T", (0, 1, 0), ("b", "a", "d")),
    ]
    assert solved_ids(runs) == {"a"}


@pytest.mark.parametrize(
    ("values", "expected"), [([0, 0.5, 1], 0.5), ([1, 1], 0.0), ([1], 0.0), ([1, 0, 1, 0], -0.2)]
)
def test_slope(values: list[float], expected: float) -> None:
    assert slope(values) == pytest.approx(expected)


def test_first_correct_and_streak() -> None:
    assert first_correct([0, 0, 1, 1]) == 3 and first_correct([0, 0]) == 3
    assert longest_streak([1, 1, 0, 1, 1, 1, 0]) == 3


def test_invalid_input() -> None:
    with pytest.raises(ValueError, match="0, 1 or None"):
        sequential_metrics({"t": [[0, 2]]})
    with pytest.raises(ValueError, match="no outcome sequences"):
        sequential_metrics({})
    with pytest.raises(ValueError, match="needs a problem id for every position"):
        sequential_metrics({"t": [[0, 1]]}, zero_shot_solved=set())
    with pytest.raises(ValueError, match="warmup must be >= 0"):
        sequential_metrics({"t": [[0, 1]]}, warmup=-1)
