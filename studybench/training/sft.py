"""Supervised fine-tuning with TRL on chat examples, writing marked checkpoints.

The demo's recipe (and the base of the SFT recipe): prompt-completion conversational
examples, loss on the completion only, a checkpoint every ``save_steps`` with the ready
marker, so a watching evaluator picks each one up as soon as it is complete.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

from pydantic import Field

from studybench.config import SFTTrainingSettings

log = logging.getLogger(__name__)


class SFTRecipe(SFTTrainingSettings):
    """One SFT run: the settings section (params ``training.sft``, the one definition of the
    hyper-parameters and their defaults) plus the run's name and whether the untrained
    weights are saved first. The demo profile's ``training.sft`` makes the tiny model
    reproduce the 18 short answers of the sample's instruction layers on CPU in about half a
    minute (measured greedy exact reproductions at lr 5e-3, batch 8: 0/18 after 40 steps,
    7/18 after 80, 17/18 after 120, 18/18 after 160)."""

    training_run: str | None = None
    save_initial: bool = Field(
        False, description="also write the untrained weights as checkpoint-0 (the curve's start)"
    )


def train_sft(
    model: Path,
    out_dir: Path,
    examples: Sequence[list[dict[str, str]]],
    recipe: SFTRecipe,
) -> list[Path]:
    """Train ``model`` on ``examples`` (chats ending with the assistant's target turn) and
    return the checkpoint folders written (each with its ready marker)."""
    import torch
    from datasets import Dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import SFTConfig, SFTTrainer  # type: ignore[attr-defined]

    from studybench.training.ready_marker import ReadyMarkerCallback

    if not examples:
        raise ValueError("no training examples")
    torch.set_num_threads(recipe.threads)
    rows = [{"prompt": chat[:-1], "completion": chat[-1:]} for chat in examples]
    tokenizer = AutoTokenizer.from_pretrained(model)
    network = AutoModelForCausalLM.from_pretrained(model, dtype=torch.float32)
    config = SFTConfig(
        output_dir=str(out_dir),
        max_steps=recipe.steps,
        learning_rate=recipe.learning_rate,
        per_device_train_batch_size=recipe.batch_size,
        save_strategy="steps",
        save_steps=recipe.save_steps,
        save_only_model=True,
        logging_steps=max(1, recipe.save_steps // 2),
        max_length=recipe.max_length,
        seed=recipe.seed,
        data_seed=recipe.seed,
        use_cpu=not torch.cuda.is_available(),
        report_to=[],
        lr_scheduler_type="constant",
        warmup_steps=0,
        dataloader_num_workers=0,
        disable_tqdm=False,
    )
    trainer = SFTTrainer(
        model=network,
        args=config,
        train_dataset=Dataset.from_list(rows),
        processing_class=tokenizer,
        callbacks=[ReadyMarkerCallback(training_run=recipe.training_run, base_model=str(model))],
    )
    if recipe.save_initial:
        _save_initial(network, tokenizer, out_dir, recipe, model)
    trainer.train()
    return sorted(
        (p for p in out_dir.glob("checkpoint-*") if p.name.removeprefix("checkpoint-").isdigit()),
        key=lambda p: int(p.name.removeprefix("checkpoint-")),
    )


def _save_initial(
    network: object, tokenizer: object, out_dir: Path, recipe: SFTRecipe, base: Path
) -> None:
    from studybench.training.ready_marker import write_ready_marker

    folder = out_dir / "checkpoint-0"
    folder.mkdir(parents=True, exist_ok=True)
    network.save_pretrained(folder)  # type: ignore[attr-defined]
    tokenizer.save_pretrained(folder)  # type: ignore[attr-defined]
    write_ready_marker(
        folder,
        step=0,
        training_run=recipe.training_run or out_dir.resolve().name,
        base_model=str(base),
        compute={"train_wall_s": 0.0, "devices": 0, "gpu_hours": 0.0, "total_flos": 0.0},
    )
