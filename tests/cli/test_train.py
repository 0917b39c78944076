"""``studybench train ...`` as a user runs it (the installed entry point, a subprocess)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT

STUDYBENCH = str(Path(sys.executable).with_name("studybench"))


def run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200"}
    return subprocess.run(
        [STUDYBENCH, *map(str, args)], capture_output=True, text=True, env=env, cwd=cwd, timeout=300
    )


@pytest.mark.parametrize("method", ["grpo", "ttrl"])
def test_train_rl_command_writes_marked_checkpoints(
    method: str, tiny_model: Path, tmp_path: Path
) -> None:
    project = yaml.safe_load((ROOT / "params.yaml").read_text())
    params = {
        "data": {k: str(ROOT / v) for k, v in project["data"].items()},
        "training": {
            "out_root": str(tmp_path / "checkpoints"),
            method: {
                "steps": 1,
                "batch_size": 2,
                "num_generations": 2,
                "save_steps": 1,
                "max_completion_length": 8,
            },
        },
    }
    (tmp_path / "params.yaml").write_text(yaml.safe_dump(params))
    done = run("train", method, "--model", tiny_model, "--run", f"cli-{method}", cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    run_dir = tmp_path / "checkpoints" / f"cli-{method}"
    assert sorted(p.name for p in run_dir.glob("checkpoint-*")) == ["checkpoint-0", "checkpoint-1"]
    assert f"{run_dir / 'checkpoint-1'}  step 1" in done.stdout
    marker = json.loads((run_dir / "checkpoint-1" / "studybench-ready.json").read_text())
    assert (marker["step"], marker["training_run"]) == (1, f"cli-{method}")
    # GRPO records the Instructions-with-Answer items it trained on; TTRL labels its own
    assert (run_dir / "train_items.json").exists() is (method == "grpo")


def test_plateau_of_a_gepa_history_and_a_clear_error(tmp_path: Path) -> None:
    history = tmp_path / "gepa.jsonl"
    rows = [(0, 18, 0.1), (1, 42, 0.5), (2, 66, 0.5), (3, 90, 0.52)]
    history.write_text(
        "".join(
            json.dumps({"system_prompt": "p", "iteration": i, "rollouts": r, "score": s}) + "\n"
            for i, r, s in rows
        )
    )
    done = run("train", "plateau", "--history", history, "--min-delta", "0.05", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    plateau = json.loads(done.stdout)
    assert (plateau["plateau_compute"], plateau["plateau_step"]) == (42, 1)
    assert plateau["wasted_compute"] == 48 and plateau["plateaued"] is True
    missing = run("train", "plateau", cwd=tmp_path)
    assert missing.returncode == 2 and "--training-run" in missing.stderr


def test_plateau_of_a_broken_history_names_file_and_line(tmp_path: Path) -> None:
    history = tmp_path / "gepa.jsonl"
    history.write_text('{"iteration": 0, "rollouts": 18, "score": 0.1}\n{"iteration": 1}\n')
    done = run("train", "plateau", "--history", history, cwd=tmp_path)
    assert done.returncode == 2
    assert f"{history}: line 2: not a GEPA history row" in done.stderr
