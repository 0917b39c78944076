"""What the scan and the watcher promise beyond the common layouts (checkpoints/scan.py).

Found unchecked by mutation testing (issue 26): a ``checkpoint-N`` folder is a candidate by
its name alone (a save in progress has no config yet) and is not searched below; folder names
with spaces, dots or capitals are taken as they are; the watcher passes its own depth, quiet
period, pickle policy and ``now`` to the scan; a root given with a trailing slash still owns
what lies under it; an invalid folder that became ready and breaks again is news; the log
names what is left alone and what is refused. Expectations are written from the docstrings.
"""

from __future__ import annotations

import json
import logging
import os
import time
from pathlib import Path

import pytest

from studybench.checkpoints import (
    CheckpointState,
    Watcher,
    candidate_folders,
    scan_roots,
)
from tests.checkpoints.fake import write_checkpoint

AGE = 600.0


def _relative(found: list[str], root: Path) -> list[str]:
    return [Path(f).relative_to(root).as_posix() for f in found]


def test_a_step_folder_is_a_candidate_by_name_and_not_searched_below(tmp_path: Path) -> None:
    saving = tmp_path / "run" / "checkpoint-7"
    (saving / "global_step7").mkdir(parents=True)  # DeepSpeed's shard folder, written first
    (saving / "global_step7" / "config.json").write_text("{}")
    (saving / "optimizer.pt").write_bytes(b"\0" * 16)
    write_checkpoint(tmp_path / "run" / "checkpoint-8", step=8, seed=1)
    assert _relative(candidate_folders(str(tmp_path)), tmp_path) == [
        "run/checkpoint-7",
        "run/checkpoint-8",
    ]
    states = {Path(i.uri).name: i.state for i in scan_roots([str(tmp_path)])}
    assert states == {
        "checkpoint-7": CheckpointState.PENDING,
        "checkpoint-8": CheckpointState.READY,
    }


def test_several_step_folders_side_by_side_are_all_found(tmp_path: Path) -> None:
    for step in (1, 2, 3):
        (tmp_path / "run" / f"checkpoint-{step}").mkdir(parents=True)
        (tmp_path / "run" / f"checkpoint-{step}" / "optimizer.pt").write_bytes(b"\0")
    (tmp_path / "run" / "logs").mkdir()
    assert _relative(candidate_folders(str(tmp_path)), tmp_path) == [
        "run/checkpoint-1",
        "run/checkpoint-2",
        "run/checkpoint-3",
    ]


@pytest.mark.parametrize(
    "runs",
    [
        "my runs",  # a space: names split on "/", never on whitespace
        "results .v2",  # a space then a dot: not a hidden folder
        "job tmp4",  # a space then "tmp": not a temporary folder
        "run-X",  # a capital X at the end
        "a.tmpX",  # a temporary suffix only when it ends the name
        "run ",  # a trailing space
        "old~ ",  # a backup mark only when it ends the name
    ],
)
def test_folder_names_are_taken_as_they_are(tmp_path: Path, runs: str) -> None:
    saving = tmp_path / runs / "checkpoint-3"
    saving.mkdir(parents=True)
    (saving / "optimizer.pt").write_bytes(b"\0")  # no marks: found by its name only
    assert candidate_folders(str(tmp_path / runs)) == [str(saving)]
    assert _relative(candidate_folders(str(tmp_path)), tmp_path) == [f"{runs}/checkpoint-3"]


def test_candidate_folders_searches_two_levels_by_default(tmp_path: Path) -> None:
    write_checkpoint(tmp_path / "group" / "run" / "checkpoint-1")  # three levels down
    write_checkpoint(tmp_path / "run" / "checkpoint-2", step=2, seed=1)
    assert _relative(candidate_folders(str(tmp_path)), tmp_path) == ["run/checkpoint-2"]
    assert _relative(candidate_folders(str(tmp_path), depth=3), tmp_path) == [
        "group/run/checkpoint-1",
        "run/checkpoint-2",
    ]


def test_url_roots_keep_the_bucket_name(monkeypatch: pytest.MonkeyPatch) -> None:
    import fsspec
    from fsspec.implementations.memory import MemoryFileSystem

    monkeypatch.setattr(MemoryFileSystem, "store", {})
    monkeypatch.setattr(MemoryFileSystem, "pseudo_dirs", [""])
    fs = fsspec.filesystem("memory")
    fs.pipe("/Xbkt/run/checkpoint-5/optimizer.pt", b"\0")
    fs.pipe("/Xbkt/final/config.json", b"{}")
    assert candidate_folders("memory://Xbkt") == [
        "memory://Xbkt/final",
        "memory://Xbkt/run/checkpoint-5",
    ]


def test_scan_order_puts_runless_then_stepless_first(tmp_path: Path) -> None:
    """Ordered by run ('' for none), then step (none below 0), then URI."""
    write_checkpoint(tmp_path / "Alpha" / "checkpoint-1", step=1, age_s=AGE)
    write_checkpoint(tmp_path / "solo", trainer_state=False, marker=False, age_s=AGE)
    final = write_checkpoint(tmp_path / "final", trainer_state=False, marker=False, age_s=AGE)
    (final / "studybench-ready.json").write_text(json.dumps({"training_run": "Alpha"}))
    order = [
        (Path(i.uri).relative_to(tmp_path).as_posix(), i.training_run, i.step)
        for i in scan_roots([str(tmp_path)])
    ]
    assert order == [
        ("solo", None, None),
        ("final", "Alpha", None),
        ("Alpha/checkpoint-1", "Alpha", 1),
    ]


def test_the_watcher_passes_its_own_settings_to_the_scan(tmp_path: Path) -> None:
    folder = write_checkpoint(
        tmp_path / "group" / "run" / "checkpoint-4", weights="pickle", marker=False
    )
    newest = max(p.stat().st_mtime for p in folder.iterdir())
    watcher = Watcher([str(tmp_path)], depth=3, quiet_period_s=10.0, allow_pickle=True)
    assert watcher.poll(now=newest + 5.0).pending[0].uri == str(folder)
    ready = watcher.poll(now=newest + 10.5).ready
    assert [(i.uri, i.weights_format) for i in ready] == [(str(folder), "pickle")]


def test_the_watcher_defaults_are_depth_two_and_sixty_seconds(tmp_path: Path) -> None:
    write_checkpoint(tmp_path / "group" / "run" / "checkpoint-1", age_s=AGE)  # too deep
    folder = write_checkpoint(tmp_path / "run" / "checkpoint-2", step=2, seed=1, marker=False)
    newest = max(p.stat().st_mtime for p in folder.iterdir())
    result = Watcher([str(tmp_path)]).poll(now=newest + 60.5)
    assert [i.uri for i in result.ready] == [str(folder)]
    assert result.pending == [] and result.invalid == []
    pickle = write_checkpoint(tmp_path / "run" / "checkpoint-3", weights="pickle", age_s=AGE)
    refused = Watcher([str(tmp_path)]).poll().invalid
    assert [i.uri for i in refused] == [str(pickle)]


def test_a_root_with_a_trailing_slash_owns_what_is_under_it(tmp_path: Path) -> None:
    root = tmp_path / "runs-X"
    write_checkpoint(root / "run" / "checkpoint-1", age_s=AGE)
    watcher = Watcher([f"{root}/"], evaluate_existing=False)
    first = watcher.poll()
    assert first.ready == [] and [Path(i.uri).name for i in first.existing] == ["checkpoint-1"]


def test_a_new_root_does_not_make_another_root_s_new_checkpoint_existing(tmp_path: Path) -> None:
    old, added = tmp_path / "old", tmp_path / "added"
    old.mkdir()
    watcher = Watcher([str(old)], evaluate_existing=False)
    assert watcher.poll().new_roots == [str(old)]
    fresh = write_checkpoint(old / "run" / "checkpoint-2", step=2, age_s=AGE)
    present = write_checkpoint(added / "checkpoint-1", step=1, seed=3, age_s=AGE)
    watcher.roots.append(str(added))
    result = watcher.poll()
    assert [i.uri for i in result.ready] == [str(fresh)]
    assert [i.uri for i in result.existing] == [str(present)]
    assert result.new_roots == [str(added)]


def test_a_folder_broken_again_after_being_ready_is_reported_again(tmp_path: Path) -> None:
    folder = write_checkpoint(tmp_path / "run" / "checkpoint-1", tokenizer=False, age_s=AGE)
    watcher = Watcher([str(tmp_path)])
    first = watcher.poll().invalid
    assert [i.reason.split(" (")[0] for i in first] == ["no tokenizer files"]
    (folder / "tokenizer_config.json").write_text("{}")
    (folder / "tokenizer.json").write_text('{"model": {}}')
    os.utime(folder / "tokenizer.json", (time.time() - AGE, time.time() - AGE))
    os.utime(folder / "tokenizer_config.json", (time.time() - AGE, time.time() - AGE))
    assert [i.uri for i in watcher.poll().ready] == [str(folder)]
    (folder / "tokenizer.json").unlink()
    (folder / "tokenizer_config.json").unlink()
    again = watcher.poll().invalid
    assert [(i.uri, i.reason) for i in again] == [(str(folder), first[0].reason)]


def test_the_log_names_what_is_left_alone_and_what_is_refused(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    left = write_checkpoint(tmp_path / "run" / "checkpoint-1", step=1, age_s=AGE)
    bad = write_checkpoint(tmp_path / "run" / "checkpoint-2", step=2, weights="pickle", age_s=AGE)
    with caplog.at_level(logging.INFO, logger="studybench.checkpoints.scan"):
        result = Watcher([str(tmp_path)], evaluate_existing=False).poll()
    messages = [r.getMessage() for r in caplog.records if r.name == "studybench.checkpoints.scan"]
    assert messages == [
        f"present at first start, not evaluated: {left} step 1 is ready",
        f"not evaluating {bad} step 2 is invalid: {result.invalid[0].reason}",
    ]
    assert result.invalid[0].reason.startswith("pickle-only weights")


@pytest.mark.parametrize("name", ["checkpoint-1 ", "checkpoint-1X", "checkpoint-1a"])
def test_a_near_miss_of_a_step_name_is_not_a_step_folder(tmp_path: Path, name: str) -> None:
    (tmp_path / "run" / name).mkdir(parents=True)
    (tmp_path / "run" / name / "optimizer.pt").write_bytes(b"\0")
    assert candidate_folders(str(tmp_path)) == []


@pytest.mark.parametrize("name", ["config.json ", "config.jsonX", "model.safetensors.bak"])
def test_a_mark_is_a_file_of_exactly_that_name(tmp_path: Path, name: str) -> None:
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / name).write_text("{}")
    assert candidate_folders(str(tmp_path)) == []


@pytest.mark.parametrize("hidden", [".trash", "tmp-run", "run.partial", "run~"])
def test_hidden_and_temporary_run_folders_are_not_searched(tmp_path: Path, hidden: str) -> None:
    write_checkpoint(tmp_path / hidden / "checkpoint-1", age_s=AGE)
    write_checkpoint(tmp_path / "run" / "checkpoint-2", step=2, seed=1, age_s=AGE)
    assert _relative(candidate_folders(str(tmp_path)), tmp_path) == ["run/checkpoint-2"]


def test_a_file_url_with_a_colon_folder_keeps_its_scheme(tmp_path: Path) -> None:
    saving = tmp_path / "a:" / "b" / "checkpoint-1"
    saving.mkdir(parents=True)
    (saving / "optimizer.pt").write_bytes(b"\0")
    assert candidate_folders(f"file://{tmp_path}/a://b") == [
        f"file://{tmp_path}/a://b/checkpoint-1"
    ]


def test_a_folder_that_cannot_be_listed_does_not_stop_the_scan(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An object store refusing one prefix (S3 AccessDenied) skips that prefix only."""
    import fsspec
    from fsspec.implementations.memory import MemoryFileSystem

    class Refusing(MemoryFileSystem):  # type: ignore[misc]
        protocol = "refusing"

        @classmethod
        def _strip_protocol(cls, path: str) -> str:
            return str(super()._strip_protocol(path.removeprefix("refusing://")))

        def ls(self, path: str, detail: bool = True, **kwargs: object) -> list[object]:
            if "/locked" in path:
                raise PermissionError(f"access denied: {path}")
            return super().ls(path, detail=detail, **kwargs)  # type: ignore[no-any-return]

    monkeypatch.setattr(MemoryFileSystem, "store", {})
    monkeypatch.setattr(MemoryFileSystem, "pseudo_dirs", [""])
    fsspec.register_implementation("refusing", Refusing, clobber=True)
    fs = fsspec.filesystem("refusing", skip_instance_cache=True)
    for run in ("locked", "m", "n"):  # listed (and sorted) before the others
        fs.pipe(f"/bkt/{run}/checkpoint-1/optimizer.pt", b"\0")
    assert candidate_folders("refusing://bkt") == [
        "refusing://bkt/m/checkpoint-1",
        "refusing://bkt/n/checkpoint-1",
    ]
