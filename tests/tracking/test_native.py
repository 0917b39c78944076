"""MLflow-native records against a real mlflow server: CI metrics, dataset inputs with the
DVC digest, the checkpoint as a LoggedModel linked to its evaluation run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studybench.data.versions import lock_outputs
from studybench.pipeline.results import log_split_dirs
from studybench.tracking.mlflow_log import Checkpoint, client_for
from studybench.tracking.native import MODEL_KEY, describe_inputs
from tests.conftest import ROOT
from tests.tracking.conftest import judged_run, settings_for


def test_ci_metrics_datasets_and_logged_model(
    mlflow_server: str, sample_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)  # data versions are read from the project's dvc.lock
    out, version = next(
        (k, v)
        for k, v in lock_outputs(ROOT).items()
        if "." in Path(k).name and not v.md5.endswith(".dir")
    )
    settings = settings_for(tmp_path, mlflow_server, experiment="native-records")
    run_dir = judged_run(tmp_path / "run", sample_dir, model="tiny-model")
    checkpoint_dir = tmp_path / "checkpoint-40"
    checkpoint_dir.mkdir()
    (checkpoint_dir / "config.json").write_text(json.dumps({"model_type": "qwen3"}))
    dvc_file = ROOT / out  # a DVC output (its md5 is in dvc.lock even before dvc pull)
    outside = tmp_path / "outside.json"  # a data file outside the repository
    outside.write_text("[]")
    data = [sample_dir / "application_problems.json", dvc_file, outside]
    checkpoint = Checkpoint(path=str(checkpoint_dir), step=40, training_run="sft-9")
    run_id = log_split_dirs([run_dir], settings, checkpoint=checkpoint, data_files=data)
    client = client_for(settings)
    run = client.get_run(run_id)
    metrics = run.data.metrics
    for key in ("par_at_1_ci_low", "par_at_1_ci_high", "par_at_1_se", "truncated_share"):
        assert f"application/{key}" in metrics, key
    assert (
        metrics["application/par_at_1_ci_low"]
        <= metrics["application/par_at_1_mean"]
        <= metrics["application/par_at_1_ci_high"]
    )
    assert metrics["application/truncated_share"] == 0.0

    inputs = {d["name"]: d for d in describe_inputs(client, run_id)}
    assert inputs[dvc_file.name]["digest"] == version.md5
    assert inputs[dvc_file.name]["source_type"] == "dvc"
    assert inputs[dvc_file.name]["source"] == out
    assert inputs["application_problems.json"]["source_type"] == "git"  # committed sample
    assert inputs["outside.json"]["source"] == str(outside)

    models = client.search_logged_models([run.info.experiment_id])
    (model,) = [m for m in models if m.source_run_id == run_id]
    assert model.tags[MODEL_KEY].endswith(run.data.tags["studybench.eval_key"])
    assert model.tags["training_run"] == "sft-9"
    assert model.params["checkpoint.step"] == "40"
    assert {m.key for m in model.metrics} >= {
        "application/par_at_1_mean",
        "application/par_at_1_ci_low",
    }
    assert [i.model_id for i in run.inputs.model_inputs] == [model.model_id]

    again = log_split_dirs([run_dir], settings, checkpoint=checkpoint, data_files=data)
    assert again == run_id
    models = client.search_logged_models([run.info.experiment_id])
    assert len([m for m in models if m.source_run_id == run_id]) == 1  # idempotent


def test_dataset_sources_round_trip_and_resolve_a_path() -> None:
    from studybench.tracking.native import _dataset_source

    source = _dataset_source("dvc", "data/release/application.json")
    assert source._get_source_type() == "dvc"
    assert source.load() == "data/release/application.json"
    again = type(source).from_dict(source.to_dict())
    assert again.to_dict() == {"path": "data/release/application.json"}
    assert type(source)._resolve("other.json").load() == "other.json"
    assert not type(source)._can_resolve("anything")
