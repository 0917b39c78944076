"""``studybench report``: ``report RUN`` (one judged run, as before) and ``report paper``
(the paper's tables and figures from MLflow).

``report`` is a group whose default command is the single-run report, so ``studybench
report RUN_DIR --markdown`` keeps working: any first argument that is not a sub-command
name goes to ``report run``. (A run folder literally named ``paper`` is ``./paper``.)
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from studybench.cli.common import JsonOpt, ParamsOpt, note, out
from studybench.cli.evaluate import report_command
from studybench.config import load_settings
from studybench.errors import StudyBenchError

DEFAULT = "run"


class DefaultCommandGroup(TyperGroup):
    """A group that sends arguments naming no sub-command to ``run`` (the old ``report``)."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h"):
            args = [DEFAULT, *args]
        return super().parse_args(ctx, args)


report_app = typer.Typer(
    cls=DefaultCommandGroup,
    help="Reports: one judged run (report RUN_DIR, the default) or the paper's tables "
    "from MLflow (report paper).",
    no_args_is_help=True,
)
report_app.command(DEFAULT, help="Par@k and Sub@k of one judged run (the default).")(report_command)


def _tags(pairs: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise typer.BadParameter(f"--tag {pair!r}: give KEY=VALUE")
        out[key] = value
    return out


@report_app.command("paper")
def paper_command(
    experiment: Annotated[
        str | None, typer.Option(help="MLflow experiment (default: tracking.experiment).")
    ] = None,
    training_run: Annotated[
        list[str] | None,
        typer.Option(help="Only these training runs (and their base models); repeatable."),
    ] = None,
    tag: Annotated[
        list[str] | None, typer.Option(help="Only runs with tag KEY=VALUE; repeatable.")
    ] = None,
    out_dir: Annotated[
        Path | None,
        typer.Option("--out", help="Report folder (default: work/reports/<experiment>/<name>)."),
    ] = None,
    name: Annotated[str, typer.Option(help="Report name: the MLflow run report/<name>.")] = "paper",
    log: Annotated[bool, typer.Option(help="Log the report back to MLflow.")] = True,
    as_json: JsonOpt = False,
    params: ParamsOpt = None,
) -> None:
    """The paper's main table (method x base model, mean ± std over seeds, paired
    comparison with the base model), the Guidance Gap table, learning curves and the
    Compute Plateau, as Markdown, LaTeX and HTML; prints the Markdown."""
    from studybench.paper.compose import build_paper_report
    from studybench.pipeline.orchestration import mlflow_ui_base

    settings = load_settings(params)
    report: Any = build_paper_report(
        settings,
        experiment=experiment,
        training_runs=tuple(training_run or ()),
        tags=_tags(list(tag or [])),
        out_dir=out_dir,
        name=name,
        log=log,
        ui_base=mlflow_ui_base(settings),
    )
    if as_json:
        out.print_json(report.model_dump_json(exclude={"markdown"}))
    else:
        sys.stdout.write(report.markdown)
    note(f"report written to {report.folder} ({len(report.files)} files)")
    if report.report_run:
        note(
            f"logged as MLflow run {report.report_run} (report/{name}), "
            f"linked from {len(report.used_runs)} run(s)"
        )


__all__ = ["StudyBenchError", "paper_command", "report_app"]
