"""What a split can detect: the minimum detectable effect of a paired comparison.

A paired comparison tests the mean of per-parent differences, so its power depends on the
standard deviation of those differences and on the number of parents, not on how hard the
problems are (pairing cancels that). statsmodels solves the paired (one-sample) t-test power
equation for the standardised effect; times the standard deviation it is the smallest true
drop found with the requested power.

Before any comparison exists (a single evaluation), the per-parent difference of two runs of
the same model is estimated from the seeds: ``sd_diff = sqrt(2 * sigma_w^2 / seeds)``
(two independent per-parent means, each averaging ``seeds`` draws).
"""

from __future__ import annotations

import math
from functools import lru_cache

from statsmodels.stats.power import TTestPower

from studybench.metrics.clustered import ClusterTable, Metric
from studybench.metrics.intervals import within_seed_sd


def minimum_detectable_effect(
    sd_diff: float, parents: int, *, alpha: float = 0.05, power: float = 0.8
) -> float:
    """The smallest mean per-parent difference a two-sided paired test at ``alpha`` detects
    with probability ``power`` (score units; NaN when it cannot be estimated)."""
    if parents < 2 or not math.isfinite(sd_diff):
        return math.nan
    if sd_diff == 0:
        return 0.0
    return standardised_effect(parents, alpha, power) * sd_diff


@lru_cache(maxsize=256)
def standardised_effect(parents: int, alpha: float, power: float) -> float:
    """Cohen's d a two-sided paired t-test over ``parents`` detects with ``power`` (cached:
    the root finding is the slow part and depends only on these three numbers)."""
    effect = TTestPower().solve_power(
        effect_size=None, nobs=parents, alpha=alpha, power=power, alternative="two-sided"
    )
    return float(effect)


def null_sd_diff(table: ClusterTable, metric: Metric) -> float:
    """The standard deviation of a per-parent difference between two runs of the same model,
    from the seed spread of one evaluation."""
    seeds = len(table.seeds)
    sigma_w = within_seed_sd(table, metric)
    return math.sqrt(2.0) * sigma_w / math.sqrt(seeds) if seeds else math.nan


def split_mde(
    table: ClusterTable, metric: Metric, *, alpha: float = 0.05, power: float = 0.8
) -> float:
    """The minimum detectable effect of comparing this evaluation with a rerun of it."""
    return minimum_detectable_effect(
        null_sd_diff(table, metric), len(table.parents), alpha=alpha, power=power
    )


def power_sentence(
    split: str, metric: str, mde: float, threshold: float, *, power: float = 0.8
) -> str | None:
    """The plain-language warning when the configured threshold is below what a split can
    detect (``None`` when the split can detect it)."""
    if not math.isfinite(mde) or mde <= threshold:
        return None
    return (
        f"{split}: this split cannot detect a drop smaller than {100 * mde:.1f} points "
        f"({metric}, {100 * power:.0f}% power; the configured minimum effect is "
        f"{100 * threshold:.1f} points)"
    )
