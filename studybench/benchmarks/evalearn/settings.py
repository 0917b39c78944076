"""EvaLearn's settings section (``evalearn:`` in params.yaml), declared beside its code.

The settings tree (:class:`studybench.config.Settings`) imports this module, so it imports
only pydantic and :mod:`studybench.config.fields` (a leaf): nothing of the benchmark runs
when the settings load.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator

from studybench.config.fields import Section

EvaLearnParadigm = Literal["zero_shot", "few_shot", "demonstration", "feedback"]


class EvaLearnSettings(Section):
    """EvaLearn: sequences of same-type problems solved in order (learning along a sequence).

    Defaults are the reference's (README, EvaLearn parity). Sampling and seeds come from
    ``protocol``; the rubric judge uses the ``judge`` section's endpoint and model."""

    problems: Path = Path("data/sample/evalearn/evalearn_problems.json")
    sequences: Path = Path("data/sample/evalearn/evalearn_sequences.json")
    full_release: bool | None = Field(
        None,
        description="hold the files to the published release's counts (648 problems, 182 "
        "sequences of 7, ...); empty: when the problem file is named EvaLearn_Problem.json",
    )
    paradigms: tuple[EvaLearnParadigm, ...] = Field(
        ("zero_shot", "few_shot", "demonstration", "feedback"), min_length=1
    )
    few_shot_examples: int = Field(3, ge=1, description="examples per type (few-shot)")
    few_shot_seed: int = Field(42, description="seed of the one draw of examples per run")
    rubric_language: Literal["en", "zh"] = Field(
        "zh", description="rubric the judge grades with and the prompts show"
    )
    warmup: int = Field(3, ge=0, description="positions left out of post-warm-up accuracy")
    max_new_tokens: int | None = Field(
        None, ge=1, description="cap on one answer; empty: the protocol's"
    )
    judge_max_tokens: int = Field(2048, ge=1)
    judge_temperature: float = Field(0.2, ge=0.0, le=2.0)
    rule_stage: bool = Field(
        False, description="accept a Final answer equal to canonical_answer without the judge"
    )

    @field_validator("paradigms")
    @classmethod
    def _distinct_paradigms(
        cls, paradigms: tuple[EvaLearnParadigm, ...]
    ) -> tuple[EvaLearnParadigm, ...]:
        if len(set(paradigms)) != len(paradigms):
            raise ValueError(f"paradigms must be distinct, got {list(paradigms)}")
        return paradigms
