"""The bodies of the Airflow evaluation tasks, as plain functions over run folders.

DAG files only wire these together; each function takes and returns small JSON values
(run folder paths, dicts), so a task's XCom stays tiny and every step can also be run by
hand (``studybench task ...``). Settings are read in the task process from
``$STUDYBENCH_PARAMS`` (default ``params.yaml``) and ``$STUDYBENCH_PROFILE`` in the project
folder (``$STUDYBENCH_REPO``), the same way the CLI reads them.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from studybench.config import Settings, load_settings
from studybench.errors import DataError, StudyBenchError
from studybench.pipeline import evaluate as ev

log = logging.getLogger(__name__)
REPO_ENV = "STUDYBENCH_REPO"


class RegressionError(StudyBenchError):
    """An evaluation dropped beyond seed noise (the nightly run fails with this)."""


def task_settings(repo: str | Path | None = None) -> Settings:
    """Settings for a task: run in the project folder so relative paths in params resolve."""
    folder = Path(repo or os.environ.get(REPO_ENV) or Path.cwd())
    os.chdir(folder)
    return load_settings()


def mlflow_run_url(settings: Settings, run_id: str) -> str:
    from studybench.tracking.mlflow_log import client_for

    base = settings.tracking.ui_url or (
        settings.tracking.uri
        if settings.tracking.uri.startswith(("http://", "https://"))
        else "http://127.0.0.1:5000"
    )
    experiment = client_for(settings).get_run(run_id).info.experiment_id
    return f"{base.rstrip('/')}/#/experiments/{experiment}/runs/{run_id}"


def plan_checkpoints(locations: Iterable[str], settings: Settings) -> list[str]:
    """Run folders of the checkpoints to evaluate, in order; already-evaluated ones are
    skipped with a log line. A checkpoint that cannot be evaluated fails the plan only when
    nothing else can be evaluated (its reason is logged either way)."""
    roots: list[str] = []
    problems: list[str] = []
    for location in dict.fromkeys(locations):
        try:
            target = ev.plan_checkpoint(location, settings)
        except StudyBenchError as exc:
            log.error("cannot evaluate %s", exc)
            problems.append(str(exc))
            continue
        if target.skip_reason:
            log.info("skipping %s (%s): %s", location, target.name, target.skip_reason)
            continue
        log.info("planned %s -> %s", location, target.run_root)
        roots.append(target.run_root)
    if problems and not roots:
        raise DataError("no checkpoint can be evaluated:\n  " + "\n  ".join(problems))
    return roots


def plan_nightly(settings: Settings, run_tag: str) -> dict[str, list[str]]:
    """Run folders of tonight's models and the models that could not be resolved."""
    roots: list[str] = []
    problems: list[str] = []
    if not settings.nightly.models:
        log.warning("nightly.models is empty in params.yaml: nothing to evaluate")
    for spec in settings.nightly.models:
        try:
            target = ev.plan_nightly_model(spec, settings, run_tag=run_tag)
        except StudyBenchError as exc:
            log.error("nightly model %s: %s", spec.name, exc)
            problems.append(f"{spec.name}: {exc}")
            continue
        if target.skip_reason:
            log.info("skipping %s: %s", spec.name, target.skip_reason)
            continue
        roots.append(target.run_root)
    return {"run_roots": roots, "problems": problems}


def prepare_engine(run_root: str) -> str:
    """Setup: the target is loadable before an engine slot is taken (a model folder that
    vanished, e.g. rotated away by ``save_total_limit``, fails here with its path)."""
    target = ev.Target.load(run_root)
    if target.engine in ("vllm", "hf") and not Path(target.model).is_dir():
        raise StudyBenchError(f"{target.name}: model folder {target.model} no longer exists")
    return run_root


def generate(run_root: str, settings: Settings) -> dict[str, Any]:
    target = ev.Target.load(run_root)
    last: dict[str, int] = {}

    def report(split: str, progress: Any) -> None:
        done = progress.turns_generated + progress.turns_reused
        if done - last.get(split, -1000) >= max(1, progress.turns_total // 10):
            last[split] = done
            log.info(
                "%s %s: %d/%d turns (%d reused), %.0f tok/s, %d error(s)",
                target.name,
                split,
                done,
                progress.turns_total,
                progress.turns_reused,
                progress.tokens_per_s,
                progress.errors,
            )

    return ev.generate(target, settings, on_progress=report)


def stop_engine(run_root: str) -> bool:
    return ev.stop_leftover_engine(ev.Target.load(run_root))


def judge_units(run_roots: Sequence[str]) -> list[dict[str, Any]]:
    return [unit for root in run_roots for unit in ev.Target.load(root).units()]


def judge_unit(unit: dict[str, Any], settings: Settings) -> dict[str, Any]:
    target = ev.Target.load(unit["run_root"])
    summary = ev.judge(target, str(unit["split"]), int(unit["seed"]), settings)
    log.info("%s %s seed %s: %s", target.name, unit["split"], unit["seed"], summary)
    return {**unit, **summary.model_dump()}


def log_run(run_root: str, settings: Settings) -> dict[str, Any]:
    target = ev.Target.load(run_root)
    run_id = ev.log_results(target, settings)
    url = mlflow_run_url(settings, run_id)
    log.info("%s logged to MLflow: %s", target.name, url)
    return {"run_root": run_root, "run_id": run_id, "url": url}


def check_run(logged: dict[str, Any], settings: Settings, baseline: str) -> dict[str, Any]:
    target = ev.Target.load(logged["run_root"])
    result = ev.check(target, logged["run_id"], settings, baseline)
    for note in result.notes:
        log.info("%s: %s", target.name, note)
    for what, run in result.compared.items():
        log.info("%s compared with %s (run %s)", target.name, what, run)
    return result.model_dump()


def verdict(
    results: Sequence[dict[str, Any]], *, fail_on_regression: bool, problems: Sequence[str] = ()
) -> str:
    """The run's last word: a summary, or a :class:`RegressionError` listing every
    regression (and every model that could not be evaluated) so Airflow's alerting fires."""
    checks = [ev.CheckResult.model_validate(r) for r in results]
    message = ev.regression_message(checks)
    if problems:
        message += ("\n" if message else "") + "not evaluated:\n  " + "\n  ".join(problems)
    if message and (fail_on_regression or problems):
        raise RegressionError(message)
    summary = f"{len(checks)} evaluation(s) checked, {sum(len(c.regressions) for c in checks)} "
    summary += "regression(s)" + (f":\n{message}" if message else "")
    log.info(summary)
    return summary
