"""StudyBench's conversation against a golden file written by hand from the protocol
(format doc 2.1, 10, 11): the prompt text is part of the benchmark, so its expectation must
not be rebuilt from the constants of the code under test. A deliberate protocol change edits
``golden/prompt_cases.json`` by hand, visibly in review."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from studybench.benchmarks.studybench.prompts import PROMPTS
from studybench.benchmarks.studybench.protocol import resolve_artefacts
from studybench.config import MethodArtefactSpec, Settings
from studybench.data.records import ParentProblem
from studybench.rollout.artefacts import MethodArtefacts
from studybench.rollout.conversation import build_messages

GOLDEN = json.loads(Path(__file__).with_name("golden").joinpath("prompt_cases.json").read_text())
CASES: list[dict[str, Any]] = GOLDEN["cases"]


def _artefacts(case: dict[str, Any], tmp_path: Path) -> MethodArtefacts:
    system = Settings().protocol.system_prompt
    if "ace_playbook" in case:
        playbook = tmp_path / "playbook.txt"
        playbook.write_text(case["ace_playbook"], encoding="utf-8")
        spec = MethodArtefactSpec(ace=str(playbook))  # resolved as an evaluation resolves it
        resolved: MethodArtefacts = resolve_artefacts(spec, Settings())
        return resolved
    return MethodArtefacts(system_prompt=system, guidance=case.get("guidance", {}))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_conversation_matches_the_hand_written_golden(case: dict[str, Any], tmp_path: Path) -> None:
    parent = ParentProblem.model_validate(GOLDEN[case["parent"]])
    messages = build_messages(
        parent.slots(),
        case["index"],
        case["previous_answers"],
        _artefacts(case, tmp_path),
        PROMPTS,
    )
    got = [{"role": m.role, "content": m.content} for m in messages]
    assert got == case["expected"]


def test_the_default_system_message_is_the_golden_one() -> None:
    assert Settings().protocol.system_prompt == GOLDEN["system"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_no_gold_or_solution_text_reaches_the_prompt(case: dict[str, Any]) -> None:
    """Checked on the golden itself, so that editing it cannot smuggle in a leak (assistant
    turns are the model's own earlier answers, which may well equal the gold)."""
    record = GOLDEN[case["parent"]]
    secrets = [record.get("solution", ""), record.get("answer", "")]
    for sub in record.get("sub_problems", []):
        secrets += [sub["solution"], sub["answer"]]
    text = "\n".join(m["content"] for m in case["expected"] if m["role"] != "assistant")
    for secret in filter(None, secrets):
        assert secret not in text
    assert "SOLUTION-" not in text


@pytest.mark.parametrize("offset", [-1, 1, 2])
def test_a_wrong_number_of_previous_answers_is_refused(offset: int) -> None:
    parent = ParentProblem.model_validate(GOLDEN["parent"])
    answers = ["\\boxed{1}"] * max(0, 1 + offset)
    with pytest.raises(ValueError, match="previous answers"):
        build_messages(parent.slots(), 1, answers, MethodArtefacts(system_prompt="s"), PROMPTS)
