"""Finding checkpoint folders under roots, and reporting each ready one exactly once."""

from __future__ import annotations

from pathlib import Path

from studybench.checkpoints import Watcher, candidate_folders, latest_ready, scan_roots
from tests.checkpoints.fake import copy_checkpoint, write_checkpoint


def test_candidates_at_any_depth_up_to_the_limit(tmp_path: Path) -> None:
    write_checkpoint(tmp_path / "run-a" / "checkpoint-10")
    write_checkpoint(tmp_path / "run-a" / "checkpoint-20", step=20, seed=1)
    write_checkpoint(tmp_path / "solo", step=1)
    write_checkpoint(tmp_path / "x" / "y" / "z" / "checkpoint-1")  # too deep
    (tmp_path / "run-a" / ".tmp-checkpoint-30").mkdir()
    found = [Path(f).relative_to(tmp_path).as_posix() for f in candidate_folders(str(tmp_path))]
    assert found == ["run-a/checkpoint-10", "run-a/checkpoint-20", "solo"]
    assert candidate_folders(str(tmp_path / "run-a" / "checkpoint-10")) == [
        str(tmp_path / "run-a" / "checkpoint-10")
    ]
    assert candidate_folders(str(tmp_path / "missing")) == []


def test_scan_orders_by_run_and_step(tmp_path: Path) -> None:
    write_checkpoint(tmp_path / "run" / "checkpoint-100", step=100)
    write_checkpoint(tmp_path / "run" / "checkpoint-20", step=20, seed=1)
    steps = [i.step for i in scan_roots([str(tmp_path)])]
    assert steps == [20, 100]
    latest = latest_ready(str(tmp_path))
    assert latest is not None and latest.step == 100


def test_watcher_reports_each_checkpoint_once(tmp_path: Path) -> None:
    root = tmp_path / "watched"
    root.mkdir()
    watcher = Watcher([str(root)], quiet_period_s=60)
    assert watcher.poll().ready == []
    first = write_checkpoint(root / "run" / "checkpoint-10")
    half = root / "run" / "checkpoint-20"
    half.mkdir()
    (half / "config.json").write_text("{")
    result = watcher.poll()
    assert [Path(i.uri).name for i in result.ready] == ["checkpoint-10"]
    assert [Path(i.uri).name for i in result.pending] == ["checkpoint-20"]
    assert watcher.poll().ready == []  # reported already
    copy_checkpoint(first, root / "elsewhere" / "checkpoint-10")
    assert watcher.poll().ready == []  # same weights, same identity
    restarted = Watcher([str(root)], seen=watcher.seen)
    assert restarted.poll().ready == []  # state carried over a restart


def test_invalid_folders_are_reported_once_per_reason(tmp_path: Path) -> None:
    folder = write_checkpoint(tmp_path / "checkpoint-1", weights="pickle")
    watcher = Watcher([str(tmp_path)])
    assert [i.reason[:17] for i in watcher.poll().invalid] == ["pickle-only weigh"]
    assert watcher.poll().invalid == []
    (folder / "tokenizer.json").unlink()
    assert len(watcher.poll().invalid) == 1  # a new reason is news


def test_a_run_folder_with_a_final_model_still_shows_its_checkpoints(tmp_path: Path) -> None:
    run = write_checkpoint(tmp_path / "run", step=40, marker=False, trainer_state=False)
    write_checkpoint(run / "checkpoint-20", step=20, seed=1)
    found = [Path(f).relative_to(tmp_path).as_posix() for f in candidate_folders(str(tmp_path))]
    assert found == ["run", "run/checkpoint-20"]
    latest = latest_ready(str(tmp_path))
    assert latest is not None and latest.step == 20


def test_what_a_root_holds_at_its_first_scan_can_be_left_alone(tmp_path: Path) -> None:
    """The policy the Airflow trigger applies too (tests/dags/test_trigger.py)."""
    root, later = tmp_path / "watched", tmp_path / "later"
    write_checkpoint(root / "old" / "checkpoint-1", step=1)
    watcher = Watcher([str(root)], evaluate_existing=False)
    first = watcher.poll()
    assert first.ready == [] and [i.step for i in first.existing] == [1]
    assert first.new_roots == [str(root)]
    write_checkpoint(root / "new" / "checkpoint-2", step=2, seed=9)
    second = watcher.poll()
    assert [i.step for i in second.ready] == [2] and second.new_roots == []
    write_checkpoint(later / "checkpoint-3", step=3, seed=7)
    watcher.roots.append(str(later))  # a root added later: what it holds is existing too
    third = watcher.poll()
    assert third.ready == [] and [i.step for i in third.existing] == [3]
    restarted = Watcher(watcher.roots, seen=watcher.seen, initialised=watcher.initialised)
    write_checkpoint(later / "checkpoint-4", step=4, seed=8)
    assert [i.step for i in restarted.poll().ready] == [4]  # state carried over a restart
    eager = Watcher([str(root)])
    assert sorted(i.step for i in eager.poll().ready) == [1, 2]  # the default: evaluate all
