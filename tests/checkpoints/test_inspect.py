"""Readiness and identity of one checkpoint folder, on folders written like trainers do."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from studybench.checkpoints import CheckpointState, inspect_checkpoint
from tests.checkpoints.fake import backdate, copy_checkpoint, snapshot, write_checkpoint


def test_marked_checkpoint_is_ready_with_step_run_and_identity(tmp_path: Path) -> None:
    folder = write_checkpoint(tmp_path / "run-a" / "checkpoint-30", step=30)
    before = snapshot(tmp_path)
    info = inspect_checkpoint(str(folder))
    assert info.state is CheckpointState.READY, info.reason
    assert (info.step, info.training_run, info.weights_format) == (30, "run-a", "safetensors")
    assert info.identity and len(info.identity) == 16
    assert snapshot(tmp_path) == before  # nothing in a watched root is ever touched


def test_without_marker_waits_for_trainer_state_and_a_quiet_period(tmp_path: Path) -> None:
    folder = write_checkpoint(tmp_path / "checkpoint-5", step=5, marker=False)
    now = time.time()
    info = inspect_checkpoint(str(folder), quiet_period_s=60, now=now)
    assert info.state is CheckpointState.PENDING
    assert "quiet period" in info.reason
    later = inspect_checkpoint(str(folder), quiet_period_s=60, now=now + 61)
    assert later.state is CheckpointState.READY and later.step == 5


def test_half_written_folder_is_pending_not_invalid(tmp_path: Path) -> None:
    folder = tmp_path / "checkpoint-7"
    folder.mkdir()
    (folder / "config.json").write_text('{"model_type": "qw')  # being written
    (folder / "model.safetensors.tmp").write_bytes(b"\0" * 100)
    info = inspect_checkpoint(str(folder), quiet_period_s=60)
    assert info.state is CheckpointState.PENDING
    assert "temporary files" in info.reason
    assert info.step == 7  # from the folder name


def test_unparseable_trainer_state_is_not_ready(tmp_path: Path) -> None:
    folder = write_checkpoint(tmp_path / "checkpoint-1", marker=False, age_s=3600)
    (folder / "trainer_state.json").write_text('{"global_st')
    backdate(folder, 3600)
    info = inspect_checkpoint(str(folder), quiet_period_s=60)
    assert info.state is CheckpointState.PENDING
    assert "does not parse" in info.reason


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (lambda f: (f / "config.json").write_text("{not json"), "config.json does not parse"),
        (
            lambda f: (f / "model.safetensors").write_bytes(
                (f / "model.safetensors").read_bytes()[:-100]
            ),
            "truncated",
        ),
        (lambda f: (f / "model.safetensors").write_bytes(b"\xff" * 64), "truncated or not"),
        (lambda f: (f / "tokenizer.json").unlink(), "no tokenizer files"),
        (lambda f: (f / "model.safetensors").unlink(), "no weights"),
    ],
    ids=["corrupt-config", "truncated-weights", "not-safetensors", "no-tokenizer", "no-weights"],
)
def test_settled_but_broken_checkpoints_are_invalid_with_a_reason(
    tmp_path: Path, damage: object, reason: str
) -> None:
    folder = write_checkpoint(tmp_path / "checkpoint-3")
    damage(folder)  # type: ignore[operator]
    # damage after the marker: the folder counts as rewritten until it is quiet again
    backdate(folder, 3600)
    info = inspect_checkpoint(str(folder), quiet_period_s=60)
    assert info.state is CheckpointState.INVALID
    assert reason in info.reason


def test_files_newer_than_the_marker_mean_the_folder_is_being_rewritten(tmp_path: Path) -> None:
    folder = write_checkpoint(tmp_path / "checkpoint-3", age_s=600)
    (folder / "model.safetensors").write_bytes((folder / "model.safetensors").read_bytes())
    assert inspect_checkpoint(str(folder), quiet_period_s=60).state is CheckpointState.PENDING


def test_pickle_only_weights_need_explicit_permission(tmp_path: Path) -> None:
    folder = write_checkpoint(tmp_path / "checkpoint-2", weights="pickle")
    refused = inspect_checkpoint(str(folder))
    assert refused.state is CheckpointState.INVALID
    assert "pickle-only" in refused.reason and "allow_pickle" in refused.reason
    allowed = inspect_checkpoint(str(folder), allow_pickle=True)
    assert allowed.ready and allowed.weights_format == "pickle"


def test_sharded_checkpoint_needs_every_shard(tmp_path: Path) -> None:
    folder = write_checkpoint(tmp_path / "checkpoint-4", weights="sharded")
    assert inspect_checkpoint(str(folder)).weights_format == "safetensors-sharded"
    (folder / "model-00002-of-00002.safetensors").unlink()
    backdate(folder, 3600)
    info = inspect_checkpoint(str(folder), quiet_period_s=60)
    assert info.state is CheckpointState.INVALID
    assert "1 of 2 shard(s) missing" in info.reason


def test_identity_follows_content_not_location_or_shape(tmp_path: Path) -> None:
    first = write_checkpoint(tmp_path / "a" / "checkpoint-1", seed=1)
    same_shape = write_checkpoint(tmp_path / "a" / "checkpoint-2", seed=2)
    copy = copy_checkpoint(first, tmp_path / "b" / "checkpoint-1")
    ids = [inspect_checkpoint(str(p)).identity for p in (first, same_shape, copy)]
    assert ids[0] == ids[2]
    assert ids[0] != ids[1]  # two training steps: same shapes and sizes, other weights


def test_marker_fields_win_over_folder_names(tmp_path: Path) -> None:
    folder = write_checkpoint(tmp_path / "final", trainer_state=False)
    (folder / "studybench-ready.json").write_text(
        json.dumps({"step": 99, "training_run": "grpo-7", "compute": {"gpu_hours": 1.5}})
    )
    info = inspect_checkpoint(str(folder))
    assert (info.state, info.step, info.training_run) == (CheckpointState.READY, 99, "grpo-7")
    assert info.marker["compute"]["gpu_hours"] == 1.5


def test_explicitly_named_model_folders_skip_the_wait(tmp_path: Path) -> None:
    folder = write_checkpoint(tmp_path / "base", marker=False, trainer_state=False)
    assert inspect_checkpoint(str(folder)).state is CheckpointState.PENDING
    assert inspect_checkpoint(str(folder), assume_settled=True).ready


def test_missing_folder_is_invalid(tmp_path: Path) -> None:
    info = inspect_checkpoint(str(tmp_path / "nope"))
    assert info.state is CheckpointState.INVALID and info.reason == "not a folder"


def test_fsspec_urls_are_inspected_without_a_local_copy(tmp_path: Path) -> None:
    import fsspec

    local = write_checkpoint(tmp_path / "checkpoint-8", step=8)
    fs = fsspec.filesystem("memory")
    # uploaded like a sync job does it: the marker last
    for path in sorted(local.iterdir(), key=lambda p: p.name == "studybench-ready.json"):
        fs.pipe(f"/bucket/run/checkpoint-8/{path.name}", path.read_bytes())
    info = inspect_checkpoint("memory://bucket/run/checkpoint-8")
    assert info.ready, info.reason
    assert info.identity == inspect_checkpoint(str(local)).identity
    assert (info.step, info.training_run) == (8, "run")


def test_unreadable_folder_is_reported_not_raised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from studybench.checkpoints import inspect as module

    folder = write_checkpoint(tmp_path / "checkpoint-1")

    def denied(fs: object, path: str) -> object:
        raise PermissionError(13, "Permission denied", path)

    monkeypatch.setattr(module, "read_json", denied)
    info = inspect_checkpoint(str(folder))
    assert info.state is CheckpointState.PENDING
    assert info.reason.startswith("cannot read: PermissionError")
    named = inspect_checkpoint(str(folder), assume_settled=True)
    assert named.state is CheckpointState.INVALID
