"""``studybench checkpoints ...`` as a user runs it."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from studybench.cli import app
from tests.checkpoints.fake import write_checkpoint

runner = CliRunner()


def test_checkpoints_scan_shows_state_and_reason(tmp_path: Path) -> None:
    write_checkpoint(tmp_path / "run" / "checkpoint-10", step=10)
    write_checkpoint(tmp_path / "run" / "checkpoint-20", step=20, seed=1, weights="pickle")
    result = runner.invoke(app, ["checkpoints", "scan", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [(r["step"], r["state"]) for r in rows] == [(10, "ready"), (20, "invalid")]
    assert "pickle-only" in rows[1]["reason"]
    table = runner.invoke(app, ["checkpoints", "scan", str(tmp_path)])
    assert "ready" in table.stdout and "invalid" in table.stdout
