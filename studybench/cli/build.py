"""``studybench build ...``: rebuilding StudyBench's splits (one command per DVC stage of
``data/build/dvc.yaml``; README "Building a benchmark")."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from studybench.cli.common import ParamsOpt, err, group, note, out, say

build_app = group(
    "Benchmark construction: pools, capability filter, Application subsampling, Transfer "
    "admission, training material, PDF conversion, the funnel report."
)


def _settings(params: Path | None) -> Any:
    from studybench.config import load_settings

    return load_settings(params)


def _progress() -> Any:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    return Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), console=err
    )


@build_app.command("pools")
def build_pools(params: ParamsOpt = None) -> None:
    """Validate both pools (errors name file, record, field); write clean copies."""
    from studybench.build.stages import step_pools

    summary = step_pools(_settings(params))
    for kind, counts in summary.items():
        say(f"{kind} pool: {counts['parents']} parent(s), {counts['slots']} slot(s)")


@build_app.command("filter")
def build_filter(
    pool: Annotated[str, typer.Option(help="textbook or competition")],
    params: ParamsOpt = None,
) -> None:
    """Ask the filter model (k attempts, the protocol's sampling, two-stage judge)."""
    from studybench.build.stages import POOLS, step_filter
    from studybench.errors import ConfigError

    if pool not in POOLS:
        raise ConfigError(f"--pool {pool!r}: use textbook or competition")
    with _progress() as progress:
        task = progress.add_task(f"filter {pool}", total=None)

        def update(_split: str, state: Any) -> None:
            progress.update(task, total=state.turns_total, completed=state.turns_generated
                            + state.turns_reused)  # fmt: skip

        result = step_filter(_settings(params), pool, on_progress=update)
    failed = sum(1 for o in result.outcomes if o.failed)
    say(f"{pool}: {failed} of {len(result.outcomes)} parent(s) failed by {result.model} "
         f"(k={result.k}, seeds {result.seeds})")  # fmt: skip


@build_app.command("application")
def build_application(params: ParamsOpt = None) -> None:
    """Subsample failed textbook parents by sub-discipline into the Application Set."""
    from studybench.build.stages import step_application

    selection = step_application(_settings(params))
    say(
        f"Application Set: {len(selection.selected)} parent(s) ({len(selection.one_of_k)} by "
        f"the 1-of-k rule); {len(selection.returned)} failed parent(s) back to training"
    )


@build_app.command("transfer")
def build_transfer(params: ParamsOpt = None) -> None:
    """Admit failed competition parents solved at least once with their guidance."""
    from studybench.build.stages import step_transfer

    result = step_transfer(_settings(params))
    say(f"Transfer Set: {len(result.admitted)} admitted; dropped {len(result.dropped_unsolved)} "
         f"unsolved, {len(result.dropped_no_guidance)} without guidance")  # fmt: skip


@build_app.command("training")
def build_training(params: ParamsOpt = None) -> None:
    """Re-derive the three training layers; the corpus redacted and audited."""
    from studybench.build.stages import step_training

    report = step_training(_settings(params))
    say(
        f"training material: {report.corpus_files} chapter file(s), {report.redacted_spans} "
        f"span(s) redacted, audit clean; {report.instructions_with_answer} + "
        f"{report.instructions_with_answer_multi} instruction(s) with answer, "
        f"{report.instructions_without_answer} without; {len(report.dropped)} dropped"
    )


@build_app.command("report")
def build_report(
    params: ParamsOpt = None,
    mlflow: Annotated[bool, typer.Option(help="log to MLflow (tracking.enabled)")] = True,
) -> None:
    """The funnel per sub-discipline and per source: tables, PNG, MLflow."""
    from studybench.build.funnel import build_funnel, funnel_png, funnel_tables
    from studybench.build.stages import out as out_path
    from studybench.fileio import write_atomic

    settings = _settings(params)
    funnel = build_funnel(settings)
    folder = out_path(settings, "report")
    write_atomic(folder / "funnel.json", funnel.model_dump_json(indent=1) + "\n")
    png = funnel_png(funnel, folder / "funnel.png")
    for table in funnel_tables(funnel):
        out.print(table)
    if mlflow and settings.tracking.enabled:
        from studybench.tracking.build_log import log_build

        run_id = log_build(settings, funnel, [folder / "funnel.json", png])
        note(f"logged to MLflow run {run_id}")
    note(f"report: {folder / 'funnel.json'}, {png}")


@build_app.command("pdf")
def build_pdf(params: ParamsOpt = None) -> None:
    """Convert <pdf_root>/<source>/<chapter>.pdf into chapter Markdown (full.md)."""
    from studybench.corpus.pdf import convert_pdfs

    build = _settings(params).build
    result = convert_pdfs(
        build.pdf_root,
        build.pdf_out,
        converter=build.pdf_converter,
        header_min_share=build.header_min_share,
        mineru_command=build.mineru_command,
    )
    say(
        f"{len(result.files)} chapter(s), {result.pages} page(s) with {result.converter}; "
        f"{result.header_lines_removed} running header line(s) removed; out: {build.pdf_out}"
    )
    for converted in result.per_file:  # what went from each file, so nothing goes unseen
        say(f"  {converted.file}: {converted.headers.describe()}")
