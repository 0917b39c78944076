"""The deterministic leakage rules on planted leaks (leakage_cases.json) and the fallback
sanitiser (whole sentences dropped, never a truncated one)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from studybench.data.answer_types import AnswerType, split_type_sequence
from studybench.guidance.leakage import Gold, check, sanitize

CASES = json.loads((Path(__file__).with_name("leakage_cases.json")).read_text())


def gold_of(case: dict[str, Any]) -> Gold:
    sequence = tuple(AnswerType(t) for t in split_type_sequence(case.get("type_sequence", "")))
    return Gold.of(case["answer"], AnswerType(case["answer_type"]), sequence)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_rules(case: dict[str, Any]) -> None:
    hits = check(case["guidance"], gold_of(case), case["problem"])
    assert sorted({h.rule for h in hits}) == sorted(case["expect"]), [h.describe() for h in hits]


def test_sanitize_drops_whole_flagged_sentences() -> None:
    gold = Gold.of(r"\boxed{2500}", AnswerType.NV)
    text = (
        "Use the work-energy theorem for the slope. It comes to 2500 J in the end. "
        "Check the sign of the work done by friction."
    )
    cleaned = sanitize(text, check(text, gold, ""))
    assert cleaned == (
        "Use the work-energy theorem for the slope. Check the sign of the work done by friction."
    )
    assert check(cleaned, gold, "") == []


def test_a_period_inside_math_is_not_a_sentence_end() -> None:
    gold = Gold.of(r"\boxed{7}", AnswerType.NV)
    text = "Take $g = 9.81$ as given. Then it is 7 s."
    hits = check(text, gold, "g is 9.81 m/s^2")
    assert [h.sentence for h in hits] == [1]


def test_the_sample_guidance_passes_and_its_answers_do_not() -> None:
    """The committed sample guidance names methods only: no rule fires on any of its 40
    texts; the same texts with the gold appended are all caught."""
    from studybench.data import load_parents
    from tests.conftest import SAMPLE

    caught = 0
    for parent in load_parents(SAMPLE / "guidance.json"):
        for sub in parent.sub_problems:
            gold = Gold.of(sub.answer, sub.answer_type, sub.type_sequence)
            problem = f"{parent.problem}\n{sub.problem}"
            assert check(sub.guidance, gold, problem) == [], (parent.source_problem_id, sub)
            caught += bool(check(f"{sub.guidance} The result is {sub.answer}.", gold, problem))
    assert caught == 40
