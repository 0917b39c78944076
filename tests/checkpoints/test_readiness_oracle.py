"""What a user reads about a checkpoint folder, exactly: state, reason, step, run, times.

The expectations are written out in ``readiness_reasons.json`` (and below), not derived from
the inspector: the reason is the diagnostic a user acts on, so a changed or truncated text is
a visible change in review. Mutation testing (perf/mutation_report.py) found these
texts and boundaries unchecked.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from studybench.checkpoints import (
    READY_MARKER,
    CheckpointInfo,
    CheckpointState,
    inspect_checkpoint,
)
from tests.checkpoints.fake import write_checkpoint

CASES: list[dict[str, Any]] = json.loads(
    Path(__file__).with_name("readiness_reasons.json").read_text()
)["cases"]
AGE = 600.0


def _build(folder: Path, case: dict[str, Any]) -> None:
    write_checkpoint(
        folder,
        weights=case.get("weights", "safetensors"),
        marker=case.get("marker", True),
        trainer_state=case.get("trainer_state", True),
        age_s=AGE,
    )
    times = {p.name: p.stat().st_mtime for p in folder.iterdir()}
    for name in case.get("remove", []):
        (folder / name).unlink()
    for name, text in case.get("write", {}).items():
        (folder / name).write_text(text)
    for name in case.get("copy_bin", []):
        (folder / name).write_bytes(b"\x80\x04" + os.urandom(256))
    if "index_shards" in case:
        weight_map = {f"t{i}": shard for i, shard in enumerate(case["index_shards"])}
        case = {**case, "index_map": weight_map}
    if "index_map" in case:
        index = {"metadata": {}, "weight_map": case["index_map"]}
        (folder / "model.safetensors.index.json").write_text(json.dumps(index))
    if case.get("keep_times"):
        for path in folder.iterdir():
            when = times.get(path.name, time.time() - AGE)
            os.utime(path, (when, when))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_state_and_reason_are_exactly_the_written_ones(
    case: dict[str, Any], tmp_path: Path
) -> None:
    folder = tmp_path / "run-r" / "checkpoint-12"
    _build(folder, case)
    now = None
    if "now_after_newest_s" in case:
        now = max(p.stat().st_mtime for p in folder.iterdir()) + case["now_after_newest_s"]
    info = inspect_checkpoint(
        str(folder),
        quiet_period_s=60.0,
        assume_settled=case.get("assume_settled", False),
        now=now,
    )
    assert (info.state.value, info.reason) == (case["state"], case["reason"])
    assert (info.step, info.training_run) == (case["step"], "run-r")
    if case["name"] == "marker_not_an_object":
        assert info.marker == {}


def test_describe_names_the_folder_step_state_and_reason() -> None:
    ready = CheckpointInfo(uri="/ckpt/a", state=CheckpointState.READY)
    assert ready.describe() == "/ckpt/a is ready"
    assert ready.reason == ""
    step0 = CheckpointInfo(uri="/c", state=CheckpointState.INVALID, step=0, reason="no config")
    assert step0.describe() == "/c step 0 is invalid: no config"
    pending = CheckpointInfo(uri="/c", state=CheckpointState.PENDING, step=7)
    assert pending.describe() == "/c step 7 is pending"


def test_an_empty_folder_is_pending_with_no_time(tmp_path: Path) -> None:
    folder = tmp_path / "checkpoint-1"
    folder.mkdir()
    info = inspect_checkpoint(str(folder))
    assert (info.state, info.reason, info.newest_mtime) == (
        CheckpointState.PENDING,
        "empty folder",
        0.0,
    )


def test_ready_info_carries_step_run_newest_time_and_no_reason(tmp_path: Path) -> None:
    folder = write_checkpoint(tmp_path / "run-q" / "checkpoint-40", step=40, age_s=AGE)
    newest = max(p.stat().st_mtime for p in folder.iterdir())
    info = inspect_checkpoint(str(folder))
    assert info.state is CheckpointState.READY
    assert (info.reason, info.step, info.training_run) == ("", 40, "run-q")
    assert info.newest_mtime == pytest.approx(newest, abs=1e-3)


def test_step_and_run_come_from_the_folder_names_when_files_say_nothing(tmp_path: Path) -> None:
    folder = write_checkpoint(tmp_path / "run-z" / "checkpoint-77", trainer_state=False)
    (folder / READY_MARKER).write_text("{}")
    info = inspect_checkpoint(str(folder), assume_settled=True)
    assert (info.state, info.step, info.training_run) == (CheckpointState.READY, 77, "run-z")
    other = write_checkpoint(tmp_path / "plain", trainer_state=False)
    (other / READY_MARKER).write_text("{}")
    plain = inspect_checkpoint(str(other), assume_settled=True)
    assert (plain.step, plain.training_run) == (None, None)


def test_the_default_quiet_period_is_sixty_seconds_inclusive(tmp_path: Path) -> None:
    folder = write_checkpoint(tmp_path / "checkpoint-3", marker=False)
    newest = max(p.stat().st_mtime for p in folder.iterdir())
    assert inspect_checkpoint(str(folder), now=newest + 59.5).state is CheckpointState.PENDING
    assert inspect_checkpoint(str(folder), now=newest + 60.5).state is CheckpointState.READY
    exact = inspect_checkpoint(str(folder), quiet_period_s=30.0, now=newest + 30.0)
    assert exact.state is CheckpointState.READY, exact.describe()


def test_a_file_as_old_as_the_marker_is_not_newer(tmp_path: Path) -> None:
    folder = write_checkpoint(tmp_path / "checkpoint-4", trainer_state=False)
    when = time.time() - 5
    for path in folder.iterdir():
        os.utime(path, (when, when))
    info = inspect_checkpoint(str(folder), quiet_period_s=60.0, now=when + 10)
    assert info.state is CheckpointState.READY, info.describe()


def test_a_pending_folder_keeps_its_marker_step_and_run(tmp_path: Path) -> None:
    folder = write_checkpoint(tmp_path / "run-p" / "checkpoint-5", step=5, trainer_state=False)
    marker = json.loads((folder / READY_MARKER).read_text())
    later = time.time() + 1
    os.utime(folder / "config.json", (later, later))  # rewritten after the marker
    info = inspect_checkpoint(str(folder), quiet_period_s=60.0, now=later + 1)
    assert info.state is CheckpointState.PENDING, info.describe()
    assert (info.marker, info.step, info.training_run) == (marker, 5, "run-p")


def test_a_distrusted_marker_is_returned_with_the_verdict(tmp_path: Path) -> None:
    folder = write_checkpoint(tmp_path / "checkpoint-9", age_s=AGE)
    marker = {"step": 9, "files": {"model.safetensors": 1}}
    (folder / READY_MARKER).write_text(json.dumps(marker))
    info = inspect_checkpoint(str(folder))
    assert info.state is CheckpointState.INVALID
    assert info.marker == marker
    size = (folder / "model.safetensors").stat().st_size
    assert info.reason == f"model.safetensors is {size} bytes, {READY_MARKER} recorded 1"


def _private_memory_fs(monkeypatch: pytest.MonkeyPatch) -> Any:
    """fsspec's memory filesystem with a store of its own (the store is process-global)."""
    import fsspec
    from fsspec.implementations.memory import MemoryFileSystem

    monkeypatch.setattr(MemoryFileSystem, "store", {})
    monkeypatch.setattr(MemoryFileSystem, "pseudo_dirs", [""])
    return fsspec.filesystem("memory")


def test_a_step_folder_at_the_root_of_a_filesystem_has_no_training_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """fsspec URLs: ``memory://checkpoint-3`` is a step folder directly under the root."""
    local = write_checkpoint(tmp_path / "run" / "checkpoint-1", age_s=AGE)
    fs = _private_memory_fs(monkeypatch)
    for path in local.iterdir():
        fs.pipe(f"/checkpoint-3/{path.name}", path.read_bytes())
        fs.pipe(f"/bucket/checkpoint-4/{path.name}", path.read_bytes())
    root = inspect_checkpoint("memory://checkpoint-3", assume_settled=True)
    nested = inspect_checkpoint("memory://bucket/checkpoint-4", assume_settled=True)
    assert (root.state, root.step, root.training_run) == (CheckpointState.READY, 10, None)
    assert (nested.state, nested.training_run) == (CheckpointState.READY, "bucket")


def test_a_trailing_slash_names_the_same_folder(tmp_path: Path) -> None:
    folder = write_checkpoint(tmp_path / "run-s" / "checkpoint-21", trainer_state=False)
    (folder / READY_MARKER).write_text("{}")
    info = inspect_checkpoint(f"{folder}/", assume_settled=True)
    assert (info.state, info.step, info.training_run) == (CheckpointState.READY, 21, "run-s")
    odd = write_checkpoint(tmp_path / "finalX", age_s=AGE)
    assert inspect_checkpoint(f"{odd}/").state is CheckpointState.READY


def test_the_root_of_a_filesystem_can_be_the_checkpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fs = _private_memory_fs(monkeypatch)
    built = write_checkpoint(tmp_path / "checkpoint-2", age_s=AGE)
    for path in built.iterdir():
        fs.pipe(f"/{path.name}", path.read_bytes())
    info = inspect_checkpoint("memory://", assume_settled=True)
    assert info.state is CheckpointState.READY, info.describe()
