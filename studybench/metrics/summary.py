"""The statistics of one evaluation, per split: intervals, variance parts, what the split can
detect, and generation health. One function feeds the report, the DAG log and MLflow.

Generation health: the share of truncated turns (finish reason ``length`` or an unterminated
think; :attr:`ItemRow.truncated`) among judged turns, per split and per seed. A truncated turn
is scored as a failure, never silently as an answer; a high share says the token budget, not
the model's knowledge, decided the score.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

from pydantic import BaseModel, Field

from studybench.metrics.clustered import ClusterTable, Metric, cluster_tables
from studybench.metrics.comparison import CompareSettings, metric_key, metrics_of
from studybench.metrics.intervals import Interval, interval
from studybench.metrics.passk import VerdictRow
from studybench.metrics.power import power_sentence, split_mde


class Truncation(BaseModel):
    share: float  # truncated turns / judged turns over every seed
    per_seed: dict[int, float] = Field(default_factory=dict)
    turns: int = 0


class SplitStatistics(BaseModel):
    benchmark: str
    split: str
    k: int
    intervals: list[Interval]
    mde: dict[str, float] = Field(default_factory=dict)  # metric -> minimum detectable effect
    notes: list[str] = Field(default_factory=list)  # what the split cannot detect
    truncation: Truncation

    def lines(self) -> list[str]:
        """Plain-language lines for a report or a log."""
        out = []
        for i in self.intervals:
            label = "Par" if i.metric == "par_at_k" else "Sub"
            out.append(
                f"{self.split or self.benchmark}: {label}@{self.k} {100 * i.value:.1f}, "
                f"{100 * i.confidence:.0f}% CI {100 * i.ci_low:.1f} to {100 * i.ci_high:.1f} "
                f"over {i.parents} parents (± {100 * i.seed_std:.1f} over {i.seeds} seeds; "
                f"variance: problems {1e4 * i.problem_variance:.2f}, seeds "
                f"{1e4 * i.seed_variance:.2f} points²)"
            )
        out.extend(self.notes)
        t = self.truncation
        seeds = ", ".join(f"seed {s} {100 * v:.1f}%" for s, v in sorted(t.per_seed.items()))
        out.append(
            f"{self.split or self.benchmark}: truncated turns {100 * t.share:.1f}% of {t.turns}"
            + (f" ({seeds})" if seeds else "")
        )
        return out


def truncation(table: ClusterTable) -> Truncation:
    turns = table.turns.sum(axis=0)
    cut = table.truncated.sum(axis=0)
    total = float(turns.sum())
    return Truncation(
        share=float(cut.sum()) / total if total else 0.0,
        per_seed={
            int(seed): float(cut[j] / turns[j]) if turns[j] else 0.0
            for j, seed in enumerate(table.seeds)
        },
        turns=int(total),
    )


def table_statistics(table: ClusterTable, settings: CompareSettings) -> SplitStatistics:
    metrics: Sequence[Metric] = metrics_of(table)
    result = SplitStatistics(
        benchmark=table.benchmark,
        split=table.split,
        k=table.k,
        intervals=[interval(table, m, settings) for m in metrics],
        truncation=truncation(table),
    )
    for metric in metrics:
        mde = split_mde(table, metric, alpha=settings.alpha, power=settings.power)
        result.mde[metric] = mde
        name = metric_key(table.benchmark, table.split, metric, table.k).rsplit("/", 1)[-1]
        sentence = power_sentence(
            table.split or "all", name, mde, settings.min_effect, power=settings.power
        )
        if sentence:
            result.notes.append(sentence)
    return result


def split_statistics(
    rows: Iterable[VerdictRow],
    settings: CompareSettings | None = None,
    *,
    k: int | None = None,
    slots_of: Mapping[str, Sequence[str]] | None = None,
) -> list[SplitStatistics]:
    """Statistics of every (benchmark, split) of an item table."""
    settings = settings or CompareSettings()
    tables = cluster_tables(rows, k=k, slots_of=slots_of)
    return [table_statistics(t, settings) for t in tables.values()]


def statistics_metrics(statistics: Iterable[SplitStatistics]) -> dict[str, float]:
    """MLflow keys: ``<key>_ci_low``, ``_ci_high``, ``_se``, ``_seed_variance``,
    ``_problem_variance``, ``_mde`` (``<key>`` as ``application/par_at_8``), and
    ``<split>/truncated_share`` with ``<split>/truncated_share_seed_<s>``."""
    out: dict[str, float] = {}
    for s in statistics:
        for i in s.intervals:
            key = metric_key(s.benchmark, s.split, i.metric, s.k)
            values = {
                "ci_low": i.ci_low,
                "ci_high": i.ci_high,
                "se": i.se,
                "seed_variance": i.seed_variance,
                "problem_variance": i.problem_variance,
                "mde": s.mde.get(i.metric, math.nan),
            }
            out.update({f"{key}_{name}": v for name, v in values.items() if math.isfinite(v)})
        prefix = metric_key(s.benchmark, s.split, "x").rsplit("/", 1)[0]
        out[f"{prefix}/truncated_share"] = s.truncation.share
        for seed, share in s.truncation.per_seed.items():
            out[f"{prefix}/truncated_share_seed_{seed}"] = share
    return out
