"""Decisions that control error rates: improved, regressed or unchanged.

One comparison tests several metrics at once (Par@k and Sub@k of every split of every
benchmark), so the p-values are adjusted with Holm's step-down method, which keeps the
chance of any false alarm in the comparison at ``alpha``. A metric then changes
only when all three hold:

* its Holm-adjusted p-value is at most ``alpha``;
* its confidence interval of the difference lies on one side of zero;
* the estimated difference is at least the minimum effect a lab cares about.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

import numpy as np

Decision = Literal["improved", "regressed", "unchanged"]


def holm(p_values: Sequence[float], alpha: float = 0.05) -> list[float]:
    """Holm-adjusted p-values (monotone, capped at 1), in the order given; ``alpha`` is the
    level they are compared with (:func:`decide`) and does not change them.

    Written here rather than taken from statsmodels' ``multipletests``: its Holm branch runs a
    full ``gc.collect()`` on every call, about a second in a large process (a scheduler
    worker, a test session). The tests check this against statsmodels."""
    p = np.asarray(p_values, dtype=float)
    if p.size == 0:
        return []
    order = np.argsort(p, kind="stable")
    stepped = np.maximum.accumulate(p[order] * np.arange(p.size, 0, -1))
    adjusted = np.empty(p.size)
    adjusted[order] = np.minimum(stepped, 1.0)
    return [float(v) for v in adjusted]


def decide(
    diff: float,
    ci_low: float,
    ci_high: float,
    p_adjusted: float,
    *,
    alpha: float = 0.05,
    min_effect: float = 0.0,
) -> Decision:
    """The decision of one metric (a NaN interval or p-value decides nothing)."""
    if any(math.isnan(v) for v in (diff, ci_low, ci_high, p_adjusted)) or p_adjusted > alpha:
        return "unchanged"
    if ci_high < 0 and diff <= -min_effect:
        return "regressed"
    if ci_low > 0 and diff >= min_effect:
        return "improved"
    return "unchanged"
