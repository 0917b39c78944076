"""Checkpoint folders written the way training frameworks write them (no model needed)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import numpy as np
from safetensors.numpy import save_file

from studybench.checkpoints import READY_MARKER


def write_checkpoint(
    folder: Path,
    *,
    step: int = 10,
    seed: int = 0,
    marker: bool = True,
    trainer_state: bool = True,
    tokenizer: bool = True,
    weights: str = "safetensors",
    age_s: float = 0.0,
) -> Path:
    """A small complete checkpoint; ``age_s`` backdates every file's mtime."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps({"model_type": "qwen3", "hidden_size": 8}))
    if tokenizer:
        (folder / "tokenizer_config.json").write_text("{}")
        (folder / "tokenizer.json").write_text('{"model": {}}')
    tensors = {"w": np.random.default_rng(seed).standard_normal((64, 64)).astype(np.float32)}
    if weights == "safetensors":
        save_file(tensors, str(folder / "model.safetensors"))
    elif weights == "sharded":
        save_file({"a": tensors["w"][:32]}, str(folder / "model-00001-of-00002.safetensors"))
        save_file({"b": tensors["w"][32:]}, str(folder / "model-00002-of-00002.safetensors"))
        index = {
            "metadata": {},
            "weight_map": {
                "a": "model-00001-of-00002.safetensors",
                "b": "model-00002-of-00002.safetensors",
            },
        }
        (folder / "model.safetensors.index.json").write_text(json.dumps(index))
    elif weights == "pickle":
        (folder / "pytorch_model.bin").write_bytes(b"\x80\x04" + tensors["w"].tobytes())
    if trainer_state:
        (folder / "trainer_state.json").write_text(json.dumps({"global_step": step}))
    if age_s:
        backdate(folder, age_s)
    if marker:
        (folder / READY_MARKER).write_text(json.dumps({"step": step, "format": "test"}))
        if age_s:
            backdate(folder, age_s)
    return folder


def backdate(folder: Path, age_s: float) -> None:
    import time

    when = time.time() - age_s
    for path in folder.iterdir():
        os.utime(path, (when, when))


def snapshot(root: Path) -> dict[str, tuple[int, int, bytes]]:
    """Every file's size, mtime and content: proof that nothing was changed."""
    return {
        str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns, p.read_bytes())
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def copy_checkpoint(source: Path, target: Path) -> Path:
    shutil.copytree(source, target)
    return target
