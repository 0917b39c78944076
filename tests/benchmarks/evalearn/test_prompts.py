"""Prompt construction per paradigm, against golden files (``golden/<paradigm>.json``:
regenerate with ``STUDYBENCH_UPDATE_GOLDEN=1`` after a deliberate prompt change, and bump
``PROMPTS_VERSION``)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from studybench.benchmarks.evalearn.prompts import (
    PARADIGMS,
    build_messages,
    few_shot_examples,
    system_prompt,
)
from studybench.benchmarks.evalearn.records import EvaLearnRelease, load_release
from tests.conftest import SAMPLE

GOLDEN = Path(__file__).with_name("golden")


@pytest.fixture(scope="module")
def release() -> EvaLearnRelease:
    folder = SAMPLE / "evalearn"
    return load_release(folder / "evalearn_problems.json", folder / "evalearn_sequences.json")


def _conversation(release: EvaLearnRelease, paradigm: str) -> list[dict[str, str]]:
    sequence = next(s for s in release.sequences if s.sequence_id == "cls-sentiment")
    problems = release.problems_of(sequence)
    examples = few_shot_examples(release, sequence.type, 2, 0, [p.id for p in problems])
    messages = build_messages(
        paradigm,  # type: ignore[arg-type]
        problems,
        2,
        answers=["Final answer: positive", "I think it is positive."],
        feedback=[(True, "Right label."), (False, "The customer is unhappy.")],
        examples=examples,
    )
    return [m.model_dump() for m in messages]


@pytest.mark.parametrize("paradigm", PARADIGMS)
def test_conversation_matches_the_golden_file(release: EvaLearnRelease, paradigm: str) -> None:
    got = _conversation(release, paradigm)
    path = GOLDEN / f"{paradigm}.json"
    if os.environ.get("STUDYBENCH_UPDATE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps(got, indent=1, ensure_ascii=False) + "\n")
    assert got == json.loads(path.read_text())


@pytest.mark.parametrize("paradigm", PARADIGMS)
def test_roles_alternate_and_the_current_problem_comes_last(
    release: EvaLearnRelease, paradigm: str
) -> None:
    got = _conversation(release, paradigm)
    roles = [m["role"] for m in got]
    assert roles[0] == "system" and roles[-1] == "user"
    assert roles[1:] == ["user" if i % 2 == 0 else "assistant" for i in range(len(roles) - 1)]
    assert got[-1]["content"].endswith('"Arrived on Tuesday. It is a phone case."')
    assert not any("[{" in m["content"] or "{'role'" in m["content"] for m in got)


def test_what_each_paradigm_shows(release: EvaLearnRelease) -> None:
    zero, few, demo, feedback = (_conversation(release, p) for p in PARADIGMS)
    assert len(zero) == 2  # system + the problem alone
    assert len(few) == 2 + 2 * 2 and len(demo) == 2 + 2 * 2 and len(feedback) == 2 + 2 * 2
    assert [m["content"] for m in demo if m["role"] == "assistant"] == ["positive", "negative"]
    assert [m["content"] for m in feedback if m["role"] == "assistant"] == [
        "Final answer: positive",
        "I think it is positive.",
    ]
    assert feedback[3]["content"].startswith(
        "Feedback on your previous answer: correct. Right label.\n\nNext problem:\n"
    )
    assert feedback[5]["content"].startswith(
        "Feedback on your previous answer: incorrect. The customer is unhappy."
    )
    assert "one after another" not in zero[0]["content"]
    assert "one after another" in feedback[0]["content"]


def test_few_shot_examples_are_fixed_seeded_and_never_from_the_sequence(
    release: EvaLearnRelease,
) -> None:
    for sequence in release.sequences:
        ids = list(sequence.question_ids)
        first = few_shot_examples(release, sequence.type, 2, 0, ids)
        assert len(first) == 2 and not {p.id for p in first} & set(ids)
        assert all(p.type == sequence.type for p in first)
        assert [p.id for p in few_shot_examples(release, sequence.type, 2, 0, ids)] == [
            p.id for p in first
        ]
    other = [p.id for p in few_shot_examples(release, "Classification", 3, 1, [])]
    assert other != [p.id for p in few_shot_examples(release, "Classification", 3, 0, [])]


def test_feedback_needs_the_earlier_answers(release: EvaLearnRelease) -> None:
    problems = release.problems_of(release.sequences[0])
    with pytest.raises(ValueError, match="needs 2 earlier answers"):
        build_messages("feedback", problems, 2, answers=["a"], feedback=[(True, "")])


def test_per_type_system_prompts() -> None:
    assert system_prompt("Mathematical Reasoning", "zero_shot") != system_prompt(
        "Classification", "zero_shot"
    )
    assert "Final answer:" in system_prompt("anything else", "zero_shot")
