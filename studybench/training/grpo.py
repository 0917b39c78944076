"""GRPO and TTRL with TRL's ``GRPOTrainer``, writing marked checkpoints with compute records.

One trainer serves both recipes; only the reward differs:

* GRPO: :class:`~studybench.training.rewards.VerifierReward` on the answered items,
* TTRL: :class:`~studybench.training.rewards.MajorityVoteReward` on the unanswered items
  (the group of ``num_generations`` completions of one prompt votes on its pseudo-label).

Compute accounting: every checkpoint's ready marker carries the wall time, GPU-hours and a
FLOPs estimate. The Trainer's own ``total_flos`` counts only batches with ``input_ids``, which
GRPO batches are not, so :class:`ComputeMeter` counts the tokens that pass through the reward
(prompt tokens per item, measured once with the chat template, plus the sampled completion
tokens) and applies the usual dense-transformer rule: 2·N FLOPs per token for a forward pass
(sampling; the reference model when ``beta`` > 0) and 6·N per token for forward + backward
(each of ``num_iterations`` policy updates).

Rollouts use plain transformers generation unless ``use_vllm``; TRL's vLLM modes need the
``vllm`` package in the training environment ("colocate") or a ``trl vllm-serve`` server
("server", which also receives the weights after every step). A plain OpenAI-compatible
vLLM server cannot take weight updates, so it is not an option for on-policy rollouts.
"""

from __future__ import annotations

import importlib.util
import logging
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from studybench.checkpoints.inspect import READY_MARKER
from studybench.config import RLTrainingSettings
from studybench.errors import ConfigError
from studybench.training.items import TrainItem

log = logging.getLogger(__name__)


class RLRecipe(RLTrainingSettings):
    """One GRPO/TTRL run: the settings section (params ``training.grpo`` / ``training.ttrl``,
    the one definition of the hyper-parameters and their defaults) plus the run's name."""

    training_run: str | None = None


class ComputeMeter:
    """Counts tokens through a reward function; reports them and the FLOPs estimate."""

    def __init__(
        self,
        reward: Callable[..., list[float]],
        prompt_tokens: dict[str, int],
        parameters: int,
        recipe: RLRecipe,
    ) -> None:
        self.reward = reward
        self.__name__ = getattr(reward, "__name__", "reward")
        self.prompt_tokens = prompt_tokens
        self.parameters = parameters
        self.recipe = recipe
        self._lock = threading.Lock()
        self.sampled_prompt_tokens = 0
        self.completion_tokens = 0
        self.completions = 0

    def __call__(
        self,
        prompts: Sequence[Any],
        completions: Sequence[Any],
        completion_ids: Sequence[Sequence[int]] | None = None,
        **columns: Any,
    ) -> list[float | None]:
        with self._lock:
            self.completions += len(completions)
            self.sampled_prompt_tokens += sum(self.prompt_tokens[i] for i in columns["item_id"])
            if completion_ids is not None:
                self.completion_tokens += sum(len(ids) for ids in completion_ids)
        rewards: list[float | None] = [
            *self.reward(prompts=prompts, completions=completions, **columns)
        ]
        return rewards

    def flops(self) -> float:
        tokens = self.sampled_prompt_tokens + self.completion_tokens
        per_token = 2.0 + 6.0 * self.recipe.num_iterations + (2.0 if self.recipe.beta > 0 else 0.0)
        return per_token * self.parameters * tokens

    def record(self) -> dict[str, Any]:
        with self._lock:
            return {
                "rollout_completions": self.completions,
                "rollout_prompt_tokens": self.sampled_prompt_tokens,
                "rollout_completion_tokens": self.completion_tokens,
                "parameters": self.parameters,
                "flops_estimate": self.flops(),
                "flops_rule": "(2 + 6*num_iterations + 2*[beta>0]) * parameters * tokens",
            }


def checkpoints_of(out_dir: Path) -> list[Path]:
    """The ``checkpoint-N`` folders of a run, by step."""
    return sorted(
        (p for p in out_dir.glob("checkpoint-*") if p.name.removeprefix("checkpoint-").isdigit()),
        key=lambda p: int(p.name.removeprefix("checkpoint-")),
    )


def _check_vllm(recipe: RLRecipe) -> None:
    if not recipe.use_vllm:
        return
    if importlib.util.find_spec("vllm") is None:
        raise ConfigError(
            "training.*.use_vllm: TRL's vLLM rollouts need the vllm package in this "
            "environment (colocate) or for `trl vllm-serve` (server); it is not installed "
            "here: set use_vllm: false for plain transformers generation"
        )
    if recipe.vllm_mode == "server" and not recipe.vllm_server_base_url:
        raise ConfigError("training.*.vllm_server_base_url: required with vllm_mode: server")


def train_rl(
    model: Path,
    out_dir: Path,
    items: Sequence[TrainItem],
    recipe: RLRecipe,
    reward: Callable[..., list[float]],
) -> list[Path]:
    """Run GRPO on ``items`` with ``reward``; return the checkpoint folders (each marked)."""
    import torch
    from datasets import Dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import GRPOConfig, GRPOTrainer  # type: ignore[attr-defined]

    from studybench.training.ready_marker import ReadyMarkerCallback
    from studybench.training.sft import SFTRecipe, _save_initial

    if not items:
        raise ValueError("no training items")
    final = out_dir / f"checkpoint-{recipe.steps}"
    if (final / READY_MARKER).exists():
        log.info("%s is complete; nothing to train", final)
        return checkpoints_of(out_dir)  # idempotent: a finished run is not trained again
    if recipe.batch_size % recipe.num_generations:
        raise ConfigError(
            f"training: batch_size {recipe.batch_size} must be a multiple of "
            f"num_generations {recipe.num_generations} (whole groups per step)"
        )
    _check_vllm(recipe)
    torch.set_num_threads(recipe.threads)
    tokenizer = AutoTokenizer.from_pretrained(model)
    network = AutoModelForCausalLM.from_pretrained(model, dtype=torch.float32)
    prompt_tokens = {item.item_id: _prompt_length(tokenizer, item) for item in items}
    parameters = sum(p.numel() for p in network.parameters())
    meter = ComputeMeter(reward, prompt_tokens, parameters, recipe)
    vllm: dict[str, Any] = {}
    if recipe.use_vllm:
        vllm = {"use_vllm": True, "vllm_mode": recipe.vllm_mode}
        if recipe.vllm_server_base_url:
            vllm["vllm_server_base_url"] = recipe.vllm_server_base_url
    config = GRPOConfig(
        output_dir=str(out_dir),
        max_steps=recipe.steps,
        learning_rate=recipe.learning_rate,
        per_device_train_batch_size=recipe.batch_size,
        num_generations=recipe.num_generations,
        max_completion_length=recipe.max_completion_length,
        temperature=recipe.temperature,
        top_p=recipe.top_p,
        beta=recipe.beta,
        num_iterations=recipe.num_iterations,
        loss_type=recipe.loss_type,
        save_strategy="steps",
        save_steps=recipe.save_steps,
        save_only_model=True,
        logging_steps=1,
        seed=recipe.seed,
        data_seed=recipe.seed,
        use_cpu=not torch.cuda.is_available(),
        report_to=[],
        dataloader_num_workers=0,
        remove_unused_columns=False,
        disable_tqdm=False,
        **vllm,
    )
    trainer = GRPOTrainer(
        model=network,
        reward_funcs=[meter],
        args=config,
        train_dataset=Dataset.from_list([item.row() for item in items]),
        processing_class=tokenizer,
        callbacks=[
            ReadyMarkerCallback(
                training_run=recipe.training_run,
                base_model=str(model),
                extra_compute=lambda: _flops_fields(meter),
            )
        ],
    )
    if recipe.save_initial and not (out_dir / "checkpoint-0").exists():
        _save_initial(
            network,
            tokenizer,
            out_dir,
            SFTRecipe(training_run=recipe.training_run),
            model,
        )
    trainer.train()
    return checkpoints_of(out_dir)


def _prompt_length(tokenizer: Any, item: TrainItem) -> int:
    encoded = tokenizer.apply_chat_template(item.prompt, tokenize=True, add_generation_prompt=True)
    ids = encoded["input_ids"] if hasattr(encoded, "keys") else encoded
    return len(ids)


def _flops_fields(meter: ComputeMeter) -> dict[str, Any]:
    """The meter's record, with ``total_flos`` set to the estimate (the Trainer's is 0)."""
    record = meter.record()
    return {**record, "total_flos": record["flops_estimate"]}
