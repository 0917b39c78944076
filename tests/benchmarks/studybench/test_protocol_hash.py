"""THE protocol hash of StudyBench results, pinned: stored generations, verdicts and MLflow
runs are found again by it, so moving the prompt texts (or anything else) must not change
it. The values were computed by the code before the texts moved out of ``rollout/``; a
deliberate protocol change edits them here, visibly in review."""

from __future__ import annotations

from pathlib import Path

import pytest

from studybench.benchmarks.studybench.prompts import PROMPTS
from studybench.benchmarks.studybench.protocol import protocol_hash, rollout_config
from studybench.config import MethodArtefactSpec, Settings
from studybench.engines.base import SamplingParams
from studybench.rollout.artefacts import MethodArtefacts
from studybench.rollout.prompts import PromptTexts
from studybench.rollout.runner import RolloutConfig


def test_the_default_protocol_hash_is_the_stored_one() -> None:
    assert protocol_hash(Settings()) == "8f59016f982f63a1"
    assert protocol_hash(Settings(), k=1, seeds=(0, 1), max_new_tokens=8) == "810bc34aa0a5880d"


def test_an_ace_protocol_hash_is_the_stored_one(tmp_path: Path) -> None:
    """The ACE instruction now reaches the playbook prompt from StudyBench's texts."""
    playbook = tmp_path / "playbook.txt"
    playbook.write_text("[b1] helpful=3 harmful=0 :: check units\n")
    assert protocol_hash(Settings(), MethodArtefactSpec(ace=str(playbook))) == "af6aece60013f3aa"


def test_a_config_with_studybench_texts_hashes_as_before() -> None:
    plain = MethodArtefacts(system_prompt="sys")
    assert RolloutConfig(model="m", prompts=PROMPTS).protocol_hash(plain) == "a9d8cfb8e5dd04db"
    chinese = RolloutConfig(
        model="m", prompts=PROMPTS, language="ZH", k=2, seeds=(0,),
        sampling=SamplingParams(max_tokens=8),
    )  # fmt: skip
    assert chinese.protocol_hash(plain) == "0fd6571db958e362"
    assert rollout_config("m", Settings()).prompts is PROMPTS


@pytest.mark.parametrize("field", ["instruction", "placeholder", "guidance_preamble"])
def test_other_texts_give_another_protocol(field: str) -> None:
    texts: dict[str, str] = dict(getattr(PROMPTS, field))
    texts["EN"] += " Be brief."
    other = PROMPTS.model_copy(update={field: texts})
    plain = MethodArtefacts(system_prompt="sys")
    before = RolloutConfig(model="m", prompts=PROMPTS).protocol_hash(plain)
    assert RolloutConfig(model="m", prompts=other).protocol_hash(plain) != before
    ace = PROMPTS.model_copy(update={"ace_instruction": "Use the playbook."})
    assert RolloutConfig(model="m", prompts=ace).protocol_hash(plain) != before


def test_texts_without_the_language_are_refused() -> None:
    english_only = PromptTexts(
        instruction={"EN": "Solve."},
        placeholder={"EN": "(none)"},
        guidance_header="## Hints",
        guidance_preamble={"EN": "Hints:"},
        ace_instruction="",
    )
    with pytest.raises(ValueError, match="no ZH instruction, placeholder, guidance_preamble"):
        RolloutConfig(model="m", prompts=english_only, language="ZH")
