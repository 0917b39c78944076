"""Screenshots for the documentation, taken by the real-Chromium fixtures of the tracking
tests rather than by hand, so they show what the code logs today.

Only with ``STUDYBENCH_DOCS_SCREENSHOTS=1`` (the test writes into ``docs/img/``, which CI
must not do); otherwise it is skipped. Run it after a change the pictures would show:

    STUDYBENCH_DOCS_SCREENSHOTS=1 .venv/bin/pytest tests/docs/test_screenshots.py

(MLflow: the runs list and a run page; Airflow: the DAG list and the checkpoint DAG.) The
paper report's picture comes from its own Chromium test under the same variable:

    STUDYBENCH_DOCS_SCREENSHOTS=1 .venv/bin/pytest tests/paper/test_report_store.py -k html
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from studybench.pipeline.results import log_split_dirs as log_evaluation
from studybench.tracking.mlflow_log import client_for
from tests.conftest import free_port
from tests.docs.checks import DOCS
from tests.tracking.conftest import judged_run, settings_for
from tests.tracking.test_mlflow_ui import chromium

pytestmark = pytest.mark.skipif(
    os.environ.get("STUDYBENCH_DOCS_SCREENSHOTS") != "1",
    reason="writes docs/img/: set STUDYBENCH_DOCS_SCREENSHOTS=1 to refresh the screenshots",
)

IMAGES = DOCS / "img"
SIMPLE_AUTH = "airflow.api_fastapi.auth.managers.simple.simple_auth_manager.SimpleAuthManager"


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
    shoot(shots, tmp_path / "profile")


def shoot(shots: dict[Path, tuple[str, str]], profile: Path) -> None:
    """Write each ``path: (page, window size)`` as a Chromium screenshot, refusing a blank one
    (a blank page is a few kB), so a picture of an error page never lands in the docs."""
    for path, (url, window) in shots.items():
        path.unlink(missing_ok=True)
        chromium(url, profile, f"--window-size={window}", f"--screenshot={path}")
        assert path.stat().st_size > 10_000, path


@contextmanager
def airflow_ui(env: dict[str, str], log: Path) -> Iterator[str]:
    """Airflow's API server (which serves the UI) over ``env``'s home, every visitor an admin
    (no login page in the picture), up once its health endpoint answers."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    full = {
        **os.environ,
        **env,
        "AIRFLOW__CORE__AUTH_MANAGER": SIMPLE_AUTH,
        "AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_ALL_ADMINS": "True",
        "AIRFLOW__API__HOST": "127.0.0.1",
        "AIRFLOW__API__PORT": str(port),
        "AIRFLOW__API__BASE_URL": url,
    }
    airflow = str(Path(sys.executable).with_name("airflow"))
    with log.open("wb") as out:
        server = subprocess.Popen(
            [airflow, "api-server", "-p", str(port)], env=full, stdout=out, stderr=out
        )
        try:
            deadline = time.monotonic() + 120
            while True:
                assert server.poll() is None, log.read_text()[-3000:]
                try:
                    with urllib.request.urlopen(f"{url}/api/v2/monitor/health", timeout=2):
                        break
                except OSError:
                    assert time.monotonic() < deadline, log.read_text()[-3000:]
                    time.sleep(0.5)
            yield url
        finally:
            server.terminate()
            server.wait(timeout=30)


def test_airflow_ui_screenshots(
    airflow_env: dict[str, str], trained_checkpoints: Path, tmp_path: Path
) -> None:
    """The DAG list and the checkpoint DAG after two evaluated checkpoints, as the
    operator's guide shows: the runs are real ``dag.test()`` runs of the tiny model."""
    from tests.dags.test_dags import run_dags, write_params

    params = write_params(tmp_path, checkpoints={"splits": ["memorisation"]})
    for step in (0, 160):
        conf = {"checkpoint": str(trained_checkpoints / f"checkpoint-{step}")}
        summary = run_dags(
            airflow_env, "studybench_checkpoint_eval", conf, STUDYBENCH_PARAMS=str(params)
        )
        assert summary["state"] == "success", summary["tasks"]
    airflow = str(Path(sys.executable).with_name("airflow"))
    subprocess.run(  # every DAG in the list, not only the one that ran
        [airflow, "dags", "reserialize"], env={**os.environ, **airflow_env}, check=True,
        capture_output=True, timeout=300,
    )  # fmt: skip

    with airflow_ui(airflow_env, tmp_path / "api-server.log") as url:
        dom = chromium(f"{url}/dags", tmp_path / "profile", "--dump-dom")
        for dag in ("studybench_checkpoint_eval", "studybench_nightly", "studybench_rescore"):
            assert dag in dom
        shots = {
            IMAGES / "airflow-dags.png": (f"{url}/dags", "1400,800"),
            IMAGES / "airflow-checkpoint-dag.png": (
                f"{url}/dags/studybench_checkpoint_eval",
                "1400,900",
            ),
        }
        shoot(shots, tmp_path / "profile")
