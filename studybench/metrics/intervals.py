"""Confidence intervals clustered by parent, and the two variance components of a score.

The interval answers "if we drew another set of ~90 problems like these, where would the score
be?": a bootstrap that resamples whole parents (with all their slots, seeds and attempts) and
recomputes the score as a ratio of per-parent sums. The mean ± std over seeds answers a
different, smaller question (how much the same problems move from seed to seed), so both are
reported, and the variance of the score is split into those two parts:

* ``seed_variance``: within-parent variance over seeds, divided by seeds x parents;
* ``problem_variance``: the variance of the per-parent means that seeds do not explain,
  divided by parents (the part that dominates on a benchmark of ~100 problems).

numpy draws the resamples (percentile and basic intervals; scipy's ``bootstrap`` for BCa, imported
only then: importing scipy.stats takes longer than a whole comparison); a fixed seed makes every
interval reproducible.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable
from typing import Literal

import numpy as np
from pydantic import BaseModel

from studybench.metrics.clustered import ClusterTable, FloatArray, Metric

Method = Literal["percentile", "basic", "BCa"]


class IntervalSettings(BaseModel):
    """How intervals are drawn (defaults: a 95% percentile bootstrap of 9,999 resamples)."""

    confidence: float = 0.95
    n_resamples: int = 9999
    method: Method = "percentile"
    seed: int = 0


class Interval(BaseModel):
    """One headline score with its seed spread, its clustered CI and its variance parts."""

    benchmark: str
    split: str
    metric: Metric
    k: int
    value: float
    seed_std: float
    ci_low: float
    ci_high: float
    confidence: float
    parents: int
    seeds: int
    se: float
    seed_variance: float
    problem_variance: float


def rng_for(seed: int, *labels: str) -> np.random.Generator:
    """A generator per (seed, benchmark, split, metric): results do not depend on the order in
    which metrics are computed."""
    salt = zlib.crc32("|".join(labels).encode("utf-8"))
    return np.random.default_rng([seed, salt])


def ratio(num: FloatArray, den: FloatArray, axis: int = -1) -> FloatArray:
    """Sum of numerators over sum of denominators (vectorised for scipy's resamples)."""
    return np.asarray(num.sum(axis=axis) / den.sum(axis=axis), dtype=np.float64)


def bootstrap_ci(
    data: tuple[FloatArray, ...],
    statistic: Callable[..., FloatArray],
    settings: IntervalSettings,
    rng: np.random.Generator,
) -> tuple[float, float]:
    """A paired (cluster) bootstrap CI of ``statistic`` over the rows of ``data``.

    Fewer than two clusters have no interval (NaN); identical clusters have a zero-width one.
    """
    n = len(data[0])
    if n < 2:
        return math.nan, math.nan
    point = float(statistic(*data, axis=-1))
    if all(np.all(d == d[0]) for d in data):
        return point, point
    if settings.method == "BCa":
        from scipy import stats

        result = stats.bootstrap(
            data,
            statistic,
            n_resamples=settings.n_resamples,
            vectorized=True,
            paired=True,
            confidence_level=settings.confidence,
            method=settings.method,
            rng=rng,
        )
        return float(result.confidence_interval.low), float(result.confidence_interval.high)
    rows = rng.integers(0, n, size=(settings.n_resamples, n))
    values = np.asarray(statistic(*(d[rows] for d in data), axis=-1), dtype=np.float64)
    tail = (1.0 - settings.confidence) / 2
    low, high = np.nanquantile(values, [tail, 1.0 - tail])
    if settings.method == "basic":
        return 2 * point - float(high), 2 * point - float(low)
    return float(low), float(high)


def variance_components(table: ClusterTable, metric: Metric) -> tuple[float, float, float]:
    """(seed_variance, problem_variance, se) of the score, as contributions to its variance.

    The score is the mean over parents of ``z[p, s] = num[p, s] * P / sum(den)``; one-way
    random-effects decomposition: ``sigma_w^2`` = mean over parents of the variance over
    seeds, ``seed_variance = sigma_w^2 / (S * P)``, ``problem_variance = max(0, var_p(mean_s z)
    - sigma_w^2 / S) / P``, ``se = sqrt(var_p(mean_s z) / P)`` (the clustered standard error).
    """
    num, den = table.arrays(metric)
    parents, seeds = num.shape
    if parents == 0 or den.sum() == 0:
        return 0.0, 0.0, 0.0
    z = num * parents / den.sum()
    within = float(z.var(axis=1, ddof=1).mean()) if seeds > 1 else 0.0
    between = float(z.mean(axis=1).var(ddof=1)) if parents > 1 else 0.0
    seed_var = within / (seeds * parents)
    problem_var = max(0.0, between - within / seeds) / parents
    return seed_var, problem_var, math.sqrt(between / parents)


def within_seed_sd(table: ClusterTable, metric: Metric) -> float:
    """The per-parent standard deviation over seeds, pooled (``sigma_w``), in score units of
    one parent's contribution: what pairing leaves of the noise of a per-parent difference."""
    num, den = table.arrays(metric)
    parents, seeds = num.shape
    if seeds < 2 or parents == 0 or den.sum() == 0:
        return math.nan
    z = num * parents / den.sum()
    return math.sqrt(float(z.var(axis=1, ddof=1).mean()))


def interval(
    table: ClusterTable, metric: Metric, settings: IntervalSettings | None = None
) -> Interval:
    """The score of ``metric`` with mean ± std over seeds and a CI clustered by parent."""
    settings = settings or IntervalSettings()
    num, den = table.per_parent(metric)
    per_seed = table.per_seed(metric)
    low, high = bootstrap_ci(
        (num, den),
        ratio,
        settings,
        rng_for(settings.seed, table.benchmark, table.split, metric),
    )
    seed_var, problem_var, se = variance_components(table, metric)
    return Interval(
        benchmark=table.benchmark,
        split=table.split,
        metric=metric,
        k=table.k,
        value=table.value(metric),
        seed_std=float(np.std(per_seed, ddof=1)) if len(per_seed) > 1 else 0.0,
        ci_low=low,
        ci_high=high,
        confidence=settings.confidence,
        parents=len(table.parents),
        seeds=len(table.seeds),
        se=se,
        seed_variance=seed_var,
        problem_variance=problem_var,
    )
