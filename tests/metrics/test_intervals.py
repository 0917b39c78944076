"""Clustered intervals and variance components on tables small enough to compute by hand."""

from __future__ import annotations

import math

import pytest

from studybench.metrics.clustered import cluster_tables
from studybench.metrics.intervals import IntervalSettings, interval, variance_components
from studybench.metrics.items import ItemRow
from studybench.metrics.passk import score


def _rows(table: dict[str, list[list[int]]], split: str = "application") -> list[ItemRow]:
    """``{parent: [[slot-0 correct, slot-1 correct, ...] per seed]}``, one attempt per seed."""
    rows = []
    for parent, seeds in table.items():
        for seed, slots in enumerate(seeds):
            for slot, correct in enumerate(slots):
                rows.append(
                    ItemRow(
                        split=split,
                        parent=parent,
                        slot=str(slot),
                        seed=seed,
                        attempt=0,
                        correct=bool(correct),
                    )
                )
    return rows


def _one(rows: list[ItemRow]):  # type: ignore[no-untyped-def]
    (table,) = cluster_tables(rows).values()
    return table


@pytest.mark.parametrize(
    ("values", "confidence", "low", "high"),
    [
        # three parents solved (0, 0, 1): the bootstrap mean is j/3 with j ~ Binomial(3, 1/3):
        # P(0)=8/27, P(1/3)=12/27, P(2/3)=6/27, P(1)=1/27 (cumulative .296, .741, .963, 1)
        ((0, 0, 1), 0.90, 0.0, 2 / 3),
        ((0, 0, 1), 0.95, 0.0, 1.0),
        # (0, 1, 1): P(0)=1/27, P(1/3)=6/27, P(2/3)=12/27, P(1)=8/27 (cum .037, .259, .704, 1)
        ((0, 1, 1), 0.90, 1 / 3, 1.0),
        # two parents (0, 1): the mean is 0, 1/2, 1 with 1/4, 1/2, 1/4 (cum .25, .75, 1)
        ((0, 1), 0.40, 0.5, 0.5),
        ((0, 1), 0.60, 0.0, 1.0),
    ],
)
def test_cluster_bootstrap_matches_the_enumerated_bootstrap(
    values: tuple[int, ...], confidence: float, low: float, high: float
) -> None:
    table = _one(_rows({f"p{i}": [[v]] for i, v in enumerate(values)}))
    result = interval(table, "par_at_k", IntervalSettings(confidence=confidence, seed=3))
    assert result.value == pytest.approx(sum(values) / len(values))
    assert (result.ci_low, result.ci_high) == (pytest.approx(low), pytest.approx(high))


def test_a_parent_is_one_cluster_for_sub_at_k() -> None:
    # p0 has 3 slots (all right), p1 one slot (wrong): Sub = 3/4; resampling whole parents
    # gives 3/3 (p0 twice, 1/4), 0 (p1 twice, 1/4), 3/4 (1/2): a 40% CI is [3/4, 3/4].
    table = _one(_rows({"p0": [[1, 1, 1]], "p1": [[0]]}))
    result = interval(table, "sub_at_k", IntervalSettings(confidence=0.4))
    assert result.value == pytest.approx(0.75)
    assert (result.ci_low, result.ci_high) == (pytest.approx(0.75), pytest.approx(0.75))
    wide = interval(table, "sub_at_k", IntervalSettings(confidence=0.6))
    assert (wide.ci_low, wide.ci_high) == (pytest.approx(0.0), pytest.approx(1.0))


def test_variance_components_by_hand() -> None:
    # Par per seed: A (1, 0), B (1, 1), C (0, 0). Within-parent variances .5, 0, 0 -> 1/6;
    # per-parent means .5, 1, 0 -> variance 1/4. seed part (1/6)/(2*3) = 1/36;
    # problem part (1/4 - (1/6)/2)/3 = 1/18; clustered se sqrt(1/4 / 3).
    table = _one(_rows({"A": [[1], [0]], "B": [[1], [1]], "C": [[0], [0]]}))
    seed_var, problem_var, se = variance_components(table, "par_at_k")
    assert seed_var == pytest.approx(1 / 36)
    assert problem_var == pytest.approx(1 / 18)
    assert se == pytest.approx(math.sqrt(1 / 12))
    result = interval(table, "par_at_k")
    assert result.value == pytest.approx(0.5)
    assert result.seed_std == pytest.approx(math.sqrt(2) / 6)  # per seed 2/3 and 1/3


def test_scores_agree_with_passk() -> None:
    rows = _rows(
        {
            "A": [[1, 0], [1, 1], [0, 0]],
            "B": [[1], [0], [1]],
            "C": [[0, 1, 1], [1, 1, 1], [0, 0, 0]],
        }
    )
    table = _one(rows)
    reference = score(rows)
    assert table.value("par_at_k") == pytest.approx(reference.par_mean)
    assert table.value("sub_at_k") == pytest.approx(reference.sub_mean)
    par = interval(table, "par_at_k")
    assert par.seed_std == pytest.approx(reference.par_std)


def test_only_the_first_k_attempts_count() -> None:
    rows = [
        ItemRow(split="s", parent="p", slot="0", seed=0, attempt=a, correct=a == 2)
        for a in range(3)
    ]
    assert _one(rows).value("par_at_k") == 1.0
    (table,) = cluster_tables(rows, k=2).values()
    assert table.value("par_at_k") == 0.0


def test_missing_slot_counts_as_wrong_with_slots_of() -> None:
    rows = [ItemRow(split="s", parent="p", slot="a", seed=0, attempt=0, correct=True)]
    (table,) = cluster_tables(rows, slots_of={"p": ["a", "b"]}).values()
    assert table.value("par_at_k") == 0.0
    assert table.value("sub_at_k") == 0.5


def test_intervals_are_reproducible() -> None:
    rows = _rows({f"p{i}": [[i % 3 == 0], [i % 2 == 0]] for i in range(20)})
    first = interval(_one(rows), "par_at_k")
    again = interval(_one(list(reversed(rows))), "par_at_k")
    assert first == again
    assert first.ci_low < first.value < first.ci_high
