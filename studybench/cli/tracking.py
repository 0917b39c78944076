"""``studybench track`` and ``studybench compare``: log judged runs to MLflow and check a
candidate against a baseline."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from studybench.cli.common import JsonOpt, ParamsOpt, out, say
from studybench.config import load_settings


def track_runs(run_dirs: list[Path], settings: Any, checkpoint: Any) -> str:
    """Log judged split folders through the composition and print where they went."""
    from studybench.pipeline.results import log_split_dirs, register_best
    from studybench.tracking.mlflow_log import tracking_uri

    data_files = [settings.data.application_split, settings.data.transfer_split]
    run_id = log_split_dirs(run_dirs, settings, checkpoint=checkpoint, data_files=data_files)
    say(f"logged to MLflow ({tracking_uri(settings)}): run {run_id}")
    if settings.tracking.registered_model and checkpoint.path:
        version, moved = register_best(run_id, settings, checkpoint.path)
        say(f"registered version {version}" + (" and moved alias 'best' to it" if moved else ""))
    return run_id


def track_command(
    run_dirs: Annotated[list[Path], typer.Argument(help="Judged run folder(s), one per split.")],
    checkpoint: Annotated[Path | None, typer.Option(help="Checkpoint folder evaluated.")] = None,
    step: Annotated[int | None, typer.Option(help="Global training step.")] = None,
    training_run: Annotated[str | None, typer.Option(help="Training run id (lineage).")] = None,
    base_model: Annotated[str | None, typer.Option(help="Base model name.")] = None,
    gpu_hours: Annotated[float | None, typer.Option(help="Training compute so far.")] = None,
    params: ParamsOpt = None,
) -> None:
    """Log judged runs to MLflow (again): idempotent, updates the same MLflow run."""
    from studybench.tracking.mlflow_log import Checkpoint

    info = Checkpoint(
        path=str(checkpoint) if checkpoint else None,
        step=step,
        training_run=training_run,
        base_model=base_model,
        gpu_hours=gpu_hours,
    )
    track_runs(run_dirs, load_settings(params), info)


def compare_command(
    baseline: Annotated[str, typer.Argument(help="Run id, models:/NAME@ALIAS, or 'previous'.")],
    candidate: Annotated[str, typer.Argument(help="MLflow run id of the candidate.")],
    threshold: Annotated[float | None, typer.Option(help="Absolute drop tolerated.")] = None,
    as_json: JsonOpt = False,
    params: ParamsOpt = None,
) -> None:
    """Regression check: exit 1 when a headline metric drops beyond noise."""
    from studybench.tracking.compare import compare_runs, resolve_run
    from studybench.tracking.mlflow_log import client_for

    settings = load_settings(params)
    client = client_for(settings)
    base = resolve_run(client, baseline, relative_to=candidate)
    limit = threshold if threshold is not None else settings.tracking.regression_threshold
    result = compare_runs(client, base, candidate, limit)
    if as_json:
        out.print_json(result.model_dump_json())
    else:
        for m in result.metrics:
            say(m.describe())
        for line in result.notes:
            say(line)
    if result.regression:
        raise typer.Exit(1)
