"""MLflow-native records of an evaluation: what the MLflow UI shows without our own plots.

* CI bounds and variance parts as metrics (``application/par_at_8_ci_low``, ``..._ci_high``,
  ``..._se``, ``..._mde``, ``application/truncated_share`` ...; :mod:`studybench.metrics.summary`).
* The data version as dataset inputs: one MLflow dataset per data file, the DVC md5 of the
  output holding it as digest and its DVC path as source (files DVC does not track: their
  sha256, source ``git``), so the run page lists which data it was scored on.
* The evaluated checkpoint as an MLflow 3 LoggedModel, linked to its evaluation run (as the
  run's model input and the model's source run), tagged with its training run and step, with
  the headline scores logged against it, so the UI's model view lists checkpoints with their
  scores. One LoggedModel per (checkpoint hash, evaluation key): logging again reuses it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from studybench.metrics.items import ItemRow
from studybench.metrics.summary import split_statistics, statistics_metrics
from studybench.tracking.provenance import file_sha256

MODEL_KEY = "studybench.model_key"


def interval_metrics(items: Iterable[ItemRow]) -> dict[str, float]:
    """The CI, variance, power and truncation metrics of an item table (empty without rows)."""
    rows = list(items)
    return statistics_metrics(split_statistics(rows)) if rows else {}


def _dataset_source(kind: str, path: str) -> Any:
    """An MLflow dataset source naming where the data lives (``dvc`` or ``git`` + path).

    MLflow never resolves these itself (``_can_resolve`` is False): they only record, in the
    run's dataset inputs, which versioned file an evaluation read."""
    from mlflow.data.dataset_source import DatasetSource

    class DataFileSource(DatasetSource):
        def __init__(self, source_kind: str, source_path: str) -> None:
            self.source_kind = source_kind
            self.source_path = source_path

        @staticmethod
        def _get_source_type() -> str:
            return kind

        def load(self, **kwargs: Any) -> str:
            return self.source_path

        @staticmethod
        def _can_resolve(raw_source: Any) -> bool:
            return False

        @classmethod
        def _resolve(cls, raw_source: Any) -> DataFileSource:
            return cls(kind, str(raw_source))

        def to_dict(self) -> dict[str, Any]:
            return {"path": self.source_path}

        @classmethod
        def from_dict(cls, source_dict: dict[Any, Any]) -> DataFileSource:
            return cls(kind, str(source_dict["path"]))

    return DataFileSource(kind, path)


def _repo_relative(path: Path, repo: Path) -> str:
    """The path as dvc.lock names it (relative to the repository), else as given."""
    if not path.is_absolute():
        return path.as_posix()
    try:
        return path.resolve().relative_to(repo.resolve()).as_posix()
    except ValueError:  # outside the repository: no DVC output holds it
        return path.as_posix()


def log_data_inputs(
    client: Any, run_id: str, data_files: Sequence[Path | str], repo: Path = Path()
) -> list[str]:
    """Log every existing data file as a dataset input of the run; returns the digests."""
    from mlflow.data.meta_dataset import MetaDataset
    from mlflow.entities import DatasetInput, InputTag

    from studybench.data.versions import data_versions

    paths = [Path(p) for p in data_files if p]
    tracked = data_versions(paths, repo_root=repo)
    inputs, digests = [], []
    for path in paths:
        key = _repo_relative(path, repo)
        version = tracked.get(key)
        if version is not None:
            source, digest = _dataset_source("dvc", version.out), version.md5
        elif path.is_file():
            source, digest = _dataset_source("git", key), file_sha256(path)[:32]
        else:
            continue
        dataset = MetaDataset(source=source, name=path.name, digest=digest)  # type: ignore[abstract]
        inputs.append(
            DatasetInput(
                dataset._to_mlflow_entity(),
                tags=[InputTag(key="mlflow.data.context", value="evaluation")],
            )
        )
        digests.append(digest)
    if inputs:
        client.log_inputs(run_id, datasets=inputs)
    return digests


def log_checkpoint_model(
    client: Any,
    run_id: str,
    *,
    name: str,
    model_key: str,
    metrics: dict[str, float],
    step: int | None = None,
    tags: dict[str, str] | None = None,
) -> str:
    """The checkpoint as a LoggedModel linked to the evaluation run; returns its model id.

    ``model_key`` (checkpoint hash + evaluation key) makes it idempotent. ``metrics`` (the
    headline ``_mean`` keys and their CI bounds) are logged on the run against the model, at
    the training ``step``."""
    from mlflow.entities import LoggedModelInput, LoggedModelStatus, Metric

    run = client.get_run(run_id)
    experiment = run.info.experiment_id
    found = client.search_logged_models(
        [experiment], filter_string=f"tags.`{MODEL_KEY}` = '{model_key}'", max_results=1
    )
    if found:
        model_id = str(found[0].model_id)
    else:
        model = client.create_logged_model(
            experiment,
            name=name,
            source_run_id=run_id,
            tags={MODEL_KEY: model_key, **(tags or {})},
            params={"checkpoint.step": str(step)} if step is not None else None,
            model_type="checkpoint",
        )
        model_id = str(model.model_id)
        client.finalize_logged_model(model_id, LoggedModelStatus.READY)
    client.log_inputs(run_id, models=[LoggedModelInput(model_id)])
    now = int(time.time() * 1000)
    batch = [
        Metric(key, float(value), now, step or 0, model_id=model_id, run_id=run_id)
        for key, value in sorted(metrics.items())
    ]
    for start in range(0, len(batch), 1000):
        client.log_batch(run_id, metrics=batch[start : start + 1000])
    return model_id


def model_metrics(metrics: dict[str, float]) -> dict[str, float]:
    """What the model view shows per checkpoint: headline means and their CI bounds."""
    keep = ("_mean", "_ci_low", "_ci_high")
    return {k: v for k, v in metrics.items() if k.endswith(keep) and "/" in k}


def describe_inputs(client: Any, run_id: str) -> list[dict[str, str]]:
    """The run's dataset inputs as plain dicts (name, digest, source type, source)."""
    inputs = client.get_run(run_id).inputs
    return [
        {
            "name": d.dataset.name,
            "digest": d.dataset.digest,
            "source_type": d.dataset.source_type,
            "source": json.loads(d.dataset.source).get("path", ""),
        }
        for d in inputs.dataset_inputs
    ]
