"""MLflow side of ``studybench report paper``: read an experiment's evaluation runs as
:class:`~studybench.paper.records.PaperRun` records, run the paired comparisons the table
asks for (:func:`studybench.tracking.compare.compare_pair`, the one comparison of the
platform), read learning curves and compute, and log the finished report back as a
``report/<name>`` run that every run it used links to (tag ``studybench.report.<name>``).

Nothing is built here: the tables and figures are :mod:`studybench.paper`'s.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from studybench.config import Settings
from studybench.errors import StudyBenchError
from studybench.metrics.comparison import CompareSettings
from studybench.metrics.paired import ComparisonRefusedError
from studybench.metrics.plateau import find_plateau
from studybench.paper.records import Curve, CurvePoint, MetricVerdict, PairComparison, PaperRun
from studybench.tracking.compare import _runs, compare_pair
from studybench.tracking.mlflow_log import EVAL_KEY, keyed_run

REPORT_KEY = "studybench.report"
PARENT_TAG = "mlflow.parentRunId"


def experiment_of(client: Any, name: str) -> str:
    """The id of experiment ``name``; a clear error listing the experiments that exist."""
    found = client.get_experiment_by_name(name)
    if found is None:
        names = sorted(e.name for e in client.search_experiments())
        raise StudyBenchError(
            f"no MLflow experiment named {name!r} (experiments: {', '.join(names) or 'none'})"
        )
    return str(found.experiment_id)


def _split_of_child(run: Any) -> str:
    return str(run.data.params.get("split", ""))


def read_runs(
    client: Any,
    experiment_id: str,
    *,
    training_runs: Sequence[str] = (),
    tags: Mapping[str, str] | None = None,
) -> list[PaperRun]:
    """The finished evaluation runs of the experiment (not their per-seed children, lineage
    runs or reports), with the seeds their child runs hold per split, sorted by run id.

    ``tags``: only runs carrying every ``key = value``. ``training_runs``: only those
    training runs' checkpoints, plus the evaluations of their base models without a
    training run (the rows they are compared with)."""
    every = list(_runs(client, experiment_id, ""))
    children: dict[str, dict[str, set[int]]] = {}
    for run in every:
        parent = run.data.tags.get(PARENT_TAG)
        seed = run.data.params.get("seed", "")
        if parent and seed.lstrip("-").isdigit() and run.info.status == "FINISHED":
            children.setdefault(parent, {}).setdefault(_split_of_child(run), set()).add(int(seed))
    out = []
    for run in every:
        t = run.data.tags
        if EVAL_KEY not in t or PARENT_TAG in t or run.info.status != "FINISHED":
            continue
        if any(t.get(k) != v for k, v in (tags or {}).items()):
            continue
        out.append(
            PaperRun(
                run_id=run.info.run_id,
                name=run.info.run_name or "",
                start_time=int(run.info.start_time or 0),
                tags=dict(t),
                params=dict(run.data.params),
                metrics={k: float(v) for k, v in run.data.metrics.items()},
                seeds={s: sorted(v) for s, v in children.get(run.info.run_id, {}).items()},
            )
        )
    if training_runs:
        chosen = [r for r in out if r.training_run in training_runs]
        bases = {r.base_model for r in chosen}
        out = chosen + [r for r in out if not r.training_run and r.base_model in bases]
    return sorted(out, key=lambda r: r.run_id)


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def compare(
    client: Any, pairs: Iterable[tuple[str, str]], settings: CompareSettings
) -> dict[tuple[str, str], PairComparison]:
    """One paired comparison per (base run, method run); a refused comparison keeps its
    reason (other items, data or protocol: the difference would mean nothing)."""
    out = {}
    for baseline, candidate in pairs:
        try:
            result = compare_pair(client, baseline, candidate, settings)
        except ComparisonRefusedError as exc:
            out[(baseline, candidate)] = PairComparison(
                baseline_run=baseline, candidate_run=candidate, refused=f"refused: {exc}"
            )
            continue
        verdicts = {}
        paired = result.paired
        for m in result.metrics:
            decision = m.decision or (
                "regressed" if m.regression else ("improved" if m.improvement else "unchanged")
            )
            verdicts[m.metric] = MetricVerdict(
                diff=m.diff,
                ci_low=_finite(m.ci_low),
                ci_high=_finite(m.ci_high),
                decision=decision,
                method=result.method,
                unit=paired.settings.unit if paired else "",
                multiplicity=paired.multiplicity if paired else "",
                target=paired.settings.target if paired else "",
                family=len(paired.metrics) if paired else 0,
            )
        out[(baseline, candidate)] = PairComparison(
            baseline_run=baseline, candidate_run=candidate, verdicts=verdicts
        )
    return out


def _point(run: PaperRun, metric: str) -> CurvePoint:
    mean = run.metrics[f"{metric}_mean"]
    low, high = run.metrics.get(f"{metric}_ci_low"), run.metrics.get(f"{metric}_ci_high")
    if low is not None and high is not None:
        return CurvePoint(
            step=run.step or 0, mean=mean, low=low, high=high, band="95% CI", run_id=run.run_id
        )
    std = run.metrics.get(f"{metric}_std", 0.0)
    return CurvePoint(
        step=run.step or 0,
        mean=mean,
        low=mean - std,
        high=mean + std,
        band="± seed std",
        run_id=run.run_id,
    )


def curves(
    settings: Settings, experiment: str, runs: Sequence[PaperRun], metrics: Sequence[str]
) -> list[Curve]:
    """Learning curves of every training run in ``runs`` for each ``metric``
    (``<split>/par_at_<k>``): one point per evaluated step (the latest run of a step), with
    its compute and the plateau where the lineage run recorded compute
    (:func:`studybench.tracking.compute_curve.score_vs_compute`)."""
    from studybench.tracking.compute_curve import score_vs_compute

    scoped = settings.model_copy(
        update={"tracking": settings.tracking.model_copy(update={"experiment": experiment})}
    )
    out = []
    for training_run in sorted({r.training_run for r in runs if r.training_run}):
        mine = [r for r in runs if r.training_run == training_run and r.step is not None]
        for metric in metrics:
            by_step: dict[int, PaperRun] = {}
            for run in sorted(mine, key=lambda r: (r.start_time, r.run_id)):
                if f"{metric}_mean" in run.metrics:
                    by_step[run.step or 0] = run
            if not by_step:
                continue
            curve = Curve(
                training_run=training_run,
                metric=metric,
                points=[_point(by_step[s], metric) for s in sorted(by_step)],
            )
            try:
                _, key, compute_points = score_vs_compute(scoped, training_run, f"{metric}_mean")
            except StudyBenchError as exc:
                curve.note = str(exc)
            else:
                compute = {p.step: p.compute for p in compute_points}
                curve.compute_key = key
                for point in curve.points:
                    point.compute = compute.get(point.step)
                plateau = find_plateau(compute_points)
                curve.plateau_step = plateau.plateau_step
                curve.plateau_compute = plateau.plateau_compute
            out.append(curve)
    return out


def report_run(client: Any, experiment_id: str, name: str) -> str:
    """The run ``report/<name>`` of the experiment (found again by its ``studybench.report``
    tag, so every refresh updates one run), reopened for logging."""
    return keyed_run(
        client,
        experiment_id,
        f"report/{name}",
        {"studybench.report.kind": "paper"},
        (REPORT_KEY, name),
    )


def log_report(
    client: Any,
    run_id: str,
    folder: Path,
    used_runs: Sequence[str],
    params: Mapping[str, str],
) -> None:
    """Log the report folder as the artefact ``report/`` of ``run_id`` (from
    :func:`report_run`) and tag every used run ``studybench.report.<name>`` with it."""
    from mlflow.entities import Param, RunTag

    name = client.get_run(run_id).data.tags[REPORT_KEY]
    existing = client.get_run(run_id).data.params
    client.log_batch(
        run_id,
        params=[Param(k, v) for k, v in sorted(params.items()) if k not in existing],
        tags=[RunTag("studybench.report.runs", str(len(used_runs)))],
    )
    client.log_artifacts(run_id, str(folder), artifact_path="report")
    for used in used_runs:
        client.set_tag(used, f"{REPORT_KEY}.{name}", run_id)
    client.set_terminated(run_id)
