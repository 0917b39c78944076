"""The MLflow layout against the embedded store and a real mlflow server."""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import pytest

from studybench.pipeline.results import log_split_dirs as log_evaluation
from studybench.tracking.compare import (
    compare_metrics,
    compare_runs,
    register_checkpoint,
    resolve_run,
)
from studybench.tracking.mlflow_log import (
    EVAL_KEY,
    Checkpoint,
    TrackingError,
    client_for,
)
from tests.conftest import free_port
from tests.tracking.conftest import judged_run, settings_for

SECRET = "sk-test-never-log-this-9f8e7d"


@pytest.fixture(params=["embedded", "server"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "server":
        return str(request.getfixturevalue("mlflow_server"))
    return ""


def test_layout_keys_children_tags_artefacts(
    store: str, sample_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STUDYBENCH_JUDGE_API_KEY", SECRET)
    settings = settings_for(tmp_path, store, experiment=f"layout-{store != ''}")
    run_dir = judged_run(tmp_path / "run", sample_dir, model="tiny-model")
    data = sample_dir / "application_problems.json"
    run_id = log_evaluation([run_dir], settings, data_files=[data])
    client = client_for(settings)
    run = client.get_run(run_id)
    assert run.info.run_name == "tiny-model" and run.info.status == "FINISHED"
    metrics = run.data.metrics
    for key in (
        "application/par_at_1_mean",
        "application/par_at_1_std",
        "application/sub_at_1_mean",
        "application/sub_at_1_std",
        "judge/llm_share",
        "judge/disagreements",
        "generation/error_turns",
        "generation/tokens_per_s",
    ):
        assert key in metrics, key
    assert metrics["application/par_at_1_mean"] == pytest.approx(1 / 3)
    params, tags = run.data.params, run.data.tags
    assert params["k"] == "1" and params["seeds"] == "0,1" and params["judge.enabled"] == "False"
    assert tags["protocol_hash"] == "abc123" and tags["verifier_version"]
    assert tags["judge_version"] and tags["git_commit"] and tags["studybench.version"]
    assert tags["data.application_problems.json"].startswith("sha256:")
    children = client.search_runs(
        [run.info.experiment_id], filter_string=f"tags.`mlflow.parentRunId` = '{run_id}'"
    )
    assert sorted(c.data.params["seed"] for c in children) == ["0", "1"]
    assert all("application/par_at_1" in c.data.metrics for c in children)
    names = {a.path for a in client.list_artifacts(run_id, "application")}
    assert {
        f"application/{n}"
        for n in (
            "generations.jsonl.gz",
            "verdicts.jsonl.gz",
            "report.md",
            "report.json",
            "par_by_discipline.png",
        )
    } <= names
    assert [a.path for a in client.list_artifacts(run_id, "tables")] == [
        "tables/application_problems.json"
    ]
    # secrets never reach params, tags or artefacts
    assert SECRET not in str(params) + str(tags)
    local = Path(client.download_artifacts(run_id, ""))
    for path in local.rglob("*"):
        if path.is_file():
            raw = path.read_bytes()
            text = gzip.decompress(raw) if path.suffix == ".gz" else raw
            assert SECRET.encode() not in text, path


def test_logging_twice_updates_the_same_run(sample_dir: Path, tmp_path: Path) -> None:
    settings = settings_for(tmp_path)
    run_dir = judged_run(tmp_path / "run", sample_dir)
    first = log_evaluation([run_dir], settings)
    client = client_for(settings)
    client.update_run(first, status="FAILED")  # a half-logged run is completed on retry
    second = log_evaluation([run_dir], settings)
    assert first == second
    experiment = client.get_run(first).info.experiment_id
    runs = client.search_runs([experiment])
    assert len([r for r in runs if EVAL_KEY in r.data.tags]) == 1
    assert len(runs) == 3  # the evaluation and its two seed children
    assert client.get_run(first).info.status == "FINISHED"


def test_lineage_run_has_the_learning_curve(sample_dir: Path, tmp_path: Path) -> None:
    settings = settings_for(tmp_path)
    client = client_for(settings)
    for step in (100, 200):
        run_dir = judged_run(tmp_path / f"run{step}", sample_dir, model=f"ckpt-{step}")
        checkpoint = Checkpoint(step=step, training_run="grpo-7", gpu_hours=step / 100)
        run_id = log_evaluation([run_dir], settings, checkpoint=checkpoint)
        assert client.get_run(run_id).info.run_name == f"ckpt-{step}@{step}"
    experiment = client.get_run(run_id).info.experiment_id
    (lineage,) = client.search_runs(
        [experiment], filter_string="tags.`studybench.lineage` = 'grpo-7'"
    )
    history = client.get_metric_history(lineage.info.run_id, "application/par_at_1_mean")
    assert sorted(m.step for m in history) == [100, 200]
    gpu = client.get_metric_history(lineage.info.run_id, "gpu_hours")
    assert sorted((m.step, m.value) for m in gpu) == [(100, 1.0), (200, 2.0)]
    plots = [a.path for a in client.list_artifacts(lineage.info.run_id, "plots")]
    assert plots == ["plots/learning_curve.png"]


def test_server_down_then_track_later(
    mlflow_server: str, sample_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MLFLOW_HTTP_REQUEST_MAX_RETRIES", "0")
    monkeypatch.setenv("MLFLOW_HTTP_REQUEST_TIMEOUT", "3")
    run_dir = judged_run(tmp_path / "run", sample_dir)
    down = settings_for(tmp_path, f"http://127.0.0.1:{free_port()}")
    with pytest.raises(TrackingError, match="results stay in"):
        log_evaluation([run_dir], down, attempts=2, backoff_s=0.01)
    assert (run_dir / "verdicts.sqlite").exists()  # nothing lost
    import subprocess
    import sys

    env = {
        **os.environ,
        "STUDYBENCH__TRACKING__URI": mlflow_server,
        "STUDYBENCH__TRACKING__EXPERIMENT": "later",
    }
    result = subprocess.run(
        [str(Path(sys.executable).with_name("studybench")), "track", str(run_dir)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "logged to MLflow" in result.stdout


def test_regression_verdicts(mlflow_server: str, tmp_path: Path) -> None:
    settings = settings_for(tmp_path, mlflow_server, experiment="regressions")
    client = client_for(settings)
    experiment = client.create_experiment("regressions")

    def make(name: str, mean: float, std: float) -> str:
        run = client.create_run(
            experiment, run_name=name, tags={EVAL_KEY: name, "studybench.model": "m"}
        )
        client.log_metric(run.info.run_id, "transfer/par_at_8_mean", mean)
        client.log_metric(run.info.run_id, "transfer/par_at_8_std", std)
        client.set_terminated(run.info.run_id)
        return str(run.info.run_id)

    base = make("night-1", 0.40, 0.01)
    noisy = make("night-2", 0.37, 0.02)  # -0.03 within 2 * sqrt(0.01^2+0.02^2) = 0.045
    worse = make("night-3", 0.30, 0.01)  # -0.10 beyond noise
    assert not compare_runs(client, base, noisy, 0.02).regression
    result = compare_runs(client, base, worse, 0.02)
    assert result.regression
    assert client.get_run(worse).data.tags["studybench.regression"] == "true"
    assert "compare/transfer/par_at_8_mean_diff" in client.get_run(worse).data.metrics
    assert resolve_run(client, "previous", relative_to=worse) == noisy

    _, moved = register_checkpoint(
        client, base, "sb-model", str(tmp_path), headline="transfer/par_at_8_mean", threshold=0.02
    )
    assert moved and resolve_run(client, "models:/sb-model@best") == base
    better = make("night-4", 0.60, 0.01)
    _, moved = register_checkpoint(
        client, worse, "sb-model", str(tmp_path), headline="transfer/par_at_8_mean", threshold=0.02
    )
    assert not moved
    _, moved = register_checkpoint(
        client, better, "sb-model", str(tmp_path), headline="transfer/par_at_8_mean", threshold=0.02
    )
    assert moved and resolve_run(client, "models:/sb-model@best") == better


@pytest.mark.parametrize(
    ("base", "cand", "regression", "improvement"),
    [
        ((0.5, 0.0), (0.47, 0.0), True, False),
        ((0.5, 0.0), (0.49, 0.0), False, False),
        ((0.5, 0.05), (0.40, 0.05), False, False),
        ((0.5, 0.0), (0.6, 0.0), False, True),
    ],
)
def test_compare_metrics(
    base: tuple[float, float], cand: tuple[float, float], regression: bool, improvement: bool
) -> None:
    (m,) = compare_metrics(
        {"x_mean": base[0], "x_std": base[1]}, {"x_mean": cand[0], "x_std": cand[1]}, 0.02
    )
    assert (m.regression, m.improvement) == (regression, improvement)
