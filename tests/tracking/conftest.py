"""Judged run folders to log (the real ``mlflow server`` fixture is in tests/conftest.py), and
``mlflow_store``: a real MLflow store (sqlite, local artefacts) cheap enough for every pytest
session, e.g. one per mutant under mutation testing."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from studybench.config import Settings, load_settings
from studybench.judge.pipeline import judge_run
from studybench.verify import Verifier
from tests.conftest import ROOT, migrated_mlflow_template
from tests.judge.test_judge import make_run


def settings_for(tmp_path: Path, uri: str = "", **tracking: object) -> Settings:
    base = load_settings(ROOT / "params.yaml", environ={})
    return base.model_copy(
        update={
            "tracking": base.tracking.model_copy(update={"uri": uri, **tracking}),
            "paths": base.paths.model_copy(update={"work_dir": tmp_path / "work"}),
            "judge": base.judge.model_copy(update={"llm_enabled": False}),
        }
    )


def judged_run(run_dir: Path, sample_dir: Path, model: str = "m") -> Path:
    make_run(run_dir, sample_dir)
    manifest = {
        "model": model,
        "split": "application",
        "engine": "hf",
        "protocol_hash": "abc123",
        "config": {"k": 1, "seeds": [0, 1], "sampling": {"temperature": 1.0, "top_p": 0.95}},
        "artefacts": {"kind": "default"},
    }
    (run_dir / "run.json").write_text(json.dumps(manifest))
    with Verifier(workers=1) as rules:
        judge_run(run_dir, rules, None)
    return run_dir


@dataclass
class MlflowStore:
    """A real MLflow tracking and registry store (sqlite) with its artefacts in ``root``."""

    client: Any
    uri: str
    root: Path

    def experiment(self, name: str) -> str:
        """A new experiment whose artefacts live under this store's folder."""
        location = (self.root / "artifacts" / name).as_uri()
        return str(self.client.create_experiment(name, artifact_location=location))


@pytest.fixture(scope="module")
def mlflow_store(tmp_path_factory: pytest.TempPathFactory) -> MlflowStore:
    """A fresh real MLflow store per test module: a copy of the migrated template."""
    from mlflow import MlflowClient

    root = tmp_path_factory.mktemp("mlflow_store")
    db = root / "mlflow.db"
    shutil.copyfile(migrated_mlflow_template(), db)
    uri = f"sqlite:///{db}"
    return MlflowStore(MlflowClient(tracking_uri=uri, registry_uri=uri), uri, root)
