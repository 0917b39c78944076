"""The MLflow UI, as a person sees it: headless Chromium (Debian's package, installed by
``make browser``) opens the UI of the test server, the experiment lists both evaluation runs,
and a run page lists the metric keys. A screenshot is kept in work/test-artifacts/."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from studybench.pipeline.results import log_split_dirs as log_evaluation
from studybench.tracking.mlflow_log import client_for
from tests.conftest import ROOT
from tests.tracking.conftest import judged_run, settings_for

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1400,900",
    "--virtual-time-budget=20000",
]


def chromium(url: str, profile: Path, *extra: str) -> str:
    binary = shutil.which("chromium")
    assert binary, "Debian's chromium is missing: run make browser (make test does)"
    result = subprocess.run(
        [binary, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *extra, url],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


def test_ui_shows_both_evaluations_and_metric_keys(
    mlflow_server: str, sample_dir: Path, tmp_path: Path
) -> None:
    settings = settings_for(tmp_path, mlflow_server, experiment="ui-check")
    run_ids = [
        log_evaluation([judged_run(tmp_path / name, sample_dir, model=name)], settings)
        for name in ("model-alpha", "model-beta")
    ]
    experiment = client_for(settings).get_run(run_ids[0]).info.experiment_id
    runs_page = f"{mlflow_server}/#/experiments/{experiment}/runs"
    dom = chromium(runs_page, tmp_path / "profile", "--dump-dom")
    assert "model-alpha" in dom and "model-beta" in dom

    run_page = f"{runs_page}/{run_ids[1]}"
    dom = chromium(run_page, tmp_path / "profile", "--dump-dom")
    for key in ("application/par_at_1_mean", "application/sub_at_1_std", "judge/llm_share"):
        assert key in dom, key

    artefacts = ROOT / "work" / "test-artifacts"
    artefacts.mkdir(parents=True, exist_ok=True)
    screenshot = artefacts / "mlflow_runs.png"
    chromium(runs_page, tmp_path / "profile", f"--screenshot={screenshot}")
    assert screenshot.stat().st_size > 10_000
