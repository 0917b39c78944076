"""Folders complete in name only are not ready: the marker's sizes, hashes and date, the
index against the shard headers, tokenizer files that parse, and all-zero weights."""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from safetensors.numpy import save_file

from studybench.checkpoints import READY_MARKER, CheckpointState, inspect_checkpoint
from tests.checkpoints.fake import write_checkpoint

CASES: dict[str, Any] = json.loads((Path(__file__).with_name("readiness_faults.json")).read_text())


def _files(folder: Path) -> dict[str, int]:
    return {p.name: p.stat().st_size for p in folder.iterdir() if p.name != READY_MARKER}


def _marker(folder: Path, **fields: Any) -> None:
    payload = {"format": "studybench-ready/1", "written_at": time.time(), "step": 10}
    payload.update(fields)
    (folder / READY_MARKER).write_text(json.dumps(payload))


def _zeros(folder: Path) -> None:
    save_file({"w": np.zeros((64, 64), dtype=np.float32)}, str(folder / "model.safetensors"))
    _marker(folder, files=_files(folder))


def _zero_shard(folder: Path) -> None:
    shard = "model-00002-of-00002.safetensors"
    save_file({"b": np.zeros((32, 64), dtype=np.float32)}, str(folder / shard))
    _marker(folder)


def _index(folder: Path, weight_map: dict[str, str]) -> None:
    (folder / "model.safetensors.index.json").write_text(
        json.dumps({"metadata": {}, "weight_map": weight_map})
    )
    _marker(folder)


def _future_mtime(folder: Path) -> None:
    ahead = time.time() + 86_400
    os.utime(folder / READY_MARKER, (ahead, ahead))


def _then_mark(folder: Path, name: str, text: str) -> None:
    """Damage a file, then mark the folder (the producer's marker comes last)."""
    (folder / name).write_text(text)
    _marker(folder)


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


FAULTS: dict[str, Callable[[Path], None]] = {
    "zero_weights": _zeros,
    "zero_shard": _zero_shard,
    "marker_written_in_future": lambda f: _marker(f, written_at=time.time() + 86_400),
    "marker_file_time_in_future": _future_mtime,
    "shard_lacks_mapped_tensor": lambda f: _index(
        f,
        {
            "a": "model-00001-of-00002.safetensors",
            "b": "model-00002-of-00002.safetensors",
            "c": "model-00002-of-00002.safetensors",
        },
    ),
    "index_maps_tensor_to_wrong_shard": lambda f: _index(
        f, {"a": "model-00002-of-00002.safetensors", "b": "model-00002-of-00002.safetensors"}
    ),
    "truncated_tokenizer_json": lambda f: _then_mark(f, "tokenizer.json", '{"model": {"voc'),
    "truncated_tokenizer_config": lambda f: _then_mark(f, "tokenizer_config.json", '{"bos'),
    "tokenizer_json_not_object": lambda f: _then_mark(f, "tokenizer.json", "[1, 2]"),
    "marker_size_differs": lambda f: _marker(
        f, files={**_files(f), "model.safetensors": _files(f)["model.safetensors"] + 1}
    ),
    "marker_file_missing": lambda f: _marker(f, files={**_files(f), "optimizer.pt": 1024}),
    "marker_hash_differs": lambda f: _marker(f, sha256={"model.safetensors": "0" * 64}),
    "deeply_nested_marker": lambda f: (f / READY_MARKER).write_text("[" * 100_000),
    "empty_sentencepiece": lambda f: _then_mark(f, "tokenizer.model", ""),
    "marker_with_true_sizes": lambda f: _marker(f, files=_files(f)),
    "marker_with_true_hashes": lambda f: _marker(
        f, sha256={"model.safetensors": _sha(f / "model.safetensors")}
    ),
    "marker_written_a_minute_ahead": lambda f: _marker(f, written_at=time.time() + 60),
    "sharded_with_true_sizes": lambda f: _marker(f, files=_files(f)),
}


@pytest.mark.parametrize("case", CASES["faults"], ids=lambda c: c["fault"])
def test_fault_is_not_ready(case: dict[str, str], tmp_path: Path) -> None:
    folder = write_checkpoint(tmp_path / "run" / "checkpoint-10", weights=case["weights"])
    FAULTS[case["fault"]](folder)
    info = inspect_checkpoint(str(folder))
    assert info.state.value == case["state"], info.describe()
    assert case["reason"] in info.reason, info.reason


@pytest.mark.parametrize("case", CASES["sound"], ids=lambda c: c["fault"])
def test_sound_checkpoint_stays_ready(case: dict[str, str], tmp_path: Path) -> None:
    folder = write_checkpoint(tmp_path / "run" / "checkpoint-10", weights=case["weights"])
    FAULTS[case["fault"]](folder)
    info = inspect_checkpoint(str(folder))
    assert info.state is CheckpointState.READY, info.reason


def test_every_case_has_a_fault() -> None:
    names = {c["fault"] for c in CASES["faults"] + CASES["sound"]}
    assert names == set(FAULTS)
