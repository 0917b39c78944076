"""Shared fixtures: paths of the committed sample data."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "data" / "sample"


@pytest.fixture(scope="session")
def sample_dir() -> Path:
    return SAMPLE


def run_checked(*args: str, cwd: Path, env: dict[str, str] | None = None) -> str:
    """Run a command; fail the test with its output when it fails."""
    import os
    import subprocess
    import sys

    bin_dir = str(Path(sys.executable).parent)
    full_env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", **(env or {})}
    full_env.setdefault("DVC_NO_ANALYTICS", "1")
    result = subprocess.run(
        args, cwd=cwd, env=full_env, capture_output=True, text=True, timeout=300, check=False
    )
    assert result.returncode == 0, f"{' '.join(args)}:\n{result.stdout}\n{result.stderr}"
    return result.stdout


def build_dvc_repo(repo: Path) -> Path:
    """A fresh git + DVC repository holding the project's pipeline and sample release."""
    import shutil
    import sys

    dvc = str(Path(sys.executable).with_name("dvc"))
    repo.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "dvc.yaml", repo)
    shutil.copy(ROOT / "params.yaml", repo)
    shutil.copytree(SAMPLE, repo / "data" / "sample")
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "studybench", repo / "studybench", ignore=ignore)
    run_checked("git", "init", "-q", cwd=repo)
    run_checked("git", "config", "user.email", "ci@example.invalid", cwd=repo)
    run_checked("git", "config", "user.name", "ci", cwd=repo)
    run_checked(dvc, "init", "-q", cwd=repo)
    run_checked("git", "add", "-A", cwd=repo)
    run_checked("git", "commit", "-qm", "init", cwd=repo)
    return repo


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The offline demo model, built once per test session (about 7 s)."""
    from studybench.engines.demo_model import build_demo_model

    return build_demo_model(tmp_path_factory.mktemp("tiny") / "model", SAMPLE)
