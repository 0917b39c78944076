"""Logging a benchmark build to MLflow: the funnel, its plot, the filter model's identity.

One run per build, found again by a key over the funnel and the filter model (tag
``studybench.build_key``), so logging the same build twice updates one run instead of making
two. Params: the filter model, engine, k, seeds, protocol hash, admission model; metrics: the
funnel totals and each group's final count; artefacts: ``funnel.json`` and ``funnel.png``.
"""

from __future__ import annotations

import hashlib
import re
import time
from pathlib import Path
from typing import Any

from studybench.config import Settings
from studybench.tracking.mlflow_log import client_for, experiment_id, keyed_run

BUILD_KEY = "studybench.build_key"
_UNSAFE = re.compile(r"[^0-9A-Za-z_\-./ ]")


def _metric_name(text: str) -> str:
    """MLflow metric names allow a small alphabet; subject names are free text."""
    return _UNSAFE.sub("_", text)[:200]


def log_build(settings: Settings, funnel: Any, files: list[Path]) -> str:
    """Log ``funnel`` (a :class:`studybench.build.funnel.Funnel`) and ``files``; return the
    run id."""
    from mlflow.entities import Metric, Param, RunTag

    payload = funnel.model_dump_json()
    key = hashlib.sha256(payload.encode()).hexdigest()[:16]
    client = client_for(settings)
    experiment = experiment_id(client, settings)
    run_id = keyed_run(
        client,
        experiment,
        f"build-{funnel.filter_model.rsplit('/', 1)[-1][:60]}",
        {"studybench.kind": "build"},
        (BUILD_KEY, key),
    )
    params = {
        "filter_model": funnel.filter_model[:500],
        "filter_engine": funnel.filter_engine,
        "filter_k": str(funnel.k),
        "filter_seeds": ",".join(str(s) for s in funnel.seeds),
        "filter_protocol_hash": funnel.protocol_hash,
        "admission_model": funnel.admission_model[:500],
    }
    metrics: dict[str, float] = {}
    for pool, totals in funnel.totals.items():
        for stage, value in totals.items():
            metrics[f"build/{pool}/{stage}"] = float(value)
    for row in funnel.rows:
        name = _metric_name(f"build/{row.pool}/{row.by}/{row.group}/final")
        metrics[name] = float(row.final)
    now = int(time.time() * 1000)
    existing = client.get_run(run_id).data.params
    client.log_batch(
        run_id,
        metrics=[Metric(k, v, now, 0) for k, v in metrics.items()],
        params=[Param(k, v) for k, v in params.items() if k not in existing],
        tags=[RunTag("studybench.filter_model", funnel.filter_model[:500])],
    )
    for path in files:
        client.log_artifact(run_id, str(path), artifact_path="build")
    client.set_terminated(run_id)
    return run_id
