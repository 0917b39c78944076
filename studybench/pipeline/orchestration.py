"""The bodies of the Airflow evaluation tasks, as plain functions over run folders.

DAG files only wire these together; each function takes and returns small JSON values
(run folder paths, dicts), so a task's XCom stays tiny and every step can also be run by
hand (``studybench task ...``). Settings are read in the task process from
``$STUDYBENCH_PARAMS`` (default ``params.yaml``) and ``$STUDYBENCH_PROFILE`` in the project
folder (``$STUDYBENCH_REPO``), the same way the CLI reads them.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from studybench.config import MethodArtefactSpec, Settings, load_settings
from studybench.errors import ConfigError, DataError, StudyBenchError
from studybench.fileio import write_atomic
from studybench.pipeline import evaluate as ev
from studybench.tracking.ui_links import run_url

log = logging.getLogger(__name__)
REPO_ENV = "STUDYBENCH_REPO"


class RegressionError(StudyBenchError):
    """An evaluation dropped beyond seed noise (the nightly run fails with this)."""


class NotReadyError(StudyBenchError):
    """An earlier step of this target did not finish: the step is skipped, not failed (the
    failure is already reported by its own task, and the verdict lists the target)."""


def task_settings(repo: str | Path | None = None) -> Settings:
    """Settings for a task: run in the project folder so relative paths in params resolve.
    The params file must exist: a worker started elsewhere must not fall back to built-in
    defaults and write its results somewhere nobody looks."""
    folder = Path(repo or os.environ.get(REPO_ENV) or Path.cwd())
    os.chdir(folder)
    return load_settings(require_file=True)


def mlflow_ui_base(settings: Settings) -> str:
    """The MLflow UI links point at: ``tracking.ui_url``, else an http tracking URI, else
    the local ``make mlflow-ui`` (credentials never included)."""
    base = settings.tracking.ui_url or (
        settings.tracking.uri
        if settings.tracking.uri.startswith(("http://", "https://"))
        else "http://127.0.0.1:5000"
    )
    return public_url(base).rstrip("/")


def mlflow_run_url(settings: Settings, run_id: str) -> str:
    from studybench.tracking.mlflow_log import client_for

    experiment = client_for(settings).get_run(run_id).info.experiment_id
    return run_url(mlflow_ui_base(settings), experiment, run_id)


def public_url(url: str) -> str:
    """``url`` without credentials (never put them into logs or XCom), keeping the host,
    the port (an IPv6 host keeps its brackets), the path and the query."""
    parts = urlsplit(url)
    if not (parts.username or parts.password):
        return url
    host = parts.hostname or ""
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    netloc = host + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def artefacts_from_conf(conf: dict[str, Any]) -> MethodArtefactSpec | None:
    """The method artefacts a DAG run's conf names (``{"checkpoint": ..., "gepa": ...,
    "gepa_iteration": 3, "guidance": ...}`` or ``{"artefacts": {...}}``); a wrong key or
    value is a :class:`ConfigError` naming it."""
    from pydantic import ValidationError

    fields = set(MethodArtefactSpec.model_fields)
    given = dict(conf.get("artefacts") or {})
    given.update({k: v for k, v in conf.items() if k in fields})
    if not given:
        return None
    try:
        return MethodArtefactSpec.model_validate(given)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"])
        raise ConfigError(f"DAG run conf: artefacts field {field!r}: {first['msg']}") from None


def plan_checkpoints(
    locations: Iterable[str], settings: Settings, artefacts: MethodArtefactSpec | None = None
) -> list[str]:
    """Run folders of the checkpoints to evaluate (with the method artefacts, if any), in
    order; already-evaluated ones are skipped with a log line. A checkpoint that cannot be
    evaluated fails the plan only when nothing else can be evaluated (its reason is logged
    either way)."""
    roots: list[str] = []
    problems: list[str] = []
    for location in dict.fromkeys(locations):
        try:
            target = ev.plan_checkpoint(location, settings, artefacts=artefacts)
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


def _generated(root: Path) -> bool:
    return (root / ev.GENERATED_FILE).exists()


def _judged_marker(root: Path, split: str, seed: int, benchmark: str = "") -> Path:
    prefix = f"{benchmark}-" if benchmark and benchmark != ev.STUDYBENCH else ""
    return root / ev.JUDGED_DIR / f"{prefix}{split}-seed{seed}.json"


def judge_units(run_roots: Sequence[str]) -> list[dict[str, Any]]:
    """(split, seed) units of the targets whose generation finished; the others are left
    to the verdict, so one failed model does not stop the judging of the rest."""
    units = []
    for root in run_roots:
        if _generated(Path(root)):
            units.extend(ev.Target.load(root).units())
        else:
            log.warning("%s: generation did not finish; not judged", root)
    return units


def judge_unit(unit: dict[str, Any], settings: Settings) -> dict[str, Any]:
    """Judge one (benchmark, split or part, seed) unit and mark it judged."""
    target = ev.Target.load(unit["run_root"])
    benchmark = str(unit.get("benchmark", ""))
    split, seed = str(unit["split"]), int(unit["seed"])
    summary = ev.judge(target, split, seed, settings, benchmark=benchmark)
    values = summary if isinstance(summary, dict) else summary.model_dump()
    label = f"{benchmark} {split}" if benchmark else split
    log.info("%s %s seed %s: %s", target.name, label, seed, summary)
    marker = _judged_marker(Path(target.run_root), split, seed, benchmark)
    write_atomic(marker, json.dumps(values, default=str) + "\n")
    return {**unit, **values}


def log_run(run_root: str, settings: Settings) -> dict[str, Any]:
    """Log a target whose every (split, seed) is judged; :class:`NotReadyError` otherwise."""
    target = ev.Target.load(run_root)
    root = Path(run_root)
    if not _generated(root):
        raise NotReadyError(f"{target.name}: generation did not finish; nothing to log")
    missing = [
        " ".join(filter(None, (u.get("benchmark"), u["split"], f"seed {u['seed']}")))
        for u in target.units()
        if not _judged_marker(root, u["split"], u["seed"], u.get("benchmark", "")).exists()
    ]
    if missing:
        raise NotReadyError(f"{target.name}: judging did not finish for {', '.join(missing)}")
    run_id = ev.log_results(target, settings)
    url = mlflow_run_url(settings, run_id)
    log.info("%s logged to MLflow: %s", target.name, url)
    return {"run_root": run_root, "run_id": run_id, "url": url}


def check_run(run_root: str, settings: Settings, baseline: str) -> dict[str, Any]:
    """Regression check of a logged target; writes ``check.json`` for the verdict."""
    target = ev.Target.load(run_root)
    try:
        run_id = json.loads((Path(run_root) / ev.RESULT_FILE).read_text())["run_id"]
    except (OSError, ValueError, KeyError):
        raise NotReadyError(f"{target.name}: not logged to MLflow; nothing to check") from None
    result = ev.check(target, run_id, settings, baseline)
    for note in result.notes:
        log.info("%s: %s", target.name, note)
    for what, run in result.compared.items():
        log.info("%s compared with %s (run %s)", target.name, what, run)
    write_atomic(Path(run_root) / ev.CHECK_FILE, result.model_dump_json(indent=1) + "\n")
    return result.model_dump()


def verdict(
    run_roots: Sequence[str], *, fail_on_regression: bool, problems: Sequence[str] = ()
) -> str:
    """The run's last word, from every planned target's ``check.json``: a summary, or a
    :class:`RegressionError` listing every regression and every target that could not be
    evaluated, so Airflow's alerting fires."""
    checks: list[ev.CheckResult] = []
    missing = list(problems)
    for root in run_roots:
        target = ev.Target.load(root)
        try:
            checks.append(
                ev.CheckResult.model_validate_json((Path(root) / ev.CHECK_FILE).read_text())
            )
        except (OSError, ValueError):
            missing.append(
                f"{target.name}: generation, judging or logging failed (see those task logs; "
                f"run folder {root})"
            )
    return decide(checks, missing, fail_on_regression=fail_on_regression)


def decide(
    checks: Sequence[ev.CheckResult], missing: Sequence[str], *, fail_on_regression: bool
) -> str:
    """A summary, or :class:`RegressionError` when something was not evaluated or (with
    ``fail_on_regression``) regressed."""
    message = ev.regression_message(checks)
    if missing:
        message += ("\n" if message else "") + "not evaluated:\n  " + "\n  ".join(missing)
    if missing or (message and fail_on_regression):
        raise RegressionError(message)
    found = sum(len(c.regressions) for c in checks)
    summary = f"{len(checks)} evaluation(s) checked, {found} regression(s)"
    summary += f":\n{message}" if message else ""
    log.info(summary)
    return summary


def refresh_paper_report(settings: Settings) -> str:
    """The nightly DAG's report step: rebuild the paper report of
    ``nightly.report_experiment`` (``studybench report paper``) and log it back to MLflow;
    a one-line summary, or that the step is off (the default)."""
    experiment = settings.nightly.report_experiment
    if not experiment:
        return "paper report: off (set nightly.report_experiment to refresh one nightly)"
    from studybench.paper.compose import build_paper_report

    report = build_paper_report(settings, experiment=experiment, ui_base=mlflow_ui_base(settings))
    summary = (
        f"paper report of experiment {experiment!r} refreshed: {report.folder}, MLflow run "
        f"{report.report_run} (from {len(report.used_runs)} run(s))"
    )
    log.info(summary)
    return summary
