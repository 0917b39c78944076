"""Screenshots for the documentation, taken by the real-Chromium fixtures of the tracking
tests rather than by hand, so they show what the code logs today.

Only with ``STUDYBENCH_DOCS_SCREENSHOTS=1`` (the test writes into ``docs/img/``, which CI
must not do); otherwise it is skipped. Run it after a change the pictures would show:

    STUDYBENCH_DOCS_SCREENSHOTS=1 .venv/bin/pytest tests/docs/test_screenshots.py
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from studybench.pipeline.results import log_split_dirs as log_evaluation
from studybench.tracking.mlflow_log import client_for
from tests.docs.checks import DOCS
from tests.tracking.conftest import judged_run, settings_for
from tests.tracking.test_mlflow_ui import chromium

pytestmark = pytest.mark.skipif(
    os.environ.get("STUDYBENCH_DOCS_SCREENSHOTS") != "1",
    reason="writes docs/img/: set STUDYBENCH_DOCS_SCREENSHOTS=1 to refresh the screenshots",
)

IMAGES = DOCS / "img"


def test_mlflow_ui_screenshots(mlflow_server: str, sample_dir: Path, tmp_path: Path) -> None:
    """Two evaluations in the runs list, and one run's metrics, as the tracking guide shows."""
    settings = settings_for(tmp_path, mlflow_server, experiment="studybench")
    run_ids = [
        log_evaluation([judged_run(tmp_path / name, sample_dir, model=name)], settings)
        for name in ("qwen3-8b-sft@1200", "qwen3-8b-base")
    ]
    experiment = client_for(settings).get_run(run_ids[0]).info.experiment_id
    runs_page = f"{mlflow_server}/#/experiments/{experiment}/runs"
    dom = chromium(runs_page, tmp_path / "profile", "--dump-dom")
    assert "qwen3-8b-sft@1200" in dom and "qwen3-8b-base" in dom  # the page shows the runs

    IMAGES.mkdir(parents=True, exist_ok=True)
    shots = {  # (page, window): the run page tall enough to show its metrics under the tags
        IMAGES / "mlflow-ui.png": (f"{runs_page}?workflowType=machine_learning", "1400,520"),
        IMAGES / "mlflow-run.png": (
            f"{runs_page}/{run_ids[0]}?workflowType=machine_learning",
            "1400,1700",
        ),
    }
    for path, (url, window) in shots.items():
        path.unlink(missing_ok=True)
        chromium(url, tmp_path / "profile", f"--window-size={window}", f"--screenshot={path}")
        assert path.stat().st_size > 10_000, path  # a blank page is a few kB
