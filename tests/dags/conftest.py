"""The plugins folder is importable in these tests, as Airflow makes it for DAGs; one
isolated, migrated Airflow home serves every DAG test of a session."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_checked

if str(ROOT / "plugins") not in sys.path:
    sys.path.insert(0, str(ROOT / "plugins"))


@pytest.fixture(scope="session")
def airflow_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """One isolated Airflow home, migrated once per test session for every DAG module."""
    home = tmp_path_factory.mktemp("airflow_home")
    env = {
        "AIRFLOW_HOME": str(home),
        "AIRFLOW__CORE__LOAD_EXAMPLES": "False",
        "AIRFLOW__CORE__DAGS_FOLDER": str(ROOT / "dags"),
        "AIRFLOW__CORE__PLUGINS_FOLDER": str(ROOT / "plugins"),
        "AIRFLOW__CORE__UNIT_TEST_MODE": "False",
        "STUDYBENCH_REPO": str(ROOT),
    }
    run_checked(str(Path(sys.executable).with_name("airflow")), "db", "migrate", cwd=home, env=env)
    return env
