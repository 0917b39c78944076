"""Operating the platform on one machine: ``trigger`` (push a checkpoint to Airflow),
``airflow`` (a local Airflow over this project) and ``demo`` (the end-to-end demo)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from studybench.cli.common import ParamsOpt, note, out
from studybench.config import load_settings


def trigger(
    checkpoint: Annotated[str, typer.Argument(help="Checkpoint folder to evaluate.")],
    params: ParamsOpt = None,
) -> None:
    """Ask Airflow to evaluate a checkpoint now (for training code that prefers push)."""
    from studybench.local_airflow import CHECKPOINT_DAG, trigger_checkpoint

    location, run = trigger_checkpoint(checkpoint, load_settings(params))
    note(f"triggered {CHECKPOINT_DAG} run {run.get('dag_run_id')} for {location}")
    out.print(run.get("dag_run_id", ""), markup=False, highlight=False)


def airflow_command(
    port: Annotated[int | None, typer.Option(help="API port (default: airflow.port).")] = None,
    params: ParamsOpt = None,
) -> None:
    """Run a local Airflow (standalone: scheduler, dag-processor, triggerer, API server) on
    127.0.0.1 over this project's dags/ and plugins/, until Ctrl-C."""
    from studybench import local_airflow as la

    settings = load_settings(params)
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
            note(f"Airflow is up: http://127.0.0.1:{chosen}  (log: {airflow.log})")
            where = home / la.PASSWORD_FILE
            if first:
                note(f"user {settings.airflow.username}, password {airflow.api.password}")
                note(f"(shown once; kept in {where})")
            else:
                note(f"user {settings.airflow.username}; password in {where}")
            note(
                f"{la.CHECKPOINT_DAG} is on and watching "
                f"{', '.join(settings.checkpoints.roots)}; studybench_nightly and "
                "studybench_data stay paused until you turn them on"
            )
            note("Ctrl-C stops everything")
            code = la.wait_until_exit(airflow)
            note(f"airflow standalone exited with code {code}; see {airflow.log}")
    except KeyboardInterrupt:
        note("Airflow stopped")


def demo_command(
    timeout_s: Annotated[float, typer.Option(help="Give up after this long.")] = 1500.0,
    params: ParamsOpt = None,
) -> None:
    """The end-to-end demo: train a tiny model and let the real Airflow evaluate each
    checkpoint as it appears (profile ``demo`` of params.yaml)."""
    from studybench.demo import run_demo

    run_demo(params or Path("params.yaml"), timeout_s=timeout_s)
