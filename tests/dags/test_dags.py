"""DAG integrity and real ``dag.test()`` runs, in an isolated Airflow home."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, build_dvc_repo, run_checked

RUNNER = Path(__file__).with_name("dag_runner.py")


@pytest.fixture(scope="module")
def airflow_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    home = tmp_path_factory.mktemp("airflow_home")
    env = {
        "AIRFLOW_HOME": str(home),
        "AIRFLOW__CORE__LOAD_EXAMPLES": "False",
        "AIRFLOW__CORE__DAGS_FOLDER": str(ROOT / "dags"),
        "AIRFLOW__CORE__UNIT_TEST_MODE": "False",
    }
    run_checked(str(Path(sys.executable).with_name("airflow")), "db", "migrate", cwd=home, env=env)
    return env


def run_dags(env: dict[str, str], dag_id: str | None = None, **extra: str) -> dict[str, Any]:
    args = [sys.executable, str(RUNNER), str(ROOT / "dags")] + ([dag_id] if dag_id else [])
    output = run_checked(*args, cwd=ROOT, env={**env, **extra})
    line = next(line for line in output.splitlines() if line.startswith("JSON:"))
    result: dict[str, Any] = json.loads(line[5:])
    return result


def test_every_dag_imports_cleanly(airflow_env: dict[str, str]) -> None:
    summary = run_dags(airflow_env)
    assert summary["import_errors"] == {}
    data = summary["dags"]["studybench_data"]
    assert "studybench" in data["tags"]
    assert data["tasks"] == ["reproduce_data"]
    assert data["outlets"] == [
        "studybench://data/corpus/fragments",
        "studybench://data/corpus/redacted",
        "studybench://data/release",
    ]


def test_dag_files_stay_thin() -> None:
    """DAG files wire tasks; heavy imports happen inside tasks, in studybench."""
    for path in (ROOT / "dags").glob("*.py"):
        top_level = [
            line for line in path.read_text().splitlines() if line.startswith(("import ", "from "))
        ]
        assert not any("studybench" in line for line in top_level), path


def test_data_dag_runs_the_pipeline_and_publishes_versions(
    airflow_env: dict[str, str], tmp_path: Path
) -> None:
    repo = build_dvc_repo(tmp_path / "repo")
    summary = run_dags(airflow_env, "studybench_data", STUDYBENCH_REPO=str(repo))
    assert summary["state"] == "success"
    events = summary["events"]
    assert set(events) == {
        "studybench://data/release",
        "studybench://data/corpus/redacted",
        "studybench://data/corpus/fragments",
    }
    assert events["studybench://data/release"]["stage"] == "import"
    assert events["studybench://data/release"]["md5"].endswith(".dir")
    assert (repo / "data/corpus/fragments.jsonl").exists()
