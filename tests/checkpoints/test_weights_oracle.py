"""Weight files read soundly: the exact diagnostics of a bad safetensors header, and the
sampled fingerprint of files larger than the sampled budget (16 blocks of 64 KiB), which the
small fake checkpoints never reach. Real checkpoints are all large, so the sampling branch
decides both identity and the all-zeros check in practice. Mutation testing found both
unchecked (perf/mutation_report.py)."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest
from safetensors.numpy import save_file

from studybench.checkpoints import CheckpointState, inspect_checkpoint
from tests.checkpoints.fake import write_checkpoint

AGE = 600.0
BIG = (700, 700)  # 1.96 MB of float32: above 16 x 64 KiB, so blocks are sampled


def _folder(tmp_path: Path, name: str = "checkpoint-1") -> Path:
    return write_checkpoint(tmp_path / "run" / name, age_s=AGE)


def _weights(folder: Path, data: bytes) -> None:
    (folder / "model.safetensors").write_bytes(data)


def _reason(folder: Path) -> str:
    info = inspect_checkpoint(str(folder), assume_settled=True)
    assert info.state is CheckpointState.INVALID, info.describe()
    return info.reason


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"\x01\x02\x03\x04\x05", "model.safetensors: 5 bytes, too short for a safetensors header"),
        (b"\0" * 8, "model.safetensors: safetensors header is not valid JSON"),
        (
            struct.pack("<Q", 500) + b"{}" + b"\0" * 90,
            "model.safetensors: truncated or not safetensors (header of 500 bytes)",
        ),
        (
            struct.pack("<Q", 2) + b"[]",
            "model.safetensors: safetensors header is not a JSON object",
        ),
        (
            struct.pack("<Q", 4) + b"{,}\xff",
            "model.safetensors: safetensors header is not valid JSON",
        ),
        (
            struct.pack("<Q", 20) + b'{"__metadata__": {}}',
            "model.safetensors: holds no tensors (weights never gathered?)",
        ),
    ],
    ids=[
        "five_bytes",
        "eight_zero_bytes",
        "header_longer_than_file",
        "list_header",
        "bad_json",
        "metadata_only",
    ],
)
def test_bad_headers_are_named_exactly(tmp_path: Path, data: bytes, reason: str) -> None:
    folder = _folder(tmp_path)
    _weights(folder, data)
    assert _reason(folder) == reason


def test_a_header_that_fills_the_file_exactly_is_read(tmp_path: Path) -> None:
    """8 + header length == size is a complete file (data of zero bytes), not a truncated one."""
    folder = _folder(tmp_path)
    header = b'{"w": {"dtype": "F32", "shape": [0], "data_offsets": [0, 0]}}'
    _weights(folder, struct.pack("<Q", len(header)) + header)
    info = inspect_checkpoint(str(folder), assume_settled=True)
    assert info.reason != "model.safetensors: truncated or not safetensors (header of 62 bytes)"
    assert "truncated" not in info.reason


def _big(folder: Path, values: np.ndarray) -> int:
    """Write ``values`` as the weights; return where the tensor data starts."""
    save_file({"w": values}, str(folder / "model.safetensors"))
    raw = (folder / "model.safetensors").read_bytes()
    (length,) = struct.unpack("<Q", raw[:8])
    return 8 + int(length)


@pytest.mark.parametrize("where", ["first", "last", "middle_of_block_8"])
def test_a_large_file_changed_inside_a_sampled_block_gets_another_identity(
    tmp_path: Path, where: str
) -> None:
    rng = np.random.default_rng(1)
    values = rng.standard_normal(BIG).astype(np.float32)
    a, b = _folder(tmp_path, "checkpoint-1"), _folder(tmp_path, "checkpoint-2")
    start = _big(a, values)
    _big(b, values)
    size = (b / "model.safetensors").stat().st_size
    data = size - start
    block = 1 << 16
    stride = (data - block) // 15  # 16 blocks evenly through the data, the last ending at
    # most 15 bytes before the end of the file
    offset = {
        "first": start,
        "last": start + 15 * stride + block - 8,
        "middle_of_block_8": start + 8 * stride + 100,
    }
    raw = bytearray((b / "model.safetensors").read_bytes())
    raw[offset[where] : offset[where] + 4] = b"\x7f\x7f\x7f\x7f"
    (b / "model.safetensors").write_bytes(bytes(raw))
    first = inspect_checkpoint(str(a), assume_settled=True)
    second = inspect_checkpoint(str(b), assume_settled=True)
    assert first.ready and second.ready, (first.describe(), second.describe())
    assert first.identity != second.identity


def test_a_large_file_of_zeros_is_refused(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    _big(folder, np.zeros(BIG, dtype=np.float32))
    assert _reason(folder).endswith("all zeros (a file allocated, never filled?)")


def test_a_large_file_identity_is_stable_and_ready(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    _big(folder, np.random.default_rng(2).standard_normal(BIG).astype(np.float32))
    first = inspect_checkpoint(str(folder), assume_settled=True)
    again = inspect_checkpoint(str(folder), assume_settled=True)
    assert first.ready, first.describe()
    assert first.identity == again.identity and first.identity is not None


@pytest.mark.parametrize("header", [b"{}", b'{"__metadata__": {"format": "pt"}}'])
def test_a_weights_file_without_tensors_is_not_ready(tmp_path: Path, header: bytes) -> None:
    folder = _folder(tmp_path)
    _weights(folder, struct.pack("<Q", len(header)) + header)
    assert not inspect_checkpoint(str(folder), assume_settled=True).ready
