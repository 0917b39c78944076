"""``studybench trigger`` as a user runs it (the installed entry point, a bare PATH)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.checkpoints.fake import write_checkpoint
from tests.conftest import free_port


def studybench(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    command = [str(Path(sys.executable).with_name("studybench")), *args]
    return subprocess.run(
        command, capture_output=True, text=True, env={"PATH": "/usr/bin:/bin", **(env or {})}
    )


def test_trigger_refuses_an_incomplete_checkpoint_before_calling_airflow(tmp_path: Path) -> None:
    folder = write_checkpoint(tmp_path / "checkpoint-1", tokenizer=False)
    done = studybench("trigger", str(folder))
    assert done.returncode == 2
    assert "not triggering" in done.stderr and "no tokenizer files" in done.stderr


def test_trigger_says_when_airflow_is_unreachable(tmp_path: Path) -> None:
    folder = write_checkpoint(tmp_path / "checkpoint-1")
    params = tmp_path / "params.yaml"
    params.write_text(f"airflow: {{url: 'http://127.0.0.1:{free_port()}'}}\n")
    done = studybench(
        "trigger", str(folder), "--params", str(params), env={"STUDYBENCH_AIRFLOW_PASSWORD": "x"}
    )
    assert done.returncode == 2
    assert "cannot reach Airflow" in done.stderr


def test_trigger_without_a_password_says_where_it_looked(tmp_path: Path) -> None:
    folder = write_checkpoint(tmp_path / "checkpoint-1")
    params = tmp_path / "params.yaml"
    params.write_text(f"airflow: {{home: {tmp_path / 'af'}}}\n")
    done = studybench("trigger", str(folder), "--params", str(params))
    assert done.returncode == 2
    assert "no admin password (has Airflow started?)" in done.stderr
