"""One paired comparison of two evaluations: every metric, split and benchmark of their item
tables, with CIs, p-values adjusted together (Holm), decisions and what each split can detect.

This is the one implementation behind ``studybench metrics compare`` (item tables),
``studybench compare`` (MLflow runs) and the regression checks of the DAGs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from pydantic import BaseModel, Field

from studybench.metrics.clustered import METRICS, ClusterTable, Metric, cluster_tables
from studybench.metrics.decisions import Decision, decide, holm
from studybench.metrics.intervals import IntervalSettings
from studybench.metrics.paired import EvaluationInfo, check_comparable, compare_tables
from studybench.metrics.passk import VerdictRow
from studybench.metrics.power import minimum_detectable_effect, power_sentence


class CompareSettings(IntervalSettings):
    """Error rates and the effect size that matters (fractions: 0.02 = 2 points)."""

    alpha: float = 0.05
    min_effect: float = 0.0
    power: float = 0.8


class MetricResult(BaseModel):
    benchmark: str
    split: str
    metric: Metric
    key: str  # e.g. application/par_at_8
    k: int
    baseline: float
    candidate: float
    diff: float
    ci_low: float
    ci_high: float
    p_value: float
    p_adjusted: float
    decision: Decision
    parents: int
    exact: bool
    mde: float  # minimum detectable effect at the configured power (score units)

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

    @property
    def regression(self) -> bool:
        return any(m.decision == "regressed" for m in self.metrics)

    @property
    def regressions(self) -> list[MetricResult]:
        return [m for m in self.metrics if m.decision == "regressed"]

    def by_metric(self) -> dict[str, dict[str, float | str]]:
        """``{metric: {diff, ci_low, ci_high, p_value, p_adjusted, decision}}``; with one split
        the keys are the bare metric names (``par_at_k``), otherwise ``split/par_at_k``."""
        splits = {(m.benchmark, m.split) for m in self.metrics}
        out: dict[str, dict[str, float | str]] = {}
        for m in self.metrics:
            name = m.metric if len(splits) == 1 else metric_key(m.benchmark, m.split, m.metric)
            out[name] = {
                "diff": m.diff,
                "ci_low": m.ci_low,
                "ci_high": m.ci_high,
                "p_value": m.p_value,
                "p_adjusted": m.p_adjusted,
                "decision": m.decision,
            }
        return out


def metric_key(benchmark: str, split: str, metric: str, k: int | None = None) -> str:
    """``<split>/par_at_<k>`` for StudyBench, ``<benchmark>/<split>/...`` for the others."""
    name = metric.removesuffix("_k") + (f"_{k}" if k is not None else "_k")
    prefix = "" if benchmark == "studybench" else f"{benchmark}/"
    return f"{prefix}{split or 'all'}/{name}"


def metrics_of(table: ClusterTable) -> Sequence[Metric]:
    """Par@k and Sub@k; one of them when every parent has a single slot (they are equal)."""
    return ("par_at_k",) if table.single_slot else METRICS


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
    metric is one member of the Holm family."""
    settings = settings or CompareSettings()
    check_comparable(baseline, candidate, baseline_info, candidate_info)

    def chosen(table: ClusterTable) -> Sequence[Metric]:
        return metrics_of(table) if metrics is None else metrics

    family = sum(len(chosen(t)) for t in baseline.values())
    raw = []
    for key in sorted(baseline):
        for metric in chosen(baseline[key]):
            raw.append(
                (key, metric, compare_tables(baseline[key], candidate[key], metric, settings))
            )
    adjusted = holm([r.p_value for _, _, r in raw], settings.alpha)
    result = PairedComparison(
        baseline=(baseline_info.name if baseline_info else ""),
        candidate=(candidate_info.name if candidate_info else ""),
        settings=settings,
    )
    for (key, metric, r), p_adj in zip(raw, adjusted, strict=True):
        table = baseline[key]
        # Bonferroni at the first Holm step: the most conservative level a metric is tested at
        mde = minimum_detectable_effect(
            r.sd_diff,
            r.parents,
            alpha=settings.alpha / max(1, family),
            power=settings.power,
        )
        result.metrics.append(
            MetricResult(
                benchmark=key[0],
                split=key[1],
                metric=metric,
                key=metric_key(key[0], key[1], metric, table.k),
                k=table.k,
                baseline=r.baseline,
                candidate=r.candidate,
                diff=r.diff,
                ci_low=r.ci_low,
                ci_high=r.ci_high,
                p_value=r.p_value,
                p_adjusted=p_adj,
                decision=decide(
                    r.diff,
                    r.ci_low,
                    r.ci_high,
                    p_adj,
                    alpha=settings.alpha,
                    min_effect=settings.min_effect,
                ),
                parents=r.parents,
                exact=r.exact,
                mde=mde,
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
