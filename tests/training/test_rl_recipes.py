"""GRPO and TTRL run a few real TRL steps on the tiny model and write marked checkpoints
with compute records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studybench.checkpoints import READY_MARKER, CheckpointState, inspect_checkpoint
from studybench.config import load_settings
from studybench.errors import ConfigError
from studybench.training.grpo import RLRecipe, train_rl
from studybench.training.items import answered_items, unanswered_items
from studybench.training.rewards import MajorityVoteReward, VerifierReward
from studybench.verify.verifier import Verifier
from tests.conftest import ROOT

SETTINGS = load_settings(ROOT / "params.yaml", environ={})
LAYERS = [
    ROOT / SETTINGS.data.instructions_with_answer,
    ROOT / SETTINGS.data.instructions_with_answer_multi,
]
SMALL = {
    "steps": 2,
    "batch_size": 4,
    "num_generations": 4,
    "max_completion_length": 12,
    "save_steps": 1,
    "learning_rate": 1e-3,
}


def test_items_ask_each_turn_with_its_own_prefix(tmp_path: Path) -> None:
    items = answered_items(LAYERS, tmp_path / "split.json", SETTINGS.protocol.system_prompt)
    assert (tmp_path / "split.json").exists()  # what was trained on stays on disk
    first_turns = [i for i in items if len(i.prompt) == 2]
    later = [i for i in items if len(i.prompt) > 2]
    assert first_turns and later
    assert all(
        i.prompt[0] == {"role": "system", "content": SETTINGS.protocol.system_prompt} for i in items
    )
    assert all("\\boxed{answer}" in i.prompt[1]["content"] for i in items)  # the instruction
    turn2 = later[0]
    roles = [m["role"] for m in turn2.prompt]
    assert roles == ["system", "user", "assistant", "user"]
    assert turn2.prompt[2]["content"].startswith("Final Answer: \\boxed{")  # gold prefix
    assert turn2.answer and turn2.answer_type
    assert len({i.item_id for i in items}) == len(items)

    ttrl = unanswered_items(ROOT / SETTINGS.data.instructions_without_answer, "sys")
    assert len(ttrl) == 5 and all(not i.answer for i in ttrl)
    text = ttrl[0].prompt[1]["content"]
    assert "\\boxed{answer}" in text and "boxed answer is not required" not in text


def _assert_marked(folders: list[Path], run: str) -> list[dict[str, object]]:
    assert [f.name for f in folders] == ["checkpoint-0", "checkpoint-1", "checkpoint-2"]
    computes = []
    for folder in folders:
        marker = json.loads((folder / READY_MARKER).read_text())
        assert marker["training_run"] == run
        assert inspect_checkpoint(str(folder)).state is CheckpointState.READY
        computes.append(marker["compute"])
    return computes


def test_grpo_writes_marked_checkpoints_with_compute(tiny_model: Path, tmp_path: Path) -> None:
    items = answered_items(LAYERS, tmp_path / "split.json", SETTINGS.protocol.system_prompt)
    with Verifier(workers=2) as verifier:
        recipe = RLRecipe(**SMALL, training_run="grpo-test")
        folders = train_rl(tiny_model, tmp_path / "run", items, recipe, VerifierReward(verifier))
        computes = _assert_marked(folders, "grpo-test")
        assert computes[0]["total_flos"] == 0.0
        one, two = computes[1], computes[2]
        assert one["rollout_completions"] == 4 and two["rollout_completions"] == 8
        assert 0 < one["rollout_completion_tokens"] <= 4 * 12
        assert one["rollout_prompt_tokens"] > 4 * 50  # whole benchmark prompts, not 2 tokens
        assert 0 < one["total_flos"] < two["total_flos"]  # cumulative
        assert two["total_flos"] == two["flops_estimate"]
        assert two["total_flos"] == 8 * two["parameters"] * (
            two["rollout_prompt_tokens"] + two["rollout_completion_tokens"]
        )
        state = json.loads((folders[2] / "trainer_state.json").read_text())
        assert any("rewards/verifier/mean" in row for row in state["log_history"])
        # idempotent: a finished run is not trained again
        before = (folders[2] / READY_MARKER).stat().st_mtime_ns
        again = train_rl(tiny_model, tmp_path / "run", items, recipe, VerifierReward(verifier))
        assert again == folders and (folders[2] / READY_MARKER).stat().st_mtime_ns == before


def test_ttrl_trains_on_unanswered_items(tiny_model: Path, tmp_path: Path) -> None:
    items = unanswered_items(
        ROOT / SETTINGS.data.instructions_without_answer, SETTINGS.protocol.system_prompt
    )
    with Verifier(workers=2) as verifier:
        reward = MajorityVoteReward(verifier, min_votes=2)
        recipe = RLRecipe(**SMALL, training_run="ttrl-test")
        folders = train_rl(tiny_model, tmp_path / "run", items, recipe, reward)
    computes = _assert_marked(folders, "ttrl-test")
    assert computes[2]["rollout_completions"] == 8 and computes[2]["total_flos"] > 0
    assert reward.last_votes  # the last batch's groups voted
    state = json.loads((folders[2] / "trainer_state.json").read_text())
    assert any("rewards/majority_vote/mean" in row for row in state["log_history"])


def test_bad_group_sizes_and_vllm_without_vllm_are_clear_errors(
    tiny_model: Path, tmp_path: Path
) -> None:
    items = unanswered_items(ROOT / SETTINGS.data.instructions_without_answer, "s")
    with pytest.raises(ConfigError, match="multiple of num_generations"):
        train_rl(tiny_model, tmp_path, items, RLRecipe(batch_size=6, num_generations=4), print)
    with pytest.raises(ConfigError, match="use_vllm"):
        train_rl(tiny_model, tmp_path, items, RLRecipe(use_vllm=True), print)
