"""CLI of the benchmark registry: ``studybench benchmarks list``, and the metrics table
``studybench eval --benchmark NAME`` prints for benchmarks other than StudyBench."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer
from rich.table import Table

from studybench.cli.common import ParamsOpt, out
from studybench.config import Settings

if TYPE_CHECKING:
    from studybench.benchmarks.base import BenchmarkPlan

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


def print_metrics(name: str, plan: BenchmarkPlan, settings: Settings) -> None:
    """The headline metrics of one judged benchmark plan (``eval --benchmark NAME``); the
    breakdowns go to MLflow."""
    from studybench.benchmarks.registry import get_benchmark

    bench = get_benchmark(name)
    metrics = bench.metrics(plan, settings)
    table = Table(title=f"{name}: {plan.model}", title_justify="left")
    table.add_column("metric")
    table.add_column("value", justify="right")
    for key in bench.headline(plan, metrics):
        table.add_row(key, f"{metrics[key]:.3f}")
    out.print(table)
