"""What one paired comparison reports (metrics/comparison.py), written from its docstrings.

Found unchecked by mutation testing (issue 26): the defaults (alpha 0.05, no minimum effect,
80% power), the metric keys of other benchmarks and of split-less rows, one metric for
single-slot parents, the Holm family size in the minimum detectable effect, the power notes,
the text of ``describe()``, ``by_metric()`` keys with one and with several splits, the
run names and the ``regressions`` list.
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import pytest

from studybench.metrics.clustered import cluster_tables
from studybench.metrics.comparison import (
    CompareSettings,
    MetricResult,
    _method,
    compare_items,
    metric_key,
)
from studybench.metrics.comparison import test_inputs as flipped_inputs
from studybench.metrics.items import ItemRow
from studybench.metrics.paired import EvaluationInfo, compare_tables
from studybench.metrics.passk import VerdictRow
from studybench.metrics.pooled import PooledMetric
from studybench.metrics.power import minimum_detectable_effect


def _rows(
    solved: dict[str, list[int]], *, split: str = "application", benchmark: str = "studybench"
) -> list[ItemRow]:
    """``{parent: [slot correct, ...]}``: one seed, one attempt."""
    return [
        ItemRow(
            benchmark=benchmark,
            split=split,
            parent=parent,
            slot=str(slot),
            seed=0,
            attempt=0,
            correct=bool(c),
        )
        for parent, slots in solved.items()
        for slot, c in enumerate(slots)
    ]


def test_the_default_settings() -> None:
    settings = CompareSettings()
    assert (settings.alpha, settings.min_effect, settings.power) == (0.05, 0.0, 0.8)
    assert (settings.confidence, settings.n_resamples, settings.seed) == (0.95, 9999, 0)


@pytest.mark.parametrize(
    ("benchmark", "split", "metric", "k", "key"),
    [
        ("studybench", "application", "par_at_k", 8, "application/par_at_8"),
        ("studybench", "transfer", "sub_at_k", 1, "transfer/sub_at_1"),
        ("studybench", "", "par_at_k", 2, "all/par_at_2"),
        ("sebench", "hard", "par_at_k", 1, "sebench/hard/par_at_1"),
        ("studybench", "application", "par_at_k", None, "application/par_at_k"),
    ],
)
def test_metric_keys(benchmark: str, split: str, metric: str, k: int | None, key: str) -> None:
    assert metric_key(benchmark, split, metric, k) == key


def test_single_slot_parents_give_one_metric_and_several_slots_two() -> None:
    single = _rows({p: [1] for p in "ABC"})
    assert [m.metric for m in compare_items(single, single).metrics] == ["par_at_k"]
    multi = _rows({"A": [1, 0], "B": [1], "C": [0]})
    assert [m.metric for m in compare_items(multi, multi).metrics] == ["par_at_k", "sub_at_k"]
    only = compare_items(multi, multi, metrics=["sub_at_k"])
    assert [m.key for m in only.metrics] == ["application/sub_at_1"]


def test_a_split_less_evaluation_is_keyed_all() -> None:
    base = [VerdictRow(parent=p, slot="0", seed=0, attempt=0, correct=False) for p in "ABCD"]
    cand = [VerdictRow(parent=p, slot="0", seed=0, attempt=0, correct=True) for p in "ABCD"]
    result = compare_items(base, cand)
    (par,) = result.metrics
    assert (par.key, par.benchmark, par.split, par.k) == ("all/par_at_1", "studybench", "", 1)
    assert list(result.by_metric()) == ["par_at_k"]


def _shifted() -> tuple[list[ItemRow], list[ItemRow]]:
    """20 parents with two slots: the candidate loses slot 1 on parents 0-13 and gains slot
    0 on parents 10 and 12 (which lacked it), on two splits."""
    base, cand = [], []
    for split in ("application", "transfer"):
        b = {f"p{i}": [i % 2, 1 if i < 14 else 0] for i in range(20)}
        c = {f"p{i}": [1 if i in (10, 12) else i % 2, 0] for i in range(20)}
        base += _rows(b, split=split)
        cand += _rows(c, split=split)
    return base, cand


def test_the_minimum_detectable_effect_uses_the_whole_holm_family() -> None:
    base, cand = _shifted()
    result = compare_items(base, cand, CompareSettings(n_resamples=999, power=0.9))
    assert len(result.metrics) == 4
    for m in result.metrics:
        # sd of the per-parent difference, in units of one parent's contribution (z)
        expected = minimum_detectable_effect(
            _sd_of(base, cand, m.split, m.metric), 20, alpha=0.05 / 4, power=0.9
        )
        assert m.mde == pytest.approx(expected)
        assert m.parents == 20 and m.k == 1


def _sd_of(base: list[ItemRow], cand: list[ItemRow], split: str, metric: str) -> float:
    """The sd (ddof 1) of z_p = (c_p - b_p) * P / sum(den): Par counts a parent with every
    slot right (den 1), Sub its right slots (den 2, two slots each)."""

    def value(rows: list[ItemRow], parent: str) -> float:
        hits = [r.correct for r in rows if r.split == split and r.parent == parent]
        return float(all(hits)) if metric == "par_at_k" else float(sum(hits))

    parents = sorted({r.parent for r in base if r.split == split})
    total = len(parents) * (1.0 if metric == "par_at_k" else 2.0)
    z = [(value(cand, p) - value(base, p)) * len(parents) / total for p in parents]
    mean = sum(z) / len(z)
    return math.sqrt(sum((v - mean) ** 2 for v in z) / (len(z) - 1))


def test_by_metric_keys_with_several_splits_and_the_regressions() -> None:
    base, cand = _shifted()
    result = compare_items(base, cand, CompareSettings(n_resamples=999))
    by = result.by_metric()
    assert list(by) == [
        "application/par_at_k",
        "application/sub_at_k",
        "transfer/par_at_k",
        "transfer/sub_at_k",
    ]
    sub = by["application/sub_at_k"]
    assert set(sub) == {
        "diff", "ci_low", "ci_high", "p_value", "p_adjusted", "decision", "mde",
        "baseline", "candidate", "baseline_std", "candidate_std", "targets",
    }  # fmt: skip
    assert set(sub["targets"]) == {"this_benchmark", "problems_like_these"}
    # sub: slot 1 lost on 14 parents (-14), slot 0 gained on 2 (+2) of 40 slots: -12/40;
    # 16 non-zero differences, 14 of one sign: exact p = 2 * (1 + 16 + 120) / 2**16 = .004
    assert sub["diff"] == pytest.approx(-0.3)
    assert float(sub["p_adjusted"]) <= 0.05
    assert sub["decision"] == "regressed"
    assert [m.key for m in result.regressions] == [
        m.key for m in result.metrics if m.decision == "regressed"
    ]
    assert "application/sub_at_1" in [m.key for m in result.regressions]
    assert result.regression


def test_no_change_has_no_regression_and_names_the_runs() -> None:
    rows = _rows({p: [1, 0] for p in "ABCD"})
    result = compare_items(
        rows,
        rows,
        baseline_info=EvaluationInfo(name="ckpt-100"),
        candidate_info=EvaluationInfo(name="ckpt-200"),
    )
    assert (result.baseline, result.candidate) == ("ckpt-100", "ckpt-200")
    assert not result.regression and result.regressions == []
    unnamed = compare_items(rows, rows)
    assert (unnamed.baseline, unnamed.candidate) == ("", "")


def test_the_power_note_names_the_split_and_what_it_cannot_detect() -> None:
    base, cand = _shifted()
    settings = CompareSettings(n_resamples=999, min_effect=0.01)
    result = compare_items(base, cand, settings)
    first = result.metrics[0]
    assert first.key == "application/par_at_1"
    assert result.notes[0] == (
        f"application: this split cannot detect a drop smaller than {100 * first.mde:.1f} "
        "points (par_at_1, 80% power; the configured minimum effect is 1.0 points)"
    )
    assert len(result.notes) == 4
    assert compare_items(base, cand, CompareSettings(n_resamples=999, min_effect=1.0)).notes == []


def test_the_minimum_effect_and_alpha_reach_the_decision() -> None:
    base, cand = _shifted()
    strict = compare_items(base, cand, CompareSettings(n_resamples=999, min_effect=0.4))
    # the drops (par 7/20, sub 12/40) are below 40 points
    assert {m.decision for m in strict.metrics} == {"unchanged"}
    never = compare_items(base, cand, CompareSettings(n_resamples=999, alpha=1e-9))
    assert {m.decision for m in never.metrics} == {"unchanged"}


def test_describe_reads_in_points() -> None:
    result = MetricResult(
        benchmark="studybench",
        split="application",
        metric="par_at_k",
        key="application/par_at_8",
        k=8,
        baseline=0.25,
        candidate=0.625,
        diff=0.375,
        ci_low=0.125,
        ci_high=0.5,
        p_value=0.0123,
        p_adjusted=0.0456,
        decision="improved",
        parents=90,
        exact=False,
        mde=0.1,
    )
    assert result.describe() == (
        "application/par_at_8: 25.0 -> 62.5 (+37.5 points, +12.5 to +50.0; "
        "p=0.0123, Holm 0.0456) improved"
    )


def test_the_settings_reach_every_paired_test() -> None:
    base, cand = _shifted()
    settings = CompareSettings(n_resamples=199, confidence=0.5, seed=7)
    result = compare_items(base, cand, settings)
    tables_b, tables_c = cluster_tables(base), cluster_tables(cand)
    for m in result.metrics:
        key = (m.benchmark, m.split)
        direct = compare_tables(tables_b[key], tables_c[key], m.metric, settings)
        population = m.targets["problems_like_these"]
        assert (population.ci_low, population.ci_high) == (direct.ci_low, direct.ci_high)
        # the family draws its own sign patterns (shared by every metric): same test, other
        # draws of the 199
        assert m.p_value == pytest.approx(direct.p_value, abs=0.03)
        assert m.exact is direct.exact is False


def test_one_metric_is_a_family_of_one() -> None:
    base = [
        ItemRow(
            split="s", parent=f"p{i}", slot="0", seed=seed, attempt=0, correct=(i + seed) % 3 == 0
        )
        for i in range(12)
        for seed in range(2)
    ]
    cand = [row.model_copy(update={"correct": not row.correct}) for row in base]
    (m,) = compare_items(base, cand, CompareSettings(n_resamples=199)).metrics
    assert m.mde == pytest.approx(
        minimum_detectable_effect(_sd_two_seeds(base, cand), 12, alpha=0.05, power=0.8)
    )


def _sd_two_seeds(base: list[ItemRow], cand: list[ItemRow]) -> float:
    """sd of z_p = (mean_s c - mean_s b) * P / P (Par, den 1 per parent)."""

    def mean(rows: list[ItemRow], parent: str) -> float:
        hits = [r.correct for r in rows if r.parent == parent]
        return sum(hits) / len(hits)

    parents = sorted({r.parent for r in base})
    z = [mean(cand, p) - mean(base, p) for p in parents]
    mu = sum(z) / len(z)
    return math.sqrt(sum((v - mu) ** 2 for v in z) / (len(z) - 1))


def test_k_and_slots_of_reach_both_tables() -> None:
    def rows(late: bool) -> list[ItemRow]:
        return [
            ItemRow(split="s", parent=p, slot="a", seed=0, attempt=a, correct=late and a == 1)
            for p in "ABCD"
            for a in range(2)
        ]

    # only attempt 1 is right: at k=1 nothing changes, at k=2 every parent improves
    (at_1,) = compare_items(rows(False), rows(True), k=1).metrics
    (at_2,) = compare_items(rows(False), rows(True), k=2).metrics
    assert (at_1.key, at_1.diff, at_2.key, at_2.diff) == ("s/par_at_1", 0.0, "s/par_at_2", 1.0)
    # a listed slot that has no row counts as wrong on both sides
    slots = {p: ["a", "b"] for p in "ABCD"}
    both = compare_items(rows(False), rows(True), k=2, slots_of=slots)
    assert [(m.metric, m.candidate) for m in both.metrics] == [
        ("par_at_k", 0.0),
        ("sub_at_k", 0.5),
    ]


def test_power_notes_for_other_benchmarks_split_less_rows_and_another_power() -> None:
    base, cand = _shifted()
    moved = [r.model_copy(update={"benchmark": "sebench"}) for r in base]
    moved_c = [r.model_copy(update={"benchmark": "sebench"}) for r in cand]
    result = compare_items(
        moved, moved_c, CompareSettings(n_resamples=199, min_effect=0.01, power=0.9)
    )
    first = result.metrics[0]
    assert first.key == "sebench/application/par_at_1"
    assert result.notes[0] == (
        f"application: this split cannot detect a drop smaller than {100 * first.mde:.1f} "
        "points (par_at_1, 90% power; the configured minimum effect is 1.0 points)"
    )
    plain_b = [
        VerdictRow(parent=f"p{i}", slot="0", seed=0, attempt=0, correct=i % 2 == 0)
        for i in range(6)
    ]
    plain_c = [
        VerdictRow(parent=f"p{i}", slot="0", seed=0, attempt=0, correct=i % 3 == 0)
        for i in range(6)
    ]
    notes = compare_items(plain_b, plain_c, CompareSettings(n_resamples=199, min_effect=0.01)).notes
    assert len(notes) == 1 and notes[0].startswith("all: this split cannot detect a drop")


# --- what the sign flips act on, the method's text and the summary --------------------------


def _unit(
    baseline: list[float],
    candidate: list[float],
    den: list[float],
    baseline_var: list[float],
    candidate_var: list[float],
) -> PooledMetric:
    return PooledMetric(
        *(
            np.array(v, dtype=np.float64)
            for v in (baseline, candidate, den, baseline_var, candidate_var)
        )
    )


def test_this_benchmark_flips_differences_over_their_sampling_sd() -> None:
    # d = (0.5, -1.0); variances 0.02 + 0.03 and 0; floor den^2 / (4 n) with n = 4 chains
    unit = _unit([0.5, 2.0], [1.0, 1.0], [1.0, 2.0], [0.02, 0.0], [0.03, 0.0])
    got = flipped_inputs(unit, 4, "this_benchmark")
    assert got.dtype == np.float64
    assert got == pytest.approx([0.5 / math.sqrt(0.05 + 1 / 16), -1.0 / math.sqrt(4 / 16)])


@pytest.mark.parametrize(
    ("target", "chains", "variance"),
    [
        ("problems_like_these", 4, 0.05),  # the unweighted mean of the parents
        ("this_benchmark", 0, 0.05),  # no chains: no floor, the raw differences
        ("this_benchmark", 4, math.nan),  # one seed: no sampling variance known
        ("this_benchmark", 4, math.inf),
    ],
)
def test_otherwise_the_raw_differences_are_flipped(
    target: str, chains: int, variance: float
) -> None:
    unit = _unit([0.5, 2.0], [1.0, 1.0], [1.0, 2.0], [variance, 0.0], [0.0, 0.0])
    got = flipped_inputs(unit, chains, target)
    assert got.dtype == np.float64 and list(got) == [0.5, -1.0]


@pytest.mark.parametrize(
    ("unit", "target", "exact", "multiplicity", "text"),
    [
        (
            "pooled",
            "this_benchmark",
            True,
            "westfall-young",
            "pooled unbiased pass@k per parent (every attempt of every seed); sign-flip "
            "permutation over parents of the per-parent differences over their sampling sd, "
            "every sign pattern (exact); Westfall-Young step-down maxT over the same sign "
            "patterns over 3 metric(s); decision on this benchmark",
        ),
        (
            "seed-mean",
            "problems_like_these",
            False,
            "holm",
            "per-seed scores averaged per parent; sign-flip permutation over parents of the "
            "per-parent differences, 999 seeded patterns; Holm over 3 metric(s); decision on "
            "problems like these",
        ),
    ],
)
def test_the_method_says_unit_statistic_patterns_family_and_target(
    unit: str, target: str, exact: bool, multiplicity: str, text: str
) -> None:
    settings = CompareSettings(unit=unit, target=target, n_resamples=999)
    assert _method(settings, exact, 3, multiplicity) == text


def test_the_summary_of_a_comparison() -> None:
    result = compare_items(
        _rows({"p0": [1], "p1": [0], "p2": [1]}),
        _rows({"p0": [1], "p1": [1], "p2": [1]}),
        CompareSettings(target="problems_like_these", unit="seed-mean", multiplicity="holm"),
        baseline_info=EvaluationInfo(name="a", verifier_version="1.9.0"),
        candidate_info=EvaluationInfo(name="b", verifier_version="1.9.0"),
    )
    assert result.summary() == {
        "target": "problems_like_these",
        "unit": "seed-mean",
        "multiplicity": "holm",
        "method": result.method,
        "instruments": {"verifier_version": "1.9.0"},
        "warnings": result.warnings,
        "notes": result.notes,
    }
    assert result.method.startswith("per-seed scores averaged per parent")
    assert result.method.endswith("Holm over 1 metric(s); decision on problems like these")


def _nights(correct: Any, seeds: tuple[int, ...] = (0,)) -> list[ItemRow]:
    """Six single-slot parents, one attempt per seed; ``correct(parent, seed)``."""
    return [
        ItemRow(
            split="application", parent=f"p{i}", slot="0", seed=s, attempt=0, correct=correct(i, s)
        )
        for i in range(6)
        for s in seeds
    ]


def test_one_seed_decides_on_the_other_target_and_says_so() -> None:
    result = compare_items(_nights(lambda i, s: False), _nights(lambda i, s: True), k=1)
    (m,) = result.metrics
    # six parents that all gain: 2 of the 2^6 sign patterns are as extreme (exact, family of 1)
    assert (m.p_value, m.p_adjusted, m.exact) == (2 / 64, 2 / 64, True)
    assert (m.baseline_std, m.candidate_std) == (0.0, 0.0)  # one seed: no spread, not NaN
    assert m.target == "problems_like_these" and (m.ci_low, m.ci_high) == (1.0, 1.0)
    wide = m.targets["problems_like_these"]
    assert (wide.ci_low, wide.ci_high, wide.se, wide.p_value) == (1.0, 1.0, 0.0, 2 / 64)
    narrow = m.targets["this_benchmark"]
    assert math.isnan(narrow.ci_low) and math.isnan(narrow.se)
    assert result.warnings == [
        "no this benchmark interval for application/par_at_1 (a parent needs more than k "
        "attempts over its seeds to show its sampling noise): decided on the other target"
    ]


@pytest.mark.parametrize(
    ("names", "shown"),
    [(("night-1", "night-2"), "night-1"), (None, "baseline"), (("", ""), "baseline")],
)
def test_the_warnings_name_the_runs_and_the_std_is_over_seeds(
    names: tuple[str, str] | None, shown: str
) -> None:
    infos = {}
    if names:
        infos = {
            "baseline_info": EvaluationInfo(name=names[0]),
            "candidate_info": EvaluationInfo(name=names[1]),
        }
    result = compare_items(
        _nights(lambda i, s: False, seeds=(0, 1, 2)),
        _nights(lambda i, s: i < 2 + 2 * s, seeds=(0, 1)),  # 2/6 in seed 0, 4/6 in seed 1
        k=1,
        **infos,
    )
    (m,) = result.metrics
    assert result.warnings == [
        f"studybench/application: seed(s) [2] only in {shown}: left out of the test "
        "(both sides pool seeds [0, 1])"
    ]
    assert m.baseline_std == 0.0
    assert m.candidate_std == pytest.approx(float(np.std([2 / 6, 4 / 6], ddof=1)))


def test_one_chain_still_weights_by_the_floor() -> None:
    unit = _unit([0.0], [1.0], [1.0], [0.0], [0.0])
    assert list(flipped_inputs(unit, 1, "this_benchmark")) == [1.0 / math.sqrt(1 / 4)]


def test_a_seed_only_the_candidate_has_is_named_after_it() -> None:
    result = compare_items(
        _nights(lambda i, s: False, seeds=(0, 1)),
        _nights(lambda i, s: True, seeds=(0, 1, 3)),
        k=1,
        baseline_info=EvaluationInfo(name="night-1"),
        candidate_info=EvaluationInfo(name="night-2"),
    )
    assert result.warnings == [
        "studybench/application: seed(s) [3] only in night-2: left out of the test "
        "(both sides pool seeds [0, 1])"
    ]


def _two_attempts(solved_seed0: bool) -> list[ItemRow]:
    """Six single-slot parents, seeds 0 and 1, k = 2: seed 0 solves both attempts or none,
    seed 1 none."""
    return [
        ItemRow(
            split="application",
            parent=f"p{i}",
            slot="0",
            seed=s,
            attempt=a,
            correct=solved_seed0 and s == 0,
        )
        for i in range(6)
        for s in (0, 1)
        for a in (0, 1)
    ]


@pytest.mark.parametrize(("unit", "diff"), [("seed-mean", 0.5), ("pooled", 5 / 6)])
def test_the_settings_unit_is_the_unit_tested(unit: str, diff: float) -> None:
    # per seed Par@2 is 1 then 0 (mean 0.5); pooled over 4 chains with 2 solving,
    # 1 - C(2, 2) / C(4, 2) = 5/6
    result = compare_items(
        _two_attempts(False), _two_attempts(True), CompareSettings(unit=unit), k=2
    )
    (m,) = result.metrics
    assert m.diff == pytest.approx(diff)


def _both_slots(correct: bool) -> list[ItemRow]:
    return [
        ItemRow(split="application", parent=f"p{i}", slot=slot, seed=0, attempt=0, correct=correct)
        for i in range(6)
        for slot in ("a", "b")
    ]


@pytest.mark.parametrize(
    ("multiplicity", "adjusted", "rule"),
    [("westfall-young", 2 / 64, "Westfall-Young step-down maxT"), ("holm", 4 / 64, "; Holm over")],
)
def test_the_family_rule_adjusts_the_p_values(
    multiplicity: str, adjusted: float, rule: str
) -> None:
    # Par and Sub move together on every parent: maxT over identical nulls keeps 2/64, Holm
    # doubles the smaller p-value
    result = compare_items(
        _both_slots(False), _both_slots(True), CompareSettings(multiplicity=multiplicity), k=1
    )
    assert [m.p_value for m in result.metrics] == [2 / 64, 2 / 64]
    assert [m.p_adjusted for m in result.metrics] == [adjusted, adjusted]
    for m in result.metrics:
        assert m.targets["problems_like_these"].p_adjusted == adjusted
    assert rule in result.method and "every sign pattern (exact)" in result.method
    # one seed: neither metric has a this-benchmark interval, both are named
    assert result.warnings == [
        "no this benchmark interval for application/par_at_1, application/sub_at_1 (a parent "
        "needs more than k attempts over its seeds to show its sampling noise): decided on "
        "the other target"
    ]


def test_the_instruments_known_on_either_side() -> None:
    result = compare_items(
        _nights(lambda i, s: False),
        _nights(lambda i, s: True),
        k=1,
        baseline_info=EvaluationInfo(name="a", verifier_version="1.9.0"),
        candidate_info=EvaluationInfo(name="b", judge_version="j1"),
    )
    assert result.instruments == {"verifier_version": "1.9.0", "judge_version": "j1"}


def test_two_parents_have_a_standard_error() -> None:
    base = [ItemRow(split="s", parent=p, slot="0", seed=0, attempt=0, correct=False) for p in "AB"]
    cand = [
        ItemRow(split="s", parent=p, slot="0", seed=0, attempt=0, correct=p == "A") for p in "AB"
    ]
    (m,) = compare_items(base, cand, k=1).metrics
    # differences (1, 0): sd 1/sqrt(2) over sqrt(2) parents
    assert m.targets["problems_like_these"].se == pytest.approx(0.5)


def test_every_parent_dropped_leaves_nothing_to_decide() -> None:
    # each parent misses seed 1 on one side: all three leave the test, which then has no
    # estimate (NaN) and decides nothing, without dividing by zero
    base = [
        ItemRow(split="s", parent=p, slot="0", seed=s, attempt=0, correct=False)
        for p in "AB"
        for s in (0, 1)
    ] + [ItemRow(split="s", parent="C", slot="0", seed=0, attempt=0, correct=True)]
    cand = [
        ItemRow(split="s", parent=p, slot="0", seed=0, attempt=0, correct=True) for p in "AB"
    ] + [ItemRow(split="s", parent="C", slot="0", seed=1, attempt=0, correct=True)]
    (m,) = compare_items(base, cand, k=1).metrics
    assert (m.parents, m.dropped, m.decision, m.p_value) == (0, 3, "unchanged", 1.0)
    wide = m.targets["problems_like_these"]
    assert math.isnan(m.diff) and math.isnan(wide.se) and math.isnan(wide.ci_low)


def test_this_benchmark_weights_parents_by_their_noise() -> None:
    # parents of unequal sampling noise (seeded draws, 3 seeds x 2 attempts): the
    # standardised differences give another p-value than the raw ones
    draw = random.Random(1)
    rates_b: list[float] = []
    rates_c: list[float] = []
    for _design in range(14):  # the 14th design drawn (where the two p-values first differ)
        rates_b = [draw.random() for _ in range(6)]
        rates_c = [min(1.0, r + draw.random() * 0.5) for r in rates_b]

    def rows(rates: list[float], seed: int) -> list[ItemRow]:
        outcome = random.Random(seed)
        return [
            ItemRow(
                split="s",
                parent=f"p{i}",
                slot="0",
                seed=s,
                attempt=a,
                correct=outcome.random() < rates[i],
            )
            for i in range(6)
            for s in range(3)
            for a in range(2)
        ]

    (m,) = compare_items(rows(rates_b, 13), rows(rates_c, 113), k=2).metrics
    assert m.targets["this_benchmark"].p_value == pytest.approx(0.625)
    assert m.targets["problems_like_these"].p_value == pytest.approx(0.5)
