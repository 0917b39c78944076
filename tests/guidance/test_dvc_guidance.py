"""``dvc repro data/guidance/dvc.yaml`` offline in a fresh git + DVC repository: the root
pipeline runs up to ``fragments``, then every guidance stage with the default teacher (the
in-process tiny model): its noise is retried and recorded, nothing crashes, the outputs are
tracked, a second repro is a no-op and re-running a stage costs no teacher calls."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from studybench.data.validate import validate_file
from tests.conftest import ROOT, build_dvc_repo, run_checked

DVC = str(Path(sys.executable).with_name("dvc"))


def test_guidance_stages_run_offline(tmp_path: Path) -> None:
    repo = build_dvc_repo(tmp_path / "repo")
    (repo / "data" / "guidance").mkdir(parents=True)
    shutil.copy(ROOT / "data" / "guidance" / "dvc.yaml", repo / "data" / "guidance")
    run_checked("git", "add", "-A", cwd=repo)
    run_checked("git", "commit", "-qm", "guidance", cwd=repo)
    env = {
        "STUDYBENCH__GUIDANCE__TEACHER__JSON_RETRIES": "1",
        "STUDYBENCH__GUIDANCE__TEACHER__LOCAL_MAX_TOKENS": "48",
    }
    first = run_checked(DVC, "repro", "data/guidance/dvc.yaml", cwd=repo, env=env)
    assert "Running stage 'fragments'" in first
    for stage in ("decompose", "canonicalise", "retrieve", "verify", "guide", "admit"):
        assert f"Running stage 'data/guidance/dvc.yaml:guidance_{stage}'" in first, first
    out = repo / "data" / "guidance"
    raw = [
        json.loads(line) for line in (out / "knowledge_points_raw.jsonl").read_text().splitlines()
    ]
    assert len(raw) == 40
    failed = [r for r in raw if r["failure"]]
    assert failed, "the tiny model produced valid JSON?"
    assert all(r["failure"]["attempts"] == 2 and r["failure"]["replies"] for r in failed)
    assert validate_file(out / "guidance.json").ok
    report = json.loads((out / "guidance_report.json").read_text())
    assert report["slots"] == 40 and report["decompose_failures"] == len(failed)
    assert json.loads((out / "admission.json").read_text())["admitted_slots"] == []
    lock = (out / "dvc.lock").read_text()
    assert "guidance_guide" in lock and "guidance.json" in lock

    second = run_checked(DVC, "repro", "data/guidance/dvc.yaml", cwd=repo, env=env)
    assert "Running stage" not in second
    # as after a forced re-run: the stage's command again, with every reply cached
    rerun = subprocess.run(
        [sys.executable, "-m", "studybench.cli", "guidance", "decompose"],
        cwd=repo,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    replies = sum(r["failure"]["attempts"] if r["failure"] else 1 for r in raw)
    assert f" 0 teacher call(s), {replies} cached" in rerun.stderr, rerun.stderr
    again = [
        json.loads(line) for line in (out / "knowledge_points_raw.jsonl").read_text().splitlines()
    ]
    assert again == raw
