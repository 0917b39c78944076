"""Regression checks between evaluation runs, and the model registry's ``best`` alias.

Runs that carry the per-item table (MLflow artefact ``items/<benchmark>.jsonl.gz``) are
compared with the paired statistics of :mod:`studybench.metrics.comparison` (pooled
per-parent estimates, sign-flip p-values, Westfall-Young over the family, CIs for both
inferential targets, minimum effect), the same code as ``studybench metrics compare``. Runs
judged by different verifier or judge versions are refused (re-score one with
``studybench rescore``): their difference would partly be the instrument's. Runs logged
before item tables existed fall back to the old rule, which the comparison says in its
``method``: a metric regresses when its mean drops by more than max(threshold,
2 sqrt(std_a^2 + std_b^2)).
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from studybench.errors import StudyBenchError
from studybench.metrics.comparison import (
    CompareSettings,
    PairedComparison,
    Target,
    compare_items,
)
from studybench.metrics.items import ItemRow, read_items
from studybench.metrics.paired import ComparisonRefusedError, EvaluationInfo

Method = Literal["paired", "seed-noise heuristic"]


class MetricComparison(BaseModel):
    metric: str
    baseline: float
    candidate: float
    diff: float
    combined_std: float = 0.0
    margin: float
    regression: bool
    improvement: bool
    ci_low: float = math.nan
    ci_high: float = math.nan
    p_value: float = math.nan
    p_adjusted: float = math.nan
    decision: str = ""
    mde: float = math.nan

    def describe(self) -> str:
        if self.decision:
            return (
                f"{self.metric}: {self.baseline:.4f} -> {self.candidate:.4f} ({self.diff:+.4f}, "
                f"95% CI {self.ci_low:+.4f} to {self.ci_high:+.4f}, p={self.p_value:.3g}, "
                f"adjusted {self.p_adjusted:.3g}) {self.decision}"
            )
        flag = "REGRESSION" if self.regression else ("improved" if self.improvement else "same")
        return (
            f"{self.metric}: {self.baseline:.4f} -> {self.candidate:.4f} ({self.diff:+.4f}, "
            f"noise margin {self.margin:.4f}) {flag}"
        )


class Comparison(BaseModel):
    baseline_run: str
    candidate_run: str
    metrics: list[MetricComparison]
    method: Method = "seed-noise heuristic"
    notes: list[str] = Field(default_factory=list)
    paired: PairedComparison | None = None

    @property
    def regression(self) -> bool:
        return any(m.regression for m in self.metrics)


PAGE = 200  # runs per search request; every search pages on to the end (or the first use)


def _runs(
    client: Any, experiment: str, filter_string: str, order_by: list[str] | None = None
) -> Iterator[Any]:
    """Every run the search matches, page after page: one page would silently drop the rest
    (a target's last good night behind 20 failed ones, a training run of 500+ checkpoints)."""
    token = None
    while True:
        page = client.search_runs(
            [experiment],
            filter_string=filter_string,
            order_by=order_by or [],
            max_results=PAGE,
            page_token=token,
        )
        yield from page
        token = page.token
        if not token:
            return


def resolve_run(client: Any, spec: str, *, relative_to: str | None = None) -> str:
    """A run id from a run id, ``models:/<name>@<alias>``, or ``previous`` (the latest earlier
    run of the same model as ``relative_to``)."""
    if spec.startswith("models:/"):
        name, _, alias = spec.removeprefix("models:/").partition("@")
        if not alias:
            raise StudyBenchError(f"{spec}: give a registered model alias, models:/NAME@ALIAS")
        return str(client.get_model_version_by_alias(name, alias).run_id)
    if spec == "previous":
        if relative_to is None:
            raise StudyBenchError("'previous' needs the candidate run")
        run = client.get_run(relative_to)
        model = run.data.tags.get("studybench.model", "")
        runs = _runs(
            client,
            run.info.experiment_id,
            f"tags.`studybench.model` = '{model}' and "
            f"attributes.start_time < {run.info.start_time}",
            ["attributes.start_time DESC"],
        )
        earlier = next((r for r in runs if "studybench.eval_key" in r.data.tags), None)
        if earlier is None:
            raise StudyBenchError(f"no earlier evaluation of {model} to compare with")
        return str(earlier.info.run_id)
    return spec


def previous_evaluation(client: Any, run_id: str) -> str | None:
    """The evaluation before ``run_id`` in its lineage: for a checkpoint of a training run,
    the evaluated checkpoint with the highest lower step; for a scheduled (nightly) run or a
    model without training run, the latest earlier run of the same target."""
    run = client.get_run(run_id)
    tags = run.data.tags
    experiment = run.info.experiment_id
    key = tags.get("studybench.eval_key", "")
    training_run = tags.get("training_run")
    step = tags.get("checkpoint.step")
    scheduled = bool(tags.get("studybench.run_tag"))  # a nightly run: compare night by night
    if training_run and step is not None and not scheduled:
        runs = _runs(client, experiment, f"tags.`training_run` = '{training_run}'")
        earlier = [
            r
            for r in runs
            if "studybench.eval_key" in r.data.tags
            and r.data.tags.get("studybench.eval_key") != key
            and r.data.tags.get("checkpoint.step", "").isdigit()
            and int(r.data.tags["checkpoint.step"]) < int(step)
            and r.info.status == "FINISHED"
        ]
        if not earlier:
            return None
        best = max(earlier, key=lambda r: int(r.data.tags["checkpoint.step"]))
        return str(best.info.run_id)
    target = tags.get("studybench.target") or tags.get("studybench.model", "")
    field = "studybench.target" if tags.get("studybench.target") else "studybench.model"
    runs = _runs(
        client,
        experiment,
        f"tags.`{field}` = '{target}' and attributes.start_time < {run.info.start_time}",
        ["attributes.start_time DESC"],
    )
    for r in runs:
        if (
            "studybench.eval_key" in r.data.tags
            and r.data.tags["studybench.eval_key"] != key
            and r.info.status == "FINISHED"
        ):
            return str(r.info.run_id)
    return None


def best_so_far(client: Any, run_id: str, exclude: tuple[str, ...] = ()) -> str | None:
    """The best earlier evaluated checkpoint of the run's training run (highest headline
    ``.../par_at_<k>_mean``, first in sorted order), or None (no training run, nothing
    earlier). ``exclude``: runs already compared (the previous checkpoint)."""
    run = client.get_run(run_id)
    tags = run.data.tags
    training_run, step = tags.get("training_run"), tags.get("checkpoint.step", "")
    if not training_run or not step.isdigit():
        return None
    headline = next(
        (k for k in sorted(run.data.metrics) if "/par_at_" in k and k.endswith("_mean")), None
    )
    if headline is None:
        return None
    runs = _runs(client, run.info.experiment_id, f"tags.`training_run` = '{training_run}'")
    earlier = [
        r
        for r in runs
        if "studybench.eval_key" in r.data.tags
        and r.info.status == "FINISHED"
        and r.info.run_id != run_id
        and r.data.tags.get("checkpoint.step", "").isdigit()
        and int(r.data.tags["checkpoint.step"]) < int(step)
        and headline in r.data.metrics
    ]
    if not earlier:
        return None
    best = max(
        earlier, key=lambda r: (r.data.metrics[headline], -int(r.data.tags["checkpoint.step"]))
    )
    return None if best.info.run_id in exclude else str(best.info.run_id)


def compare_metrics(
    baseline: dict[str, float], candidate: dict[str, float], threshold: float
) -> list[MetricComparison]:
    """Today's heuristic on logged means and seed stds (runs without item tables)."""
    out = []
    for key in sorted(baseline):
        if not key.endswith("_mean") or key not in candidate:
            continue
        std_key = key.removesuffix("_mean") + "_std"
        combined = math.hypot(baseline.get(std_key, 0.0), candidate.get(std_key, 0.0))
        margin = max(threshold, 2 * combined)
        diff = candidate[key] - baseline[key]
        out.append(
            MetricComparison(
                metric=key,
                baseline=baseline[key],
                candidate=candidate[key],
                diff=diff,
                combined_std=combined,
                margin=margin,
                regression=diff < -margin,
                improvement=diff > margin,
            )
        )
    return out


def run_items(client: Any, run_id: str) -> list[ItemRow]:
    """The per-item tables logged on a run (every ``items/*.jsonl.gz``); empty when the run
    has none."""
    try:
        listed = client.list_artifacts(run_id, "items")
    except Exception:  # an unknown path on some artefact stores raises instead of listing []
        return []
    names = [f.path for f in listed if not f.is_dir and f.path.endswith((".jsonl", ".jsonl.gz"))]
    rows: list[ItemRow] = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in sorted(names):
            local = Path(client.download_artifacts(run_id, name, tmp))
            rows.extend(read_items(local))
    return rows


def instrument_version(tags: dict[str, str], field: str) -> str:
    """A run's ``verifier_version``/``judge_version``: the re-scoring tag
    (``studybench.<field>``, set when stored generations were judged again) wins over the
    provenance tag the evaluation was logged with (``<field>``)."""
    return tags.get(f"studybench.{field}") or tags.get(field, "")


def run_info(client: Any, run_id: str) -> EvaluationInfo:
    """What must match between two runs: data versions (``data.*`` tags), protocol, and the
    instruments (verifier and judge versions)."""
    tags = client.get_run(run_id).data.tags
    data = ",".join(f"{k}={v}" for k, v in sorted(tags.items()) if k.startswith("data."))
    return EvaluationInfo(
        name=f"run {run_id}",
        data_version=data,
        protocol=tags.get("protocol_hash", ""),
        verifier_version=instrument_version(tags, "verifier_version"),
        judge_version=instrument_version(tags, "judge_version"),
    )


def paired_metrics(result: PairedComparison) -> list[MetricComparison]:
    """The paired decisions in the shape every caller of :func:`compare_runs` reads (metric
    names are the logged ``..._mean`` keys)."""
    return [
        MetricComparison(
            metric=f"{m.key}_mean",
            baseline=m.baseline,
            candidate=m.candidate,
            diff=m.diff,
            margin=result.settings.min_effect,
            regression=m.decision == "regressed",
            improvement=m.decision == "improved",
            ci_low=m.ci_low,
            ci_high=m.ci_high,
            p_value=m.p_value,
            p_adjusted=m.p_adjusted,
            decision=m.decision,
            mde=m.mde,
        )
        for m in result.metrics
    ]


def compare_pair(
    client: Any, baseline: str, candidate: str, settings: CompareSettings
) -> Comparison:
    """Paired comparison from the runs' item tables, else today's heuristic (with a note)."""
    base_rows, cand_rows = run_items(client, baseline), run_items(client, candidate)
    if base_rows and cand_rows:
        paired = compare_items(
            base_rows,
            cand_rows,
            settings,
            baseline_info=run_info(client, baseline),
            candidate_info=run_info(client, candidate),
        )
        paired.baseline, paired.candidate = baseline, candidate
        return Comparison(
            baseline_run=baseline,
            candidate_run=candidate,
            metrics=paired_metrics(paired),
            method="paired",
            notes=[*paired.warnings, *paired.notes],
            paired=paired,
        )
    missing = baseline if not base_rows else candidate
    base = client.get_run(baseline).data.metrics
    cand = client.get_run(candidate).data.metrics
    return Comparison(
        baseline_run=baseline,
        candidate_run=candidate,
        metrics=compare_metrics(base, cand, settings.min_effect),
        notes=[
            f"run {missing} has no item table: compared with the seed-noise heuristic "
            "(no pairing, no CI)"
        ],
    )


def log_comparison(client: Any, result: Comparison, label: str = "compare") -> None:
    """Comparison results as metrics and tags on the candidate run, beside the paper's own
    figures (``<key>_mean``/``_std``, untouched): per metric ``<label>/<key>_diff`` (and
    ``_ci_low``, ``_ci_high``, ``_p_value``, ``_p_adjusted``, ``_mde`` when paired) and the tag
    ``<label>.<key>.decision``; per comparison the method, the multiplicity rule, the target
    that decided and the instrument versions (``studybench.compare_*`` tags)."""
    candidate = result.candidate_run
    for m in result.metrics:
        client.log_metric(candidate, f"{label}/{m.metric}_diff", m.diff)
        if m.decision:
            key = m.metric.removesuffix("_mean")
            for field in ("ci_low", "ci_high", "p_value", "p_adjusted", "mde"):
                value = getattr(m, field)
                if math.isfinite(value):
                    client.log_metric(candidate, f"{label}/{key}_{field}", value)
            client.set_tag(candidate, f"{label}.{key}.decision", m.decision)
    prefix = "studybench" if label == "compare" else f"studybench.{label}"
    client.set_tag(candidate, f"{prefix}.baseline_run", result.baseline_run)
    client.set_tag(candidate, f"{prefix}.regression", str(result.regression).lower())
    client.set_tag(candidate, f"{prefix}.compare_method", result.method)
    if result.paired is not None:
        paired = result.paired
        details = {
            "compare_test": paired.method,
            "compare_multiplicity": paired.multiplicity,
            "compare_target": paired.settings.target,
            **{f"compare_{k}": v for k, v in paired.instruments.items()},
        }
        for name, value in details.items():
            client.set_tag(candidate, f"{prefix}.{name}", value[:500])


def compare_runs(
    client: Any,
    baseline: str,
    candidate: str,
    threshold: float,
    *,
    log: bool = True,
    label: str = "compare",
    settings: CompareSettings | None = None,
    target: Target = "this_benchmark",
) -> Comparison:
    """Compare two evaluation runs (``threshold``: the minimum effect; ``target``: the question
    the decision answers, ``tracking.regression_target``); log the verdict on the candidate run
    under ``label``."""
    settings = settings or CompareSettings(min_effect=threshold, target=target)
    result = compare_pair(client, baseline, candidate, settings)
    if log:
        log_comparison(client, result, label)
    return result


def register_checkpoint(
    client: Any,
    run_id: str,
    name: str,
    source: str,
    *,
    headline: str,
    threshold: float,
    alias: str = "best",
) -> tuple[str, bool]:
    """Register ``source`` as a version of ``name`` with the run's scores as tags; move ``alias``
    to it when it beats the current holder beyond noise. Returns (version, alias moved)."""
    from mlflow.exceptions import MlflowException

    try:
        client.get_registered_model(name)
    except MlflowException:
        client.create_registered_model(name)
    metrics = client.get_run(run_id).data.metrics
    tags = {k: f"{v:.6f}" for k, v in metrics.items() if k.endswith(("_mean", "_std"))}
    # The version points at the evaluation run (a server accepts no local path as source);
    # the checkpoint's own location is a tag.
    version = client.create_model_version(
        name, f"runs:/{run_id}/", run_id=run_id, tags={**tags, "checkpoint.path": source}
    ).version
    try:
        holder = client.get_model_version_by_alias(name, alias)
    except MlflowException:
        holder = None
    move = holder is None
    if holder is not None and headline in metrics:
        try:
            comparison = compare_pair(
                client, str(holder.run_id), run_id, CompareSettings(min_effect=threshold)
            )
        except ComparisonRefusedError:  # other items or protocol: never "better"
            return str(version), False
        if comparison.method != "paired":
            held = client.get_run(holder.run_id).data.metrics
            stds = {k: v for k, v in held.items() if k.endswith("_std")}
            own = {k: v for k, v in metrics.items() if k.endswith("_std")}
            comparison.metrics = compare_metrics(
                {headline: held.get(headline, 0.0), **stds},
                {headline: metrics[headline], **own},
                threshold,
            )
        move = any(m.metric == headline and m.improvement for m in comparison.metrics)
    if move:
        client.set_registered_model_alias(name, alias, version)
    return str(version), move
