"""``studybench checkpoints ...``: find complete checkpoints and evaluate one without
Airflow (what the checkpoint DAG does for it)."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.table import Table

from studybench.cli.common import JsonOpt, ParamsOpt, note, out
from studybench.config import load_settings

checkpoints_app = typer.Typer(help="Find complete checkpoints and evaluate them.")


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

    cp = load_settings(params).checkpoints
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
        note(f"no checkpoint folders under {', '.join(roots or cp.roots)}")


@checkpoints_app.command("eval")
def checkpoints_eval(
    checkpoint: Annotated[str, typer.Argument(help="Checkpoint folder (path or fsspec URL).")],
    splits: Annotated[str | None, typer.Option(help="Comma-separated splits.")] = None,
    force: Annotated[bool, typer.Option(help="Evaluate even if already logged.")] = False,
    guidance: Annotated[str, typer.Option(help="Guidance JSON evaluated with it.")] = "",
    ace: Annotated[str, typer.Option(help="ACE playbook evaluated with it.")] = "",
    gepa: Annotated[str, typer.Option(help="GEPA prompt history (JSONL) or text.")] = "",
    gepa_iteration: Annotated[int | None, typer.Option(help="GEPA row: iteration <= N.")] = None,
    gepa_rollouts: Annotated[int | None, typer.Option(help="GEPA row: rollouts <= N.")] = None,
    evoskill: Annotated[str, typer.Option(help="EvoSkill skills file.")] = "",
    params: ParamsOpt = None,
) -> None:
    """Evaluate one checkpoint end to end without Airflow (what the DAG does for it), on
    every benchmark of ``benchmarks.run``, optionally with method artefacts."""
    from studybench.config import MethodArtefactSpec
    from studybench.pipeline import evaluate as ev
    from studybench.pipeline.orchestration import RegressionError, mlflow_run_url

    settings = load_settings(params)
    spec = MethodArtefactSpec(
        guidance=guidance,
        ace=ace,
        gepa=gepa,
        gepa_iteration=gepa_iteration,
        gepa_rollouts=gepa_rollouts,
        evoskill=evoskill,
    )
    target = ev.plan_checkpoint(
        checkpoint,
        settings,
        splits=[s for s in splits.split(",") if s] if splits else None,
        check_done=not force,
        artefacts=spec,
    )
    if target.skip_reason:
        note(f"skipping {target.name}: {target.skip_reason}")
        return
    note(f"evaluating {target.name}: {', '.join(target.plans)}, seeds {target.seeds}")
    done = ev.evaluate(
        target,
        settings,
        baseline=settings.checkpoints.baseline,
        log=True,
        on_unit=lambda unit, _: note(
            f"judged {unit.get('benchmark', 'studybench')} {unit['split']} seed {unit['seed']}"
        ),
    )
    assert done.check is not None
    note(f"logged: {mlflow_run_url(settings, done.run_id)}")
    for what, run in done.check.compared.items():
        note(f"compared with {what} (run {run})")
    message = ev.regression_message([done.check])
    if message:
        note(message)
        if settings.checkpoints.fail_on_regression:
            raise RegressionError(message)
