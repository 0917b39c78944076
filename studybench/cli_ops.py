"""CLI commands of the orchestration layer: checkpoint discovery, the evaluation steps that
the DAG tasks run (``studybench task ...``), ``trigger``, ``train``, ``airflow`` and ``demo``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from studybench.config import Settings, load_settings

out = Console()
err = Console(stderr=True)

checkpoints_app = typer.Typer(help="Find complete checkpoints and evaluate them.")
task_app = typer.Typer(help="The evaluation DAG's steps, one command per task.")
train_app = typer.Typer(help="Reference training recipes (they write marked checkpoints).")

ParamsOpt = Annotated[Path | None, typer.Option(help="params.yaml to use.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON on stdout.")]
RunRootArg = Annotated[Path, typer.Argument(help="Target run folder (with target.json).")]


def _say(text: str) -> None:
    err.print(text, markup=False, highlight=False, soft_wrap=True)


def _settings(params: Path | None) -> Settings:
    return load_settings(params)


# ---------------------------------------------------------------- checkpoints


@checkpoints_app.command("scan")
def checkpoints_scan(
    roots: Annotated[
        list[str] | None, typer.Argument(help="Roots (default: checkpoints.roots).")
    ] = None,
    as_json: JsonOpt = False,
    params: ParamsOpt = None,
) -> None:
    """Inspect every checkpoint folder under the roots: ready, pending or invalid, and why."""
    from studybench.checkpoints import scan_roots

    cp = _settings(params).checkpoints
    infos = scan_roots(
        roots or list(cp.roots),
        depth=cp.depth,
        quiet_period_s=cp.quiet_period_s,
        allow_pickle=cp.allow_pickle,
    )
    if as_json:
        out.print_json(json.dumps([i.model_dump(mode="json") for i in infos]))
        return
    table = Table(title="checkpoints", title_justify="left")
    for column in ("folder", "state", "step", "training run", "identity", "reason"):
        table.add_column(column)
    for info in infos:
        table.add_row(
            info.uri,
            info.state.value,
            "" if info.step is None else str(info.step),
            info.training_run or "",
            info.identity or "",
            info.reason,
        )
    out.print(table)
    if not infos:
        _say(f"no checkpoint folders under {', '.join(roots or cp.roots)}")


def _run_target(target: Any, settings: Settings, baseline: str) -> dict[str, Any]:
    from studybench.pipeline import evaluate as ev
    from studybench.pipeline.orchestration import mlflow_run_url

    _say(f"generating {target.name}: splits {', '.join(target.splits)}, seeds {target.seeds}")
    ev.generate(target, settings)
    for split in target.splits:
        summary = ev.judge(target, split, None, settings)
        _say(f"judged {split}: {summary.items} completion(s), {summary.llm_calls} LLM call(s)")
    run_id = ev.log_results(target, settings)
    result = ev.check(target, run_id, settings, baseline)
    _say(f"logged: {mlflow_run_url(settings, run_id)}")
    for what, run in result.compared.items():
        _say(f"compared with {what} (run {run})")
    return {"run_id": run_id, "check": result.model_dump()}


@checkpoints_app.command("eval")
def checkpoints_eval(
    checkpoint: Annotated[str, typer.Argument(help="Checkpoint folder (path or fsspec URL).")],
    splits: Annotated[str | None, typer.Option(help="Comma-separated splits.")] = None,
    force: Annotated[bool, typer.Option(help="Evaluate even if already logged.")] = False,
    params: ParamsOpt = None,
) -> None:
    """Evaluate one checkpoint end to end without Airflow (what the DAG does for it)."""
    from studybench.pipeline import evaluate as ev
    from studybench.pipeline.orchestration import RegressionError

    settings = _settings(params)
    target = ev.plan_checkpoint(
        checkpoint,
        settings,
        splits=[s for s in splits.split(",") if s] if splits else None,
        check_done=not force,
    )
    if target.skip_reason:
        _say(f"skipping {target.name}: {target.skip_reason}")
        return
    result = _run_target(target, settings, settings.checkpoints.baseline)
    message = ev.regression_message([ev.CheckResult.model_validate(result["check"])])
    if message:
        _say(message)
        if settings.checkpoints.fail_on_regression:
            raise RegressionError(message)


# ---------------------------------------------------------------- task commands


@task_app.command("plan")
def task_plan(
    checkpoint: Annotated[str, typer.Argument(help="Checkpoint folder (path or fsspec URL).")],
    params: ParamsOpt = None,
) -> None:
    """Plan a checkpoint's evaluation; prints the run folder (empty if already evaluated)."""
    from studybench.pipeline.orchestration import plan_checkpoints

    for root in plan_checkpoints([checkpoint], _settings(params)):
        out.print(root, markup=False, highlight=False)


@task_app.command("generate")
def task_generate(run_root: RunRootArg, params: ParamsOpt = None) -> None:
    """Start the engine, generate every split and seed, stop the engine (resumable)."""
    from studybench.pipeline.orchestration import generate

    summary = generate(str(run_root), _settings(params))
    out.print_json(json.dumps(summary))


@task_app.command("stop-engine")
def task_stop_engine(run_root: RunRootArg) -> None:
    """Stop a vLLM server a killed generate step left behind."""
    from studybench.pipeline.orchestration import stop_engine

    _say("stopped a leftover server" if stop_engine(str(run_root)) else "no server running")


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

    settings = _settings(params)
    summary = ev.judge(ev.Target.load(run_root), split, seed, settings, benchmark=benchmark)
    out.print_json(json.dumps(summary) if isinstance(summary, dict) else summary.model_dump_json())


@task_app.command("log")
def task_log(run_root: RunRootArg, params: ParamsOpt = None) -> None:
    """Log a judged target to MLflow (idempotent)."""
    from studybench.pipeline.orchestration import log_run

    out.print_json(json.dumps(log_run(str(run_root), _settings(params))))


@task_app.command("check")
def task_check(
    run_root: RunRootArg,
    baseline: Annotated[str, typer.Option(help="Run id or models:/NAME@ALIAS.")] = "",
    params: ParamsOpt = None,
) -> None:
    """Compare a logged target with the previous evaluation of its lineage and a baseline;
    exit 1 on a regression."""
    from studybench.pipeline import evaluate as ev

    settings = _settings(params)
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
        _say(message)
        raise typer.Exit(1)


# ---------------------------------------------------------------- trigger


def airflow_api(settings: Settings) -> Any:
    import os

    from studybench.local_airflow import AirflowAPI, admin_password

    password = os.environ.get(settings.airflow.password_env, "")
    if not password:
        password = admin_password(
            settings.airflow.home.resolve(), username=settings.airflow.username
        )
    return AirflowAPI(settings.airflow.url, settings.airflow.username, password)


def trigger(
    checkpoint: Annotated[str, typer.Argument(help="Checkpoint folder to evaluate.")],
    params: ParamsOpt = None,
) -> None:
    """Ask Airflow to evaluate a checkpoint now (for training code that prefers push)."""
    from studybench.checkpoints import inspect_checkpoint
    from studybench.errors import DataError
    from studybench.local_airflow import CHECKPOINT_DAG

    settings = _settings(params)
    location = checkpoint if "://" in checkpoint else str(Path(checkpoint).resolve())
    info = inspect_checkpoint(
        location, allow_pickle=settings.checkpoints.allow_pickle, assume_settled=True
    )
    if not info.ready:
        raise DataError(f"not triggering: {info.describe()}")
    run = airflow_api(settings).trigger(CHECKPOINT_DAG, {"checkpoint": location})
    _say(f"triggered {CHECKPOINT_DAG} run {run.get('dag_run_id')} for {location}")
    out.print(run.get("dag_run_id", ""), markup=False, highlight=False)


# ---------------------------------------------------------------- training


@train_app.command("sft")
def train_sft_command(
    model: Annotated[Path, typer.Option(help="Base model folder.")],
    out_dir: Annotated[Path, typer.Option("--out", help="Training run folder (checkpoints).")],
    data: Annotated[
        str, typer.Option(help="memorisation (the answered instruction layers) or a split file.")
    ] = "memorisation",
    steps: Annotated[int, typer.Option(help="Optimiser steps.")] = 160,
    learning_rate: Annotated[float, typer.Option(help="Learning rate.")] = 5e-3,
    batch_size: Annotated[int, typer.Option(help="Examples per step.")] = 8,
    save_steps: Annotated[int, typer.Option(help="Checkpoint every N steps.")] = 40,
    training_run: Annotated[str | None, typer.Option(help="Lineage name in MLflow.")] = None,
    params: ParamsOpt = None,
) -> None:
    """Supervised fine-tuning with TRL; every checkpoint gets the ready marker."""
    from studybench.data.loaders import load_parents
    from studybench.data.memorisation import sft_examples
    from studybench.pipeline.evaluate import split_file
    from studybench.training.sft import SFTRecipe, train_sft

    settings = _settings(params)
    parents = load_parents(split_file(data, settings))
    examples = sft_examples(parents, settings.protocol.system_prompt, settings.protocol.language)
    recipe = SFTRecipe(
        steps=steps,
        learning_rate=learning_rate,
        batch_size=batch_size,
        save_steps=save_steps,
        training_run=training_run,
    )
    _say(f"SFT on {len(examples)} example(s) from {data}: {recipe.model_dump()}")
    for folder in train_sft(model, out_dir, examples, recipe):
        _say(f"checkpoint {folder}")


# ---------------------------------------------------------------- local Airflow and demo


def _interrupt(*_: object) -> None:
    raise KeyboardInterrupt


def airflow_command(
    port: Annotated[int | None, typer.Option(help="API port (default: airflow.port).")] = None,
    params: ParamsOpt = None,
) -> None:
    """Run a local Airflow (standalone: scheduler, dag-processor, triggerer, API server) on
    127.0.0.1 over this project's dags/ and plugins/, until Ctrl-C."""
    import os
    import signal

    from studybench import local_airflow as la

    settings = _settings(params)
    home = settings.airflow.home.resolve()
    chosen = port or settings.airflow.port
    first = not (home / la.PASSWORD_FILE).exists()
    try:
        with la.running(
            Path.cwd(),
            settings,
            port=chosen,
            params=params,
            profile=os.environ.get("STUDYBENCH_PROFILE", ""),
        ) as airflow:
            _say(f"Airflow is up: http://127.0.0.1:{chosen}  (log: {airflow.log})")
            where = home / la.PASSWORD_FILE
            if first:
                _say(f"user {settings.airflow.username}, password {airflow.api.password}")
                _say(f"(shown once; kept in {where})")
            else:
                _say(f"user {settings.airflow.username}; password in {where}")
            _say(
                f"{la.CHECKPOINT_DAG} is on and watching "
                f"{', '.join(settings.checkpoints.roots)}; studybench_nightly and "
                "studybench_data stay paused until you turn them on"
            )
            _say("Ctrl-C stops everything")
            for number in (signal.SIGTERM, signal.SIGHUP):
                signal.signal(number, _interrupt)
            while airflow.process.poll() is None:
                time.sleep(1.0)
            code = airflow.process.returncode
            _say(f"airflow standalone exited with code {code}; see {airflow.log}")
    except KeyboardInterrupt:
        _say("Airflow stopped")


def demo_command(
    timeout_s: Annotated[float, typer.Option(help="Give up after this long.")] = 1500.0,
    params: ParamsOpt = None,
) -> None:
    """The end-to-end demo: train a tiny model and let the real Airflow evaluate each
    checkpoint as it appears (profile ``demo`` of params.yaml)."""
    from studybench.demo import run_demo

    run_demo(params or Path("params.yaml"), timeout_s=timeout_s)


def register(app: typer.Typer) -> None:
    app.add_typer(checkpoints_app, name="checkpoints")
    app.add_typer(task_app, name="task")
    app.add_typer(train_app, name="train")
    app.command("trigger")(trigger)
    app.command("airflow")(airflow_command)
    app.command("demo")(demo_command)
