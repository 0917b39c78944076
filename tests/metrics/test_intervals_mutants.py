"""Edge cases of the clustered intervals and variance parts (metrics/intervals.py), by hand.

Found unchecked by mutation testing (issue 26): one seed (no seed spread: 0, not NaN), one or
two parents, an empty table, identical clusters under BCa (zero width, no NaN), the seed and
resample count being honoured, the defaults, and the pooled within-parent sd that feeds the
minimum detectable effect. Every expectation is computed here from the definitions in the
module docstrings.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from studybench.metrics.clustered import ClusterTable, cluster_tables
from studybench.metrics.intervals import (
    IntervalSettings,
    bootstrap_ci,
    interval,
    ratio,
    variance_components,
    within_seed_sd,
)
from studybench.metrics.items import ItemRow


def _table(solved: dict[str, list[list[int]]]) -> ClusterTable:
    """``{parent: [[slot correct, ...] per seed]}``, one attempt per seed."""
    rows = [
        ItemRow(split="s", parent=p, slot=str(slot), seed=seed, attempt=0, correct=bool(c))
        for p, seeds in solved.items()
        for seed, slots in enumerate(seeds)
        for slot, c in enumerate(slots)
    ]
    (table,) = cluster_tables(rows).values()
    return table


def _empty() -> ClusterTable:
    none = np.zeros((0, 1))
    return ClusterTable("studybench", "s", 1, (), (), (0,), none, none, none, none)


def test_the_default_settings_are_a_95_percent_percentile_bootstrap_of_9999() -> None:
    assert IntervalSettings().model_dump() == {
        "confidence": 0.95,
        "n_resamples": 9999,
        "method": "percentile",
        "seed": 0,
    }


def test_one_seed_has_no_seed_spread() -> None:
    # A solved, B not, C solved: per-parent z = num * 3 / 3 = (1, 0, 1), mean 2/3,
    # between-parent variance 1/3; no within-parent variance with one seed.
    table = _table({"A": [[1]], "B": [[0]], "C": [[1]]})
    result = interval(table, "par_at_k")
    assert result.value == pytest.approx(2 / 3)
    assert (result.seed_std, result.seeds, result.parents) == (0.0, 1, 3)
    seed_var, problem_var, se = variance_components(table, "par_at_k")
    assert seed_var == 0.0
    assert problem_var == pytest.approx((1 / 3) / 3)
    assert se == pytest.approx(math.sqrt((1 / 3) / 3))
    assert math.isnan(within_seed_sd(table, "par_at_k"))


def test_one_parent_has_only_seed_variance() -> None:
    # one parent, seeds (1, 0): z = (1, 0), within variance 1/2 -> seed part 1/2 / (2 * 1)
    table = _table({"A": [[1], [0]]})
    assert variance_components(table, "par_at_k") == pytest.approx((0.25, 0.0, 0.0))
    assert within_seed_sd(table, "par_at_k") == pytest.approx(math.sqrt(0.5))
    result = interval(table, "par_at_k")
    assert math.isnan(result.ci_low) and math.isnan(result.ci_high)  # one cluster: no CI
    assert result.seed_std == pytest.approx(math.sqrt(0.5))  # per seed 1 and 0


def test_two_parents_have_a_between_parent_part() -> None:
    # A (1, 1), B (0, 0): z = num * 2 / 2; means 1 and 0 -> between variance 1/2, within 0
    table = _table({"A": [[1], [1]], "B": [[0], [0]]})
    assert variance_components(table, "par_at_k") == pytest.approx((0.0, 0.25, 0.5))
    assert within_seed_sd(table, "par_at_k") == 0.0


def test_the_pooled_within_parent_sd_by_hand() -> None:
    # Sub@k, P = 2, slots 2 and 1 (sum of den 3): z = sub * 2 / 3.
    # A: sub per seed (2, 0) -> z (4/3, 0), variance 8/9; B: (1, 1) -> variance 0.
    # sigma_w = sqrt(mean(8/9, 0)) = sqrt(4/9) = 2/3.
    table = _table({"A": [[1, 1], [0, 0]], "B": [[1], [1]]})
    assert within_seed_sd(table, "sub_at_k") == pytest.approx(2 / 3)


def test_an_empty_table_has_no_variance_and_no_sd() -> None:
    assert variance_components(_empty(), "par_at_k") == (0.0, 0.0, 0.0)
    assert variance_components(_empty(), "sub_at_k") == (0.0, 0.0, 0.0)
    assert math.isnan(within_seed_sd(_empty(), "par_at_k"))


@pytest.mark.parametrize("method", ["percentile", "basic", "BCa"])
def test_identical_clusters_have_a_zero_width_interval(method: str) -> None:
    table = _table({p: [[1, 0], [1, 0]] for p in "ABCD"})  # Sub = 1/2 everywhere
    result = interval(table, "sub_at_k", IntervalSettings(method=method))
    assert (result.ci_low, result.value, result.ci_high) == (0.5, 0.5, 0.5)


def _spread() -> ClusterTable:
    """30 parents with 1-3 slots and 3 seeds: many distinct resample values."""
    return _table(
        {
            f"p{i}": [
                [(i * 7 + seed * 3 + slot) % 5 < 2 for slot in range(1 + i % 3)]
                for seed in range(3)
            ]
            for i in range(30)
        }
    )


def test_the_seed_and_the_resample_count_are_honoured() -> None:
    table = _spread()
    few = IntervalSettings(n_resamples=199, seed=4)
    first, again = interval(table, "sub_at_k", few), interval(table, "sub_at_k", few)
    assert (first.ci_low, first.ci_high) == (again.ci_low, again.ci_high)
    other_seed = interval(table, "sub_at_k", IntervalSettings(n_resamples=199, seed=5))
    assert (other_seed.ci_low, other_seed.ci_high) != (first.ci_low, first.ci_high)
    many = interval(table, "sub_at_k", IntervalSettings(n_resamples=9999, seed=4))
    assert (many.ci_low, many.ci_high) != (first.ci_low, first.ci_high)
    for result in (first, other_seed, many):
        assert result.ci_low < result.value < result.ci_high


# --- bootstrap_ci's three methods on clusters of unequal size -------------------------------

NUM = np.array([0.0, 1.0, 2.0, 1.0, 3.0, 0.0, 2.0, 1.0])
DEN = np.array([1.0, 2.0, 2.0, 1.0, 3.0, 1.0, 2.0, 2.0])


def test_bca_is_scipys_paired_vectorised_bootstrap_with_the_same_generator() -> None:
    settings = IntervalSettings(method="BCa", n_resamples=999, confidence=0.9)
    low, high = bootstrap_ci((NUM, DEN), ratio, settings, np.random.default_rng(5))
    want = stats.bootstrap(
        (NUM, DEN),
        ratio,
        n_resamples=999,
        vectorized=True,
        paired=True,
        confidence_level=0.9,
        method="BCa",
        rng=np.random.default_rng(5),
    ).confidence_interval
    assert (low, high) == (float(want.low), float(want.high))
    assert low < float(ratio(NUM, DEN)) < high


def test_the_percentile_interval_by_hand_and_the_basic_one_reflected_about_the_point() -> None:
    point = float(NUM.sum() / DEN.sum())
    rows = np.random.default_rng(5).integers(0, len(NUM), size=(999, len(NUM)))
    values = NUM[rows].sum(axis=1) / DEN[rows].sum(axis=1)
    want_low, want_high = np.nanquantile(values, [0.05, 0.95])
    settings = IntervalSettings(method="percentile", n_resamples=999, confidence=0.9)
    low, high = bootstrap_ci((NUM, DEN), ratio, settings, np.random.default_rng(5))
    assert (low, high) == pytest.approx((want_low, want_high), abs=1e-12)
    basic = settings.model_copy(update={"method": "basic"})
    b_low, b_high = bootstrap_ci((NUM, DEN), ratio, basic, np.random.default_rng(5))
    assert (b_low, b_high) == pytest.approx((2 * point - high, 2 * point - low), abs=1e-12)
