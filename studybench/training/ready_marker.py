"""The ready marker: the producer's word that a checkpoint folder is complete.

Watchers cannot tell a half-written checkpoint from a finished one by looking at it while it
is written (frameworks write files in place one by one), so the training job says so itself:
after the Trainer has saved weights, tokenizer and ``trainer_state.json`` it writes
:data:`~studybench.checkpoints.READY_MARKER` atomically (temp file + rename), so a watcher
sees either no marker or a complete one. The marker also carries the compute spent so far,
which tracking logs against the score.
"""

from __future__ import annotations

import json
import os
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from transformers import TrainerCallback, TrainerControl, TrainerState, TrainingArguments

from studybench.checkpoints.inspect import READY_MARKER
from studybench.fileio import write_atomic

MARKER_FORMAT = "studybench-ready/1"


def write_ready_marker(checkpoint: Path, **fields: Any) -> Path:
    """Write the marker into ``checkpoint`` atomically; returns its path."""
    sizes = {
        p.name: p.stat().st_size
        for p in sorted(checkpoint.iterdir())
        if p.is_file() and p.name != READY_MARKER
    }
    payload = {
        "format": MARKER_FORMAT,
        "written_at": time.time(),
        "host": socket.gethostname(),
        **fields,
        "files": sizes,
    }
    path = checkpoint / READY_MARKER
    write_atomic(path, json.dumps(payload, indent=1, sort_keys=True, default=str) + "\n")
    return path


class ReadyMarkerCallback(TrainerCallback):
    """Add to any transformers/TRL Trainer: ``Trainer(..., callbacks=[ReadyMarkerCallback()])``.

    ``on_save`` runs after the Trainer has written the whole checkpoint (weights, tokenizer,
    optimizer and ``trainer_state.json``), on the main process only. ``training_run`` names
    the lineage the checkpoints belong to in MLflow (default: the output folder's name).
    ``extra_compute`` returns recipe-specific counters merged into the marker's ``compute``
    (GRPO's token counts and FLOPs estimate: the Trainer counts no FLOPs for RL batches).
    """

    def __init__(
        self,
        training_run: str | None = None,
        base_model: str | None = None,
        extra_compute: Callable[[], dict[str, Any]] | None = None,
    ) -> None:
        self.training_run = training_run
        self.base_model = base_model
        self.extra_compute = extra_compute
        self._started = time.monotonic()

    def on_train_begin(
        self,
        args: TrainingArguments,
        state: TrainerState,
        control: TrainerControl,
        **kwargs: Any,
    ) -> None:
        self._started = time.monotonic()

    def on_save(
        self,
        args: TrainingArguments,
        state: TrainerState,
        control: TrainerControl,
        **kwargs: Any,
    ) -> None:
        if not state.is_world_process_zero:
            return
        folder = Path(str(args.output_dir)) / f"checkpoint-{state.global_step}"
        if not folder.is_dir():
            return  # the save was skipped (e.g. a hub-only strategy): nothing to mark
        wall = time.monotonic() - self._started
        gpus = _gpu_count()
        compute: dict[str, Any] = {
            "train_wall_s": round(wall, 3),
            "devices": gpus,
            "gpu_hours": round(wall * gpus / 3600, 6),
            "total_flos": float(state.total_flos or 0.0),
        }
        if self.extra_compute is not None:
            compute.update(self.extra_compute())
        write_ready_marker(
            folder,
            step=state.global_step,
            epoch=state.epoch,
            training_run=self.training_run or Path(str(args.output_dir)).resolve().name,
            base_model=self.base_model,
            compute=compute,
            pid=os.getpid(),
        )


def _gpu_count() -> int:
    import torch

    return torch.cuda.device_count() if torch.cuda.is_available() else 0
