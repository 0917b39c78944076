"""Properties of the EvaLearn learning-curve metrics (``metrics/sequential.py``) for every
outcome table, against oracles written here from the definitions (EvaLearn spec): pooled
accuracy, type-balanced curve / slope / first-correct / streak, post-warm-up accuracy, and
O_learned, which equals the first-correct position when nothing was solved zero-shot."""

from __future__ import annotations

import math
import random
import statistics

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studybench.metrics.sequential import (
    SequenceOutcome,
    parse_outcomes,
    sequential_metrics,
    solved_ids,
)

FAST = settings(max_examples=80, deadline=None)
outcome = st.sampled_from([0, 1, None])
tables = st.dictionaries(
    st.sampled_from(["Math", "Logic", "Sentiment", "Reading"]),
    st.lists(st.lists(outcome, min_size=1, max_size=7), min_size=1, max_size=4),
    min_size=1,
    max_size=3,
)


def _pad(vector: list[int | None], m: int) -> list[int]:
    return [1 if (i < len(vector) and vector[i] == 1) else 0 for i in range(m)]


def _first(v: list[int]) -> int:
    return next((i + 1 for i, x in enumerate(v) if x == 1), len(v) + 1)


def _streak(v: list[int]) -> int:
    text = "".join(map(str, v))
    return max((len(run) for run in text.split("0")), default=0)


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


@FAST
@given(tables, st.integers(0, 8))
def test_metrics_equal_the_definitions(
    table: dict[str, list[list[int | None]]], warmup: int
) -> None:
    got = sequential_metrics(table, warmup=warmup)
    m = max(len(v) for vs in table.values() for v in vs)
    padded = {t: [_pad(v, m) for v in vs] for t, vs in table.items()}
    cells = [x for vs in padded.values() for v in vs for x in v]
    assert got.problems == m
    assert _close(got.acc, sum(cells) / len(cells))
    curves = [[statistics.fmean(v[i] for v in vs) for i in range(m)] for vs in padded.values()]
    curve = [statistics.fmean(c[i] for c in curves) for i in range(m)]
    assert all(_close(a, b) for a, b in zip(got.curve, curve, strict=True))
    expected_slope = float(np.polyfit(range(1, m + 1), curve, 1)[0]) if m > 1 else 0.0
    assert _close(got.slope, expected_slope)
    firsts = [statistics.fmean(_first(v) for v in vs) for vs in padded.values()]
    assert _close(got.first_correct, statistics.fmean(firsts))
    streaks = [statistics.fmean(_streak(v) for v in vs) for vs in padded.values()]
    assert _close(got.longest_streak, statistics.fmean(streaks))
    all_vectors = [v for vs in padded.values() for v in vs]
    if warmup >= m:
        assert got.post_warmup_acc == 0.0
    else:
        late = [x for v in all_vectors for x in v[warmup:]]
        assert _close(got.post_warmup_acc, sum(late) / len(late))
    assert got.sequences == len(all_vectors)
    assert got.learned_offset is None


@FAST
@given(tables, st.randoms(use_true_random=False))
def test_order_of_sequences_and_types_does_not_matter(
    table: dict[str, list[list[int | None]]], rng: random.Random
) -> None:
    items = list(table.items())
    rng.shuffle(items)
    shuffled = {t: rng.sample(vs, len(vs)) for t, vs in items}
    a, b = sequential_metrics(table), sequential_metrics(shuffled)
    assert a.model_dump().keys() == b.model_dump().keys()
    for key in ("acc", "slope", "first_correct", "longest_streak", "post_warmup_acc"):
        assert _close(getattr(a, key), getattr(b, key)), key
    assert a.per_type.keys() == b.per_type.keys()


@FAST
@given(tables)
def test_a_missing_outcome_counts_as_wrong(table: dict[str, list[list[int | None]]]) -> None:
    zeros = {t: [[0 if x is None else x for x in v] for v in vs] for t, vs in table.items()}
    assert sequential_metrics(table).model_dump() == sequential_metrics(zeros).model_dump()


@FAST
@given(tables, st.data())
def test_one_more_correct_answer_never_hurts(
    table: dict[str, list[list[int | None]]], data: st.DataObject
) -> None:
    t = data.draw(st.sampled_from(sorted(table)))
    s = data.draw(st.integers(0, len(table[t]) - 1))
    p = data.draw(st.integers(0, len(table[t][s]) - 1))
    better = {k: [list(v) for v in vs] for k, vs in table.items()}
    better[t][s][p] = 1
    before, after = sequential_metrics(table), sequential_metrics(better)
    assert after.acc >= before.acc - 1e-12
    assert after.first_correct <= before.first_correct + 1e-12
    assert after.longest_streak >= before.longest_streak - 1e-12
    assert all(a >= b - 1e-12 for a, b in zip(after.curve, before.curve, strict=True))


@FAST
@given(tables)
def test_o_learned_with_nothing_solved_zero_shot_is_the_first_correct_position(
    table: dict[str, list[list[int | None]]],
) -> None:
    m = max(len(v) for vs in table.values() for v in vs)
    sequences = [
        SequenceOutcome(t, tuple(v), tuple(f"{t}-{n}-{i}" for i in range(len(v))))
        for t, vs in table.items()
        for n, v in enumerate(vs)
    ]
    assert all(len(s.problem_ids) == len(s.outcomes) for s in sequences)
    nothing = sequential_metrics(sequences, problems=m, zero_shot_solved=set())
    assert nothing.learned_offset is not None
    assert _close(nothing.learned_offset, nothing.first_correct)
    every = {q for s in sequences for q in s.problem_ids}
    full = [s for s in sequences if len(s.outcomes) == m]
    if full:
        assert sequential_metrics(full, problems=m, zero_shot_solved=every).learned_offset == 0.0


# Edge cases found by mutation testing (perf/mutation_report.py): the errors name what
# is wrong, and Z is built from whatever ids a sequence has.


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([0, 1], "expected an object of task type -> list of outcome vectors"),
        ({"Math": 5}, "task type 'Math': expected a list of outcome vectors, got int"),
        (
            {"Math": [[1], "01"]},
            "task type 'Math', sequence 1: expected a list of outcomes (0, 1 or null), got str",
        ),
        (
            {"Math": [[1, "x" * 60]]},
            "task type 'Math', sequence 0, position 2: outcomes must be 0, 1 or null (missing), "
            f"got {repr('x' * 60)[:40]}",
        ),
    ],
)
def test_bad_outcome_tables_are_named_exactly(data: object, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        parse_outcomes(data)
    assert str(caught.value) == message


def test_metrics_refuse_empty_input_and_zero_problems() -> None:
    with pytest.raises(ValueError) as empty:
        sequential_metrics({"Math": [[]]})
    assert str(empty.value) == "no outcome sequences"
    with pytest.raises(ValueError) as zero:
        sequential_metrics({"Math": [[1]]}, problems=0)
    assert str(zero.value) == "problems per sequence must be >= 1, got 0"


def test_zero_shot_solved_ids_tolerate_sequences_of_unequal_length() -> None:
    sequences = [
        SequenceOutcome("Math", (1, 0, 1), ("a", "b")),  # an id short
        SequenceOutcome("Math", (0, 1), ("c", "d", "e")),  # an outcome short
    ]
    assert solved_ids(sequences) == {"a", "d"}
