"""Prompt construction per paradigm, against golden files (``golden/<paradigm>.json``:
regenerate with ``STUDYBENCH_UPDATE_GOLDEN=1`` after a deliberate prompt change, and bump
``PROMPTS_VERSION``), and the reference's parts in the reference's order (spec §3)."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from studybench.benchmarks.evalearn.prompts import (
    PARADIGMS,
    build_messages,
    draw_examples,
    question_text,
    system_prompt,
)
from studybench.benchmarks.evalearn.records import EvaLearnRelease, load_release
from tests.conftest import SAMPLE

GOLDEN = Path(__file__).with_name("golden")
ASSESSMENTS = ['【Score】: 1 points 【JSON】: {"answer_score": 1}', "Wrong label. 0 points"]


@pytest.fixture(scope="module")
def release() -> EvaLearnRelease:
    folder = SAMPLE / "evalearn"
    return load_release(folder / "evalearn_problems.json", folder / "evalearn_sequences.json")


def _conversation(
    release: EvaLearnRelease, paradigm: str, position: int = 2
) -> list[dict[str, str]]:
    sequence = next(s for s in release.sequences if s.sequence_id == "4")  # sentiment
    messages = build_messages(
        paradigm,  # type: ignore[arg-type]
        release.problems_of(sequence),
        position,
        answers=["positive", "I think it is positive."],
        assessments=ASSESSMENTS,
        examples=draw_examples(release),
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
def test_a_system_prompt_and_one_user_message_ending_with_the_problem(
    release: EvaLearnRelease, paradigm: str
) -> None:
    got = _conversation(release, paradigm)
    assert [m["role"] for m in got] == ["system", "user"]
    assert "Classification task" in got[0]["content"]
    assert got[1]["content"].endswith(
        'Review: "Arrived on Tuesday. It is a phone case."'
        + ("" if paradigm == "few_shot" else "\n\n")
    )  # few-shot: the last turn alone; the others: Q, each turn and a blank line
    assert "{'" not in got[1]["content"]  # never a Python list pasted in


def _in_order(text: str, parts: list[str]) -> bool:
    """Every part found, each after the one before it."""
    at = 0
    for part in parts:
        at = text.find(part, at)
        if at < 0:
            return False
        at += len(part)
    return True


def test_each_paradigm_shows_the_reference_parts_in_order(release: EvaLearnRelease) -> None:
    zero, few, demo, feedback = (_conversation(release, p)[1]["content"] for p in PARADIGMS)
    sequence = next(s for s in release.sequences if s.sequence_id == "4")
    earlier = release.problems_of(sequence)[:2]
    assert zero == "\n[Problem]:\n" + question_text(release.problems_of(sequence)[2])

    examples = draw_examples(release)["Classification"]
    assert few.count("[Example") == 2 * 3
    parts = []
    for k, p in enumerate(examples, start=1):
        parts += [f"[Example {k} begins]", p.prompt[-1].content, p.canonical_answer]
    assert _in_order(few, [*parts, "That was the last example", "[Problem]:"])
    assert "user: " not in few  # few-shot shows last turns only

    parts = []
    for k, p in enumerate(earlier, start=1):
        parts += [f"[Demonstration {k} begins]", p.prompt[0].content, p.rubric_zh]
    assert _in_order(demo, [*parts, "That was the last demonstration", "[Problem]:"])
    for p in earlier:  # the rubric is the standard answer shown, not canonical_answer
        assert f"[Standard answer begins]\n{p.rubric_zh}\n[Standard answer ends]" in demo
        assert f"[Standard answer begins]\n{p.canonical_answer}\n" not in demo

    parts = []
    for k, p in enumerate(earlier, start=1):
        parts += [
            f"[Earlier attempt {k} begins]", p.prompt[0].content, "[Your answer begins]",
            ["positive", "I think it is positive."][k - 1], p.rubric_zh, ASSESSMENTS[k - 1],
        ]  # fmt: skip
    assert _in_order(feedback, [*parts, "That was the last earlier attempt", "[Problem]:"])


def test_feedback_keeps_the_closing_line_at_the_first_position(release: EvaLearnRelease) -> None:
    first = _conversation(release, "feedback", position=0)[1]["content"]
    assert first.startswith("**That was the last earlier attempt.") and "[Earlier" not in first
    assert "[Demonstration" not in _conversation(release, "demonstration", position=0)[1]["content"]


def test_the_rubric_language_is_a_setting(release: EvaLearnRelease) -> None:
    problems = release.problems_of(release.sequences[0])
    english = build_messages("demonstration", problems, 1, language="en")[1].content
    chinese = build_messages("demonstration", problems, 1)[1].content
    assert problems[0].rubric_en in english and problems[0].rubric_zh in chinese


def test_few_shot_examples_are_the_reference_draw(release: EvaLearnRelease) -> None:
    """One ``random`` seeded with 42, types in order of first appearance, sample(3) each:
    the same ids the reference script would show, for every sequence and position."""
    random.seed(42)
    by_type: dict[str, list[str]] = {}
    for problem in release.problems.values():
        by_type.setdefault(problem.type, []).append(problem.id)
    expected = {t: random.sample(ids, 3) for t, ids in by_type.items()}
    drawn = draw_examples(release)
    assert {t: [p.id for p in ps] for t, ps in drawn.items()} == expected
    assert list(drawn) == ["Mathematical Reasoning", "Classification"]
    other = draw_examples(release, 3, 7)
    assert [p.id for p in other["Classification"]] != expected["Classification"]


def test_feedback_needs_the_earlier_answers(release: EvaLearnRelease) -> None:
    problems = release.problems_of(release.sequences[0])
    with pytest.raises(ValueError, match="needs 2 earlier answers"):
        build_messages("feedback", problems, 2, answers=["a"], assessments=[""])


def test_per_type_and_per_paradigm_system_prompts() -> None:
    assert system_prompt("Mathematical Reasoning", "zero_shot") != system_prompt(
        "Classification", "zero_shot"
    )
    texts = {system_prompt("Extraction", p) for p in PARADIGMS}
    assert len(texts) == 4 and all("Extraction task" in t for t in texts)
    assert "same mistakes" in system_prompt("Extraction", "feedback")
