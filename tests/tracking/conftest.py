"""Judged run folders to log (the real ``mlflow server`` fixture is in tests/conftest.py)."""

from __future__ import annotations

import json
from pathlib import Path

from studybench.config import Settings, load_settings
from studybench.judge.pipeline import judge_run
from studybench.verify import Verifier
from tests.conftest import ROOT
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
