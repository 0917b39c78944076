"""Paired comparisons: exact permutation p-values of tiny tables, refusals, and properties."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studybench.metrics.comparison import CompareSettings, compare_items
from studybench.metrics.intervals import IntervalSettings
from studybench.metrics.items import ItemRow
from studybench.metrics.paired import ComparisonRefusedError, EvaluationInfo, paired_stats

CASES = json.loads(Path(__file__).with_name("comparison_refusal_cases.json").read_text())["cases"]


def _rows(table: dict[str, list[int]], split: str = "application") -> list[ItemRow]:
    """``{parent: [solved per seed]}`` with one slot and one attempt per seed."""
    return [
        ItemRow(split=split, parent=p, slot="0", seed=seed, attempt=0, correct=bool(v))
        for p, seeds in table.items()
        for seed, v in enumerate(seeds)
    ]


def test_exact_sign_flip_p_value_of_four_parents() -> None:
    # per-parent differences (seed means): A +1, B +.5, C +.5, D -.5, mean .375.
    # The 16 sign patterns of (1, .5, .5, .5) give a sum >= 1.5 four times: P(>=) = 4/16,
    # and no pattern gives <= -1.5 beyond the mirror: two-sided p = 2 * 4/16 = 0.5.
    base = _rows({"A": [0, 0], "B": [0, 0], "C": [1, 0], "D": [1, 1]})
    cand = _rows({"A": [1, 1], "B": [1, 0], "C": [1, 1], "D": [0, 1]})
    result = compare_items(base, cand)
    (par,) = result.metrics
    assert par.diff == pytest.approx(0.375)
    assert par.p_value == pytest.approx(0.5)
    assert par.exact
    assert par.decision == "unchanged"


def test_exact_p_value_all_parents_improve() -> None:
    # four parents +1 each: only the all-plus pattern reaches 4: two-sided p = 2/16.
    base = _rows({p: [0] for p in "ABCD"})
    cand = _rows({p: [1] for p in "ABCD"})
    (par,) = compare_items(base, cand).metrics
    assert par.diff == 1.0
    assert par.p_value == pytest.approx(0.125)


def test_exact_p_value_three_of_four() -> None:
    # differences (1, 1, 1, 0): sums of three signed ones are 3, 1, -1, -3 with 1, 3, 3, 1
    # patterns of 8 (the zero does not matter): P(>= 3) = 1/8, two-sided 1/4.
    base = _rows({p: [0] for p in "ABCD"})
    cand = _rows({"A": [1], "B": [1], "C": [1], "D": [0]})
    (par,) = compare_items(base, cand).metrics
    assert par.p_value == pytest.approx(0.25)


def test_no_difference_is_unchanged_with_p_one() -> None:
    rows = _rows({p: [1, 0] for p in "ABCDEF"})
    (par,) = compare_items(rows, rows).metrics
    assert (par.diff, par.p_value) == (0.0, 1.0)
    # resampling parents cannot move a zero difference; the seeds' sampling noise can
    assert par.targets["problems_like_these"].ci_low == 0.0
    assert par.targets["problems_like_these"].ci_high == 0.0
    assert par.ci_low < 0.0 < par.ci_high and par.target == "this_benchmark"
    assert par.decision == "unchanged"


def _case_rows(items: list[list[str]], benchmark: str, attempts: int) -> list[ItemRow]:
    return [
        ItemRow(
            benchmark=benchmark,
            split=split,
            parent=parent,
            slot=slot,
            seed=0,
            attempt=a,
            correct=True,
        )
        for split, parent, slot in items
        for a in range(attempts)
    ]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_incomparable_evaluations_are_refused(case: dict[str, Any]) -> None:
    base = _case_rows(case["baseline"], case.get("baseline_benchmark", "studybench"), 1)
    cand = _case_rows(
        case["candidate"],
        case.get("candidate_benchmark", "studybench"),
        case.get("candidate_attempts", 1),
    )
    with pytest.raises(ComparisonRefusedError) as caught:
        compare_items(
            base,
            cand,
            baseline_info=EvaluationInfo(**case.get("baseline_info", {})),
            candidate_info=EvaluationInfo(**case.get("candidate_info", {})),
        )
    message = str(caught.value)
    assert message.startswith("refusing to compare")
    for word in case["expect"]:
        assert word in message


def test_same_data_version_is_compared() -> None:
    rows = _rows({p: [1] for p in "AB"})
    info = EvaluationInfo(data_version="md5:aaa", protocol="p")
    assert compare_items(rows, rows, baseline_info=info, candidate_info=info).metrics


def test_holm_runs_across_splits_and_metrics() -> None:
    rng = random.Random(0)
    base, cand = [], []
    for split in ("application", "transfer"):
        for p in range(30):
            for slot in ("a", "b"):
                for seed in range(3):
                    b = rng.random() < 0.5
                    base.append(
                        ItemRow(
                            split=split, parent=f"p{p}", slot=slot, seed=seed, attempt=0, correct=b
                        )
                    )
                    cand.append(
                        ItemRow(
                            split=split,
                            parent=f"p{p}",
                            slot=slot,
                            seed=seed,
                            attempt=0,
                            correct=b if split == "transfer" else rng.random() < 0.2,
                        )
                    )
    result = compare_items(base, cand, CompareSettings(n_resamples=1999, multiplicity="holm"))
    assert result.multiplicity == "holm" and "Holm over 4 metric(s)" in result.method
    keys = [m.key for m in result.metrics]
    assert keys == [
        "application/par_at_1",
        "application/sub_at_1",
        "transfer/par_at_1",
        "transfer/sub_at_1",
    ]
    raw = [m.p_value for m in result.metrics]
    order = sorted(range(4), key=lambda i: raw[i])
    expected = [0.0] * 4
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (4 - rank) * raw[i]))
        expected[i] = running
    assert [m.p_adjusted for m in result.metrics] == pytest.approx(expected)
    assert result.by_metric()["application/sub_at_k"]["decision"] == "regressed"
    assert result.by_metric()["transfer/sub_at_k"]["decision"] == "unchanged"


# --- properties -----------------------------------------------------------------------------

_parents = st.integers(min_value=2, max_value=12)


@st.composite
def _pair(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n = draw(_parents)
    den = np.array(draw(st.lists(st.integers(1, 6), min_size=n, max_size=n)), dtype=float)
    base = np.array([draw(st.floats(0, 1)) for _ in range(n)]) * den
    cand = np.array([draw(st.floats(0, 1)) for _ in range(n)]) * den
    return base, cand, den


_fast = IntervalSettings(n_resamples=499)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(_pair(), st.floats(-0.5, 0.5))
def test_shifting_every_candidate_moves_the_difference_by_the_shift(
    pair: tuple[np.ndarray, np.ndarray, np.ndarray], shift: float
) -> None:
    base, cand, den = pair
    before = paired_stats(base, cand, den, _fast, np.random.default_rng(1))
    after = paired_stats(base, cand + shift * den, den, _fast, np.random.default_rng(1))
    assert after.diff == pytest.approx(before.diff + shift, abs=1e-9)
    if not math.isnan(before.ci_low) and before.ci_low != before.ci_high:
        assert after.ci_low == pytest.approx(before.ci_low + shift, abs=1e-9)
        assert after.ci_high == pytest.approx(before.ci_high + shift, abs=1e-9)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(_pair())
def test_swapping_baseline_and_candidate_flips_the_sign(
    pair: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> None:
    base, cand, den = pair
    forward = paired_stats(base, cand, den, _fast, np.random.default_rng(2))
    backward = paired_stats(cand, base, den, _fast, np.random.default_rng(2))
    assert backward.diff == pytest.approx(-forward.diff, abs=1e-12)
    assert backward.ci_low == pytest.approx(-forward.ci_high, abs=1e-9)
    assert backward.ci_high == pytest.approx(-forward.ci_low, abs=1e-9)
    assert backward.p_value == pytest.approx(forward.p_value, abs=1e-9)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(
    st.lists(st.tuples(st.booleans(), st.booleans()), min_size=8, max_size=8),
    st.randoms(use_true_random=False),
)
def test_row_order_does_not_matter(outcomes: list[tuple[bool, bool]], order: random.Random) -> None:
    base, cand = [], []
    for i, (b, c) in enumerate(outcomes):
        for seed in range(2):
            base.append(
                ItemRow(
                    split="s",
                    parent=f"p{i % 4}",
                    slot=str(i // 4),
                    seed=seed,
                    attempt=0,
                    correct=b ^ bool(seed),
                )
            )
            cand.append(
                ItemRow(
                    split="s", parent=f"p{i % 4}", slot=str(i // 4), seed=seed, attempt=0, correct=c
                )
            )
    fast = CompareSettings(n_resamples=499)
    expected = compare_items(base, cand, fast)
    order.shuffle(base)
    order.shuffle(cand)
    assert compare_items(base, cand, fast) == expected
