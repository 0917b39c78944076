"""Logging a judge calibration to MLflow, and finding the last one of a judge.

One run per judge (model, prompt text, parser version), found again by its fingerprint tag
``studybench.judge_fingerprint``: calibrating the same judge again updates its run. The run
lives in the experiment ``<tracking.experiment>-judge-calibration``; its name is
``<judge model>@<judge_version>``. Metrics: ``<group>/agreement``, ``/kappa``,
``/false_accept``, ``/false_reject`` with ``_low`` / ``_high`` interval ends, ``/n`` and
``/unparseable``, for ``all`` and each answer type; the report itself is the artefact
``calibration.json``. Only names and numbers are logged: no endpoint URL, no key, no model
output.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from studybench.config import Settings
from studybench.tracking.mlflow_log import client_for, experiment_id, find_run, keyed_run

FINGERPRINT_TAG = "studybench.judge_fingerprint"
SUFFIX = "-judge-calibration"


def _experiment(client: Any, settings: Settings, create: bool) -> str | None:
    name = settings.tracking.experiment + SUFFIX
    found = client.get_experiment_by_name(name)
    if found is not None:
        return str(found.experiment_id)
    if not create:
        return None
    return experiment_id(client, settings, name)


def _metrics(group: str, rates: Any) -> dict[str, float]:
    out = {f"{group}/n": float(rates.n), f"{group}/unparseable": float(rates.unparseable)}
    for name in ("agreement", "kappa", "false_accept", "false_reject"):
        value = getattr(rates, name)
        if value is None:
            continue
        out[f"{group}/{name}"] = float(value)
        interval = getattr(rates, f"{name}_ci")
        if interval is not None:
            out[f"{group}/{name}_low"], out[f"{group}/{name}_high"] = map(float, interval)
    return out


def log_calibration(settings: Settings, report: Any) -> str:
    """Log ``report`` (a :class:`studybench.judge.calibrate.CalibrationReport`); run id."""
    from mlflow.entities import Metric, Param, RunTag

    client = client_for(settings)
    experiment = _experiment(client, settings, create=True)
    assert experiment is not None
    run_id = keyed_run(
        client,
        experiment,
        f"{report.judge_model[:80]}@{report.judge_version}",
        {"studybench.kind": "calibration"},
        (FINGERPRINT_TAG, report.judge_fingerprint),
    )
    metrics = _metrics("all", report.overall)
    for kind, rates in report.by_type.items():
        metrics.update(_metrics(kind, rates))
    params = {
        "judge_model": report.judge_model[:500],
        "judge_version": report.judge_version,
        **{f"pairs_{source}": str(count) for source, count in sorted(report.sources.items())},
    }
    existing = client.get_run(run_id).data.params
    client.log_batch(
        run_id,
        metrics=[Metric(k, v, 0, 0) for k, v in metrics.items()],
        params=[Param(k, v) for k, v in params.items() if k not in existing],
        tags=[
            RunTag("studybench.judge_model", report.judge_model[:500]),
            RunTag("studybench.judge_version", report.judge_version),
        ],
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "calibration.json"
        path.write_text(report.model_dump_json(indent=2), encoding="utf-8")
        client.log_artifact(run_id, str(path))
    client.set_terminated(run_id)
    return run_id


def is_calibrated(settings: Settings, fingerprint: str) -> bool:
    """Whether a calibration of the judge with ``fingerprint`` was logged."""
    return last_calibration(settings, fingerprint) is not None


def last_calibration(settings: Settings, fingerprint: str) -> str | None:
    """The run id of the calibration of the judge with ``fingerprint``, or None."""
    client = client_for(settings)
    experiment = _experiment(client, settings, create=False)
    if experiment is None:
        return None
    return find_run(client, experiment, FINGERPRINT_TAG, fingerprint)
