"""``studybench task ...``: the evaluation DAG's steps, one command per task, so a DAG task
and a shell run the same code."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from studybench.cli.common import ParamsOpt, note, out
from studybench.config import load_settings

task_app = typer.Typer(help="The evaluation DAG's steps, one command per task.")

RunRootArg = Annotated[Path, typer.Argument(help="Target run folder (with target.json).")]


@task_app.command("plan")
def task_plan(
    checkpoint: Annotated[str, typer.Argument(help="Checkpoint folder (path or fsspec URL).")],
    params: ParamsOpt = None,
) -> None:
    """Plan a checkpoint's evaluation; prints the run folder (empty if already evaluated)."""
    from studybench.pipeline.orchestration import plan_checkpoints

    for root in plan_checkpoints([checkpoint], load_settings(params)):
        out.print(root, markup=False, highlight=False)


@task_app.command("generate")
def task_generate(run_root: RunRootArg, params: ParamsOpt = None) -> None:
    """Start the engine, generate every split and seed, stop the engine (resumable)."""
    from studybench.pipeline.orchestration import generate

    summary = generate(str(run_root), load_settings(params))
    out.print_json(json.dumps(summary))


@task_app.command("stop-engine")
def task_stop_engine(run_root: RunRootArg) -> None:
    """Stop a vLLM server a killed generate step left behind."""
    from studybench.pipeline.orchestration import stop_engine

    note("stopped a leftover server" if stop_engine(str(run_root)) else "no server running")


@task_app.command("judge")
def task_judge(
    run_root: RunRootArg,
    split: Annotated[str, typer.Option(help="Split (or, with --benchmark, part) to judge.")],
    seed: Annotated[int | None, typer.Option(help="Seed to judge (default: all).")] = None,
    benchmark: Annotated[str, typer.Option(help="Benchmark of the part.")] = "studybench",
    params: ParamsOpt = None,
) -> None:
    """Judge one (split, seed) of a target."""
    from studybench.pipeline import evaluate as ev

    settings = load_settings(params)
    summary = ev.judge(ev.Target.load(run_root), split, seed, settings, benchmark=benchmark)
    out.print_json(json.dumps(summary) if isinstance(summary, dict) else summary.model_dump_json())


@task_app.command("log")
def task_log(run_root: RunRootArg, params: ParamsOpt = None) -> None:
    """Log a judged target to MLflow (idempotent)."""
    from studybench.pipeline.orchestration import log_run

    out.print_json(json.dumps(log_run(str(run_root), load_settings(params))))


@task_app.command("check")
def task_check(
    run_root: RunRootArg,
    baseline: Annotated[str, typer.Option(help="Run id or models:/NAME@ALIAS.")] = "",
    params: ParamsOpt = None,
) -> None:
    """Compare a logged target with the previous evaluation of its lineage and a baseline;
    exit 1 on a regression."""
    from studybench.pipeline import evaluate as ev

    settings = load_settings(params)
    target = ev.Target.load(run_root)
    result_file = Path(target.run_root) / ev.RESULT_FILE
    try:
        run_id = json.loads(result_file.read_text())["run_id"]
    except (OSError, ValueError, KeyError):
        raise typer.BadParameter(f"{result_file}: not logged yet (run: task log)") from None
    result = ev.check(target, run_id, settings, baseline or settings.checkpoints.baseline)
    out.print_json(result.model_dump_json())
    message = ev.regression_message([result])
    if message:
        note(message)
        raise typer.Exit(1)
