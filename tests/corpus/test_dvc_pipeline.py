"""The DVC pipeline in a real temporary git + DVC repository: stages run, outputs are
tracked, a second run is a no-op, a parameter change re-runs exactly the stages that read it,
and push/pull work through a local remote."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from studybench.data.versions import data_versions, lock_outputs, reproduce
from studybench.errors import DataError
from tests.conftest import build_dvc_repo

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def sh(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", "DVC_NO_ANALYTICS": "1"}
    result = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"{' '.join(args)}:\n{result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    yield build_dvc_repo(tmp_path_factory.mktemp("dvcrepo"))


def test_repro_runs_every_stage_and_tracks_outputs(repo: Path) -> None:
    result = sh(str(BIN / "dvc"), "repro", cwd=repo)
    for stage in ("import", "ocr_fix", "redact", "audit", "fragments"):
        assert f"Running stage '{stage}'" in result.stdout
    outputs = lock_outputs(repo)
    assert set(outputs) == {
        "data/release",
        "data/corpus/ocrfix",
        "data/corpus/redacted",
        "data/corpus/redaction_report.json",
        "data/corpus/audit_report.json",
        "data/corpus/fragments.jsonl",
    }
    assert (repo / "data/release/application.json").exists()
    redacted = list((repo / "data/corpus/redacted").rglob("ocrfix.redacted.md"))
    assert len(redacted) == 4
    assert any("[REDACTED]" in p.read_text() for p in redacted)
    ignored = (repo / "data" / ".gitignore").read_text()
    assert "/release" in ignored  # DVC keeps outputs out of git
    sh("git", "add", "-A", cwd=repo)
    sh("git", "commit", "-qm", "pipeline", cwd=repo)


def test_second_repro_is_a_no_op(repo: Path) -> None:
    lock_before = (repo / "dvc.lock").read_text()
    mtime = (repo / "data/corpus/fragments.jsonl").stat().st_mtime_ns
    result = sh(str(BIN / "dvc"), "repro", cwd=repo)
    assert "Running stage" not in result.stdout
    assert (repo / "dvc.lock").read_text() == lock_before
    assert (repo / "data/corpus/fragments.jsonl").stat().st_mtime_ns == mtime
    status = sh(str(BIN / "dvc"), "status", cwd=repo)
    assert "up to date" in status.stdout


def test_param_change_reruns_only_dependent_stages(repo: Path) -> None:
    params = yaml.safe_load((repo / "params.yaml").read_text())
    params["corpus"]["fragment_max_words"] = 120
    (repo / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    result = sh(str(BIN / "dvc"), "repro", cwd=repo)
    assert "Running stage 'fragments'" in result.stdout
    for stage in ("import", "ocr_fix", "redact", "audit"):
        assert f"Running stage '{stage}'" not in result.stdout

    params["corpus"]["coverage"] = 0.9
    (repo / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    result = sh(str(BIN / "dvc"), "repro", cwd=repo)
    assert "Running stage 'redact'" in result.stdout
    assert "Running stage 'import'" not in result.stdout
    assert "Running stage 'ocr_fix'" not in result.stdout


def test_push_and_pull_through_a_local_remote(repo: Path, tmp_path: Path) -> None:
    remote = tmp_path / "remote"
    sh(str(BIN / "dvc"), "remote", "add", "--local", "-d", "-f", "local", str(remote), cwd=repo)
    sh(str(BIN / "dvc"), "push", cwd=repo)
    assert any(remote.rglob("*"))
    shutil.rmtree(repo / "data" / "release")
    shutil.rmtree(repo / ".dvc" / "cache")
    sh(str(BIN / "dvc"), "pull", cwd=repo)
    assert (repo / "data/release/application.json").exists()
    assert "up to date" in sh(str(BIN / "dvc"), "status", cwd=repo).stdout


def test_versions_of_the_files_an_evaluation_read(repo: Path) -> None:
    versions = data_versions(
        ["data/release/application.json", "data/corpus/fragments.jsonl", "params.yaml"],
        repo_root=repo,
    )
    assert set(versions) == {"data/release/application.json", "data/corpus/fragments.jsonl"}
    assert versions["data/release/application.json"].stage == "import"
    assert versions["data/release/application.json"].md5.endswith(".dir")


def test_reproduce_reports_versions_and_errors(repo: Path) -> None:
    assert "data/release" in reproduce(repo)
    (repo / "data/sample/application_problems.json").write_text('{"data": [1]}')
    with pytest.raises(DataError, match=r"(?s)dvc repro failed.*not-an-object"):
        reproduce(repo)
