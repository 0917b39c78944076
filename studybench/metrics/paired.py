"""Paired comparison of two evaluations of the same items.

Both runs answer the same parents, so the comparison works on per-parent differences: what
makes a problem hard is the same for both and cancels, and only the runs' own noise is left.
The difference of a ratio score is ``sum_p (c_p - b_p) / sum_p den_p``; its interval is a
paired bootstrap over parents (scipy), its p-value a sign-flip permutation test (under "no
change" the two runs of a parent are exchangeable: :mod:`studybench.metrics.permutation`).
With at most ``n_resamples`` sign patterns (``2**parents``) every one is enumerated: the
p-value is exact.

Comparing evaluations of different items, benchmarks, splits, data versions, protocols or
instruments (verifier or judge versions) is refused: the difference would mean nothing, or
would measure the change of instrument rather than of the model.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from pydantic import BaseModel

from studybench.errors import StudyBenchError
from studybench.metrics.clustered import ClusterTable, FloatArray, Metric
from studybench.metrics.intervals import IntervalSettings, bootstrap_ci, rng_for
from studybench.metrics.permutation import null_statistics, sign_flips, studentised, two_sided_p


class ComparisonRefusedError(StudyBenchError):
    """The two evaluations do not answer the same items under the same protocol."""


class EvaluationInfo(BaseModel):
    """What must match between two evaluations (empty = unknown, not checked)."""

    name: str = ""
    data_version: str = ""
    protocol: str = ""
    verifier_version: str = ""
    judge_version: str = ""


INSTRUMENTS = ("verifier_version", "judge_version")


def instruments(
    baseline_info: EvaluationInfo | None, candidate_info: EvaluationInfo | None
) -> dict[str, str]:
    """The verifier and judge versions a comparison's decision used (those known on either
    side; :func:`check_comparable` has refused any that differ)."""
    out = {}
    for field in INSTRUMENTS:
        values = [getattr(i, field) for i in (baseline_info, candidate_info) if i]
        known = next((v for v in values if v), "")
        if known:
            out[field] = known
    return out


class PairedStats(BaseModel):
    baseline: float
    candidate: float
    diff: float
    ci_low: float
    ci_high: float
    p_value: float
    parents: int
    sd_diff: float  # of the per-parent difference, in units of one parent's contribution
    exact: bool


def check_comparable(
    baseline: Mapping[tuple[str, str], ClusterTable],
    candidate: Mapping[tuple[str, str], ClusterTable],
    baseline_info: EvaluationInfo | None = None,
    candidate_info: EvaluationInfo | None = None,
) -> None:
    """Raise :class:`ComparisonRefusedError` naming the first difference that makes two
    evaluations incomparable."""
    b_info, c_info = baseline_info or EvaluationInfo(), candidate_info or EvaluationInfo()
    b_name, c_name = b_info.name or "baseline", c_info.name or "candidate"
    for field in ("data_version", "protocol"):
        b_value, c_value = getattr(b_info, field), getattr(c_info, field)
        if b_value and c_value and b_value != c_value:
            raise ComparisonRefusedError(
                f"refusing to compare: {field.replace('_', ' ')} differs ({b_name}: "
                f"{b_value}, {c_name}: {c_value})"
            )
    for field in INSTRUMENTS:
        b_value, c_value = getattr(b_info, field), getattr(c_info, field)
        if b_value and c_value and b_value != c_value:
            raise ComparisonRefusedError(
                f"refusing to compare: {field.replace('_', ' ')} differs ({b_name}: "
                f"{b_value}, {c_name}: {c_value}); re-score the older side with the current "
                "instruments first (studybench rescore)"
            )
    if not baseline or not candidate:
        empty = b_name if not baseline else c_name
        raise ComparisonRefusedError(f"refusing to compare: {empty} has no item rows")
    if set(baseline) != set(candidate):
        only_b = sorted(set(baseline) - set(candidate))
        only_c = sorted(set(candidate) - set(baseline))
        raise ComparisonRefusedError(
            "refusing to compare: benchmarks/splits differ "
            f"(only in {b_name}: {[f'{b}/{s}' for b, s in only_b]}, "
            f"only in {c_name}: {[f'{b}/{s}' for b, s in only_c]})"
        )
    for key in sorted(baseline):
        b, c = baseline[key], candidate[key]
        where = f"{key[0]}/{key[1] or '-'}"
        if b.k != c.k:
            raise ComparisonRefusedError(
                f"refusing to compare {where}: k differs ({b_name}: {b.k}, {c_name}: {c.k})"
            )
        if b.parents != c.parents:
            missing = sorted(set(b.parents) - set(c.parents))[:3]
            extra = sorted(set(c.parents) - set(b.parents))[:3]
            raise ComparisonRefusedError(
                f"refusing to compare {where}: the parents differ ({len(b.parents)} vs "
                f"{len(c.parents)}; not in {c_name}: {missing}, not in {b_name}: {extra})"
            )
        for parent, b_slots, c_slots in zip(b.parents, b.slots, c.slots, strict=True):
            if b_slots != c_slots:
                raise ComparisonRefusedError(
                    f"refusing to compare {where}: parent {parent!r} has slots "
                    f"{list(b_slots)} in {b_name} but {list(c_slots)} in {c_name}"
                )


def paired_stats(
    baseline: FloatArray,
    candidate: FloatArray,
    den: FloatArray,
    settings: IntervalSettings,
    rng: np.random.Generator,
) -> PairedStats:
    """Paired difference of two ratio scores over the same clusters.

    Args:
        baseline, candidate: per-cluster numerators (averaged over seeds), same order.
        den: per-cluster denominators (the same for both runs: the same items).
    """
    total = float(den.sum())
    diffs = candidate - baseline
    parents = len(diffs)

    def diff_of(d: FloatArray, w: FloatArray, axis: int = -1) -> FloatArray:
        return np.asarray(d.sum(axis=axis) / w.sum(axis=axis), dtype=np.float64)

    low, high = bootstrap_ci((diffs, den), diff_of, settings, rng)
    if not np.any(diffs):  # every sign pattern gives 0: p = 1 exactly, nothing to draw
        p_value, exact = 1.0, True
    else:
        flips = sign_flips(parents, settings.n_resamples, rng)
        t = studentised(diffs)
        p_value = two_sided_p(t, null_statistics(diffs, flips.signs), flips.exact)
        exact = flips.exact
    z = diffs * parents / total if total else diffs
    return PairedStats(
        baseline=float(baseline.sum() / total) if total else 0.0,
        candidate=float(candidate.sum() / total) if total else 0.0,
        diff=float(diffs.sum() / total) if total else 0.0,
        ci_low=low,
        ci_high=high,
        p_value=p_value,
        parents=parents,
        sd_diff=float(z.std(ddof=1)) if parents > 1 else float("nan"),
        exact=exact,
    )


def compare_tables(
    baseline: ClusterTable,
    candidate: ClusterTable,
    metric: Metric,
    settings: IntervalSettings | None = None,
) -> PairedStats:
    """The paired comparison of one metric of one (benchmark, split); the tables must have
    passed :func:`check_comparable`."""
    settings = settings or IntervalSettings()
    b_num, den = baseline.per_parent(metric)
    c_num, _ = candidate.per_parent(metric)
    rng = rng_for(settings.seed, baseline.benchmark, baseline.split, metric, "paired")
    return paired_stats(b_num, c_num, den, settings, rng)
