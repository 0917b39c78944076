"""CLI of the benchmark registry: ``studybench benchmarks list`` and the body of
``studybench eval --benchmark NAME`` for benchmarks other than StudyBench."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from studybench.cli.common import ParamsOpt, err, note, out
from studybench.config import Settings

benchmarks_app = typer.Typer(help="The registered benchmarks.", no_args_is_help=True)


@benchmarks_app.command("list")
def benchmarks_list(
    params: ParamsOpt = None,
) -> None:
    """Every benchmark that can be named in ``benchmarks.run`` or ``eval --benchmark``."""
    from studybench.benchmarks.registry import get_benchmark, names
    from studybench.config import load_settings

    settings = load_settings(params)
    table = Table(title="benchmarks", title_justify="left")
    for column in ("name", "what", "default parts", "run by the DAGs"):
        table.add_column(column)
    for name in names():
        bench = get_benchmark(name)
        table.add_row(
            name,
            bench.title,
            ", ".join(bench.default_parts(settings)),
            "yes" if name in settings.benchmarks.run else "no",
        )
    out.print(table)


def evaluate(
    benchmark: str,
    model: str,
    out_dir: Path,
    engine: str,
    settings: Settings,
    parts: list[str],
) -> None:
    """Plan, generate (with a progress bar), judge, print metrics, log to MLflow."""
    from studybench.pipeline.benchmark_eval import (
        generate_benchmark,
        judge_benchmark,
        log_benchmark,
        plan_benchmark,
    )

    plan = plan_benchmark(benchmark, model, settings, out_dir, parts)
    with Progress(
        TextColumn("[bold]generate {task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[detail]}"),
        console=err,
    ) as bar:
        tasks: dict[str, Any] = {}

        def show(part: str, p: Any) -> None:
            if part not in tasks:
                tasks[part] = bar.add_task(part, total=p.turns_total, detail="")
            bar.update(
                tasks[part],
                completed=p.turns_generated + p.turns_reused,
                detail=f"reused {p.turns_reused}  errors {p.errors}",
            )

        generate_benchmark(plan, engine, settings, on_progress=show)  # type: ignore[arg-type]
    judged = judge_benchmark(plan, settings)
    flagged = sum(int(j.get("flagged", 0)) for j in judged)
    note(f"judged {len(judged)} (part, seed) unit(s); {flagged} verdict(s) flagged")
    from studybench.benchmarks.registry import get_benchmark

    bench = get_benchmark(benchmark)
    metrics = bench.metrics(plan, settings)
    table = Table(title=f"{benchmark}: {model}", title_justify="left")
    table.add_column("metric")
    table.add_column("value", justify="right")
    for key in bench.headline(plan, metrics):  # breakdowns go to MLflow
        table.add_row(key, f"{metrics[key]:.3f}")
    out.print(table)
    if settings.tracking.enabled:
        from studybench.tracking.mlflow_log import Checkpoint, TrackingError

        checkpoint = Checkpoint(path=model if Path(model).is_dir() else None)
        try:
            run_id = log_benchmark(plan, settings, checkpoint)
            note(f"logged to MLflow: run {run_id}")
        except TrackingError as exc:
            note(f"warning: {exc}")
