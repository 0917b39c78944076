"""The soundness checks' exact diagnostics and boundaries (checkpoints/soundness.py): marker
promises, tokenizer files, safetensors metadata, pickle sampling. Expectations are written
here, not derived from the module; mutation testing found each of them unchecked."""

from __future__ import annotations

import json
import os
import struct
import time
from pathlib import Path

import numpy as np
import pytest
from safetensors.numpy import save_file

from studybench.checkpoints import READY_MARKER, CheckpointState, inspect_checkpoint
from tests.checkpoints.fake import write_checkpoint

AGE = 600.0


def _folder(tmp_path: Path, name: str = "checkpoint-1", **kwargs: object) -> Path:
    return write_checkpoint(tmp_path / "run" / name, age_s=AGE, **kwargs)  # type: ignore[arg-type]


def _settled(folder: Path, **kwargs: object) -> tuple[CheckpointState, str]:
    info = inspect_checkpoint(str(folder), assume_settled=True, **kwargs)  # type: ignore[arg-type]
    return info.state, info.reason


def test_safetensors_metadata_before_the_tensors_is_skipped(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    values = np.random.default_rng(3).standard_normal((64, 64)).astype(np.float32)
    save_file({"w": values}, str(folder / "model.safetensors"), metadata={"format": "pt"})
    raw = (folder / "model.safetensors").read_bytes()
    header = json.loads(raw[8 : 8 + struct.unpack("<Q", raw[:8])[0]])
    assert next(iter(header)) == "__metadata__"  # the case this test is about
    assert _settled(folder) == (CheckpointState.READY, "")


def test_a_tensor_without_offsets_is_named(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    header = json.dumps({"w": {"dtype": "F32", "shape": [1]}}).encode()
    (folder / "model.safetensors").write_bytes(struct.pack("<Q", len(header)) + header)
    assert _settled(folder) == (
        CheckpointState.INVALID,
        "model.safetensors: tensor 'w' has no valid data_offsets",
    )


def test_a_marker_file_dated_in_the_future_says_by_how_much(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    now = time.time()
    os.utime(folder / READY_MARKER, (now + 1000, now + 1000))
    info = inspect_checkpoint(str(folder), now=now)
    assert (info.state, info.reason) == (
        CheckpointState.INVALID,
        f"{READY_MARKER} file time is 1000 s in the future",
    )


def test_a_marker_recording_an_empty_file_of_zero_bytes_is_kept(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    (folder / "added_tokens.txt").write_bytes(b"")
    marker = {"step": 10, "files": {"added_tokens.txt": 0}}
    (folder / READY_MARKER).write_text(json.dumps(marker))
    assert _settled(folder) == (CheckpointState.READY, "")


def test_every_json_tokenizer_file_is_checked_even_without_tokenizer_json(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    (folder / "tokenizer.json").unlink()
    (folder / "vocab.json").write_text('{"a": 0}')
    (folder / "special_tokens_map.json").write_text('{"eos_token": "<')
    state, reason = _settled(folder)
    assert state is CheckpointState.INVALID
    assert reason.startswith("special_tokens_map.json does not parse (truncated?): ")


def test_an_oversized_tokenizer_file_is_refused_by_its_size(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    size = (256 << 20) + 1
    with (folder / "tokenizer.json").open("r+b") as handle:
        handle.truncate(size)  # sparse: nothing is written
    assert _settled(folder) == (
        CheckpointState.INVALID,
        f"tokenizer.json: {size} bytes, larger than any tokenizer",
    )


def test_an_empty_sentencepiece_model_is_refused(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    (folder / "spiece.model").write_bytes(b"")
    assert _settled(folder) == (CheckpointState.INVALID, "spiece.model is empty")


@pytest.mark.parametrize("offset", [0, 1])
def test_the_first_byte_of_pickle_weights_is_sampled(tmp_path: Path, offset: int) -> None:
    a = _folder(tmp_path, "checkpoint-1", weights="pickle")
    b = _folder(tmp_path, "checkpoint-2", weights="pickle")
    raw = bytearray((b / "pytorch_model.bin").read_bytes())
    raw[offset] ^= 0xFF
    (b / "pytorch_model.bin").write_bytes(bytes(raw))
    first = inspect_checkpoint(str(a), assume_settled=True, allow_pickle=True)
    second = inspect_checkpoint(str(b), assume_settled=True, allow_pickle=True)
    assert first.ready and second.ready, (first.describe(), second.describe())
    assert first.identity != second.identity


def test_the_first_data_byte_of_safetensors_weights_is_sampled(tmp_path: Path) -> None:
    a, b = _folder(tmp_path, "checkpoint-1"), _folder(tmp_path, "checkpoint-2")
    raw = bytearray((b / "model.safetensors").read_bytes())
    start = 8 + struct.unpack("<Q", raw[:8])[0]
    raw[start] ^= 0x01
    (b / "model.safetensors").write_bytes(bytes(raw))
    first = inspect_checkpoint(str(a), assume_settled=True)
    second = inspect_checkpoint(str(b), assume_settled=True)
    assert first.ready and second.ready
    assert first.identity != second.identity


BIG = (1400, 1400)  # 7.8 MB: the 16 sampled blocks are far apart (stride ~ 8 blocks)


@pytest.mark.parametrize("block", [1, 8, 14, 15])
def test_the_start_of_each_sampled_block_is_read(tmp_path: Path, block: int) -> None:
    values = np.random.default_rng(4).standard_normal(BIG).astype(np.float32)
    a, b = _folder(tmp_path, "checkpoint-1"), _folder(tmp_path, "checkpoint-2")
    for folder in (a, b):
        save_file({"w": values}, str(folder / "model.safetensors"))
    raw = bytearray((b / "model.safetensors").read_bytes())
    start = 8 + struct.unpack("<Q", raw[:8])[0]
    stride = (len(raw) - start - (1 << 16)) // 15  # 16 blocks of 64 KiB, evenly spread
    raw[start + block * stride + 2] ^= 0x01
    (b / "model.safetensors").write_bytes(bytes(raw))
    first = inspect_checkpoint(str(a), assume_settled=True)
    second = inspect_checkpoint(str(b), assume_settled=True)
    assert first.ready and second.ready
    assert first.identity != second.identity


def test_an_empty_weights_file_says_zero_bytes(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    (folder / "model.safetensors").write_bytes(b"")
    assert _settled(folder) == (
        CheckpointState.INVALID,
        "model.safetensors: 0 bytes, too short for a safetensors header",
    )


@pytest.mark.parametrize("name", ["spiece.model", "tokenizer.model"])
def test_a_filled_sentencepiece_model_is_accepted(tmp_path: Path, name: str) -> None:
    folder = _folder(tmp_path)
    (folder / name).write_bytes(b"\n\x0esentencepiece")
    assert _settled(folder) == (CheckpointState.READY, "")


def test_file_times_are_read_from_every_listing_field_then_from_the_filesystem(
    tmp_path: Path,
) -> None:
    """Listings of object stores carry their time under other names (fsspec backends)."""
    from datetime import UTC, datetime

    import fsspec

    from studybench.checkpoints.soundness import file_mtime

    fs = fsspec.filesystem("file")
    real = tmp_path / "f.bin"
    real.write_bytes(b"x")
    when = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    for field in ("mtime", "LastModified", "last_modified", "updated", "created"):
        assert file_mtime(fs, {"name": str(real), field: 12.5}) == 12.5, field
        assert file_mtime(fs, {"name": str(real), field: when}) == when.timestamp(), field
    assert file_mtime(fs, {"name": str(real)}) == pytest.approx(real.stat().st_mtime)
    assert file_mtime(fs, {"name": str(tmp_path / "gone")}) == 0.0


def test_a_deeply_nested_tokenizer_file_is_named(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    (folder / "tokenizer.json").write_text("[" * 200_000 + "]" * 200_000)
    assert _settled(folder) == (
        CheckpointState.INVALID,
        "tokenizer.json does not parse (truncated?): tokenizer.json: JSON nested too deeply",
    )
