"""Several processes opening one new embedded SQLite store at once (the checkpoint DAG's plan
tasks, one per new checkpoint): each gets a working client. Without the lock in
``client_for`` MLflow's migration ran twice on one file and left it half-migrated."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

OPEN = """
import sys
from studybench.config import load_settings
from studybench.tracking.mlflow_log import client_for
settings = load_settings(sys.argv[1], environ={"STUDYBENCH__PATHS__WORK_DIR": sys.argv[2]})
client = client_for(settings)
client.search_experiments()
"""


def test_concurrent_first_opens_of_one_store_all_succeed(tmp_path: Path) -> None:
    work = tmp_path / "work"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", OPEN, str(ROOT / "params.yaml"), str(work)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err[-2000:]
    assert (work / "mlflow" / "mlflow.db").is_file()
