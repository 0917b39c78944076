"""The demo empties only a work folder it made itself (the whole demo runs in `make demo`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from studybench.demo import SENTINEL, _reset
from studybench.errors import StudyBenchError


def test_reset_refuses_a_folder_the_demo_did_not_make(tmp_path: Path) -> None:
    (tmp_path / "results.db").write_text("precious")
    with pytest.raises(StudyBenchError, match="was not made by the demo"):
        _reset(tmp_path, keep={"base-model"})
    assert (tmp_path / "results.db").read_text() == "precious"


def test_reset_empties_its_own_folder_but_keeps_the_base_model(tmp_path: Path) -> None:
    work = tmp_path / "demo"
    _reset(work, keep={"base-model"})  # a new folder is the demo's
    (work / "base-model").mkdir()
    (work / "base-model" / "config.json").write_text("{}")
    (work / "runs").mkdir()
    (work / "mlflow.db").write_text("old")
    _reset(work, keep={"base-model"})
    assert sorted(p.name for p in work.iterdir()) == [SENTINEL, "base-model"]
    assert (work / "base-model" / "config.json").exists()


def test_polling_a_store_not_created_yet_reads_nothing_and_creates_nothing(tmp_path: Path) -> None:
    """The demo polls MLflow while Airflow's first evaluation creates the SQLite store: the
    poll must not create (migrate) it too, which raced the writer's migration."""
    from studybench.config import load_settings
    from studybench.demo import _evaluated
    from tests.conftest import ROOT

    settings = load_settings(
        ROOT / "params.yaml", environ={"STUDYBENCH__PATHS__WORK_DIR": str(tmp_path / "work")}
    )
    store = tmp_path / "work" / "mlflow" / "mlflow.db"
    assert _evaluated(settings) == {}
    assert not store.exists()


def test_polling_an_existing_store_without_the_experiment_reads_nothing(tmp_path: Path) -> None:
    from studybench.config import load_settings
    from studybench.demo import _evaluated
    from studybench.tracking.mlflow_log import client_for
    from tests.conftest import ROOT

    settings = load_settings(
        ROOT / "params.yaml", environ={"STUDYBENCH__PATHS__WORK_DIR": str(tmp_path / "work")}
    )
    client_for(settings).search_experiments()  # creates and migrates the store
    assert (tmp_path / "work" / "mlflow" / "mlflow.db").is_file()
    assert _evaluated(settings) == {}
