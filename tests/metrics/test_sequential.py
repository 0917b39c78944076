from __future__ import annotations

import pytest

from studybench.metrics.sequential import first_correct, longest_streak, sequential_metrics, slope


def test_hand_computed_example() -> None:
    result = sequential_metrics({"math": [[0, 1, 1], [0, 0, 1]], "logic": [[1, 1, 1]]}, warmup=1)
    assert result.acc == pytest.approx(6 / 9)
    assert result.slope == pytest.approx(0.25)  # mean of per-type slopes 0.5 and 0
    assert result.first_correct == pytest.approx(1.75)  # mean of 2.5 and 1
    assert result.longest_streak == pytest.approx(2.25)  # mean of 1.5 and 3
    assert result.curve == pytest.approx([0.5, 0.75, 1.0])
    assert result.post_warmup_acc == pytest.approx(5 / 6)
    assert result.per_type["math"]["slope"] == pytest.approx(0.5)


def test_never_correct_sequence() -> None:
    result = sequential_metrics({"t": [[0, 0, 0]]})
    assert (result.acc, result.slope, result.first_correct, result.longest_streak) == (0, 0, 4, 0)


@pytest.mark.parametrize(
    ("values", "expected"), [([0, 0.5, 1], 0.5), ([1, 1], 0.0), ([1], 0.0), ([1, 0, 1, 0], -0.2)]
)
def test_slope(values: list[float], expected: float) -> None:
    assert slope(values) == pytest.approx(expected)


def test_first_correct_and_streak() -> None:
    assert first_correct([0, 0, 1, 1]) == 3 and first_correct([0, 0]) == 3
    assert longest_streak([1, 1, 0, 1, 1, 1, 0]) == 3


def test_invalid_outcomes() -> None:
    with pytest.raises(ValueError, match="must be 0 or 1"):
        sequential_metrics({"t": [[0, 2]]})
    with pytest.raises(ValueError, match="no outcome sequences"):
        sequential_metrics({})
