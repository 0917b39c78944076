"""Regression checks between evaluations, and the model registry's ``best`` alias.

A metric regresses when its mean drops by more than the larger of a configured threshold and
two combined seed standard deviations (sqrt(std_a^2 + std_b^2)): a drop inside the seeds'
noise is not a regression.
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import BaseModel

from studybench.errors import StudyBenchError


class MetricComparison(BaseModel):
    metric: str
    baseline: float
    candidate: float
    diff: float
    combined_std: float
    margin: float
    regression: bool
    improvement: bool


class Comparison(BaseModel):
    baseline_run: str
    candidate_run: str
    metrics: list[MetricComparison]

    @property
    def regression(self) -> bool:
        return any(m.regression for m in self.metrics)


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
        runs = client.search_runs(
            [run.info.experiment_id],
            filter_string=f"tags.`studybench.model` = '{model}' and "
            f"attributes.start_time < {run.info.start_time}",
            order_by=["attributes.start_time DESC"],
            max_results=5,
        )
        earlier = [r for r in runs if "studybench.eval_key" in r.data.tags]
        if not earlier:
            raise StudyBenchError(f"no earlier evaluation of {model} to compare with")
        return str(earlier[0].info.run_id)
    return spec


def previous_evaluation(client: Any, run_id: str) -> str | None:
    """The evaluation before ``run_id`` in its lineage: for a checkpoint of a training run,
    the evaluated checkpoint with the highest lower step; for a scheduled (nightly) run or a
    model without training run, the latest earlier run of the same target."""
    run = client.get_run(run_id)
    tags = run.data.tags
    experiment = [run.info.experiment_id]
    key = tags.get("studybench.eval_key", "")
    training_run = tags.get("training_run")
    step = tags.get("checkpoint.step")
    scheduled = bool(tags.get("studybench.run_tag"))  # a nightly run: compare night by night
    if training_run and step is not None and not scheduled:
        runs = client.search_runs(
            experiment,
            filter_string=f"tags.`training_run` = '{training_run}'",
            max_results=500,
        )
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
    runs = client.search_runs(
        experiment,
        filter_string=f"tags.`{field}` = '{target}' and attributes.start_time < "
        f"{run.info.start_time}",
        order_by=["attributes.start_time DESC"],
        max_results=20,
    )
    for r in runs:
        if (
            "studybench.eval_key" in r.data.tags
            and r.data.tags["studybench.eval_key"] != key
            and r.info.status == "FINISHED"
        ):
            return str(r.info.run_id)
    return None


def compare_metrics(
    baseline: dict[str, float], candidate: dict[str, float], threshold: float
) -> list[MetricComparison]:
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


def compare_runs(
    client: Any, baseline: str, candidate: str, threshold: float, *, log: bool = True
) -> Comparison:
    """Compare two evaluation runs; log the verdict on the candidate run."""
    base = client.get_run(baseline).data.metrics
    cand = client.get_run(candidate).data.metrics
    result = Comparison(
        baseline_run=baseline,
        candidate_run=candidate,
        metrics=compare_metrics(base, cand, threshold),
    )
    if log:
        for m in result.metrics:
            client.log_metric(candidate, f"compare/{m.metric}_diff", m.diff)
        client.set_tag(candidate, "studybench.baseline_run", baseline)
        client.set_tag(candidate, "studybench.regression", str(result.regression).lower())
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
        held = client.get_run(holder.run_id).data.metrics
        comparison = compare_metrics(
            {
                headline: held.get(headline, 0.0),
                **{k: v for k, v in held.items() if k.endswith("_std")},
            },
            {
                headline: metrics[headline],
                **{k: v for k, v in metrics.items() if k.endswith("_std")},
            },
            threshold,
        )
        move = bool(comparison and comparison[0].improvement)
    if move:
        client.set_registered_model_alias(name, alias, version)
    return str(version), move
