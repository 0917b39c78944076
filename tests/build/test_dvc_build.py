"""`dvc repro data/build/dvc.yaml` for real, in a temporary git + DVC repository, with a
scripted filter model on loopback: every stage runs through `studybench build ...`, the splits
come out, a second repro is a no-op, and a forced filter stage asks the model nothing (its
generations and verdicts are stored under paths.runs_dir)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from studybench.build.pools import parent_id
from studybench.data.loaders import load_parents
from tests.build.conftest import scripted_model
from tests.conftest import ROOT, SAMPLE, build_dvc_repo

BIN = Path(sys.executable).parent
STAGES = (
    "build_pools",
    "build_filter_textbook",
    "build_filter_competition",
    "build_application",
    "build_transfer",
    "build_training",
    "build_report",
)


def sh(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", "DVC_NO_ANALYTICS": "1"}
    result = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"{' '.join(args)}:\n{result.stdout}\n{result.stderr}"
    return result


def test_build_pipeline_repro_and_noop(tmp_path: Path) -> None:
    repo = build_dvc_repo(tmp_path / "repo")
    shutil.copytree(ROOT / "data" / "build", repo / "data" / "build", dirs_exist_ok=True)
    textbook = load_parents(SAMPLE / "application_problems.json")
    competition = load_parents(SAMPLE / "transfer_problems.json")
    plan = {parent_id(textbook[0]): "always", parent_id(competition[0]): "always"}
    admit_plan = {parent_id(p): "always" for p in competition[1:3]}
    with (
        scripted_model([*textbook, *competition], plan, 2, (0,)) as (url, asked),
        scripted_model(competition, admit_plan, 2, (0,)) as (admit_url, _),
    ):
        params = yaml.safe_load((repo / "params.yaml").read_text())
        endpoint = {"engine": "openai", "model": "filter", "k": 2, "seeds": [0]}
        params["build"]["filter"].update(endpoint, base_url=url)
        params["build"]["admit"].update(endpoint, model="admitter", base_url=admit_url)
        params["build"]["per_type_cap"] = 2
        params["judge"]["llm_enabled"] = False
        params["tracking"]["enabled"] = False
        (repo / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
        sh("git", "add", "-A", cwd=repo)
        sh("git", "commit", "-qm", "build config", cwd=repo)

        first = sh(str(BIN / "dvc"), "repro", "data/build/dvc.yaml", cwd=repo)
        for stage in STAGES:
            assert f"Running stage 'data/build/dvc.yaml:{stage}'" in first.stdout, first.stdout
        calls = len(asked)
        assert calls == 2 * (31 + 40)
        second = sh(str(BIN / "dvc"), "repro", "data/build/dvc.yaml", cwd=repo)
        assert "Running stage" not in second.stdout  # same inputs, same model: a no-op
        forced = sh(
            str(BIN / "dvc"), "repro", "--force", "--single-item",
            "data/build/dvc.yaml:build_filter_textbook", cwd=repo,
        )  # fmt: skip
        assert "Running stage" in forced.stdout and len(asked) == calls  # resumed, nothing asked

    out = repo / "data" / "build" / "out"
    application = load_parents(out / "application.json")
    transfer = load_parents(out / "transfer.json")
    assert 0 < len(application) < len(textbook)
    assert [parent_id(p) for p in transfer] == [parent_id(p) for p in competition[1:3]]
    assert (out / "report" / "funnel.png").read_bytes()[:4] == b"\x89PNG"
    assert (out / "training" / "corpus").is_dir()
