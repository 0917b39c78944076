"""Score against compute on a training run's lineage run, and its Compute Plateau.

The evaluation of every checkpoint logs its headline scores and the compute recorded in its
ready marker (``gpu_hours``, ``train_flops``) on the ``lineage/<training run>`` run at the
checkpoint's step (:mod:`studybench.tracking.mlflow_log`). This module joins those
histories by step into score-against-compute points, finds the plateau
(:func:`studybench.metrics.plateau.find_plateau`) and logs it back on the lineage run:
``plateau/compute``, ``plateau/score``, ``plateau/budget_share`` metrics, a
``plateau.compute_key`` tag, and a ``plots/score_vs_compute.png`` figure. MLflow's own charts
can also plot any score against ``gpu_hours`` or ``train_flops`` (x-axis: a metric).
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from studybench.config import Settings
from studybench.errors import StudyBenchError
from studybench.metrics.plateau import CurvePoint, Plateau, find_plateau
from studybench.tracking.mlflow_log import LINEAGE_KEY, _log, client_for, find_run

COMPUTE_KEYS = ("gpu_hours", "train_flops")


def lineage_run(client: Any, settings: Settings, training_run: str) -> str:
    experiment = client.get_experiment_by_name(settings.tracking.experiment)
    run_id = (
        find_run(client, str(experiment.experiment_id), LINEAGE_KEY, training_run)
        if experiment is not None
        else None
    )
    if run_id is None:
        raise StudyBenchError(
            f"no lineage run for training run {training_run!r} in experiment "
            f"{settings.tracking.experiment!r}: evaluate its checkpoints first"
        )
    return run_id


def _by_step(client: Any, run_id: str, key: str) -> dict[int, float]:
    return {int(m.step): float(m.value) for m in client.get_metric_history(run_id, key)}


def score_vs_compute(
    settings: Settings, training_run: str, metric: str, compute_key: str = "auto"
) -> tuple[str, str, list[CurvePoint]]:
    """(lineage run id, compute key used, points) for ``metric`` (a ``..._mean`` key; its
    ``..._std`` sibling gives the seed noise). ``auto`` prefers GPU-hours when any were
    spent, else the FLOPs count (CPU runs spend no GPU-hours)."""
    if not metric.endswith("_mean"):
        raise StudyBenchError(
            f"metric {metric!r}: give a '..._mean' key (e.g. 'application/par_at_8_mean')"
        )
    client = client_for(settings)
    run_id = lineage_run(client, settings, training_run)
    means = _by_step(client, run_id, metric)
    if not means:
        have = sorted(client.get_run(run_id).data.metrics)
        raise StudyBenchError(f"lineage/{training_run} has no metric {metric!r}; it has {have}")
    stds = _by_step(client, run_id, metric.removesuffix("_mean") + "_std")
    computes = {key: _by_step(client, run_id, key) for key in COMPUTE_KEYS}
    if compute_key == "auto":
        compute_key = "gpu_hours" if any(computes["gpu_hours"].values()) else "train_flops"
    if compute_key not in computes:
        raise StudyBenchError(f"compute key {compute_key!r}: one of {', '.join(COMPUTE_KEYS)}")
    compute = computes[compute_key]
    missing = sorted(set(means) - set(compute))
    if missing:
        raise StudyBenchError(
            f"lineage/{training_run}: steps {missing} have scores but no {compute_key} "
            "(their checkpoints carry no compute record in the ready marker)"
        )
    points = [
        CurvePoint(compute=compute[step], mean=mean, std=stds.get(step, 0.0), step=step)
        for step, mean in sorted(means.items())
    ]
    return run_id, compute_key, points


def log_plateau(
    settings: Settings,
    training_run: str,
    metric: str,
    *,
    compute_key: str = "auto",
    z: float = 1.0,
    min_delta: float = 0.0,
) -> Plateau:
    """Find the plateau of ``metric`` against compute and record it on the lineage run."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    run_id, key, points = score_vs_compute(settings, training_run, metric, compute_key)
    plateau = find_plateau(points, z=z, min_delta=min_delta)
    client = client_for(settings)
    _log(
        client,
        run_id,
        {
            "plateau/compute": plateau.plateau_compute,
            "plateau/score": plateau.plateau_score,
            "plateau/budget_share": plateau.budget_share,
            "plateau/wasted_compute": plateau.wasted_compute,
        },
        {},
        {
            "plateau.compute_key": key,
            "plateau.metric": metric,
            "plateau.step": str(plateau.plateau_step),
            "plateau.plateaued": str(plateau.plateaued).lower(),
        },
    )
    figure, axes = plt.subplots(figsize=(5, 3.2))
    axes.errorbar(
        [p.compute for p in points],
        [p.mean for p in points],
        yerr=[p.std for p in points],
        marker="o",
        capsize=3,
        label=metric,
    )
    axes.axvline(plateau.plateau_compute, color="grey", linestyle="--", label="plateau")
    axes.set_xlabel(key)
    axes.set_ylabel("score (mean ± seed std)")
    axes.legend(fontsize=7)
    axes.set_title(f"{training_run}: score against compute")
    figure.tight_layout()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "score_vs_compute.png"
        figure.savefig(path, dpi=100)
        client.log_artifact(run_id, str(path), artifact_path="plots")
    plt.close(figure)
    return plateau
