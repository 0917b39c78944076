"""The MLflow UI's model view, as a person sees it (headless Chromium, as in
test_mlflow_ui.py): evaluated checkpoints are listed as logged models, and a run page names
the data it was scored on. A screenshot is kept in work/test-artifacts/."""

from __future__ import annotations

import json
from pathlib import Path

from studybench.pipeline.results import log_split_dirs
from studybench.tracking.mlflow_log import (
    EXPERIMENT_KIND_TAG,
    MODEL_TRAINING_KIND,
    Checkpoint,
    client_for,
)
from tests.conftest import ROOT
from tests.tracking.conftest import judged_run, settings_for
from tests.tracking.test_mlflow_ui import chromium


def test_model_view_lists_checkpoints_and_run_lists_datasets(
    mlflow_server: str, sample_dir: Path, tmp_path: Path
) -> None:
    settings = settings_for(tmp_path, mlflow_server, experiment="ui-models")
    data = [sample_dir / "application_problems.json"]
    run_ids = []
    for step in (20, 40):
        checkpoint = tmp_path / f"checkpoint-{step}"
        checkpoint.mkdir()
        (checkpoint / "config.json").write_text(json.dumps({"model_type": "qwen3", "s": step}))
        run_dir = judged_run(tmp_path / f"run-{step}", sample_dir, model="tiny-sft")
        info = Checkpoint(path=str(checkpoint), step=step, training_run="sft-ui")
        run_ids.append(log_split_dirs([run_dir], settings, checkpoint=info, data_files=data))
    client = client_for(settings)
    experiment = client.get_run(run_ids[0]).info.experiment_id
    names = {m.name for m in client.search_logged_models([experiment])}
    assert len(names) == 2
    # the experiment studybench created is a model-training experiment (MLflow 3's kind tag)
    assert client.get_experiment(experiment).tags[EXPERIMENT_KIND_TAG] == MODEL_TRAINING_KIND

    # MLflow 3.17's UI takes the view from its workflow switch (remembered by the browser,
    # or the link's workflowType), GenAI by default: in the model-training view the
    # checkpoints are models, not "Agent versions"
    models_page = f"{mlflow_server}/#/experiments/{experiment}/models?workflowType=machine_learning"
    dom = chromium(models_page, tmp_path / "profile", "--dump-dom")
    for name in names:
        assert name in dom, name
    assert "Agent versions" not in dom and "Model registry" in dom

    run_page = f"{mlflow_server}/#/experiments/{experiment}/runs/{run_ids[1]}"
    dom = chromium(run_page, tmp_path / "profile", "--dump-dom")
    assert "application_problems.json" in dom

    artefacts = ROOT / "work" / "test-artifacts"
    artefacts.mkdir(parents=True, exist_ok=True)
    screenshot = artefacts / "mlflow_models.png"
    chromium(models_page, tmp_path / "profile", f"--screenshot={screenshot}")
    assert screenshot.stat().st_size > 10_000


def test_a_users_own_experiment_kind_is_kept(
    mlflow_server: str, sample_dir: Path, tmp_path: Path
) -> None:
    """An experiment the user made a GenAI one keeps that kind when studybench logs to it; one
    with no kind chosen becomes a model-training experiment."""
    settings = settings_for(tmp_path, mlflow_server, experiment="ui-kind-chosen")
    client = client_for(settings)
    chosen = client.create_experiment(
        "ui-kind-chosen", tags={EXPERIMENT_KIND_TAG: "genai_development"}
    )
    unset = client.create_experiment("ui-kind-unset")
    log_split_dirs([judged_run(tmp_path / "run", sample_dir, model="m")], settings)
    assert client.get_experiment(chosen).tags[EXPERIMENT_KIND_TAG] == "genai_development"
    other = settings_for(tmp_path / "other", mlflow_server, experiment="ui-kind-unset")
    log_split_dirs([judged_run(tmp_path / "run2", sample_dir, model="m")], other)
    assert client.get_experiment(unset).tags[EXPERIMENT_KIND_TAG] == MODEL_TRAINING_KIND
