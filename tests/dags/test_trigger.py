"""The watcher trigger's event stream on a temp folder: half-written, corrupt, ready,
duplicate and already-reported checkpoints."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import pytest

from studybench.checkpoints import inspect_checkpoint
from tests.checkpoints.fake import copy_checkpoint, write_checkpoint


@pytest.fixture(autouse=True)
def no_spacing(monkeypatch: pytest.MonkeyPatch) -> None:
    from studybench_airflow import trigger

    monkeypatch.setattr(trigger, "EVENT_SPACING_S", 0.0)


def params_file(tmp_path: Path, root: Path, **checkpoints: Any) -> Path:
    path = tmp_path / "params.yaml"
    section = {"roots": [str(root)], "quiet_period_s": 60, **checkpoints}
    path.write_text(json.dumps({"checkpoints": section}))
    return path


def poll(params: Path, store: Any) -> list[dict[str, Any]]:
    from studybench_airflow.trigger import CheckpointTrigger

    trigger = CheckpointTrigger(repo=str(params.parent), params=str(params), once=True)
    trigger.asset_state_store = store

    async def collect() -> list[dict[str, Any]]:
        return [event.payload async for event in trigger.run()]

    return asyncio.run(collect())


def test_serialize_names_the_classpath_and_every_argument() -> None:
    from studybench_airflow.trigger import CheckpointTrigger

    trigger = CheckpointTrigger(repo="/r", params="p.yaml", profile="demo", asset="a")
    path, kwargs = trigger.serialize()
    assert path == "studybench_airflow.trigger.CheckpointTrigger"
    assert CheckpointTrigger(**kwargs).serialize() == (path, kwargs)


def test_event_stream(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from studybench_airflow.trigger import _MemoryStore

    root = tmp_path / "watched"
    ready = write_checkpoint(root / "run" / "checkpoint-10", step=10)
    half = root / "run" / "checkpoint-20"
    half.mkdir(parents=True)
    (half / "config.json").write_text('{"model_ty')
    corrupt = write_checkpoint(root / "run" / "checkpoint-30", step=30, seed=3)
    (corrupt / "config.json").write_text("{oops")
    (corrupt / "studybench-ready.json").write_text("{}")
    earlier = write_checkpoint(root / "run" / "checkpoint-40", step=40, seed=4)
    store = _MemoryStore()
    store.values["ready:" + str(inspect_checkpoint(str(earlier)).identity)] = str(earlier)
    params = params_file(tmp_path, root)

    with caplog.at_level(logging.WARNING):
        events = poll(params, store)
    assert [(Path(e["checkpoint"]).name, e["step"], e["training_run"]) for e in events] == [
        ("checkpoint-10", 10, "run")
    ]
    assert "config.json does not parse" in caplog.text  # the corrupt one, with its reason
    assert poll(params, store) == []  # a restarted trigger re-fires nothing
    copy_checkpoint(ready, root / "copy" / "checkpoint-10")
    assert poll(params, store) == []  # a copy has the same identity: a duplicate

    write_checkpoint(half, step=20, seed=2)  # the half-written one completes
    events = poll(params, store)
    assert [Path(e["checkpoint"]).name for e in events] == ["checkpoint-20"]
    assert events[0]["identity"] == inspect_checkpoint(str(half)).identity


def test_existing_checkpoints_can_be_left_alone_at_first_start(tmp_path: Path) -> None:
    from studybench_airflow.trigger import _MemoryStore

    root = tmp_path / "watched"
    write_checkpoint(root / "old" / "checkpoint-1")
    params = params_file(tmp_path, root, evaluate_existing=False)
    store = _MemoryStore()
    assert poll(params, store) == []
    write_checkpoint(root / "new" / "checkpoint-2", step=2, seed=9)
    assert [e["step"] for e in poll(params, store)] == [2]
    # a root added to params later: what it already holds is existing too
    other = tmp_path / "other"
    write_checkpoint(other / "checkpoint-3", step=3, seed=7)
    params.write_text(
        json.dumps({"checkpoints": {"roots": [str(root), str(other)], "evaluate_existing": False}})
    )
    assert poll(params, store) == []
    write_checkpoint(other / "checkpoint-4", step=4, seed=8)
    assert [e["step"] for e in poll(params, store)] == [4]


def test_bad_settings_do_not_kill_the_watcher(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from studybench_airflow import trigger as module
    from studybench_airflow.trigger import CheckpointTrigger

    params = tmp_path / "params.yaml"
    params.write_text("checkpoints: {roots: 5}")
    trigger = CheckpointTrigger(repo=str(tmp_path), params=str(params), once=True)

    async def first_events() -> None:
        agen = trigger.run()
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(agen.__anext__(), timeout=0.5)

    with caplog.at_level(logging.ERROR, logger=module.__name__):
        asyncio.run(first_events())
    assert "checkpoint scan failed" in caplog.text and "checkpoints.roots" in caplog.text
