"""The sign-flip test and Westfall-Young step-down (metrics/permutation.py) against brute force,
and the size of the whole comparison under "no change" by simulation.

Oracles: every sign pattern enumerated with itertools.product (a dropped parent or a pattern
counted twice cannot agree), the step-down maxT written from its definition, and seeded
simulations of nights without a change (the false-alarm rate must stay near alpha).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studybench.metrics.clustered import ClusterTable
from studybench.metrics.comparison import CompareSettings, compare_evaluations
from studybench.metrics.permutation import (
    fixed_items_interval,
    null_statistics,
    sign_flips,
    step_down_max,
    studentised,
    two_sided_p,
)


def _brute_p(d: list[float]) -> float:
    total = abs(sum(d))
    patterns = list(itertools.product((1, -1), repeat=len(d)))
    hits = sum(abs(sum(s * x for s, x in zip(signs, d, strict=True))) >= total - 1e-12
               for signs in patterns)  # fmt: skip
    return hits / len(patterns)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(min_value=-4, max_value=4), min_size=1, max_size=9))
def test_exact_enumeration_matches_brute_force(values: list[int]) -> None:
    d = np.array(values, dtype=float) / 4
    flips = sign_flips(len(d), 2 ** len(d), np.random.default_rng(0))
    assert flips.exact and flips.signs.shape == (2 ** len(d), len(d))
    assert len({tuple(r) for r in flips.signs}) == 2 ** len(d)  # every pattern once
    p = two_sided_p(studentised(d), null_statistics(d, flips.signs), True)
    assert p == pytest.approx(_brute_p(list(d)))


def test_one_pattern_too_few_draws_instead() -> None:
    flips = sign_flips(4, 15, np.random.default_rng(0))
    assert not flips.exact and flips.signs.shape == (15, 4)
    assert set(np.unique(flips.signs)) <= {-1.0, 1.0}
    assert sign_flips(4, 16, np.random.default_rng(0)).exact


def test_monte_carlo_p_counts_the_observed_pattern() -> None:
    # no drawn pattern reaches the observed sum: (0 + 1) / (draws + 1), never 0
    d = np.ones(40)
    flips = sign_flips(40, 999, np.random.default_rng(1))
    p = two_sided_p(studentised(d), null_statistics(d, flips.signs), False)
    assert p == pytest.approx(1 / 1000)


def _brute_step_down(t: list[float], null: np.ndarray, exact: bool) -> list[float]:
    order = sorted(range(len(t)), key=lambda i: -abs(t[i]))
    out, running = [0.0] * len(t), 0.0
    for rank, i in enumerate(order):
        rest = order[rank:]
        hits = sum(max(abs(row[j]) for j in rest) >= abs(t[i]) - 1e-9 for row in null)
        p = hits / len(null) if exact else (hits + 1) / (len(null) + 1)
        running = max(running, p)
        out[i] = min(1.0, running)
    return out


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=1, max_value=4), st.integers(min_value=0, max_value=2**31 - 1))
def test_step_down_max_matches_its_definition(metrics: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    d = rng.normal(0.3, 1.0, size=(8, metrics))
    flips = sign_flips(8, 256, rng)
    t = [studentised(d[:, m]) for m in range(metrics)]
    null = np.column_stack([null_statistics(d[:, m], flips.signs) for m in range(metrics)])
    got = step_down_max(t, null, flips.exact)
    assert got == pytest.approx(_brute_step_down(t, null, flips.exact))
    raw = [two_sided_p(t[m], null[:, m], True) for m in range(metrics)]
    assert all(a >= r - 1e-12 for a, r in zip(got, raw, strict=True))  # never below raw


def test_identical_metrics_pay_no_multiplicity() -> None:
    # the same sign patterns on perfectly correlated metrics: Westfall-Young keeps the raw p,
    # where Holm would multiply it by the family size
    d = np.array([1.0, 0.5, 0.75, 1.0, -0.25, 0.5, 1.0, 0.25])
    flips = sign_flips(8, 256, np.random.default_rng(0))
    null = null_statistics(d, flips.signs)
    raw = two_sided_p(studentised(d), null, True)
    both = step_down_max([studentised(d)] * 2, np.column_stack([null, null]), True)
    assert both == pytest.approx([raw, raw])


def _table(hits: npt.NDArray[np.bool_], split: str) -> ClusterTable:
    parents, seeds, k, _ = hits.shape
    par = np.any(np.all(hits, axis=3), axis=2).astype(float)
    sub = hits.any(axis=2).sum(axis=2).astype(float)
    return ClusterTable(
        benchmark="studybench",
        split=split,
        k=k,
        parents=tuple(f"p{i}" for i in range(parents)),
        slots=tuple(("a", "b") for _ in range(parents)),
        seeds=tuple(range(seeds)),
        par=par,
        sub=sub,
        truncated=np.zeros((parents, seeds)),
        turns=np.full((parents, seeds), 2.0 * k),
        hits=hits,
        present=np.ones((parents, seeds, k), dtype=bool),
    )


@pytest.mark.parametrize("target", ["this_benchmark", "problems_like_these"])
def test_false_alarms_stay_near_alpha_under_no_change(target: str) -> None:
    """200 seeded nights of 24 parents without a change (both targets, 4 metrics): the
    family-wise false-alarm rate stays within alpha + 2.5 Monte-Carlo standard errors."""
    rng = np.random.default_rng(34)
    settings_ = CompareSettings.model_validate({"n_resamples": 400, "target": target})
    nights, alarms = 200, 0
    for _ in range(nights):
        sides: list[dict[tuple[str, str], ClusterTable]] = [{}, {}]
        for split in ("a", "b"):
            rates = rng.beta(0.5, 0.8, size=(24, 1, 1, 2))
            for side in sides:
                side[("studybench", split)] = _table(rng.random((24, 3, 2, 2)) < rates, split)
        result = compare_evaluations(sides[0], sides[1], settings_)
        alarms += any(m.p_adjusted <= 0.05 for m in result.metrics)
    assert alarms / nights <= 0.05 + 2.5 * (0.05 * 0.95 / nights) ** 0.5


def test_every_parent_counts_and_a_gain_is_found() -> None:
    """The family sees every parent: with one parent changed in an exact test of 10 parents,
    the p-value is the brute-force one (a dropped parent would give 1 or another count)."""
    rng = np.random.default_rng(3)
    rates = rng.uniform(0.2, 0.8, size=(10, 1, 1, 2))
    base = rng.random((10, 3, 2, 2)) < rates
    cand = base.copy()
    cand[9] = True  # the last parent: all right
    b, c = _table(base, "s"), _table(cand, "s")
    settings_ = CompareSettings(n_resamples=1024, target="problems_like_these")
    result = compare_evaluations({("studybench", "s"): b}, {("studybench", "s"): c}, settings_)
    par = next(m for m in result.metrics if m.metric == "par_at_k")
    assert par.exact and par.parents == 10
    from studybench.metrics.pooled import align

    unit = align(b, c).metrics["par_at_k"]
    d = list(unit.candidate - unit.baseline)
    assert d[9] > 0 and par.p_value == pytest.approx(_brute_p(d))
    assert par.diff == pytest.approx(sum(d) / 10)


def test_the_fixed_items_interval_by_hand() -> None:
    # diff 0.1, variance 0.04 over a denominator of 2: se = sqrt(0.04) / 2 = 0.1; 95%: ± 1.96 se
    low, high, se = fixed_items_interval(0.1, 0.04, 2.0, 0.95)
    assert se == pytest.approx(0.1)
    assert (low, high) == pytest.approx((0.1 - 0.195996, 0.1 + 0.195996), abs=1e-5)
    low80, high80, _ = fixed_items_interval(0.1, 0.04, 2.0, 0.8)
    assert (low80, high80) == pytest.approx((0.1 - 0.128155, 0.1 + 0.128155), abs=1e-5)
    assert fixed_items_interval(0.1, 0.0, 2.0, 0.95) == (0.1, 0.1, 0.0)
    for variance, den in ((math.nan, 2.0), (0.04, 0.0)):
        assert all(math.isnan(v) for v in fixed_items_interval(0.1, variance, den, 0.95))


@pytest.mark.parametrize("parents", [13, 15, 16, 17, 88, 100])
def test_every_parent_gets_fair_random_signs(parents: int) -> None:
    flips = sign_flips(parents, 4000, np.random.default_rng(2))
    assert flips.signs.shape == (4000, parents) and not flips.exact
    share = (flips.signs > 0).mean(axis=0)
    assert np.all(np.abs(share - 0.5) < 0.05)  # no parent stuck on +1 (a short byte count)
