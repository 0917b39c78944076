"""``studybench rescore``: judge stored generations again with the installed verifier and
judge, with no inference, and record the result beside the old one (a new MLflow run linked
to the original; the superseded values stay on the original). Prints the verdict-flip
report of every re-score. Resumable (a killed re-score continues) and idempotent (a re-run
does nothing)."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from studybench.cli.common import JsonOpt, ParamsOpt, err, note, out, say
from studybench.config import load_settings

RunOpt = Annotated[
    list[str] | None, typer.Option("--run", help="A run id (repeatable); default: every run.")
]
ExperimentOpt = Annotated[
    str, typer.Option(help="MLflow experiment (default: tracking.experiment).")
]
TrainingRunOpt = Annotated[str, typer.Option(help="Every checkpoint of this training run.")]
SinceOpt = Annotated[str, typer.Option(help="Runs started at or after (ISO date/time, UTC).")]
UntilOpt = Annotated[str, typer.Option(help="Runs started before (ISO date/time, UTC).")]
DryRunOpt = Annotated[bool, typer.Option("--dry-run", help="List what would be re-scored.")]


def _print_flips(outcome: Any) -> None:
    from rich.table import Table

    report = outcome.flips
    say(
        f"run {outcome.original} -> {outcome.run_id}: {outcome.previous.describe()} -> "
        f"{outcome.instrument.describe()}: {report.flips} of {report.compared} verdict(s) "
        f"flipped, LLM judge calls {outcome.llm_calls} (cached {outcome.llm_cached})"
    )
    if not report.flips:
        return
    table = Table(title="verdict flips", show_lines=False)
    for column in ("direction", "answer type / class", "count"):
        table.add_column(column)
    for direction, types in sorted(report.by_answer_type.items()):
        for answer_type, count in sorted(types.items()):
            table.add_row(direction, answer_type, str(count))
    for direction, classes in sorted(report.by_class.items()):
        for flip_class, count in sorted(classes.items()):
            table.add_row(direction, flip_class, str(count))
    out.print(table, markup=False)
    for example in report.examples:
        say(
            f"  e.g. {example.direction} {example.answer_type} {example.slot}: gold "
            f"{example.gold!r}, extracted {example.extracted!r} ({example.flip_class})"
        )


def rescore_command(
    run: RunOpt = None,
    experiment: ExperimentOpt = "",
    training_run: TrainingRunOpt = "",
    since: SinceOpt = "",
    until: UntilOpt = "",
    dry_run: DryRunOpt = False,
    params: ParamsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Re-score stored generations judged by another verifier or judge (no inference)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from studybench.rescore import Selection, installed, plan_batches, rescore_batch

    settings = load_settings(params)
    selection = Selection(
        run_ids=tuple(run or ()),
        experiment=experiment,
        training_run=training_run,
        since=since,
        until=until,
    )
    batches = plan_batches(settings, selection)
    runs = [r for b in batches for r in b.run_ids]
    note(f"installed: {installed(settings).describe()}; {len(runs)} run(s) to re-score")
    if dry_run:
        for batch in batches:
            say(f"{batch.label}: {' '.join(batch.run_ids)}")
        return
    results = []
    with Progress(
        TextColumn("[bold]rescore"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.description}"),
        console=err,
        transient=True,
    ) as bar:
        overall = bar.add_task("", total=len(runs))
        for batch in batches:

            def started(run_id: str) -> None:
                bar.update(overall, description=f"run {run_id}")

            def progress(what: str, done: int, total: int) -> None:
                bar.update(overall, description=f"{what} {done}/{total}")

            def finished(outcome: Any) -> None:
                bar.advance(overall)
                if not as_json:
                    bar.stop()
                    _print_flips(outcome)
                    bar.start()

            outcome = rescore_batch(
                settings,
                batch.label,
                batch.run_ids,
                on_run=started,
                on_progress=progress,
                on_done=finished,
            )
            for run_id, why in outcome.refused.items():
                bar.advance(overall)
                note(f"not re-scored: {run_id}: {why}")
            results.append(outcome)
    if as_json:
        out.print_json(json.dumps([json.loads(r.model_dump_json()) for r in results]))
        return
    rescored = sum(1 for r in results for o in r.outcomes if o.status == "rescored")
    refused = sum(len(r.refused) for r in results)
    say(f"{rescored} run(s) re-scored, {refused} refused")
    if refused:
        raise typer.Exit(2)
