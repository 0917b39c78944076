"""Is this folder a complete checkpoint that can be evaluated? Read-only, and cheap.

Training frameworks write a checkpoint in place, one file after another; only the weights
file is renamed into place and ``trainer_state.json`` comes last. A folder is therefore
*settled* when either the producer's ready marker (:data:`READY_MARKER`, written atomically
after the save by :class:`studybench.training.ReadyMarkerCallback`) is present and no file is
newer than it, or ``trainer_state.json`` parses and nothing changed for a quiet period.
Until it is settled a folder is ``pending``; once settled it is ``ready`` when the
HuggingFace layout is complete and sound, else ``invalid`` with the reason.

Checks are cheap on purpose (a watcher runs them every few seconds over many folders): JSON
files are parsed, safetensors headers are read and the file size checked against the header
(a truncated copy fails), sharded indexes must name only present, sound shards.

Soundness goes beyond "the files are there", because a copy can be complete in name only: the
ready marker's recorded file sizes (and SHA-256 hashes, when it carries them) must match the
files; a marker dated in the future is refused (a skewed or forged clock would make a folder
"settled" before it is written); every tensor a sharded index maps to a shard must be in that
shard's header; the tokenizer files must parse (a truncated ``tokenizer.json`` loads nowhere);
and weights whose sampled data is all zeros (a preallocated file never filled) are refused.
All of it reads headers and the same sampled blocks as the fingerprint, except the optional
hashes, which read each file once per (size, mtime).

The identity of a checkpoint is a content fingerprint: the config, each weight file's name,
size and header, and 16 blocks of 64 KiB sampled evenly through its data. Weights of two
training steps share shapes and sizes, so a fingerprint of metadata alone would call them
the same checkpoint; sampled blocks tell them apart without reading gigabytes.
"""

from __future__ import annotations

import hashlib
import json
import re
import struct
import time
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, Field

from studybench.checkpoints.soundness import (
    READY_MARKER,
    LayoutError,
    check_marker,
    check_tokenizer,
    file_mtime,
    read_json,
    safetensors_header,
    weights_file,
)

__all__ = [
    "READY_MARKER",
    "CheckpointInfo",
    "CheckpointState",
    "check_marker",
    "inspect_checkpoint",
    "safetensors_header",
]

TRAINER_STATE = "trainer_state.json"
CONFIG = "config.json"
SAFETENSORS = "model.safetensors"
SAFETENSORS_INDEX = "model.safetensors.index.json"
TOKENIZER_ANY = ("tokenizer.json", "tokenizer.model", "vocab.json", "spiece.model")
STEP_FOLDER = re.compile(r"^checkpoint-(\d+)$")
TEMP_NAME = re.compile(r"(^tmp|\.tmp$|\.partial$|\.incomplete$|~$|^\.)")


class CheckpointState(StrEnum):
    READY = "ready"
    PENDING = "pending"
    INVALID = "invalid"


class CheckpointInfo(BaseModel):
    """What one inspection found. ``reason`` says why a folder is pending or invalid."""

    uri: str
    state: CheckpointState
    reason: str = ""
    identity: str | None = None
    step: int | None = None
    training_run: str | None = None
    weights_format: str = ""
    newest_mtime: float = 0.0
    marker: dict[str, Any] = Field(default_factory=dict)

    @property
    def ready(self) -> bool:
        return self.state is CheckpointState.READY

    def describe(self) -> str:
        step = f" step {self.step}" if self.step is not None else ""
        detail = f": {self.reason}" if self.reason else ""
        return f"{self.uri}{step} is {self.state.value}{detail}"


def _fs(uri: str) -> tuple[Any, str]:
    import fsspec

    fs, path = fsspec.core.url_to_fs(uri)
    return fs, path.rstrip("/") or "/"


def _step(folder: str, marker: dict[str, Any], state: Any) -> int | None:
    if isinstance(state, dict) and isinstance(state.get("global_step"), int):
        return int(state["global_step"])
    if isinstance(marker.get("step"), int):
        return int(marker["step"])
    match = STEP_FOLDER.match(folder.rsplit("/", 1)[-1])
    return int(match.group(1)) if match else None


def _training_run(folder: str, marker: dict[str, Any]) -> str | None:
    if isinstance(marker.get("training_run"), str) and marker["training_run"]:
        return str(marker["training_run"])
    parts = folder.rstrip("/").rsplit("/", 2)
    if STEP_FOLDER.match(parts[-1]) and len(parts) >= 2 and parts[-2]:
        return parts[-2]
    return None


def inspect_checkpoint(
    uri: str,
    *,
    quiet_period_s: float = 60.0,
    allow_pickle: bool = False,
    now: float | None = None,
    assume_settled: bool = False,
) -> CheckpointInfo:
    """Inspect the folder ``uri`` (a local path or an fsspec URL) without changing it.

    ``assume_settled`` skips the marker / quiet-period wait, for folders someone names
    explicitly (a manual trigger, a nightly model path): only the layout is checked. A
    folder that cannot be read (permissions, a file deleted while it is inspected) is
    reported with the error instead of stopping a scan of its neighbours."""
    try:
        return _inspect(uri, quiet_period_s, allow_pickle, now, assume_settled)
    except (OSError, ValueError, struct.error) as exc:
        state = CheckpointState.INVALID if assume_settled else CheckpointState.PENDING
        return CheckpointInfo(
            uri=uri, state=state, reason=f"cannot read: {type(exc).__name__}: {exc}"
        )


def _inspect(
    uri: str,
    quiet_period_s: float,
    allow_pickle: bool,
    now: float | None,
    assume_settled: bool,
) -> CheckpointInfo:
    fs, folder = _fs(uri)
    now = time.time() if now is None else now
    try:
        entries = [e for e in fs.ls(folder, detail=True) if e.get("type") == "file"]
    except (FileNotFoundError, NotADirectoryError):
        return CheckpointInfo(uri=uri, state=CheckpointState.INVALID, reason="not a folder")
    files = {e["name"].rstrip("/").rsplit("/", 1)[-1]: e for e in entries}
    newest = max((file_mtime(fs, e) for e in entries), default=0.0)
    quiet = bool(entries) and now - newest >= quiet_period_s

    def info(state: CheckpointState, reason: str = "", **extra: Any) -> CheckpointInfo:
        return CheckpointInfo(uri=uri, state=state, reason=reason, newest_mtime=newest, **extra)

    marker: dict[str, Any] = {}
    marked = READY_MARKER in files
    if marked:
        try:
            loaded = read_json(fs, files[READY_MARKER]["name"])
            marker = loaded if isinstance(loaded, dict) else {}
        except (UnicodeDecodeError, ValueError):
            return info(CheckpointState.INVALID, f"{READY_MARKER} is not valid JSON")
        marker_time = file_mtime(fs, files[READY_MARKER])
        later = [
            n for n, e in files.items() if n != READY_MARKER and file_mtime(fs, e) > marker_time
        ]
        if later and not quiet:
            marked = False  # rewritten after the marker: wait until it settles again
        elif (distrust := check_marker(fs, files, marker, now)) is not None:
            return info(CheckpointState.INVALID, distrust, marker=marker)
    state: Any = None
    if TRAINER_STATE in files:
        try:
            state = read_json(fs, files[TRAINER_STATE]["name"])
        except (OSError, UnicodeDecodeError, ValueError):
            state = None
    settled = assume_settled or marked or (state is not None and quiet)
    step = _step(folder, marker, state)
    run = _training_run(folder, marker)
    temp = sorted(n for n in files if TEMP_NAME.search(n))
    if not settled:
        if not entries:
            why = "empty folder"
        elif temp:
            why = f"temporary files present ({', '.join(temp[:3])})"
        elif TRAINER_STATE in files and state is None:
            why = f"{TRAINER_STATE} does not parse yet"
        elif state is None:
            why = f"waiting for {READY_MARKER} or {TRAINER_STATE}"
        else:
            why = f"files changed {now - newest:.0f} s ago (quiet period {quiet_period_s:.0f} s)"
        return info(CheckpointState.PENDING, why, step=step, training_run=run, marker=marker)
    try:
        identity, weights_format = _check_layout(fs, files, allow_pickle)
    except LayoutError as problem:
        return info(CheckpointState.INVALID, str(problem), step=step, training_run=run)
    return info(
        CheckpointState.READY,
        identity=identity,
        step=step,
        training_run=run,
        weights_format=weights_format,
        marker=marker,
    )


def _check_layout(fs: Any, files: dict[str, Any], allow_pickle: bool) -> tuple[str, str]:
    if CONFIG not in files:
        raise LayoutError(f"no {CONFIG}")
    with fs.open(files[CONFIG]["name"], "rb") as handle:
        config_bytes = handle.read()
    try:
        config = json.loads(config_bytes.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise LayoutError(f"{CONFIG} does not parse: {exc}") from None
    if not isinstance(config, dict):
        raise LayoutError(f"{CONFIG} is not a JSON object")
    if "tokenizer_config.json" not in files or not any(n in files for n in TOKENIZER_ANY):
        raise LayoutError(
            "no tokenizer files (tokenizer_config.json and tokenizer.json or a vocabulary); "
            "give the Trainer a processing_class so checkpoints include the tokenizer"
        )
    check_tokenizer(fs, files)
    digest = hashlib.sha256(config_bytes)
    index_map: dict[str, str] = {}
    if SAFETENSORS_INDEX in files:
        try:
            index = read_json(fs, files[SAFETENSORS_INDEX]["name"])
            index_map = {str(k): str(v) for k, v in dict(index["weight_map"]).items()}
            shards = sorted(set(index_map.values()))
        except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, RecursionError):
            raise LayoutError(f"{SAFETENSORS_INDEX} does not parse or has no weight_map") from None
        missing = [s for s in shards if s not in files]
        if missing or not shards:
            raise LayoutError(
                f"sharded checkpoint incomplete: {len(missing)} of {len(shards)} shard(s) "
                f"missing ({', '.join(missing[:3])})"
            )
        weights, weights_format = shards, "safetensors-sharded"
    elif SAFETENSORS in files:
        weights, weights_format = [SAFETENSORS], "safetensors"
    else:
        pickles = sorted(n for n in files if n.endswith(".bin") and "model" in n)
        if not pickles:
            raise LayoutError("no weights (model.safetensors or a sharded index)")
        if not allow_pickle:
            raise LayoutError(
                f"pickle-only weights ({', '.join(pickles[:3])}): unpickling can run code; "
                "save with safetensors, or set checkpoints.allow_pickle to evaluate anyway"
            )
        weights, weights_format = pickles, "pickle"
    for name in weights:
        weight = weights_file(fs, files[name], weights_format == "pickle")
        if weight.all_zero:
            raise LayoutError(
                f"{name}: the sampled weight data is all zeros (a file allocated, never filled?)"
            )
        if index_map:
            absent = sorted(t for t, shard in index_map.items() if shard == name)
            absent = [t for t in absent if t not in weight.tensors]
            if absent:
                raise LayoutError(
                    f"{name} lacks {len(absent)} tensor(s) the index maps to it "
                    f"({', '.join(absent[:3])})"
                )
        digest.update(weight.fingerprint)
    return digest.hexdigest()[:16], weights_format
