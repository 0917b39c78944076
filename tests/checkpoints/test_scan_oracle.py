"""The scan's defaults and pass-through (checkpoints/scan.py): depth 2, a 60 s quiet period,
pickle refused unless allowed, ``now`` honoured; the latest ready checkpoint is the highest
step, a step-less folder counting below step 0. Found unchecked by mutation testing."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from studybench.checkpoints import CheckpointState, latest_ready, scan_roots
from tests.checkpoints.fake import write_checkpoint

AGE = 600.0


def _states(root: Path, **options: object) -> dict[str, str]:
    infos = scan_roots([str(root)], **options)  # type: ignore[arg-type]
    return {Path(i.uri).relative_to(root).as_posix(): i.state.value for i in infos}


def test_defaults_depth_two_and_pickle_refused(tmp_path: Path) -> None:
    write_checkpoint(tmp_path / "run" / "checkpoint-1", age_s=AGE)
    write_checkpoint(tmp_path / "a" / "b" / "checkpoint-2", age_s=AGE)  # depth 3
    write_checkpoint(tmp_path / "run" / "checkpoint-3", weights="pickle", age_s=AGE)
    assert _states(tmp_path) == {"run/checkpoint-1": "ready", "run/checkpoint-3": "invalid"}
    allowed = _states(tmp_path, allow_pickle=True, depth=3)
    assert allowed == {
        "a/b/checkpoint-2": "ready",
        "run/checkpoint-1": "ready",
        "run/checkpoint-3": "ready",
    }


def test_quiet_period_and_now_are_passed_through(tmp_path: Path) -> None:
    folder = write_checkpoint(tmp_path / "run" / "checkpoint-4", marker=False)
    newest = max(p.stat().st_mtime for p in folder.iterdir())
    assert _states(tmp_path, now=newest + 59.5) == {"run/checkpoint-4": "pending"}
    assert _states(tmp_path, now=newest + 60.5) == {"run/checkpoint-4": "ready"}
    assert _states(tmp_path, now=newest + 10.5, quiet_period_s=10.0) == {
        "run/checkpoint-4": "ready"
    }
    assert _states(tmp_path, now=time.time() + 3600, quiet_period_s=7200.0) == {
        "run/checkpoint-4": "pending"
    }


def test_latest_ready_is_the_highest_step_and_a_stepless_folder_ranks_lowest(
    tmp_path: Path,
) -> None:
    write_checkpoint(tmp_path / "run" / "checkpoint-0", step=0, age_s=AGE)
    stepless = write_checkpoint(tmp_path / "run" / "final", trainer_state=False, age_s=AGE)
    (stepless / "studybench-ready.json").write_text("{}")
    best = latest_ready(str(tmp_path), now=time.time() + AGE)
    assert best is not None and best.state is CheckpointState.READY
    assert (Path(best.uri).name, best.step) == ("checkpoint-0", 0)
    write_checkpoint(tmp_path / "run" / "checkpoint-9", weights="pickle", step=9, age_s=AGE)
    assert latest_ready(str(tmp_path)).step == 0  # type: ignore[union-attr]
    assert latest_ready(str(tmp_path), allow_pickle=True).step == 9  # type: ignore[union-attr]
    assert latest_ready(str(tmp_path / "nothing-here-yet")) is None


def test_url_roots_give_urls_of_the_same_scheme(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import fsspec
    from fsspec.implementations.memory import MemoryFileSystem

    from studybench.checkpoints import candidate_folders

    monkeypatch.setattr(MemoryFileSystem, "store", {})
    monkeypatch.setattr(MemoryFileSystem, "pseudo_dirs", [""])
    local = write_checkpoint(tmp_path / "run" / "checkpoint-5", age_s=AGE)
    fs = fsspec.filesystem("memory")
    for path in local.iterdir():
        fs.pipe(f"/bkt/run/checkpoint-5/{path.name}", path.read_bytes())
    assert candidate_folders("memory://bkt") == ["memory://bkt/run/checkpoint-5"]
    assert candidate_folders(f"file://{tmp_path}") == [f"file://{tmp_path}/run/checkpoint-5"]
    assert candidate_folders(str(tmp_path)) == [f"{tmp_path}/run/checkpoint-5"]
    assert candidate_folders(str(tmp_path), depth=0) == []
    assert candidate_folders(str(tmp_path / "run"), depth=1) == [f"{tmp_path}/run/checkpoint-5"]
