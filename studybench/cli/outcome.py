"""How an evaluation's outcome is shown: progress bars while generating, one line per part
of what was generated and judged, and what tracking did. Shared by ``eval`` and ``judge``;
nothing here computes anything the composition did not return."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from studybench.cli.common import err, note, say
from studybench.config import Settings

JUDGED = (
    ("items", "completion(s)"),
    ("reused", "verdict(s) reused"),
    ("rule_judged", "verified by rule"),
    ("llm_calls", "LLM judge call(s)"),
    ("llm_cached", "LLM verdict(s) cached"),
    ("flagged", "flagged for the next run"),
)
"""How the counts of a judge summary read, in the order they are printed."""


def judged_line(label: str, summaries: list[dict[str, Any]]) -> str:
    """One line for the judge summaries of a split (one per seed), counts summed."""
    counts = [
        f"{sum(int(s[key]) for s in summaries)} {phrase}"
        for key, phrase in JUDGED
        if all(key in s for s in summaries)
    ]
    wall = sum(float(s.get("wall_s", 0.0)) for s in summaries)
    return (
        f"{label}: "
        + ", ".join(counts or [f"{len(summaries)} unit(s) judged"])
        + (f"; {wall:.1f} s" if wall else "")
    )


@contextmanager
def progress_bars() -> Iterator[Any]:
    """One progress bar per part being generated; yields the composition's callback."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

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
                detail=f"reused {p.turns_reused}  {p.tokens_per_s:,.0f} tok/s  errors {p.errors}",
            )

        yield show


def print_evaluation(target: Any, outcome: Any, settings: Settings) -> None:
    """What was generated and judged, one line per part."""
    from studybench.pipeline.target import STUDYBENCH

    for name, plan in target.plans.items():
        block = outcome.generated if name == STUDYBENCH else outcome.generated.get(name, {})
        for part in plan.parts:
            label = part if name == STUDYBENCH else f"{name}/{part}"
            s = block.get(part, {})
            say(
                f"{label}: {s.get('chains', 0)} chain(s), {s.get('turns', 0)} turn(s): "
                f"{s.get('generated', 0)} generated, {s.get('reused', 0)} reused, "
                f"{s.get('errors', 0)} error(s), {s.get('completion_tokens', 0):,} tokens; "
                f"store {plan.part_dir(part)}"
            )
            if s.get("errors"):
                say("failed turns are retried (with the turns after them) when you run this again")
            units = [
                u
                for u in outcome.judged
                if u["split"] == part and u.get("benchmark", STUDYBENCH) == name
            ]
            say(judged_line(label, units))
    flagged = sum(int(u.get("flagged", 0)) for u in outcome.judged)
    say(f"judged {len(outcome.judged)} (part, seed) unit(s); {flagged} verdict(s) flagged")


def print_tracking(outcome: Any, settings: Settings) -> None:
    """Where the evaluation was logged, what it was compared with, and any regression."""
    from studybench.pipeline.check import regression_message
    from studybench.tracking.mlflow_log import tracking_uri

    if outcome.tracking_error:
        note(f"warning: not logged to MLflow: {outcome.tracking_error}")
    if not outcome.run_id:
        return
    say(f"logged to MLflow: run {outcome.run_id} ({tracking_uri(settings)})")
    if outcome.registered:
        say(f"registered version {outcome.registered}")
    if outcome.check is not None:
        for what, run in outcome.check.compared.items():
            say(f"compared with {what} (run {run})")
        for line in outcome.check.notes:
            say(line)
        message = regression_message([outcome.check])
        if message:
            say(message)
