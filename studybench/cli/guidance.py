"""``studybench guidance ...``: one command per guidance stage (the DVC stages run these),
``all`` for the whole chain, and ``gap`` for the Guidance Gap of judged run folders."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from studybench.cli.common import ParamsOpt, err, note, out
from studybench.config import load_settings

guidance_app = typer.Typer(
    help="Textbook-grounded guidance: decompose, canonicalise, retrieve, verify, guide, admit.",
    no_args_is_help=True,
)
OutDirOpt = Annotated[
    Path | None, typer.Option("--out-dir", help="Stage folder (default: guidance.out_dir).")
]
SplitOpt = Annotated[Path | None, typer.Option(help="Problems (default: guidance.split).")]


@contextmanager
def _bar(label: str) -> Iterator[Callable[[int, int], None]]:
    with Progress(
        TextColumn(f"[bold]{label}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=False,
    ) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


def _summary(summary: object) -> None:
    from studybench.guidance.workflow import StageSummary

    assert isinstance(summary, StageSummary)
    note(
        f"{summary.stage}: {summary.items} item(s), {summary.failures} failure(s) recorded, "
        f"{summary.teacher_calls} teacher call(s), {summary.cached_replies} cached "
        f"repl(ies) -> {summary.out}"
    )


@guidance_app.command("decompose")
def decompose_command(
    split: SplitOpt = None, out_dir: OutDirOpt = None, params: ParamsOpt = None
) -> None:
    """Stage 1: the teacher lists each sub-problem's knowledge points (JSON, validated)."""
    from studybench.guidance.workflow import run_decompose

    settings = load_settings(params)
    with _bar("decompose") as update:
        _summary(run_decompose(settings, split=split, out_dir=out_dir, on_progress=update))


@guidance_app.command("canonicalise")
def canonicalise_command(out_dir: OutDirOpt = None, params: ParamsOpt = None) -> None:
    """Stage 2: merge near-duplicate knowledge points; writes the review file."""
    from studybench.guidance.workflow import run_canonicalise

    _summary(run_canonicalise(load_settings(params), out_dir=out_dir))


@guidance_app.command("retrieve")
def retrieve_command(
    out_dir: OutDirOpt = None,
    fragments: Annotated[Path | None, typer.Option(help="fragments.jsonl")] = None,
    params: ParamsOpt = None,
) -> None:
    """Stage 3: BM25 + dense candidates per knowledge point, fused by RRF."""
    from studybench.guidance.workflow import run_retrieve

    with _bar("retrieve") as update:
        _summary(
            run_retrieve(
                load_settings(params), out_dir=out_dir, fragments=fragments, on_progress=update
            )
        )


@guidance_app.command("verify")
def verify_command(
    out_dir: OutDirOpt = None,
    fragments: Annotated[Path | None, typer.Option(help="fragments.jsonl")] = None,
    params: ParamsOpt = None,
) -> None:
    """Stage 4: teacher coverage scores with verbatim quotes, checked deterministically."""
    from studybench.guidance.workflow import run_verify

    settings = load_settings(params)
    with _bar("verify") as update:
        _summary(run_verify(settings, out_dir=out_dir, fragments=fragments, on_progress=update))


@guidance_app.command("guide")
def guide_command(
    split: SplitOpt = None, out_dir: OutDirOpt = None, params: ParamsOpt = None
) -> None:
    """Stage 5: guidance per sub-problem behind the leakage gate; writes guidance.json."""
    from studybench.guidance.workflow import run_guide

    with _bar("guide") as update:
        _summary(run_guide(load_settings(params), split=split, out_dir=out_dir, on_progress=update))


@guidance_app.command("admit")
def admit_command(
    guidance: Annotated[Path | None, typer.Option(help="Guidance JSON.")] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Admission report JSON.")] = None,
    run_dir: Annotated[Path | None, typer.Option(help="Rollout folder (resumable).")] = None,
    params: ParamsOpt = None,
) -> None:
    """Stage 6: the filter model answers with the guidance; solved once = admitted."""
    from studybench.guidance.admit import ADMISSION, run_admit
    from studybench.guidance.workflow import GUIDANCE

    settings = load_settings(params)
    folder = settings.guidance.out_dir
    with _bar("admit") as update:
        report = run_admit(
            settings,
            guidance or folder / GUIDANCE,
            out or folder / ADMISSION,
            run_dir=run_dir,
            on_progress=lambda p: update(p.turns_generated + p.turns_reused, p.turns_total),
        )
    note(
        f"admitted {len(report['admitted_parents'])} of {report['parents_with_guidance']} "
        f"guided parent(s) and {len(report['admitted_slots'])} of "
        f"{report['slots_with_guidance']} guided slot(s) -> {out or folder / ADMISSION}"
    )


@guidance_app.command("all")
def all_command(
    split: SplitOpt = None, out_dir: OutDirOpt = None, params: ParamsOpt = None
) -> None:
    """Stages 1-5 in order (each cached: a re-run makes no teacher calls), then stage 6."""
    decompose_command(split=split, out_dir=out_dir, params=params)
    canonicalise_command(out_dir=out_dir, params=params)
    retrieve_command(out_dir=out_dir, params=params)
    verify_command(out_dir=out_dir, params=params)
    guide_command(split=split, out_dir=out_dir, params=params)
    from studybench.guidance.admit import ADMISSION
    from studybench.guidance.workflow import GUIDANCE

    folder = out_dir or load_settings(params).guidance.out_dir
    admit_command(guidance=folder / GUIDANCE, out=folder / ADMISSION, params=params)


@guidance_app.command("gap")
def gap_command(
    method_run: Annotated[Path, typer.Argument(help="Judged run folder of the method.")],
    base: Annotated[Path, typer.Option(help="Judged run of the base model, no guidance.")],
    guided: Annotated[Path, typer.Option(help="Judged run of the base model with guidance.")],
    as_json: Annotated[bool, typer.Option("--json", help="JSON on stdout.")] = False,
) -> None:
    """The Guidance Gap closed by a method, Par and Sub level; saved beside the method's
    report (``guidance_gap.json``), which ``studybench report`` and MLflow logging show."""
    from studybench.benchmarks.studybench.gap_file import save_gap
    from studybench.benchmarks.studybench.guidance_gap import gap_from_run_dirs

    gap = gap_from_run_dirs(method_run, base, guided)
    save_gap(method_run, gap)
    if as_json:
        out.print_json(gap.model_dump_json())
        return
    for line in gap.lines():
        note(line)
