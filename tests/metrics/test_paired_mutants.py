"""What a paired comparison says and returns at its edges (metrics/paired.py), by hand.

Found unchecked by mutation testing (issue 26): the exact refusal texts (the user reads them to
learn which evaluation to fix), an unknown data version or protocol on one side is not a
difference, the first three missing parents only, the split shown as '-' when there is none;
the scores, the per-parent sd and the exactness flag of tiny tables; empty inputs.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from studybench.metrics.comparison import compare_items
from studybench.metrics.intervals import IntervalSettings
from studybench.metrics.items import ItemRow
from studybench.metrics.paired import (
    ComparisonRefusedError,
    EvaluationInfo,
    instruments,
    paired_stats,
)
from studybench.metrics.passk import VerdictRow


def _rows(
    items: list[tuple[str, str]],
    *,
    split: str = "application",
    benchmark: str = "studybench",
    attempts: int = 1,
    correct: bool = True,
) -> list[ItemRow]:
    """``[(parent, slot)]`` judged for seed 0."""
    return [
        ItemRow(
            benchmark=benchmark,
            split=split,
            parent=parent,
            slot=slot,
            seed=0,
            attempt=a,
            correct=correct,
        )
        for parent, slot in items
        for a in range(attempts)
    ]


def _refusal(base: list[ItemRow], cand: list[ItemRow], **infos: EvaluationInfo) -> str:
    with pytest.raises(ComparisonRefusedError) as caught:
        compare_items(base, cand, **infos)  # type: ignore[arg-type]
    return str(caught.value)


ONE = [("p1", "a")]


def test_the_data_version_refusal_names_both_runs() -> None:
    message = _refusal(
        _rows(ONE),
        _rows(ONE),
        baseline_info=EvaluationInfo(name="run-a", data_version="md5:1", protocol="x"),
        candidate_info=EvaluationInfo(name="run-b", data_version="md5:2", protocol="y"),
    )
    assert message == "refusing to compare: data version differs (run-a: md5:1, run-b: md5:2)"


def test_the_protocol_refusal_without_names() -> None:
    message = _refusal(
        _rows(ONE),
        _rows(ONE),
        baseline_info=EvaluationInfo(protocol="p-1"),
        candidate_info=EvaluationInfo(protocol="p-2"),
    )
    assert message == "refusing to compare: protocol differs (baseline: p-1, candidate: p-2)"


@pytest.mark.parametrize(
    ("baseline", "candidate"),
    [
        (EvaluationInfo(data_version="md5:1"), EvaluationInfo()),
        (EvaluationInfo(), EvaluationInfo(data_version="md5:1")),
        (EvaluationInfo(protocol="p-1"), EvaluationInfo()),
        (EvaluationInfo(), EvaluationInfo(protocol="p-1")),
    ],
)
def test_an_unknown_version_on_one_side_is_not_a_difference(
    baseline: EvaluationInfo, candidate: EvaluationInfo
) -> None:
    result = compare_items(_rows(ONE), _rows(ONE), baseline_info=baseline, candidate_info=candidate)
    assert [m.key for m in result.metrics] == ["application/par_at_1"]


def test_an_empty_side_is_named() -> None:
    named = {
        "baseline_info": EvaluationInfo(name="old"),
        "candidate_info": EvaluationInfo(name="new"),
    }
    assert _refusal([], _rows(ONE), **named) == "refusing to compare: old has no item rows"
    assert _refusal(_rows(ONE), [], **named) == "refusing to compare: new has no item rows"
    assert _refusal(_rows(ONE), []) == "refusing to compare: candidate has no item rows"


def test_the_split_refusal_lists_what_each_side_has_alone() -> None:
    base = _rows(ONE) + _rows(ONE, split="memorisation")
    cand = _rows(ONE, split="transfer") + _rows(ONE, split="memorisation")
    assert _refusal(base, cand) == (
        "refusing to compare: benchmarks/splits differ (only in baseline: "
        "['studybench/application'], only in candidate: ['studybench/transfer'])"
    )


def test_the_k_refusal_shows_a_missing_split_as_a_dash() -> None:
    def verdicts(attempts: int) -> list[VerdictRow]:  # plain verdict rows have no split
        return [
            VerdictRow(parent="p1", slot="a", seed=0, attempt=a, correct=True)
            for a in range(attempts)
        ]

    message = _refusal(verdicts(1), verdicts(3))  # type: ignore[arg-type]
    assert message == "refusing to compare studybench/-: k differs (baseline: 1, candidate: 3)"


def test_the_parents_refusal_shows_the_first_three_of_each_side() -> None:
    base = _rows([(f"p{i}", "a") for i in range(1, 7)])  # p1..p6
    cand = _rows([("p1", "a"), ("q1", "a")])
    assert _refusal(base, cand) == (
        "refusing to compare studybench/application: the parents differ (6 vs 2; "
        "not in candidate: ['p2', 'p3', 'p4'], not in baseline: ['q1'])"
    )
    more = _rows([("p1", "a")] + [(f"q{i}", "a") for i in range(1, 6)])
    assert _refusal(_rows([("p1", "a")]), more) == (
        "refusing to compare studybench/application: the parents differ (1 vs 6; "
        "not in candidate: [], not in baseline: ['q1', 'q2', 'q3'])"
    )


def test_the_slots_refusal_names_the_parent_and_both_slot_lists() -> None:
    base = _rows([("p0", "a"), ("p1", "a"), ("p1", "b")])
    cand = _rows([("p0", "a"), ("p1", "a"), ("p1", "c")])
    assert _refusal(base, cand) == (
        "refusing to compare studybench/application: parent 'p1' has slots ['a', 'b'] in "
        "baseline but ['a', 'c'] in candidate"
    )


def test_scores_and_the_per_parent_sd_by_hand() -> None:
    # den (1, 2, 1) sum 4; baseline num (0, 1, 1) -> 2/4; candidate (1, 2, 0) -> 3/4.
    # diffs (1, 1, -1), z = diffs * 3 / 4 = (.75, .75, -.75): sd (ddof 1) = .75 * sqrt(4/3).
    base, cand, den = np.array([0.0, 1, 1]), np.array([1.0, 2, 0]), np.array([1.0, 2, 1])
    result = paired_stats(base, cand, den, IntervalSettings(n_resamples=999), _rng())
    assert (result.baseline, result.candidate, result.diff) == (0.5, 0.75, 0.25)
    assert result.sd_diff == pytest.approx(0.75 * math.sqrt(4 / 3))
    assert result.parents == 3
    # 2**3 = 8 sign patterns <= 999: exact; |sum| >= 1 for all 8 (sums +-1, +-3): p = 1
    assert result.exact and result.p_value == pytest.approx(1.0)


def test_exactness_is_two_to_the_parents_within_the_resamples() -> None:
    base, cand, den = np.zeros(4), np.ones(4), np.ones(4)
    at = paired_stats(base, cand, den, IntervalSettings(n_resamples=16), _rng())
    assert at.exact and at.p_value == pytest.approx(2 / 16)  # only all-plus and all-minus
    below = paired_stats(base, cand, den, IntervalSettings(n_resamples=15), _rng())
    assert not below.exact


def test_a_split_of_one_parent_is_compared_not_crashed() -> None:
    """Bug found here: scipy's permutation test refuses one observation, so a one-parent
    split that changed raised a bare ValueError out of ``studybench metrics compare``."""
    (par,) = compare_items(_rows(ONE, correct=False), _rows(ONE)).metrics
    assert (par.baseline, par.candidate, par.diff, par.p_value) == (0.0, 1.0, 1.0, 1.0)
    assert par.decision == "unchanged" and par.parents == 1


def test_two_parents_are_tested_exactly() -> None:
    # diffs (+1, +1), den (1, 1): 4 sign patterns, |sum| = 2 for 2 of them: p = 1/2;
    # z = diffs * 2 / 2 = (1, 1): sd 0
    result = paired_stats(np.zeros(2), np.ones(2), np.ones(2), _fast(), _rng())
    assert (result.diff, result.exact) == (1.0, True)
    assert result.p_value == pytest.approx(0.5)
    assert result.sd_diff == 0.0
    mixed = paired_stats(np.zeros(2), np.array([1.0, 0.0]), np.ones(2), _fast(), _rng())
    assert mixed.sd_diff == pytest.approx(math.sqrt(0.5))  # z = (1, 0)


def test_a_monte_carlo_p_value_uses_the_configured_resamples() -> None:
    # 2**4 = 16 patterns > 14 resamples: random draws; scipy's p is then (hits + 1) / 15,
    # never the exact 2/16
    base, cand, den = np.zeros(4), np.ones(4), np.ones(4)
    result = paired_stats(base, cand, den, IntervalSettings(n_resamples=14), _rng())
    assert not result.exact
    assert result.p_value * 15 == pytest.approx(round(result.p_value * 15))
    assert result.p_value != pytest.approx(0.125)


def test_compare_tables_defaults_to_the_default_settings() -> None:
    from studybench.metrics.clustered import cluster_tables
    from studybench.metrics.paired import compare_tables

    (base,) = cluster_tables(_rows([(p, "a") for p in "ABCD"], correct=False)).values()
    (cand,) = cluster_tables(_rows([(p, "a") for p in "ABCD"])).values()
    assert compare_tables(base, cand, "par_at_k") == compare_tables(
        base, cand, "par_at_k", IntervalSettings()
    )
    assert compare_tables(base, cand, "par_at_k").p_value == pytest.approx(0.125)


def test_one_parent_has_no_sd_and_no_interval() -> None:
    result = paired_stats(np.array([0.0]), np.array([1.0]), np.array([2.0]), _fast(), _rng())
    assert (result.baseline, result.candidate, result.diff) == (0.0, 0.5, 0.5)
    assert math.isnan(result.sd_diff)
    assert math.isnan(result.ci_low) and math.isnan(result.ci_high)
    assert result.exact and result.p_value == pytest.approx(1.0)  # 2 patterns, both |1|


def test_no_parents_is_no_change() -> None:
    empty = np.zeros(0)
    result = paired_stats(empty, empty, empty, _fast(), _rng())
    assert (result.baseline, result.candidate, result.diff) == (0.0, 0.0, 0.0)
    assert (result.p_value, result.exact, result.parents) == (1.0, True, 0)
    assert math.isnan(result.sd_diff) and math.isnan(result.ci_low)


def test_identical_runs_have_p_one_without_a_test() -> None:
    same = np.array([0.0, 1.0, 0.5])
    result = paired_stats(same, same, np.ones(3), IntervalSettings(n_resamples=2), _rng())
    assert (result.p_value, result.exact) == (1.0, True)  # 2**3 > 2, but nothing to test
    assert (result.ci_low, result.diff, result.ci_high) == (0.0, 0.0, 0.0)
    assert result.sd_diff == 0.0


def _fast() -> IntervalSettings:
    return IntervalSettings(n_resamples=99)


def _rng() -> np.random.Generator:
    return np.random.default_rng(0)


@pytest.mark.parametrize(
    ("baseline", "candidate", "known"),
    [
        (
            {"verifier_version": "1.9.0"},
            {"judge_version": "j1"},
            {"verifier_version": "1.9.0", "judge_version": "j1"},
        ),
        ({}, {"verifier_version": "1.9.0"}, {"verifier_version": "1.9.0"}),
        ({"judge_version": "j1"}, {"judge_version": "j1"}, {"judge_version": "j1"}),
        ({}, {}, {}),
    ],
)
def test_the_instruments_are_those_known_on_either_side(
    baseline: dict[str, str], candidate: dict[str, str], known: dict[str, str]
) -> None:
    got = instruments(EvaluationInfo(**baseline), EvaluationInfo(**candidate))
    assert got == known
    assert instruments(None, None) == {}


def test_mixed_instrument_versions_are_refused_with_the_way_out() -> None:
    rows = [ItemRow(split="s", parent=p, slot="0", seed=0, attempt=0, correct=True) for p in "AB"]
    with pytest.raises(ComparisonRefusedError) as caught:
        compare_items(
            rows,
            rows,
            baseline_info=EvaluationInfo(name="old", verifier_version="1.8.0"),
            candidate_info=EvaluationInfo(name="new", verifier_version="1.9.0"),
        )
    assert str(caught.value) == (
        "refusing to compare: verifier version differs (old: 1.8.0, new: 1.9.0); re-score the "
        "older side with the current instruments first (studybench rescore)"
    )


def test_compare_tables_draws_its_interval_from_its_own_seeded_generator() -> None:
    from studybench.metrics.clustered import cluster_tables
    from studybench.metrics.intervals import rng_for
    from studybench.metrics.paired import compare_tables

    (base,) = cluster_tables(_rows([(p, "a") for p in "ABCDEF"], correct=False)).values()
    mixed = _rows([(p, "a") for p in "ABC"]) + _rows([(p, "a") for p in "DEF"], correct=False)
    (cand,) = cluster_tables(mixed).values()
    settings = _fast()
    result = compare_tables(base, cand, "par_at_k", settings)
    assert math.isfinite(result.ci_low) and result.ci_low < result.ci_high
    b_num, den = base.per_parent("par_at_k")
    c_num, _ = cand.per_parent("par_at_k")
    seeded = rng_for(settings.seed, base.benchmark, base.split, "par_at_k", "paired")
    direct = paired_stats(b_num, c_num, den, settings, seeded)
    assert (result.ci_low, result.ci_high) == (direct.ci_low, direct.ci_high)
