"""The reference self-evolution recipes (``studybench train ...``): each recipe *is* its
settings section (``RLRecipe``/``SFTRecipe`` only add the run's name), so params.yaml and a
recipe cannot disagree on a default."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field

from studybench.config.endpoints import LLMEndpointSettings
from studybench.config.fields import Section


class RLTrainingSettings(Section):
    """GRPO / TTRL hyper-parameters (TRL ``GRPOTrainer``): the recipe ``train_rl`` runs is
    this section (``studybench.training.grpo.RLRecipe`` only adds the run's name)."""

    steps: int = Field(200, ge=1)
    learning_rate: float = Field(1e-6, gt=0.0)
    batch_size: int = Field(8, ge=1, description="completions per device and step")
    num_generations: int = Field(8, ge=2, description="group size; divides batch_size")
    max_completion_length: int = Field(1024, ge=1)
    temperature: float = Field(1.0, gt=0.0)
    top_p: float = Field(0.95, gt=0.0, le=1.0)
    beta: float = Field(0.0, ge=0.0, description="KL weight (> 0 loads a reference model)")
    num_iterations: int = Field(1, ge=1)
    loss_type: str = "dapo"
    save_steps: int = Field(25, ge=1)
    seed: int = 0
    threads: int = Field(2, ge=1)
    save_initial: bool = True
    min_votes: int = Field(2, ge=1, description="TTRL: votes a pseudo-label needs")
    use_vllm: bool = Field(False, description="GPU hosts with vllm beside TRL only")
    vllm_mode: Literal["server", "colocate"] = "colocate"
    vllm_server_base_url: str = Field("", description="a `trl vllm-serve` server (server mode)")


class SynthSettings(Section):
    """Bonito-style SFT data: a generator turns redacted-corpus fragments into Q/A pairs."""

    fragments: Path = Path("data/corpus/fragments.jsonl")
    out: Path = Path("data/training/sft_synth.jsonl")
    cache: Path = Path("data/training/sft_synth.cache.jsonl")
    generator: LLMEndpointSettings = LLMEndpointSettings()
    max_fragments: int | None = Field(None, ge=1, description="empty: every fragment")
    min_fragment_words: int = Field(40, ge=1)


class SFTTrainingSettings(Section):
    """SFT on the synthesised pairs (TRL ``SFTTrainer``); the recipe ``train_sft`` runs is
    this section (``studybench.training.sft.SFTRecipe`` only adds the run's name). The demo
    profile sets the tiny model's values."""

    steps: int = Field(500, ge=1)
    learning_rate: float = Field(1e-5, gt=0.0)
    batch_size: int = Field(8, ge=1)
    save_steps: int = Field(50, ge=1)
    max_length: int = Field(2048, ge=16)
    seed: int = 0
    threads: int = Field(2, ge=1)


class PromptMethodSettings(Section):
    """GEPA and ACE: the task model answers the Instructions-with-Answer items with the
    candidate system prompt / playbook; the reflector proposes edits; the verifier scores."""

    task: LLMEndpointSettings = LLMEndpointSettings(temperature=0.0, max_tokens=1024)
    reflector: LLMEndpointSettings = LLMEndpointSettings(temperature=0.7, max_tokens=2048)
    max_metric_calls: int = Field(200, ge=1, description="GEPA: task rollouts budget")
    minibatch_size: int = Field(3, ge=1, description="GEPA: items per reflection")
    epochs: int = Field(1, ge=1, description="ACE: passes over the items")
    max_bullets: int = Field(40, ge=1, description="ACE: playbook size cap")
    seed: int = 0


class TrainingSettings(Section):
    """Reference self-evolution recipes (``studybench train ...``). Checkpoints go to
    ``out_root/<run>`` (inside the watched ``checkpoints.roots`` by default)."""

    out_root: Path = Path("work/checkpoints")
    grpo: RLTrainingSettings = RLTrainingSettings()
    ttrl: RLTrainingSettings = RLTrainingSettings()
    synth: SynthSettings = SynthSettings()
    sft: SFTTrainingSettings = SFTTrainingSettings()
    prompts: PromptMethodSettings = PromptMethodSettings()
    artefacts_dir: Path = Field(Path("work/artefacts"), description="GEPA histories, ACE playbooks")
