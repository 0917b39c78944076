"""What a split can detect: the minimum detectable effect of a paired comparison.

A paired comparison tests the mean of per-parent differences, so its power depends on the
standard deviation of those differences and on the number of parents, not on how hard the
problems are (pairing cancels that). The standardised effect of a two-sided paired
(one-sample) t-test is ``(t_{1-alpha/2, n-1} + t_{power, n-1}) / sqrt(n)``, the standard
closed form of its power equation (the t quantiles from the Cornish-Fisher expansion of
Abramowitz and Stegun 26.7.5); times the standard deviation it is the smallest true drop found
with the requested power. Written here rather than solved with statsmodels' ``TTestPower``
because importing statsmodels (and scipy.stats under it) took longer than a whole comparison;
the tests hold it to statsmodels' exact root: within 1% from 20 parents, 3% from 10.

Before any comparison exists (a single evaluation), the per-parent difference of two runs of
the same model is estimated from the seeds: ``sd_diff = sqrt(2 * sigma_w^2 / seeds)``
(two independent per-parent means, each averaging ``seeds`` draws).
"""

from __future__ import annotations

import math
from functools import lru_cache
from statistics import NormalDist

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


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (Cornish-Fisher
    expansion about the normal quantile, A&S 26.7.5: within 1e-3 for df >= 5)."""
    z = NormalDist().inv_cdf(p)
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


@lru_cache(maxsize=256)
def standardised_effect(parents: int, alpha: float, power: float) -> float:
    """Cohen's d a two-sided paired t-test over ``parents`` detects with ``power``."""
    df = parents - 1
    return (t_quantile(1 - alpha / 2, df) + t_quantile(power, df)) / math.sqrt(parents)


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
