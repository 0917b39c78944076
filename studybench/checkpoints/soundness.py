"""Reading a checkpoint's files soundly and cheaply: safetensors headers, sampled weight
data, the ready marker's promises and the tokenizer files.

:mod:`studybench.checkpoints.inspect` decides readiness; this module says whether the files
are what they claim. Everything is cached by (path, size, mtime, change stamp), so a
watcher polling the same folders every few seconds reads each file's header and samples
once. Only the optional marker hashes read whole files (once per file version).
"""

from __future__ import annotations

import hashlib
import json
import struct
from datetime import datetime
from typing import Any

from pydantic import BaseModel

READY_MARKER = "studybench-ready.json"
SAMPLE_BLOCKS = 16
SAMPLE_BYTES = 1 << 16
MAX_HEADER_BYTES = 100 << 20
# Allowed clock difference between the producer's host and the inspecting one.
CLOCK_SKEW_S = 300.0
TOKENIZER_JSON = (
    "tokenizer_config.json",
    "tokenizer.json",
    "vocab.json",
    "special_tokens_map.json",
)
MAX_TOKENIZER_BYTES = 256 << 20


class LayoutError(Exception):
    """A defect of the layout; pending or invalid depending on whether the folder settled."""


def file_mtime(fs: Any, entry: dict[str, Any]) -> float:
    for key in ("mtime", "LastModified", "last_modified", "updated", "created"):
        value = entry.get(key)
        if isinstance(value, int | float):
            return float(value)
        if isinstance(value, datetime):
            return value.timestamp()
    try:
        modified = fs.modified(entry["name"])
        return float(modified.timestamp())
    except (NotImplementedError, OSError, KeyError, AttributeError):
        return 0.0


def read_json(fs: Any, path: str) -> Any:
    """Parse a small JSON file; hostile nesting is a ``ValueError`` like any bad JSON."""
    with fs.open(path, "rb") as handle:
        text = handle.read().decode("utf-8")
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError(f"{path.rsplit('/', 1)[-1]}: JSON nested too deeply") from None


def safetensors_header(fs: Any, path: str, size: int) -> bytes:
    """The JSON header of a safetensors file; raises :class:`LayoutError` when the file is
    truncated or not safetensors."""
    name = path.rsplit("/", 1)[-1]
    if size < 8:
        raise LayoutError(f"{name}: {size} bytes, too short for a safetensors header")
    with fs.open(path, "rb") as handle:
        (length,) = struct.unpack("<Q", handle.read(8))
        if length > MAX_HEADER_BYTES or 8 + length > size:
            raise LayoutError(f"{name}: truncated or not safetensors (header of {length} bytes)")
        raw = handle.read(length)
    try:
        header = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise LayoutError(f"{name}: safetensors header is not valid JSON") from None
    if not isinstance(header, dict):
        raise LayoutError(f"{name}: safetensors header is not a JSON object")
    if not any(tensor != "__metadata__" for tensor in header):
        # What a sharded save that never gathered its weights writes (ZeRO-3): a valid file
        # with nothing in it. Loading it would silently leave the model at random init.
        raise LayoutError(f"{name}: holds no tensors (weights never gathered?)")
    end = 0
    for tensor, spec in header.items():
        if tensor == "__metadata__":
            continue
        try:
            end = max(end, int(spec["data_offsets"][1]))
        except (KeyError, TypeError, ValueError, IndexError):
            raise LayoutError(f"{name}: tensor {tensor!r} has no valid data_offsets") from None
    expected = 8 + length + end
    if size != expected:
        raise LayoutError(f"{name}: {size} bytes on disk, header describes {expected} (truncated?)")
    return bytes(raw)


def _sample_blocks(fs: Any, path: str, size: int, start: int) -> bytes:
    """``SAMPLE_BLOCKS`` blocks spread evenly through the tensor data."""
    data = size - start
    if data <= SAMPLE_BLOCKS * SAMPLE_BYTES:
        with fs.open(path, "rb") as handle:
            handle.seek(start)
            return bytes(handle.read(data))
    stride = (data - SAMPLE_BYTES) // (SAMPLE_BLOCKS - 1)
    chunks = []
    with fs.open(path, "rb") as handle:
        for block in range(SAMPLE_BLOCKS):
            handle.seek(start + block * stride)
            chunks.append(handle.read(SAMPLE_BYTES))
    return b"".join(chunks)


class WeightFile(BaseModel):
    """What one weight file's header and samples say (cached per path, size and mtime)."""

    fingerprint: bytes
    tensors: frozenset[str] = frozenset()
    all_zero: bool = False


CacheKey = tuple[str, int, float, str]
_FINGERPRINTS: dict[CacheKey, WeightFile] = {}
_HASHES: dict[CacheKey, str] = {}
_PARSED: dict[CacheKey, str] = {}
# What changes whenever the content does, beyond the mtime a writer can set back with
# utime(): the inode change time and inode (local files), an object store's entity tag.
_CHANGE_STAMPS = ("created", "ino", "ETag", "etag", "md5Hash", "crc32c", "generation")


def cache_key(fs: Any, entry: dict[str, Any]) -> CacheKey:
    """(path, size, mtime, change stamp): a file rewritten in place with its size and mtime
    restored still gets a new key, since its ctime (or ETag) moved."""
    stamp = "|".join(f"{name}={entry[name]}" for name in _CHANGE_STAMPS if name in entry)
    return (str(entry["name"]), int(entry.get("size") or 0), file_mtime(fs, entry), stamp)


def weights_file(fs: Any, entry: dict[str, Any], pickle: bool) -> WeightFile:
    """Name, size, header and sampled data of one weight file. Cached by (path, size,
    mtime): a watcher polling hundreds of checkpoints every few seconds reads each file's
    samples once, not once per poll."""
    key = cache_key(fs, entry)
    cached = _FINGERPRINTS.get(key)
    if cached is not None:
        return cached
    path, size = key[0], key[1]
    name = path.rstrip("/").rsplit("/", 1)[-1]
    tensors: frozenset[str] = frozenset()
    if pickle:
        header = b""
        sample = _sample_blocks(fs, path, size, 0)
    else:
        header = safetensors_header(fs, path, size)
        sample = _sample_blocks(fs, path, size, 8 + len(header))
        tensors = frozenset(k for k in json.loads(header) if k != "__metadata__")
    value = WeightFile(
        fingerprint=f"{name}:{size}".encode() + header + hashlib.sha256(sample).digest(),
        tensors=tensors,
        all_zero=bool(sample) and not any(sample),
    )
    if len(_FINGERPRINTS) > 4096:
        _FINGERPRINTS.clear()
    _FINGERPRINTS[key] = value
    return value


def file_sha256(fs: Any, entry: dict[str, Any]) -> str:
    key = cache_key(fs, entry)
    if key not in _HASHES:
        digest = hashlib.sha256()
        with fs.open(key[0], "rb") as handle:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
        if len(_HASHES) > 4096:
            _HASHES.clear()
        _HASHES[key] = digest.hexdigest()
    return _HASHES[key]


def check_marker(fs: Any, files: dict[str, Any], marker: dict[str, Any], now: float) -> str | None:
    """Why the ready marker cannot be trusted, or None: dated in the future, or a file it
    recorded is missing, of another size, or (when it carries hashes) of another content."""
    written = marker.get("written_at")
    marker_time = file_mtime(fs, files[READY_MARKER])
    for label, when in (("written_at", written), ("file time", marker_time)):
        if isinstance(when, int | float) and when > now + CLOCK_SKEW_S:
            ahead = when - now
            return f"{READY_MARKER} {label} is {ahead:.0f} s in the future"
    recorded = marker.get("files")
    if recorded is not None and not isinstance(recorded, dict):
        return f"{READY_MARKER}: 'files' is not a mapping of name to size"
    for name, size in sorted((recorded or {}).items()):
        if name not in files:
            return f"{name} recorded in {READY_MARKER} is missing"
        actual = int(files[name].get("size") or 0)
        if not isinstance(size, int) or actual != size:
            return f"{name} is {actual} bytes, {READY_MARKER} recorded {size}"
    hashes = marker.get("sha256")
    if hashes is not None and not isinstance(hashes, dict):
        return f"{READY_MARKER}: 'sha256' is not a mapping of name to hash"
    for name, expected in sorted((hashes or {}).items()):
        if name not in files:
            return f"{name} hashed in {READY_MARKER} is missing"
        if file_sha256(fs, files[name]) != str(expected).lower():
            return f"{name} does not match its SHA-256 in {READY_MARKER}"
    return None


def check_tokenizer(fs: Any, files: dict[str, Any]) -> None:
    """Every JSON tokenizer file parses as an object; a SentencePiece model is not empty."""
    for name in TOKENIZER_JSON:
        if name not in files:
            continue
        key = cache_key(fs, files[name])
        if _PARSED.get(key) == "ok":
            continue
        if key[1] > MAX_TOKENIZER_BYTES:
            raise LayoutError(f"{name}: {key[1]} bytes, larger than any tokenizer")
        try:
            loaded = read_json(fs, key[0])
        except (UnicodeDecodeError, ValueError) as exc:
            raise LayoutError(f"{name} does not parse (truncated?): {exc}") from None
        if not isinstance(loaded, dict):
            raise LayoutError(f"{name} is not a JSON object")
        if len(_PARSED) > 4096:
            _PARSED.clear()
        _PARSED[key] = "ok"
    for name in ("tokenizer.model", "spiece.model"):
        if name in files and int(files[name].get("size") or 0) == 0:
            raise LayoutError(f"{name} is empty")
