"""The ready-marker callback, in a real TRL run (the shared ``trained_checkpoints`` run)."""

from __future__ import annotations

import json
from pathlib import Path

from studybench.checkpoints import READY_MARKER, CheckpointState, inspect_checkpoint, scan_roots


def test_every_saved_checkpoint_is_marked_complete(trained_checkpoints: Path) -> None:
    folders = sorted(p.name for p in trained_checkpoints.glob("checkpoint-*"))
    assert folders == ["checkpoint-0", "checkpoint-160"]
    marker = json.loads((trained_checkpoints / "checkpoint-160" / READY_MARKER).read_text())
    assert marker["format"] == "studybench-ready/1"
    assert (marker["step"], marker["training_run"]) == (160, "sft-test")
    assert marker["compute"]["total_flos"] > 0 and marker["compute"]["train_wall_s"] > 0
    # the marker lists the files as they were when it was written: all of them
    on_disk = {p.name for p in (trained_checkpoints / "checkpoint-160").iterdir()}
    assert set(marker["files"]) == on_disk - {READY_MARKER}
    assert {"model.safetensors", "trainer_state.json", "tokenizer.json"} <= set(marker["files"])
    infos = scan_roots([str(trained_checkpoints)], quiet_period_s=3600)
    assert [(i.state, i.step) for i in infos] == [
        (CheckpointState.READY, 0),
        (CheckpointState.READY, 160),
    ]
    assert infos[0].identity != infos[1].identity


def test_marker_is_written_atomically(tmp_path: Path) -> None:
    from studybench.training import write_ready_marker

    (tmp_path / "config.json").write_text("{}")
    path = write_ready_marker(tmp_path, step=3, training_run="r")
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
    assert json.loads(path.read_text())["files"] == {"config.json": 2}
    info = inspect_checkpoint(str(tmp_path))
    assert info.state is CheckpointState.INVALID  # marked, but no weights: a clear reason
    assert info.reason.startswith("no tokenizer files")
