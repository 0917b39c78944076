"""One paired comparison of two evaluations: every metric, split and benchmark of their item
tables, with CIs for two questions, p-values adjusted together, decisions and what each split
can detect.

The unit of the test is a parent's pooled estimate (:mod:`studybench.metrics.pooled`: every
attempt of every seed, the unbiased pass@k estimator), the test a sign-flip permutation over
parents, exact for small splits, and the family (every metric of every split) is controlled by
Westfall-Young's step-down max-statistic over the same sign patterns
(:mod:`studybench.metrics.permutation`); Holm when the settings ask for it.

Two questions, both reported (``targets``), one deciding (``CompareSettings.target``):

* ``this_benchmark`` (default): the items are fixed; only the model's sampling noise counts.
  "Did the model change on these problems?" is what a nightly or checkpoint comparison asks
  (the same fixed items every night) and what the paper's ± std over seeds speaks to. Its
  interval is the difference ± the jackknife sampling error of the per-parent estimates.
* ``problems_like_these``: the parents are a sample of a population of problems; "would the
  gain hold on new problems like these?" is the claim of a method paper. Its interval is the
  paired bootstrap over parents, wider because parents differ in how much they change.

The sign-flip p-value answers both (exactly for the first, asymptotically for the second).

The paper's figures are untouched: ``baseline``/``candidate`` are the mean over seeds of the
per-seed scores and ``baseline_std``/``candidate_std`` their sample std (ddof 1); ``diff`` is
the test's own estimate (the pooled difference over the parents the test kept).

This is the one implementation behind ``studybench metrics compare`` (item tables),
``studybench compare`` (MLflow runs) and the regression checks of the DAGs.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, Field

from studybench.metrics.clustered import (
    METRICS,
    ClusterTable,
    FloatArray,
    Metric,
    cluster_tables,
)
from studybench.metrics.decisions import Decision, decide, holm
from studybench.metrics.intervals import IntervalSettings, bootstrap_ci, ratio, rng_for
from studybench.metrics.paired import EvaluationInfo, check_comparable, instruments
from studybench.metrics.passk import VerdictRow
from studybench.metrics.permutation import (
    fixed_items_interval,
    null_statistics,
    sign_flips,
    step_down_max,
    studentised,
    two_sided_p,
)
from studybench.metrics.pooled import AlignedPair, PooledMetric, Unit, align
from studybench.metrics.power import minimum_detectable_effect, power_sentence

Target = Literal["this_benchmark", "problems_like_these"]
Multiplicity = Literal["westfall-young", "holm"]
TARGETS: tuple[Target, ...] = ("this_benchmark", "problems_like_these")


class CompareSettings(IntervalSettings):
    """Error rates, the effect size that matters (fractions: 0.02 = 2 points) and the test.

    ``target``: the question the decision answers (module doc); ``unit``: ``pooled`` (every
    attempt, the unbiased estimator) or ``seed-mean`` (per-seed Par@k averaged, the rule
    before pooling, kept for comparison figures); ``multiplicity``: ``westfall-young`` (the
    same sign patterns for every metric) or ``holm``."""

    alpha: float = 0.05
    min_effect: float = 0.0
    power: float = 0.8
    target: Target = "this_benchmark"
    unit: Unit = "pooled"
    multiplicity: Multiplicity = "westfall-young"


class TargetInterval(BaseModel):
    """The interval and the p-values of the difference for one inferential target."""

    ci_low: float
    ci_high: float
    se: float = math.nan
    p_value: float = math.nan
    p_adjusted: float = math.nan  # over the comparison's family


class MetricResult(BaseModel):
    benchmark: str
    split: str
    metric: Metric
    key: str  # e.g. application/par_at_8
    k: int
    baseline: float  # the paper's figure: mean over seeds
    candidate: float
    diff: float  # the test's estimate (pooled units, kept parents)
    ci_low: float  # of the deciding target
    ci_high: float
    p_value: float
    p_adjusted: float
    decision: Decision
    parents: int
    exact: bool
    mde: float  # minimum detectable effect at the configured power (score units)
    baseline_std: float = math.nan  # the paper's ± (sample std over seeds)
    candidate_std: float = math.nan
    targets: dict[str, TargetInterval] = Field(default_factory=dict)
    target: str = "problems_like_these"  # which target decided
    dropped: int = 0  # parents left out under the unequal-data rule

    def describe(self) -> str:
        return (
            f"{self.key}: {100 * self.baseline:.1f} -> {100 * self.candidate:.1f} "
            f"({100 * self.diff:+.1f} points, {100 * self.ci_low:+.1f} to "
            f"{100 * self.ci_high:+.1f}; p={self.p_value:.3g}, Holm {self.p_adjusted:.3g}) "
            f"{self.decision}"
        )


class PairedComparison(BaseModel):
    baseline: str = ""
    candidate: str = ""
    settings: CompareSettings
    metrics: list[MetricResult] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)  # power sentences
    warnings: list[str] = Field(default_factory=list)  # unequal data (named), fallbacks
    method: str = ""  # the test, in words
    multiplicity: Multiplicity = "westfall-young"
    instruments: dict[str, str] = Field(default_factory=dict)  # verifier/judge versions used

    @property
    def regression(self) -> bool:
        return any(m.decision == "regressed" for m in self.metrics)

    @property
    def regressions(self) -> list[MetricResult]:
        return [m for m in self.metrics if m.decision == "regressed"]

    def by_metric(self) -> dict[str, dict[str, Any]]:
        """``{metric: {diff, ci_low, ci_high, p_value, p_adjusted, decision, mde, baseline,
        candidate, baseline_std, candidate_std, targets}}``; with one split the keys are the
        bare metric names (``par_at_k``), otherwise ``split/par_at_k``."""
        splits = {(m.benchmark, m.split) for m in self.metrics}
        out: dict[str, dict[str, Any]] = {}
        for m in self.metrics:
            name = m.metric if len(splits) == 1 else metric_key(m.benchmark, m.split, m.metric)
            out[name] = {
                "diff": m.diff,
                "ci_low": m.ci_low,
                "ci_high": m.ci_high,
                "p_value": m.p_value,
                "p_adjusted": m.p_adjusted,
                "decision": m.decision,
                "mde": m.mde,
                "baseline": m.baseline,
                "candidate": m.candidate,
                "baseline_std": m.baseline_std,
                "candidate_std": m.candidate_std,
                "targets": {t: v.model_dump() for t, v in m.targets.items()},
            }
        return out

    def summary(self) -> dict[str, Any]:
        """What the JSON output says about the comparison as a whole."""
        return {
            "target": self.settings.target,
            "unit": self.settings.unit,
            "multiplicity": self.multiplicity,
            "method": self.method,
            "instruments": self.instruments,
            "warnings": self.warnings,
            "notes": self.notes,
        }


def metric_key(benchmark: str, split: str, metric: str, k: int | None = None) -> str:
    """``<split>/par_at_<k>`` for StudyBench, ``<benchmark>/<split>/...`` for the others."""
    name = metric.removesuffix("_k") + (f"_{k}" if k is not None else "_k")
    prefix = "" if benchmark == "studybench" else f"{benchmark}/"
    return f"{prefix}{split or 'all'}/{name}"


def metrics_of(table: ClusterTable) -> Sequence[Metric]:
    """Par@k and Sub@k; one of them when every parent has a single slot (they are equal)."""
    return ("par_at_k",) if table.single_slot else METRICS


def _seed_std(table: ClusterTable, metric: Metric) -> float:
    per_seed = table.per_seed(metric)
    return float(np.std(per_seed, ddof=1)) if len(per_seed) > 1 else 0.0


def test_inputs(unit: PooledMetric, chains: int, target: str) -> FloatArray:
    """What the sign flips act on for one metric: the per-parent differences, and for *this
    benchmark* each divided by its sampling sd (a sum of per-parent z-scores).

    Under the sharp null of *this benchmark* (no parent changed) swapping a parent's two
    evaluations flips its difference and leaves ``var_b + var_c`` as it was, so any weights
    built from it keep the test exact; dividing by the sd stops the noisiest parents from
    drowning the signal of the stable ones (on the simulated nights: 94% instead of 81%
    detection of a 9-point gain of Par@8 at the same false alarms). The floor
    ``den^2 / (4 n)`` (the variance of a pass@1 mean of ``n`` chains at 50%) keeps the weight
    of a parent whose chains all agree (jackknife variance 0) finite. *Problems like these*
    asks about the unweighted mean of the parents, so it flips the raw differences."""
    d = unit.candidate - unit.baseline
    variance = unit.baseline_var + unit.candidate_var
    if target != "this_benchmark" or not np.all(np.isfinite(variance)) or chains < 1:
        return np.asarray(d, dtype=np.float64)
    return np.asarray(d / np.sqrt(variance + unit.den**2 / (4 * chains)), dtype=np.float64)


def _method(settings: CompareSettings, exact: bool, family: int, multiplicity: str) -> str:
    unit = (
        "pooled unbiased pass@k per parent (every attempt of every seed)"
        if settings.unit == "pooled"
        else "per-seed scores averaged per parent"
    )
    flips = "every sign pattern (exact)" if exact else f"{settings.n_resamples} seeded patterns"
    family_rule = (
        "Westfall-Young step-down maxT over the same sign patterns"
        if multiplicity == "westfall-young"
        else "Holm"
    )
    statistic = (
        "per-parent differences over their sampling sd"
        if settings.target == "this_benchmark"
        else "per-parent differences"
    )
    return (
        f"{unit}; sign-flip permutation over parents of the {statistic}, {flips}; "
        f"{family_rule} over {family} metric(s); decision on "
        f"{settings.target.replace('_', ' ')}"
    )


def compare_evaluations(
    baseline: Mapping[tuple[str, str], ClusterTable],
    candidate: Mapping[tuple[str, str], ClusterTable],
    settings: CompareSettings | None = None,
    *,
    baseline_info: EvaluationInfo | None = None,
    candidate_info: EvaluationInfo | None = None,
    metrics: Sequence[Metric] | None = None,
) -> PairedComparison:
    """Compare per-parent tables (refuses incomparable evaluations).

    ``metrics``: the metrics to test (default :func:`metrics_of` each table); every tested
    metric is one member of the family."""
    settings = settings or CompareSettings()
    check_comparable(baseline, candidate, baseline_info, candidate_info)
    names = (
        (baseline_info.name if baseline_info else "") or "baseline",
        (candidate_info.name if candidate_info else "") or "candidate",
    )

    def chosen(table: ClusterTable) -> Sequence[Metric]:
        return metrics_of(table) if metrics is None else metrics

    keys = sorted(baseline)
    aligned: dict[tuple[str, str], AlignedPair] = {
        key: align(baseline[key], candidate[key], settings.unit, names=names) for key in keys
    }
    offsets, total = {}, 0
    for key in keys:
        offsets[key] = total
        total += len(aligned[key].parents)
    flips = sign_flips(
        total, settings.n_resamples, rng_for(settings.seed, "sign-flips", *map("/".join, keys))
    )
    members = [(key, metric) for key in keys for metric in chosen(baseline[key])]
    columns = {  # each split's parents' patterns, contiguous for a fast matrix product
        key: np.ascontiguousarray(flips.signs[:, offsets[key] : offsets[key] + len(pair.parents)])
        for key, pair in aligned.items()
    }
    multiplicity: Multiplicity = settings.multiplicity
    raw_p: dict[str, list[float]] = {}
    adjusted: dict[str, list[float]] = {}
    for question in TARGETS:
        observed, nulls = [], []
        for key, metric in members:
            x = test_inputs(aligned[key].metrics[metric], aligned[key].chains, question)
            observed.append(studentised(x))
            nulls.append(null_statistics(x, columns[key]))
        raw_p[question] = [
            two_sided_p(t, n, flips.exact) for t, n in zip(observed, nulls, strict=True)
        ]
        if multiplicity == "westfall-young" and members:
            adjusted[question] = step_down_max(observed, np.column_stack(nulls), flips.exact)
        else:
            adjusted[question] = holm(raw_p[question], settings.alpha)
    result = PairedComparison(
        baseline=(baseline_info.name if baseline_info else ""),
        candidate=(candidate_info.name if candidate_info else ""),
        settings=settings,
        multiplicity=multiplicity,
        method=_method(settings, flips.exact, len(members), multiplicity),
        instruments=instruments(baseline_info, candidate_info),
    )
    for key in keys:
        result.warnings.extend(aligned[key].warnings)
    family = len(members)
    fallbacks: list[str] = []
    for index, (key, metric) in enumerate(members):
        p, p_adj = raw_p[settings.target][index], adjusted[settings.target][index]
        table, pair = baseline[key], aligned[key]
        unit = pair.metrics[metric]
        d, den = unit.candidate - unit.baseline, unit.den
        den_total = float(den.sum())
        parents = len(d)
        diff = float(d.sum()) / den_total if den_total else math.nan
        low, high, se = fixed_items_interval(
            diff, float((unit.baseline_var + unit.candidate_var).sum()), den_total,
            settings.confidence,
        )  # fmt: skip
        rng = rng_for(settings.seed, key[0], key[1], metric, "paired")
        pop_low, pop_high = bootstrap_ci((d, den), ratio, settings, rng)
        z = d * parents / den_total if den_total else d  # diff = mean of z
        sd_diff = float(z.std(ddof=1)) if parents > 1 else math.nan
        intervals = {
            "this_benchmark": (low, high, se),
            "problems_like_these": (
                pop_low, pop_high, sd_diff / math.sqrt(parents) if parents else math.nan
            ),
        }  # fmt: skip
        targets: dict[str, TargetInterval] = {
            t: TargetInterval(
                ci_low=intervals[t][0],
                ci_high=intervals[t][1],
                se=intervals[t][2],
                p_value=raw_p[t][index],
                p_adjusted=adjusted[t][index],
            )
            for t in TARGETS
        }
        target: str = settings.target
        if not math.isfinite(targets[target].ci_low):
            other = next(t for t in TARGETS if t != target)
            if math.isfinite(targets[other].ci_low):
                fallbacks.append(metric_key(key[0], key[1], metric, table.k))
                target = other
        ci = targets[target]
        # Bonferroni at the first step: the most conservative level a metric is tested at
        mde = minimum_detectable_effect(
            sd_diff, parents, alpha=settings.alpha / max(1, family), power=settings.power
        )
        result.metrics.append(
            MetricResult(
                benchmark=key[0],
                split=key[1],
                metric=metric,
                key=metric_key(key[0], key[1], metric, table.k),
                k=table.k,
                baseline=table.value(metric),
                candidate=candidate[key].value(metric),
                diff=diff,
                ci_low=ci.ci_low,
                ci_high=ci.ci_high,
                p_value=p,
                p_adjusted=p_adj,
                decision=decide(
                    diff,
                    ci.ci_low,
                    ci.ci_high,
                    p_adj,
                    alpha=settings.alpha,
                    min_effect=settings.min_effect,
                ),
                parents=parents,
                exact=flips.exact,
                mde=mde,
                baseline_std=_seed_std(table, metric),
                candidate_std=_seed_std(candidate[key], metric),
                targets=targets,
                target=target,
                dropped=len(pair.dropped),
            )
        )
        sentence = power_sentence(
            key[1] or "all",
            metric_key(key[0], key[1], metric, table.k).rsplit("/", 1)[-1],
            mde,
            settings.min_effect,
            power=settings.power,
        )
        if sentence:
            result.notes.append(sentence)
    if fallbacks:
        wanted = settings.target.replace("_", " ")
        result.warnings.append(
            f"no {wanted} interval for {', '.join(fallbacks)} (a parent needs more than k "
            f"attempts over its seeds to show its sampling noise): decided on the other target"
        )
    return result


def compare_items(
    baseline: Iterable[VerdictRow],
    candidate: Iterable[VerdictRow],
    settings: CompareSettings | None = None,
    *,
    k: int | None = None,
    slots_of: Mapping[str, Sequence[str]] | None = None,
    baseline_info: EvaluationInfo | None = None,
    candidate_info: EvaluationInfo | None = None,
    metrics: Sequence[Metric] | None = None,
) -> PairedComparison:
    """Compare two item (or verdict) tables: the entry point of every caller."""
    return compare_evaluations(
        cluster_tables(baseline, k=k, slots_of=slots_of),
        cluster_tables(candidate, k=k, slots_of=slots_of),
        settings,
        baseline_info=baseline_info,
        candidate_info=candidate_info,
        metrics=metrics,
    )
