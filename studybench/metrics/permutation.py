"""Sign-flip permutation tests over parents, for one metric or a whole family of them.

The unit is a parent's paired difference ``d_p`` (candidate minus baseline, its pooled
estimate: :mod:`studybench.metrics.pooled`). Assumptions, stated once:

* under "no change" the two evaluations of a parent are exchangeable, so ``d_p`` is as likely
  to be ``+d`` as ``-d``, independently across parents (parents are the clusters: the slots,
  seeds and attempts of a parent travel together, never flipped apart);
* for the *this benchmark* question (items fixed) that is exactly the null "no parent changed",
  and the enumeration of every sign pattern gives an exact p-value; with more than
  ``2**parents`` patterns than draws, ``n_resamples`` seeded random patterns give the
  Monte-Carlo p-value ``(1 + hits) / (1 + draws)``, which is valid at any number of draws;
* for the *problems like these* question (parents drawn from a population, null: the mean
  difference is zero) the statistic is studentised (``sum d / sqrt(sum d^2)``, a monotone
  function of the paired t statistic: ``sum d^2`` is the same under every sign pattern), which
  keeps the test asymptotically valid when the differences are not symmetric.

Family-wise error over the correlated metrics of one comparison (Par@k and Sub@k of every
split): Westfall and Young's step-down max-statistic method, with the *same* sign pattern of a
parent applied to every metric of its split (and independent patterns for other splits, which
hold other parents). It is valid under any dependence between the metrics and, because it
uses their actual correlation, loses less power than Holm, which assumes the worst.

Written with numpy rather than ``scipy.stats.permutation_test`` because the family needs one
set of sign patterns shared by every metric (scipy draws its own per call) and because the
whole family is then one matrix product.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from studybench.metrics.clustered import FloatArray

TIE = 1e-9  # a pattern's statistic within this of the observed one counts as "as extreme"


@dataclass(frozen=True)
class SignFlips:
    """Sign patterns (rows) over parents (columns); ``exact``: every pattern, once each."""

    signs: FloatArray
    exact: bool


def sign_flips(parents: int, n_resamples: int, rng: np.random.Generator) -> SignFlips:
    """Every one of the ``2**parents`` sign patterns when that is at most ``n_resamples``,
    otherwise ``n_resamples`` independent uniform patterns drawn from ``rng``."""
    if parents < 63 and 2**parents <= n_resamples:
        codes = np.arange(2**parents, dtype=np.int64)[:, None]
        bits = (codes >> np.arange(parents, dtype=np.int64)[None, :]) & 1
        return SignFlips(np.asarray(1.0 - 2.0 * bits, dtype=np.float64), True)
    # one random bit per (pattern, parent): the bytes of the generator, unpacked
    raw = np.frombuffer(rng.bytes(n_resamples * ((parents + 7) // 8)), dtype=np.uint8)
    drawn = np.unpackbits(raw.reshape(n_resamples, -1), axis=1, count=parents)
    return SignFlips(np.asarray(1.0 - 2.0 * drawn, dtype=np.float64), False)


def studentised(diffs: FloatArray) -> float:
    """``sum d / sqrt(sum d^2)`` (0 when every difference is 0)."""
    scale = math.sqrt(float((diffs**2).sum()))
    return float(diffs.sum()) / scale if scale else 0.0


def null_statistics(diffs: FloatArray, signs: FloatArray) -> FloatArray:
    """The studentised statistic under every sign pattern (one per row of ``signs``)."""
    scale = math.sqrt(float((diffs**2).sum()))
    if not scale:
        return np.zeros(len(signs))
    return np.asarray(signs @ diffs / scale, dtype=np.float64)


def _p_of_counts(counts: FloatArray, draws: int, exact: bool) -> FloatArray:
    if exact:
        return np.asarray(np.minimum(1.0, counts / draws), dtype=np.float64)
    return np.asarray(np.minimum(1.0, (counts + 1.0) / (draws + 1.0)), dtype=np.float64)


def two_sided_p(observed: float, null: FloatArray, exact: bool) -> float:
    """The share of sign patterns at least as extreme as ``observed`` (in absolute value)."""
    hits = float((np.abs(null) >= abs(observed) - TIE).sum())
    return float(_p_of_counts(np.array([hits]), len(null), exact)[0])


def step_down_max(observed: Sequence[float], null: FloatArray, exact: bool) -> list[float]:
    """Westfall-Young step-down adjusted p-values (maxT).

    Args:
        observed: each metric's statistic.
        null: patterns x metrics, each metric's statistic under the same patterns.

    The metric with the largest ``|t|`` is compared with the maximum over every metric of each
    pattern, the next one with the maximum over the metrics not yet stepped past, and so on;
    the adjusted p-values are then made monotone in that order."""
    t = np.abs(np.asarray(observed, dtype=np.float64))
    if t.size == 0:
        return []
    order = np.argsort(-t, kind="stable")
    tail_max = np.maximum.accumulate(np.abs(null[:, order[::-1]]), axis=1)[:, ::-1]
    counts = (tail_max >= t[order][None, :] - TIE).sum(axis=0).astype(np.float64)
    stepped = np.maximum.accumulate(_p_of_counts(counts, len(null), exact))
    adjusted = np.empty(t.size)
    adjusted[order] = stepped
    return [float(v) for v in adjusted]


def fixed_items_interval(
    diff: float, variance: float, den_total: float, confidence: float
) -> tuple[float, float, float]:
    """(low, high, se) of the difference with the items held fixed: only the model's sampling
    noise, ``sum_p (var_b + var_c) / (sum den)^2``, normal (the sum over ~90 parents)."""
    if not den_total or not math.isfinite(variance):
        return math.nan, math.nan, math.nan
    se = math.sqrt(max(0.0, variance)) / den_total
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    return diff - z * se, diff + z * se, se
